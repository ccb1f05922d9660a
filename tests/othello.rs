//! Othello: rules pinned by perft, the exact solver against the FFO
//! endgame suite and against plain minimax, and the search as the service
//! calls it.

use gameai::games::othello::bitboard::{Squares, flips, moves};
use gameai::games::othello::perft::perft;
use gameai::games::othello::solver::{EndgameTable, Solver, minimax};
use gameai::games::othello::{Othello, PASS, patterns};
use gameai::games::{GameKind, Player, PositionSpec, Status, Stopped};
use gameai::search::{Limits, Outcome, Workspace};
use gameai::vocabulary::{ProvenView, SearchReport};

#[path = "common/ffo.rs"]
mod ffo;

/// Perft from the start. Convention of these reference counts: a forced
/// pass is a ply, and a finished game counts as one leaf at its own ply and
/// at every deeper ply (Edax counts it once: 228 fewer at depth 10).
#[test]
fn perft_from_the_start_matches_the_known_counts() {
    let (p, o) = Othello::default().player_opponent();
    let expected = [1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(p, o, depth as u32), count, "depth {depth}");
    }
}

/// Asserts that `report` solved `ffo` exactly, with its score and one of
/// its best moves; answers the proof.
fn assert_solved(ffo: &ffo::Ffo, report: &SearchReport) -> ProvenView {
    let proven = report.proven.expect("solved exactly");
    assert_eq!(
        proven.disc_diff,
        Some(ffo.best_score),
        "FFO #{}",
        ffo.number
    );
    assert!(
        ffo.best_moves.contains(&report.best_move.notation),
        "FFO #{}: {} is not among {:?}",
        ffo.number,
        report.best_move.notation,
        ffo.best_moves
    );
    proven
}

#[test]
fn the_solver_solves_ffo_1_to_19() {
    let Some(problems) = ffo::load("fforum-1-19.obf", 1) else {
        return;
    };
    assert_eq!(problems.len(), 19);
    let mut ws = Workspace::default();
    for ffo in problems {
        let spec = PositionSpec {
            board: Some(ffo.pos.rows()),
            to_move: Some(ffo.pos.to_move()),
            ..Default::default()
        };
        let pos = GameKind::Othello.parse(&spec).expect("a valid position");
        let report = pos.search(&Limits::depth(60), &mut ws);
        let proven = assert_solved(&ffo, &report);
        assert_eq!(report.stopped, Stopped::Proven);
        // The line is a legal game to the end, and plies count it.
        let mut line = ffo.pos;
        for mv in &report.pv {
            line.play_notation(mv).expect("a legal PV");
        }
        assert!(
            line.is_over(),
            "FFO #{}: the PV reaches the end",
            ffo.number
        );
        assert_eq!(proven.plies as usize, report.pv.len());
        let final_diff = match (line.to_move() == ffo.pos.to_move(), line.final_score()) {
            (true, d) => d,
            (false, d) => -d,
        };
        assert_eq!(
            final_diff, ffo.best_score,
            "FFO #{}: the PV scores",
            ffo.number
        );
        let expected = match ffo.best_score.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        assert_eq!(proven.result, expected);
    }
}

/// A small deterministic generator for random games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays random moves from the start until `empties` squares are left (or
/// the game ends); `None` if it ended first.
fn random_position(rng: &mut Rng, empties: u32) -> Option<(u64, u64)> {
    let (mut p, mut o) = Othello::default().player_opponent();
    while 64 - (p | o).count_ones() > empties {
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return None;
            }
            std::mem::swap(&mut p, &mut o);
            continue;
        }
        let sq = Squares(m)
            .nth(rng.next() as usize % m.count_ones() as usize)
            .expect("in range");
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | 1 << sq);
    }
    Some((p, o))
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_random_endgames() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let table = EndgameTable::default();
    let limits = Limits::depth(60);
    let mut solved = 0;
    while solved < 300 {
        let empties = 1 + (rng.next() % 10) as u32;
        let Some((p, o)) = random_position(&mut rng, empties) else {
            continue;
        };
        if moves(p, o) == 0 && moves(o, p) == 0 {
            continue;
        }
        let expected = minimax(p, o);
        let solution = Solver::new(&table, &limits)
            .solve(p, o, &[])
            .expect("no deadline");
        assert_eq!(solution.score, expected, "{p:#x} {o:#x}");
        // The best move really scores that much.
        if solution.best_move != PASS {
            let f = flips(p, o, solution.best_move as usize);
            let after = -minimax(o & !f, p | f | 1 << solution.best_move);
            assert_eq!(after, expected, "{p:#x} {o:#x}");
        }
        solved += 1;
    }
}

