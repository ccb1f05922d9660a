//! The Redis session store, shared by every replica that names the same
//! Redis. A session is a hash `{version, data}` under `gameai:session:<id>`
//! with the idle TTL refreshed on each use; a change is a Lua script that
//! writes only if the version is still the expected one, so replicas racing
//! on one session cannot both apply.
//!
//! A write's outcome is always known or said to be unknown, never guessed:
//! each write script carries a deadline and refuses to apply once Redis's
//! clock is past it ([`StoreError::Refused`]: nothing changed, ever). A
//! write Redis does not answer (a paused server, a dropped connection, a
//! slow network) may still be waiting in Redis and apply before its
//! deadline; once the deadline has passed, what Redis holds says whether
//! it did, and the answer is given from that. Only when Redis cannot be
//! read then either is the outcome [`StoreError::Unknown`]: settled one way
//! or the other since [`WRITE_WINDOW`] after it was sent, which a client
//! learns by reading the session back.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, RedisError, Script};

use super::{Session, SessionId, SessionStats, Store, StoreError};

/// How long one Redis round trip may take before the request is answered
/// without it.
const ROUND_TRIP_LIMIT: Duration = Duration::from_secs(2);

/// How long after it is sent a write may still apply: past it, by Redis's
/// clock, the write script refuses. Shorter than [`ROUND_TRIP_LIMIT`], so a
/// write that took the whole limit has its outcome settled when its answer
/// goes out.
pub const WRITE_WINDOW: Duration = Duration::from_millis(1000);

/// The start of every write script: ARGV[1] is the deadline in
/// milliseconds since the epoch; past it the script returns -3 and writes
/// nothing.
const WRITE_DEADLINE: &str = r"
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[1]) then
  return -3
end
";

/// KEYS[1] the session; ARGV: deadline, version, data, TTL in ms. Returns
/// 1, or -3 past the deadline.
const CREATE_SCRIPT: &str = r"
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
";

/// KEYS[1] the session; ARGV: deadline, expected version, new version,
/// data, TTL in ms. Returns 1; -1 if there is no such session; the current
/// version on a mismatch (as a negative number minus 4, to tell it from the
/// others); -3 past the deadline.
const REPLACE_SCRIPT: &str = r"
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[2] then return -4 - tonumber(current) end
redis.call('HSET', KEYS[1], 'version', ARGV[3], 'data', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
";

/// KEYS[1] the session; ARGV: deadline. Returns the keys removed (0 or 1),
/// or -3 past the deadline.
const DELETE_SCRIPT: &str = r"
return redis.call('DEL', KEYS[1])
";

/// Sessions in Redis; clones share one multiplexed, reconnecting connection.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    ttl_ms: u64,
    create: Arc<Script>,
    replace: Arc<Script>,
    delete: Arc<Script>,
    created: Arc<AtomicU64>,
}

/// A write script: the deadline check, then `body`.
fn write_script(body: &str) -> Arc<Script> {
    Arc::new(Script::new(&format!("{WRITE_DEADLINE}{body}")))
}

/// The deadline a write sent now carries, in milliseconds since the epoch.
fn write_deadline() -> u64 {
    epoch_ms().saturating_add(u64::try_from(WRITE_WINDOW.as_millis()).unwrap_or(u64::MAX))
}

