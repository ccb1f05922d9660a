//! Makes the gomoku evaluation's weights (`src/games/gomoku/eval-*.bin`)
//! from self-play outcomes, one rule set at a time;
//! `examples/gomoku_train.sh` runs the steps that made the committed ones.
//!
//! ```text
//! cargo run --release --example gomoku_train -- hand RULE OUT
//! cargo run --release --example gomoku_train -- selfplay RULE GAMES SEED NODES OUT [WEIGHTS] [--openings FILE]
//! cargo run --release --example gomoku_train -- fit RULE OUT [--from WEIGHTS [--pull P]] DATA...
//! cargo run --release --example gomoku_train -- order RULE IN OUT DATA...
//! cargo run --release --example gomoku_train -- loss RULE WEIGHTS DATA...
//! ```
//!
//! `hand` writes the hand-made evaluation as a weights file.
//!
//! `selfplay` plays GAMES games on 15×15: a few stones dropped at random
//! near the centre (2 to `MAX_OPENING`, alternating colours), then the
//! engine's own search for both sides with NODES nodes a move, on the
//! committed weights or on those of the file WEIGHTS. A line per game: the
//! result (`X`, `O` or `D`), the number of random stones, the moves. A
//! node-limited search does not look at the clock, so the file depends on
//! the arguments (and the weights) alone. With `--openings FILE` (one
//! opening a line, its moves in the service's notation) game `i` starts
//! from the file's opening `i` modulo their count, then one or two stones
//! dropped at random within two cells of the centre, all of them counted
//! as the opening.
//!
//! `fit` reads such files and fits the weights by logistic regression: every
//! position after the random stones where neither side has a five to make
//! is a sample, its features the counts of each combination of four line
//! patterns among the empty cells, for the side to move and for the side
//! waiting, and the threat mask (which fours and threes each side can
//! make, seen from the side to move), its target the game's result for the
//! side to move (a draw is a half). A data file may also hold scored
//! positions (`=P COUNT MOVE...`, from `gomoku_engine_evals.py`): the
//! position after the moves is one sample, its target P, another engine's
//! expected score for the side to move. The fit starts from the hand-made
//! weights (or from those of the file WEIGHTS, `--from`), scaled to
//! log-odds by the one factor that fits them best, and is pulled back
//! towards them (`PRIOR_PULL`, or `FROM_PULL`, or P given after the
//! weights), so a combination the games rarely show keeps its starting
//! value. The fitted log-odds are written
//! back in the starting weights' units (divided by that factor), so that
//! the search's margins keep their meaning; the move-ordering values are
//! the starting weights'. Freestyle and standard fit one table for
//! both colours; renju fits each colour's own.
//!
//! `order` fits the move-ordering values of the weights file IN to the
//! moves the games chose: each move after the random stones, where neither
//! side had a five to make, is a choice among the empty cells near the
//! stones; a move's value is its own combination's value plus the
//! opponent's combination's value there, and a softmax of the values
//! should give the move played. It starts from the hand-made values
//! scaled to log-probabilities, is pulled back towards them, and writes
//! IN with the fitted values, in the hand-made units, to OUT.
//!
//! `loss` prints a weights file's log-loss on data files, against the
//! hand-made evaluation's: once with the factor that best turns the
//! hand-made values into log-odds, and once with the weights' own best
//! factor. The second is the fair comparison for weights fitted in other
//! units (a fit keeps its starting weights' units, which need not be the
//! hand-made ones).
//!
//! Every command gives the same output for the same arguments on any
//! machine and with any number of threads.

#[path = "common/gomoku_stones.rs"]
mod gomoku_stones;
#[path = "common/parallel.rs"]
mod parallel;

use gameai::games::Game;
use gameai::games::gomoku::eval::{self, COMBOS, THREATS, TO_MOVE, WAITING, Weights};
use gameai::games::gomoku::{Board, Gomoku, MAX_DEPTH, Rules};
use gameai::search::{Limits, Workspace};