fn board_spec(rows: &[&str], to_move: Player) -> PositionSpec {
    PositionSpec {
        board: Some(rows.iter().map(|r| r.to_string()).collect()),
        to_move: Some(to_move),
        ..Default::default()
    }
}

#[test]
fn a_forced_pass_is_answered_with_pass() {
    // O's only disc is g8 and nothing brackets: O must pass; X then takes
    // h8 and wins with every square.
    let rows = [
        "X.XXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX",
        "XXXXXXO.",
    ];
    let pos = GameKind::Othello
        .parse(&board_spec(&rows, Player::O))
        .unwrap();
    pos.check_ongoing().unwrap();
    let report = pos.search(&Limits::depth(60), &mut Workspace::default());
    assert_eq!(report.best_move.notation, "pass");
    assert_eq!(report.best_move.cell, None);
    assert_eq!(report.pv[0], "pass");
    let proven = report.proven.unwrap();
    assert_eq!(proven.result, Outcome::Loss);
    assert_eq!(proven.disc_diff, Some(-64));
    assert_eq!(report.to_move, Player::O);
}

#[test]
fn a_finished_game_is_described_and_not_searched() {
    let rows = [
        "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXOOOOO", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO",
        "OOOOOOOO",
    ];
    let pos = GameKind::Othello
        .parse(&board_spec(&rows, Player::X))
        .unwrap();
    let report = pos.describe();
    assert_eq!(report.status, Status::Win);
    assert_eq!(report.winner, Some(Player::O));
    assert!(report.legal_moves.is_empty());
    assert!(pos.check_ongoing().is_err());
}

/// 20 empties, X to move: h1 wins by 6, which takes an exact solve of
/// several million nodes; f8, what a depth-6 search prefers, does not.
const LATE_MIDGAME: [&str; 8] = [
    "..XXOX..", "..XOO.OX", "OOOXOOXX", ".OXXOXXX", "XXXXXOXX", "XXXXOO..", "X.XXO...", "..XX....",
];

#[test]
fn a_solve_that_does_not_fit_leaves_the_midgame_answer() {
    let pos = GameKind::Othello
        .parse(&board_spec(&LATE_MIDGAME, Player::X))
        .unwrap();
    let mut ws = Workspace::default();
    GameKind::prepare_all(&mut ws);
    // The longer search: an exact solve.
    let exact = pos.search(&Limits::depth(60), &mut ws);
    let proven = exact
        .proven
        .expect("a depth request near the end is solved");
    assert_eq!(
        (exact.best_move.notation.as_str(), proven.disc_diff),
        ("h1", Some(6))
    );

    // A node budget too small for the solve: the midgame search spends it
    // all and answers from its deepest iteration, where it finds h1 too.
    let mut limits = Limits::depth(60);
    limits.nodes = Some(500_000);
    let budgeted = pos.search(&limits, &mut ws);
    assert!(budgeted.proven.is_none());
    assert_eq!(budgeted.stopped, Stopped::Nodes);
    assert!(budgeted.depth >= 11, "depth {}", budgeted.depth);
    assert_eq!(budgeted.best_move.notation, "h1");

    // The same under a deadline the solve does not fit: the answer is the
    // midgame search's (never the 6-ply ordering search that precedes a
    // solve), or the solve itself if this machine is fast enough.
    let mut limits = Limits::depth(60);
    limits.deadline = Some(std::time::Instant::now() + std::time::Duration::from_millis(150));
    let timed = pos.search(&limits, &mut ws);
    assert_eq!(timed.best_move.notation, "h1");
    assert!(
        timed.proven.is_some() || timed.depth >= 9,
        "depth {}",
        timed.depth
    );
}

/// The midgame search alone, iterative deepening from the legal moves in
/// square order within `limits`: the depth it completes and the best move
/// of every depth it started.
fn midgame_alone(pos: &Othello, limits: &Limits) -> (u32, Vec<String>) {
    use gameai::games::othello::midgame::{Midgame, MidgameTable};
    let (p, o) = pos.player_opponent();
    let mut order: Vec<u8> = Squares(moves(p, o)).map(|sq| sq as u8).collect();
    let table = MidgameTable::default();
    let (mut depth, mut best) = (0, Vec::new());
    for d in 1..=limits.depth.min(pos.empties() - 1) {
        let iteration = Midgame::new(&table, limits).root(p, o, &order, d);
        if let Some((mv, _)) = iteration.best() {
            best.push(gameai::games::othello::notation(mv));
        }
        if !iteration.complete {
            break;
        }
        order = iteration.scored.iter().map(|&(mv, _)| mv).collect();
        depth = d;
    }
    (depth, best)
}

