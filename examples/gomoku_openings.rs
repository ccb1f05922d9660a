//! Makes a file of balanced gomoku openings for engine matches
//! (`benches/gomoku-openings-RULE.jsonl`), where the harness's canonical
//! and random openings mostly favour black: a match between two builds of
//! similar strength then splits most pairs of games one each, and only the
//! pairs one build wins with both colours tell them apart.
//!
//! ```text
//! cargo run --release --example gomoku_openings -- RULE COUNT SEED DEPTH MARGIN OUT
//! ```
//!
//! Each candidate drops three to six stones at random within
//! [`OPENING_REACH`] rows and columns of the centre of a 15×15 board,
//! alternating colours from black, and is dropped when either side can
//! make an open four (an open three from the start). The engine
//! searches the rest to DEPTH plies (no deadline, so the same arguments
//! always give the same file) and keeps the opening when its score for
//! the side to move is within MARGIN of even and not proven, unless an
//! opening kept before has the same stones. The first COUNT kept are
//! written as JSON lines (`{"id": "B1", "moves": ["h8", ...]}`), which
//! `gomoku_match.py --openings FILE` reads.

#[path = "common/gomoku_stones.rs"]
mod gomoku_stones;
#[path = "common/parallel.rs"]
mod parallel;

use gameai::games::Game;
use gameai::games::gomoku::board::flag;
use gameai::games::gomoku::{Gomoku, Rules};
use gameai::search::{Limits, Workspace};

/// The boards are this wide.
const SIZE: usize = 15;
/// Random stones fall within this many rows and columns of the centre.
const OPENING_REACH: usize = 3;
/// The fewest and most random stones.
const STONES: (usize, usize) = (3, 6);
/// Candidates are searched this many at a time.
const BATCH: usize = 64;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 6 {
        usage("six arguments");
    }
    let rules = Rules::from_name(&args[0]).unwrap_or_else(|| usage("unknown rule"));
    let number = |i: usize, what: &str| -> u64 {
        args[i]
            .parse()
            .unwrap_or_else(|_| usage(&format!("{what} is a number")))
    };
    let count = number(1, "COUNT") as usize;
    let seed = number(2, "SEED");
    let depth = number(3, "DEPTH") as u32;
    let margin = number(4, "MARGIN") as i32;
    let mut workspaces = parallel::per_core(Workspace::default);
    let mut kept: Vec<Vec<String>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut tried = 0;
    while kept.len() < count {
        let ids: Vec<usize> = (tried..tried + BATCH).collect();
        tried += BATCH;
        let found = parallel::map_in_order(&ids, &mut workspaces, |ws, _, &id| {
            let (moves, pos) = candidate(rules, seed, id)?;
            let report = pos.search(&Limits::depth(depth), ws);
            (report.proven.is_none() && report.score.abs() <= margin).then_some(moves)
        });
        for moves in found.into_iter().flatten() {
            if seen.insert(stones_by_colour(&moves)) {
                kept.push(moves);
            }
        }
    }
    kept.truncate(count);
    let lines: String = kept
        .iter()
        .enumerate()
        .map(|(i, moves)| {
            let line = serde_json::json!({"id": format!("B{}", i + 1), "moves": moves});
            format!("{line}\n")
        })
        .collect();
    std::fs::write(&args[5], lines).expect("cannot write the openings");
    eprintln!("{count} openings kept of {tried} candidates");
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: gomoku_openings RULE COUNT SEED DEPTH MARGIN OUT");
    std::process::exit(2);
}

/// An opening's stones by colour, each colour's sorted: two openings that
/// drop the same stones in another order are the same position.
fn stones_by_colour(moves: &[String]) -> [Vec<String>; 2] {
    let mut stones: [Vec<String>; 2] = Default::default();
    for (i, m) in moves.iter().enumerate() {
        stones[i % 2].push(m.clone());
    }
    stones.iter_mut().for_each(|s| s.sort());
    stones
}

/// The `id`th candidate opening of `seed` and its position, or `None`
/// when it starts with a threat.
fn candidate(rules: Rules, seed: u64, id: usize) -> Option<(Vec<String>, Gomoku)> {
    let mut rng = gomoku_stones::game_rng(seed, id);
    let stones = STONES.0 + rng.below(STONES.1 - STONES.0 + 1);
    let mut pos = Gomoku::new(SIZE, rules);
    let moves = gomoku_stones::drop_stones(&mut pos, stones, OPENING_REACH, &mut rng);
    let threat = (0..2).any(|c| pos.board.flag_count(c, flag::OPEN_FOUR) > 0);
    (!threat).then_some((moves, pos))
}
