//! Builds Connect Four's opening book (`src/games/connect4/book.bin`)
//! from nothing with our own solver.
//!
//! The book holds every position the service meets when it plays its own
//! book moves from the empty board against any replies, as either side:
//! ply 0 (the empty board), ply 1 (every first move), then from each entry
//! at ply `p` its best move followed by every reply gives the entries at
//! `p + 2`, up to `--plies` (default 8: X's positions to ply 8, O's to 7).
//! Each entry is solved exactly, and its best move chosen centre first
//! among the equally good, so the book is the same on every run. With
//! `--children-to-ply K` the scores of the other moves of entries with at
//! most K discs are solved too (multi-line answers and `randomize` then
//! need no search there).
//!
//! It is resumable: each solved entry is appended to the progress file
//! (`--progress`, default `target/connect4-book.progress`) as it is found,
//! and a new run skips what that file and the book already written to
//! `--out` hold (so a deeper book grows from the committed one). Positions of one ply are shared
//! among `--threads` threads, each with its own table of `--table-mb` MiB;
//! the table is kept from one position to the next (its bounds are exact).
//!
//! `cargo run --release --example connect4_book -- --threads 2`

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use gameai::games::connect4::board::{Board, WIDTH};
use gameai::games::connect4::book::{Book, Entry, UNKNOWN, obvious_scores};
use gameai::games::connect4::solver::Solver;
use gameai::games::connect4::table::SolverTable;
use gameai::search::EngineTables;

struct Options {
    plies: u32,
    children_to_ply: Option<u32>,
    threads: usize,
    table_mb: usize,
    progress: PathBuf,
    out: PathBuf,
}

fn options() -> Options {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut o = Options {
        plies: 8,
        children_to_ply: None,
        threads: 1,
        table_mb: 1024,
        progress: root.join("target/connect4-book.progress"),
        out: root.join("src/games/connect4/book.bin"),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let number = || {
            value
                .parse::<usize>()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a number, got {value}")))
        };
        match flag.as_str() {
            "--plies" => o.plies = number() as u32,
            "--children-to-ply" => o.children_to_ply = Some(number() as u32),
            "--threads" => o.threads = number().max(1),
            "--table-mb" => o.table_mb = number(),
            "--progress" => o.progress = value.into(),
            "--out" => o.out = value.into(),
            _ => usage(&format!("unknown option {flag}")),
        }
    }
    o
}

fn usage(why: &str) -> ! {
    eprintln!(
        "{why}\nusage: connect4_book [--plies N] [--children-to-ply K] [--threads N] \
         [--table-mb MiB] [--progress FILE] [--out FILE]"
    );
    std::process::exit(2)
}

/// One line of the progress file: `ply key s1 … s7`.
fn parse_line(line: &str) -> Option<Entry> {
    let mut f = line.split_whitespace();
    let ply = f.next()?.parse().ok()?;
    let key = f.next()?.parse().ok()?;
    let mut scores = [UNKNOWN; WIDTH];
    for s in &mut scores {
        *s = f.next()?.parse().ok()?;
    }
    Some(Entry { key, ply, scores })
}

fn format_line(e: &Entry) -> String {
    let scores: Vec<String> = e.scores.iter().map(|s| s.to_string()).collect();
    format!("{} {} {}", e.ply, e.key, scores.join(" "))
}

/// Entries found so far, by key, and the file that keeps them.
struct Progress {
    entries: BTreeMap<u64, Entry>,
    file: File,
}

