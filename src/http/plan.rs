//! The search plan: a search request's controls, checked once and then
//! run on a worker (depth, time and node budgets, multi-PV lines, strength
//! levels and the seeded random choice), and what every search route does
//! around it: answering from the opening book or the analysis cache
//! without a worker where they hold the answer, otherwise running it on
//! the pool and storing the result, counting what the pool turns away,
//! recording and logging what finishes. Every route that searches (plain,
//! streamed, batched, sessions) goes through here.

use std::time::{Duration, Instant};

use tracing::info;

use super::AppState;
use super::bodies::{Randomize, SearchRequest, SearchResponse};
use super::caps::{MAX_MULTI_PV, MAX_NODES};
use super::error::{ApiError, Result};
use super::validate::{self, in_range, search_budget};
use crate::cache::{Query, Want};
use crate::games::level;
use crate::games::lines::{self, Line, Rng};
use crate::games::{GameKind, Position, SearchReport, Stopped};
use crate::pool::PoolError;
use crate::search::{Limits, ProgressSink, StopFlag, Workspace};

/// A checked search request.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kind: GameKind,
    pub position: Position,
    pub depth: u32,
    pub time_ms: u64,
    pub nodes: Option<u64>,
    /// Lines to answer with; 1 answers none.
    pub multi_pv: usize,
    /// Pick among moves this close to the best.
    pub margin: Option<i32>,
    /// Percent of moves played at random among the candidates (levels).
    pub random_percent: u32,
    /// Set whenever a random choice may be made.
    pub seed: Option<u64>,
    /// The client set a time budget (`time_ms` or `clock`): the answer
    /// depends on how deep that time reaches, not only on the request.
    pub timed: bool,
    /// An earlier search may answer (`"cache": false` says no).
    pub cache: bool,
    /// The opening book may answer: not for a strength level, whose
    /// depth, time and random moves are the point.
    pub book: bool,
}

impl Plan {
    /// Checks every field of `request` (a finished game is refused).
    pub fn new(state: &AppState, request: &SearchRequest) -> Result<Self> {
        let (kind, position) = validate::position(request.position())?;
        position.check_ongoing()?;
        let level = request
            .level
            .map(|l| in_range("level", l, u64::from(level::MAX)))
            .transpose()?
            .map(|l| level::level(kind, l as u8));
        let (mut depth, mut time_ms) = search_budget(state, kind, request.depth, request.time_ms)?;
        if let Some(level) = level {
            if request.depth.is_none() {
                depth = level.depth;
            }
            if request.time_ms.is_none() {
                time_ms = level.time_ms.min(state.config.max_time_ms);
            }
        }
        if let Some(body) = &request.clock {
            let clock = validate::clock("clock", body)?;
            time_ms = validate::clock_budget(state, &clock, request.time_ms.map(|_| time_ms));
        }
        let nodes = request
            .nodes
            .map(|n| in_range("nodes", n, MAX_NODES))
            .transpose()?;
        let multi_pv = request
            .multi_pv
            .map(|k| in_range("multi_pv", k, MAX_MULTI_PV))
            .transpose()?
            .unwrap_or(1) as usize;
        let margin = match request.randomize {
            None | Some(Randomize::Flag(false)) => None,
            Some(Randomize::Flag(true)) => Some(kind.info().default_margin),
            Some(Randomize::Margin(m)) => Some(
                i32::try_from(m)
                    .ok()
                    .filter(|m| (0..=2 * crate::search::WIN).contains(m))
                    .ok_or_else(|| {
                        ApiError::invalid(
                            "randomize",
                            format!(
                                "randomize is true, false or a score margin from 0 to {}, got {m}",
                                2 * crate::search::WIN
                            ),
                        )
                    })?,
            ),
        };
        let random_percent = level.map_or(0, |l| l.random_percent);
        let seed = request
            .seed
            .map(|s| {
                u64::try_from(s).map_err(|_| {
                    ApiError::invalid("seed", format!("seed must be 0 or more, got {s}"))
                })
            })
            .transpose()?;
        let seed =
            (margin.is_some() || random_percent > 0).then(|| seed.unwrap_or_else(fresh_seed));
        Ok(Self {
            kind,
            position,
            depth,
            time_ms,
            nodes,
            multi_pv,
            margin,
            random_percent,
            seed,
            timed: request.time_ms.is_some() || request.clock.is_some(),
            cache: request.cache.unwrap_or(true),
            book: level.is_none(),
        })
    }

    /// Whether the answer is one plain search: one line, no random choice.
    fn is_plain(&self) -> bool {
        self.multi_pv == 1 && self.seed.is_none()
    }

    /// How the analysis cache may answer this plan; `None` when it may
    /// not. Random choices and several lines are always searched anew: a
    /// cached choice would stop being random, and lines are not stored.
    pub fn cache_query(&self) -> Option<Query> {
        if !self.cache || !self.is_plain() {
            return None;
        }
        let want = match (self.timed, self.nodes) {
            (false, nodes) => Want::Exact {
                depth: self.depth,
                nodes,
            },
            (true, None) => Want::Timed {
                time_ms: self.time_ms,
                depth: self.depth,
            },
            (true, Some(_)) => Want::ProvenOnly,
        };
        Some(Query::new(&self.position, want))
    }