/// Self-play boards are this wide.
const SIZE: usize = 15;
/// The most random stones a game starts from.
const MAX_OPENING: usize = 7;
/// Random stones fall within this many rows and columns of the centre.
const OPENING_REACH: usize = 3;
/// The fit's pull towards the hand-made weights (in squared log-odds per
/// weight, against the mean log-loss per sample).
const PRIOR_PULL: f64 = 1e-4;
/// The pull towards the weights a fit starts from when they are given
/// (`--from`): a tenth as strong. Such a fit reads positions another
/// engine scored (`gomoku_distill.sh`: about 200,000 of them), each a far
/// less noisy target than a game's result, and on held-out ones a weaker
/// pull fitted better, down to about this one (1e-3, 1e-4 and 3e-5 did
/// worse, none at all about as well; the README has the figures).
const FROM_PULL: f64 = 1e-5;
/// Full-batch Adam steps, and its step size in log-odds.
const STEPS: usize = 1500;
const STEP_SIZE: f64 = 0.01;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = || {
        let name = args.get(1).map_or("", String::as_str);
        Rules::from_name(name).unwrap_or_else(|| usage(&format!("unknown rule {name:?}")))
    };
    match args.first().map(String::as_str) {
        Some("hand") if args.len() == 3 => {
            std::fs::write(&args[2], eval::write(&eval::hand(rules())))
                .expect("cannot write the weights");
        }
        Some("selfplay") if args.len() >= 6 => {
            let rules = rules();
            let games: usize = args[2].parse().expect("GAMES is a number");
            let seed: u64 = args[3].parse().expect("SEED is a number");
            let nodes: u64 = args[4].parse().expect("NODES is a number");
            let (weights, openings) = match &args[6..] {
                [] => (None, Vec::new()),
                [file] => (Some(file), Vec::new()),
                [flag, list] if flag == "--openings" => (None, read_openings(list)),
                [file, flag, list] if flag == "--openings" => (Some(file), read_openings(list)),
                _ => usage("selfplay takes WEIGHTS and --openings FILE after OUT"),
            };
            if let Some(file) = weights {
                install(rules, file);
            }
            let ids: Vec<usize> = (0..games).collect();
            let mut workspaces = parallel::per_core(Workspace::default);
            let lines = parallel::map_in_order(&ids, &mut workspaces, |ws, _, &game| {
                let opening =
                    (!openings.is_empty()).then(|| openings[game % openings.len()].as_str());
                self_play(rules, seed, game, nodes, opening, ws)
            });
            std::fs::write(&args[5], lines.concat()).expect("cannot write the games");
        }
        Some("fit") if args.len() >= 4 => {
            let rules = rules();
            let (start, data, pull) = match &args[3..] {
                [flag, file, pull, p, data @ ..]
                    if flag == "--from" && pull == "--pull" && !data.is_empty() =>
                {
                    let p = p.parse().unwrap_or_else(|_| usage("P is a number"));
                    (read_weights(file), data, p)
                }
                [flag, file, data @ ..] if flag == "--from" && !data.is_empty() => {
                    (read_weights(file), data, FROM_PULL)
                }
                data => (eval::hand(rules), data, PRIOR_PULL),
            };
            let samples = read_samples(rules, data);
            let w = fit(rules, &samples, start, pull);
            std::fs::write(&args[2], eval::write(&w)).expect("cannot write the weights");
        }
        Some("order") if args.len() >= 5 => {
            let rules = rules();
            let mut w = read_weights(&args[2]);
            let samples = read_choices(rules, &args[4..]);
            w.order = fit_order(rules, &samples);
            std::fs::write(&args[3], eval::write(&w)).expect("cannot write the weights");
        }
        Some("loss") if args.len() >= 4 => {
            let rules = rules();
            let w = read_weights(&args[2]);
            let samples = read_samples(rules, &args[3..]);
            let hand = eval::hand(rules);
            let (w, hand) = (flatten(rules, &w), flatten(rules, &hand));
            let (k, own) = (best_scale(&samples, &hand), best_scale(&samples, &w));
            println!(
                "{} positions: log-loss {:.4} at the hand-made's best scale ({k:.3e} log-odds \
                 per unit), {:.4} at its own ({own:.3e}); hand-made {:.4}",
                samples.len(),
                log_loss(&samples, &w, k),
                log_loss(&samples, &w, own),
                log_loss(&samples, &hand, k)
            );
        }
        _ => usage("unknown command"),
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: gomoku_train hand RULE OUT \
         | selfplay RULE GAMES SEED NODES OUT [WEIGHTS] [--openings FILE] \
         | fit RULE OUT [--from WEIGHTS [--pull P]] DATA... | order RULE IN OUT DATA... | loss RULE WEIGHTS DATA..."
    );
    std::process::exit(2);
}