impl Progress {
    fn open(path: &PathBuf) -> Self {
        let mut entries = BTreeMap::new();
        if let Ok(f) = File::open(path) {
            for line in BufReader::new(f).lines() {
                // A line cut short by an interruption is ignored.
                if let Some(e) = line.ok().as_deref().and_then(parse_line) {
                    entries.insert(e.key, e);
                }
            }
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the progress file's folder");
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the progress file opens");
        Self { entries, file }
    }

    fn record(&mut self, e: Entry) {
        writeln!(self.file, "{}", format_line(&e)).expect("the progress file is writable");
        self.file.flush().expect("the progress file is writable");
        self.entries.insert(e.key, e);
    }
}

/// The book's positions of ply `ply`, as boards in their stored
/// orientation, by key.
fn positions_at(
    ply: u32,
    entries: &BTreeMap<u64, Entry>,
    boards: &BTreeMap<u64, Board>,
) -> BTreeMap<u64, Board> {
    let mut out = BTreeMap::new();
    let mut add = |b: Board| {
        if !b.last_mover_won() && !b.is_full() {
            let m = b.mirrored();
            let b = if m.key() < b.key() { m } else { b };
            out.insert(b.key(), b);
        }
    };
    match ply {
        0 => add(Board::new()),
        1 => {
            for col in 0..WIDTH {
                let mut b = Board::new();
                b.play_col(col);
                add(b);
            }
        }
        _ => {
            for (key, parent) in boards.iter().filter(|(_, b)| b.moves() + 2 == ply) {
                let (best, _) = entries[key].best().expect("every entry has a best move");
                let mut reply = *parent;
                reply.play_col(best);
                if reply.last_mover_won() || reply.is_full() {
                    continue;
                }
                for col in (0..WIDTH).filter(|&c| reply.can_play(c)) {
                    let mut b = reply;
                    b.play_col(col);
                    add(b);
                }
            }
        }
    }
    out
}

/// The entry of `board`: its exact score and best move, and what the rules
/// alone say of its other columns.
fn solve_entry(table: &mut SolverTable, book: &Book, board: &Board) -> (Entry, u64) {
    let mut solver = Solver::keeping_table(table, None).with_book(book);
    let score = solver.solve(board).expect("no limits");
    let best = solver.first_best_move(board, score).expect("no limits");
    let mut scores = obvious_scores(board);
    scores[best] = score as i8;
    (Entry::of(board, scores), solver.nodes)
}

/// `entry` with every unknown, playable column solved.
fn solve_children(table: &mut SolverTable, book: &Book, board: &Board) -> (Entry, u64) {
    let mut solver = Solver::keeping_table(table, None).with_book(book);
    // Boards are kept in their stored orientation, so the columns agree.
    let mut scores = book.entry(board).expect("an entry of the book").scores;
    for (col, slot) in scores.iter_mut().enumerate() {
        if *slot != UNKNOWN {
            continue;
        }
        let mut child = *board;
        child.play_col(col);
        let score = if child.is_full() {
            0
        } else {
            -solver.solve(&child).expect("no limits")
        };
        *slot = score as i8;
    }
    let nodes = solver.nodes;
    (Entry::of(board, scores), nodes)
}

/// Runs `work` on every board of `todo`, shared among the threads, and
/// records each result as it comes.
fn run_all(
    label: &str,
    todo: &[Board],
    tables: &mut [SolverTable],
    progress: &Mutex<Progress>,
    work: impl Fn(&mut SolverTable, &Book, &Board) -> (Entry, u64) + Sync,
) {
    // What is known so far answers wherever the solves meet it.
    let book = Book::from_entries(progress.lock().unwrap().entries.values().copied());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for table in tables.iter_mut() {
            let (next, done, book, work) = (&next, &done, &book, &work);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(board) = todo.get(i) else { break };
                    let t = Instant::now();
                    let (entry, nodes) = work(table, book, board);
                    progress.lock().unwrap().record(entry);
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    println!(
                        "{label}: {n}/{} solved ({:.2} s, {nodes} nodes; {:.0} s in all)",
                        todo.len(),
                        t.elapsed().as_secs_f64(),
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
}

fn main() {
    let o = options();
    let start = Instant::now();
    let progress = Mutex::new(Progress::open(&o.progress));
    if let Ok(bytes) = std::fs::read(&o.out) {
        let book = Book::from_bytes(&bytes).expect("the book at --out is well formed");
        let mut p = progress.lock().unwrap();
        for e in book.entries() {
            p.entries.entry(e.key).or_insert(*e);
        }
    }
    println!(
        "{} entries already in {}",
        progress.lock().unwrap().entries.len(),
        o.progress.display()
    );
    // One table a thread, kept for the whole run.
    let mut tables: Vec<SolverTable> = (0..o.threads)
        .map(|_| SolverTable::with_bytes(o.table_mb << 20))
        .collect();
    let mut boards: BTreeMap<u64, Board> = BTreeMap::new();
    // The first moves before the empty board, whose value they then give.
    let order = [1, 0]
        .into_iter()
        .chain(2..=o.plies)
        .filter(|&p| p <= o.plies);
    for ply in order {
        let wanted = positions_at(ply, &progress.lock().unwrap().entries, &boards);
        let todo: Vec<Board> = {
            let p = progress.lock().unwrap();
            wanted
                .iter()
                .filter(|(k, _)| !p.entries.contains_key(k))
                .map(|(_, b)| *b)
                .collect()
        };
        println!(
            "ply {ply}: {} positions, {} to solve",
            wanted.len(),
            todo.len()
        );
        run_all(
            &format!("ply {ply}"),
            &todo,
            &mut tables,
            &progress,
            solve_entry,
        );
        boards.extend(wanted);
    }
    if let Some(k) = o.children_to_ply {
        let todo: Vec<Board> = {
            let p = progress.lock().unwrap();
            boards
                .iter()
                .filter(|(key, b)| {
                    b.moves() <= k
                        && p.entries[key]
                            .scores
                            .iter()
                            .enumerate()
                            .any(|(c, &s)| s == UNKNOWN && b.can_play(c))
                })
                .map(|(_, b)| *b)
                .collect()
        };
        println!("children to ply {k}: {} entries to complete", todo.len());
        run_all("children", &todo, &mut tables, &progress, solve_children);
    }
    let p = progress.lock().unwrap();
    let book = Book::from_entries(
        p.entries
            .values()
            .filter(|e| boards.contains_key(&e.key))
            .copied(),
    );
    let bytes = book.to_bytes();
    std::fs::write(&o.out, &bytes).expect("the book file is writable");
    println!(
        "wrote {} entries, {} bytes, deepest ply {}, to {} in {:.0} s",
        book.len(),
        bytes.len(),
        book.deepest_ply(),
        o.out.display(),
        start.elapsed().as_secs_f64()
    );
}
