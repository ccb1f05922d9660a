//! Every setting: a command-line flag, a `GAMEAI_*` environment variable and
//! a default, so `cargo run --release` needs nothing else.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::protocols::Protocol;

/// gameai: a game-AI service. POST a position, get the best move.
///
/// Without a subcommand it serves HTTP (the flags below); with one, it
/// speaks an engine protocol on stdin/stdout, or checks a running service.
#[derive(Clone, Debug, Parser)]
#[command(version, about)]
pub struct Cli {
    #[command(flatten)]
    pub serve: Config,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What the binary does instead of serving.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    #[command(flatten)]
    Protocol(Protocol),
    /// Ask the service listening at `--addr`/`GAMEAI_ADDR` for `/healthz`:
    /// exit 0 when it answers 200, 1 otherwise.
    ///
    /// For a container's health check, which then needs no HTTP client in
    /// the image. An unspecified address (`0.0.0.0`, `[::]`) is asked on
    /// the loopback interface.
    Healthcheck(HealthcheckArgs),
}

/// `gameai healthcheck`'s settings.
#[derive(Clone, Debug, Args)]
pub struct HealthcheckArgs {
    /// How long to wait for the answer, in milliseconds.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout_ms: u64,
}

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

    /// The most threads one search may ask for (`threads`; default: the
    /// workers). A search holds that many workers while it runs.
    #[arg(long, env = "GAMEAI_MAX_THREADS", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub max_threads: Option<u64>,

    /// Searches allowed to wait for a worker; beyond this, 503 at once.
    #[arg(long, env = "GAMEAI_QUEUE", default_value_t = 64)]
    pub queue: usize,

    /// Cap on any search's time budget, in milliseconds.
    #[arg(long, env = "GAMEAI_MAX_TIME_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_time_ms: u64,

    /// Largest request body accepted, in bytes.
    #[arg(long, env = "GAMEAI_MAX_BODY_BYTES", default_value_t = 64 * 1024)]
    pub max_body_bytes: usize,

    /// Largest request line and headers accepted, in bytes (at least
    /// 8192); beyond it the answer is 431 and the connection closes.
    #[arg(long, env = "GAMEAI_MAX_HEADER_BYTES", default_value_t = 16 * 1024, value_parser = clap::value_parser!(u64).range(1024..=1024 * 1024))]
    pub max_header_bytes: u64,

    /// How long a connection may take to send a request's headers, in
    /// milliseconds, counted from the moment it may send one: when it
    /// opens, and after each answer on a kept-alive connection. So it is
    /// also the idle keep-alive timeout: a connection that sends nothing,
    /// or trickles its headers, is closed after it.
    #[arg(long, env = "GAMEAI_HEADER_TIMEOUT_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub header_timeout_ms: u64,

    /// Connections open at once, at most; beyond it new connections wait
    /// in the kernel's backlog until one closes.
    #[arg(long, env = "GAMEAI_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,

    /// Each worker's whole table memory, in MiB: split equally among the
    /// generic search's table and each engine's own (Connect Four's solver,
    /// gomoku, othello); each worker makes all of them when it starts,
    /// before the service listens.
    #[arg(long, env = "GAMEAI_TT_MB", default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub tt_mb: u64,

    /// Origins allowed by CORS, comma-separated; `*` allows any.
    #[arg(
        long,
        env = "GAMEAI_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// After SIGTERM/SIGINT, how long the service goes on accepting
    /// requests while `/readyz` answers 503, so that load balancers see it
    /// leave before connections are refused, in milliseconds (at most the
    /// grace below).
    #[arg(long, env = "GAMEAI_DRAIN_MS", default_value_t = 2_000)]
    pub drain_ms: u64,

    /// The whole stop, drain included, in milliseconds: past it, searches
    /// still running answer with their best move so far and the process
    /// exits within a second. The default ends well inside Docker's 10 s
    /// stop timeout; raise both together (`docker run --stop-timeout`,
    /// Kubernetes' `terminationGracePeriodSeconds`).
    #[arg(long, env = "GAMEAI_SHUTDOWN_GRACE_MS", default_value_t = 7_000)]
    pub shutdown_grace_ms: u64,

    /// When set, every `/v1/*` route needs `Authorization: Bearer <key>`.
    #[arg(long, env = "GAMEAI_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,

    /// More API keys, one per client: comma-separated, or `@file` with one
    /// key a line (`#` starts a comment). Any of them, or `GAMEAI_API_KEY`,
    /// opens `/v1/*`; each key gets its own quota.
    #[arg(long, env = "GAMEAI_API_KEYS", hide_env_values = true, value_parser = parse_api_keys)]
    pub api_keys: Option<ApiKeys>,

    /// Requests to `/v1/*` each client may make per second, on average
    /// (unset: no per-client quota). A client is its API key when keys are
    /// set, else its address.
    #[arg(long, env = "GAMEAI_RATE_LIMIT", value_parser = parse_rate)]
    pub rate_limit: Option<f64>,

    /// Requests a client may make at once before the rate applies
    /// (default: the rate, rounded up).
    #[arg(long, env = "GAMEAI_RATE_BURST", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_burst: Option<u32>,

    /// Take the client's address from `Forwarded` or `X-Forwarded-For`
    /// (the entry the nearest proxy added), for quotas behind a reverse
    /// proxy. Only set it when a proxy always writes these headers.
    #[arg(long, env = "GAMEAI_TRUST_FORWARDED", default_value_t = false)]
    pub trust_forwarded: bool,
    /// Where sessions live: unset (or `memory`) keeps them in this process;
    /// `redis://host:port/db` shares them between replicas.
    #[arg(long, env = "GAMEAI_SESSION_STORE", value_parser = parse_session_store)]
    pub session_store: Option<String>,

    /// Sessions kept in memory at most; beyond this the least recently
    /// used goes. (Redis is bounded by its own `maxmemory`.)
    #[arg(long, env = "GAMEAI_MAX_SESSIONS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_sessions: u64,

    /// How long an untouched session lives: plain seconds (`3600`) or a
    /// duration (`3600s`, `90m`, `1h`).
    #[arg(long, env = "GAMEAI_SESSION_TTL", default_value = "1h", value_parser = parse_ttl)]
    pub session_ttl: Duration,

    /// The analysis cache's memory budget in MiB: earlier searches answer
    /// later requests for the same position. 0 turns the cache off.
    #[arg(long, env = "GAMEAI_CACHE_MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(0..=65_536))]
    pub cache_mb: u64,

    /// Where the analysis cache is shared: unset (or `memory`) keeps it in
    /// this process; `redis://host:port/db` shares it between replicas.
    #[arg(long, env = "GAMEAI_CACHE_STORE", value_parser = parse_session_store)]
    pub cache_store: Option<String>,

    /// How long a cached analysis lives in Redis: seconds or a duration.
    #[arg(long, env = "GAMEAI_CACHE_TTL", default_value = "24h", value_parser = parse_ttl)]
    pub cache_ttl: Duration,

    /// Pondering in sessions (`on` or `off`): after the AI moves, idle
    /// workers search the player's likely replies into the cache.
    #[arg(long, env = "GAMEAI_PONDER", default_value = "on", value_parser = parse_switch, action = clap::ArgAction::Set)]
    pub ponder: bool,

    /// Log format. Levels come from RUST_LOG (default `info`).
    #[arg(long, env = "GAMEAI_LOG", value_enum, default_value_t = LogFormat::Pretty)]
    pub log: LogFormat,

    /// The access log's info line per request: `on` (every request),
    /// `limit:N` (at most N lines a second), `sample:N` (one request in
    /// N) or `off`. Errors always get their line; health, readiness and
    /// metrics are logged at debug only, whatever this says.
    #[arg(long, env = "GAMEAI_ACCESS_LOG", default_value = "limit:10", value_parser = parse_access_log)]
    pub access_log: AccessLog,
}

