//! Game records over HTTP: a record in place of a position on every route
//! that takes one, and sessions exported as records and created again from
//! them.

mod common;

use axum::Router;
use axum::http::StatusCode;
use common::{assert_problem, get, post_json, test_app};
use serde_json::{Value, json};

async fn create(app: &Router, body: Value) -> Value {
    let reply = post_json(app, "/v1/sessions", body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.body
}

fn path(session: &Value, tail: &str) -> String {
    format!("/v1/sessions/{}{tail}", session["id"].as_str().unwrap())
}

/// NBoard's example game: ten moves from the standard start.
const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[E3]W[C5]B[C4]W[D3]B[C3]W[E2];)";

#[tokio::test]
async fn a_gomoku_session_exported_as_sgf_comes_back_with_the_same_moves() {
    let app = test_app();
    let session = create(
        &app,
        json!({"game": "gomoku", "moves": "h8", "ai": {"plays": "O", "depth": 2, "time_ms": 300}}),
    )
    .await;
    let reply = post_json(&app, &path(&session, "/moves"), json!({"move": "j9"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let moves = reply.body["moves"].clone();
    assert_eq!(moves.as_array().unwrap().len(), 4, "h8, the AI, j9, the AI");

    let reply = get(&app, &path(&session, "/record?format=sgf")).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.headers["content-type"], "application/x-go-sgf");
    let sgf = reply.text;
    assert!(sgf.starts_with("(;FF[4]GM[4]SZ[15]"), "{sgf}");
    assert!(sgf.contains(";B[hh]"), "{sgf}");
    // The AI's two moves carry its evaluation; the client's do not.
    assert_eq!(sgf.matches("C[gameai: score ").count(), 2, "{sgf}");

    let again = create(
        &app,
        json!({"game": "gomoku", "record": {"format": "sgf", "text": sgf}, "ai": {"plays": "none"}}),
    )
    .await;
    assert_eq!(again["moves"], moves);
    let original = get(&app, &path(&session, "")).await;
    assert_eq!(again["board"], original.body["board"]);
}

#[tokio::test]
async fn the_default_export_is_the_games_own_format() {
    let app = test_app();
    let othello = create(
        &app,
        json!({"game": "othello", "moves": "f5 d6", "ai": {"plays": "none"}}),
    )
    .await;
    let reply = get(&app, &path(&othello, "/record")).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(
        reply.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert!(reply.text.starts_with("(;GM[Othello]"), "{}", reply.text);
    assert!(reply.text.contains("B[F5]W[D6]"), "{}", reply.text);

    let c4 = create(
        &app,
        json!({"game": "connect4", "moves": "4453", "ai": {"plays": "none"}}),
    )
    .await;
    let reply = get(&app, &path(&c4, "/record")).await;
    assert_eq!(reply.text, "4453");
}

#[tokio::test]
async fn an_export_in_a_format_that_cannot_hold_the_game_is_refused() {
    let app = test_app();
    let othello = create(&app, json!({"game": "othello", "ai": {"plays": "none"}})).await;
    let reply = get(&app, &path(&othello, "/record?format=psq")).await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("sgf, ggf, moves"), "{detail}");
    let reply = get(&app, &path(&othello, "/record?format=pgn")).await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("unknown format"), "{detail}");
    let reply = get(
        &app,
        "/v1/sessions/00000000-0000-4000-8000-000000000000/record",
    )
    .await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_othello_search_accepts_a_ggf_record() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "othello", "record": {"format": "ggf", "text": GGF}, "depth": 3}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["to_move"], "X");
    // The same position given as moves gets the same answer.
    let moves = post_json(
        &app,
        "/v1/search",
        json!({"game": "othello", "moves": "f5 f6 e6 f4 e3 c5 c4 d3 c3 e2", "depth": 3}),
    )
    .await;
    assert_eq!(reply.body["best_move"], moves.body["best_move"]);
    assert_eq!(reply.body["score"], moves.body["score"]);
}

#[tokio::test]
async fn a_bad_record_is_a_422_naming_the_move() {
    let app = test_app();
    let bad = GGF.replace("W[D3]", "W[A1]");
    for route in ["/v1/search", "/v1/position"] {
        let reply = post_json(
            &app,
            route,
            json!({"game": "othello", "record": {"format": "ggf", "text": bad}}),
        )
        .await;
        let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            detail.contains("move 8") && detail.contains("a1"),
            "{detail}"
        );
        assert_eq!(reply.body["errors"][0]["field"], "record");
    }
    let reply = post_json(
        &app,
        "/v1/sessions",
        json!({"game": "gomoku", "record": {"format": "psq", "text": "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n"}}),
    )
    .await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("move 2"), "{detail}");
    // A record of another game or size, or beside a board, is refused too.
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "gomoku", "size": 15, "record": {"format": "psq", "text": "Piskvorky 20x20, 11:11, 0\n10,10,0\n"}}),
    )
    .await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("20×20"), "{detail}");
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "gomoku", "record": {"format": "ggf", "text": GGF}}),
    )
    .await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("othello"), "{detail}");
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "moves": "f5", "record": {"format": "ggf", "text": GGF}}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    // An unknown format is a malformed body.
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "othello", "record": {"format": "pgn", "text": "1. e4"}}),
    )
    .await;
    assert_problem(&reply, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_psq_record_round_trips_through_a_session() {
    let app = test_app();
    let psq = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n9,11,0\n";
    let session = create(
        &app,
        json!({"game": "gomoku", "record": {"format": "psq", "text": psq}, "ai": {"plays": "none"}}),
    )
    .await;
    assert_eq!(session["size"], 20);
    assert_eq!(session["moves"], json!(["j10", "k11", "i11"]));
    let reply = get(&app, &path(&session, "/record?format=psq")).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.text, psq);
}

#[tokio::test]
async fn records_stand_in_on_the_stream_batch_and_analyze_routes() {
    let app = test_app();
    let record = json!({"format": "moves", "text": "4453"});
    let reply = post_json(
        &app,
        "/v1/analyze",
        json!({"game": "connect4", "record": record, "depth": 4}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["moves"].as_array().unwrap().len(), 4);
    let reply = post_json(
        &app,
        "/v1/search/batch",
        json!({"items": [{"game": "connect4", "record": record, "depth": 4}]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(reply.text.contains("best_move"), "{}", reply.text);
    let reply = post_json(
        &app,
        "/v1/search/stream",
        json!({"game": "connect4", "record": record, "depth": 4}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert!(reply.text.contains("best_move"), "{}", reply.text);
}
