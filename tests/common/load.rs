//! A load driver against the real binary: more concurrent heavy searches
//! than the pool holds, `/healthz` probed throughout, then a check that the
//! service answers normally. Shared by the smoke test and the load bench.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Server;

/// One load run's shape.
pub struct LoadPlan {
    pub name: String,
    pub clients: usize,
    pub duration: Duration,
    /// A search request, or `None` to GET `/healthz` (the ceiling: a route
    /// that does no search).
    pub body: Option<Value>,
}

/// What one run measured.
#[derive(Debug)]
pub struct LoadReport {
    pub name: String,
    pub sent: u64,
    pub ok: u64,
    pub shed: u64,
    pub other: u64,
    pub throughput: f64,
    pub ok_p50_ms: f64,
    pub ok_p99_ms: f64,
    pub health_p50_ms: f64,
    pub health_p99_ms: f64,
    pub peak_rss_kib: u64,
    pub healthy_after: bool,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The process's high-water resident set, from /proc.
pub fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Drives `server` with `plan` and reports.
pub async fn run(server: &Server, plan: &LoadPlan) -> LoadReport {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(plan.clients + 4)
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let (sent, ok, shed, other) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..plan.clients {
        let (client, stop, sent, ok, shed, other) = (
            client.clone(),
            stop.clone(),
            sent.clone(),
            ok.clone(),
            shed.clone(),
            other.clone(),
        );
        let url = server.url(if plan.body.is_some() {
            "/v1/search"
        } else {
            "/healthz"
        });
        let body = plan.body.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                sent.fetch_add(1, Ordering::Relaxed);
                let request = match &body {
                    Some(body) => client.post(&url).json(body),
                    None => client.get(&url),
                };
                match request.send().await.map(|r| r.status().as_u16()) {
                    Ok(200) => {
                        ok.fetch_add(1, Ordering::Relaxed);
                        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                    Ok(503) => {
                        shed.fetch_add(1, Ordering::Relaxed);
                        // A polite client honours Retry-After; a short pause keeps the
                        // overload steady without a busy loop.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    _ => {
                        other.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            latencies
        }));
    }
    let health = {
        let (client, stop) = (client.clone(), stop.clone());
        let url = server.url("/healthz");
        tokio::spawn(async move {
            let mut latencies = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                if client
                    .get(&url)
                    .send()
                    .await
                    .is_ok_and(|r| r.status() == 200)
                {
                    latencies.push(t.elapsed().as_secs_f64() * 1000.0);
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            latencies
        })
    };
    tokio::time::sleep(plan.duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut ok_ms = Vec::new();
    for w in workers {
        ok_ms.extend(w.await.unwrap());
    }
    let elapsed = started.elapsed().as_secs_f64();
    let mut health_ms = health.await.unwrap();
    ok_ms.sort_by(f64::total_cmp);
    health_ms.sort_by(f64::total_cmp);

    let after = client
        .post(server.url("/v1/search"))
        .json(&json!({"game": "tictactoe", "moves": []}))
        .send()
        .await;
    let healthy_after = after.is_ok_and(|r| r.status() == 200);
    let ok = ok.load(Ordering::Relaxed);
    LoadReport {
        name: plan.name.clone(),
        sent: sent.load(Ordering::Relaxed),
        ok,
        shed: shed.load(Ordering::Relaxed),
        other: other.load(Ordering::Relaxed),
        throughput: ok as f64 / elapsed,
        ok_p50_ms: percentile(&ok_ms, 0.5),
        ok_p99_ms: percentile(&ok_ms, 0.99),
        health_p50_ms: percentile(&health_ms, 0.5),
        health_p99_ms: percentile(&health_ms, 0.99),
        peak_rss_kib: peak_rss_kib(server.child.id()),
        healthy_after,
    }
}

/// How long the busy-workers gauge takes to fall to zero after a client
/// hangs up mid-search (polled every millisecond).
pub async fn busy_falls_after_hang_up(server: &Server) -> Duration {
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let gave_up = impatient
        .post(server.url("/v1/search"))
        // Off the opening book, so it searches for the whole budget.
        .json(&json!({"game": "connect4", "moves": "11", "time_ms": 9000}))
        .send()
        .await;
    assert!(gave_up.is_err(), "the client hung up");
    let hung_up = Instant::now();
    let client = reqwest::Client::new();
    loop {
        let text = client
            .get(server.url("/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if text.lines().any(|l| l == "gameai_pool_workers_busy 0") {
            return hung_up.elapsed();
        }
        assert!(
            hung_up.elapsed() < Duration::from_secs(5),
            "the worker stayed busy"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

pub fn print_table(reports: &[LoadReport]) {
    println!(
        "| load | sent | 200 | 503 | other | 200/s | p50 ms | p99 ms | /healthz p50 ms | /healthz p99 ms | peak RSS MiB | healthy after |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in reports {
        println!(
            "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.2} | {:.1} | {} |",
            r.name,
            r.sent,
            r.ok,
            r.shed,
            r.other,
            r.throughput,
            r.ok_p50_ms,
            r.ok_p99_ms,
            r.health_p50_ms,
            r.health_p99_ms,
            r.peak_rss_kib as f64 / 1024.0,
            r.healthy_after
        );
    }
}
