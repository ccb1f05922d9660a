//! Gomoku benchmark: nodes per second and depth reached in 1 s on 15×15 and
//! 20×20 middle-game positions, the time to solve each VCF puzzle, and a
//! match against the seeds' AI. Prints a table.
//!
//! `cargo bench --bench gomoku` (add `-- --quick` for a shorter match,
//! `-- --trace` to log each search iteration to stderr, `-- --fixed-depth N`
//! for the nodes each position needs to reach depth N: exact, repeatable
//! figures for comparing search shapes on a busy machine, `-- --threads N`
//! for the time each position takes to depth N at one thread and at two,
//! with `--repeat K` for K rounds over the positions).

use std::path::Path;
use std::time::{Duration, Instant};

use gameai::games::gomoku::seeds::{self, GameResult};
use gameai::games::gomoku::{self, Rules};
use gameai::games::{GameKind, Player, Position, PositionSpec};
use gameai::search::{Limits, Workspace};
use serde_json::Value;

#[path = "common/threads.rs"]
mod threads;

const DATA: &str = "../shared/data/gomoku";
/// The bar: Rapfi's classical search on one core here, 1 s on each of three
/// middle-game positions, as issue 17 measured it (a range over the
/// positions, not per position; its selective depth reached 23-42).
const RAPFI_NPS: &str = "460-760 k";
const RAPFI_DEPTH: &str = "14-16";

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

/// Shifts a cell name by `dr` rows and `dc` columns.
fn shift(cell: &str, dr: u8, dc: u8) -> String {
    let col = (cell.as_bytes()[0] + dc) as char;
    let row: u8 = cell[1..].parse().expect("a row number");
    format!("{col}{}", row + dr)
}

/// Middle-game positions from the opening of Rapfi's own games (the VCF
/// puzzles' move lists, cut long before the win): (label, size, rules,
/// moves). The 20×20 one is a 15×15 game moved off-centre.
fn middle_games(puzzles: &[Value]) -> Vec<(String, Position)> {
    let game = |id: &str| {
        let p = puzzles.iter().find(|p| p["id"] == id).expect("a puzzle id");
        (strings(&p["moves"]), p["rule"].as_str().unwrap().to_owned())
    };
    let mut out = Vec::new();
    for (id, plies) in [("vcf-001", 24), ("vcf-002", 30), ("vcf-016", 24)] {
        let (moves, rule) = game(id);
        let moves: Vec<String> = moves.into_iter().take(plies).collect();
        out.push((
            format!("15x15 {rule}, {id} after {plies}"),
            position(15, rule, moves),
        ));
    }
    for (id, plies) in [("vcf-001", 24), ("vcf-002", 30)] {
        let (moves, _) = game(id);
        let moves: Vec<String> = moves.iter().take(plies).map(|m| shift(m, 3, 4)).collect();
        out.push((
            format!("20x20 freestyle, {id} after {plies}"),
            position(20, "freestyle".into(), moves),
        ));
    }
    out
}

