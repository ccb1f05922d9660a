//! Othello through HTTP: search, forced passes, finished games, bad boards.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

const START: [&str; 8] = [
    "........", "........", "........", "...OX...", "...XO...", "........", "........", "........",
];

#[tokio::test]
async fn the_start_position_has_four_moves_and_a_legal_answer() {
    let app = test_app();
    let position = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "board": START, "to_move": "X"}),
    )
    .await;
    assert_eq!(position.status, StatusCode::OK, "{}", position.text);
    assert_eq!(
        position.body["legal_moves"],
        json!(["d3", "c4", "f5", "e6"])
    );

    let search = post_json(
        &app,
        "/v1/search",
        json!({"game": "othello", "moves": [], "depth": 4}),
    )
    .await;
    assert_eq!(search.status, StatusCode::OK, "{}", search.text);
    assert!(
        position.body["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&search.body["best_move"]["notation"])
    );
    assert_eq!(search.body["depth"], 4);
}

#[tokio::test]
async fn a_forced_pass_is_a_pass_move() {
    let app = test_app();
    let rows = [
        "X.XXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX",
        "XXXXXXO.",
    ];
    let position = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "board": rows, "to_move": "O"}),
    )
    .await;
    assert_eq!(
        position.body["legal_moves"],
        json!(["pass"]),
        "{}",
        position.text
    );
    let search = post_json(
        &app,
        "/v1/search",
        json!({"game": "othello", "board": rows, "to_move": "O"}),
    )
    .await;
    assert_eq!(search.status, StatusCode::OK, "{}", search.text);
    assert_eq!(
        search.body["best_move"],
        json!({"pass": true, "notation": "pass"})
    );
    assert_eq!(search.body["proven"]["result"], "loss");
    assert_eq!(search.body["proven"]["disc_diff"], -64);
}

#[tokio::test]
async fn moves_may_pass_only_when_forced() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "moves": ["pass"]}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_finished_game_is_described_but_not_searched() {
    let app = test_app();
    let rows = [
        "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXOOOOO", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO",
        "OOOOOOOO",
    ];
    let position = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "board": rows, "to_move": "X"}),
    )
    .await;
    assert_eq!(position.body["status"], "win", "{}", position.text);
    assert_eq!(position.body["winner"], "O");
    let search = post_json(
        &app,
        "/v1/search",
        json!({"game": "othello", "board": rows, "to_move": "X"}),
    )
    .await;
    assert_problem(&search, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn bad_boards_are_422() {
    let app = test_app();
    let cases = [
        (json!({"game": "othello", "board": START}), "to_move"),
        (
            json!({"game": "othello", "board": vec!["........"; 7], "to_move": "X"}),
            "board",
        ),
        (
            json!({"game": "othello", "board": ["...OX..?", "........", "........", "...OX...", "...XO...", "........", "........", "........"], "to_move": "X"}),
            "board",
        ),
        (json!({"game": "othello", "moves": ["a1"]}), "moves"),
        (json!({"game": "othello", "moves": [], "size": 10}), "size"),
    ];
    for (body, field) in cases {
        let reply = post_json(&app, "/v1/search", body.clone()).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            reply.body["errors"][0]["field"], field,
            "{body}: {}",
            reply.text
        );
    }
}

/// FFO endgame #1 (the `fforum-1-19.obf` suite): X to move, 14 empties,
/// the best move g8 wins by 18 discs.
const FFO_1: [&str; 8] = [
    "..XXXXX.", ".OOOXX.O", ".OOOXXOX", ".OXOXOXX", "OXXXOXXX", "..XOXOXX", ".XXXOOO.", ".OOOOO..",
];

#[tokio::test]
async fn an_endgame_is_solved_the_same_way_every_time() {
    let app = test_app();
    let body = json!({"game": "othello", "board": FFO_1, "to_move": "X"});
    let first = post_json(&app, "/v1/search", body.clone()).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.body["best_move"]["notation"], "g8");
    assert_eq!(first.body["proven"]["result"], "win");
    assert_eq!(first.body["proven"]["disc_diff"], 18);
    for _ in 0..3 {
        let again = post_json(&app, "/v1/search", body.clone()).await;
        for field in ["best_move", "score", "proven", "nodes", "pv", "depth"] {
            assert_eq!(again.body[field], first.body[field], "{field}");
        }
    }
}