/// Near the end, under a deadline, an answer is the exact solve, a
/// selective pass of the solver to the end of the game, or the midgame
/// search's own: never a shallower fallback when the solve does not finish
/// in time. A midgame answer is at most a ply short of what the midgame
/// search alone completes in the same time, and its move is the one the
/// midgame search alone chooses at that depth, the one before or the next;
/// a selective pass's move loses at most a few discs by the exact values.
#[test]
fn late_answers_come_from_the_solve_or_the_full_midgame_search() {
    let Some(mut problems) = ffo::load("fforum-20-39.obf", 20) else {
        return;
    };
    problems.extend(ffo::load("fforum-40-59.obf", 40).unwrap_or_default());
    let late: Vec<_> = problems
        .iter()
        .filter(|f| (17..=22).contains(&f.pos.empties()))
        .collect();
    assert!(late.len() >= 15, "{} positions", late.len());
    let mut ws = Workspace::default();
    GameKind::prepare_all(&mut ws);
    let budget = std::time::Duration::from_millis(100);
    let (mut solved, mut passes, mut searched) = (0, 0, 0);
    for ffo in late {
        let spec = board_spec(
            &ffo.pos
                .rows()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
            ffo.pos.to_move(),
        );
        let pos = GameKind::Othello.parse(&spec).unwrap();
        // The midgame search alone in the same time, just before and just
        // after the answer (the machine's load varies; the shallower counts).
        let alone = || {
            let mut alone = Limits::depth(60);
            alone.deadline = Some(std::time::Instant::now() + budget);
            midgame_alone(&ffo.pos, &alone).0
        };
        let mut measure = || {
            let before = alone();
            let mut limits = Limits::depth(60);
            limits.deadline = Some(std::time::Instant::now() + budget);
            let answer = pos.search(&limits, &mut ws);
            (answer, before.min(alone()))
        };
        let (mut answer, mut depth) = measure();
        // The tests beside this one share the cores: a search that other
        // work slowed is measured once more.
        if answer.proven.is_none() && answer.depth < ffo.pos.empties() && answer.depth + 1 < depth {
            (answer, depth) = measure();
        }
        let number = ffo.number;
        if let Some(proven) = answer.proven {
            assert_eq!(proven.disc_diff, Some(ffo.best_score), "FFO #{number}");
            assert!(
                ffo.best_moves.contains(&answer.best_move.notation),
                "FFO #{number}"
            );
            solved += 1;
        } else if answer.depth == ffo.pos.empties() {
            let value = ffo
                .values
                .iter()
                .find(|(mv, _)| *mv == answer.best_move.notation);
            assert!(
                value.is_some_and(|&(_, v)| v >= ffo.best_score - 6),
                "FFO #{number}: the selective pass chose {} ({value:?}), the best is {:+}",
                answer.best_move.notation,
                ffo.best_score
            );
            passes += 1;
        } else {
            assert!(
                answer.depth + 1 >= depth,
                "FFO #{number}: depth {} where the midgame search alone completes {depth}",
                answer.depth
            );
            let (_, best) = midgame_alone(&ffo.pos, &Limits::depth(answer.depth + 1));
            // An iteration cut short reports its depth and keeps the
            // previous iteration's move unless a move it finished beat it:
            // the move is the search alone's at the depth before, at the
            // depth itself or at the next.
            let d = answer.depth as usize;
            assert!(
                best[d.saturating_sub(2)..].contains(&answer.best_move.notation),
                "FFO #{number}: {} at depth {d}, the midgame search alone chose {best:?}",
                answer.best_move.notation
            );
            searched += 1;
        }
    }
    eprintln!("{solved} solved, {passes} by a selective pass, {searched} by the midgame search");
}

#[test]
fn the_default_search_moves_quickly_from_the_start() {
    let info = GameKind::Othello.info();
    let pos = GameKind::Othello
        .parse(&PositionSpec {
            moves: Some(vec!["f5".into(), "d6".into()]),
            ..Default::default()
        })
        .unwrap();
    let mut limits = Limits::depth(info.default_depth);
    limits.deadline = Some(std::time::Instant::now() + std::time::Duration::from_millis(300));
    let report = pos.search(&limits, &mut Workspace::default());
    assert!(report.depth >= 4, "depth {}", report.depth);
    assert!(report.proven.is_none());
    assert!(report.time_ms < 1_000);
    let legal = pos.describe().legal_moves;
    assert!(legal.contains(&report.best_move.notation));
    assert_eq!(report.pv[0], report.best_move.notation);
}

