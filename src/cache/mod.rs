//! The analysis cache: what finished searches established about a
//! position (depth, score, proven result, best move, line, nodes), kept so
//! that a later request for the same position is answered in a few
//! milliseconds, without a worker, when the stored result is what that
//! request would compute or better in the way it asked for:
//!
//! - a proven result answers any request;
//! - a request without a time limit is answered only by the result of the
//!   same search (same depth and node budget), so the same request keeps
//!   giving the same answer;
//! - a time-limited request takes a result at least as deep as its budget
//!   would reach. The estimate of that depth comes from the searches of the
//!   position seen so far: one that ran `t` ms and reached depth `d` says
//!   a budget of at most `t` reaches at most `d`.
//!
//! Entries live in this process (bounded in bytes) and, with a Redis URL,
//! in Redis too, shared by every replica and expiring after a TTL. Redis
//! is a help, never a need: a slow or absent Redis is skipped for a while
//! and requests are searched as usual.
//!
//! Positions are keyed by their game's [`Position::cache_key`] (game, rule
//! variant, side to move, board). A game whose answers mirror with its
//! board (Connect Four) keys a position and its mirror image as one, the
//! moves stored as seen in the smaller key's orientation; results without
//! a time limit stay keyed by the position as given, since a search of the
//! mirror image may break a tie the other way.

pub mod ponder;
mod redis;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::games::{GameKind, Position};
use crate::search::StopFlag;
use crate::vocabulary::{MoveView, Outcome, Player, ProvenView, SearchReport, Source, Stopped};

pub use ponder::Ponder;

/// Searches of one position remembered for the depth estimate.
const REACH_KEPT: usize = 8;

/// How long a request waits for a pondering search of its own position to
/// stop and store what it found.
const PONDER_HANDOVER: Duration = Duration::from_millis(300);

/// How a request may be answered from the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// No time limit: only the result of the same search, or a proven one.
    Exact { depth: u32, nodes: Option<u64> },
    /// A time budget (and a depth cap): a result at least as deep as the
    /// budget would reach, or a proven one.
    Timed { time_ms: u64, depth: u32 },
    /// Only a proven result (a time and a node budget together: what the
    /// first of them would reach is not worth estimating).
    ProvenOnly,
}

/// One request, as the cache sees it.
#[derive(Clone, Debug)]
pub struct Query {
    pub kind: GameKind,
    /// The key shared with the position's mirror image
    /// ([`Position::canonical_cache_key`]).
    pub key: String,
    /// The position's own key.
    own_key: String,
    /// The position, when it is the mirrored one of its pair: its moves
    /// are mirrored on the way in and out.
    mirror: Option<Position>,
    pub want: Want,
}

impl Query {
    pub fn new(position: &Position, want: Want) -> Self {
        let (key, own) = position.canonical_cache_key();
        Self {
            kind: position.kind(),
            mirror: own.is_some().then(|| position.clone()),
            own_key: own.unwrap_or_else(|| key.clone()),
            key,
            want,
        }
    }

    fn best_key(&self) -> String {
        format!("b:{}", self.key)
    }

    fn exact_key(&self) -> Option<String> {
        match self.want {
            Want::Exact { depth, nodes } => Some(format!(
                "x:{depth}:{}:{}",
                nodes.map_or_else(|| "-".to_owned(), |n| n.to_string()),
                self.own_key
            )),
            _ => None,
        }
    }

    /// `record` seen from the other orientation when this position is the
    /// mirrored one (the mirror is its own inverse).
    fn oriented(&self, record: Record) -> Record {
        match &self.mirror {
            Some(position) => record.mirrored(position),
            None => record,
        }
    }
}

/// A game's lookup counters, registered on the first lookup: looking a
/// metric up by its labels costs more than a hit (the runner's search
/// metrics do the same).
struct LookupCounters {
    hits: metrics::Counter,
    ponder_hits: metrics::Counter,
    misses: metrics::Counter,
}

impl LookupCounters {
    fn of(kind: GameKind) -> &'static LookupCounters {
        static COUNTERS: std::sync::LazyLock<Vec<LookupCounters>> =
            std::sync::LazyLock::new(|| {
                GameKind::ALL
                .iter()
                .map(|kind| {
                    let game = kind.name();
                    LookupCounters {
                        hits: metrics::counter!("gameai_cache_hits_total", "game" => game),
                        ponder_hits: metrics::counter!("gameai_ponder_hits_total", "game" => game),
                        misses: metrics::counter!("gameai_cache_misses_total", "game" => game),
                    }
                })
                .collect()
            });
        &COUNTERS[kind.index()]
    }
}

