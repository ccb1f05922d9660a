//! The real binary over a real TCP socket.

mod common;

use std::time::Duration;

use common::Server;
use serde_json::{Value, json};

#[tokio::test]
async fn serves_searches_and_shuts_down_on_sigterm() {
    let mut server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    let client = reqwest::Client::new();

    let health = client.get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);

    let reply = client
        .post(server.url("/v1/search"))
        .json(&json!({"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(reply.headers().contains_key("x-request-id"));
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["proven"]["result"], "win");

    let bad = client
        .post(server.url("/v1/search"))
        .header("content-type", "application/json")
        .body("{\"game\":")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert_eq!(bad.headers()["content-type"], "application/problem+json");

    let doc = client
        .get(server.url("/openapi.yaml"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(doc, gameai::openapi_yaml());

    server.terminate();
    let status = server.wait_exit(Duration::from_secs(15));
    assert!(status.success(), "exit status {status:?}");
}