fn key(id: &SessionId) -> String {
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
            create: write_script(CREATE_SCRIPT),
            replace: write_script(REPLACE_SCRIPT),
            delete: write_script(DELETE_SCRIPT),
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

    /// A read, within the round-trip limit: any failure changed nothing.
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

    /// A write script's answer, within the round-trip limit: the script's
    /// number; a refusal when it came too late or Redis could not be
    /// reached. A write whose answer did not come may still be on its way:
    /// it is settled by reading back what Redis holds once its deadline has
    /// passed (see [`RedisStore::settle`]).
    async fn write(
        &self,
        invocation: &redis::ScriptInvocation<'_>,
        deadline_ms: u64,
        id: &SessionId,
        leaves: Leaves<'_>,
    ) -> Result<i64, StoreError> {
        let mut conn = self.connection.clone();
        let cause = match tokio::time::timeout(ROUND_TRIP_LIMIT, invocation.invoke_async(&mut conn))
            .await
        {
            Ok(Ok(-3)) => {
                return Err(StoreError::Refused(
                    "Redis took the change after its deadline".to_owned(),
                ));
            }
            Ok(Ok(answer)) => return Ok(answer),
            // Nothing reached Redis.
            Ok(Err(e)) if e.is_connection_refusal() => return Err(unavailable(e)),
            Ok(Err(e)) => e.to_string(),
            Err(_) => "Redis did not answer in time".to_owned(),
        };
        self.settle(id, deadline_ms, leaves, cause).await
    }

    /// The outcome of a write whose answer never came: once its deadline
    /// has passed it can no longer apply, so what Redis holds then says
    /// whether it did (`Ok(1)`) or never will (a refusal). Unknown only if
    /// Redis cannot be read either.
    async fn settle(
        &self,
        id: &SessionId,
        deadline_ms: u64,
        leaves: Leaves<'_>,
        cause: String,
    ) -> Result<i64, StoreError> {
        let wait = deadline_ms.saturating_sub(epoch_ms()) + SETTLE_MARGIN_MS;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let mut conn = self.connection.clone();
        let read = tokio::time::timeout(
            ROUND_TRIP_LIMIT,
            redis::cmd("HMGET")
                .arg(key(id))
                .arg("version")
                .arg("data")
                .query_async::<(Option<u64>, Option<String>)>(&mut conn),
        )
        .await;
        let Ok(Ok((version, data))) = read else {
            return Err(StoreError::Unknown(cause));
        };
        let applied = match (leaves, version) {
            (Leaves::Nothing, None) => true,
            (Leaves::Nothing, Some(_)) => false,
            (Leaves::Session { .. }, None) => false,
            // Versions only grow, and one write makes each: our version
            // held by other data was another replica's write, not ours.
            (
                Leaves::Session {
                    version: ours,
                    data: our_data,
                },
                Some(held),
            ) => {
                if held > ours {
                    // Ours may have applied and been changed since.
                    return Err(StoreError::Unknown(cause));
                }
                held == ours && data.as_deref() == Some(our_data)
            }
        };
        if applied {
            Ok(1)
        } else {
            Err(StoreError::Refused(format!(
                "{cause}; read back after its deadline, the change was not applied"
            )))
        }
    }
}

/// What a write leaves under its key when it applies.
enum Leaves<'a> {
    /// The session at this version, encoded.
    Session { version: u64, data: &'a str },
    /// No session (a delete).
    Nothing,
}

fn leaves<'a>(session: &Session, data: &'a str) -> Leaves<'a> {
    Leaves::Session {
        version: session.version,
        data,
    }
}

/// Milliseconds since the epoch, by this machine's clock.
fn epoch_ms() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(now.as_millis()).unwrap_or(u64::MAX)
}

/// Waited beyond a write's deadline before reading back its outcome: the
/// two clocks may differ a little.
const SETTLE_MARGIN_MS: u64 = 100;

fn encode(session: &Session) -> String {
    serde_json::to_string(session).expect("a session serialises")
}

impl Store for RedisStore {
    async fn create(&self, session: &Session) -> Result<(), StoreError> {
        let deadline = write_deadline();
        let data = encode(session);
        let mut invocation = self.create.key(key(&session.id));
        invocation
            .arg(deadline)
            .arg(session.version.to_string())
            .arg(&data)
            .arg(self.ttl_ms);
        self.write(&invocation, deadline, &session.id, leaves(session, &data))
            .await?;
        self.created.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn get(&self, id: &SessionId) -> Result<Session, StoreError> {
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
        let deadline = write_deadline();
        let data = encode(session);
        let mut invocation = self.replace.key(key(&session.id));
        invocation
            .arg(deadline)
            .arg(previous.to_string())
            .arg(session.version.to_string())
            .arg(&data)
            .arg(self.ttl_ms);
        match self
            .write(&invocation, deadline, &session.id, leaves(session, &data))
            .await?
        {
            1 => Ok(()),
            -1 => Err(StoreError::NotFound),
            n => Err(StoreError::Conflict {
                current: u64::try_from(-4 - n).unwrap_or(0),
            }),
        }
    }

    async fn delete(&self, id: &SessionId) -> Result<(), StoreError> {
        let deadline = write_deadline();
        let mut invocation = self.delete.key(key(id));
        invocation.arg(deadline);
        match self
            .write(&invocation, deadline, id, Leaves::Nothing)
            .await?
        {
            0 => Err(StoreError::NotFound),
            _ => Ok(()),
        }
    }

    async fn check(&self) -> Result<(), StoreError> {
        let mut conn = self.connection.clone();
        self.bounded(redis::cmd("PING").query_async::<String>(&mut conn))
            .await
            .map(|_| ())
    }
}
