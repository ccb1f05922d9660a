//! The Redis session store, shared by every replica that names the same
//! Redis. A session is a hash `{version, data}` under `gameai:session:<id>`
//! with the idle TTL refreshed on each use; a change is a Lua script that
//! writes only if the version is still the expected one, so replicas racing
//! on one session cannot both apply.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Client, RedisError, Script};

use super::{Session, SessionStats, Store, StoreError};

/// How long one Redis round trip may take before the request gets a 503.
const ROUND_TRIP_LIMIT: Duration = Duration::from_secs(2);

/// KEYS[1] the session; ARGV: expected version, new version, data, TTL in ms.
/// Returns -1 if there is no such session, the current version on a
/// mismatch (as a negative number minus 2, to tell it from success), or 1.
const REPLACE_SCRIPT: &str = r"
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return -2 - tonumber(current) end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
";

/// Sessions in Redis; clones share one multiplexed, reconnecting connection.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    ttl_ms: u64,
    replace: Script,
    created: Arc<AtomicU64>,
}

fn key(id: &str) -> String {
    format!("gameai:session:{id}")
}

fn unavailable(e: RedisError) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

impl RedisStore {
    /// Reads the URL; the connection is made on first use and remade after
    /// failures.
    pub fn open(url: &str, ttl: Duration) -> Result<Self, StoreError> {
        let client = Client::open(url).map_err(unavailable)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(1)))
            .set_response_timeout(Some(Duration::from_secs(1)))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(200));
        let connection =
            ConnectionManager::new_lazy_with_config(client, config).map_err(unavailable)?;
        Ok(Self {
            connection,
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1),
            replace: Script::new(REPLACE_SCRIPT),
            created: Arc::default(),
        })
    }

    /// Counts for `/metrics`: only what this replica saw; Redis expires
    /// sessions on its own.
    pub fn stats(&self) -> SessionStats {
        SessionStats {
            created: self.created.load(Ordering::Relaxed),
            ..SessionStats::default()
        }
    }

    async fn bounded<T>(
        &self,
        f: impl Future<Output = Result<T, RedisError>>,
    ) -> Result<T, StoreError> {
        match tokio::time::timeout(ROUND_TRIP_LIMIT, f).await {
            Ok(result) => result.map_err(unavailable),
            Err(_) => Err(StoreError::Unavailable(
                "Redis did not answer in time".to_owned(),
            )),
        }
    }
}

fn encode(session: &Session) -> String {
    serde_json::to_string(session).expect("a session serialises")
}

impl Store for RedisStore {
    async fn create(&self, session: &Session) -> Result<(), StoreError> {
        let mut conn = self.connection.clone();
        let key = key(&session.id);
        let data = encode(session);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .hset_multiple(
                &key,
                &[("version", session.version.to_string()), ("data", data)],
            )
            .ignore()
            .pexpire(&key, self.ttl_ms as i64)
            .ignore();
        self.bounded(pipe.query_async::<()>(&mut conn)).await?;
        self.created.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<Session, StoreError> {
        let mut conn = self.connection.clone();
        let key = key(id);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .hget(&key, "data")
            .pexpire(&key, self.ttl_ms as i64)
            .ignore();
        let (data,): (Option<String>,) = self.bounded(pipe.query_async(&mut conn)).await?;
        let data = data.ok_or(StoreError::NotFound)?;
        serde_json::from_str(&data).map_err(|e| StoreError::Corrupt(e.to_string()))
    }

    async fn replace(&self, session: &Session, previous: u64) -> Result<(), StoreError> {
        let mut conn = self.connection.clone();
        let mut invocation = self.replace.key(key(&session.id));
        invocation
            .arg(previous.to_string())
            .arg(session.version.to_string())
            .arg(encode(session))
            .arg(self.ttl_ms);
        let answer: i64 = self.bounded(invocation.invoke_async(&mut conn)).await?;
        match answer {
            1 => Ok(()),
            -1 => Err(StoreError::NotFound),
            n => Err(StoreError::Conflict {
                current: u64::try_from(-2 - n).unwrap_or(0),
            }),
        }
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        let mut conn = self.connection.clone();
        let removed: u64 = self.bounded(conn.del(key(id))).await?;
        if removed == 0 {
            Err(StoreError::NotFound)
        } else {
            Ok(())
        }
    }

    async fn check(&self) -> Result<(), StoreError> {
        let mut conn = self.connection.clone();
        self.bounded(redis::cmd("PING").query_async::<String>(&mut conn))
            .await
            .map(|_| ())
    }
}
