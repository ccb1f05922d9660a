//! Connect Four solver benchmark over Pascal Pons' six test sets.
//!
//! For each set: positions solved, mean and max CPU time per position, mean
//! nodes, nodes per second and wrong scores, next to the figures of Pons'
//! own solver measured on this machine (issue 3), so the two read side by
//! side. Each position is solved on a fresh table generation, as his bench
//! clears its table before each position.
//!
//! `cargo bench --bench connect4` runs everything (Test_L1_R3: first 50
//! positions only). Arguments narrow it: `-- L2_R2 L1_R2` runs only those
//! sets, `--limit N` caps the positions per set.
//!
//! `-- --service` measures the service's answer instead (the opening book,
//! then the solver with the book's help, within the default time, as
//! `/v1/search` runs it): the book's size and depth, the time per answer
//! for every book position, and for each set how many positions answer
//! proven within the default time (Test_L1_R3: all 1000 unless `--limit`).
//!
//! `-- --threads` times the solver at one thread and at two on the first
//! 50 positions of Test_L1_R2 (`--limit N`: the first N).

use std::path::Path;
use std::time::Duration;

use std::time::Instant;

use gameai::games::connect4::board::{Board, WIDTH};
use gameai::games::connect4::book::Book;
use gameai::games::connect4::solver::Solver;
use gameai::games::connect4::table::SolverTable;
use gameai::games::connect4::{DEFAULT_TIME_MS, search};
use gameai::search::{Limits, Workspace};
use gameai::vocabulary::Source;

#[path = "common/threads.rs"]
mod threads;

