//! Makes the othello pattern weights (`src/games/othello/weights.bin`):
//! positions from fixed-seed self-play, solved exactly, then a least-squares
//! fit of the pattern weights to the solved disc differences.
//!
//! ```text
//! cargo run --release --example othello_train -- generate GAMES SEED OUT [MIN-MAX]
//! cargo run --release --example othello_train -- fit OUT DATA...
//! cargo run --release --example othello_train -- solve DATA
//! ```
//!
//! `generate` plays GAMES games from the start (random moves early, then a
//! greedy player on the hand-made evaluation with some random moves), takes
//! one position per game with MIN to MAX empties (default: `EMPTIES`),
//! solves it and writes it with every position of its perfect-play line:
//! `player opponent score` per line (hex bitboards, side to move first).
//! The solver runs without the pattern ordering, so the file does not depend
//! on the weights it trains: the same GAMES and SEED give the same file on
//! any machine and any number of threads. `fit` reads such files and writes
//! the weights. `solve` solves a file's positions again with the current
//! weights and prints the nodes it took: how well they order the solver.
//!
//! The committed weights come from (about 20 minutes on two cores):
//!
//! ```text
//! generate 40000 1 a.txt 12-18
//! generate 4000 2 b.txt 19-20
//! fit src/games/othello/weights.bin a.txt b.txt
//! ```

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicUsize, Ordering};

use gameai::games::lines::Rng;
use gameai::games::othello::PASS;
use gameai::games::othello::bitboard::{Squares, flips, moves};
use gameai::games::othello::eval;
use gameai::games::othello::patterns::{self, SCALE, STAGES};
use gameai::games::othello::solver::{EndgameTable, Solver};
use gameai::search::Limits;

/// The solved positions' empties, unless `generate` is given a range.
const EMPTIES: (u32, u32) = (12, 20);
/// The line's positions are kept down to this many empties.
const LINE_EMPTIES: u32 = 6;
/// Moves played at random from the start.
const RANDOM_OPENING: u32 = 10;
/// Later moves are random with this chance, in percent.
const RANDOM_PERCENT: usize = 15;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") if (4..=5).contains(&args.len()) => {
            let games = args[1].parse().expect("GAMES is a number");
            let seed = args[2].parse().expect("SEED is a number");
            let range = args.get(4).map_or(EMPTIES, |r| {
                let (a, b) = r.split_once('-').unwrap_or((r, r));
                (
                    a.parse().expect("bad empties"),
                    b.parse().expect("bad empties"),
                )
            });
            generate(games, seed, range, &args[3]);
        }
        Some("fit") if args.len() >= 3 => fit(&args[1], &args[2..]),
        Some("solve") if args.len() == 2 => solve_all(&args[1]),
        _ => {
            eprintln!(
                "usage: othello_train generate GAMES SEED OUT [MIN-MAX] | fit OUT DATA... | solve DATA"
            );
            std::process::exit(2);
        }
    }
}

/// One game's chosen position, before solving: side to move first.
fn sample_position(rng: &mut Rng, (min, max): (u32, u32)) -> Option<(u64, u64)> {
    let target = min + rng.below((max - min + 1) as usize) as u32;
    let (mut p, mut o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
    let mut ply = 0;
    loop {
        let empties = 64 - (p | o).count_ones();
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return None;
            }
            (p, o) = (o, p);
            continue;
        }
        if empties == target {
            return Some((p, o));
        }
        let list: Vec<usize> = Squares(m).collect();
        let sq = if ply < RANDOM_OPENING || rng.below(100) < RANDOM_PERCENT {
            list[rng.below(list.len())]
        } else {
            // The move that leaves the opponent the worst position.
            *list
                .iter()
                .min_by_key(|&&sq| {
                    let f = flips(p, o, sq);
                    eval::evaluate(o & !f, p | f | 1 << sq)
                })
                .unwrap_or(&list[0])
        };
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | 1 << sq);
        ply += 1;
    }
}

/// Solves one game's position and returns the lines to write for it.
fn solve_game(table: &mut EndgameTable, seed: u64, range: (u32, u32), game: u64) -> String {
    let mut rng = Rng::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let Some((mut p, mut o)) = sample_position(&mut rng, range) else {
        return String::new();
    };
    table.new_search();
    let limits = Limits::depth(64);
    let Some(solution) = Solver::new(table, &limits)
        .without_patterns()
        .solve(p, o, &[])
    else {
        return String::new();
    };
    let mut out = String::new();
    let mut score = solution.score;
    for mv in std::iter::once(None).chain(solution.pv.iter().map(Some)) {
        if let Some(&mv) = mv {
            if mv != PASS {
                let f = flips(p, o, mv as usize);
                (p, o) = (p | f | 1 << mv, o & !f);
            }
            (p, o, score) = (o, p, -score);
        }
        if 64 - (p | o).count_ones() < LINE_EMPTIES {
            break;
        }
        if moves(p, o) != 0 {
            let _ = writeln!(out, "{p:016x} {o:016x} {score}");
        }
    }
    out
}

