//! Sessions: whole games kept on the server between requests.
//!
//! A session is plain serde data — the game, its options, the start position
//! and the moves in notation — never engine state: each request rebuilds
//! the position by replaying the moves. [`Sessions`] holds the operations a
//! client asks for (create, play, the AI's move, undo, export) over a typed
//! session; the HTTP layer only maps bodies and answers. Two stores hold
//! sessions behind one [`Store`] interface: [`MemoryStore`] (the default,
//! capped in count and expiring when idle) and [`RedisStore`] (shared by
//! any number of replicas). Both apply a change only if the session's
//! version is still the one the change was computed from, so racing
//! changes never corrupt a game.

mod memory;
pub mod redis;
mod service;

use std::future::Future;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::games::GameKind;
use crate::plan::Strength;
use crate::vocabulary::Player;

pub use memory::MemoryStore;
pub use redis::RedisStore;
pub use service::{GivenMove, NewSession, SessionError, Sessions, Turn};

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

    /// Whether the AI plays exactly one side (the client the other).
    pub fn plays_one_side(self) -> bool {
        matches!(self, AiPlays::X | AiPlays::O)
    }
}

/// The AI's side and strength in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiSettings {
    pub plays: AiPlays,
    /// Depth, time per move, level and clock, as a search request has them.
    #[serde(flatten)]
    pub strength: Strength,
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

/// A session's id: 128 bits from the OS's random source (a v4 UUID, 122
/// of them random), not guessable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(uuid::Uuid);

impl SessionId {
    /// A fresh id.
    pub fn new() -> Self {
        Self(uuid::Uuid::new_v4())
    }

    /// The id `text` names, if it names one.
    pub fn parse(text: &str) -> Option<Self> {
        uuid::Uuid::parse_str(text).ok().map(Self)
    }
}

impl Default for SessionId {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Display for SessionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Who a session belongs to, with API keys configured: a digest of the
/// key that created it (never the key itself). Only requests with that key
/// find the session; for any other it does not exist.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Owner(String);

impl Owner {
    /// The owner an API key names: the same on every replica and across
    /// restarts, and no help in guessing the key.
    pub fn of_key(key: &str) -> Self {
        let digest = sha1_smol::Sha1::from(format!("gameai session owner\n{key}"))
            .digest()
            .to_string();
        Self(digest[..24].to_owned())
    }
}

/// One game kept on the server, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    pub id: SessionId,
    /// The key that created it, when the server has keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Owner>,
    pub game: GameKind,
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
    /// The backing store cannot be reached; nothing changed.
    #[error("the session store is unavailable: {0}")]
    Unavailable(String),
    /// The store refused a change (it came too late); nothing changed.
    #[error("the session store refused the change: {0}")]
    Refused(String),
    /// A change the store has not confirmed: it may have been applied,
    /// or may still be, until the store's write window is over.
    #[error("the session store did not confirm the change: {0}")]
    Unknown(String),
    /// Stored data that cannot be read back (never the client's fault).
    #[error("a stored session is corrupt: {0}")]
    Corrupt(String),
}

/// What every session store does. Reads refresh a session's idle timer.
pub trait Store: Send + Sync {
    /// Stores a new session.
    fn create(&self, session: &Session) -> impl Future<Output = Result<(), StoreError>> + Send;
    fn get(&self, id: &SessionId) -> impl Future<Output = Result<Session, StoreError>> + Send;
    /// Replaces a session with `session` if its stored version is still
    /// `previous`; otherwise [`StoreError::Conflict`] and nothing changes.
    fn replace(
        &self,
        session: &Session,
        previous: u64,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Removes a session; [`StoreError::NotFound`] if there was none.
    fn delete(&self, id: &SessionId) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Whether the store can serve requests now.
    fn check(&self) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// The store this server was configured with.
#[derive(Clone)]
pub enum SessionStore {
    Memory(MemoryStore),
    Redis(RedisStore),
}

impl SessionStore {
    /// The memory store, or Redis when `url` names one. Redis connects
    /// lazily: an unreachable server fails requests, not start-up.
    pub fn open(url: Option<&str>, ttl: Duration, max_sessions: u64) -> Result<Self, StoreError> {
        match url {
            None | Some("") | Some("memory") => {
                Ok(SessionStore::Memory(MemoryStore::new(max_sessions, ttl)))
            }
            Some(url) => RedisStore::open(url, ttl).map(SessionStore::Redis),
        }
    }
}

impl SessionStore {
    /// Counts for `/metrics`.
    pub async fn stats(&self) -> SessionStats {
        match self {
            SessionStore::Memory(s) => s.stats().await,
            SessionStore::Redis(s) => s.stats(),
        }
    }
}

impl Store for SessionStore {
    async fn create(&self, session: &Session) -> Result<(), StoreError> {
        match self {
            SessionStore::Memory(s) => s.create(session).await,
            SessionStore::Redis(s) => s.create(session).await,
        }
    }

    async fn get(&self, id: &SessionId) -> Result<Session, StoreError> {
        match self {
            SessionStore::Memory(s) => s.get(id).await,
            SessionStore::Redis(s) => s.get(id).await,
        }
    }

    async fn replace(&self, session: &Session, previous: u64) -> Result<(), StoreError> {
        match self {
            SessionStore::Memory(s) => s.replace(session, previous).await,
            SessionStore::Redis(s) => s.replace(session, previous).await,
        }
    }

    async fn delete(&self, id: &SessionId) -> Result<(), StoreError> {
        match self {
            SessionStore::Memory(s) => s.delete(id).await,
            SessionStore::Redis(s) => s.delete(id).await,
        }
    }

    async fn check(&self) -> Result<(), StoreError> {
        match self {
            SessionStore::Memory(s) => s.check().await,
            SessionStore::Redis(s) => s.check().await,
        }
    }
}

#[cfg(test)]
pub(crate) fn sample() -> Session {
    Session {
        id: SessionId::new(),
        owner: None,
        game: GameKind::TicTacToe,
        size: None,
        rules: None,
        start_board: None,
        start_to_move: None,
        moves: vec!["a1".to_owned()],
        ai_evals: Vec::new(),
        ai: AiSettings {
            plays: AiPlays::O,
            strength: Strength {
                depth: 9,
                time_ms: 1000,
                level: None,
                clock: None,
                threads: 1,
            },
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
        let mut session = sample();
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

    #[test]
    fn the_stored_form_keeps_the_game_by_name_and_the_ai_settings_flat() {
        let session = sample();
        let json: serde_json::Value = serde_json::to_value(&session).unwrap();
        assert_eq!(json["game"], "tictactoe");
        assert_eq!(json["id"], session.id.to_string());
        assert_eq!(json["ai"]["depth"], 9);
        assert_eq!(json["ai"]["time_ms"], 1000);
        assert_eq!(json["ai"]["plays"], "O");
        assert!(json.get("owner").is_none(), "no owner without keys");
        let owned = Owner::of_key("alpha");
        assert_eq!(owned, Owner::of_key("alpha"));
        assert_ne!(owned, Owner::of_key("beta"));
        assert!(!owned.0.contains("alpha"));
        let text = json.to_string().replace("tictactoe", "chess");
        assert!(serde_json::from_str::<Session>(&text).is_err());
    }
}
