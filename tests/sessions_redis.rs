//! Sessions in Redis, shared by two real `gameai` processes. Each test starts
//! its own `redis-server` on a free port; without the binary on PATH the
//! tests say they skipped, or fail when `GAMEAI_REQUIRE_REDIS` is set (as
//! `.ci/run` sets it).

mod common;

use std::time::{Duration, Instant};

use common::Server;
use common::redis::Redis;
use reqwest::StatusCode;
use serde_json::{Value, json};

fn replica(redis: &Redis) -> Server {
    Server::start(&[
        ("GAMEAI_SESSION_STORE", &redis.url()),
        ("GAMEAI_WORKERS", "1"),
    ])
}

async fn post(server: &Server, path: &str, body: Value) -> (StatusCode, Value) {
    let reply = reqwest::Client::new()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = reply.status();
    (status, reply.json().await.unwrap_or(Value::Null))
}

async fn get(server: &Server, path: &str) -> (StatusCode, Value) {
    let reply = reqwest::get(server.url(path)).await.unwrap();
    let status = reply.status();
    (status, reply.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_game_moves_between_replicas_and_survives_one_dying() {
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let a = replica(&redis);
    let b = replica(&redis);
    let (status, session) = post(&a, "/v1/sessions", json!({"game": "tictactoe"})).await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let path = format!("/v1/sessions/{}", session["id"].as_str().unwrap());

    // Started on A, continued on B, read back on A.
    let (status, on_b) = post(&b, &format!("{path}/moves"), json!({"move": "b2"})).await;
    assert_eq!(status, StatusCode::OK, "{on_b}");
    assert_eq!(on_b["moves"].as_array().unwrap().len(), 2);
    let (_, on_a) = get(&a, &path).await;
    assert_eq!(on_a["moves"], on_b["moves"]);
    assert_eq!(on_a["version"], 2);

    // A stale version is refused whichever replica sees it.
    let (status, _) = post(
        &a,
        &format!("{path}/moves"),
        json!({"move": on_a["legal_moves"][0], "expected_version": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);

    // B dies mid-game; A finishes it with nothing lost.
    drop(b);
    let mut now = on_a;
    while now["status"] == "ongoing" {
        let mv = now["legal_moves"][0].clone();
        let (status, next) = post(&a, &format!("{path}/moves"), json!({"move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        now = next;
    }
    assert_eq!(now["status"], "win");
    assert_eq!(now["winner"], "O");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_replicas_apply_one_change_at_a_time() {
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let replicas = std::sync::Arc::new([replica(&redis), replica(&redis)]);
    let (_, session) = post(
        &replicas[0],
        "/v1/sessions",
        json!({"game": "tictactoe", "ai": {"plays": "none"}}),
    )
    .await;
    let path = format!("/v1/sessions/{}", session["id"].as_str().unwrap());
    let mut tasks = Vec::new();
    for task in 0..16 {
        let replicas = replicas.clone();
        let path = path.clone();
        tasks.push(tokio::spawn(async move {
            let server = &replicas[task % 2];
            let mut statuses = Vec::new();
            for _ in 0..3 {
                let (_, now) = get(server, &path).await;
                if now["status"] != "ongoing" {
                    break;
                }
                let legal = now["legal_moves"].as_array().unwrap();
                let mv = &legal[task % legal.len()];
                let (status, _) = post(
                    server,
                    &format!("{path}/moves"),
                    json!({"move": mv, "expected_version": now["version"]}),
                )
                .await;
                statuses.push(status);
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
    let (_, end) = get(&replicas[1], &path).await;
    assert_eq!(end["moves"].as_array().unwrap().len(), applied);
    let (status, _) = post(
        &replicas[0],
        "/v1/position",
        json!({"game": "tictactoe", "moves": end["moves"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "the history is not a legal game");
}

#[tokio::test]
async fn redis_down_means_503_and_not_ready_until_it_returns() {
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let port = redis.port;
    let server = replica(&redis);
    assert_eq!(get(&server, "/readyz").await.0, StatusCode::OK);
    let (status, _) = post(&server, "/v1/sessions", json!({"game": "tictactoe"})).await;
    assert_eq!(status, StatusCode::CREATED);

    drop(redis);
    // The write met a connection Redis had dropped: it cannot tell whether
    // the session was stored, and Redis cannot be read back to find out,
    // so the answer says the outcome is unknown (504), never a false 503.
    let (status, problem) = post(&server, "/v1/sessions", json!({"game": "tictactoe"})).await;
    assert!(
        status == StatusCode::SERVICE_UNAVAILABLE || status == StatusCode::GATEWAY_TIMEOUT,
        "{status} {problem}"
    );
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("session store")
    );
    let (status, ready) = get(&server, "/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(ready["status"], "not ready");
    // Stateless search does not need Redis.
    let (status, _) = post(
        &server,
        "/v1/search",
        json!({"game": "tictactoe", "moves": []}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    let _redis = Redis::start(Some(port)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    while get(&server, "/readyz").await.0 != StatusCode::OK {
        assert!(
            Instant::now() < deadline,
            "not ready again after Redis returned"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (status, session) = post(&server, "/v1/sessions", json!({"game": "tictactoe"})).await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
}

#[tokio::test]
async fn redis_sessions_expire_after_the_idle_ttl() {
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let server = Server::start(&[
        ("GAMEAI_SESSION_STORE", &redis.url()),
        ("GAMEAI_SESSION_TTL", "400ms"),
    ]);
    let (_, kept) = post(&server, "/v1/sessions", json!({"game": "tictactoe"})).await;
    let (_, idle) = post(&server, "/v1/sessions", json!({"game": "tictactoe"})).await;
    let kept = format!("/v1/sessions/{}", kept["id"].as_str().unwrap());
    let idle = format!("/v1/sessions/{}", idle["id"].as_str().unwrap());
    // Reading a session keeps it alive.
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert_eq!(get(&server, &kept).await.0, StatusCode::OK);
    }
    let (status, problem) = get(&server, &idle).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{problem}");
}
