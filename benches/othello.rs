//! Othello benchmark: perft(10) from the start, and the FFO endgame suite
//! #40–#59 solved exactly, one position at a time on one thread.
//!
//! `cargo bench --bench othello` runs perft and #40–#59; arguments narrow
//! it: `perft`, `ffo`, FFO numbers/ranges such as `40-49` or `41 45`, and
//! `cap=S` to give up on a position after S seconds (reported as such).
//! `strength [ms]` plays the engine (default 1000 ms per move) against a
//! positional-weight player over fixed openings, both colours. `midgame`
//! shows the depth the default one-second search reaches in a few openings.
//!
//! Each FFO row gives wall time and the CPU time the process spent: on a
//! shared machine the wall time includes waiting for a core, the CPU time
//! much less so.

use std::time::Instant;

use gameai::games::Player;
use gameai::games::othello::bitboard::{Squares, flips};
use gameai::games::othello::perft::perft;
use gameai::games::othello::search::search;
use gameai::games::othello::{Move, Othello, PASS};
use gameai::search::{Limits, Workspace};

#[path = "../tests/common/ffo.rs"]
mod ffo;
use ffo::Ffo;

/// The positions of one file, or none when the reference data is absent.
fn load(file: &str, first: usize) -> Vec<Ffo> {
    ffo::load(file, first).unwrap_or_default()
}

/// User plus system CPU time of this process so far, in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn wanted(args: &[String], number: usize) -> bool {
    let ranges: Vec<&String> = args
        .iter()
        .filter(|a| a.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    ranges.is_empty()
        || ranges.iter().any(|r| match r.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
                (a..=b).contains(&number)
            }
            None => r.parse() == Ok(number),
        })
}

fn main() {
    // `cargo bench` passes `--bench`; ignore flags.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let has = |w: &str| args.iter().any(|a| a == w);
    let numbers_given = args
        .iter()
        .any(|a| a.starts_with(|c: char| c.is_ascii_digit()));
    if has("midgame") {
        midgame();
        return;
    }
    if has("strength") {
        let ms = args
            .iter()
            .find_map(|a| a.parse::<u64>().ok())
            .unwrap_or(1_000);
        strength(ms);
        return;
    }
    let cap = args
        .iter()
        .find_map(|a| a.strip_prefix("cap=")?.parse::<f64>().ok());
    let run_perft = has("perft") || (!has("ffo") && !numbers_given);
    let run_ffo = has("ffo") || numbers_given || !has("perft");

    if run_perft {
        let (p, o) = Othello::default().player_opponent();
        let start = Instant::now();
        let nodes = perft(p, o, 10);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft(10) = {nodes} in {secs:.2} s: {:.1} M leaves/s (expected 24571284: {})",
            nodes as f64 / secs / 1e6,
            if nodes == 24_571_284 {
                "ok"
            } else {
                "MISMATCH"
            }
        );
    }
    if !run_ffo {
        return;
    }
    // Without numbers: the usual speed benchmark, #40-#59.
    let mut all = load("fforum-1-19.obf", 1);
    all.extend(load("fforum-20-39.obf", 20));
    all.extend(load("fforum-40-59.obf", 40));
    all.extend(load("fforum-60-79.obf", 60));
    let problems: Vec<Ffo> = all
        .into_iter()
        .filter(|f| {
            if numbers_given {
                wanted(&args, f.number)
            } else {
                (40..=59).contains(&f.number)
            }
        })
        .collect();
    if problems.is_empty() {
        return;
    }
    println!();
    println!(
        "| FFO | empties | score | expected | ok | move | best moves | nodes | time s | cpu s | Mnps |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut ws = Workspace::default();
    let mut totals = [(0u64, 0f64, 0f64, 0usize, 0usize); 2];
    for ffo in &problems {
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        let mut limits = Limits::depth(60);
        limits.deadline = cap.map(|c| start + std::time::Duration::from_secs_f64(c));
        let report = search(&ffo.pos, &limits, &mut ws);
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu_start;
        let score = report.proven.and_then(|p| p.disc_diff);
        let ok =
            score == Some(ffo.best_score) && ffo.best_moves.contains(&report.best_move.notation);
        println!(
            "| #{} | {} | {} | {:+} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} |",
            ffo.number,
            ffo.pos.empties(),
            score.map_or("gave up".to_owned(), |s| format!("{s:+}")),
            ffo.best_score,
            if ok { "yes" } else { "NO" },
            report.best_move.notation,
            ffo.best_moves.join(" "),
            report.nodes,
            secs,
            cpu,
            report.nodes as f64 / cpu.max(1e-9) / 1e6,
        );
        if !(40..=59).contains(&ffo.number) {
            continue;
        }
        let t = &mut totals[usize::from(ffo.number >= 50)];
        t.0 += report.nodes;
        t.1 += secs;
        t.2 += cpu;
        t.3 += 1;
        t.4 += usize::from(ok);
    }
    println!();
    for (i, (nodes, secs, cpu, count, ok)) in totals.iter().enumerate() {
        if *count > 0 {
            let range = if i == 0 { "#40-#49" } else { "#50-#59" };
            println!(
                "{range}: {count} positions, {ok} correct, {nodes} nodes, {secs:.1} s wall, {cpu:.1} s cpu, {:.1} M nodes/cpu s",
                *nodes as f64 / cpu.max(1e-9) / 1e6
            );
        }
    }
}

