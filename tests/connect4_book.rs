//! Connect Four's opening book: what it holds agrees with the solver, and
//! the service answers the opening from it, proven and at once, on every
//! line it plays.

mod common;

use axum::http::StatusCode;
use common::{post_json, test_app};
use gameai::games::connect4::board::{Board, WIDTH};
use gameai::games::connect4::book::Book;
use gameai::games::connect4::solver::Solver;
use gameai::games::connect4::table::SolverTable;
use serde_json::json;

fn board(moves: &str) -> Board {
    let mut b = Board::new();
    for c in moves.bytes() {
        b.play_col(usize::from(c - b'1'));
    }
    b
}

fn moves_of(cols: &[usize]) -> String {
    cols.iter().map(|c| char::from(b'1' + *c as u8)).collect()
}

#[tokio::test]
async fn the_empty_board_is_a_proven_win_in_41_plies_from_the_book() {
    let app = test_app();
    let reply = post_json(&app, "/v1/search", json!({"game": "connect4", "moves": ""})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["best_move"]["notation"], "4", "{}", reply.text);
    assert_eq!(reply.body["proven"], json!({"result": "win", "plies": 41}));
    assert_eq!(reply.body["stopped"], "proven");
    assert_eq!(reply.body["source"], "book");
    assert_eq!(reply.body["nodes"], 0);
    assert!(
        reply.body["time_ms"].as_u64().unwrap() < 100,
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn every_first_move_answers_its_proven_value() {
    let app = test_app();
    // The side to move after the first disc is O.
    let expected = ["win", "win", "draw", "loss", "draw", "win", "win"];
    for (col, result) in expected.iter().enumerate() {
        let moves = (col + 1).to_string();
        let reply = post_json(
            &app,
            "/v1/search",
            json!({"game": "connect4", "moves": moves}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            reply.body["proven"]["result"], *result,
            "after {moves}: {}",
            reply.text
        );
        assert_eq!(reply.body["source"], "book", "after {moves}");
    }
}

#[tokio::test]
async fn multi_pv_from_the_empty_board_proves_every_first_move() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "connect4", "moves": "", "multi_pv": 7}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let lines = reply.body["lines"].as_array().unwrap();
    let results: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["move"]["notation"].as_str().unwrap().to_owned(),
                l["proven"]["result"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(results[0], ("4".to_owned(), "win".to_owned()));
    for (mv, result) in &results[1..] {
        let want = if mv == "3" || mv == "5" {
            "draw"
        } else {
            "loss"
        };
        assert_eq!(result, want, "move {mv}");
    }
    assert!(
        reply.body["time_ms"].as_u64().unwrap() < 100,
        "{}",
        reply.text
    );
}

/// Every position where `service` is to move on the service's own lines:
/// it plays the book's move, the other side anything, up to `plies` discs.
fn service_positions(first_moves: &[Vec<usize>], plies: u32) -> Vec<Vec<usize>> {
    let book = Book::embedded();
    let mut out = Vec::new();
    let mut frontier: Vec<Vec<usize>> = first_moves.to_vec();
    while let Some(line) = frontier.pop() {
        let b = board(&moves_of(&line));
        if b.last_mover_won() || b.is_full() || b.moves() > plies {
            continue;
        }
        out.push(line.clone());
        let Some((best, _)) = book.best_move(&b) else {
            continue;
        };
        let mut after = b;
        after.play_col(best);
        if after.last_mover_won() {
            continue;
        }
        for reply in (0..WIDTH).filter(|&c| after.can_play(c)) {
            let mut next = line.clone();
            next.extend([best, reply]);
            frontier.push(next);
        }
    }
    out
}

#[test]
fn the_book_holds_every_line_the_service_plays_and_it_never_loses_ground() {
    let book = Book::embedded();
    let as_x = service_positions(&[vec![]], 8);
    let as_o = service_positions(&(0..WIDTH).map(|c| vec![c]).collect::<Vec<_>>(), 7);
    assert!(
        as_x.len() > 2000 && as_o.len() > 2000,
        "{} {}",
        as_x.len(),
        as_o.len()
    );
    for line in as_x.iter().chain(&as_o) {
        let b = board(&moves_of(line));
        let (_, score) = book
            .best_move(&b)
            .unwrap_or_else(|| panic!("{} is not in the book", moves_of(line)));
        // Two plies earlier, on the same line, the service stood at least as well
        // (scores count the game's end, so they compare across plies).
        if line.len() >= 3 {
            let before = board(&moves_of(&line[..line.len() - 2]));
            let (_, earlier) = book.best_move(&before).unwrap();
            assert!(
                score >= earlier,
                "{}: {score} after {earlier}",
                moves_of(line)
            );
        }
    }
}

#[tokio::test]
async fn every_answer_on_the_service_lines_is_proven_at_once_over_http() {
    let app = test_app();
    let as_x = service_positions(&[vec![]], 8);
    let as_o = service_positions(&(0..WIDTH).map(|c| vec![c]).collect::<Vec<_>>(), 7);
    for line in as_x.iter().chain(&as_o) {
        let moves = moves_of(line);
        let reply = post_json(
            &app,
            "/v1/search",
            json!({"game": "connect4", "moves": moves}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{moves}: {}", reply.text);
        assert!(reply.body["proven"].is_object(), "{moves}: {}", reply.text);
        assert_eq!(reply.body["source"], "book", "{moves}");
        assert!(
            reply.body["time_ms"].as_u64().unwrap() < 1_000,
            "{moves}: {}",
            reply.text
        );
    }
}

#[test]
fn a_sample_of_book_entries_agrees_with_the_solver() {
    let book = Book::embedded();
    let deepest = book.deepest_ply() as usize;
    let mut lines = service_positions(&[vec![]], 8);
    lines.extend(service_positions(
        &(0..WIDTH).map(|c| vec![c]).collect::<Vec<_>>(),
        7,
    ));
    lines.sort();
    let sample: Vec<_> = lines
        .iter()
        .filter(|l| l.len() + 1 >= deepest)
        .step_by(257)
        .collect();
    assert!(sample.len() >= 10, "{}", sample.len());
    let mut table = SolverTable::default();
    for line in sample {
        let b = board(&moves_of(line));
        let (best, score) = book.best_move(&b).unwrap();
        let mut solver = Solver::new(&mut table, None);
        assert_eq!(solver.solve(&b), Ok(score), "{}", moves_of(line));
        let mut child = b;
        child.play_col(best);
        if !child.last_mover_won() {
            let mut solver = Solver::new(&mut table, None);
            assert_eq!(
                solver.solve(&child),
                Ok(-score),
                "best move of {}",
                moves_of(line)
            );
        }
    }
}