/// Makes the process evaluate `rules` with the weights in `file`.
fn install(rules: Rules, file: &str) {
    assert!(
        eval::install(rules, read_weights(file)),
        "weights installed too late"
    );
}

/// The weights of a weights file.
fn read_weights(file: &str) -> Box<Weights> {
    let bytes = std::fs::read(file).expect("cannot read the weights");
    eval::read(&bytes).unwrap_or_else(|| usage("the weights file does not fit"))
}

/// The openings of a file, one a line (blank lines skipped).
fn read_openings(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("cannot read the openings");
    let openings: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if openings.is_empty() {
        usage("the openings file holds no opening");
    }
    openings
}

/// One self-play game as a line of the games file: from `opening` and one
/// or two random stones when given, else from random stones alone.
fn self_play(
    rules: Rules,
    seed: u64,
    game: usize,
    nodes: u64,
    opening: Option<&str>,
    ws: &mut Workspace,
) -> String {
    let mut rng = gomoku_stones::game_rng(seed, game);
    let mut pos = Gomoku::new(SIZE, rules);
    let mut moves: Vec<String> = Vec::new();
    let (count, reach) = match opening {
        Some(line) => {
            for name in line.split_whitespace() {
                pos.play_notation(name)
                    .unwrap_or_else(|_| usage(&format!("opening move {name} is not legal")));
                moves.push(name.to_string());
            }
            (1 + rng.below(2), 2)
        }
        None => (2 + rng.below(MAX_OPENING - 1), OPENING_REACH),
    };
    moves.extend(gomoku_stones::drop_stones(&mut pos, count, reach, &mut rng));
    let opening = moves.len();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::depth(MAX_DEPTH)
    };
    let result = loop {
        if let Some((winner, _)) = pos.winner() {
            break winner.symbol();
        }
        if pos.board.is_full() {
            break 'D';
        }
        let report = pos.search(&limits, ws);
        let name = report.best_move.notation;
        // Renju black left with nothing it may play passes: a draw.
        if name == "pass" {
            break 'D';
        }
        pos.play_notation(&name)
            .expect("the engine's move is legal");
        moves.push(name);
    };
    format!("{result} {opening} {}\n", moves.join(" "))
}

/// A position's features and result.
struct Sample {
    /// (feature, count): feature = table × COMBOS + combination.
    features: Vec<(u16, u16)>,
    /// The result for the side to move: 1 won, 0 lost, ½ drawn.
    target: f64,
}

/// The fitted tables: freestyle and standard share one per role, renju
/// has one per colour and role.
fn tables(rules: Rules) -> usize {
    if rules == Rules::Renju { 4 } else { 2 }
}

fn table_of(rules: Rules, color: usize, role: usize) -> usize {
    if rules == Rules::Renju {
        color * 2 + role
    } else {
        role
    }
}

/// The fitted threat tables: one for freestyle and standard, one per
/// colour to move for renju.
fn threat_tables(rules: Rules) -> usize {
    if rules == Rules::Renju { 2 } else { 1 }
}

/// Where the threat values of `color` to move start in the flat vector.
fn threats_at(rules: Rules, color: usize) -> usize {
    let t = if rules == Rules::Renju { color } else { 0 };
    tables(rules) * COMBOS + t * THREATS
}

fn features(rules: Rules) -> usize {
    tables(rules) * COMBOS + threat_tables(rules) * THREATS
}

/// A weights file's values as the fit's flat vector.
fn flatten(rules: Rules, w: &Weights) -> Vec<f64> {
    let mut flat = vec![0.0; features(rules)];
    for (color, roles) in w.cells.iter().enumerate() {
        for (role, values) in roles.iter().enumerate() {
            let t = table_of(rules, color, role);
            for (i, &v) in values.iter().enumerate() {
                flat[t * COMBOS + i] = f64::from(v);
            }
        }
    }
    for (color, values) in w.threats.iter().enumerate() {
        let at = threats_at(rules, color);
        for (i, &v) in values.iter().enumerate() {
            flat[at + i] = f64::from(v);
        }
    }
    flat
}

fn read_samples(rules: Rules, files: &[String]) -> Vec<Sample> {
    read_games(files, "positions", |line| game_samples(rules, line))
}

