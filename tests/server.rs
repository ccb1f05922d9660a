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

/// A search long enough to still be running when the test acts: Connect
/// Four two plies in, off the opening book's lines (X did not open in the
/// centre), where the solver needs far longer than any budget here.
fn long_search(time_ms: u64) -> Value {
    json!({"game": "connect4", "moves": "11", "time_ms": time_ms})
}

#[tokio::test]
async fn a_client_that_hangs_up_frees_its_worker() {
    let server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let gave_up = impatient
        .post(server.url("/v1/search"))
        .json(&long_search(9_000))
        .send()
        .await;
    assert!(
        gave_up.is_err(),
        "the client timed out and closed its connection"
    );

    // With the only worker freed, a quick search answers at once instead of
    // queueing behind the abandoned 9-second one.
    let started = std::time::Instant::now();
    let reply = reqwest::Client::new()
        .post(server.url("/v1/search"))
        .json(&json!({"game": "tictactoe", "moves": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn sigterm_lets_a_running_search_answer() {
    let mut server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    let request = tokio::spawn(
        reqwest::Client::new()
            .post(server.url("/v1/search"))
            .json(&long_search(1_500))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.terminate();
    let reply = request
        .await
        .unwrap()
        .expect("the in-flight search answers");
    assert_eq!(reply.status(), 200);
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["stopped"], "time");
    let status = server.wait_exit(Duration::from_secs(15));
    assert!(status.success(), "exit status {status:?}");
}

#[tokio::test]
async fn past_the_grace_period_searches_are_cut_short() {
    let mut server = Server::start(&[("GAMEAI_WORKERS", "1"), ("GAMEAI_SHUTDOWN_GRACE_MS", "200")]);
    let started = std::time::Instant::now();
    let request = tokio::spawn(
        reqwest::Client::new()
            .post(server.url("/v1/search"))
            .json(&long_search(9_000))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.terminate();
    let reply = request
        .await
        .unwrap()
        .expect("the stopped search still answers");
    assert_eq!(reply.status(), 200);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "took {:?}",
        started.elapsed()
    );
    let status = server.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "exit status {status:?}");
}

#[tokio::test]
async fn a_stop_drains_first_then_cuts_the_longest_search_short_within_ten_seconds() {
    let mut server = Server::start(&[("GAMEAI_WORKERS", "2")]);
    // A search at the time cap (the default `GAMEAI_MAX_TIME_MS`).
    let request = tokio::spawn(
        reqwest::Client::new()
            .post(server.url("/v1/search"))
            .json(&long_search(10_000))
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let signalled = std::time::Instant::now();
    server.terminate();
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Draining: readiness says 503 on new connections, and new requests
    // are still accepted and answered.
    let fresh = || {
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .build()
            .unwrap()
    };
    let ready = fresh().get(server.url("/readyz")).send().await.unwrap();
    assert_eq!(ready.status(), 503);
    let body: Value = ready.json().await.unwrap();
    assert_eq!(body["detail"], "shutting down");
    let health = fresh().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let search = fresh()
        .post(server.url("/v1/search"))
        .json(&json!({"game": "tictactoe", "moves": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(search.status(), 200);

    let reply = request
        .await
        .unwrap()
        .expect("the search at the cap answers");
    assert_eq!(reply.status(), 200);
    let body: Value = reply.json().await.unwrap();
    assert!(body["best_move"]["notation"].is_string(), "{body}");
    assert_eq!(body["stopped"], "cancelled", "{body}");
    let status = server.wait_exit(Duration::from_secs(12));
    assert!(status.success(), "exit status {status:?}");
    assert!(
        signalled.elapsed() < Duration::from_secs(10),
        "stopped after {:?}",
        signalled.elapsed()
    );
}

/// `gameai healthcheck` with the environment a container gives it.
fn healthcheck(addr: &str) -> std::process::ExitStatus {
    std::process::Command::new(env!("CARGO_BIN_EXE_gameai"))
        .arg("healthcheck")
        .env("GAMEAI_ADDR", addr)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
}

#[tokio::test]
async fn the_healthcheck_subcommand_asks_the_configured_address() {
    let server = Server::start(&[]);
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    assert!(healthcheck(&format!("127.0.0.1:{port}")).success());
    // Listening on every interface: asked on loopback.
    assert!(healthcheck(&format!("0.0.0.0:{port}")).success());
    drop(server);
    let status = healthcheck(&format!("127.0.0.1:{port}"));
    assert_eq!(status.code(), Some(1), "nothing listens any more");
}

/// Reads one gauge of `/metrics`.
async fn gauge(client: &reqwest::Client, server: &Server, name: &str) -> Option<f64> {
    let text = client
        .get(server.url("/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse().ok())
}

#[tokio::test]
async fn a_two_thread_search_holds_both_workers_and_the_next_one_waits() {
    let server = Server::start(&[("GAMEAI_WORKERS", "2"), ("GAMEAI_QUEUE", "1")]);
    let client = reqwest::Client::new();
    let limits: Value = client
        .get(server.url("/v1/limits"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(limits["max_threads"], 2, "the cap is the number of workers");

    let mut over = long_search(100);
    over["threads"] = json!(3);
    let reply = client
        .post(server.url("/v1/search"))
        .json(&over)
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 422);
    let problem: Value = reply.json().await.unwrap();
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("between 1 and 2") && detail.contains("GAMEAI_MAX_THREADS"),
        "the refusal names the cap: {detail}"
    );

    let mut team = long_search(2_000);
    team["threads"] = json!(2);
    let started = std::time::Instant::now();
    let team = tokio::spawn({
        let (client, url) = (client.clone(), server.url("/v1/search"));
        async move {
            let reply = client.post(url).json(&team).send().await.unwrap();
            let status = reply.status();
            (
                status,
                reply.json::<Value>().await.unwrap(),
                started.elapsed(),
            )
        }
    });
    while gauge(&client, &server, "gameai_pool_workers_busy").await != Some(2.0) {
        assert!(
            started.elapsed() < Duration::from_millis(1_500),
            "the two-thread search holds both workers"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // One more search waits for a worker rather than running on a third
    // thread; the next finds the queue full.
    let quick = json!({"game": "tictactoe", "moves": []});
    let waiting = tokio::spawn({
        let (client, url, quick) = (client.clone(), server.url("/v1/search"), quick.clone());
        async move {
            let reply = client.post(url).json(&quick).send().await.unwrap();
            (reply.status(), started.elapsed())
        }
    });
    while gauge(&client, &server, "gameai_pool_queue_length").await != Some(1.0) {
        assert!(
            started.elapsed() < Duration::from_millis(1_800),
            "the single search waits in the queue"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let shed = client
        .post(server.url("/v1/search"))
        .json(&quick)
        .send()
        .await
        .unwrap();
    assert_eq!(shed.status(), 503, "the queue of one is full");

    let (status, body, team_done) = team.await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body["nodes"].as_u64().unwrap() > 0);
    let (status, waited_until) = waiting.await.unwrap();
    assert_eq!(status, 200);
    assert!(
        waited_until >= team_done - Duration::from_millis(100),
        "the single search ran only once the team let go ({waited_until:?} against {team_done:?})"
    );
}