fn generate(games: u64, seed: u64, range: (u32, u32), out: &str) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let mut results: Vec<(u64, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut table = EndgameTable::default();
                    let mut done = Vec::new();
                    loop {
                        let game = next.fetch_add(1, Ordering::Relaxed) as u64;
                        if game >= games {
                            return done;
                        }
                        done.push((game, solve_game(&mut table, seed, range, game)));
                        if game % 1000 == 999 {
                            eprintln!("{} games", game + 1);
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    results.sort_unstable_by_key(|(game, _)| *game);
    let text: String = results.into_iter().map(|(_, lines)| lines).collect();
    std::fs::write(out, text).expect("cannot write the data file");
}

/// One data line: player, opponent (hex bitboards) and the exact score;
/// `None` for a blank line.
fn parse_line(line: &str) -> Option<(u64, u64, i32)> {
    let mut fields = line.split_whitespace();
    let (p, o, score) = (fields.next()?, fields.next()?, fields.next()?);
    Some((
        u64::from_str_radix(p, 16).expect("bad bitboard"),
        u64::from_str_radix(o, 16).expect("bad bitboard"),
        score.parse().expect("bad score"),
    ))
}

/// Solves every position of a data file again: the nodes it takes show
/// how well the current weights order the solver's moves.
fn solve_all(file: &str) {
    let text = std::fs::read_to_string(file).expect("cannot read the data file");
    let mut table = EndgameTable::default();
    let (mut nodes, mut count) = (0u64, 0usize);
    let start = std::time::Instant::now();
    for line in text.lines() {
        let Some((p, o, score)) = parse_line(line) else {
            continue;
        };
        table.new_search();
        let limits = Limits::depth(64);
        let mut solver = Solver::new(&mut table, &limits);
        let solution = solver.solve(p, o, &[]).expect("an unfinished game");
        assert_eq!(solution.score, score, "wrong score for {line}");
        nodes += solver.nodes;
        count += 1;
    }
    println!(
        "{count} positions, {nodes} nodes, {:.2} s",
        start.elapsed().as_secs_f64()
    );
}

/// One training position: its stage, its feature indices, its target.
struct Sample {
    stage: usize,
    features: Vec<u32>,
    target: f32,
}

fn read_samples(files: &[String]) -> Vec<Sample> {
    let mut samples = Vec::new();
    for file in files {
        let reader = BufReader::new(std::fs::File::open(file).expect("cannot open a data file"));
        for line in reader.lines() {
            let line = line.expect("cannot read a data file");
            let Some((p, o, score)) = parse_line(&line) else {
                continue;
            };
            let empties = 64 - (p | o).count_ones();
            samples.push(Sample {
                stage: patterns::stage(empties),
                features: patterns::features(p, o)
                    .into_iter()
                    .map(|f| f as u32)
                    .collect(),
                target: score as f32,
            });
        }
    }
    samples
}

/// Fits each stage's weights by stochastic gradient descent on the squared
/// error. Every weight starts at zero, so rarely seen patterns stay small.
fn fit(out: &str, files: &[String]) {
    let samples = read_samples(files);
    let per_stage = patterns::weights_per_stage();
    let windows = patterns::window_count() as f32;
    let mut weights = vec![0f32; per_stage * STAGES.len()];
    for stage in 0..STAGES.len() {
        let mut set: Vec<&Sample> = samples.iter().filter(|s| s.stage == stage).collect();
        let w = &mut weights[stage * per_stage..(stage + 1) * per_stage];
        let mut rng = Rng::new(stage as u64);
        let epochs = 40;
        for epoch in 0..epochs {
            // A fixed shuffle per epoch keeps the fit reproducible.
            for i in (1..set.len()).rev() {
                set.swap(i, rng.below(i + 1));
            }
            let rate = 0.05 * (1.0 - epoch as f32 / epochs as f32) + 0.005;
            let mut squared = 0f64;
            for s in &set {
                let predicted: f32 = s.features.iter().map(|&f| w[f as usize]).sum();
                let error = s.target - predicted;
                squared += f64::from(error * error);
                let step = rate * error / windows;
                for &f in &s.features {
                    w[f as usize] += step;
                }
            }
            if epoch % 10 == 9 || epoch == epochs - 1 {
                eprintln!(
                    "stage {stage} ({} positions) epoch {}: rms error {:.2} discs",
                    set.len(),
                    epoch + 1,
                    (squared / set.len().max(1) as f64).sqrt()
                );
            }
        }
    }
    let bytes: Vec<u8> = weights
        .iter()
        .flat_map(|&x| {
            let scaled = (x * SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32);
            (scaled as i16).to_le_bytes()
        })
        .collect();
    std::fs::write(out, bytes).expect("cannot write the weights");
}