/// Reads the games of `files` in order and turns each into items on every
/// core, joined in the games' order; reports how many `what` it made.
fn read_games<T: Send>(
    files: &[String],
    what: &str,
    per_game: impl Fn(&str) -> Vec<T> + Sync,
) -> Vec<T> {
    let games: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("cannot read the games");
            text.lines().map(str::to_owned).collect::<Vec<_>>()
        })
        .collect();
    let mut threads = parallel::per_core(|| ());
    let items: Vec<Vec<T>> =
        parallel::map_in_order(&games, &mut threads, |_, _, line| per_game(line));
    let items: Vec<T> = items.into_iter().flatten().collect();
    eprintln!("{} games, {} {what}", games.len(), items.len());
    items
}

fn game_samples(rules: Rules, line: &str) -> Vec<Sample> {
    let mut words = line.split_whitespace();
    let result = words.next().expect("a result");
    let opening: usize = words
        .next()
        .and_then(|w| w.parse().ok())
        .expect("an opening length");
    let mut pos = Gomoku::new(SIZE, rules);
    let mut out = Vec::new();
    if let Some(p) = result.strip_prefix('=') {
        // A scored position: the one after all the moves (none if the
        // game was over before them, as a game under other rules can be).
        let p: f64 = p.parse().expect("a probability");
        for name in words {
            if pos.play_notation(name).is_err() {
                return Vec::new();
            }
        }
        let me = pos.board.side_to_move() as usize;
        return sample(
            rules,
            &pos.board,
            |color| if color == me { p } else { 1.0 - p },
        )
        .into_iter()
        .collect();
    }
    let outcome = |color: usize| match result {
        "D" => 0.5,
        "X" if color == 0 => 1.0,
        "O" if color == 1 => 1.0,
        _ => 0.0,
    };
    for (ply, name) in words.enumerate() {
        if ends_before(&mut pos, name) {
            break;
        }
        if ply >= opening {
            if let Some(s) = sample(rules, &pos.board, outcome) {
                out.push(s);
            }
        }
        pos.play_notation(name).expect("a legal move");
    }
    out
}

/// Whether a recorded game ends before its move `name`: under renju, black
/// left with only forbidden points has no move (a draw), and an engine
/// playing both sides plays one of them anyway. Any other move the rules
/// refuse is an error in the games.
fn ends_before(pos: &mut Gomoku, name: &str) -> bool {
    let cell = pos.parse_cell(name).expect("a cell");
    if pos.board.is_legal(cell) {
        return false;
    }
    assert!(pos.legal_moves().is_empty(), "{name} is not a legal move");
    true
}

/// The sample of a position, unless a side has a five to make; `target`
/// gives a colour's expected score (0 black, 1 white).
fn sample(rules: Rules, b: &Board, target: impl Fn(usize) -> f64) -> Option<Sample> {
    use gameai::games::gomoku::board::flag;
    let me = b.side_to_move() as usize;
    if b.flag_count(0, flag::FIVE) > 0 || b.flag_count(1, flag::FIVE) > 0 {
        return None;
    }
    let mut counts = vec![0u16; features(rules)];
    counts[threats_at(rules, me) + b.threat_mask(me)] = 1;
    for &cell in &b.interior {
        if !b.is_empty(cell) {
            continue;
        }
        for (color, role) in [(me, TO_MOVE), (1 - me, WAITING)] {
            let pats = [0, 1, 2, 3].map(|d| b.pattern(cell, color, d) as u8);
            counts[table_of(rules, color, role) * COMBOS + eval::combo(&pats)] += 1;
        }
    }
    let target = target(me);
    Some(Sample {
        features: counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(f, &n)| (f as u16, n))
            .collect(),
        target,
    })
}

