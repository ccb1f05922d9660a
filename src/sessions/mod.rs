//! The session store: whole games kept on the server between requests.
//!
//! A session is plain serde data — the game, its options, the start position
//! and the moves in notation — never engine state: the HTTP layer rebuilds
//! the position by replaying the moves. Two stores hold sessions behind one
//! [`Store`] interface: [`MemoryStore`] (the default, capped in count and
//! expiring when idle) and [`RedisStore`] (shared by any number of replicas).
//! Both apply a change only if the session's version is still the one the
//! change was computed from, so racing changes never corrupt a game.

mod memory;
mod redis;

use std::future::Future;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::search::GameClock;
use crate::vocabulary::Player;

pub use memory::MemoryStore;
pub use redis::RedisStore;

/// Which sides the AI plays in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AiPlays {
    X,
    O,
    #[serde(rename = "none")]
    Nobody,
    #[serde(rename = "both")]
    Both,
}

impl AiPlays {
    /// Whether the AI moves for `side`.
    pub fn plays(self, side: Player) -> bool {
        match self {
            AiPlays::X => side == Player::X,
            AiPlays::O => side == Player::O,
            AiPlays::Nobody => false,
            AiPlays::Both => true,
        }
    }
}

/// The AI's side and strength in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiSettings {
    pub plays: AiPlays,
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Time budget per move, in milliseconds.
    pub time_ms: u64,
    /// Strength level 1–10, if the client chose one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The AI's own game clock, if it plays on one: each move thinks for a
    /// share of it (within `time_ms`), then spends it and earns the
    /// increment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<GameClock>,
}

/// The AI's search for one of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiEval {
    /// The move's index in [`Session::moves`].
    pub ply: usize,
    /// The mover's view, as `/v1/search` reports it.
    pub score: i32,
    /// The last completed iteration, in plies.
    pub depth: u32,
}

/// One game kept on the server, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// A v4 UUID: 122 random bits, not guessable.
    pub id: String,
    pub game: String,
    pub size: Option<u32>,
    pub rules: Option<String>,
    /// The board the game started from, if it did not start from the
    /// game's start position; `moves` are played from here.
    pub start_board: Option<Vec<String>>,
    /// The side to move on `start_board`, when the client named it.
    pub start_to_move: Option<Player>,
    /// Every move since the start, in notation.
    pub moves: Vec<String>,
    /// What the AI thought of each move it made, for records. Sessions
    /// stored before this was kept have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_evals: Vec<AiEval>,
    pub ai: AiSettings,
    /// Increases by one with each change.
    pub version: u64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// The current time in RFC 3339, to the millisecond.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// A fresh session id: 128 bits from the OS's random source (a v4 UUID).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Counts for `/metrics`, since this process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    /// Sessions held now (memory store only: Redis holds other replicas' too).
    pub live: Option<u64>,
    /// Sessions this process created.
    pub created: u64,
    /// Sessions dropped after idling for the TTL (memory store only).
    pub expired: Option<u64>,
    /// Sessions dropped to keep within the count cap (memory store only).
    pub evicted: Option<u64>,
}

/// Why a store could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("no session with this id (it may have expired)")]
    NotFound,
    /// The session changed since the caller read it.
    #[error("the session changed meanwhile: it is at version {current}")]
    Conflict { current: u64 },
    /// The backing store cannot be reached.
    #[error("the session store is unavailable: {0}")]
    Unavailable(String),
    /// Stored data that cannot be read back (never the client's fault).
    #[error("a stored session is corrupt: {0}")]
    Corrupt(String),
}

/// What every session store does. Reads refresh a session's idle timer.
pub trait Store: Send + Sync {
    /// Stores a new session.
    fn create(&self, session: &Session) -> impl Future<Output = Result<(), StoreError>> + Send;
    fn get(&self, id: &str) -> impl Future<Output = Result<Session, StoreError>> + Send;
    /// Replaces a session with `session` if its stored version is still
    /// `previous`; otherwise [`StoreError::Conflict`] and nothing changes.
    fn replace(
        &self,
        session: &Session,
        previous: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Removes a session; [`StoreError::NotFound`] if there was none.
    fn delete(&self, id: &str) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Whether the store can serve requests now.
    fn check(&self) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The store this server was configured with.
#[derive(Clone)]
pub enum Sessions {
    Memory(MemoryStore),
    Redis(RedisStore),
}

impl Sessions {
    /// The memory store, or Redis when `url` names one. Redis connects
    /// lazily: an unreachable server fails requests, not start-up.
    pub fn open(url: Option<&str>, ttl: Duration, max_sessions: u64) -> Result<Self, StoreError> {
        match url {
            None | Some("") | Some("memory") => {
                Ok(Sessions::Memory(MemoryStore::new(max_sessions, ttl)))
            }
            Some(url) => RedisStore::open(url, ttl).map(Sessions::Redis),
        }
    }
}

impl Sessions {
    /// Counts for `/metrics`.
    pub async fn stats(&self) -> SessionStats {
        match self {
            Sessions::Memory(s) => s.stats().await,
            Sessions::Redis(s) => s.stats(),
        }
    }
}

impl Store for Sessions {
    async fn create(&self, session: &Session) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(s) => s.create(session).await,
            Sessions::Redis(s) => s.create(session).await,
        }
    }

    async fn get(&self, id: &str) -> Result<Session, StoreError> {
        match self {
            Sessions::Memory(s) => s.get(id).await,
            Sessions::Redis(s) => s.get(id).await,
        }
    }

    async fn replace(&self, session: &Session, previous: u64) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(s) => s.replace(session, previous).await,
            Sessions::Redis(s) => s.replace(session, previous).await,
        }
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(s) => s.delete(id).await,
            Sessions::Redis(s) => s.delete(id).await,
        }
    }

    async fn check(&self) -> Result<(), StoreError> {
        match self {
            Sessions::Memory(s) => s.check().await,
            Sessions::Redis(s) => s.check().await,
        }
    }
}

#[cfg(test)]
pub(crate) fn sample(id: &str) -> Session {
    Session {
        id: id.to_owned(),
        game: "tictactoe".to_owned(),
        size: None,
        rules: None,
        start_board: None,
        start_to_move: None,
        moves: vec!["a1".to_owned()],
        ai_evals: Vec::new(),
        ai: AiSettings {
            plays: AiPlays::O,
            depth: 9,
            time_ms: 1000,
            level: None,
            clock: None,
        },
        version: 1,
        created_at: now_rfc3339(),
        updated_at: now_rfc3339(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_stored_before_ai_evals_still_read() {
        let mut session = sample("a");
        let old = serde_json::to_string(&session).unwrap();
        assert!(!old.contains("ai_evals"), "an empty list is not written");
        session.ai_evals.push(AiEval {
            ply: 0,
            score: 12,
            depth: 3,
        });
        let new = serde_json::to_string(&session).unwrap();
        assert_eq!(serde_json::from_str::<Session>(&new).unwrap(), session);
        let read: Session = serde_json::from_str(&old).unwrap();
        assert!(read.ai_evals.is_empty());
    }
}
