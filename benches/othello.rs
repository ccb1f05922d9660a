//! Othello benchmark: perft(10) from the start, and the FFO endgame suite
//! #40–#59 solved exactly, one position at a time on one thread.
//!
//! `cargo bench --bench othello` runs perft and #40–#59; arguments narrow
//! it: `perft`, `ffo`, FFO numbers/ranges such as `40-49` or `41 45`, and
//! `cap=S` to give up on a position after S seconds (reported as such),
//! and `zebra=DIR` to solve each position with Zebra too (the `zebra`
//! binary and `coeffs2.bin` in DIR, built as `../shared/ANCHORS.md` says),
//! one process right after ours, for a side-by-side CPU time; likewise
//! `egaroucid=EXE` with Egaroucid-web's native build (its exact level 60).
//! `depth [D]` searches 24 midgame positions to depth D (default 10) with
//! and without ProbCut, and prints nodes, time and how often the moves
//! agree. `strength [ms]` plays the engine (default 1000 ms per move) against a
//! positional-weight player over fixed openings, both colours. `midgame`
//! shows the depth the default one-second search reaches in a few openings.
//! `threads [D] [search|solve]` times the service's search at one thread and at two on
//! the same positions: the 24 midgame positions to depth D (default 10)
//! and FFO #40–#49 solved; `repeat=K` times each midgame position K times
//! (K rounds over them), so that the median is over K times the ratios.
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
#[path = "common/threads.rs"]
mod threads;
use ffo::Ffo;

/// The positions of one file, or none when the reference data is absent.
fn load(file: &str, first: usize) -> Vec<Ffo> {
    ffo::load(file, first).unwrap_or_default()
}

