//! The FFO endgame suite as the reference files give it (`.obf`: 64 board
//! characters top-left first, the side to move, then `MOVE:SCORE` pairs),
//! shared by the othello tests and bench.
#![allow(dead_code)]

use gameai::games::Player;
use gameai::games::othello::Othello;

#[path = "require.rs"]
mod require;

/// One FFO line: the position, side to move, and the best score and moves.
pub struct Ffo {
    pub number: usize,
    pub pos: Othello,
    pub best_score: i32,
    pub best_moves: Vec<String>,
    /// Every move the file scores, with its exact value.
    pub values: Vec<(String, i32)>,
}

/// The positions of `file` under `../shared/data/othello/`, numbered from
/// `first`; `None` when the file is absent and not required (see `require`).
pub fn load(file: &str, first: usize) -> Option<Vec<Ffo>> {
    let path = require::data(&format!("othello/{file}"))?;
    let text = std::fs::read_to_string(&path).expect("a readable FFO file");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('%'))
    {
        let (board, rest) = line.split_at(64);
        let (mut black, mut white) = (0u64, 0u64);
        for (i, ch) in board.chars().enumerate() {
            match ch {
                'X' => black |= 1 << i,
                'O' => white |= 1 << i,
                _ => {}
            }
        }
        let mut fields = rest.split(';').map(str::trim);
        let side = match fields.next() {
            Some("X") => Player::X,
            Some("O") => Player::O,
            other => panic!("bad side {other:?}"),
        };
        let scored: Vec<(String, i32)> = fields
            .filter(|f| !f.is_empty())
            .map(|f| {
                let (mv, score) = f.split_once(':').expect("MOVE:SCORE");
                (mv.to_ascii_lowercase(), score.parse().expect("a score"))
            })
            .collect();
        let best_score = scored.iter().map(|s| s.1).max().expect("scores");
        out.push(Ffo {
            number: first + out.len(),
            pos: Othello::new(black, white, side).expect("no overlap"),
            best_score,
            best_moves: scored
                .iter()
                .filter(|s| s.1 == best_score)
                .map(|s| s.0.clone())
                .collect(),
            values: scored,
        });
    }
    Some(out)
}
