//! A short version of the load bench: overload the real binary, then check
//! nothing but 200 and 503 came back, health stayed quick, and the service
//! recovers. `cargo bench --bench load` runs the full one.

mod common;

use std::time::Duration;

use common::Server;
use common::load::{self, LoadPlan};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overload_sheds_cleanly_and_recovers() {
    let server = Server::start(&[("GAMEAI_WORKERS", "2"), ("GAMEAI_QUEUE", "2")]);
    let plan = LoadPlan {
        name: "connect4 off the book, 150 ms each, 12 clients".to_owned(),
        clients: 12,
        duration: Duration::from_secs(2),
        body: Some(json!({"game": "connect4", "moves": "11", "time_ms": 150, "cache": false})),
    };
    let report = load::run(&server, &plan).await;
    load::print_table(std::slice::from_ref(&report));
    assert_eq!(report.other, 0, "only 200 and 503 under overload");
    assert!(report.ok > 0 && report.shed > 0, "{report:?}");
    assert!(
        report.healthy_after,
        "the service answers normally afterwards"
    );
    // Generous for a shared CI machine; the bench reports the real figure.
    assert!(report.health_p99_ms < 250.0, "{report:?}");

    let freed = load::busy_falls_after_hang_up(&server).await;
    assert!(
        freed < Duration::from_secs(1),
        "the hung-up search held its worker for {freed:?}"
    );
}
