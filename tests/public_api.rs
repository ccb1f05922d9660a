//! The public deployment's API end to end, through the real binary over
//! real TCP: keys and per-client quotas, compression, the event stream a
//! browser can open, CORS preflights, the reference page, and clocks.

mod common;

use std::time::{Duration, Instant};

use common::Server;
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn search(server: &Server, key: &str, body: &Value) -> reqwest::Response {
    client()
        .post(server.url("/v1/search"))
        .bearer_auth(key)
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn each_key_has_its_own_quota_and_probes_are_never_limited() {
    let server = Server::start(&[
        ("GAMEAI_API_KEYS", "alpha,beta"),
        ("GAMEAI_RATE_LIMIT", "5"),
        ("GAMEAI_RATE_BURST", "5"),
    ]);
    let quick = json!({"game": "tictactoe", "moves": "b2 a1", "depth": 1});
    let mut served = 0;
    let mut limited = Vec::new();
    for _ in 0..20 {
        let reply = search(&server, "alpha", &quick).await;
        match reply.status().as_u16() {
            200 => {
                served += 1;
                assert!(reply.headers().contains_key("ratelimit"));
            }
            429 => limited.push(reply),
            other => panic!("unexpected status {other}"),
        }
    }
    // Twenty requests take far less than a second: the burst and perhaps
    // a refill or two get through, the rest are refused.
    assert!((5..=8).contains(&served), "{served} served");
    assert!(limited.len() >= 12, "{} limited", limited.len());
    let refused = limited.pop().unwrap();
    let headers = refused.headers().clone();
    assert_eq!(headers["content-type"], "application/problem+json");
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    assert_eq!(headers["ratelimit-policy"], "\"default\";q=5;w=1");
    assert!(
        headers["ratelimit"]
            .to_str()
            .unwrap()
            .starts_with("\"default\";r=0;t=")
    );
    let problem: Value = refused.json().await.unwrap();
    assert_eq!(problem["status"], 429);
    assert!(problem["detail"].as_str().unwrap().contains("quota"));

    // Another key is still served; a wrong key is refused before any quota.
    assert_eq!(search(&server, "beta", &quick).await.status(), 200);
    assert_eq!(search(&server, "gamma", &quick).await.status(), 401);

    for _ in 0..30 {
        let health = client().get(server.url("/healthz")).send().await.unwrap();
        assert_eq!(health.status(), 200);
        assert!(!health.headers().contains_key("ratelimit"));
    }
    let metrics = client()
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("gameai_rate_limit_total{outcome=\"limited\"}"),
        "{metrics}"
    );
    assert!(metrics.contains("gameai_rate_limit_total{outcome=\"allowed\"}"));

    // After the refill time the first key is served again.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_eq!(search(&server, "alpha", &quick).await.status(), 200);
}

