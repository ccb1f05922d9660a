//! The session operations: create a game, read it, play the client's move,
//! have the AI move (searched on the same pool, within the same limits and
//! counted the same way as any search, pondering afterwards), undo, export
//! as a record, delete. Each change loads the session, replays its moves,
//! applies the change and writes it back only if no other change got there
//! first.

use std::hash::{Hash, Hasher};

use super::{
    AiEval, AiSettings, Owner, Session, SessionId, SessionStats, SessionStore, Store, StoreError,
    now_rfc3339,
};
use crate::cache::{Ponder, ponder};
use crate::games::{Position, PositionError, PositionSpec};
use crate::plan::Plan;
use crate::pool::PoolError;
use crate::records::{self, Format, Record, RecordMove, Start};
use crate::runner::Runner;
use crate::vocabulary::{Player, SearchReport, Status};

/// Any error, as the cause of an internal one.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a session operation did not happen. Nothing changed in any case.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Out of turn, on a finished game, a stale `expected_version`.
    #[error("{0}")]
    Conflict(String),
    /// A value the operation cannot use: an illegal move, an unknown
    /// format; `field` names where the client gave it.
    #[error("{detail}")]
    Invalid { field: &'static str, detail: String },
    /// A start position that cannot exist.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The store refused or failed (no such session among them).
    #[error("session store")]
    Store(#[from] StoreError),
    /// The pool turned the AI's search away.
    #[error("search pool")]
    Pool(#[from] PoolError),
    /// The store did not confirm a change in time: it may have been
    /// applied. What to read to find out is in the message.
    #[error("{0}")]
    Unconfirmed(String),
    /// Never the client's doing: a stored session that no longer replays.
    #[error("{context}")]
    Internal {
        context: String,
        #[source]
        source: BoxError,
    },
}

impl SessionError {
    fn invalid(field: &'static str, detail: impl Into<String>) -> Self {
        Self::Invalid {
            field,
            detail: detail.into(),
        }
    }
}

type Result<T, E = SessionError> = std::result::Result<T, E>;

/// A new game, as the client described it.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// Where play goes on: the start position with `moves` played.
    pub position: Position,
    /// The board the game started from, if not the game's start.
    pub start_board: Option<Vec<String>>,
    /// The side to move on `start_board`, when the client named it.
    pub start_to_move: Option<Player>,
    /// The moves already played from the start.
    pub moves: Vec<String>,
    pub size: Option<u32>,
    pub rules: Option<String>,
    pub ai: AiSettings,
}

/// A move the client found for the AI (by a search it streamed itself),
/// with what that search thought of it.
#[derive(Clone, Debug)]
pub struct GivenMove {
    pub notation: String,
    /// The score and depth its search gave, kept for the record.
    pub eval: Option<(i32, u32)>,
}

/// A session as an operation left it: the stored session, its position,
/// and the AI's search if it moved.
#[derive(Clone, Debug)]
pub struct Turn {
    pub session: Session,
    pub position: Position,
    pub ai_search: Option<SearchReport>,
}

/// The session operations over a store, with the runner that searches the
/// AI's moves and the pondering that follows them. Clones share all.
#[derive(Clone)]
pub struct Sessions {
    store: SessionStore,
    runner: Runner,
    ponder: Ponder,
    /// The server's cap on a move's time, in milliseconds.
    max_time_ms: u64,
}

impl Sessions {
    pub fn new(store: SessionStore, runner: Runner, ponder: Ponder, max_time_ms: u64) -> Self {
        Self {
            store,
            runner,
            ponder,
            max_time_ms,
        }
    }

    /// The store underneath.
    pub fn store(&self) -> &SessionStore {
        &self.store
    }

    /// Whether the store can serve requests now.
    pub async fn check(&self) -> Result<(), StoreError> {
        self.store.check().await
    }

    /// Counts for `/metrics`.
    pub async fn stats(&self) -> SessionStats {
        self.store.stats().await
    }

    /// Starts a game for `owner`; the AI moves at once if it is to move.
    pub async fn create(&self, owner: Option<&Owner>, new: NewSession) -> Result<Turn> {
        let now = now_rfc3339();
        let mut session = Session {
            id: SessionId::new(),
            owner: owner.cloned(),
            game: new.position.kind(),
            size: new.size,
            rules: new.rules,
            start_board: new.start_board,
            start_to_move: new.start_to_move,
            moves: new.moves,
            ai_evals: Vec::new(),
            ai: new.ai,
            version: 1,
            created_at: now.clone(),
            updated_at: now,
        };
        let mut position = new.position;
        let mut ai_search = None;
        if is_ongoing(&position) && session.ai.plays.plays(position.to_move()) {
            ai_search = Some(self.play_ai_move(&mut session, &mut position).await?);
        }
        self.store
            .create(&session)
            .await
            .map_err(|e| unconfirmed(e, &session.id, "exists"))?;
        Ok(Turn {
            session,
            position,
            ai_search,
        })
    }

    /// The session `id` names.
    pub async fn read(&self, owner: Option<&Owner>, id: &str) -> Result<Turn> {
        let session = self.load(owner, id, None).await?;
        let position = rebuild(&session)?;
        Ok(Turn {
            session,
            position,
            ai_search: None,
        })
    }

    /// Ends a session and forgets it.
    pub async fn delete(&self, owner: Option<&Owner>, id: &str) -> Result<()> {
        let session = self.load(owner, id, None).await?;
        self.store
            .delete(&session.id)
            .await
            .map_err(|e| unconfirmed(e, &session.id, "is not found"))?;
        self.ponder.stop(&session.id.to_string());
        Ok(())
    }

    /// Plays the client's move; the AI replies when it plays the other side
    /// and `reply` allows.
    pub async fn play(
        &self,
        owner: Option<&Owner>,
        id: &str,
        notation: &str,
        expected_version: Option<u64>,
        reply: bool,
    ) -> Result<Turn> {
        let mut session = self.load(owner, id, expected_version).await?;
        let previous = session.version;
        let mut position = rebuild(&session)?;
        check_ongoing(&position)?;
        let side = position.to_move();
        if session.ai.plays.plays(side) {
            return Err(SessionError::Conflict(format!(
                "it is {}'s turn, which the AI plays; POST /v1/sessions/{id}/ai-move to have it move",
                side.symbol()
            )));
        }
        let notation = notation.trim();
        position
            .play(notation)
            .map_err(|e| SessionError::invalid("move", e.to_string()))?;
        session.moves.push(notation.to_owned());
        let mut ai_search = None;
        if reply && is_ongoing(&position) && session.ai.plays.plays(position.to_move()) {
            ai_search = Some(self.play_ai_move(&mut session, &mut position).await?);
        }
        self.save(&mut session, previous).await?;
        Ok(Turn {
            session,
            position,
            ai_search,
        })
    }

    /// The AI plays the side to move, whichever it is: searched here, or
    /// `given` by the client's own search.
    pub async fn ai_move(
        &self,
        owner: Option<&Owner>,
        id: &str,
        expected_version: Option<u64>,
        given: Option<GivenMove>,
    ) -> Result<Turn> {
        let mut session = self.load(owner, id, expected_version).await?;
        let previous = session.version;
        let mut position = rebuild(&session)?;
        check_ongoing(&position)?;
        let ai_search = match given {
            Some(given) => {
                let notation = given.notation.trim();
                position
                    .play(notation)
                    .map_err(|e| SessionError::invalid("move", e.to_string()))?;
                if let Some((score, depth)) = given.eval {
                    session.ai_evals.push(AiEval {
                        ply: session.moves.len(),
                        score,
                        depth,
                    });
                }
                session.moves.push(notation.to_owned());
                None
            }
            None => Some(self.play_ai_move(&mut session, &mut position).await?),
        };
        self.save(&mut session, previous).await?;
        Ok(Turn {
            session,
            position,
            ai_search,
        })
    }

    /// Takes back the last ply, and with the AI on one side, back to the
    /// client's turn.
    pub async fn undo(
        &self,
        owner: Option<&Owner>,
        id: &str,
        expected_version: Option<u64>,
    ) -> Result<Turn> {
        let mut session = self.load(owner, id, expected_version).await?;
        let previous = session.version;
        if session.moves.pop().is_none() {
            return Err(SessionError::Conflict(
                "there is no move to take back".to_owned(),
            ));
        }
        let mut position = rebuild(&session)?;
        let plays = session.ai.plays;
        while plays.plays_one_side()
            && plays.plays(position.to_move())
            && session.moves.pop().is_some()
        {
            position = rebuild(&session)?;
        }
        let played = session.moves.len();
        session.ai_evals.retain(|e| e.ply < played);
        self.save(&mut session, previous).await?;
        Ok(Turn {
            session,
            position,
            ai_search: None,
        })
    }

    /// The session as a game record in `format` (default: the game's own),
    /// the AI's evaluations as its moves' comments where the format keeps
    /// comments.
    pub async fn record(
        &self,
        owner: Option<&Owner>,
        id: &str,
        format: Option<&str>,
    ) -> Result<(Format, String)> {
        let session = self.load(owner, id, None).await?;
        let kind = session.game;
        let format = match format {
            None => Format::natural(kind),
            Some(name) => Format::from_name(name).ok_or_else(|| {
                let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
                SessionError::invalid(
                    "format",
                    format!("unknown format {name:?}; records are {}", known.join(", ")),
                )
            })?,
        };
        if !format.fits(kind) {
            let fitting: Vec<_> = Format::ALL
                .iter()
                .filter(|f| f.fits(kind))
                .map(|f| f.name())
                .collect();
            return Err(SessionError::invalid(
                "format",
                format!(
                    "a {} game cannot be written as {}; use {}",
                    kind.name(),
                    format.name(),
                    fitting.join(", ")
                ),
            ));
        }
        let text = records::write(format, &session_record(&session))
            .map_err(|e| SessionError::invalid("format", e.to_string()))?;
        Ok((format, text))
    }

    /// Loads a session, refusing a stale `expected_version`. With keys
    /// configured (`owner` set) another key's session is not found, as if
    /// it did not exist.
    async fn load(
        &self,
        owner: Option<&Owner>,
        id: &str,
        expected_version: Option<u64>,
    ) -> Result<Session> {
        let session = self.store.get(&parse_id(id)?).await?;
        if owner.is_some() && session.owner.as_ref() != owner {
            return Err(SessionError::Store(StoreError::NotFound));
        }
        if let Some(expected) = expected_version.filter(|&v| v != session.version) {
            return Err(SessionError::Conflict(format!(
                "expected_version is {expected} but the session is at version {}; read it again",
                session.version
            )));
        }
        Ok(session)
    }

    /// Writes a changed session back if it is still at `previous`.
    async fn save(&self, session: &mut Session, previous: u64) -> Result<()> {
        session.version = previous + 1;
        session.updated_at = now_rfc3339();
        self.store.replace(session, previous).await.map_err(|e| {
            unconfirmed(
                e,
                &session.id,
                &format!("is at version {}", session.version),
            )
        })
    }

    /// Has the AI search the position and play its move, then ponders the
    /// player's replies.
    async fn play_ai_move(
        &self,
        session: &mut Session,
        position: &mut Position,
    ) -> Result<SearchReport> {
        let strength = session.ai.strength;
        // The same session at the same move picks the same way.
        let seed = {
            let mut hasher = std::hash::DefaultHasher::new();
            (session.id.to_string(), session.moves.len()).hash(&mut hasher);
            hasher.finish()
        };
        let plan = Plan::new(position.clone(), &strength, self.max_time_ms).seeded(Some(seed));
        let random = plan.random_percent > 0;
        let budget_ms = plan.time_ms;
        let report = self.runner.run(plan).await?.report;
        position
            .play(&report.best_move.notation)
            .map_err(|e| SessionError::Internal {
                context: "the AI's move does not play".to_owned(),
                source: e.into(),
            })?;
        // The player thinks now: idle workers search the likely replies. A
        // random-playing AI cannot use them (its choices skip the cache).
        if !random && is_ongoing(position) && !session.ai.plays.plays(position.to_move()) {
            self.ponder.start(
                &session.id.to_string(),
                position.clone(),
                report.pv.get(1).cloned(),
                ponder::Controls {
                    depth: strength.depth,
                    time_ms: budget_ms,
                    ponder_ms: self.max_time_ms,
                },
            );
        }
        if let Some(clock) = &mut session.ai.strength.clock {
            *clock = clock.after_move(report.time_ms);
        }
        session.ai_evals.push(AiEval {
            ply: session.moves.len(),
            score: report.score,
            depth: report.depth,
        });
        session.moves.push(report.best_move.notation.clone());
        Ok(report)
    }
}

/// A store's failure to write session `id`; when the store could not
/// confirm the change, what tells whether it was applied: the session
/// `applied_if` (it exists, is at a version, is not found).
fn unconfirmed(e: StoreError, id: &SessionId, applied_if: &str) -> SessionError {
    match e {
        StoreError::Unknown(cause) => {
            tracing::warn!(%cause, "session store did not confirm a change");
            SessionError::Unconfirmed(format!(
                "the session store did not confirm this change in time: it may have been applied, and is settled one way or the other within {} ms of the request; read the session (GET /v1/sessions/{id}): the change was applied if it {applied_if}",
                super::redis::WRITE_WINDOW.as_millis()
            ))
        }
        other => SessionError::Store(other),
    }
}

/// Ids are UUIDs; anything else cannot name a session.
fn parse_id(id: &str) -> Result<SessionId> {
    SessionId::parse(id).ok_or(SessionError::Store(StoreError::NotFound))
}

/// Rebuilds a stored session's position by replaying its moves.
fn rebuild(session: &Session) -> Result<Position> {
    let corrupt = |e: BoxError| SessionError::Internal {
        context: format!("session {} does not replay", session.id),
        source: e,
    };
    let spec = PositionSpec {
        board: session.start_board.clone(),
        moves: session.start_board.is_none().then(|| session.moves.clone()),
        to_move: session.start_to_move,
        size: session.size,
        rules: session.rules.clone(),
    };
    let mut position = session.game.parse(&spec).map_err(|e| corrupt(e.into()))?;
    if session.start_board.is_some() {
        for mv in &session.moves {
            position
                .play(mv)
                .map_err(|e| corrupt(format!("move {mv}: {e}").into()))?;
        }
    }
    Ok(position)
}

/// Refuses a change to a finished game.
fn check_ongoing(position: &Position) -> Result<()> {
    match position.game_over() {
        None => Ok(()),
        Some(over) => Err(SessionError::Conflict(format!(
            "{over}; undo a move or start a new session"
        ))),
    }
}

fn is_ongoing(position: &Position) -> bool {
    position.describe().status == Status::Ongoing
}

/// A session as a record, the AI's evaluations as its moves' comments.
fn session_record(session: &Session) -> Record {
    let mut moves: Vec<RecordMove> = session.moves.iter().map(RecordMove::new).collect();
    for eval in &session.ai_evals {
        if let Some(mv) = moves.get_mut(eval.ply) {
            mv.comment = Some(format!(
                "gameai: score {} at depth {}",
                eval.score, eval.depth
            ));
        }
    }
    Record {
        game: session.game,
        size: session.size,
        rules: session.rules.clone(),
        start: session.start_board.clone().map(|board| Start {
            board,
            to_move: session.start_to_move,
        }),
        moves,
    }
}
