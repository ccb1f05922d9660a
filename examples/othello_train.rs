//! Makes the othello pattern weights (`src/games/othello/weights.bin`) from
//! positions we label ourselves: self-play games whose result from
//! `SOLVE_AT` empties on is solved exactly and backed up into every earlier
//! position of the game. Each generation of weights plays the games that
//! train the next; `examples/othello_train.sh` runs the generations that
//! made the committed weights, in order.
//!
//! ```text
//! cargo run --release --example othello_train -- selfplay GAMES SEED OUT (hand | WEIGHTS) [DEPTH]
//! cargo run --release --example othello_train -- fit OUT DATA...
//! cargo run --release --example othello_train -- loss WEIGHTS DATA...
//! cargo run --release --example othello_train -- generate GAMES SEED OUT [MIN-MAX]
//! cargo run --release --example othello_train -- solve DATA
//! cargo run --release --example othello_train -- probcut WEIGHTS DATA COUNT DEPTH
//! cargo run --release --example othello_train -- endcut WEIGHTS DATA COUNT
//! ```
//!
//! `selfplay` plays GAMES games: a random number of random moves from the
//! start (0 to `SELFPLAY_RANDOM_PLIES`, so that every stage sees varied
//! positions, good and bad), then both sides play the move of a plain
//! DEPTH-ply alpha-beta (default `SELFPLAY_DEPTH`) on the hand-made
//! evaluation (`hand`) or on the weights of the file WEIGHTS. From
//! `SOLVE_AT` empties on every position is solved exactly; every position
//! from the last random move to there is labelled with the first solved
//! score, as its side to move sees it. The player is not the engine's
//! search, and the solver's scores do not depend on its move ordering, so
//! the file depends on the arguments (and the weights) alone.
//!
//! `fit` reads such files and fits the weights: each stage by stochastic
//! gradient descent on the squared error, on its own positions and on
//! those `STAGE_OVERLAP` empties beyond either end. `loss` prints how far a
//! weights file's values are from a data file's scores, stage by stage.
//!
//! `generate` writes positions solved exactly with their perfect-play
//! lines (one per game of a greedy player), and `solve` solves a file's
//! positions again and prints the nodes it took: how well the current
//! weights order the solver. `probcut` and `endcut` measure the errors of
//! shallow searches that the midgame search's and the solver's ProbCut
//! margins were chosen from.
//!
//! Every command gives the same output for the same arguments on any
//! machine and with any number of threads.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};

#[path = "common/parallel.rs"]
mod parallel;

use gameai::games::lines::Rng;
use gameai::games::othello::bitboard::{Squares, flips, moves};
use gameai::games::othello::midgame::Evaluation;
use gameai::games::othello::patterns::{self, SCALE, STAGE_COUNT, STAGE_WIDTH};
use gameai::games::othello::solver::{EndgameTable, Solver, final_score};
use gameai::games::othello::{PASS, eval};
use gameai::search::Limits;

