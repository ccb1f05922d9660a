//! A reimplementation of the AI of the engines this project started from,
//! kept as a sparring partner for the strength tests and the bench: a
//! full-board depth-2 minimax with alpha-beta over a run-counting
//! evaluation. Not used to answer requests.
//!
//! The evaluation, per stone and direction: the run it belongs to and
//! whether the run's two ends are open — five 100 000, open four 50 000,
//! closed four 10 000, open three 5 000, closed three 1 000, open two 100,
//! closed two 10, halved when an end is the board's edge; the opponent's
//! shapes weigh twice against the side that evaluates.

use std::time::{Duration, Instant};

use super::board::{Board, Cell, color};
use super::{Gomoku, Rules};
use crate::games::Player;
use crate::search::{Limits, Workspace};

const FIVE: i64 = 100_000;

/// The value of one stone's run: `len` stones, `open` free ends, `edge`
/// whether an end is the board's edge.
fn shape_value(len: usize, open: usize, edge: bool) -> i64 {
    let v = match (len, open) {
        (5.., _) => FIVE,
        (4, 2) => 50_000,
        (4, 1) => 10_000,
        (3, 2) => 5_000,
        (3, 1) => 1_000,
        (2, 2) => 100,
        (2, 1) => 10,
        _ => 0,
    };
    if edge && len < 5 { v / 2 } else { v }
}

/// The seeds' evaluation from `me`'s side.
pub fn evaluate(b: &Board, me: usize) -> i64 {
    let mut score = [0i64; 2];
    for &cell in &b.interior {
        let Some(p) = b.stone(cell) else { continue };
        let c = color(p);
        for d in 0..4 {
            let off = b.dirs[d];
            let mut len = 1;
            let mut open = 0;
            let mut edge = false;
            for sign in [1isize, -1] {
                let mut q = cell as isize + sign * off;
                while b.stone(q as Cell) == Some(p) {
                    len += 1;
                    q += sign * off;
                }
                let q = q as Cell;
                if b.is_empty(q) {
                    open += 1;
                } else if b.stone(q).is_none() {
                    edge = true;
                }
            }
            score[c] += shape_value(len, open, edge);
        }
    }
    score[me] - 2 * score[1 - me]
}

/// The seeds' move: depth-2 minimax with alpha-beta over every empty cell.
pub fn best_move(pos: &Gomoku) -> Cell {
    let mut b = pos.board.clone();
    let me = color(b.side_to_move());
    let empties: Vec<Cell> = b
        .interior
        .iter()
        .copied()
        .filter(|&c| b.is_empty(c))
        .collect();
    if empties.len() == b.size * b.size {
        return b.cell(b.size / 2, b.size / 2);
    }
    let mut best = (i64::MIN, empties[0]);
    for &m in &empties {
        b.play(m);
        if b.last_move_won() {
            b.undo();
            return m;
        }
        let mut worst = i64::MAX;
        for &r in &empties {
            if r == m {
                continue;
            }
            b.play(r);
            let v = evaluate(&b, me);
            b.undo();
            worst = worst.min(v);
            if worst <= best.0 {
                break;
            }
        }
        b.undo();
        if worst > best.0 {
            best = (worst, m);
        }
    }
    best.1
}

/// How a match game ended, from the engine's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    EngineWon,
    SeedsWon,
    Draw,
}

/// A finished match game.
#[derive(Clone, Debug)]
pub struct MatchGame {
    pub result: GameResult,
    /// Every move in notation, the opening included.
    pub moves: Vec<String>,
    /// The engine's slowest move.
    pub engine_slowest: Duration,
    /// Time the engine spent, and its number of moves.
    pub engine_time: Duration,
    pub engine_moves: u32,
    /// Time the seeds' AI spent, and its number of moves.
    pub seeds_time: Duration,
    pub seeds_moves: u32,
}

/// One game of the engine against the seeds' AI from an opening (moves in
/// notation), the engine playing `engine_side` with `time_ms` per move.
pub fn play_game(
    size: usize,
    rules: Rules,
    opening: &[&str],
    engine_side: Player,
    time_ms: u64,
    ws: &mut Workspace,
) -> MatchGame {
    let mut pos = Gomoku::new(size, rules);
    let mut game = MatchGame {
        result: GameResult::Draw,
        moves: Vec::new(),
        engine_slowest: Duration::ZERO,
        engine_time: Duration::ZERO,
        engine_moves: 0,
        seeds_time: Duration::ZERO,
        seeds_moves: 0,
    };
    for mv in opening {
        pos.play_notation(mv).expect("openings are legal");
        game.moves.push((*mv).to_owned());
    }
    loop {
        if let Some((winner, _)) = pos.winner() {
            game.result = if winner == engine_side {
                GameResult::EngineWon
            } else {
                GameResult::SeedsWon
            };
            return game;
        }
        if pos.board.is_full() {
            return game;
        }
        let start = Instant::now();
        let cell = if pos.side_to_move() == engine_side {
            let mut limits = Limits::depth(super::MAX_DEPTH);
            limits.deadline = Some(start + Duration::from_millis(time_ms));
            let report = super::root::search(&pos, &limits, ws);
            game.engine_slowest = game.engine_slowest.max(start.elapsed());
            game.engine_time += start.elapsed();
            game.engine_moves += 1;
            pos.parse_cell(&report.best_move.notation)
                .expect("the engine answers a cell")
        } else {
            let cell = best_move(&pos);
            game.seeds_time += start.elapsed();
            game.seeds_moves += 1;
            cell
        };
        let text = pos.notation(cell);
        if pos.play_notation(&text).is_err() {
            // An illegal move (only a renju forbidden point) loses.
            game.result = if pos.side_to_move() == engine_side {
                GameResult::SeedsWon
            } else {
                GameResult::EngineWon
            };
            return game;
        }
        game.moves.push(text);
    }
}
