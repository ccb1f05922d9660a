//! Gomoku benchmark: nodes per second and depth reached in 1 s on 15×15 and
//! 20×20 middle-game positions, the time to solve each VCF puzzle, and a
//! match against the seeds' AI. Prints a table.
//!
//! `cargo bench --bench gomoku` (add `-- --quick` for a shorter match).

use std::path::Path;
use std::time::{Duration, Instant};

use gameai::games::gomoku::seeds::{self, GameResult};
use gameai::games::gomoku::{self, Rules};
use gameai::games::{GameKind, Player, PositionSpec};
use gameai::search::{Limits, Workspace};
use serde_json::Value;

const DATA: &str = "../shared/data/gomoku";

fn data(file: &str) -> Option<Vec<Value>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DATA).join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("valid JSON"))
            .collect(),
    )
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

/// Middle-game positions: (label, size, rules, moves).
fn middle_games() -> Vec<(&'static str, u32, &'static str, Vec<&'static str>)> {
    vec![
        (
            "15x15 freestyle, 16 stones",
            15,
            "freestyle",
            vec![
                "h8", "h7", "i7", "g9", "j6", "k5", "i9", "i8", "g8", "j8", "k8", "f8", "g7", "g6",
                "f6", "e5",
            ],
        ),
        (
            "15x15 renju, 14 stones",
            15,
            "renju",
            vec![
                "h8", "h7", "i7", "g9", "j6", "k5", "i9", "i8", "g8", "j8", "k8", "f8", "g7", "g6",
            ],
        ),
        (
            "20x20 freestyle, 16 stones",
            20,
            "freestyle",
            vec![
                "j10", "j9", "k9", "i11", "l8", "m7", "k11", "k10", "i10", "l10", "m10", "h10",
                "i9", "i8", "h8", "g7",
            ],
        ),
    ]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let mut ws = Workspace::default();

    println!("## Search speed (1 s per position, median of 3 runs)\n");
    println!("| position | nodes/s | depth | best | score |");
    println!("| --- | ---: | ---: | --- | ---: |");
    for (label, size, rules, moves) in middle_games() {
        let pos = GameKind::Gomoku
            .parse(&PositionSpec {
                moves: Some(moves.iter().map(|m| m.to_string()).collect()),
                size: Some(size),
                rules: Some(rules.into()),
                ..Default::default()
            })
            .expect("a valid position");
        let mut runs = Vec::new();
        for _ in 0..3 {
            let mut limits = Limits::depth(gomoku::MAX_DEPTH);
            let start = Instant::now();
            limits.deadline = Some(start + Duration::from_secs(1));
            let r = pos.search(&limits, &mut ws);
            let secs = start.elapsed().as_secs_f64();
            runs.push((
                r.nodes as f64 / secs,
                r.depth,
                r.best_move.notation,
                r.score,
            ));
        }
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (nps, depth, best, score) = &runs[1];
        println!("| {label} | {:.0} | {depth} | {best} | {score} |", nps);
    }

    if let Some(puzzles) = data("vcf_puzzles.jsonl") {
        println!("\n## VCF puzzles (depth 1, no deadline)\n");
        println!("| id | rule | plies (file) | plies (found) | move | time ms |");
        println!("| --- | --- | ---: | ---: | --- | ---: |");
        let mut total = Duration::ZERO;
        for p in &puzzles {
            let pos = GameKind::Gomoku
                .parse(&PositionSpec {
                    moves: Some(strings(&p["moves"])),
                    rules: p["rule"].as_str().map(String::from),
                    ..Default::default()
                })
                .expect("a valid puzzle");
            let start = Instant::now();
            let r = pos.search(&Limits::depth(1), &mut Workspace::default());
            let t = start.elapsed();
            total += t;
            println!(
                "| {} | {} | {} | {} | {} | {:.1} |",
                p["id"].as_str().unwrap(),
                p["rule"].as_str().unwrap(),
                p["plies_to_win"],
                r.proven.map_or("-".to_owned(), |x| x.plies.to_string()),
                r.best_move.notation,
                t.as_secs_f64() * 1e3
            );
        }
        println!("\ntotal {:.1} ms", total.as_secs_f64() * 1e3);
    }

    if let Some(openings) = data("renju_26_openings.jsonl") {
        let (count, time_ms) = if quick { (4, 200) } else { (26, 200) };
        println!(
            "\n## Match against the seeds' AI (freestyle 15x15, {count} openings x 2 colours, {time_ms} ms per move)\n"
        );
        let (mut won, mut lost, mut drawn) = (0, 0, 0);
        let mut slowest = Duration::ZERO;
        let mut seeds_time = Duration::ZERO;
        let mut seeds_moves = 0u32;
        for opening in openings.iter().take(count) {
            let moves = strings(&opening["moves"]);
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            for side in [Player::X, Player::O] {
                let start = Instant::now();
                let (result, record, slow) =
                    seeds::play_game(15, Rules::Freestyle, &moves, side, time_ms, &mut ws);
                let elapsed = start.elapsed();
                slowest = slowest.max(slow);
                let engine_moves = (record.len() - moves.len()).div_ceil(2) as u32;
                seeds_moves += (record.len() - moves.len()) as u32 - engine_moves;
                seeds_time += elapsed
                    .saturating_sub(Duration::from_millis(u64::from(engine_moves) * time_ms));
                match result {
                    GameResult::EngineWon => won += 1,
                    GameResult::SeedsWon => {
                        lost += 1;
                        println!("lost {} as {side:?}: {}", opening["id"], record.join(" "));
                    }
                    GameResult::Draw => drawn += 1,
                }
            }
        }
        println!(
            "| engine wins | seeds wins | draws | engine slowest move | seeds ms/move (approx.) |"
        );
        println!("| ---: | ---: | ---: | ---: | ---: |");
        println!(
            "| {won} | {lost} | {drawn} | {} ms | {:.0} |",
            slowest.as_millis(),
            seeds_time.as_secs_f64() * 1e3 / f64::from(seeds_moves.max(1))
        );
    }
}
