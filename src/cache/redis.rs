//! The cache's shared tier in Redis: entries as JSON under
//! `gameai:cache:<key>`, each expiring after the TTL. Every call is bounded
//! by a short timeout, and after a failure Redis is left alone for a few
//! seconds, so a Redis that is down costs a request at most one timeout
//! and then nothing: the request is searched as if the cache were empty.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::Value;

/// The longest a request waits for Redis before searching instead.
const ROUND_TRIP_LIMIT: Duration = Duration::from_millis(100);

/// How long Redis is left alone after a failure.
const BACK_OFF: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub(super) struct Shared {
    connection: ConnectionManager,
    ttl_ms: u64,
    /// Milliseconds after `epoch` before which Redis is not tried.
    resting_until: Arc<AtomicU64>,
    epoch: Instant,
}

fn redis_key(key: &str) -> String {
    format!("gameai:cache:{key}")
}

impl Shared {
    /// Reads the URL; the connection is made on first use and remade after
    /// failures.
    pub(super) fn open(url: &str, ttl: Duration) -> Result<Self, String> {
        let client = redis::Client::open(url).map_err(|e| e.to_string())?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(ROUND_TRIP_LIMIT))
            .set_response_timeout(Some(ROUND_TRIP_LIMIT))
            .set_number_of_retries(0)
            .set_max_delay(Duration::from_millis(200));
        let connection =
            ConnectionManager::new_lazy_with_config(client, config).map_err(|e| e.to_string())?;
        Ok(Self {
            connection,
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1),
            resting_until: Arc::default(),
            epoch: Instant::now(),
        })
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn resting(&self) -> bool {
        self.now_ms() < self.resting_until.load(Ordering::Relaxed)
    }

    fn failed(&self, what: &str, error: &str) {
        let until = self.now_ms() + BACK_OFF.as_millis() as u64;
        let before = self.resting_until.swap(until, Ordering::Relaxed);
        metrics::counter!("gameai_cache_store_errors_total").increment(1);
        if before <= self.now_ms() {
            tracing::warn!(
                cache.operation = what,
                error = error,
                "the shared analysis cache is unavailable; searching without it for a while"
            );
        }
    }

    /// The value under `key`, or `None` (absent, unreadable or Redis down).
    pub(super) async fn get(&self, key: &str) -> Option<Value> {
        if self.resting() {
            return None;
        }
        let mut conn = self.connection.clone();
        let text: Option<String> = match tokio::time::timeout(
            ROUND_TRIP_LIMIT,
            conn.get::<_, Option<String>>(redis_key(key)),
        )
        .await
        {
            Ok(Ok(text)) => text,
            Ok(Err(e)) => {
                self.failed("get", &e.to_string());
                return None;
            }
            Err(_) => {
                self.failed("get", "no answer in time");
                return None;
            }
        };
        // An entry another version wrote and this one cannot read is a miss.
        serde_json::from_str(&text?).ok()
    }

    /// Writes `value` under `key` in the background: a request never waits
    /// for Redis to take it.
    pub(super) fn put(&self, key: &str, value: &Value) {
        if self.resting() {
            return;
        }
        let Ok(text) = serde_json::to_string(value) else {
            return;
        };
        let key = redis_key(key);
        let this = self.clone();
        tokio::spawn(async move {
            let mut conn = this.connection.clone();
            let written = tokio::time::timeout(
                ROUND_TRIP_LIMIT,
                conn.pset_ex::<_, _, ()>(key, text, this.ttl_ms),
            )
            .await;
            match written {
                Ok(Ok(())) => {}
                Ok(Err(e)) => this.failed("set", &e.to_string()),
                Err(_) => this.failed("set", "no answer in time"),
            }
        });
    }
}
