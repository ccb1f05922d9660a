//! Answers plans: from the opening book or the analysis cache without a
//! worker where they hold the answer, otherwise by a search on the pool
//! (whose result the cache keeps); and counts, measures and logs every
//! search once, whichever front door asked for it.

use crate::cache::{Cache, Query, Want};
use crate::games::{GameKind, SearchReport, Source, Stopped};
use crate::plan::{Answer, Plan};
use crate::pool::{Pool, PoolError};

/// What runs plans: the pool and the analysis cache. Clones share both.
#[derive(Clone)]
pub struct Runner {
    pub pool: Pool,
    pub cache: Cache,
}

impl Runner {
    /// Answers a plan: from the book or the cache when they hold the
    /// answer, otherwise on the pool (storing what it finds in the cache);
    /// records it either way.
    pub async fn run(&self, plan: Plan) -> Result<Answer, PoolError> {
        let kind = plan.kind;
        if let Some(report) = plan
            .is_plain()
            .then(|| plan.book.then(|| plan.position.book_answer(plan.depth)))
            .flatten()
            .flatten()
        {
            finished(kind, &report);
            return Ok(Answer::of(report));
        }
        let query = cache_query(&plan);
        if let Some(query) = &query
            && let Some(report) = self.cache.answer(query).await
        {
            finished(kind, &report);
            return Ok(Answer::of(report));
        }
        let budget_ms = plan.time_ms;
        let answer = self
            .pool
            .start(plan.threads, move |ws, stop| {
                plan.run(ws, stop, None, |_| {})
            })
            .inspect_err(|e| count_shed(kind, *e))?
            .answer()
            .await?;
        if let Some(query) = &query {
            self.cache
                .store(query, &answer.report, budget_ms, false)
                .await;
        }
        finished(kind, &answer.report);
        Ok(answer)
    }
}

/// How the analysis cache may answer `plan`; `None` when it may not.
/// Random choices and several lines are always searched anew: a cached
/// choice would stop being random, and lines are not stored.
pub fn cache_query(plan: &Plan) -> Option<Query> {
    if !plan.cache || !plan.is_plain() {
        return None;
    }
    let want = match (plan.timed, plan.nodes) {
        (false, nodes) => Want::Exact {
            depth: plan.depth,
            nodes,
        },
        (true, None) => Want::Timed {
            time_ms: plan.time_ms,
            depth: plan.depth,
        },
        (true, Some(_)) => Want::ProvenOnly,
    };
    Some(Query::new(&plan.position, want))
}

/// Counts a search the pool turned away.
pub fn count_shed(kind: GameKind, e: PoolError) {
    if e == PoolError::Overloaded {
        metrics::counter!("gameai_searches_shed_total", "game" => kind.name()).increment(1);
    }
}

/// Records and logs a finished search: an answer from the cache is counted
/// by the cache's own metrics, not as a search. Its line is at info only
/// for a search that ran, asked by a request the access log records (whose
/// span is at info); else at debug: under load searches come by the
/// thousand a second, the metrics count every one, and the access log's
/// setting says how many requests a busy server writes down.
pub fn finished(kind: GameKind, report: &SearchReport) {
    if report.source != Source::Cache {
        record_search(kind, report);
    }
    macro_rules! done {
        ($level:ident) => {
            tracing::$level!(
                search.source = ?report.source,
                search.game = kind.name(),
                search.depth = report.depth,
                search.nodes = report.nodes,
                search.best_move = %report.best_move.notation,
                duration_ms = report.time_ms,
                "search done"
            )
        };
    }
    if report.source == Source::Search && in_logged_request() {
        done!(info);
    } else {
        done!(debug);
    }
}

/// Counts and measures a finished search.
fn record_search(kind: GameKind, report: &SearchReport) {
    let metrics = SearchMetrics::of(kind);
    let stopped = match report.stopped {
        Stopped::Depth => 0,
        Stopped::Time => 1,
        Stopped::Nodes => 2,
        Stopped::Cancelled => 3,
        Stopped::Proven => 4,
    };
    metrics.stopped[stopped].increment(1);
    metrics.duration.record(report.time_ms as f64 / 1000.0);
    metrics.nodes.record(report.nodes as f64);
}

/// A game's search counter (one per way a search stops, in the order of
/// [`STOPPED`]) and timers, registered on the first search: looking a
/// metric up by its labels costs more than answering from the book. The
/// HTTP app installs the recorder before it serves; the engine protocols
/// have none, and their handles record nothing.
struct SearchMetrics {
    stopped: Vec<metrics::Counter>,
    duration: metrics::Histogram,
    nodes: metrics::Histogram,
}

/// The `stopped` label of each way a search stops.
const STOPPED: [&str; 5] = ["depth", "time", "nodes", "cancelled", "proven"];

impl SearchMetrics {
    fn of(kind: GameKind) -> &'static SearchMetrics {
        static METRICS: std::sync::LazyLock<Vec<SearchMetrics>> = std::sync::LazyLock::new(|| {
            GameKind::ALL
                .iter()
                .map(|kind| {
                    let game = kind.name();
                    SearchMetrics {
                        stopped: STOPPED
                            .iter()
                            .map(|&stopped| {
                                metrics::counter!("gameai_searches_total", "game" => game, "stopped" => stopped)
                            })
                            .collect(),
                        duration: metrics::histogram!("gameai_search_duration_seconds", "game" => game),
                        nodes: metrics::histogram!("gameai_search_nodes", "game" => game),
                    }
                })
                .collect()
        });
        &METRICS[kind.index()]
    }
}

/// Whether the current span, the request's, is one the access log writes.
fn in_logged_request() -> bool {
    tracing::Span::current()
        .metadata()
        .is_some_and(|span| *span.level() <= tracing::Level::INFO)
}