#[tokio::test]
async fn without_keys_the_quota_follows_the_address() {
    let server = Server::start(&[("GAMEAI_RATE_LIMIT", "1"), ("GAMEAI_RATE_BURST", "2")]);
    let games = || client().get(server.url("/v1/games")).send();
    assert_eq!(games().await.unwrap().status(), 200);
    assert_eq!(games().await.unwrap().status(), 200);
    let refused = games().await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    // The page and the document are not API calls.
    assert_eq!(
        client().get(server.url("/")).send().await.unwrap().status(),
        200
    );
    assert_eq!(
        client()
            .get(server.url("/docs"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_forwarded_address_is_the_client() {
    let server = Server::start(&[
        ("GAMEAI_RATE_LIMIT", "1"),
        ("GAMEAI_RATE_BURST", "1"),
        ("GAMEAI_TRUST_FORWARDED", "true"),
    ]);
    let from = |chain: &'static str| {
        client()
            .get(server.url("/v1/limits"))
            .header("x-forwarded-for", chain)
            .send()
    };
    assert_eq!(from("192.0.2.1").await.unwrap().status(), 200);
    assert_eq!(from("192.0.2.1").await.unwrap().status(), 429);
    // What the client wrote before the proxy's entry does not count.
    assert_eq!(from("192.0.2.9, 192.0.2.1").await.unwrap().status(), 429);
    assert_eq!(from("192.0.2.1, 192.0.2.2").await.unwrap().status(), 200);
}

#[tokio::test]
async fn answers_are_compressed_but_never_the_event_stream() {
    let server = Server::start(&[]);
    let plain = client().get(server.url("/app.js")).send().await.unwrap();
    assert!(!plain.headers().contains_key("content-encoding"));
    let plain_len = plain.bytes().await.unwrap().len();
    for encoding in ["gzip", "br"] {
        let reply = client()
            .get(server.url("/app.js"))
            .header("accept-encoding", encoding)
            .send()
            .await
            .unwrap();
        assert_eq!(reply.headers()["content-encoding"], encoding);
        let packed = reply.bytes().await.unwrap();
        assert!(
            packed.len() * 2 < plain_len,
            "{encoding}: {} of {plain_len}",
            packed.len()
        );
        if encoding == "gzip" {
            assert_eq!(&packed[..2], [0x1f, 0x8b]);
        }
    }

    // 40 lines of gomoku: 4 KB of JSON. A short answer stays as it is: an
    // encoder costs more than it saves there.
    let lines = json!({"game": "gomoku", "moves": "h8 i9", "depth": 2, "multi_pv": 40});
    let json_reply = client()
        .post(server.url("/v1/search"))
        .header("accept-encoding", "gzip")
        .json(&lines)
        .send()
        .await
        .unwrap();
    assert_eq!(json_reply.status(), 200);
    assert_eq!(json_reply.headers()["content-encoding"], "gzip");
    let short = client()
        .post(server.url("/v1/search"))
        .header("accept-encoding", "gzip")
        .json(&json!({"game": "tictactoe", "moves": "b2", "depth": 3}))
        .send()
        .await
        .unwrap();
    assert_eq!(short.status(), 200);
    assert!(!short.headers().contains_key("content-encoding"));

    let stream = client()
        .get(server.url("/v1/search/stream?game=tictactoe&moves=b2&depth=3"))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    assert!(!stream.headers().contains_key("content-encoding"));
    assert!(stream.text().await.unwrap().contains("event: result"));
}

/// The events of a Server-Sent Events body, as (name, JSON) pairs.
fn events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_owned(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[tokio::test]
async fn a_browser_can_open_the_stream_with_a_get() {
    let server = Server::start(&[]);
    let reply = client()
        .get(server.url("/v1/search/stream?game=othello&moves=f5+d6&time_ms=300"))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert!(
        reply.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let streamed = events(&reply.text().await.unwrap());
    let (last, result) = streamed.last().expect("events");
    assert_eq!(last, "result");
    assert_eq!(result["to_move"], "X");
    assert!(
        streamed
            .iter()
            .any(|(name, e)| name == "depth" && e["depth"].as_u64() > Some(0))
    );

    // A board in the query: rows split on `/`.
    let board = client()
        .get(server.url("/v1/search/stream?game=tictactoe&board=X.O/.../...&depth=9"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (last, result) = events(&board).pop().expect("events");
    assert_eq!(last, "result");
    assert_eq!(result["best_move"]["notation"], "a3", "{result}");

    // The same checks as the POST body, as problem+json before streaming.
    for (query, status, field) in [
        ("game=chess", 422, "game"),
        ("game=othello&moves=f5+f5", 422, "moves"),
        ("game=othello&moves=f5&depth=0", 422, "depth"),
        ("game=othello&moves=f5&time_left_ms=-5", 422, "clock"),
        ("game=othello&increment_ms=5", 422, "time_left_ms"),
    ] {
        let reply = client()
            .get(server.url(&format!("/v1/search/stream?{query}")))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), status, "{query}");
        assert_eq!(reply.headers()["content-type"], "application/problem+json");
        let problem: Value = reply.json().await.unwrap();
        assert_eq!(problem["errors"][0]["field"], field, "{query}: {problem}");
    }
    for query in ["game=othello&colour=black", "game=othello&depth=deep", ""] {
        let reply = client()
            .get(server.url(&format!("/v1/search/stream?{query}")))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), 400, "{query}");
        assert_eq!(reply.headers()["content-type"], "application/problem+json");
    }
}

#[tokio::test]
async fn the_reference_is_served_from_the_binary() {
    let server = Server::start(&[]);
    let reply = client().get(server.url("/docs")).send().await.unwrap();
    assert_eq!(reply.status(), 200);
    let csp = reply.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("http"),
        "{csp}"
    );
    let html = reply.text().await.unwrap();
    assert!(html.contains("<code>/v1/search/stream</code>"));
    assert!(html.contains("Authorization: Bearer"));
    assert!(!html.contains("http://") && !html.contains("https://"));
    let style = client().get(server.url("/docs.css")).send().await.unwrap();
    assert_eq!(style.status(), 200);
    assert!(
        style.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );

    let doc = gameai::openapi_yaml();
    assert!(doc.contains("securitySchemes:\n    bearer:\n      type: http\n      scheme: bearer"));
}

#[tokio::test]
async fn a_preflight_is_answered_and_cached_for_an_hour() {
    let server = Server::start(&[]);
    let reply = client()
        .request(reqwest::Method::OPTIONS, server.url("/v1/search"))
        .header("origin", "https://example.org")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "content-type, authorization",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    let header = |name: &str| reply.headers()[name].to_str().unwrap().to_ascii_lowercase();
    assert_eq!(header("access-control-max-age"), "3600");
    assert_eq!(header("access-control-allow-origin"), "*");
    assert!(header("access-control-allow-methods").contains("post"));
    assert!(header("access-control-allow-headers").contains("authorization"));
}

#[tokio::test]
async fn a_clock_turns_into_a_share_of_the_time_left() {
    let server = Server::start(&[]);
    // Past the opening book's ten plies, so that the clock's share is searched.
    const OTHELLO: &str = "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4";
    let deep =
        |clock: Value| json!({"game": "othello", "moves": OTHELLO, "depth": 60, "clock": clock});

    let started = Instant::now();
    let reply = client()
        .post(server.url("/v1/search"))
        .json(&deep(json!({"time_left_ms": 3000})))
        .send()
        .await
        .unwrap();
    let wall = started.elapsed();
    assert_eq!(reply.status(), 200);
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["stopped"], "time", "{body}");
    assert!(body["time_ms"].as_u64().unwrap() <= 300, "{body}");
    assert!(wall <= Duration::from_millis(300), "{wall:?}");

    for game in gameai::games::GameKind::ALL.iter().map(|g| g.name()) {
        let moves = match game {
            "othello" => OTHELLO,
            "gomoku" => "h8 i9",
            "connect4" => "11",
            "tictactoe" => "b2",
            other => panic!("no opening for {other} here: add one"),
        };
        for left in [200, 0] {
            let started = Instant::now();
            let reply = client()
                .post(server.url("/v1/search"))
                .json(&json!({"game": game, "moves": moves, "clock": {"time_left_ms": left}}))
                .send()
                .await
                .unwrap();
            let wall = started.elapsed();
            assert_eq!(reply.status(), 200, "{game} {left}");
            let body: Value = reply.json().await.unwrap();
            assert!(body["best_move"]["notation"].is_string(), "{body}");
            assert!(
                wall < Duration::from_millis(300),
                "{game} with {left} ms: {wall:?}"
            );
        }
    }

    let bad = client()
        .post(server.url("/v1/search"))
        .json(&json!({"game": "othello", "clock": {"time_left_ms": 1000, "moves_to_go": 0}}))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 422);
    let bad = client()
        .post(server.url("/v1/search"))
        .json(&json!({"game": "othello", "clock": {"time_left": 1000}}))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}

