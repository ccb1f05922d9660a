//! Every setting: a command-line flag, a `GAMEAI_*` environment variable and
//! a default, so `cargo run --release` needs nothing else.

use std::net::SocketAddr;

use clap::{Parser, ValueEnum};

/// gameai: a game-AI service. POST a position, get the best move.
#[derive(Clone, Debug, Parser)]
#[command(version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "GAMEAI_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: SocketAddr,

    /// Searches that run at once (default: the machine's cores).
    #[arg(long, env = "GAMEAI_WORKERS")]
    pub workers: Option<usize>,

    /// Searches allowed to wait for a worker; beyond this, 503 at once.
    #[arg(long, env = "GAMEAI_QUEUE", default_value_t = 64)]
    pub queue: usize,

    /// Cap on any search's time budget, in milliseconds.
    #[arg(long, env = "GAMEAI_MAX_TIME_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_time_ms: u64,

    /// Largest request body accepted, in bytes.
    #[arg(long, env = "GAMEAI_MAX_BODY_BYTES", default_value_t = 64 * 1024)]
    pub max_body_bytes: usize,

    /// Transposition table per worker, in MiB.
    #[arg(long, env = "GAMEAI_TT_MB", default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,

    /// Origins allowed by CORS, comma-separated; `*` allows any.
    #[arg(
        long,
        env = "GAMEAI_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// How long in-flight requests may run after SIGTERM/SIGINT, in milliseconds.
    #[arg(long, env = "GAMEAI_SHUTDOWN_GRACE_MS", default_value_t = 10_000)]
    pub shutdown_grace_ms: u64,

    /// When set, every `/v1/*` route needs `Authorization: Bearer <key>`.
    #[arg(long, env = "GAMEAI_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,

    /// Log format. Levels come from RUST_LOG (default `info`).
    #[arg(long, env = "GAMEAI_LOG", value_enum, default_value_t = LogFormat::Pretty)]
    pub log: LogFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Pretty,
    Json,
}

impl Config {
    /// The defaults, as if no flag or variable were set (for tests).
    pub fn defaults() -> Self {
        Self::parse_from(["gameai"])
    }

    pub fn worker_count(&self) -> usize {
        self.workers
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}
