//! The real binary against hostile clients, each probe as an attacker or
//! an unlucky operator would make it: slow and idle connections, big
//! headers, many slow connections at once, one key reaching for another's
//! session, a flood of wrong keys, clients that hang up in the queue, huge
//! bad values, Redis paused mid-change, and the small ways a request can be
//! malformed.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::Server;
use common::redis::Redis;
use serde_json::{Value, json};

/// The probes that measure time or memory run one at a time.
static ALONE: Mutex<()> = Mutex::new(());

fn addr(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_owned()
}

/// A raw answer: status, headers (lower-cased names) and body.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

/// Sends `request` as it is and reads the answer until the server closes.
fn raw(server: &Server, request: &[u8]) -> Raw {
    let mut stream = TcpStream::connect(addr(server)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // A server may answer and close before the whole request is sent.
    let _ = stream.write_all(request);
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Raw {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

fn assert_problem_json(answer: &Raw, status: u16) {
    assert_eq!(answer.status, status, "{}\n{}", answer.head, answer.body);
    assert!(
        answer
            .head
            .contains("content-type: application/problem+json"),
        "{}",
        answer.head
    );
    let problem: Value = serde_json::from_str(&answer.body).expect("a JSON body");
    assert_eq!(problem["status"], status);
}

/// How long until the server closes `stream`, reading and discarding
/// what it sends, up to `limit`.
fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let mut buf = [0u8; 4096];
    while started.elapsed() < limit {
        match stream.read(&mut buf) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => return Some(started.elapsed()),
        }
    }
    None
}

#[test]
fn slow_and_idle_connections_are_closed_after_the_header_timeout() {
    let server = Server::start(&[("GAMEAI_HEADER_TIMEOUT_MS", "1000")]);
    let limit = Duration::from_millis(2500);

    let mut idle = TcpStream::connect(addr(&server)).unwrap();
    let closed = closed_within(&mut idle, limit);
    assert!(
        closed.is_some(),
        "a connection that sends nothing stays open"
    );

    let mut slow = TcpStream::connect(addr(&server)).unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
        .unwrap();
    let started = Instant::now();
    let mut open = true;
    while started.elapsed() < limit && open {
        // One header line every 200 ms, never the end of the headers.
        open = slow.write_all(b"x-trickle: 1\r\n").is_ok();
        std::thread::sleep(Duration::from_millis(200));
        let mut buf = [0u8; 1024];
        slow.set_read_timeout(Some(Duration::from_millis(1)))
            .unwrap();
        if let Ok(0) = slow.read(&mut buf) {
            open = false;
        }
    }
    assert!(!open, "a connection trickling headers stays open");

    // A kept-alive connection, once answered, may sit idle only as long.
    let mut kept = TcpStream::connect(addr(&server)).unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
        .unwrap();
    let mut answer = [0u8; 12];
    kept.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    kept.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    assert!(
        closed_within(&mut kept, limit).is_some(),
        "an idle kept-alive connection stays open"
    );
}

#[test]
fn the_default_header_timeout_closes_within_fifteen_seconds() {
    let config = gameai::Config::defaults();
    assert!(config.header_timeout_ms <= 15_000);
    assert!(config.max_header_bytes < 64 * 1024);
}

#[test]
fn a_large_header_gets_431_and_unreadable_requests_400_as_problem_json() {
    let server = Server::start(&[]);
    let big = format!(
        "GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    assert_problem_json(&raw(&server, big.as_bytes()), 431);
    let long_uri = format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(64 * 1024));
    let answer = raw(&server, long_uri.as_bytes());
    assert!(matches!(answer.status, 414 | 431), "{}", answer.head);
    assert_problem_json(&answer, answer.status);
    assert_problem_json(&raw(&server, b"HELLO THERE\r\n\r\n"), 400);
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// `/healthz` `n` times on one kept-alive connection: each latency.
fn health_latencies(server: &Server, n: usize) -> Vec<Duration> {
    let mut stream = TcpStream::connect(addr(server)).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut buf = [0u8; 4096];
    (0..n)
        .map(|_| {
            let started = Instant::now();
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
                .unwrap();
            let mut got = Vec::new();
            while !got.windows(4).any(|w| w == b"\r\n\r\n")
                || !String::from_utf8_lossy(&got).contains("ok")
            {
                let n = stream.read(&mut buf).unwrap();
                assert!(n > 0, "the health connection closed");
                got.extend_from_slice(&buf[..n]);
            }
            started.elapsed()
        })
        .collect()
}

#[test]
fn three_hundred_slow_connections_leave_health_fast_and_memory_flat() {
    let _alone = ALONE.lock();
    let server = Server::start(&[]);
    let pid = server.child.id();
    health_latencies(&server, 50);
    let idle = rss_kib(pid);
    // Each sends most of the largest header allowed, and never ends it.
    let header = format!(
        "GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: {}",
        "b".repeat(12 * 1024)
    );
    let slow: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(addr(&server)).unwrap();
            s.write_all(header.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut latencies = health_latencies(&server, 400);
    let loaded = rss_kib(pid);
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100];
    assert!(p99 < Duration::from_millis(10), "p99 {p99:?}");
    assert!(
        loaded < idle + 20 * 1024,
        "resident memory {idle} KiB idle, {loaded} KiB with 300 slow connections"
    );
    drop(slow);
}

async fn send(method: reqwest::Method, url: &str, key: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(method, url)
        .header("authorization", format!("Bearer {key}"));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    let text = reply.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_session_is_found_only_with_the_key_that_made_it() {
    let server = Server::start(&[("GAMEAI_API_KEYS", "key-a,key-b")]);
    let (status, created) = send(
        reqwest::Method::POST,
        &server.url("/v1/sessions"),
        "key-a",
        Some(json!({"game": "tictactoe"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let nobody = "00000000-0000-4000-8000-000000000000";
    let routes = |id: &str| {
        [
            (reqwest::Method::GET, format!("/v1/sessions/{id}"), None),
            (
                reqwest::Method::POST,
                format!("/v1/sessions/{id}/moves"),
                Some(json!({"move": "b2"})),
            ),
            (
                reqwest::Method::POST,
                format!("/v1/sessions/{id}/ai-move"),
                None,
            ),
            (
                reqwest::Method::POST,
                format!("/v1/sessions/{id}/undo"),
                None,
            ),
            (
                reqwest::Method::GET,
                format!("/v1/sessions/{id}/record"),
                None,
            ),
            (reqwest::Method::DELETE, format!("/v1/sessions/{id}"), None),
        ]
    };
    for ((method, path, body), (_, missing, _)) in routes(&id).into_iter().zip(routes(nobody)) {
        let (status, problem) =
            send(method.clone(), &server.url(&path), "key-b", body.clone()).await;
        let (_, absent) = send(method, &server.url(&missing), "key-b", body).await;
        assert_eq!(status, 404, "{path}: {problem}");
        assert_eq!(problem["detail"], absent["detail"], "{path}");
    }
    let (status, session) = send(
        reqwest::Method::GET,
        &server.url(&format!("/v1/sessions/{id}")),
        "key-a",
        None,
    )
    .await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["version"], 1, "key B changed nothing");
}

#[tokio::test]
async fn a_flood_of_wrong_keys_is_limited_like_any_client() {
    let server = Server::start(&[
        ("GAMEAI_API_KEY", "right"),
        ("GAMEAI_RATE_LIMIT", "5"),
        ("GAMEAI_RATE_BURST", "5"),
    ]);
    let url = server.url("/v1/games");
    let mut statuses = Vec::new();
    for _ in 0..20 {
        statuses.push(send(reqwest::Method::GET, &url, "wrong", None).await.0);
    }
    assert!(statuses[..5].iter().all(|&s| s == 401), "{statuses:?}");
    assert!(statuses[10..].iter().all(|&s| s == 429), "{statuses:?}");
    // The right key is its own client, with its own quota.
    assert_eq!(send(reqwest::Method::GET, &url, "right", None).await.0, 200);
    // The scheme's name is case-insensitive.
    let reply = reqwest::Client::new()
        .get(&url)
        .header("authorization", "bearer right")
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
}

/// The gauge's value in the server's metrics.
async fn gauge(server: &Server, name: &str) -> f64 {
    let text = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or(f64::NAN)
}

#[tokio::test]
async fn a_client_that_hangs_up_in_the_queue_frees_its_place_at_once() {
    let server = Server::start(&[
        ("GAMEAI_WORKERS", "1"),
        ("GAMEAI_QUEUE", "2"),
        ("GAMEAI_CACHE_MB", "0"),
    ]);
    let search = |time_ms: u64| json!({"game": "gomoku", "moves": "h8 i9 j10", "time_ms": time_ms, "cache": false});
    // The only worker is busy for a while.
    let busy = tokio::spawn({
        let url = server.url("/v1/search");
        let body = search(3_000);
        async move {
            reqwest::Client::new()
                .post(url)
                .json(&body)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Two clients queue behind it, then hang up.
    let body = serde_json::to_string(&search(500)).unwrap();
    let request = format!(
        "POST /v1/search HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut waiting: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(addr(&server)).unwrap();
            s.write_all(request.as_bytes()).unwrap();
            s
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(2);
    while gauge(&server, "gameai_pool_queue_length").await < 2.0 {
        assert!(Instant::now() < deadline, "the two never queued");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    for s in &mut waiting {
        s.shutdown(std::net::Shutdown::Both).unwrap();
    }
    drop(waiting);
    let hung_up = Instant::now();
    while gauge(&server, "gameai_pool_queue_length").await > 0.0 {
        assert!(
            hung_up.elapsed() < Duration::from_millis(100),
            "the queue kept their places"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // And a new request finds room rather than a 503.
    let reply = reqwest::Client::new()
        .post(server.url("/v1/search"))
        .json(&search(100))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(busy.await.unwrap(), 200);
}

#[tokio::test]
async fn error_answers_stay_small_whatever_the_client_sent() {
    let server = Server::start(&[("GAMEAI_MAX_BODY_BYTES", "16777216")]);
    let client = reqwest::Client::new();
    let huge_moves = "a".repeat(65_000);
    let huge_body = json!({"game": "tictactoe", "moves": "x".repeat(10_000_000)});
    let bodies = [
        json!({"game": "tictactoe", "moves": huge_moves}),
        json!({"game": huge_moves}),
        json!({"game": "gomoku", "rules": huge_moves}),
        json!({"game": "tictactoe", "moves": [], "depth": huge_moves}),
        huge_body,
    ];
    for body in bodies {
        let reply = client
            .post(server.url("/v1/search"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = reply.status().as_u16();
        let text = reply.text().await.unwrap();
        assert!((400..500).contains(&status), "{status}");
        assert!(text.len() <= 8 * 1024, "{status}: {} bytes", text.len());
    }
}

#[tokio::test]
async fn small_malformations_are_refused_clearly() {
    let server = Server::start(&[]);
    let client = reqwest::Client::new();
    let post = |body: &'static str| {
        client
            .post(server.url("/v1/search"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let reply = post(r#"{"game":"tictactoe","game":"connect4"}"#)
        .await
        .unwrap();
    assert_eq!(reply.status(), 400);
    let problem: Value = reply.json().await.unwrap();
    assert!(
        problem["detail"].as_str().unwrap().contains("\"game\""),
        "{problem}"
    );
    let reply = post(r#"{"game":"tictactoe","moves":[],"depth":"9"}"#)
        .await
        .unwrap();
    assert_eq!(reply.status(), 400);
    let problem: Value = reply.json().await.unwrap();
    assert!(
        problem["detail"].as_str().unwrap().starts_with("depth: "),
        "{problem}"
    );

    for (sent, kept) in [
        ("plain-id_1.2:3", true),
        ("has space", false),
        ("<script>", false),
        (&*"x".repeat(65), false),
    ] {
        let reply = client
            .get(server.url("/v1/games"))
            .header("x-request-id", sent)
            .send()
            .await
            .unwrap();
        let echoed = reply.headers()["x-request-id"].to_str().unwrap().to_owned();
        assert_eq!(echoed == sent, kept, "{sent:?} came back as {echoed:?}");
    }
}

/// Sends SIGSTOP or SIGCONT to `pid`.
fn signal(pid: u32, sig: &str) {
    let status = std::process::Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn with_redis_paused_a_change_is_refused_or_said_unknown_never_lost() {
    let _alone = ALONE.lock();
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let server = Server::start(&[("GAMEAI_SESSION_STORE", &redis.url())]);
    let client = reqwest::Client::new();
    // A session whose first change is answered 2xx before the pause.
    let created: Value = client
        .post(server.url("/v1/sessions"))
        .json(&json!({"game": "gomoku", "ai": {"plays": "O", "time_ms": 1000}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let played = client
        .post(server.url(&format!("/v1/sessions/{id}/moves")))
        .json(&json!({"move": "h8", "reply": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(played.status(), 200);

    // A move whose AI reply is searched while Redis stops: the session
    // was read before the pause, the write comes during it.
    let moved = tokio::spawn({
        let url = server.url(&format!("/v1/sessions/{id}/ai-move"));
        async move {
            let reply = reqwest::Client::new().post(url).send().await.unwrap();
            reply.status().as_u16()
        }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let pid = redis.pid();
    signal(pid, "-STOP");
    // And a new session, its AI moving first, written during the pause.
    let made = tokio::spawn({
        let url = server.url("/v1/sessions");
        async move {
            let reply = reqwest::Client::new()
                .post(url)
                .json(&json!({"game": "gomoku", "ai": {"plays": "X", "time_ms": 300}}))
                .send()
                .await
                .unwrap();
            let status = reply.status().as_u16();
            (status, reply.json::<Value>().await.unwrap())
        }
    });
    let (moved, (made_status, made_body)) = (moved.await.unwrap(), made.await.unwrap());
    tokio::time::sleep(Duration::from_millis(500)).await;
    signal(pid, "-CONT");
    // Past the write window every late write has met its deadline.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let session: Value = client
        .get(server.url(&format!("/v1/sessions/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        session["moves"][0], "h8",
        "the change answered 200 is there"
    );
    match moved {
        // A refusal changed nothing, ever.
        503 => assert_eq!(session["version"], 2, "{session}"),
        // Unknown at the time; here the late write met its deadline.
        504 => assert!(
            matches!(session["version"].as_u64(), Some(2 | 3)),
            "{session}"
        ),
        200 => assert_eq!(session["version"], 3, "{session}"),
        other => panic!("the AI's move answered {other}"),
    }
    assert!(matches!(moved, 503 | 504), "Redis was paused: {moved}");
    assert!(
        matches!(made_status, 503 | 504),
        "Redis was paused: {made_status} {made_body}"
    );
    if made_status == 504 {
        // It says how to find out, and the session it names was never
        // made: the write came after its deadline.
        let detail = made_body["detail"].as_str().unwrap();
        let named = detail
            .split("/v1/sessions/")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .expect("the answer names the session to read");
        let reply = client
            .get(server.url(&format!("/v1/sessions/{named}")))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), 404, "{detail}");
    }
}