/// A finished search as the cache keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Record {
    cell: Option<(usize, usize)>,
    notation: String,
    score: i32,
    /// `win`, `draw` or `loss`; plies; othello's disc difference.
    proven: Option<(String, u32, Option<i32>)>,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
    stopped: String,
    to_move: char,
    /// Searched while the player was thinking, not for a request.
    #[serde(default)]
    pondered: bool,
}

impl Record {
    fn of(report: &SearchReport, pondered: bool) -> Self {
        Self {
            cell: report.best_move.cell,
            notation: report.best_move.notation.clone(),
            score: report.score,
            proven: report.proven.map(|p| {
                let result = match p.result {
                    Outcome::Win => "win",
                    Outcome::Draw => "draw",
                    Outcome::Loss => "loss",
                };
                (result.to_owned(), p.plies, p.disc_diff)
            }),
            depth: report.depth,
            nodes: report.nodes,
            pv: report.pv.clone(),
            stopped: match report.stopped {
                Stopped::Depth => "depth",
                Stopped::Nodes => "nodes",
                Stopped::Proven => "proven",
                // A pondering search is cut short by a request or its own
                // deadline: to whoever reads it, it ran out of time.
                Stopped::Time | Stopped::Cancelled => "time",
            }
            .to_owned(),
            to_move: report.to_move.symbol(),
            pondered,
        }
    }

    /// The stored search as an answer that took `elapsed`; `None` if the
    /// record does not read back (written by another version).
    fn report(&self, elapsed: Duration) -> Option<SearchReport> {
        let proven = match &self.proven {
            None => None,
            Some((result, plies, disc_diff)) => Some(ProvenView {
                result: match result.as_str() {
                    "win" => Outcome::Win,
                    "draw" => Outcome::Draw,
                    "loss" => Outcome::Loss,
                    _ => return None,
                },
                plies: *plies,
                disc_diff: *disc_diff,
            }),
        };
        Some(SearchReport {
            best_move: MoveView {
                cell: self.cell,
                notation: self.notation.clone(),
            },
            score: self.score,
            proven,
            depth: self.depth,
            nodes: self.nodes,
            time_ms: elapsed.as_millis() as u64,
            pv: self.pv.clone(),
            stopped: match self.stopped.as_str() {
                "depth" => Stopped::Depth,
                "nodes" => Stopped::Nodes,
                "proven" => Stopped::Proven,
                "time" => Stopped::Time,
                _ => return None,
            },
            to_move: match self.to_move {
                'X' => Player::X,
                'O' => Player::O,
                _ => return None,
            },
            source: Source::Cache,
        })
    }

    /// The record with every move seen in `position`'s mirror.
    fn mirrored(mut self, position: &Position) -> Self {
        (self.notation, self.cell) = position.mirror_move(&self.notation, self.cell);
        for mv in &mut self.pv {
            *mv = position.mirror_move(mv, None).0;
        }
        self
    }

    fn weight(&self) -> usize {
        64 + self.notation.len() + self.pv.iter().map(|m| m.len() + 24).sum::<usize>()
    }
}

/// What the cache holds under one key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Value {
    /// The result of one search without a time limit.
    Exact(Record),
    /// The deepest result known for a position, and how deep searches of
    /// it went in how much time: `(ms, depth)` pairs, newest last.
    Best {
        record: Record,
        reach: Vec<(u64, u32)>,
    },
}

impl Value {
    fn weight(&self) -> usize {
        match self {
            Value::Exact(r) => r.weight(),
            Value::Best { record, reach } => record.weight() + 16 * reach.len(),
        }
    }
}

/// The deepest depth a budget of `time_ms` is known to reach at most, from
/// the searches seen: the least depth among those given as much time or
/// more. `None` when no search had that much time.
fn reach_of(reach: &[(u64, u32)], time_ms: u64) -> Option<u32> {
    reach
        .iter()
        .filter(|&&(t, _)| t >= time_ms)
        .map(|&(_, d)| d)
        .min()
}

