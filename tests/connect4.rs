//! Connect Four: rules, parsing, the exact solver against Pascal Pons'
//! reference sets, and the solver against the plain minimax oracle.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gameai::games::connect4::board::Board;
use gameai::games::connect4::proof_of_score;
use gameai::games::connect4::solver::Solver;
use gameai::games::connect4::table::SolverTable;
use gameai::games::{GameKind, Player, Position, PositionSpec, Status};
use gameai::search::{self, GameTree, Limits, Outcome, Stopped, Workspace};

#[path = "common/require.rs"]
mod require;

fn spec_moves(moves: &[&str]) -> PositionSpec {
    PositionSpec {
        moves: Some(moves.iter().map(|m| m.to_string()).collect()),
        ..Default::default()
    }
}

fn spec_board(rows: &[&str]) -> PositionSpec {
    PositionSpec {
        board: Some(rows.iter().map(|r| r.to_string()).collect()),
        ..Default::default()
    }
}

fn parse(spec: &PositionSpec) -> Result<Board, String> {
    match GameKind::Connect4.parse(spec) {
        Ok(Position::Connect4(b)) => Ok(b),
        Ok(other) => panic!("parsed as another game: {other:?}"),
        Err(e) => Err(format!("{:?}: {}", e.part, e.detail)),
    }
}