/// The solved positions' empties, unless `generate` is given a range.
const EMPTIES: (u32, u32) = (12, 20);
/// The line's positions are kept down to this many empties.
const LINE_EMPTIES: u32 = 6;
/// Moves played at random from the start.
const RANDOM_OPENING: u32 = 10;
/// Later moves are random with this chance, in percent.
const RANDOM_PERCENT: usize = 15;
/// Self-play: the most random moves at the start of a game (the number is
/// drawn uniformly from 0 to this).
const SELFPLAY_RANDOM_PLIES: usize = 34;
/// Self-play: the midgame search's depth for every move.
const SELFPLAY_DEPTH: u32 = 4;
/// Self-play: where the game is solved exactly.
const SOLVE_AT: u32 = 18;
/// A stage is fitted to its own positions and to those this many empties
/// beyond either end of it, so that neighbouring stages agree.
const STAGE_OVERLAP: u32 = 2;

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
            let lines = run_games(games, |table, game| solve_sample(table, seed, range, game));
            std::fs::write(&args[3], lines).expect("cannot write the data file");
        }
        Some("selfplay") if (5..=6).contains(&args.len()) => {
            let games = args[1].parse().expect("GAMES is a number");
            let seed = args[2].parse().expect("SEED is a number");
            let evaluation = if args[4] == "hand" {
                Evaluation::Hand
            } else {
                install_weights(&args[4]);
                Evaluation::Patterns
            };
            let depth = args
                .get(5)
                .map_or(SELFPLAY_DEPTH, |d| d.parse().expect("DEPTH is a number"));
            let lines = run_games(games, |table, game| {
                self_play(table, seed, game, evaluation, depth)
            });
            std::fs::write(&args[3], lines).expect("cannot write the data file");
        }
        Some("fit") if args.len() >= 3 => fit(&args[1], &args[2..]),
        Some("loss") if args.len() >= 3 => {
            install_weights(&args[1]);
            loss(&args[2..]);
        }
        Some("solve") if args.len() == 2 => solve_all(&args[1]),
        Some("endcut") if args.len() == 4 => {
            install_weights(&args[1]);
            let count = args[3].parse().expect("COUNT is a number");
            endcut(&args[2], count);
        }
        Some("probcut") if args.len() == 5 => {
            install_weights(&args[1]);
            let count = args[3].parse().expect("COUNT is a number");
            let depth = args[4].parse().expect("DEPTH is a number");
            probcut(&args[2], count, depth);
        }
        _ => {
            eprintln!(
                "usage: othello_train generate GAMES SEED OUT [MIN-MAX] \
                 | selfplay GAMES SEED OUT (hand | WEIGHTS) [DEPTH] \
                 | fit OUT DATA... | loss WEIGHTS DATA... | solve DATA \
                 | probcut WEIGHTS DATA COUNT DEPTH | endcut WEIGHTS DATA COUNT"
            );
            std::process::exit(2);
        }
    }
}

/// Makes the process evaluate with the weights in `file`.
fn install_weights(file: &str) {
    let bytes = std::fs::read(file).expect("cannot read the weights");
    assert!(
        patterns::install(&bytes),
        "{file} does not fit the pattern layout"
    );
}

/// A worker's tables.
#[derive(Default)]
struct Tables {
    endgame: EndgameTable,
}

/// Runs `play` for games `0..games` on every core and joins what each
/// wrote, in the order of the games.
fn run_games(games: u64, play: impl Fn(&mut Tables, u64) -> String + Sync) -> String {
    let numbers: Vec<u64> = (0..games).collect();
    let mut tables = parallel::per_core(Tables::default);
    parallel::map_in_order(&numbers, &mut tables, |tables, _, &game| {
        let lines = play(tables, game);
        if game % 1000 == 999 {
            eprintln!("{} games", game + 1);
        }
        lines
    })
    .concat()
}

/// The game's own random numbers.
fn game_rng(seed: u64, game: u64) -> Rng {
    Rng::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn play(p: u64, o: u64, sq: usize) -> (u64, u64) {
    let f = flips(p, o, sq);
    (o & !f, p | f | 1 << sq)
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
                    let (np, no) = play(p, o, sq);
                    eval::evaluate(np, no)
                })
                .unwrap_or(&list[0])
        };
        (p, o) = play(p, o, sq);
        ply += 1;
    }
}

/// Solves `p` to move against `o` and writes it with the positions of its
/// perfect-play line, each with its exact score, down to `LINE_EMPTIES`.
fn write_solved_line(out: &mut String, table: &mut EndgameTable, (mut p, mut o): (u64, u64)) {
    table.new_search();
    let limits = Limits::depth(64);
    let Some(solution) = Solver::new(table, &limits)
        .without_patterns()
        .solve(p, o, &[])
    else {
        return;
    };
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
}

/// Solves one game's sampled position and returns the lines to write for it.
fn solve_sample(tables: &mut Tables, seed: u64, range: (u32, u32), game: u64) -> String {
    let mut rng = game_rng(seed, game);
    let mut out = String::new();
    if let Some(position) = sample_position(&mut rng, range) {
        write_solved_line(&mut out, &mut tables.endgame, position);
    }
    out
}

/// The self-play player's evaluation of `p` to move against `o`.
fn evaluate(evaluation: Evaluation, p: u64, o: u64) -> i32 {
    match evaluation {
        Evaluation::Hand => eval::evaluate(p, o),
        Evaluation::Patterns => patterns::evaluate(p, o),
    }
}

/// Beyond both evaluations' ranges: a finished game scores its disc
/// difference times this.
const GAME_OVER_UNIT: i32 = 1 << 20;

