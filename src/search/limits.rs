//! When a search must stop: depth, deadline, node budget, or a flag raised
//! from outside; and who hears about each completed iteration.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use crate::vocabulary::Stopped;

/// A flag that asks a running search to stop. Cloned handles share it; a
/// child flag also stops when its parent does (one request's search, under
/// the whole pool's shutdown).
#[derive(Clone, Debug, Default)]
pub struct StopFlag {
    own: Arc<AtomicBool>,
    parent: Option<Arc<AtomicBool>>,
}

impl StopFlag {
    pub fn new() -> Self {
        Self::default()
    }

    /// A new flag that is also raised whenever `self` is.
    pub fn child(&self) -> Self {
        Self {
            own: Arc::default(),
            parent: Some(Arc::clone(&self.own)),
        }
    }

    pub fn stop(&self) {
        self.own.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.own.load(Ordering::Relaxed)
            || self
                .parent
                .as_ref()
                .is_some_and(|p| p.load(Ordering::Relaxed))
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
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Self {
            depth,
            ..Self::default()
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