/// Whether `record` answers `want`, given the position's searches `reach`.
fn answers(record: &Record, reach: &[(u64, u32)], want: Want) -> bool {
    if record.proven.is_some() {
        return true;
    }
    match want {
        Want::Timed { time_ms, depth } => {
            record.depth >= depth || reach_of(reach, time_ms).is_some_and(|d| record.depth >= d)
        }
        Want::Exact { .. } | Want::ProvenOnly => false,
    }
}

/// A pondering search running for a position: how to stop it, and when it
/// has stored what it found.
#[derive(Clone)]
struct Pondering {
    stop: StopFlag,
    done: watch::Receiver<bool>,
}

/// The cache; clones share it.
#[derive(Clone)]
pub struct Cache {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    memory: moka::future::Cache<String, Arc<Value>>,
    shared: Option<redis::Shared>,
    /// Positions being pondered, by key.
    pondering: Mutex<HashMap<String, Pondering>>,
}

/// Why the cache could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("the analysis cache store cannot be used: {0}")]
pub struct OpenError(String);

impl Cache {
    /// A cache of at most `bytes` in memory (0 turns the cache off), shared
    /// through Redis at `store` (`redis://…`; unset or `memory` for none)
    /// with entries living `ttl` there.
    pub fn open(bytes: u64, store: Option<&str>, ttl: Duration) -> Result<Self, OpenError> {
        if bytes == 0 {
            return Ok(Self { inner: None });
        }
        let shared = match store.map(str::trim) {
            None | Some("" | "memory") => None,
            Some(url) => Some(redis::Shared::open(url, ttl).map_err(OpenError)?),
        };
        let memory = moka::future::Cache::builder()
            .max_capacity(bytes)
            .weigher(|key: &String, value: &Arc<Value>| {
                u32::try_from(key.len() + value.weight()).unwrap_or(u32::MAX)
            })
            .build();
        Ok(Self {
            inner: Some(Arc::new(Inner {
                memory,
                shared,
                pondering: Mutex::default(),
            })),
        })
    }

    /// A cache that holds nothing.
    pub fn off() -> Self {
        Self { inner: None }
    }

    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// The stored answer to `query`, if the cache holds one that answers
    /// it; a pondering search of the same position is stopped and its
    /// result awaited first.
    pub async fn answer(&self, query: &Query) -> Option<SearchReport> {
        let inner = self.inner.as_ref()?;
        let start = Instant::now();
        let mut found = inner.lookup(query).await;
        // Pondering stores what a time-limited request can take.
        if found.is_none() && matches!(query.want, Want::Timed { .. }) {
            let pondering = inner
                .pondering
                .lock()
                .ok()
                .and_then(|p| p.get(&query.key).cloned());
            if let Some(mut pondering) = pondering {
                pondering.stop.stop();
                let _ =
                    tokio::time::timeout(PONDER_HANDOVER, pondering.done.wait_for(|d| *d)).await;
                found = inner.lookup(query).await;
            }
        }
        let counters = LookupCounters::of(query.kind);
        match found.and_then(|r| Some((r.pondered, r.report(start.elapsed())?))) {
            Some((pondered, report)) => {
                counters.hits.increment(1);
                if pondered {
                    counters.ponder_hits.increment(1);
                }
                Some(report)
            }
            None => {
                counters.misses.increment(1);
                None
            }
        }
    }

    /// Keeps what a search for `query` found. `budget_ms` is the time it
    /// was given; `pondered` marks a search made while the player thought.
    pub async fn store(
        &self,
        query: &Query,
        report: &SearchReport,
        budget_ms: u64,
        pondered: bool,
    ) {
        let Some(inner) = &self.inner else { return };
        if report.source != Source::Search || (report.stopped == Stopped::Cancelled && !pondered) {
            return;
        }
        let record = Record::of(report, pondered);
        let reproducible = matches!(
            report.stopped,
            Stopped::Depth | Stopped::Nodes | Stopped::Proven
        );
        if let Some(key) = query.exact_key().filter(|_| reproducible) {
            inner.put(key, Value::Exact(record.clone())).await;
        }
        // How much time reached this depth: the budget when it ran out,
        // otherwise the time the search took.
        let spent = match report.stopped {
            Stopped::Time => Some(budget_ms),
            Stopped::Depth | Stopped::Cancelled => Some(report.time_ms),
            Stopped::Nodes | Stopped::Proven => None,
        };
        let record = query.oriented(record);
        let key = query.best_key();
        let merged = match inner.get(&key).await.as_deref() {
            Some(Value::Best { record: old, reach }) => {
                let mut reach = reach.clone();
                reach.extend(spent.map(|t| (t, report.depth)));
                if reach.len() > REACH_KEPT {
                    reach.drain(..reach.len() - REACH_KEPT);
                }
                let better =
                    old.proven.is_none() && (record.proven.is_some() || record.depth > old.depth);
                Value::Best {
                    record: if better { record } else { old.clone() },
                    reach,
                }
            }
            _ => Value::Best {
                record,
                reach: spent.map(|t| (t, report.depth)).into_iter().collect(),
            },
        };
        inner.put(key, merged).await;
        metrics::counter!("gameai_cache_stores_total", "game" => query.kind.name()).increment(1);
    }

