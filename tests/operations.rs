//! Metrics and the optional API key.

mod common;

use axum::http::{Method, Request, StatusCode};
use common::*;
use gameai::{AppState, Config, app};
use serde_json::json;
use tower::ServiceExt;

#[tokio::test]
async fn metrics_count_requests_and_searches() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": ["b2"]}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    let bad = post_json(
        &app,
        "/v1/search",
        json!({"game": "tictactoe", "moves": ["b2", "b2"]}),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    // A worker counts itself busy until just after its answer is sent:
    // read the metrics until it has gone idle (for at most two seconds).
    let mut text = String::new();
    for _ in 0..200 {
        let metrics = get(&app, "/metrics").await;
        assert_eq!(metrics.status, StatusCode::OK);
        assert!(
            metrics.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        text = metrics.text;
        if text.contains("gameai_pool_workers_busy 0\n") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    for needle in [
        r#"gameai_http_requests_total{route="/v1/search",method="POST",status="200"}"#,
        r#"gameai_http_requests_total{route="/v1/search",method="POST",status="422"}"#,
        r#"gameai_searches_total{game="tictactoe",stopped="proven"}"#,
        r#"gameai_search_nodes_bucket{game="tictactoe""#,
        r#"gameai_http_request_duration_seconds_bucket{route="/v1/search""#,
        "gameai_pool_workers_busy 0",
        "gameai_pool_queue_length 0",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
}

#[tokio::test]
async fn an_api_key_guards_v1_and_leaves_operations_open() {
    let mut config = Config::defaults();
    config.api_key = Some("s3cret".to_owned());
    let state = AppState::new(config);
    state.pool.wait_prepared();
    let app = app(state);
    let body = json!({"game": "tictactoe", "moves": []}).to_string();

    let missing = send(
        &app,
        Method::POST,
        "/v1/search",
        Some("application/json"),
        body.clone(),
    )
    .await;
    assert_problem(&missing, StatusCode::UNAUTHORIZED);
    assert_eq!(missing.headers["www-authenticate"], "Bearer");

    for (token, expected) in [
        ("Bearer nope", StatusCode::UNAUTHORIZED),
        ("Bearer s3cret", StatusCode::OK),
    ] {
        let request = Request::builder()
            .method(Method::POST)
            .uri("/v1/search")
            .header("content-type", "application/json")
            .header("authorization", token)
            .body(axum::body::Body::from(body.clone()))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), expected, "{token}");
    }

    for open in ["/healthz", "/readyz", "/metrics", "/openapi.yaml"] {
        assert_eq!(get(&app, open).await.status, StatusCode::OK, "{open}");
    }
}

#[test]
fn every_v1_operation_documents_the_401() {
    // Each `/v1/` operation block lists a 401 response.
    let doc = gameai::openapi_yaml();
    let mut in_v1 = false;
    let mut operations = 0;
    let mut with_401 = 0;
    for line in doc.lines() {
        if line.starts_with("  /") {
            in_v1 = line.starts_with("  /v1/");
        } else if in_v1 && ["    get:", "    post:", "    delete:"].contains(&line) {
            operations += 1;
        } else if in_v1 && line == "        '401':" {
            with_401 += 1;
        }
    }
    assert!(operations >= 9, "{operations}");
    assert_eq!(with_401, operations);
}

/// The searches of one game counted so far, whatever stopped them.
fn searches_counted(metrics: &str, game: &str) -> u64 {
    let series = format!("gameai_searches_total{{game=\"{game}\",");
    metrics
        .lines()
        .filter(|l| l.starts_with(&series))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[tokio::test]
async fn an_analysis_counts_one_search_per_move() {
    // No other test of this file plays Connect Four: its count moves only here.
    let app = test_app();
    let before = searches_counted(&get(&app, "/metrics").await.text, "connect4");
    let reply = post_json(
        &app,
        "/v1/analyze",
        json!({"game": "connect4", "moves": "12345671234567123456", "depth": 4}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.body["moves"].as_array().unwrap().len(), 20);
    let after = searches_counted(&get(&app, "/metrics").await.text, "connect4");
    assert_eq!(after - before, 20);
}