/// Which requests write an info-level access log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessLog {
    On,
    Off,
    /// One request in this many (at least 2).
    Sample(u32),
    /// At most this many lines a second (the first requests of each).
    Limit(u32),
}

fn parse_access_log(text: &str) -> Result<AccessLog, String> {
    let text = text.trim();
    let bad =
        || format!("{text:?} is not `on`, `off`, `limit:N` or `sample:N` with N from 1 to 1000000");
    let number = |prefix: &str| {
        text.strip_prefix(prefix)
            .map(str::parse::<u32>)
            .and_then(Result::ok)
            .filter(|n| (1..=1_000_000).contains(n))
    };
    match text {
        "on" => Ok(AccessLog::On),
        "off" => Ok(AccessLog::Off),
        _ => match (number("sample:"), number("limit:")) {
            (Some(1), _) => Ok(AccessLog::On),
            (Some(n), _) => Ok(AccessLog::Sample(n)),
            (_, Some(n)) => Ok(AccessLog::Limit(n)),
            _ => Err(bad()),
        },
    }
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

    /// The most threads one search may use: the setting, within the
    /// pool's `workers` (a search cannot hold more workers than there
    /// are). Asked on every request, so it takes the pool's count rather
    /// than [`Config::worker_count`], which asks the system.
    pub fn thread_cap(&self, workers: usize) -> usize {
        self.max_threads.map_or(workers, |t| {
            usize::try_from(t).unwrap_or(usize::MAX).min(workers)
        })
    }

    pub fn worker_count(&self) -> usize {
        self.workers
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Reads a TTL: plain seconds, or a humantime duration (`90s`, `1h 30m`).
pub fn parse_ttl(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let ttl = match text.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(text)
            .map_err(|e| format!("{text:?} is not a duration such as 3600, 3600s or 1h: {e}"))?,
    };
    if ttl.is_zero() {
        return Err("a TTL must be longer than zero".to_owned());
    }
    Ok(ttl)
}

/// API keys, as `GAMEAI_API_KEYS` lists them.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKeys(pub Vec<String>);

impl std::fmt::Debug for ApiKeys {
    // Keys are secrets: a debug print of the config shows only how many.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ApiKeys({} keys)", self.0.len())
    }
}