#[test]
fn a_shallow_request_stays_shallow_and_is_repeatable() {
    let pos = GameKind::Othello
        .parse(&PositionSpec {
            moves: Some(vec!["f5".into(), "f6".into(), "e6".into()]),
            ..Default::default()
        })
        .unwrap();
    let mut ws = Workspace::default();
    let a = pos.search(&Limits::depth(5), &mut ws);
    let b = pos.search(&Limits::depth(5), &mut ws);
    assert_eq!(a.depth, 5);
    assert_eq!(a.stopped, Stopped::Depth);
    assert_eq!(
        (a.best_move.notation, a.score),
        (b.best_move.notation, b.score)
    );
}

/// The trained ordering changes how many nodes a solve takes, never its
/// result: with and without it, the same scores, and each best move really
/// reaches its score (checked by solving the position after it).
#[test]
fn pattern_ordering_keeps_solves_exact() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut table = EndgameTable::default();
    let limits = Limits::depth(60);
    let mut solved = 0;
    while solved < 40 {
        let empties = 12 + (rng.next() % 7) as u32;
        let Some((p, o)) = random_position(&mut rng, empties) else {
            continue;
        };
        if moves(p, o) == 0 {
            continue;
        }
        table.new_search();
        let ordered = Solver::new(&table, &limits)
            .solve(p, o, &[])
            .expect("no deadline");
        table.new_search();
        let plain = Solver::new(&table, &limits)
            .without_patterns()
            .solve(p, o, &[])
            .expect("no deadline");
        assert_eq!(ordered.score, plain.score, "{p:#x} {o:#x}");
        let f = flips(p, o, ordered.best_move as usize);
        let (np, no) = (o & !f, p | f | 1 << ordered.best_move);
        table.new_search();
        let after = if moves(np, no) == 0 && moves(no, np) == 0 {
            -gameai::games::othello::solver::final_score(np, no)
        } else {
            -Solver::new(&table, &limits)
                .without_patterns()
                .solve(np, no, &[])
                .expect("no deadline")
                .score
        };
        assert_eq!(after, ordered.score, "{p:#x} {o:#x}");
        solved += 1;
    }
}

/// The trained evaluation knows something: on random positions (not what
/// it was trained on) it calls the winner right far more often than not,
/// and misses the exact result by much less than guessing a draw does.
#[test]
fn the_pattern_evaluation_predicts_exact_results() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut table = EndgameTable::default();
    let limits = Limits::depth(60);
    let (mut count, mut right_side, mut decided, mut error, mut draw_error) = (0, 0, 0, 0, 0);
    while count < 100 {
        let Some((p, o)) = random_position(&mut rng, 14) else {
            continue;
        };
        if moves(p, o) == 0 {
            continue;
        }
        table.new_search();
        let exact = Solver::new(&table, &limits)
            .solve(p, o, &[])
            .expect("no deadline")
            .score;
        let predicted = patterns::evaluate(p, o) / patterns::SCALE;
        if exact != 0 {
            decided += 1;
            right_side += usize::from(predicted.signum() == exact.signum());
        }
        error += (predicted - exact).abs();
        draw_error += exact.abs();
        count += 1;
    }
    eprintln!(
        "{right_side} of {decided} winners, mean error {:.1} discs against {:.1} for a draw",
        f64::from(error) / f64::from(count),
        f64::from(draw_error) / f64::from(count)
    );
    assert!(right_side * 4 >= decided * 3, "{right_side} of {decided}");
    assert!(error * 2 <= draw_error, "{error} against {draw_error}");
}

#[test]
fn two_threads_solve_ffo_1_to_19_and_search_the_midgame_to_its_depth() {
    let Some(problems) = ffo::load("fforum-1-19.obf", 1) else {
        return;
    };
    let mut ws = Workspace::default();
    let limits = Limits::depth(60).with_threads(2);
    for ffo in problems {
        let report = gameai::games::othello::search::search(&ffo.pos, &limits, &mut ws);
        assert_solved(&ffo, &report);
    }
    // A middle game: the main thread reaches the depth asked for, with a
    // legal move.
    let pos = Othello::default();
    let one = gameai::games::othello::search::search(&pos, &Limits::depth(9), &mut ws);
    let two =
        gameai::games::othello::search::search(&pos, &Limits::depth(9).with_threads(2), &mut ws);
    assert_eq!((one.depth, two.depth), (9, 9));
    let mut after = pos;
    after
        .play_notation(&two.best_move.notation)
        .expect("a legal move");
    assert!(two.nodes > 0);
}
