//! Helpers shared by the HTTP tests: the router in process, and the real
//! binary on a free port.
#![allow(dead_code)]

pub mod engine;
pub mod load;
pub mod redis;
pub mod require;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use gameai::{AppState, Config, app};
use serde_json::Value;
use tower::ServiceExt;

/// The app with default settings and its own pool, ready.
pub fn test_app() -> Router {
    let state = AppState::new(Config::defaults());
    state.pool.wait_prepared();
    app(state)
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
}

/// Sends one request through the router, without a socket.
pub async fn send(
    app: &Router,
    method: Method,
    path: &str,
    content_type: Option<&str>,
    body: impl Into<Body>,
) -> Reply {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(ct) = content_type {
        request = request.header("content-type", ct);
    }
    let response = app
        .clone()
        .oneshot(request.body(body.into()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
    }
}

pub async fn post_json(app: &Router, path: &str, body: Value) -> Reply {
    send(
        app,
        Method::POST,
        path,
        Some("application/json"),
        body.to_string(),
    )
    .await
}

pub async fn get(app: &Router, path: &str) -> Reply {
    send(app, Method::GET, path, None, Body::empty()).await
}

/// Asserts `reply` is a problem+json document with `status`, and returns its detail.
pub fn assert_problem(reply: &Reply, status: StatusCode) -> String {
    assert_eq!(reply.status, status, "{}", reply.text);
    let ct = reply
        .headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(
        ct.as_deref(),
        Some("application/problem+json"),
        "{}",
        reply.text
    );
    assert_eq!(reply.body["status"], status.as_u16(), "{}", reply.text);
    let detail = reply.body["detail"].as_str().expect("a detail").to_owned();
    assert!(!detail.is_empty());
    detail
}

/// The real `gameai` binary, listening on a free loopback port, killed on drop.
pub struct Server {
    pub child: Child,
    pub base: String,
}

impl Server {
    pub fn start(envs: &[(&str, &str)]) -> Self {
        // A port found free can be taken before the server binds it (by
        // another test, or by a probe that connected to itself): then the
        // server exits at once, and it is started again on another port.
        for _ in 0..3 {
            if let Some(server) = Self::try_start(envs) {
                return server;
            }
        }
        panic!("the server did not start listening on three free ports");
    }

    fn try_start(envs: &[(&str, &str)]) -> Option<Self> {
        let port = redis::free_port();
        let addr = format!("127.0.0.1:{port}");
        let mut command = Command::new(env!("CARGO_BIN_EXE_gameai"));
        command
            .env("GAMEAI_ADDR", &addr)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        for (k, v) in envs {
            command.env(k, v);
        }
        let child = command.spawn().expect("the gameai binary starts");
        let mut server = Server {
            child,
            base: format!("http://{addr}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        let probe = "GET /healthz HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n";
        while !answers(&addr, probe, "HTTP/1.1 200") {
            if server.child.try_wait().unwrap().is_some() {
                return None;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not start listening"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(server)
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits for the process to exit, up to `limit`.
    pub fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit in time");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether whatever listens at `addr` answers `request` with a reply that
/// starts with `expected`. A bare connect is not proof of a listener: a
/// loopback connect to a free port in the ephemeral range can connect to
/// itself, and then reads back its own request.
pub fn answers(addr: &str, request: &str, expected: &str) -> bool {
    let Ok(mut stream) = TcpStream::connect(addr) else {
        return false;
    };
    let limit = Some(Duration::from_secs(2));
    if stream.set_read_timeout(limit).is_err() || stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut reply = vec![0; expected.len()];
    stream.read_exact(&mut reply).is_ok() && reply == expected.as_bytes()
}