fn position(size: u32, rules: String, moves: Vec<String>) -> Position {
    GameKind::Gomoku
        .parse(&PositionSpec {
            moves: Some(moves),
            size: Some(size),
            rules: Some(rules),
            ..Default::default()
        })
        .expect("a valid position")
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    if std::env::args().any(|a| a == "--trace") {
        tracing_subscriber::fmt()
            .with_env_filter("gameai::games::gomoku=trace")
            .with_writer(std::io::stderr)
            .init();
    }
    let mut ws = Workspace::default();

    let puzzles = data("vcf_puzzles.jsonl").unwrap_or_default();
    let fixed_depth = std::env::args()
        .skip_while(|a| a != "--fixed-depth")
        .nth(1)
        .and_then(|d| d.parse::<u32>().ok());
    let threads_depth = std::env::args()
        .skip_while(|a| a != "--threads")
        .nth(1)
        .and_then(|d| d.parse::<u32>().ok());
    if let Some(depth) = threads_depth {
        // One thread against two, to the same depth without a deadline
        // (ok: the depth reached, or a proof on the way). `--repeat K`
        // times each position K times (rounds over all of them), so the
        // median is over K times as many ratios.
        let repeat = std::env::args()
            .skip_while(|a| a != "--repeat")
            .nth(1)
            .and_then(|k| k.parse::<usize>().ok())
            .unwrap_or(1);
        let games = middle_games(&puzzles);
        // The first search of a process pays for its start (tables drawn,
        // memory mapped): not the threads' to carry.
        for (_, pos) in &games {
            pos.search(&Limits::depth(depth), &mut Workspace::default());
        }
        let rounds: Vec<_> = (0..repeat).flat_map(|_| games.iter().cloned()).collect();
        threads::compare(
            &format!("Gomoku, depth {depth}"),
            &rounds,
            |(label, _)| label.clone(),
            |(_, pos), threads| {
                let mut ws = Workspace::default();
                let r = pos.search(&Limits::depth(depth).with_threads(threads), &mut ws);
                (r.nodes, r.depth == depth || r.proven.is_some())
            },
        );
        return;
    }
    if let Some(depth) = fixed_depth {
        // Deterministic: no deadline, so the node counts repeat exactly and
        // compare search shapes without the machine's noise.
        println!("## Nodes to depth {depth} (no deadline, cold tables)\n");
        println!("| position | nodes | ms | best | score |");
        println!("| --- | ---: | ---: | --- | ---: |");
        let mut total = 0;
        for (label, pos) in middle_games(&puzzles) {
            let mut ws = Workspace::default();
            let start = Instant::now();
            let r = pos.search(&Limits::depth(depth), &mut ws);
            total += r.nodes;
            println!(
                "| {label} | {} | {:.0} | {} | {} |",
                r.nodes,
                start.elapsed().as_secs_f64() * 1e3,
                r.best_move.notation,
                r.score
            );
        }
        println!("\ntotal {total} nodes");
        return;
    }

    println!("## Search speed (1 s per position, cold tables, median of 3 runs)\n");
    println!(
        "Rapfi (classical evaluation, one core of these machines; issue 17's figures, \
         not measured by this bench): {RAPFI_NPS} nodes/s, depth {RAPFI_DEPTH} in 1 s.\n"
    );
    println!("| position | nodes/s | depth | Rapfi nodes/s | Rapfi depth | best | score |");
    println!("| --- | ---: | ---: | ---: | ---: | --- | ---: |");
    for (label, pos) in middle_games(&puzzles) {
        let mut runs = Vec::new();
        for _ in 0..3 {
            // A cold worker each time: nothing carried over between runs.
            let mut ws = Workspace::default();
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
        println!(
            "| {label} | {:.0} | {depth} | {RAPFI_NPS} | {RAPFI_DEPTH} | {best} | {score} |",
            nps
        );
    }

    if !puzzles.is_empty() {
        println!("\n## VCF puzzles (depth 1, no deadline, cold tables)\n");
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
            let mut ws = Workspace::default();
            let start = Instant::now();
            let r = pos.search(&Limits::depth(1), &mut ws);
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
        let mut engine_time = Duration::ZERO;
        let mut engine_moves = 0u32;
        let mut seeds_time = Duration::ZERO;
        let mut seeds_moves = 0u32;
        for opening in openings.iter().take(count) {
            let moves = strings(&opening["moves"]);
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            for side in [Player::X, Player::O] {
                let game = seeds::play_game(15, Rules::Freestyle, &moves, side, time_ms, &mut ws);
                slowest = slowest.max(game.engine_slowest);
                engine_time += game.engine_time;
                engine_moves += game.engine_moves;
                seeds_time += game.seeds_time;
                seeds_moves += game.seeds_moves;
                let (result, record) = (game.result, game.moves);
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
            "| engine wins | seeds wins | draws | engine ms/move | engine slowest move | seeds ms/move |"
        );
        println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
        println!(
            "| {won} | {lost} | {drawn} | {:.0} | {} ms | {:.0} |",
            engine_time.as_secs_f64() * 1e3 / f64::from(engine_moves.max(1)),
            slowest.as_millis(),
            seeds_time.as_secs_f64() * 1e3 / f64::from(seeds_moves.max(1))
        );
    }
}
