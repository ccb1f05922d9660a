//! When a search must stop: depth, deadline, or a flag raised from outside.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// The limits of one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// No new work after this instant; the last completed depth answers.
    pub deadline: Option<Instant>,
    pub stop: StopFlag,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Self {
            depth,
            deadline: None,
            stop: StopFlag::new(),
        }
    }

    /// True once the deadline has passed or the flag is raised.
    pub fn expired(&self) -> bool {
        self.stop.is_stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// It completed the requested depth.
    Depth,
    /// The deadline (or a stop request) cut it short.
    Time,
    /// The result is exact; searching deeper cannot change it.
    Proven,
}