    /// Marks `key` as being pondered until the returned handle is dropped
    /// (after the result is stored); `stop` stops the search.
    fn pondering(&self, key: &str, stop: &StopFlag) -> Option<PonderMark> {
        let inner = self.inner.as_ref()?;
        let (tx, rx) = watch::channel(false);
        inner.pondering.lock().ok()?.insert(
            key.to_owned(),
            Pondering {
                stop: stop.clone(),
                done: rx,
            },
        );
        Some(PonderMark {
            inner: Arc::clone(inner),
            key: key.to_owned(),
            done: tx,
        })
    }
}

/// A position marked as being pondered; dropping it lifts the mark and
/// wakes whoever waits for the result.
struct PonderMark {
    inner: Arc<Inner>,
    key: String,
    done: watch::Sender<bool>,
}

impl Drop for PonderMark {
    fn drop(&mut self) {
        if let Ok(mut p) = self.inner.pondering.lock() {
            p.remove(&self.key);
        }
        let _ = self.done.send(true);
    }
}

impl Inner {
    /// The record that answers `query`, if one does.
    async fn lookup(&self, query: &Query) -> Option<Record> {
        if let Some(Value::Best { record, reach }) = self.get(&query.best_key()).await.as_deref() {
            if answers(record, reach, query.want) {
                return Some(query.oriented(record.clone()));
            }
        }
        let key = query.exact_key()?;
        match self.get(&key).await.as_deref() {
            Some(Value::Exact(record)) => Some(record.clone()),
            _ => None,
        }
    }

    async fn get(&self, key: &str) -> Option<Arc<Value>> {
        if let Some(value) = self.memory.get(key).await {
            return Some(value);
        }
        let value = Arc::new(self.shared.as_ref()?.get(key).await?);
        self.memory.insert(key.to_owned(), Arc::clone(&value)).await;
        Some(value)
    }

