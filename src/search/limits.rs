//! When a search must stop: depth, deadline, node budget, or a flag raised
//! from outside; and who hears about each completed iteration.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use crate::vocabulary::Stopped;

/// A flag that asks a running search to stop. Cloned handles share it; a
/// child flag also stops when its parent or any ancestor does (one
/// request's search, under the whole pool's shutdown; a helper thread of
/// that search).
#[derive(Clone, Debug, Default)]
pub struct StopFlag {
    own: Arc<AtomicBool>,
    ancestors: Vec<Arc<AtomicBool>>,
}

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }

    /// A new flag that is also raised whenever `self` is.
    pub fn child(&self) -> Self {
        let mut ancestors = self.ancestors.clone();
        ancestors.push(Arc::clone(&self.own));
        Self {
            own: Arc::default(),
            ancestors,
        }
    }

    pub fn stop(&self) {
        self.own.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.own.load(Ordering::Relaxed) || self.ancestors.iter().any(|a| a.load(Ordering::Relaxed))
    }
}

/// One completed iteration of a search, as a listener hears it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The side to move's view, as in the final answer.
    pub score: i32,
    /// Nodes so far in this search.
    pub nodes: u64,
    /// The expected line, in notation.
    pub pv: Vec<String>,
}

/// Hears each completed iteration (a streaming client).
#[derive(Clone)]
pub struct ProgressSink(Arc<dyn Fn(Progress) + Send + Sync>);

impl ProgressSink {
    pub fn new(f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        Self(Arc::new(f))
    }
}

impl fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressSink")
    }
}

/// One stage's part of a search's limits (see [`Limits::share`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// The stage ends here, when the search has a deadline.
    pub deadline: Option<Instant>,
    /// The stage ends once the search (its earlier stages included) has
    /// entered this many nodes, when it has a node budget.
    pub nodes: Option<u64>,
}

/// The limits of one search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// No new work after this instant; the last completed depth answers.
    pub deadline: Option<Instant>,
    /// No new work once the search has entered this many nodes.
    pub nodes: Option<u64>,
    /// Nodes already spent by earlier stages of the same search (a solver
    /// that gave up before the fallback search): they count against
    /// `nodes` and in progress reports.
    pub spent: u64,
    pub stop: StopFlag,
    pub progress: Option<ProgressSink>,
    /// Threads the search may run: the calling one and `threads - 1`
    /// helpers sharing its tables (see [`super::smp`]); 0 counts as 1.
    pub threads: usize,
}

impl Limits {
    /// The limits of a search: at most `depth` plies, no new work after
    /// `deadline` or once `nodes` nodes are entered, and a stop when `stop`
    /// is raised. Every front door builds its search's limits here.
    pub fn new(depth: u32, deadline: Option<Instant>, nodes: Option<u64>, stop: &StopFlag) -> Self {
        Self {
            depth,
            deadline,
            nodes,
            spent: 0,
            stop: stop.clone(),
            progress: None,
            threads: 1,
        }
    }

    /// The same limits, searched by `threads` threads.
    pub fn with_threads(self, threads: usize) -> Self {
        Self { threads, ..self }
    }

    /// The helper threads the search may run beside the calling one.
    pub fn helpers(&self) -> usize {
        self.threads.saturating_sub(1)
    }

    /// The same limits, with `progress` hearing each completed iteration.
    pub fn reporting(self, progress: Option<ProgressSink>) -> Self {
        Self { progress, ..self }
    }

    /// A search of at most `depth` plies and no other limit.
    pub fn depth(depth: u32) -> Self {
        Self {
            depth,
            ..Self::default()
        }
    }

    /// The part of these limits one stage of the search may use, after
    /// `nodes` nodes of this stage: `share` of the time left and of the
    /// node budget left, so that a stage never spends what the rest of the
    /// search needs. The one way a search gives part of its budget to a
    /// stage (a solver tried before the main search, a threat search, one
    /// of several lines).
    pub fn share(&self, share: f64, nodes: u64) -> Share {
        let now = Instant::now();
        let used = self.spent + nodes;
        Share {
            deadline: self
                .deadline
                .map(|d| now + d.saturating_duration_since(now).mul_f64(share)),
            nodes: self
                .nodes
                .map(|n| used + (n.saturating_sub(used) as f64 * share) as u64),
        }
    }

    /// The limits of a later stage that may use `share` of what is left
    /// after this stage spent `nodes` (see [`Limits::share`]).
    pub fn stage(&self, share: f64, nodes: u64) -> Self {
        let part = self.share(share, nodes);
        Self {
            deadline: part.deadline,
            nodes: part.nodes,
            ..self.after(nodes)
        }
    }

    /// The same limits, with a deadline no later than `time` from now when
    /// there is one (without a deadline the answer must not depend on time).
    pub fn cap_deadline(self, time: Duration) -> Self {
        let cap = Instant::now() + time;
        Self {
            deadline: self.deadline.map(|d| d.min(cap)),
            ..self
        }
    }

    /// True once the deadline has passed or the flag is raised.
    pub fn expired(&self) -> bool {
        self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// True once any limit but depth is reached, after `nodes` nodes of
    /// this stage of the search.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.out_of_nodes(nodes) || self.expired()
    }

    /// True once the node budget is spent, after `nodes` nodes of this stage.
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| self.spent + nodes >= n)
    }

    /// Why a search cut short after `nodes` nodes of this stage stopped.
    pub fn stop_reason(&self, nodes: u64) -> Stopped {
        if self.stop.is_stopped() {
            Stopped::Cancelled
        } else if self.out_of_nodes(nodes) {
            Stopped::Nodes
        } else {
            Stopped::Time
        }
    }

    /// The limits of a later stage, after this stage spent `nodes`.
    pub fn after(&self, nodes: u64) -> Self {
        Self {
            spent: self.spent + nodes,
            ..self.clone()
        }
    }

    /// Tells the listener, if any, about a completed iteration; `pv` is
    /// only rendered when someone listens.
    pub fn report(&self, depth: u32, score: i32, nodes: u64, pv: impl FnOnce() -> Vec<String>) {
        if let Some(sink) = &self.progress {
            (sink.0)(Progress {
                depth,
                score,
                nodes: self.spent + nodes,
                pv: pv(),
            });
        }
    }
}