/// Reads `GAMEAI_API_KEYS`: `a,b,c`, or `@path` to a file of one key a line.
fn parse_api_keys(text: &str) -> Result<ApiKeys, String> {
    let keys: Vec<String> = match text.trim().strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the API key file {path:?}: {e}"))?
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim().to_owned())
            .filter(|k| !k.is_empty())
            .collect(),
        None => text
            .split(',')
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .collect(),
    };
    if keys.is_empty() {
        return Err("no API key given".to_owned());
    }
    if let Some(bad) = keys
        .iter()
        .find(|k| !k.bytes().all(|b| b.is_ascii_graphic()))
    {
        return Err(format!(
            "an API key must be printable ASCII without spaces ({} characters given)",
            bad.len()
        ));
    }
    Ok(ApiKeys(keys))
}

fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|r| r.is_finite() && (0.001..=1_000_000.0).contains(r))
        .ok_or_else(|| format!("{text:?} is not a rate from 0.001 to 1000000 per second"))
}

/// Reads an on/off setting.
fn parse_switch(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(format!("{text:?} is neither `on` nor `off`")),
    }
}

fn parse_session_store(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty()
        || text == "memory"
        || text.starts_with("redis://")
        || text.starts_with("rediss://")
    {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "{text:?} is neither `memory` nor a `redis://host:port/db` URL"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ttls_read_as_seconds_or_durations() {
        assert_eq!(parse_ttl("3600"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_ttl("3600s"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_ttl("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_ttl("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_ttl("0").is_err());
        assert!(parse_ttl("soon").is_err());
    }

    #[test]
    fn api_keys_read_from_a_list_or_a_file() {
        assert_eq!(
            parse_api_keys(" a1, b2 ,,c3").unwrap().0,
            ["a1", "b2", "c3"]
        );
        assert!(parse_api_keys(" , ").is_err());
        assert!(parse_api_keys("has space").is_err());
        let path = std::env::temp_dir().join(format!("gameai-keys-{}", std::process::id()));
        std::fs::write(&path, "# clients\nk1\n\nk2 # the bot\n").unwrap();
        let keys = parse_api_keys(&format!("@{}", path.display()));
        std::fs::remove_file(&path).unwrap();
        assert_eq!(keys.unwrap().0, ["k1", "k2"]);
        assert!(parse_api_keys("@/no/such/file").is_err());
        assert!(!format!("{:?}", parse_api_keys("secret").unwrap()).contains("secret"));
    }

    #[test]
    fn access_log_settings_read_as_on_off_or_a_sample() {
        assert_eq!(parse_access_log("on"), Ok(AccessLog::On));
        assert_eq!(parse_access_log(" off "), Ok(AccessLog::Off));
        assert_eq!(parse_access_log("sample:100"), Ok(AccessLog::Sample(100)));
        assert_eq!(parse_access_log("limit:20"), Ok(AccessLog::Limit(20)));
        assert!(parse_access_log("limit:0").is_err());
        assert_eq!(parse_access_log("sample:1"), Ok(AccessLog::On));
        assert!(parse_access_log("sample:0").is_err());
        assert!(parse_access_log("sample:").is_err());
        assert!(parse_access_log("sample:-3").is_err());
        assert!(parse_access_log("sometimes").is_err());
        assert_eq!(Config::defaults().access_log, AccessLog::Limit(10));
    }

    #[test]
    fn switches_read_on_and_off() {
        assert_eq!(parse_switch("off"), Ok(false));
        assert_eq!(parse_switch(" ON "), Ok(true));
        assert_eq!(parse_switch("false"), Ok(false));
        assert!(parse_switch("maybe").is_err());
        assert!(Config::defaults().ponder);
        assert_eq!(Config::defaults().cache_mb, 64);
        assert!(!Config::parse_from(["gameai", "--ponder", "off"]).ponder);
    }

    #[test]
    fn rates_are_positive_and_finite() {
        assert_eq!(parse_rate("5"), Ok(5.0));
        assert_eq!(parse_rate("0.5"), Ok(0.5));
        assert!(parse_rate("0").is_err());
        assert!(parse_rate("-1").is_err());
        assert!(parse_rate("NaN").is_err());
        assert!(parse_rate("fast").is_err());
    }
}