    async fn put(&self, key: String, value: Value) {
        if let Some(shared) = &self.shared {
            shared.put(&key, &value);
        }
        self.memory.insert(key, Arc::new(value)).await;
        // The size is brought up to date by moka's housekeeping; a store
        // follows a whole search, so doing it here costs nothing that shows.
        self.memory.run_pending_tasks().await;
        metrics::gauge!("gameai_cache_bytes").set(self.memory.weighted_size() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(depth: u32, stopped: Stopped, proven: bool) -> SearchReport {
        SearchReport {
            best_move: MoveView {
                cell: Some((2, 3)),
                notation: "d3".to_owned(),
            },
            score: 12,
            proven: proven.then_some(ProvenView {
                result: Outcome::Win,
                plies: 7,
                disc_diff: Some(4),
            }),
            depth,
            nodes: 1234,
            time_ms: 40,
            pv: vec!["d3".to_owned(), "c5".to_owned()],
            stopped,
            to_move: Player::O,
            source: Source::Search,
        }
    }

    fn query(want: Want) -> Query {
        Query {
            kind: GameKind::Othello,
            key: "othello:X:test".to_owned(),
            own_key: "othello:X:test".to_owned(),
            mirror: None,
            want,
        }
    }

    fn cache() -> Cache {
        Cache::open(1 << 20, None, Duration::from_secs(60)).unwrap()
    }

    #[test]
    fn a_record_reads_back_as_the_report_it_was() {
        let original = report(9, Stopped::Proven, true);
        let back = Record::of(&original, false)
            .report(Duration::from_millis(3))
            .unwrap();
        assert_eq!(back.best_move, original.best_move);
        assert_eq!(back.proven, original.proven);
        assert_eq!((back.depth, back.nodes, back.score), (9, 1234, 12));
        assert_eq!(back.pv, original.pv);
        assert_eq!(back.to_move, Player::O);
        assert_eq!(back.time_ms, 3);
        assert_eq!(back.source, Source::Cache);
    }

    #[test]
    fn the_reach_estimate_takes_the_least_depth_of_longer_searches() {
        let reach = [(500, 11), (3000, 14), (1500, 12)];
        assert_eq!(reach_of(&reach, 500), Some(11));
        assert_eq!(reach_of(&reach, 1000), Some(12));
        assert_eq!(reach_of(&reach, 2000), Some(14));
        assert_eq!(reach_of(&reach, 4000), None);
    }

    #[tokio::test]
    async fn a_deterministic_request_takes_only_its_own_search() {
        let cache = cache();
        let eight = query(Want::Exact {
            depth: 8,
            nodes: None,
        });
        assert!(cache.answer(&eight).await.is_none());
        cache
            .store(&eight, &report(8, Stopped::Depth, false), 10_000, false)
            .await;
        assert_eq!(cache.answer(&eight).await.unwrap().depth, 8);
        let seven = query(Want::Exact {
            depth: 7,
            nodes: None,
        });
        assert!(
            cache.answer(&seven).await.is_none(),
            "a deeper result is not the same search"
        );
        let capped = query(Want::Exact {
            depth: 8,
            nodes: Some(100),
        });
        assert!(cache.answer(&capped).await.is_none());
    }

    #[tokio::test]
    async fn a_search_cut_by_the_default_time_is_not_reproducible() {
        let cache = cache();
        let q = query(Want::Exact {
            depth: 20,
            nodes: None,
        });
        cache
            .store(&q, &report(11, Stopped::Time, false), 2000, false)
            .await;
        assert!(cache.answer(&q).await.is_none());
    }

    #[tokio::test]
    async fn a_timed_request_takes_a_result_as_deep_as_its_budget_reaches() {
        let cache = cache();
        let timed = |time_ms| query(Want::Timed { time_ms, depth: 60 });
        cache
            .store(&timed(1500), &report(12, Stopped::Time, false), 1500, false)
            .await;
        assert_eq!(cache.answer(&timed(1500)).await.unwrap().depth, 12);
        assert_eq!(cache.answer(&timed(200)).await.unwrap().depth, 12);
        assert!(
            cache.answer(&timed(3000)).await.is_none(),
            "nothing says how deep 3 s would reach"
        );
        // A shallower later search does not replace the deeper result.
        cache
            .store(&timed(200), &report(9, Stopped::Time, false), 200, false)
            .await;
        assert_eq!(cache.answer(&timed(200)).await.unwrap().depth, 12);
        // A depth cap the stored result already meets is answered.
        let capped = query(Want::Timed {
            time_ms: 9000,
            depth: 10,
        });
        assert_eq!(cache.answer(&capped).await.unwrap().depth, 12);
    }

    #[tokio::test]
    async fn a_proven_result_answers_everything() {
        let cache = cache();
        let q = query(Want::Timed {
            time_ms: 100,
            depth: 5,
        });
        cache
            .store(&q, &report(14, Stopped::Proven, true), 100, false)
            .await;
        for want in [
            Want::ProvenOnly,
            Want::Exact {
                depth: 3,
                nodes: Some(10),
            },
            Want::Timed {
                time_ms: 9000,
                depth: 60,
            },
        ] {
            let answer = cache.answer(&query(want)).await.unwrap();
            assert!(answer.proven.is_some(), "{want:?}");
            assert_eq!(answer.stopped, Stopped::Proven);
        }
    }

    #[tokio::test]
    async fn an_off_cache_holds_nothing() {
        let cache = Cache::open(0, None, Duration::from_secs(1)).unwrap();
        let q = query(Want::ProvenOnly);
        cache
            .store(&q, &report(14, Stopped::Proven, true), 100, false)
            .await;
        assert!(!cache.is_on());
        assert!(cache.answer(&q).await.is_none());
    }

    #[tokio::test]
    async fn book_answers_are_not_stored() {
        let cache = cache();
        let q = query(Want::ProvenOnly);
        let mut from_book = report(14, Stopped::Proven, true);
        from_book.source = Source::Book;
        cache.store(&q, &from_book, 100, false).await;
        assert!(cache.answer(&q).await.is_none());
    }
}
