//! Load against the release binary: throughput of trivial and depth-limited
//! searches per game, shedding under 4× overload, /healthz latency during
//! it, peak RSS, and how fast a hung-up client's worker is freed.
//!
//! `cargo bench --bench load` (about a minute).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Duration;

use common::Server;
use common::load::{self, LoadPlan};
use serde_json::json;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let seconds = Duration::from_secs(8);
    let workers = 2;
    let server = Server::start(&[
        ("GAMEAI_WORKERS", "2"),
        ("GAMEAI_QUEUE", "2"),
        ("RUST_LOG", "error"),
    ]);
    let plans = [
        LoadPlan {
            name: "GET /healthz (no search: the ceiling), 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            body: None,
        },
        LoadPlan {
            name: "tic-tac-toe solve (trivial), 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            body: Some(json!({"game": "tictactoe", "moves": [], "cache": false})),
        },
        LoadPlan {
            name: "connect4 depth 12, 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            body: Some(json!({"game": "connect4", "moves": "44", "depth": 12, "cache": false})),
        },
        LoadPlan {
            name: "gomoku 15×15 depth 4, 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            body: Some(
                json!({"game": "gomoku", "moves": ["h8", "i9", "g9"], "depth": 4, "cache": false}),
            ),
        },
        LoadPlan {
            name: "othello depth 6, 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            body: Some(
                json!({"game": "othello", "moves": ["f5", "d6"], "depth": 6, "cache": false}),
            ),
        },
        LoadPlan {
            name: format!(
                "4× overload: connect4 300 ms searches, {} clients",
                4 * (workers + 2)
            ),
            clients: 4 * (workers + 2),
            duration: seconds,
            // Off the opening book and the cache, so every request searches.
            body: Some(json!({"game": "connect4", "moves": "11", "time_ms": 300, "cache": false})),
        },
        LoadPlan {
            name: "othello midgame, 1500 ms, repeated (the analysis cache), 8 clients".to_owned(),
            clients: 8,
            duration: seconds,
            // The first request searches; the rest are answered from the cache.
            body: Some(json!({
                "game": "othello",
                "moves": "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4 b5 d2 e3 a6 c1 b1",
                "time_ms": 1500,
            })),
        },
    ];
    let mut reports = Vec::new();
    for plan in &plans {
        reports.push(load::run(&server, plan).await);
    }
    load::print_table(&reports);
    let freed = load::busy_falls_after_hang_up(&server).await;
    println!("\nbusy workers back to 0 after a client hung up mid-search: {freed:?}");
}
