//! Every route and every error status, through the real router.

mod common;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use common::*;
use gameai::pool::Pool;
use gameai::{AppState, Config, app};
use serde_json::json;

#[tokio::test]
async fn search_answers_with_every_field() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let b = &reply.body;
    for field in [
        "best_move",
        "score",
        "proven",
        "depth",
        "nodes",
        "time_ms",
        "nps",
        "pv",
        "stopped",
        "to_move",
    ] {
        assert!(b.get(field).is_some(), "missing {field}: {b}");
    }
    assert_eq!(b["to_move"], "X");
    assert_eq!(b["proven"]["result"], "win", "{b}");
    assert_eq!(b["stopped"], "proven");
    assert_eq!(b["pv"][0], b["best_move"]["notation"]);
    let plies = b["proven"]["plies"].as_u64().unwrap();
    assert_eq!(b["score"].as_i64().unwrap(), 100_000 - plies as i64);
    assert_eq!(b["pv"].as_array().unwrap().len() as u64, plies);
}

#[tokio::test]
async fn the_seed_scenarios() {
    let app = test_app();
    let empty = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": []}),
    )
    .await;
    assert_eq!(
        empty.body["proven"],
        json!({"result": "draw", "plies": 9}),
        "{}",
        empty.text
    );

    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": ["a1", "b2", "b1", "c3"], "depth": 9}),
    )
    .await;
    assert_eq!(
        reply.body["best_move"],
        json!({"row": 0, "col": 2, "notation": "c1"}),
        "{}",
        reply.text
    );
    assert_eq!(reply.body["proven"], json!({"result": "win", "plies": 1}));
    assert_eq!(reply.body["score"], 99_999);
}

#[tokio::test]
async fn moves_may_be_one_string() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/position",
        json!({"game": "tictactoe", "moves": "a1 b2, b1"}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["board"], json!(["XX.", ".O.", "..."]));
    assert_eq!(reply.body["to_move"], "O");
}

#[tokio::test]
async fn a_shallow_search_answers_its_depth() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": ["b2"], "depth": 2}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["depth"], 2);
    assert_eq!(reply.body["stopped"], "depth");
    assert_eq!(reply.body["proven"], json!(null));
}

#[tokio::test]
async fn position_describes_status_winner_and_moves() {
    let app = test_app();
    let ongoing = post_json(
        &app,
        "/v1/position",
        json!({"game": "tictactoe", "board": ["X..", ".O.", "..."]}),
    )
    .await;
    assert_eq!(ongoing.status, StatusCode::OK);
    assert_eq!(ongoing.body["status"], "ongoing");
    assert_eq!(ongoing.body["to_move"], "X");
    assert_eq!(ongoing.body["winner"], json!(null));
    assert_eq!(ongoing.body["legal_moves"].as_array().unwrap().len(), 7);

    let won = post_json(
        &app,
        "/v1/position",
        json!({"game": "tictactoe", "board": ["OX.", "OX.", ".X."]}),
    )
    .await;
    assert_eq!(won.body["status"], "win", "{}", won.text);
    assert_eq!(won.body["winner"], "X");
    assert_eq!(won.body["winning_line"], json!(["b1", "b2", "b3"]));
    assert_eq!(won.body["legal_moves"], json!([]));

    let drawn = post_json(
        &app,
        "/v1/position",
        json!({"game": "tictactoe", "board": ["XOX", "XOO", "OXX"]}),
    )
    .await;
    assert_eq!(drawn.body["status"], "draw", "{}", drawn.text);
}

#[tokio::test]
async fn games_lists_tictactoe_with_its_limits() {
    let app = test_app();
    let reply = get(&app, "/v1/games").await;
    assert_eq!(reply.status, StatusCode::OK);
    let ttt = reply.body["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "tictactoe")
        .expect("tic-tac-toe is listed")
        .clone();
    assert_eq!(ttt["max_depth"], 9);
    assert_eq!(ttt["start"], json!(["...", "...", "..."]));
    assert_eq!(reply.body["max_time_ms"], 10_000);
}

#[tokio::test]
async fn health_readiness_and_the_document() {
    let app = test_app();
    assert_eq!(get(&app, "/healthz").await.body, json!({"status": "ok"}));
    assert_eq!(get(&app, "/readyz").await.body, json!({"status": "ok"}));
    let doc = get(&app, "/openapi.yaml").await;
    assert_eq!(doc.status, StatusCode::OK);
    assert!(doc.text.starts_with("openapi: 3.1"));
}

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = test_app();
    let reply = get(&app, "/healthz").await;
    assert!(reply.headers.contains_key("x-request-id"));
}