/// The board after a compact move string like "4453".
fn after(moves: &str) -> Board {
    parse(&spec_moves(&[moves])).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

fn status(b: &Board) -> (Status, Option<Player>) {
    let r = Position::Connect4(*b).describe();
    (r.status, r.winner)
}

// ---------------------------------------------------------------- rules

#[test]
fn discs_fall_to_the_lowest_empty_cell() {
    let b = after("4445");
    let report = Position::Connect4(b).describe();
    assert_eq!(
        report.board,
        [
            ".......", ".......", ".......", "...X...", "...O...", "...XO..",
        ]
    );
    assert_eq!(report.to_move, Player::X);
    assert_eq!(report.status, Status::Ongoing);
    // The same position given as a board parses to the same thing.
    assert_eq!(
        parse(&spec_board(
            &report.board.iter().map(String::as_str).collect::<Vec<_>>()
        )),
        Ok(b)
    );
}

#[test]
fn a_full_column_takes_no_more_discs() {
    let b = after("444444");
    let report = Position::Connect4(b).describe();
    assert_eq!(report.legal_moves, ["1", "2", "3", "5", "6", "7"]);
    let err = parse(&spec_moves(&["4444444"])).unwrap_err();
    assert!(err.contains("move 7") && err.contains("full"), "{err}");
}

#[test]
fn wins_are_seen_in_all_four_directions() {
    let cases = [
        ("horizontal", "1122334", ["a6", "b6", "c6", "d6"]),
        ("vertical", "1212121", ["a3", "a4", "a5", "a6"]),
        ("rising diagonal", "12234334474", ["a6", "b5", "c4", "d3"]),
        ("falling diagonal", "76654554414", ["d3", "e4", "f5", "g6"]),
    ];
    for (name, moves, line) in cases {
        let b = after(moves);
        assert_eq!(status(&b), (Status::Win, Some(Player::X)), "{name}");
        let report = Position::Connect4(b).describe();
        let mut got = report.winning_line.clone();
        got.sort();
        let mut want: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(got, want, "{name}");
        assert!(report.legal_moves.is_empty(), "{name}");
        assert!(Position::Connect4(b).check_ongoing().is_err(), "{name}");
        // And one disc short is not a win.
        let short = after(&moves[..moves.len() - 1]);
        assert_eq!(status(&short), (Status::Ongoing, None), "{name}");
    }
    // O wins too.
    let b = after("11223375");
    assert_eq!(status(&b), (Status::Ongoing, None));
    let b = after("7112233");
    assert_eq!(status(&b), (Status::Ongoing, None));
    let b = after("71122334");
    assert_eq!(status(&b), (Status::Win, Some(Player::O)));
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    let rows = [
        "XXOXXXO", "XOOOXOO", "OOXOOOX", "OXXXOXX", "XXOXXXO", "XOOOXOO",
    ];
    let b = parse(&spec_board(&rows)).unwrap();
    assert_eq!(status(&b), (Status::Draw, None));
    assert!(Position::Connect4(b).describe().legal_moves.is_empty());
    assert!(Position::Connect4(b).check_ongoing().is_err());
}

#[test]
fn moves_play_after_a_win_are_refused() {
    let err = parse(&spec_moves(&["11223345"])).unwrap_err();
    assert!(err.contains("move 8") && err.contains("over"), "{err}");
}

#[test]
fn moves_come_as_a_list_or_one_compact_string() {
    let list = parse(&spec_moves(&["4", "4", "5"])).unwrap();
    assert_eq!(parse(&spec_moves(&["445"])), Ok(list));
    assert_eq!(parse(&spec_moves(&[" 445 "])), Ok(list));
    assert_eq!(parse(&spec_moves(&[""])), Ok(Board::new()));
    assert_eq!(parse(&spec_moves(&[])), Ok(Board::new()));
    for bad in [
        &["8"][..],
        &["0"],
        &["4", "45"],
        &["4", ""],
        &["4a"],
        &["４"],
        &["4", "é"],
    ] {
        assert!(parse(&spec_moves(bad)).is_err(), "{bad:?}");
    }
}

#[test]
fn impossible_boards_are_refused() {
    let empty = ".......";
    let board = |bottom: [&'static str; 3]| {
        let mut rows = vec![empty; 3];
        rows.extend(bottom);
        rows
    };
    let bad: &[(&str, Vec<&str>)] = &[
        ("floating disc", board([".X.....", ".......", "...O..."])),
        (
            "floating disc on a disc gap",
            board(["...X...", ".......", "...O..."]),
        ),
        ("O moved first", board([empty, empty, "...O..."])),
        ("two more X", board([empty, empty, "..XX..."])),
        ("two winners", board(["XXXX...", "OOOO...", "XXXOOOX"])),
        ("X won, X to move", board([empty, "OOO....", "XXXX..O"])),
        ("O won, O to move", board([empty, "XXX....", "OOOOXX."])),
        ("bad cell", board([empty, empty, "...?..."])),
        ("non-ASCII cell", board([empty, empty, "...é..."])),
        ("short row", board([empty, empty, "...X.."])),
        ("long row", board([empty, empty, "...X...."])),
    ];
    for (name, rows) in bad {
        assert!(parse(&spec_board(rows)).is_err(), "{name} was accepted");
    }
    assert!(parse(&spec_board(&[empty; 5])).is_err(), "five rows");
    assert!(parse(&spec_board(&[empty; 7])).is_err(), "seven rows");
    // Fours through one last disc are possible; two apart are not.
    assert!(parse(&spec_board(&board([empty, "OOO.OOO", "XXXXXXX"]))).is_ok());
    let apart = [empty, empty, "......X", "......X", "OOO.OOX", "XXXXOOX"];
    assert!(parse(&spec_board(&apart)).is_err(), "X won twice apart");
    // to_move must agree with the counts.
    let mut spec = spec_moves(&["4"]);
    spec.to_move = Some(Player::X);
    assert!(parse(&spec).is_err());
    spec.to_move = Some(Player::O);
    assert!(parse(&spec).is_ok());
    let mut spec = spec_moves(&["4"]);
    spec.size = Some(8);
    assert!(parse(&spec).is_err(), "only 7 columns");
}

// ------------------------------------------------------ reference sets

/// Pascal Pons' sets, or `None` once their absence has been reported.
fn data_dir() -> Option<PathBuf> {
    require::data("connect4")
}

/// Solves the first `count` positions of a set and checks every score.
fn check_set(name: &str, count: usize) {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read_to_string(dir.join(name)).expect("readable set");
    let mut table = SolverTable::default();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for line in text.lines().take(count) {
        let (moves, score) = line.split_once(' ').expect("`moves score`");
        let expected: i32 = score.trim().parse().expect("a score");
        let board = after(moves);
        let got = Solver::new(&mut table, None)
            .solve(&board)
            .expect("no limit");
        if got != expected {
            wrong.push(format!("{moves}: got {got}, expected {expected}"));
        }
        checked += 1;
    }
    assert_eq!(checked, count, "{name} has fewer lines than expected");
    assert!(wrong.is_empty(), "{name}: {} wrong: {wrong:?}", wrong.len());
}

#[test]
fn solves_every_end_easy_position() {
    check_set("Test_L3_R1", 1000);
}

#[test]
fn solves_every_middle_easy_position() {
    check_set("Test_L2_R1", 1000);
}

#[test]
fn solves_every_middle_medium_position() {
    check_set("Test_L2_R2", 1000);
}

#[test]
fn solves_every_begin_easy_position() {
    check_set("Test_L1_R1", 1000);
}

#[test]
fn solves_the_first_begin_medium_positions() {
    check_set("Test_L1_R2", 60);
}

/// Replays `pv` from `board` and checks it ends as `proven` says.
fn check_pv_plays_out(board: &Board, pv: &[String], outcome: Outcome, plies: u32) {
    assert_eq!(
        pv.len() as u32,
        plies,
        "the pv is the whole rest of the game"
    );
    let mover = board.side_to_move();
    let mut b = *board;
    for (i, mv) in pv.iter().enumerate() {
        assert_eq!(
            status(&b).0,
            Status::Ongoing,
            "pv goes on after the end at {i}"
        );
        let col: usize = mv.parse::<usize>().expect("a column digit") - 1;
        assert!(b.can_play(col), "pv move {mv} is illegal");
        b.play_col(col);
    }
    let expected = match outcome {
        Outcome::Win => (Status::Win, Some(mover)),
        Outcome::Loss => (Status::Win, Some(mover.other())),
        Outcome::Draw => (Status::Draw, None),
    };
    assert_eq!(status(&b), expected);
}

#[test]
fn search_reports_plies_that_map_to_the_reference_score() {
    let Some(dir) = data_dir() else { return };
    let mut ws = Workspace::default();
    for name in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        let text = std::fs::read_to_string(dir.join(name)).expect("readable set");
        for line in text.lines().step_by(50) {
            let (moves, score) = line.split_once(' ').expect("`moves score`");
            let expected: i32 = score.trim().parse().expect("a score");
            let pos = GameKind::Connect4
                .parse(&spec_moves(&[moves]))
                .expect("valid");
            let Position::Connect4(board) = pos else {
                unreachable!()
            };
            let report = pos.search(&Limits::depth(42), &mut ws);
            let proof = proof_of_score(&board, expected);
            let proven = report.proven.expect("solved");
            assert_eq!(
                (proven.result, proven.plies),
                (proof.outcome, proof.plies),
                "{moves}"
            );
            assert_eq!(report.score, proof.score(), "{moves}");
            assert_eq!(report.stopped, Stopped::Proven);
            assert_eq!(report.pv.first(), Some(&report.best_move.notation));
            let col = report.best_move.cell.expect("a cell").1;
            assert_eq!(report.best_move.notation, (col + 1).to_string());
            let (row, _) = report.best_move.cell.expect("a cell");
            assert_eq!(
                row,
                5 - board.landing_row(col),
                "{moves}: the disc lands there"
            );
            check_pv_plays_out(&board, &report.pv, proof.outcome, proof.plies);
        }
    }
}

