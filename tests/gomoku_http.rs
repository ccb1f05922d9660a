//! Gomoku through HTTP: renju's forbidden points, a forced win, sizes.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

/// `selfplay-001` of the project's renju reference set (checked against
/// Rapfi): black's only forbidden point is j8, a double four.
const RENJU_BOARD: [&str; 15] = [
    "...............",
    "...............",
    "...............",
    "..........O....",
    "....O....X.....",
    ".....XXOOOOX...",
    "....OOXOX......",
    ".....XOX.......",
    "....OXX.X......",
    ".....X.X.O.....",
    "....OO.........",
    ".....X.........",
    "...............",
    "...............",
    "...............",
];

#[tokio::test]
async fn position_lists_renju_forbidden_points() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "gomoku", "rules": "renju", "board": RENJU_BOARD}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["to_move"], "X");
    assert_eq!(reply.body["forbidden"], json!(["j8"]));
    assert!(
        !reply.body["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!("j8"))
    );

    // The same point is open to black under freestyle rules.
    let free = post_json(
        &app,
        "/v1/position",
        json!({"game": "gomoku", "board": RENJU_BOARD}),
    )
    .await;
    assert_eq!(free.body["forbidden"], json!([]));
}

#[tokio::test]
async fn an_open_four_is_a_proven_win() {
    let app = test_app();
    for size in [15, 20] {
        // X: h8 i8 j8 (with O replies far away), then X makes an open four threat.
        let moves = ["h8", "a1", "i8", "a3", "j8", "a5"];
        let reply = post_json(
            &app,
            "/v1/search",
            json!({"game": "gomoku", "size": size, "moves": moves, "time_ms": 2000}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(
            reply.body["proven"]["result"], "win",
            "{size}: {}",
            reply.text
        );
        let first = reply.body["best_move"]["notation"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(["g8", "k8"].contains(&first.as_str()), "{size}: {first}");
        assert_eq!(reply.body["proven"]["plies"], 3, "{size}: {}", reply.text);
    }
}

#[tokio::test]
async fn sizes_and_rules_are_checked() {
    let app = test_app();
    let cases = [
        json!({"game": "gomoku", "size": 16, "moves": []}),
        json!({"game": "gomoku", "size": 19, "rules": "renju", "moves": []}),
        json!({"game": "gomoku", "rules": "pro", "moves": []}),
        json!({"game": "gomoku", "size": 19, "board": RENJU_BOARD}),
        json!({"game": "gomoku", "moves": ["h8", "h8"]}),
        json!({"game": "gomoku", "moves": ["z99"]}),
    ];
    for body in cases {
        let reply = post_json(&app, "/v1/search", body.clone()).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
