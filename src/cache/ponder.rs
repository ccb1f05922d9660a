//! Pondering: while the player of a server-kept session thinks, idle
//! workers search the positions the player is likely to leave the AI (the
//! reply the AI's own line predicts first, then the others in the game's
//! move order) and store what they find in the analysis cache, so the AI's
//! next move is answered from a deeper search than its budget allows.
//!
//! A request always comes first: the pool stops pondering the moment it
//! admits a request, a new move in the same session stops that session's
//! pondering, and a request for the very position being pondered stops it
//! and takes its result (see [`Cache::answer`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Cache, Query, Want};
use crate::games::Position;
use crate::plan::Plan;
use crate::pool::Pool;
use crate::search::StopFlag;

/// Replies pondered after one AI move, at most.
const REPLIES: usize = 4;

/// Starts pondering after AI moves; clones share it.
#[derive(Clone)]
pub struct Ponder {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    cache: Cache,
    pool: Pool,
    /// Each session's pondering, with the generation that started it.
    sessions: Mutex<HashMap<String, (u64, StopFlag)>>,
    generation: AtomicU64,
}

/// What the AI searches with, and so what pondering searches with.
#[derive(Clone, Copy, Debug)]
pub struct Controls {
    pub depth: u32,
    /// The AI's budget for a move, which its requests will ask the cache
    /// with.
    pub time_ms: u64,
    /// The longest one pondered position is searched.
    pub ponder_ms: u64,
}

impl Ponder {
    /// Pondering on `pool` into `cache`; off when `on` is false or the
    /// cache is off.
    pub fn new(cache: Cache, pool: Pool, on: bool) -> Self {
        Self {
            inner: (on && cache.is_on()).then(|| {
                Arc::new(Inner {
                    cache,
                    pool,
                    sessions: Mutex::default(),
                    generation: AtomicU64::new(0),
                })
            }),
        }
    }

    /// Ponders the player's replies in `position` (the player to move)
    /// for session `session`, `predicted` first; stops the session's
    /// earlier pondering.
    pub fn start(
        &self,
        session: &str,
        position: Position,
        predicted: Option<String>,
        controls: Controls,
    ) {
        let Some(inner) = &self.inner else { return };
        let flag = inner.pool.ponder_flag();
        let generation = inner.generation.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut sessions) = inner.sessions.lock()
            && let Some((_, earlier)) =
                sessions.insert(session.to_owned(), (generation, flag.clone()))
        {
            earlier.stop();
        }
        let inner = Arc::clone(inner);
        let session = session.to_owned();
        tokio::spawn(async move {
            inner.ponder(&position, predicted, controls, &flag).await;
            if let Ok(mut sessions) = inner.sessions.lock()
                && sessions
                    .get(&session)
                    .is_some_and(|(g, _)| *g == generation)
            {
                sessions.remove(&session);
            }
        });
    }

    /// Stops the pondering of `session` (it ended or was deleted).
    pub fn stop(&self, session: &str) {
        if let Some(inner) = &self.inner
            && let Ok(mut sessions) = inner.sessions.lock()
            && let Some((_, flag)) = sessions.remove(session)
        {
            flag.stop();
        }
    }
}

impl Inner {
    async fn ponder(
        &self,
        position: &Position,
        predicted: Option<String>,
        controls: Controls,
        flag: &StopFlag,
    ) {
        let mut replies: Vec<String> = predicted.into_iter().collect();
        for mv in position.describe().legal_moves {
            if !replies.contains(&mv) {
                replies.push(mv);
            }
        }
        for reply in replies.into_iter().take(REPLIES) {
            if flag.is_stopped() {
                return;
            }
            let mut next = position.clone();
            if next.play(&reply).is_err() || next.check_ongoing().is_err() {
                continue;
            }
            let query = Query::new(
                &next,
                Want::Timed {
                    time_ms: controls.time_ms,
                    depth: controls.depth,
                },
            );
            let Some(mark) = self.cache.pondering(&query.key, flag) else {
                return;
            };
            let started = Instant::now();
            let plan = Plan::plain(
                next,
                controls.depth,
                Duration::from_millis(controls.ponder_ms),
                None,
            );
            let running = self.pool.start_ponder(flag, move |ws, stop| {
                plan.run(ws, stop, None, |_| {}).report
            });
            let Some(running) = running else { return };
            let Ok(report) = running.answer().await else {
                return;
            };
            metrics::histogram!("gameai_ponder_seconds", "game" => query.kind.name())
                .record(started.elapsed().as_secs_f64());
            if report.depth > 0 {
                self.cache
                    .store(&query, &report, controls.ponder_ms, true)
                    .await;
            }
            drop(mark);
        }
    }
}