#[tokio::test]
async fn a_session_ai_plays_on_its_own_clock() {
    let server = Server::start(&[]);
    let created: Value = client()
        .post(server.url("/v1/sessions"))
        .json(&json!({"game": "othello", "ai": {"plays": "X", "clock": {"time_left_ms": 2000, "increment_ms": 100}}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let spent = created["ai_search"]["time_ms"].as_u64().unwrap();
    // 2000/20 + 75 = 175 ms at most, then the clock is charged.
    assert!(spent <= 200, "{created}");
    let left = created["ai"]["clock"]["time_left_ms"].as_u64().unwrap();
    assert_eq!(left, 2000 - spent + 100, "{created}");
}

#[tokio::test]
async fn a_client_can_stream_the_ai_search_and_play_its_move() {
    let server = Server::start(&[]);
    let created: Value = client()
        .post(server.url("/v1/sessions"))
        .json(&json!({"game": "tictactoe", "ai": {"plays": "O", "depth": 9}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let moved: Value = client()
        .post(server.url(&format!("/v1/sessions/{id}/moves")))
        .json(&json!({"move": "b2", "reply": false}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(moved["moves"], json!(["b2"]));
    assert_eq!(moved["to_move"], "O");
    assert!(moved.get("ai_search").is_none());

    let illegal = client()
        .post(server.url(&format!("/v1/sessions/{id}/ai-move")))
        .json(&json!({"move": "b2"}))
        .send()
        .await
        .unwrap();
    assert_eq!(illegal.status(), 422);
    let depth_alone = client()
        .post(server.url(&format!("/v1/sessions/{id}/ai-move")))
        .json(&json!({"move": "a1", "depth": 8}))
        .send()
        .await
        .unwrap();
    assert_eq!(depth_alone.status(), 422);
    let played: Value = client()
        .post(server.url(&format!("/v1/sessions/{id}/ai-move")))
        .json(&json!({"move": "a1", "score": 0, "depth": 8, "expected_version": moved["version"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(played["moves"], json!(["b2", "a1"]));
    assert_eq!(played["to_move"], "X");
}