/// Plain alpha-beta on `evaluation`, moves in square order: the self-play
/// player. Its value and its choice depend on the evaluation alone, not on
/// the engine's search (its ordering, pruning and table), so the data stay
/// the same while the engine changes.
fn player_value(p: u64, o: u64, evaluation: Evaluation, depth: u32, alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return evaluate(evaluation, p, o);
    }
    let m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o) * GAME_OVER_UNIT;
        }
        return -player_value(o, p, evaluation, depth, -beta, -alpha);
    }
    let mut best = i32::MIN + 1;
    for sq in Squares(m) {
        let (np, no) = play(p, o, sq);
        let value = -player_value(np, no, evaluation, depth - 1, -beta, -alpha.max(best));
        if value > best {
            best = value;
            if best >= beta {
                break;
            }
        }
    }
    best
}

/// The self-play player's move: the first, in square order, of those with
/// the best `depth`-ply value.
fn player_move(p: u64, o: u64, evaluation: Evaluation, depth: u32) -> usize {
    let mut best = (i32::MIN + 1, 64);
    for sq in Squares(moves(p, o)) {
        let (np, no) = play(p, o, sq);
        let value = -player_value(np, no, evaluation, depth - 1, i32::MIN + 1, -best.0);
        if value > best.0 {
            best = (value, sq);
        }
    }
    best.1
}

/// Plays one self-play game and returns its labelled positions: from
/// `SOLVE_AT` empties on each position's exact score, and before that the
/// exact score of the first position solved, as its side to move sees it.
fn self_play(
    tables: &mut Tables,
    seed: u64,
    game: u64,
    evaluation: Evaluation,
    depth: u32,
) -> String {
    let mut rng = game_rng(seed, game);
    let random_plies = rng.below(SELFPLAY_RANDOM_PLIES + 1);
    let (mut p, mut o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
    // The positions after the last random move, with whether black is to
    // move in each, before the first solve.
    let mut played: Vec<(u64, u64, bool)> = Vec::new();
    let mut solved_first: Option<(i32, bool)> = None;
    let mut black = true;
    let mut ply = 0;
    let mut out = String::new();
    loop {
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                solved_first.get_or_insert((final_score(p, o), black));
                break;
            }
            (p, o, black) = (o, p, !black);
            continue;
        }
        if ply >= random_plies {
            if 64 - (p | o).count_ones() <= SOLVE_AT {
                let score = solve(&mut tables.endgame, p, o);
                solved_first.get_or_insert((score, black));
                let _ = writeln!(out, "{p:016x} {o:016x} {score}");
            } else {
                played.push((p, o, black));
            }
        }
        let sq = if ply < random_plies {
            let list: Vec<usize> = Squares(m).collect();
            list[rng.below(list.len())]
        } else {
            player_move(p, o, evaluation, depth)
        };
        (p, o) = play(p, o, sq);
        black = !black;
        ply += 1;
    }
    let (score, black_solved) = solved_first.expect("the game ended");
    let mut lines = String::new();
    for (p, o, b) in played {
        let label = if b == black_solved { score } else { -score };
        let _ = writeln!(lines, "{p:016x} {o:016x} {label}");
    }
    lines + &out
}

