//! Sessions over HTTP with the in-memory store: full games, undo, version
//! conflicts, racing moves, expiry and the count cap.

mod common;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, StatusCode};
use common::{assert_problem, get, post_json, send};
use gameai::{AppState, Config, app};
use serde_json::{Value, json};

fn app_with(envs: &[&str]) -> Router {
    let mut args = vec!["gameai"];
    args.extend_from_slice(envs);
    app(AppState::new(<Config as clap::Parser>::parse_from(args)))
}

async fn create(app: &Router, body: Value) -> Value {
    let reply = post_json(app, "/v1/sessions", body).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let id = reply.body["id"].as_str().unwrap();
    assert_eq!(
        reply.headers["location"].to_str().unwrap(),
        format!("/v1/sessions/{id}")
    );
    reply.body
}

fn path(session: &Value, tail: &str) -> String {
    format!("/v1/sessions/{}{tail}", session["id"].as_str().unwrap())
}

#[tokio::test]
async fn tictactoe_ai_against_ai_ends_in_a_draw() {
    let app = app_with(&[]);
    let mut session = create(&app, json!({"game": "tictactoe", "ai": {"plays": "both"}})).await;
    // The AI plays X at once.
    assert_eq!(session["moves"].as_array().unwrap().len(), 1);
    assert!(session["ai_search"]["best_move"]["notation"].is_string());
    assert_eq!(session["version"], 1);
    while session["status"] == "ongoing" {
        let reply = post_json(&app, &path(&session, "/ai-move"), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        session = reply.body;
    }
    assert_eq!(session["status"], "draw");
    assert_eq!(session["moves"].as_array().unwrap().len(), 9);
    assert_eq!(session["version"], 9);
    assert!(session["winner"].is_null());
    // A finished game refuses more moves, and nothing changes.
    let reply = post_json(&app, &path(&session, "/ai-move"), json!({})).await;
    assert!(assert_problem(&reply, StatusCode::CONFLICT).contains("over"));
    let reply = get(&app, &path(&session, "")).await;
    assert_eq!(reply.body["version"], 9);
}

/// Plays AI against AI to the end and checks the final status agrees with
/// `/v1/position` on the same moves.
async fn play_out(app: &Router, body: Value) -> Value {
    let mut session = create(app, body).await;
    while session["status"] == "ongoing" {
        let reply = post_json(app, &path(&session, "/ai-move"), json!({})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        session = reply.body;
    }
    let described = post_json(
        app,
        "/v1/position",
        json!({"game": session["game"], "moves": session["moves"]}),
    )
    .await;
    assert_eq!(described.status, StatusCode::OK, "{}", described.text);
    assert_eq!(described.body["status"], session["status"]);
    assert_eq!(described.body["winner"], session["winner"]);
    assert_eq!(described.body["board"], session["board"]);
    session
}

#[tokio::test]
async fn connect4_ai_against_ai_plays_to_the_end() {
    let app = app_with(&[]);
    let session = play_out(
        &app,
        json!({"game": "connect4", "ai": {"plays": "both", "depth": 4}}),
    )
    .await;
    assert_ne!(session["status"], "ongoing");
    assert!(session["moves"].as_array().unwrap().len() >= 7);
}

#[tokio::test]
async fn othello_ai_against_ai_plays_to_the_end() {
    let app = app_with(&[]);
    let session = play_out(
        &app,
        json!({"game": "othello", "ai": {"plays": "both", "depth": 2}}),
    )
    .await;
    assert_ne!(session["status"], "ongoing");
    assert!(session["moves"].as_array().unwrap().len() >= 9);
}

#[tokio::test]
async fn tictactoe_a_player_loses_to_the_ai() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe"})).await;
    assert_eq!(session["ai"]["plays"], "O");
    assert_eq!(session["moves"], json!([]));
    assert!(session.get("ai_search").is_none());
    // The player plays the first legal move each time; the AI wins.
    let mut session = session;
    while session["status"] == "ongoing" {
        let mv = session["legal_moves"][0].as_str().unwrap().to_owned();
        let reply = post_json(&app, &path(&session, "/moves"), json!({"move": mv})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        session = reply.body;
    }
    assert_eq!(session["status"], "win");
    assert_eq!(session["winner"], "O");
    assert_eq!(session["winning_line"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn gomoku_is_played_through_a_session() {
    let app = app_with(&[]);
    let mut session = create(
        &app,
        json!({"game": "gomoku", "rules": "renju", "ai": {"plays": "X", "time_ms": 100, "depth": 4}}),
    )
    .await;
    assert_eq!(session["size"], 15);
    assert_eq!(session["rules"], "renju");
    assert_eq!(session["moves"].as_array().unwrap().len(), 1);
    for _ in 0..4 {
        let mv = session["legal_moves"][0].as_str().unwrap().to_owned();
        let reply = post_json(&app, &path(&session, "/moves"), json!({"move": mv})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        session = reply.body;
        assert_eq!(session["to_move"], "O");
    }
    assert_eq!(session["moves"].as_array().unwrap().len(), 9);
}

#[tokio::test]
async fn gomoku_plays_to_a_win_from_a_given_board() {
    let app = app_with(&[]);
    // X has an open four: the AI (X) completes five at once.
    let mut board = vec![".".repeat(15); 15];
    board[7] = "...XXXX........".to_owned();
    board[8] = "...OOO.........".to_owned();
    board[9] = "..........O....".to_owned();
    let session = create(
        &app,
        json!({"game": "gomoku", "board": board, "ai": {"plays": "X", "time_ms": 200}}),
    )
    .await;
    assert_eq!(session["status"], "win", "{session}");
    assert_eq!(session["winner"], "X");
    assert_eq!(session["winning_line"].as_array().unwrap().len(), 5);
    assert!(session["start_board"].is_array());
    let reply = post_json(&app, &path(&session, "/moves"), json!({"move": "a1"})).await;
    assert_problem(&reply, StatusCode::CONFLICT);
}

/// A renju board one cell short of full whose last cell, m10, would make
/// an overline for black, the side to move.
const RENJU_BLACK_WITHOUT_A_MOVE: [&str; 15] = [
    "XOXXXOOXOOOOXOO",
    "OOOXXXXOXXOXOXX",
    "OXXXXOOOXOXXOXO",
    "OOXOXXOXOOXOOXX",
    "XXOXOOOXOXXXXOO",
    "OXXOOXOOOOXXOXX",
    "OXOXXOXOXOOOOXX",
    "OXXXOXOOOOXOXOX",
    "OOOOXXXOXXXOXOX",
    "XOXOXOXXXXOX.XO",
    "XOXOXOXOOOXXXOO",
    "OXXXOXOOXOOOXOO",
    "OXOXOXOOXOOOXOX",
    "OOXOXXOXOXXXOXO",
    "OXOXOOOXXXOXXXX",
];

#[tokio::test]
async fn renju_black_without_a_legal_move_is_a_draw() {
    let app = app_with(&[]);
    let body = |plays: &str| {
        json!({"game": "gomoku", "rules": "renju", "board": RENJU_BLACK_WITHOUT_A_MOVE,
               "ai": {"plays": plays, "time_ms": 100}})
    };
    // The AI to move as black has nothing to play: the game is over.
    let session = create(&app, body("X")).await;
    assert_eq!(session["status"], "draw", "{session}");
    assert_eq!(session["to_move"], "X");
    let reply = post_json(&app, &path(&session, "/moves"), json!({"move": "m10"})).await;
    assert_problem(&reply, StatusCode::CONFLICT);
    // So it is for a player.
    let session = create(&app, body("O")).await;
    assert_eq!(session["status"], "draw", "{session}");
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "gomoku", "rules": "renju", "board": RENJU_BLACK_WITHOUT_A_MOVE}),
    )
    .await;
    assert_eq!(reply.body["status"], "draw", "{}", reply.text);
    assert_eq!(reply.body["legal_moves"], json!([]));
    assert_eq!(reply.body["forbidden"], json!(["m10"]));
}

#[tokio::test]
async fn undo_goes_back_to_the_players_turn() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe", "moves": "b2"})).await;
    // Starting from moves: X played b2, the AI (O) replied.
    assert_eq!(session["moves"].as_array().unwrap().len(), 2);
    let reply = post_json(
        &app,
        &path(&session, "/moves"),
        json!({"move": session["legal_moves"][0]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["moves"].as_array().unwrap().len(), 4);
    let reply = send(
        &app,
        Method::POST,
        &path(&session, "/undo"),
        None,
        Body::empty(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["moves"].as_array().unwrap().len(), 2);
    assert_eq!(reply.body["to_move"], "X");
    assert_eq!(reply.body["version"], 3);
    // With nobody played by the AI, one ply at a time, down to nothing.
    let session = create(
        &app,
        json!({"game": "tictactoe", "moves": ["a1"], "ai": {"plays": "none"}}),
    )
    .await;
    let reply = post_json(&app, &path(&session, "/undo"), json!({})).await;
    assert_eq!(reply.body["moves"], json!([]));
    let reply = post_json(&app, &path(&session, "/undo"), json!({})).await;
    assert!(assert_problem(&reply, StatusCode::CONFLICT).contains("no move"));
}

#[tokio::test]
async fn refusals_change_nothing() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe", "ai": {"plays": "none"}})).await;
    let moves = path(&session, "/moves");
    let reply = post_json(&app, &moves, json!({"move": "b2"})).await;
    assert_eq!(reply.body["version"], 2);
    // Occupied and nonsense moves: 422 naming the field.
    let reply = post_json(&app, &moves, json!({"move": "b2"})).await;
    assert!(assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY).contains("taken"));
    assert_eq!(reply.body["errors"][0]["field"], "move");
    let reply = post_json(&app, &moves, json!({"move": "z9"})).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    // A stale version: 409.
    let reply = post_json(&app, &moves, json!({"move": "a1", "expected_version": 1})).await;
    assert!(assert_problem(&reply, StatusCode::CONFLICT).contains("version 2"));
    let reply = post_json(&app, &moves, json!({"move": "a1", "expected_version": 2})).await;
    assert_eq!(reply.status, StatusCode::OK);
    // Out of turn: the AI plays both sides.
    let session = create(&app, json!({"game": "tictactoe", "ai": {"plays": "both"}})).await;
    let reply = post_json(&app, &path(&session, "/moves"), json!({"move": "c3"})).await;
    assert!(assert_problem(&reply, StatusCode::CONFLICT).contains("AI"));
    // Unknown fields, unknown ids, bad options.
    let reply = post_json(&app, &moves, json!({"mvoe": "a1"})).await;
    assert_problem(&reply, StatusCode::BAD_REQUEST);
    let reply = get(&app, "/v1/sessions/not-an-id").await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
    let reply = get(&app, "/v1/sessions/6f1c5d1e-0000-4000-8000-000000000000").await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
    let reply = post_json(&app, "/v1/sessions", json!({"game": "chess"})).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    let reply = post_json(
        &app,
        "/v1/sessions",
        json!({"game": "tictactoe", "ai": {"depth": 99}}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    let reply = post_json(
        &app,
        "/v1/sessions",
        json!({"game": "tictactoe", "ai": {"plays": "Z"}}),
    )
    .await;
    assert_problem(&reply, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn delete_forgets_the_session() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe"})).await;
    let reply = send(
        &app,
        Method::DELETE,
        &path(&session, ""),
        None,
        Body::empty(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_problem(&get(&app, &path(&session, "")).await, StatusCode::NOT_FOUND);
    let reply = send(
        &app,
        Method::DELETE,
        &path(&session, ""),
        None,
        Body::empty(),
    )
    .await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
}

/// Checks `moves` replay as a legal tic-tac-toe game.
async fn assert_legal_game(app: &Router, moves: &Value) {
    let reply = post_json(
        app,
        "/v1/position",
        json!({"game": "tictactoe", "moves": moves}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_moves_are_serialised() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe", "ai": {"plays": "none"}})).await;
    let mut tasks = Vec::new();
    for task in 0..32 {
        let app = app.clone();
        let session = session.clone();
        tasks.push(tokio::spawn(async move {
            let mut statuses = Vec::new();
            for _ in 0..4 {
                let now = get(&app, &path(&session, "")).await.body;
                if now["status"] != "ongoing" {
                    break;
                }
                let legal = now["legal_moves"].as_array().unwrap();
                let mv = &legal[task % legal.len()];
                let reply = post_json(
                    &app,
                    &path(&session, "/moves"),
                    json!({"move": mv, "expected_version": now["version"]}),
                )
                .await;
                statuses.push(reply.status);
            }
            statuses
        }));
    }
    let mut applied = 0;
    for task in tasks {
        for status in task.await.unwrap() {
            assert!(
                status == StatusCode::OK || status == StatusCode::CONFLICT,
                "{status}"
            );
            applied += usize::from(status == StatusCode::OK);
        }
    }
    let end = get(&app, &path(&session, "")).await.body;
    assert_eq!(end["moves"].as_array().unwrap().len(), applied);
    assert_eq!(end["version"], 1 + applied as u64);
    assert_legal_game(&app, &end["moves"]).await;
}

#[tokio::test]
async fn idle_sessions_expire() {
    let app = app_with(&["--session-ttl", "300ms"]);
    let kept = create(&app, json!({"game": "tictactoe"})).await;
    let idle = create(&app, json!({"game": "tictactoe"})).await;
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(get(&app, &path(&kept, "")).await.status, StatusCode::OK);
    }
    assert_problem(&get(&app, &path(&idle, "")).await, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_session_count_is_capped() {
    let app = app_with(&["--max-sessions", "5"]);
    let mut sessions = Vec::new();
    for _ in 0..12 {
        sessions.push(create(&app, json!({"game": "tictactoe"})).await);
    }
    let mut live = 0;
    for s in &sessions {
        live += usize::from(get(&app, &path(s, "")).await.status == StatusCode::OK);
    }
    assert!(live <= 5, "{live} sessions live over a cap of 5");
    // The newest survive.
    assert_eq!(
        get(&app, &path(&sessions[11], "")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn change_bodies_must_be_json_or_absent() {
    let app = app_with(&[]);
    let session = create(&app, json!({"game": "tictactoe", "ai": {"plays": "none"}})).await;
    let text = send(
        &app,
        Method::POST,
        &path(&session, "/ai-move"),
        Some("text/plain"),
        "hello",
    )
    .await;
    assert_problem(&text, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let moves = send(
        &app,
        Method::POST,
        &path(&session, "/moves"),
        None,
        "{\"move\":\"b2\"}",
    )
    .await;
    assert_problem(&moves, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let empty = send(
        &app,
        Method::POST,
        &path(&session, "/ai-move"),
        None,
        Body::empty(),
    )
    .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.text);
}
