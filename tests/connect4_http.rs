//! Connect Four through HTTP: solved positions, Pons' scores as plies.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

/// Lines of Pascal Pons' test sets (`moves score`, `Test_L2_R1` and
/// `Test_L3_R1`, from the PascalPons/connect4 repository): the score is
/// `22 - s` for a win where the winner has placed `s` discs at the end,
/// the negation for a loss, 0 for a draw.
const POSITIONS: [(&str, i32); 6] = [
    ("5554224333234511764415115", 4),
    ("52753311433677442422121", 8),
    ("1233722555341451114725221333", -1),
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
];

/// Plies to the end implied by a Pons score after `played` discs.
fn plies_for(score: i32, played: usize) -> (&'static str, u64) {
    let mover_discs = (played / 2) as i32;
    let other_discs = played.div_ceil(2) as i32;
    match score.signum() {
        1 => ("win", (2 * ((22 - score) - mover_discs) - 1) as u64),
        -1 => ("loss", (2 * ((22 + score) - other_discs)) as u64),
        _ => ("draw", (42 - played) as u64),
    }
}

#[tokio::test]
async fn solved_positions_report_the_reference_scores_as_plies() {
    let app = test_app();
    for (moves, score) in POSITIONS {
        let reply = post_json(
            &app,
            "/v1/search",
            json!({"game": "connect4", "moves": moves}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{moves}: {}", reply.text);
        let (result, plies) = plies_for(score, moves.len());
        assert_eq!(
            reply.body["proven"],
            json!({"result": result, "plies": plies}),
            "{moves}"
        );
        assert_eq!(reply.body["stopped"], "proven");
        assert_eq!(
            reply.body["pv"].as_array().unwrap().len() as u64,
            plies,
            "{moves}: the pv plays out the result"
        );
        let column: usize = reply.body["best_move"]["notation"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(reply.body["best_move"]["col"], column - 1);
    }
}

#[tokio::test]
async fn a_board_and_a_move_list_are_the_same_position() {
    let app = test_app();
    let from_moves = post_json(
        &app,
        "/v1/position",
        json!({"game": "connect4", "moves": ["4", "4", "5"]}),
    )
    .await;
    assert_eq!(from_moves.status, StatusCode::OK, "{}", from_moves.text);
    let board = from_moves.body["board"].clone();
    assert_eq!(board[4], "...O...");
    assert_eq!(board[5], "...XX..");
    let from_board = post_json(
        &app,
        "/v1/position",
        json!({"game": "connect4", "board": board}),
    )
    .await;
    assert_eq!(from_board.body, from_moves.body);
    assert_eq!(from_board.body["to_move"], "O");
    assert_eq!(
        from_board.body["legal_moves"],
        json!(["1", "2", "3", "4", "5", "6", "7"])
    );
}

#[tokio::test]
async fn the_answer_names_the_landing_row() {
    let app = test_app();
    // X threatens a fourth disc in column 4 after 4, 1, 4, 1, 4, 1.
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "connect4", "moves": "414141"}),
    )
    .await;
    assert_eq!(
        reply.body["best_move"],
        json!({"row": 2, "col": 3, "notation": "4"}),
        "{}",
        reply.text
    );
    assert_eq!(reply.body["proven"], json!({"result": "win", "plies": 1}));
}

#[tokio::test]
async fn early_positions_outside_the_book_answer_in_time_unproven() {
    let app = test_app();
    // X's first disc away from the centre: never on the service's own lines.
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "connect4", "moves": "1122", "time_ms": 300}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["stopped"], "time", "{}", reply.text);
    assert_eq!(reply.body["proven"], json!(null));
    assert_eq!(reply.body["source"], "search");
    assert!(
        reply.body["time_ms"].as_u64().unwrap() < 1_000,
        "{}",
        reply.text
    );
}

#[tokio::test]
async fn impossible_boards_are_422() {
    let app = test_app();
    let floating = [
        ".......", ".......", ".......", ".......", "...X...", ".......",
    ];
    let too_many = [
        ".......", ".......", ".......", ".......", ".......", "XXX....",
    ];
    for board in [floating, too_many] {
        let reply = post_json(
            &app,
            "/v1/search",
            json!({"game": "connect4", "board": board}),
        )
        .await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let full_column = post_json(
        &app,
        "/v1/search",
        json!({"game": "connect4", "moves": "4444444"}),
    )
    .await;
    assert_problem(&full_column, StatusCode::UNPROCESSABLE_ENTITY);
    let won = post_json(
        &app,
        "/v1/search",
        json!({"game": "connect4", "moves": "1212121"}),
    )
    .await;
    assert_problem(&won, StatusCode::UNPROCESSABLE_ENTITY);
}