// -------------------------------------------------- the minimax oracle

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Random ongoing positions with at most `max_empty` empty cells: random
/// moves from the end-game reference positions (or, without the data, from
/// random games), keeping those that are still ongoing.
fn random_late_positions(count: usize, max_empty: u32, seed: u64) -> Vec<Board> {
    let starts: Vec<Board> = match data_dir() {
        Some(dir) => std::fs::read_to_string(dir.join("Test_L3_R1"))
            .expect("readable set")
            .lines()
            .map(|line| after(line.split(' ').next().unwrap_or("")))
            .collect(),
        None => vec![Board::new()],
    };
    let mut rng = Rng(seed);
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < count {
        tries += 1;
        assert!(tries < 100 * count, "too few ongoing late positions");
        let mut b = starts[rng.below(starts.len())];
        while b.empty_cells() > max_empty && !b.last_mover_won() {
            let open: Vec<usize> = (0..7).filter(|&c| b.can_play(c)).collect();
            b.play_col(open[rng.below(open.len())]);
        }
        if !b.last_mover_won() && !b.is_full() {
            found.push(b);
        }
    }
    found
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_random_late_positions() {
    let mut table = SolverTable::default();
    let mut ws = Workspace::default();
    let start = Instant::now();
    for mut board in random_late_positions(200, 12, 0x00C0_FFEE) {
        let depth = board.empty_cells();
        let oracle = search::minimax(&mut board, depth, 0);
        let score = Solver::new(&mut table, None)
            .solve(&board)
            .expect("no limit");
        assert_eq!(
            proof_of_score(&board, score).score(),
            oracle,
            "{:?}",
            board.rows()
        );
        // The generic core, with this game's ordering hints, agrees too.
        let generic = search::search(&board, &Limits::depth(depth), &mut ws);
        assert_eq!(generic.score, oracle, "{:?}", board.rows());
    }
    assert!(start.elapsed() < Duration::from_secs(30));
}

// ------------------------------------------------------- time budgets

#[test]
fn an_opening_position_off_the_book_answers_by_the_deadline_unproven() {
    let mut ws = Workspace::default();
    // A pool worker starts with its generic table made.
    ws.tt();
    // X's first disc off the centre: never on the opening book's lines.
    let pos = GameKind::Connect4
        .parse(&spec_moves(&["11"]))
        .expect("valid");
    let budget = Duration::from_millis(300);
    let start = Instant::now();
    let limits = Limits {
        depth: 42,
        deadline: Some(start + budget),
        ..Default::default()
    };
    let report = pos.search(&limits, &mut ws);
    let took = start.elapsed();
    assert!(took < budget + Duration::from_millis(150), "took {took:?}");
    assert_eq!(report.stopped, Stopped::Time);
    assert_eq!(report.proven, None);
    assert!(report.depth >= 4, "depth {}", report.depth);
    let col = report.best_move.cell.expect("a cell").1;
    assert!(Board::new().can_play(col));
    assert!(report.score.abs() < search::EVAL_LIMIT);
}

#[test]
fn a_shallow_depth_uses_the_depth_limited_search() {
    let mut ws = Workspace::default();
    let pos = GameKind::Connect4
        .parse(&spec_moves(&["4453"]))
        .expect("valid");
    let report = pos.search(&Limits::depth(6), &mut ws);
    assert_eq!(report.depth, 6);
    assert_eq!(report.stopped, Stopped::Depth);
    assert_eq!(report.proven, None);
}

#[test]
fn a_win_in_one_is_taken() {
    let mut ws = Workspace::default();
    let pos = GameKind::Connect4
        .parse(&spec_moves(&["112233"]))
        .expect("valid");
    let report = pos.search(&Limits::depth(42), &mut ws);
    assert_eq!(report.best_move.notation, "4");
    assert_eq!(report.best_move.cell, Some((5, 3)));
    let proven = report.proven.expect("solved");
    assert_eq!((proven.result, proven.plies), (Outcome::Win, 1));
    assert_eq!(report.score, search::WIN - 1);
}

#[test]
fn the_game_info_names_connect4() {
    let info = GameKind::from_name("connect4").expect("listed").info();
    assert_eq!(info.max_depth, 42);
    assert_eq!(info.default_depth, 42);
    assert_eq!(info.start, vec![".......".to_string(); 6]);
    assert!(Board::new().heuristic().abs() < search::EVAL_LIMIT);
    let _ = Board::new().hash();
}

// ------------------------------------------------ client input, fuzzed

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any rows parse or fail with an error; none panics, and what
        /// parses describes and reprints as the same board.
        #[test]
        fn any_board_parses_or_is_refused(rows in proptest::collection::vec("[.XOxo1é ]{0,9}", 0..8)) {
            let spec = PositionSpec { board: Some(rows), ..Default::default() };
            if let Ok(pos) = GameKind::Connect4.parse(&spec) {
                let report = pos.describe();
                let again = GameKind::Connect4.parse(&PositionSpec {
                    board: Some(report.board.clone()),
                    ..Default::default()
                });
                prop_assert!(again.is_ok());
            }
        }

        /// Any move lists parse or fail with an error; none panics.
        #[test]
        fn any_moves_parse_or_are_refused(moves in proptest::collection::vec("[0-9a ]{0,50}", 0..4)) {
            let spec = PositionSpec { moves: Some(moves), ..Default::default() };
            if let Ok(Position::Connect4(b)) = GameKind::Connect4.parse(&spec) {
                prop_assert!(b.moves() <= 42);
            }
        }
    }
}

#[test]
fn two_threads_solve_to_the_same_scores() {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read_to_string(dir.join("Test_L2_R2")).expect("readable set");
    let mut table = SolverTable::default();
    let limits = Limits::depth(42).with_threads(2);
    for line in text.lines().take(100) {
        let (moves, score) = line.split_once(' ').expect("`moves score`");
        let expected: i32 = score.trim().parse().expect("a score");
        let board = after(moves);
        let (solved, nodes) =
            gameai::games::connect4::search::solve(&board, &limits, &mut table, None);
        let (got, pv) = solved.expect("no deadline");
        assert_eq!(got, expected, "{moves}");
        assert!(nodes > 0 && !pv.is_empty(), "{moves}");
        // The line starts with a move that keeps the score.
        let mut next = board;
        next.play_col(pv[0]);
        if !next.last_mover_won() && !next.is_full() {
            let child = Solver::new(&mut table, None)
                .solve(&next)
                .expect("no limit");
            assert_eq!(
                -child,
                expected,
                "{moves}: {} does not keep the score",
                pv[0] + 1
            );
        }
    }
}