/// Set, positions to run by default, Pons' mean CPU time and mean nodes.
const SETS: [(&str, usize, &str, &str); 6] = [
    ("Test_L3_R1", 1000, "15 µs", "51"),
    ("Test_L2_R1", 1000, "70 µs", "449"),
    ("Test_L2_R2", 1000, "6.5 ms", "39,808"),
    ("Test_L1_R1", 1000, "0.43 ms", "3,296"),
    ("Test_L1_R2", 1000, "178 ms", "1,187,923"),
    ("Test_L1_R3", 50, "7.9 s", "48,679,022"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let limit = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok());
    let wanted: Vec<&String> = args
        .iter()
        .filter(|a| a.contains("_R") && !a.starts_with("--"))
        .collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4");
    if !dir.exists() {
        println!("skipped: {} is absent", dir.display());
        return;
    }
    if args.iter().any(|a| a == "--threads") {
        threads_mode(&dir, limit.unwrap_or(50));
        return;
    }
    if args.iter().any(|a| a == "--service") {
        service(&dir, &wanted, limit);
        return;
    }
    let mut table = SolverTable::default();
    println!(
        "| set | solved | mean time | max time | mean nodes | nodes/s | wrong | Pons mean CPU | Pons mean nodes |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, default_count, pons_time, pons_nodes) in SETS {
        if !wanted.is_empty() && !wanted.iter().any(|w| name.ends_with(w.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(name)).expect("readable test set");
        let count = limit.unwrap_or(default_count).min(default_count);
        let (mut total, mut max, mut nodes, mut wrong, mut solved) =
            (Duration::ZERO, Duration::ZERO, 0u64, 0, 0usize);
        for line in text.lines().take(count) {
            let (moves, expected) = line.split_once(' ').expect("`moves score` lines");
            let expected: i32 = expected.trim().parse().expect("a score");
            let mut board = Board::new();
            for ch in moves.bytes() {
                board.play_col(usize::from(ch - b'1'));
            }
            let start = thread_cpu_time();
            let mut solver = Solver::new(&mut table, None);
            let score = solver.solve(&board).expect("no limits, no abort");
            let n = solver.nodes;
            let time = thread_cpu_time() - start;
            total += time;
            max = max.max(time);
            nodes += n;
            wrong += usize::from(score != expected);
            solved += 1;
        }
        let mean = total / solved.max(1) as u32;
        println!(
            "| {name} | {solved} | {} | {} | {} | {} | {wrong} | {pons_time} | {pons_nodes} |",
            show_time(mean),
            show_time(max),
            thousands(nodes / solved.max(1) as u64),
            thousands((nodes as f64 / total.as_secs_f64().max(1e-9)) as u64),
        );
    }
}

/// One thread against two: the first `count` positions of Test_L1_R2
/// solved exactly (without the book), score and line, as the service's
/// solver does (ok: the right score).
fn threads_mode(dir: &Path, count: usize) {
    let text = std::fs::read_to_string(dir.join("Test_L1_R2")).expect("readable test set");
    let positions: Vec<(String, Board, i32)> = text
        .lines()
        .take(count)
        .map(|line| {
            let (moves, expected) = line.split_once(' ').expect("`moves score` lines");
            let mut board = Board::new();
            for ch in moves.bytes() {
                board.play_col(usize::from(ch - b'1'));
            }
            (
                moves.to_owned(),
                board,
                expected.trim().parse().expect("a score"),
            )
        })
        .collect();
    let mut table = SolverTable::default();
    threads::compare(
        &format!("Connect Four, first {count} of Test_L1_R2, solved"),
        &positions,
        |(moves, _, _)| moves.clone(),
        |(_, board, expected), threads| {
            let limits = Limits::depth(42).with_threads(threads);
            let (solved, nodes) = search::solve(board, &limits, &mut table, None);
            (nodes, solved.is_ok_and(|(score, _)| score == *expected))
        },
    );
}

/// The service's answers: the book's, then the solver's within the
/// default time.
fn service(dir: &Path, wanted: &[&String], limit: Option<usize>) {
    let book = Book::embedded();
    let mut ws = Workspace::default();
    let mut answer = |board: &Board| {
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_millis(DEFAULT_TIME_MS)),
            ..Limits::depth(board.empty_cells())
        };
        let start = Instant::now();
        let report = search::search(board, &limits, &mut ws);
        (report, start.elapsed())
    };
    println!(
        "book: {} entries, {} bytes, positions of up to {} discs",
        book.len(),
        book.to_bytes().len(),
        book.deepest_ply()
    );
    let mut times = Vec::new();
    for entry in book.entries() {
        let board = board_of_key(entry.key);
        let (report, time) = answer(&board);
        assert_eq!(
            report.source,
            Source::Book,
            "an entry answers from the book"
        );
        times.push(time);
    }
    times.sort();
    println!(
        "every book position: median {}, max {}",
        show_time(times[times.len() / 2]),
        show_time(times[times.len() - 1])
    );
    println!();
    println!(
        "| set | positions | proven within {DEFAULT_TIME_MS} ms | from the book | median time | max time |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, _, _, _) in SETS {
        if !wanted.is_empty() && !wanted.iter().any(|w| name.ends_with(w.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(name)).expect("readable test set");
        let (mut proven, mut from_book, mut times) = (0, 0, Vec::new());
        for line in text.lines().take(limit.unwrap_or(usize::MAX)) {
            let moves = line.split(' ').next().expect("`moves score` lines");
            let mut board = Board::new();
            for ch in moves.bytes() {
                board.play_col(usize::from(ch - b'1'));
            }
            let (report, time) = answer(&board);
            proven += usize::from(report.proven.is_some());
            from_book += usize::from(report.source == Source::Book);
            times.push(time);
        }
        times.sort();
        println!(
            "| {name} | {} | {proven} | {from_book} | {} | {} |",
            times.len(),
            show_time(times[times.len() / 2]),
            show_time(times[times.len() - 1])
        );
    }
}

/// The position of a book key: each 7-bit column holds the side to move's
/// discs plus the filled part, so a column of height `h` sums to between
/// `2^h - 1` and `2^(h+1) - 2`.
fn board_of_key(key: u64) -> Board {
    let (mut mine, mut theirs, mut discs) = (0u64, 0u64, 0);
    for col in 0..WIDTH {
        let bits = (key >> (col * 7)) & 0x7f;
        let height = (bits + 1).ilog2();
        let filled = (1u64 << height) - 1;
        mine |= (bits - filled) << (col * 7);
        theirs |= (filled & !(bits - filled)) << (col * 7);
        discs += height;
    }
    if discs % 2 == 0 {
        Board::from_discs(mine, theirs)
    } else {
        Board::from_discs(theirs, mine)
    }
}

/// CPU time of this thread: the machine is shared, and wall time would
/// count the time other processes hold the core (Pons' figures are CPU
/// time too).
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `ts` is.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "CLOCK_THREAD_CPUTIME_ID is available on Linux");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn show_time(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