/// Square weights of the classic positional player.
const WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100,
];

/// The reference opponent: the move after which its discs' square weights
/// minus the opponent's are highest (first such move on ties).
fn positional_move(pos: &Othello) -> Move {
    let (p, o) = pos.player_opponent();
    let m = pos.legal_moves();
    if m == 0 {
        return PASS;
    }
    let value = |b: u64| Squares(b).map(|sq| WEIGHTS[sq]).sum::<i32>();
    Squares(m)
        .max_by_key(|&sq| {
            let f = flips(p, o, sq);
            // Negated index: max_by_key keeps the last maximum.
            (value(p | f | 1 << sq) - value(o & !f), -(sq as i32))
        })
        .map_or(PASS, |sq| sq as Move)
}

/// Plays the engine against the positional player from fixed openings,
/// each opening with the engine as black and as white.
fn strength(ms: u64) {
    const OPENINGS: [&[&str]; 8] = [
        &["f5", "d6"],
        &["f5", "f6"],
        &["f5", "f4"],
        &["f5", "d6", "c3", "d3", "c4"],
        &["f5", "f6", "e6", "f4"],
        &["f5", "d6", "c5", "f4", "e3"],
        &["f5", "f4", "e3", "f6", "d3"],
        &["f5", "d6", "c4", "d3", "c3"],
    ];
    let mut ws = Workspace::default();
    let (mut wins, mut draws, mut games) = (0, 0, 0);
    println!("| opening | engine | engine discs | opponent discs | result |");
    println!("|---|---|---|---|---|");
    for opening in OPENINGS {
        for engine in [Player::X, Player::O] {
            let mut pos = Othello::default();
            for mv in opening {
                pos.play_notation(mv).expect("a legal opening");
            }
            while !pos.is_over() {
                let mv = if pos.to_move() == engine {
                    let mut limits = Limits::depth(60);
                    limits.deadline = Some(Instant::now() + std::time::Duration::from_millis(ms));
                    let report = search(&pos, &limits, &mut ws);
                    let text = report.best_move.notation;
                    let mut probe = pos;
                    probe
                        .play_notation(&text)
                        .expect("the engine plays legally");
                    pos = probe;
                    continue;
                } else {
                    positional_move(&pos)
                };
                pos.play(mv);
            }
            let (mine, theirs) = (pos.discs(engine), pos.discs(engine.other()));
            let result = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => {
                    wins += 1;
                    "win"
                }
                std::cmp::Ordering::Equal => {
                    draws += 1;
                    "draw"
                }
                std::cmp::Ordering::Less => "loss",
            };
            games += 1;
            println!(
                "| {} | {} | {mine} | {theirs} | {result} |",
                opening.join(" "),
                engine.symbol()
            );
        }
    }
    println!(
        "\nengine at {ms} ms/move vs positional player: {wins} wins, {draws} draws, {} losses in {games} games ({:.0}% wins)",
        games - wins - draws,
        100.0 * wins as f64 / games as f64
    );
}

/// The default search (1 s) from a few opening and midgame positions.
fn midgame() {
    // Positions from positional-player self-play after "f5 d6".
    let plies = [0usize, 10, 20, 30, 36];
    let mut ws = Workspace::default();
    println!("| moves played | empties | best | score | depth | nodes | time ms | Mnps |");
    println!("|---|---|---|---|---|---|---|---|");
    for count in plies {
        let mut pos = Othello::default();
        for (i, mv) in ["f5", "d6"].iter().enumerate() {
            if i < count {
                pos.play_notation(mv).expect("a legal opening");
            }
        }
        for _ in 2..count {
            if pos.is_over() {
                break;
            }
            pos.play(positional_move(&pos));
        }
        let mut limits = Limits::depth(60);
        limits.deadline = Some(Instant::now() + std::time::Duration::from_millis(1_000));
        let report = search(&pos, &limits, &mut ws);
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            count,
            pos.empties(),
            report.best_move.notation,
            report.score,
            report.depth,
            report.nodes,
            report.time_ms,
            report.nodes as f64 / report.time_ms.max(1) as f64 / 1e3
        );
    }
}