    /// The limits of this plan's search, starting now.
    pub fn limits(&self, stop: &StopFlag, progress: Option<ProgressSink>) -> Limits {
        Limits {
            depth: self.depth,
            deadline: Some(Instant::now() + Duration::from_millis(self.time_ms)),
            nodes: self.nodes,
            spent: 0,
            stop: stop.clone(),
            progress,
        }
    }

    /// Runs the search on the calling (worker) thread. `progress` hears each
    /// completed depth of a single search, `on_line` each line of a
    /// multi-line one.
    pub fn run(
        &self,
        ws: &mut Workspace,
        stop: &StopFlag,
        progress: Option<ProgressSink>,
        on_line: impl FnMut(&Line),
    ) -> Answer {
        let start = Instant::now();
        let limits = self.limits(stop, progress);
        let mut rng = self.seed.map(Rng::new);
        let random_move = rng.as_mut().is_some_and(|r| {
            self.random_percent > 0 && (r.below(100) as u32) < self.random_percent
        });
        if self.multi_pv == 1 && self.margin.is_none() && !random_move {
            return Answer {
                report: self.position.search(&limits, ws),
                lines: None,
                seed: self.seed,
            };
        }
        let report = self.position.describe();
        let moves = if self.multi_pv >= report.legal_moves.len() {
            report.legal_moves
        } else {
            self.position.candidate_moves(report)
        };
        let lines = lines::search_lines(&self.position, &moves, &limits, ws, on_line);
        if lines.is_empty() {
            // Only when no listed move could be played: search as usual.
            return Answer {
                report: self.position.search(&limits, ws),
                lines: None,
                seed: self.seed,
            };
        }
        let chosen = match (rng.as_mut(), self.margin) {
            (Some(r), _) if random_move => r.below(lines.len()),
            (Some(r), Some(margin)) => lines::choose(&lines, margin, r),
            _ => 0,
        };
        let report = lines::report_of_lines(&self.position, &lines, chosen, start);
        Answer {
            report,
            lines: (self.multi_pv > 1).then(|| lines.into_iter().take(self.multi_pv).collect()),
            seed: self.seed,
        }
    }
}

/// What a plan's search found.
#[derive(Clone, Debug)]
pub struct Answer {
    pub report: SearchReport,
    pub lines: Option<Vec<Line>>,
    pub seed: Option<u64>,
}

impl From<Answer> for SearchResponse {
    fn from(a: Answer) -> Self {
        let mut response = SearchResponse::from(a.report);
        response.lines = a.lines.map(|l| l.into_iter().map(Into::into).collect());
        response.seed = a.seed;
        response
    }
}

/// A seed for a client that gave none: below 2^53, so JavaScript clients
/// can send it back exactly.
fn fresh_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0 >> 11
}

/// Answers a checked search: from the opening book or the analysis cache
/// on the async side when they hold the answer, otherwise on the pool
/// (storing what it finds in the cache); records it either way.
pub async fn run_plan(state: &AppState, plan: Plan) -> Result<Answer> {
    let kind = plan.kind;
    if let Some(report) = plan
        .is_plain()
        .then(|| plan.book.then(|| plan.position.book_answer(plan.depth)))
        .flatten()
        .flatten()
    {
        finished(kind, &report);
        return Ok(Answer {
            report,
            lines: None,
            seed: None,
        });
    }
    let query = plan.cache_query();
    if let Some(query) = &query
        && let Some(report) = state.cache.answer(query).await
    {
        finished(kind, &report);
        return Ok(Answer {
            report,
            lines: None,
            seed: None,
        });
    }
    let budget_ms = plan.time_ms;
    let answer = state
        .pool
        .run(move |ws, stop| plan.run(ws, stop, None, |_| {}))
        .await
        .inspect_err(|e| count_shed(kind, *e))?;
    if let Some(query) = &query {
        state
            .cache
            .store(query, &answer.report, budget_ms, false)
            .await;
    }
    finished(kind, &answer.report);
    Ok(answer)
}

/// Counts a search the pool turned away.
pub fn count_shed(kind: GameKind, e: PoolError) {
    if e == PoolError::Overloaded {
        metrics::counter!("gameai_searches_shed_total", "game" => kind.name()).increment(1);
    }
}

/// Records and logs a finished search; an answer from the cache is logged
/// but counted by the cache's own metrics, not as a search.
pub fn finished(kind: GameKind, report: &SearchReport) {
    if report.source != crate::games::Source::Cache {
        record_search(kind, report);
    }
    info!(
        search.source = ?report.source,
        search.game = kind.name(),
        search.depth = report.depth,
        search.nodes = report.nodes,
        search.best_move = %report.best_move.notation,
        duration_ms = report.time_ms,
        "search done"
    );
}

/// Counts and measures a finished search.
fn record_search(kind: GameKind, report: &SearchReport) {
    let game = kind.name();
    let stopped = match report.stopped {
        Stopped::Depth => "depth",
        Stopped::Time => "time",
        Stopped::Nodes => "nodes",
        Stopped::Cancelled => "cancelled",
        Stopped::Proven => "proven",
    };
    metrics::counter!("gameai_searches_total", "game" => game, "stopped" => stopped).increment(1);
    metrics::histogram!("gameai_search_duration_seconds", "game" => game)
        .record(report.time_ms as f64 / 1000.0);
    metrics::histogram!("gameai_search_nodes", "game" => game).record(report.nodes as f64);
}
