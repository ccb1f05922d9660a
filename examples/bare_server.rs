//! The yardstick for `benches/http_overhead.sh`: a bare axum server with
//! no middleware, no pool and no search, answering the same request shapes
//! as gameai's `/healthz` and a trivial `POST /v1/search`, and `POST /echo`,
//! which reads any JSON body into a `serde_json::Value` and writes it back
//! (what an answer from the book or the cache is measured against), so the
//! bench can say what share of the plain HTTP rate the service keeps.
//!
//! The search route still reads and writes typed JSON, as gameai does:
//! the comparison is with a server doing the least honest work, not none.
//!
//! `cargo run --release --example bare_server -- 127.0.0.1:18482`

use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct Health {
    status: &'static str,
}

/// The fields of gameai's search request that the bench sends.
#[derive(Deserialize)]
#[allow(dead_code)] // Read to be parsed, as the service parses them.
struct SearchRequest {
    game: String,
    moves: Vec<String>,
}

#[derive(Serialize)]
struct Cell {
    row: u32,
    col: u32,
    notation: &'static str,
}

#[derive(Serialize)]
struct Proven {
    result: &'static str,
    plies: u32,
}

/// The same shape and size as gameai's answer to the bench's search.
#[derive(Serialize)]
struct SearchResponse {
    best_move: Cell,
    score: i64,
    proven: Proven,
    depth: u32,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    pv: Vec<&'static str>,
    stopped: &'static str,
    to_move: &'static str,
    source: &'static str,
}

async fn echo(Json(body): Json<serde_json::Value>) -> Json<serde_json::Value> {
    Json(body)
}

async fn check_health() -> Json<Health> {
    Json(Health { status: "ok" })
}

async fn find_best_move(Json(_request): Json<SearchRequest>) -> Json<SearchResponse> {
    Json(SearchResponse {
        best_move: Cell {
            row: 0,
            col: 2,
            notation: "c1",
        },
        score: 99_999,
        proven: Proven {
            result: "win",
            plies: 1,
        },
        depth: 5,
        nodes: 1,
        time_ms: 0,
        nps: 1000,
        pv: vec!["c1"],
        stopped: "proven",
        to_move: "X",
        source: "search",
    })
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18482".to_owned());
    let app = Router::new()
        .route("/healthz", get(check_health))
        .route("/v1/search", post(find_best_move))
        .route("/echo", post(echo));
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await
}