fn dot(s: &Sample, w: &[f64]) -> f64 {
    s.features
        .iter()
        .map(|&(f, n)| w[f as usize] * f64::from(n))
        .sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log-loss of the values `w` read as log-odds times `k`.
fn log_loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * dot(s, w)).clamp(1e-12, 1.0 - 1e-12);
            -(s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The factor that best turns the values `w` into log-odds (golden-section
/// search on the log-loss, over a logarithmic range).
fn best_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let values: Vec<(f64, f64)> = samples.iter().map(|s| (dot(s, w), s.target)).collect();
    let loss = |log_k: f64| {
        let k = log_k.exp();
        values
            .iter()
            .map(|&(v, y)| {
                let p = sigmoid(k * v).clamp(1e-12, 1.0 - 1e-12);
                -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
            })
            .sum::<f64>()
    };
    let (mut lo, mut hi) = ((1e-6f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fits the weights (see the module's documentation).
fn fit(rules: Rules, samples: &[Sample], mut out: Box<Weights>, pull: f64) -> Box<Weights> {
    let start = flatten(rules, &out);
    let k = best_scale(samples, &start);
    let prior: Vec<f64> = start.iter().map(|v| v * k).collect();
    eprintln!(
        "scale {k:.3e} log-odds per unit; starting log-loss {:.4}",
        log_loss(samples, &start, k)
    );
    let mut w = prior.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let n = samples.len().max(1) as f64;
    let mut threads = parallel::per_core(|| ());
    let chunks: Vec<&[Sample]> = samples.chunks(4096).collect();
    for step in 1..=STEPS {
        // The gradient, summed chunk by chunk in order (reproducible).
        let parts = parallel::map_in_order(&chunks, &mut threads, |_, _, chunk| {
            let mut g = vec![0.0; w.len()];
            let mut loss = 0.0;
            for s in chunk.iter() {
                let p = sigmoid(dot(s, &w)).clamp(1e-12, 1.0 - 1e-12);
                loss -= s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln();
                for &(f, c) in &s.features {
                    g[f as usize] += (p - s.target) * f64::from(c);
                }
            }
            (g, loss)
        });
        let mut g = vec![0.0; w.len()];
        let mut loss = 0.0;
        for (part, l) in parts {
            for (a, b) in g.iter_mut().zip(part) {
                *a += b;
            }
            loss += l;
        }
        for i in 0..w.len() {
            let grad = g[i] / n + 2.0 * pull * (w[i] - prior[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad;
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad * grad;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= STEP_SIZE * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if step % 250 == 0 || step == 1 {
            eprintln!("step {step}: log-loss {:.4}", loss / n);
        }
    }
    let units = |x: f64| {
        (x / k)
            .round()
            .clamp(-f64::from(i16::MAX), f64::from(i16::MAX)) as i16
    };
    for (color, tables) in out.cells.iter_mut().enumerate() {
        for role in [TO_MOVE, WAITING] {
            let t = table_of(rules, color, role);
            for (i, value) in tables[role].iter_mut().enumerate() {
                *value = units(w[t * COMBOS + i]);
            }
        }
    }
    for (color, values) in out.threats.iter_mut().enumerate() {
        let at = threats_at(rules, color);
        for (i, value) in values.iter_mut().enumerate() {
            *value = units(w[at + i]);
        }
    }
    out
}

/// A position's candidate moves and the one the game played there.
struct Choice {
    /// Per candidate: its own combination's feature and the opponent's.
    candidates: Vec<(u16, u16)>,
    played: usize,
}

/// The ordering tables: own and others' for freestyle and standard, per
/// colour too for renju.
fn order_tables(rules: Rules) -> usize {
    if rules == Rules::Renju { 4 } else { 2 }
}

fn order_table_of(rules: Rules, color: usize, role: usize) -> usize {
    if rules == Rules::Renju {
        color * 2 + role
    } else {
        role
    }
}

fn read_choices(rules: Rules, files: &[String]) -> Vec<Choice> {
    read_games(files, "choices", |line| game_choices(rules, line))
}

/// Every move of a game after its random stones, where neither side had a
/// five to make, with the cells near the stones it was chosen from.
fn game_choices(rules: Rules, line: &str) -> Vec<Choice> {
    use gameai::games::gomoku::board::flag;
    let mut words = line.split_whitespace();
    words.next().expect("a result");
    let opening: usize = words
        .next()
        .and_then(|w| w.parse().ok())
        .expect("an opening length");
    let mut pos = Gomoku::new(SIZE, rules);
    let mut out = Vec::new();
    for (ply, name) in words.enumerate() {
        if ends_before(&mut pos, name) {
            break;
        }
        let b = &pos.board;
        let quiet = b.flag_count(0, flag::FIVE) == 0 && b.flag_count(1, flag::FIVE) == 0;
        if ply >= opening && quiet {
            let played = pos.parse_cell(name).expect("a cell");
            let me = b.side_to_move() as usize;
            let mut candidates = Vec::new();
            let mut index = None;
            for &cell in &b.interior {
                if !b.is_empty(cell) || b.near(cell) == 0 {
                    continue;
                }
                if cell == played {
                    index = Some(candidates.len());
                }
                let feature = |color: usize, role: usize| {
                    let pats = [0, 1, 2, 3].map(|d| b.pattern(cell, color, d) as u8);
                    (order_table_of(rules, color, role) * COMBOS + eval::combo(&pats)) as u16
                };
                candidates.push((feature(me, eval::OWN), feature(1 - me, eval::OTHERS)));
            }
            if let Some(played) = index {
                out.push(Choice { candidates, played });
            }
        }
        pos.play_notation(name).expect("a legal move");
    }
    out
}

/// The mean cross-entropy of the choices under ordering values `w` read
/// as log-probabilities times `k`, and its gradient in `w` (when asked).
fn choice_loss(choices: &[Choice], w: &[f64], k: f64, grad: Option<&mut Vec<f64>>) -> f64 {
    let mut loss = 0.0;
    let mut g = grad;
    for c in choices {
        let scores: Vec<f64> = c
            .candidates
            .iter()
            .map(|&(a, b)| k * (w[a as usize] + w[b as usize]))
            .collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let sum: f64 = scores.iter().map(|s| (s - top).exp()).sum();
        loss += top + sum.ln() - scores[c.played];
        if let Some(g) = g.as_deref_mut() {
            for (i, (&(a, b), s)) in c.candidates.iter().zip(&scores).enumerate() {
                let p = (s - top).exp() / sum - f64::from(u8::from(i == c.played));
                g[a as usize] += k * p;
                g[b as usize] += k * p;
            }
        }
    }
    loss
}

/// Fits the move-ordering values to the moves the games chose: a softmax
/// over each position's candidates of their values, by full-batch Adam
/// from the hand-made values scaled to log-probabilities (and pulled back
/// towards them); written back in the hand-made units.
fn fit_order(rules: Rules, choices: &[Choice]) -> [[[i16; COMBOS]; 2]; 2] {
    let hand = eval::hand(rules);
    let mut prior = vec![0.0; order_tables(rules) * COMBOS];
    for color in 0..2 {
        for role in [eval::OWN, eval::OTHERS] {
            let t = order_table_of(rules, color, role);
            for i in 0..COMBOS {
                prior[t * COMBOS + i] = f64::from(hand.order[color][role][i]);
            }
        }
    }
    let mut threads = parallel::per_core(|| ());
    let chunks: Vec<&[Choice]> = choices.chunks(4096).collect();
    let n = choices.len().max(1) as f64;
    let mean_loss = |w: &[f64], k: f64, threads: &mut Vec<()>| {
        let parts = parallel::map_in_order(&chunks, threads, |_, _, chunk| {
            choice_loss(chunk, w, k, None)
        });
        parts.iter().sum::<f64>() / n
    };
    // The scale that turns the hand-made values into log-probabilities.
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1.0f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_loss(&prior, a.exp(), &mut threads) < mean_loss(&prior, b.exp(), &mut threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = ((lo + hi) / 2.0).exp();
    eprintln!(
        "scale {k:.3e} log-probability per unit; hand-made cross-entropy {:.4}",
        mean_loss(&prior, k, &mut threads)
    );
    let prior: Vec<f64> = prior.iter().map(|v| v * k).collect();
    let mut w = prior.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    for step in 1..=STEPS {
        let parts = parallel::map_in_order(&chunks, &mut threads, |_, _, chunk| {
            let mut g = vec![0.0; w.len()];
            let loss = choice_loss(chunk, &w, 1.0, Some(&mut g));
            (g, loss)
        });
        let mut g = vec![0.0; w.len()];
        let mut loss = 0.0;
        for (part, l) in parts {
            for (a, b) in g.iter_mut().zip(part) {
                *a += b;
            }
            loss += l;
        }
        for i in 0..w.len() {
            let grad = g[i] / n + 2.0 * PRIOR_PULL * (w[i] - prior[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad;
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad * grad;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            w[i] -= STEP_SIZE * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if step % 250 == 0 || step == 1 {
            eprintln!("step {step}: cross-entropy {:.4}", loss / n);
        }
    }
    let mut out = hand.order;
    for (color, roles) in out.iter_mut().enumerate() {
        for role in [eval::OWN, eval::OTHERS] {
            let t = order_table_of(rules, color, role);
            for (i, value) in roles[role].iter_mut().enumerate() {
                let units = (w[t * COMBOS + i] / k).round();
                *value = units.clamp(-f64::from(i16::MAX), f64::from(i16::MAX)) as i16;
            }
        }
    }
    out
}