#[tokio::test]
async fn malformed_bodies_are_400() {
    let app = test_app();
    for body in [
        "not json".to_owned(),
        "{".to_owned(),
        json!({"game": "tictactoe", "moves": [], "colour": "red"}).to_string(),
        json!({"game": 3, "moves": []}).to_string(),
        json!({"game": "tictactoe", "board": "X........"}).to_string(),
        json!({"game": "tictactoe", "moves": [], "depth": "deep"}).to_string(),
        json!({"game": "tictactoe", "moves": [], "to_move": "Z"}).to_string(),
        json!(["tictactoe"]).to_string(),
    ] {
        let reply = send(
            &app,
            Method::POST,
            "/v1/search",
            Some("application/json"),
            body.clone(),
        )
        .await;
        assert_problem(&reply, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn other_content_types_are_415() {
    let app = test_app();
    let body = json!({"game": "tictactoe", "moves": []}).to_string();
    for ct in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let reply = send(&app, Method::POST, "/v1/search", ct, body.clone()).await;
        assert_problem(&reply, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let app = test_app();
    let padding = "x".repeat(70 * 1024);
    let body = json!({"game": "tictactoe", "moves": [], "rules": padding}).to_string();
    let reply = send(
        &app,
        Method::POST,
        "/v1/search",
        Some("application/json"),
        body,
    )
    .await;
    assert_problem(&reply, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn impossible_or_finished_positions_and_bad_values_are_422() {
    let app = test_app();
    let cases = [
        (json!({"game": "chess", "moves": []}), "game"),
        (json!({"game": "tictactoe"}), "board"),
        (
            json!({"game": "tictactoe", "moves": [], "board": ["...", "...", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["...", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["....", "...", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["X#.", "...", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["XXX", "...", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["XXX", "OOO", "X.."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["XXX", "OO.", "..."]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["XOX", "XOO", "OXX"]}),
            "board",
        ),
        (
            json!({"game": "tictactoe", "board": ["X..", "...", "..."], "to_move": "X"}),
            "to_move",
        ),
        (json!({"game": "tictactoe", "moves": ["a1", "a1"]}), "moves"),
        (json!({"game": "tictactoe", "moves": ["z9"]}), "moves"),
        (json!({"game": "tictactoe", "moves": [], "size": 4}), "size"),
        (
            json!({"game": "tictactoe", "moves": [], "rules": "renju"}),
            "rules",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "depth": 0}),
            "depth",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "depth": 10}),
            "depth",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "depth": -3}),
            "depth",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "time_ms": 0}),
            "time_ms",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "time_ms": -5}),
            "time_ms",
        ),
        (
            json!({"game": "tictactoe", "moves": [], "time_ms": 10_000_000_000u64}),
            "time_ms",
        ),
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

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let app = test_app();
    assert_problem(&get(&app, "/v2/search").await, StatusCode::NOT_FOUND);
    let reply = send(&app, Method::DELETE, "/v1/search", None, "").await;
    assert_problem(&reply, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_full_pool_sheds_with_503_and_retry_after() {
    let pool = Pool::new(1, 0, 1 << 20);
    let app = app(AppState::with_pool(Config::defaults(), pool.clone()));

    // Hold the only worker until the test lets go.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let holder = tokio::spawn({
        let pool = pool.clone();
        async move { pool.run(move |_, _| held.recv().is_ok()).await }
    });
    while pool.busy() == 0 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }

    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": []}),
    )
    .await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(reply.headers.get("retry-after").unwrap(), "1");
    // Describing a position needs no worker, so it still answers.
    let described = post_json(
        &app,
        "/v1/position",
        json!({"game": "tictactoe", "moves": []}),
    )
    .await;
    assert_eq!(described.status, StatusCode::OK);

    release.send(()).unwrap();
    assert_eq!(holder.await.unwrap(), Ok(true));
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": []}),
    )
    .await;
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "the service recovers: {}",
        reply.text
    );
}

#[test]
fn openapi_yaml_matches_the_served_document() {
    expect_test::expect_file!["../openapi.yaml"].assert_eq(&gameai::openapi_yaml());
}