/// The exact score of `p` to move against `o` (a game not over).
fn solve(table: &mut EndgameTable, p: u64, o: u64) -> i32 {
    table.new_search();
    let limits = Limits::depth(64);
    Solver::new(table, &limits)
        .solve(p, o, &[])
        .expect("an unfinished game")
        .score
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
        let mut solver = Solver::new(&table, &limits);
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

/// One training position: its empties, its feature indices, its target.
struct Sample {
    empties: u32,
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
            samples.push(Sample {
                empties: 64 - (p | o).count_ones(),
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

/// The empties a stage is fitted on: its own and `STAGE_OVERLAP` beyond.
fn fitted_on(stage: usize, empties: u32) -> bool {
    let low = (stage as u32 * STAGE_WIDTH).saturating_sub(STAGE_OVERLAP);
    let high = (stage as u32 + 1) * STAGE_WIDTH - 1 + STAGE_OVERLAP;
    (low..=high).contains(&empties) || (stage == STAGE_COUNT - 1 && empties >= low)
}

/// Fits each stage's weights by stochastic gradient descent on the squared
/// error. Every weight starts at zero, so rarely seen patterns stay small.
/// The stages are independent, so they are fitted side by side.
fn fit(out: &str, files: &[String]) {
    let samples = read_samples(files);
    let stages: Vec<usize> = (0..STAGE_COUNT).collect();
    let mut threads = parallel::per_core(|| ());
    let weights: Vec<f32> = parallel::map_in_order(&stages, &mut threads, |_, _, &stage| {
        fit_stage(&samples, stage)
    })
    .concat();
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

/// One stage's weights, fitted on its positions (see [`fitted_on`]).
fn fit_stage(samples: &[Sample], stage: usize) -> Vec<f32> {
    let per_stage = patterns::weights_per_stage();
    let windows = (patterns::window_count() + 2) as f32;
    let mut set: Vec<&Sample> = samples
        .iter()
        .filter(|s| fitted_on(stage, s.empties))
        .collect();
    let mut w = vec![0f32; per_stage];
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
    w
}

/// Prints the installed weights' error on the data, stage by stage.
fn loss(files: &[String]) {
    let mut sums = [(0f64, 0f64, 0usize); STAGE_COUNT];
    for file in files {
        let text = std::fs::read_to_string(file).expect("cannot read the data file");
        for (p, o, score) in text.lines().filter_map(parse_line) {
            let empties = 64 - (p | o).count_ones();
            let error = f64::from(patterns::evaluate(p, o)) / f64::from(SCALE) - f64::from(score);
            let sum = &mut sums[patterns::stage(empties)];
            sum.0 += error * error;
            sum.1 += error.abs();
            sum.2 += 1;
        }
    }
    println!("| empties | positions | rms error (discs) | mean absolute error |");
    println!("|---|---|---|---|");
    for (stage, &(squared, absolute, count)) in sums.iter().enumerate() {
        if count > 0 {
            let low = stage as u32 * STAGE_WIDTH;
            println!(
                "| {low}–{} | {count} | {:.2} | {:.2} |",
                low + STAGE_WIDTH - 1,
                (squared / count as f64).sqrt(),
                absolute / count as f64
            );
        }
    }
}

/// Measures how well a shallow search predicts a deep one, for ProbCut:
/// COUNT positions of the data file with more than 20 empties (evenly
/// spread through it) are searched to every depth up to DEPTH without
/// pruning; for each pair of depths the deep value's deviation from the
/// shallow one is printed, by stage, with a least-squares fit of the
/// standard deviation as `a + b * empties + c * shallow + d * depth` over
/// all pairs.
fn probcut(file: &str, count: usize, max_depth: u32) {
    use gameai::games::othello::midgame::{Midgame, MidgameTable};
    let text = std::fs::read_to_string(file).expect("cannot read the data file");
    let all: Vec<(u64, u64)> = text
        .lines()
        .filter_map(parse_line)
        .filter(|&(p, o, _)| 64 - (p | o).count_ones() > 20)
        .map(|(p, o, _)| (p, o))
        .collect();
    let step = (all.len() / count.max(1)).max(1);
    let chosen: Vec<(u64, u64)> = all.iter().step_by(step).take(count).copied().collect();
    // Per position: its empties and its value at each depth 0..=max_depth.
    let mut tables = parallel::per_core(MidgameTable::default);
    let values: Vec<(u32, Vec<i32>)> =
        parallel::map_in_order(&chosen, &mut tables, |table, _, &(p, o)| {
            let limits = Limits::depth(max_depth);
            let mut order: Vec<u8> = Squares(moves(p, o)).map(|sq| sq as u8).collect();
            let mut row = vec![patterns::evaluate(p, o) * 4];
            table.new_search();
            for d in 1..=max_depth {
                let iteration = Midgame::new(table, &limits).exact().root(p, o, &order, d);
                order = iteration.scored.iter().map(|&(mv, _)| mv).collect();
                row.push(iteration.scored[0].1);
            }
            (64 - (p | o).count_ones(), row)
        });
    // Rows for the fit: (empties, shallow, deep, sigma, weight).
    let mut rows: Vec<(f64, f64, f64, f64, f64)> = Vec::new();
    println!("| empties | shallow | deep | positions | mean (deep - shallow) | sd |");
    println!("|---|---|---|---|---|---|");
    for deep in 2..=max_depth {
        for shallow in (0..deep).filter(|s| (deep - s) % 2 == 0) {
            for bucket in (20..60).step_by(8) {
                let diffs: Vec<f64> = values
                    .iter()
                    .filter(|(e, row)| {
                        (bucket..bucket + 8).contains(e) && row[deep as usize].abs() < 15_000
                    })
                    .map(|(_, row)| f64::from(row[deep as usize] - row[shallow as usize]))
                    .collect();
                if diffs.len() < 20 {
                    continue;
                }
                let n = diffs.len() as f64;
                let mean = diffs.iter().sum::<f64>() / n;
                let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n).sqrt();
                println!(
                    "| {bucket}–{} | {shallow} | {deep} | {} | {mean:.0} | {sd:.0} |",
                    bucket + 7,
                    diffs.len()
                );
                rows.push((
                    f64::from(bucket) + 3.5,
                    f64::from(shallow),
                    f64::from(deep),
                    sd,
                    n,
                ));
            }
        }
    }
    // Weighted least squares for sd = a + b e + c s + d D.
    let mut ata = [[0f64; 4]; 4];
    let mut atb = [0f64; 4];
    for &(e, sh, d, sd, w) in &rows {
        let x = [1.0, e, sh, d];
        for i in 0..4 {
            for j in 0..4 {
                ata[i][j] += w * x[i] * x[j];
            }
            atb[i] += w * x[i] * sd;
        }
    }
    let fit = solve4(ata, atb);
    println!(
        "\nsd = {:.2} + {:.3} * empties + {:.2} * shallow + {:.2} * depth (search units, {} per disc)",
        fit[0],
        fit[1],
        fit[2],
        fit[3],
        4 * SCALE
    );
}

/// Solves the 4×4 system `a x = b` by Gaussian elimination.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> [f64; 4] {
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..4 {
            let factor = a[row][col] / pivot_row[col];
            for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= factor * p;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0f64; 4];
    for row in (0..4).rev() {
        let rest: f64 = (row + 1..4).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

/// Measures how well the solver's shallow searches predict exact scores,
/// for the selective passes' ProbCut: up to COUNT positions per count of
/// empties from the data file's exact part (`SOLVE_AT` empties or fewer),
/// each valued by the shallow search at depths 0 to 4; prints the
/// deviation of the exact score by empties and depth, with a least-squares
/// fit of the standard deviation (in discs) as `a + b * empties + c *
/// depth`.
fn endcut(file: &str, count: usize) {
    use gameai::games::othello::solver::shallow_value;
    let text = std::fs::read_to_string(file).expect("cannot read the data file");
    let mut by_empties: Vec<Vec<(u64, u64, i32)>> = vec![Vec::new(); 64];
    for (p, o, score) in text.lines().filter_map(parse_line) {
        let empties = 64 - (p | o).count_ones() as usize;
        if (8..=SOLVE_AT as usize).contains(&empties) && by_empties[empties].len() < count {
            by_empties[empties].push((p, o, score));
        }
    }
    let mut rows: Vec<(f64, f64, f64, f64)> = Vec::new();
    println!("| empties | depth | positions | mean (exact - shallow) | sd |");
    println!("|---|---|---|---|---|");
    for (empties, set) in by_empties.iter().enumerate() {
        if set.len() < 50 {
            continue;
        }
        for depth in 0..=4 {
            let diffs: Vec<f64> = set
                .iter()
                .map(|&(p, o, score)| {
                    f64::from(score) - f64::from(shallow_value(p, o, depth)) / f64::from(SCALE)
                })
                .collect();
            let n = diffs.len() as f64;
            let mean = diffs.iter().sum::<f64>() / n;
            let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n).sqrt();
            println!(
                "| {empties} | {depth} | {} | {mean:.2} | {sd:.2} |",
                diffs.len()
            );
            rows.push((empties as f64, f64::from(depth), sd, n));
        }
    }
    let mut ata = [[0f64; 4]; 4];
    let mut atb = [0f64; 4];
    for &(e, d, sd, w) in &rows {
        let x = [1.0, e, d, 0.0];
        for i in 0..3 {
            for j in 0..3 {
                ata[i][j] += w * x[i] * x[j];
            }
            atb[i] += w * x[i] * sd;
        }
    }
    ata[3][3] = 1.0;
    let fit = solve4(ata, atb);
    println!(
        "\nsd = {:.3} + {:.4} * empties + {:.3} * depth (discs)",
        fit[0], fit[1], fit[2]
    );
}