/// User plus system CPU time so far, in seconds, of this process
/// (`libc::RUSAGE_SELF`) or of its finished children (`RUSAGE_CHILDREN`).
fn cpu_seconds_of(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(who, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn cpu_seconds() -> f64 {
    cpu_seconds_of(libc::RUSAGE_SELF)
}

/// Zebra's exact solve of `pos` (its binary in `dir`): the CPU seconds it
/// took, its score and its move, from the last line of its search output.
fn zebra_solve(dir: &str, pos: &Othello) -> Option<(f64, i32, String)> {
    let board: String = pos.rows().concat().replace('.', "-");
    let side = if pos.to_move() == Player::X {
        "Black"
    } else {
        "White"
    };
    let file = std::env::temp_dir().join(format!("gameai-zebra-{}.txt", std::process::id()));
    std::fs::write(&file, format!("{board}\n{side}\n")).ok()?;
    let before = cpu_seconds_of(libc::RUSAGE_CHILDREN);
    let out = std::process::Command::new(std::path::Path::new(dir).join("zebra"))
        .current_dir(dir)
        .arg("-g")
        .arg(&file)
        .args(["-test", "-l", "60", "60", "60", "60", "60", "60"])
        .args(["-b", "0", "-r", "0", "-h", "24"])
        .output()
        .ok()?;
    let cpu = cpu_seconds_of(libc::RUSAGE_CHILDREN) - before;
    let _ = std::fs::remove_file(&file);
    // "-->  20  +38         18727124  a2 b1 c1 b6 c7     0.9 s  ..."
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().rfind(|l| l.starts_with("-->"))?;
    let mut words = last.split_whitespace().skip(2);
    let score = words.next()?.parse().ok()?;
    let mv = words.nth(1)?.to_owned();
    Some((cpu, score, mv))
}

/// Egaroucid-web's exact solve of `pos` (the native build at `exe`, level
/// 60, one process a position): the CPU seconds it took, its score and
/// its move.
fn egaroucid_solve(exe: &str, pos: &Othello) -> Option<(f64, i32, String)> {
    use std::io::Write;
    let board: String = pos.rows().concat().replace('.', "-");
    let side = if pos.to_move() == Player::X { "X" } else { "O" };
    let before = cpu_seconds_of(libc::RUSAGE_CHILDREN);
    let mut child = std::process::Command::new(exe)
        .arg("60")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    // Dropped after the line: end of input, so it answers and exits.
    writeln!(child.stdin.take()?, "{board} {side}").ok()?;
    let out = child.wait_with_output().ok()?;
    let cpu = cpu_seconds_of(libc::RUSAGE_CHILDREN) - before;
    // "a2 38"
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text.split_whitespace();
    let mv = words.next()?.to_lowercase();
    let score = words.next()?.parse().ok()?;
    Some((cpu, score, mv))
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
    if has("depth") {
        let depth = args
            .iter()
            .find_map(|a| a.parse::<u32>().ok())
            .unwrap_or(10);
        fixed_depth(depth);
        return;
    }
    if has("threads") {
        let depth = args
            .iter()
            .find_map(|a| a.parse::<u32>().ok())
            .unwrap_or(10);
        let repeat = args
            .iter()
            .find_map(|a| a.strip_prefix("repeat=")?.parse::<usize>().ok())
            .unwrap_or(1);
        // `search` or `solve` alone runs only that half.
        threads(
            depth,
            repeat,
            !has("solve") || has("search"),
            !has("search") || has("solve"),
        );
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
    // The anchors that solve each position after ours, by name.
    type Solve<'a> = Box<dyn Fn(&Othello) -> Option<(f64, i32, String)> + 'a>;
    let mut anchors: Vec<(&str, Solve)> = Vec::new();
    if let Some(dir) = args.iter().find_map(|a| a.strip_prefix("zebra=")) {
        anchors.push(("Zebra", Box::new(move |pos| zebra_solve(dir, pos))));
    }
    if let Some(exe) = args.iter().find_map(|a| a.strip_prefix("egaroucid=")) {
        anchors.push((
            "Egaroucid-web",
            Box::new(move |pos| egaroucid_solve(exe, pos)),
        ));
    }
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
    let anchor_columns: String = anchors
        .iter()
        .map(|(name, _)| format!(" {name} cpu s | {name} score, move | cpu ratio |"))
        .collect();
    println!(
        "| FFO | empties | score | expected | ok | move | best moves | nodes | time s | cpu s | Mnps |{anchor_columns}"
    );
    println!(
        "|---|---|---|---|---|---|---|---|---|---|---|{}",
        "---|---|---|".repeat(anchors.len())
    );
    let mut ws = Workspace::default();
    let mut totals = [(0u64, 0f64, 0f64, 0usize, 0usize); 2];
    // Each anchor's CPU seconds on #40-#49 and on #50-#59.
    let mut anchor_totals = vec![[0f64; 2]; anchors.len()];
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
        let theirs: Vec<_> = anchors.iter().map(|(_, solve)| solve(&ffo.pos)).collect();
        let anchor_cells: String = theirs
            .iter()
            .map(|t| match t {
                None => " failed | | |".to_owned(),
                Some((acpu, ascore, amove)) => format!(
                    " {acpu:.2} | {ascore:+} {amove} | {:.2} |",
                    cpu / acpu.max(1e-9)
                ),
            })
            .collect();
        println!(
            "| #{} | {} | {} | {:+} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} |{anchor_cells}",
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
        for (total, t) in anchor_totals.iter_mut().zip(&theirs) {
            if let Some((acpu, _, _)) = t {
                total[usize::from(ffo.number >= 50)] += acpu;
            }
        }
    }
    println!();
    for (i, (nodes, secs, cpu, count, ok)) in totals.iter().enumerate() {
        if *count > 0 {
            let range = if i == 0 { "#40-#49" } else { "#50-#59" };
            println!(
                "{range}: {count} positions, {ok} correct, {nodes} nodes, {secs:.1} s wall, {cpu:.1} s cpu, {:.1} M nodes/cpu s",
                *nodes as f64 / cpu.max(1e-9) / 1e6
            );
            for ((name, _), total) in anchors.iter().zip(&anchor_totals) {
                let theirs = total[i];
                println!(
                    "{range}: {name} {theirs:.1} s cpu; ours {:.2}x of {name}'s",
                    cpu / theirs.max(1e-9)
                );
            }
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

/// One thread against two: the 24 midgame positions searched to `depth`
/// by the service's search (ok: the depth reached), `repeat` rounds over
/// them, and FFO #40–#49 solved (ok: the right score).
fn threads(depth: u32, repeat: usize, search_half: bool, solve_half: bool) {
    let mut ws = Workspace::default();
    if search_half {
        let positions = bench_positions();
        let rounds: Vec<_> = (0..repeat)
            .flat_map(|_| positions.iter().cloned())
            .collect();
        threads::compare(
            &format!("Othello midgame, depth {depth}"),
            &rounds,
            |pos| format!("{} empties", pos.empties()),
            |pos, threads| {
                let limits = Limits::depth(depth).with_threads(threads);
                let report = search(pos, &limits, &mut ws);
                (report.nodes, report.depth == depth)
            },
        );
    }
    if !solve_half {
        return;
    }
    let problems: Vec<Ffo> = load("fforum-40-59.obf", 40)
        .into_iter()
        .filter(|f| f.number <= 49)
        .collect();
    threads::compare(
        "Othello FFO #40-#49, solved",
        &problems,
        |ffo| format!("#{}", ffo.number),
        |ffo, threads| {
            let limits = Limits::depth(60).with_threads(threads);
            let report = search(&ffo.pos, &limits, &mut ws);
            let score = report.proven.and_then(|p| p.disc_diff);
            (report.nodes, score == Some(ffo.best_score))
        },
    );
}

/// Midgame positions for fixed-depth runs: random 8-ply openings (fixed
/// seed), continued by the positional player to 44, 36 and 28 empties.
fn bench_positions() -> Vec<Othello> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    while out.len() < 24 {
        let target = [44, 36, 28][out.len() % 3];
        let mut pos = Othello::default();
        let mut ply = 0;
        while !pos.is_over() && pos.empties() > target {
            let m = pos.legal_moves();
            let mv = if m == 0 {
                PASS
            } else if ply < 8 {
                Squares(m)
                    .nth(next() as usize % m.count_ones() as usize)
                    .map_or(PASS, |sq| sq as Move)
            } else {
                positional_move(&pos)
            };
            pos.play(mv);
            ply += 1;
        }
        if !pos.is_over() && pos.legal_moves() != 0 {
            out.push(pos);
        }
    }
    out
}

/// Each bench position searched to `depth`, with ProbCut (the service's
/// search) and without it.
fn fixed_depth(depth: u32) {
    use gameai::games::othello::midgame::{Midgame, MidgameTable};
    let positions = bench_positions();
    let mut table = MidgameTable::default();
    println!(
        "| empties | ProbCut nodes | ms | exact nodes | ms | same move | score, ProbCut / exact |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut totals = [(0u64, 0f64); 2];
    let mut same = 0;
    for pos in &positions {
        let (p, o) = pos.player_opponent();
        let mut results = Vec::new();
        for (i, exact) in [false, true].into_iter().enumerate() {
            let limits = Limits::depth(depth);
            table.new_search();
            let start = Instant::now();
            let mut order: Vec<Move> = Squares(pos.legal_moves()).map(|sq| sq as Move).collect();
            let mut nodes = 0;
            let mut best = (PASS, 0);
            for d in 1..=depth {
                let mid = Midgame::new(&table, &limits);
                let mut mid = if exact { mid.exact() } else { mid };
                let iteration = mid.root(p, o, &order, d);
                nodes += mid.nodes;
                order = iteration.scored.iter().map(|&(mv, _)| mv).collect();
                best = iteration.scored[0];
            }
            let ms = start.elapsed().as_secs_f64() * 1e3;
            totals[i].0 += nodes;
            totals[i].1 += ms;
            results.push((nodes, ms, best));
        }
        let agree = results[0].2.0 == results[1].2.0;
        same += usize::from(agree);
        println!(
            "| {} | {} | {:.0} | {} | {:.0} | {} | {} / {} |",
            pos.empties(),
            results[0].0,
            results[0].1,
            results[1].0,
            results[1].1,
            if agree { "yes" } else { "no" },
            results[0].2.1,
            results[1].2.1,
        );
    }
    println!(
        "\ndepth {depth}, {} positions: ProbCut {} nodes in {:.0} ms, exact {} nodes in {:.0} ms; same move {same} of {}",
        positions.len(),
        totals[0].0,
        totals[0].1,
        totals[1].0,
        totals[1].1,
        positions.len()
    );
}
