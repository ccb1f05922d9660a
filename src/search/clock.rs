//! One search's clock: it reads the stop flag, the deadline and the node
//! budget once every [`Clock::INTERVAL`] nodes, and judges whether another
//! iteration of iterative deepening can still finish in time.
//!
//! Reading the time costs more than a node of the cheaper engines, so no
//! engine reads it every node; one interval for all keeps every engine's
//! reaction to a stop within the same bound (a few milliseconds).

use std::time::Instant;

use super::{Limits, Stopped};

/// Watches one search's limits.
#[derive(Clone, Copy, Debug)]
pub struct Clock<'a> {
    limits: &'a Limits,
    /// Whether the deadline and node budget count yet. The first iteration
    /// runs without them, so a search always has a move to answer with;
    /// the stop flag counts from the start.
    armed: bool,
    /// A stage's own end inside the search (a share of the time or of the
    /// nodes for one phase); its end stops the stage, not the search.
    stage_deadline: Option<Instant>,
    stage_nodes: u64,
    /// The interval (node count / [`Clock::INTERVAL`]) of the last reading.
    read_in: u64,
}

impl<'a> Clock<'a> {
    /// Nodes between two readings of the limits. A power of two, so the
    /// test is a mask.
    pub const INTERVAL: u64 = 1024;

    /// A clock for `limits`, armed.
    pub fn new(limits: &'a Limits) -> Self {
        Self {
            limits,
            armed: true,
            stage_deadline: None,
            stage_nodes: u64::MAX,
            read_in: 0,
        }
    }

    pub fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// Whether the deadline and node budget count (see the field).
    pub fn arm(&mut self, armed: bool) {
        self.armed = armed;
    }

    pub fn armed(&self) -> bool {
        self.armed
    }

    /// Must the search stop, after `nodes` nodes? Reads the limits once
    /// the count enters a new interval: at every multiple of the interval
    /// when the count grows by one a call, and no later than the next call
    /// when a search counts several nodes at once (leaves in a loop), so a
    /// stop is heard within about an interval however the nodes are counted.
    #[inline]
    pub fn poll(&mut self, nodes: u64) -> bool {
        let interval = nodes / Self::INTERVAL;
        if interval == self.read_in {
            return false;
        }
        self.read_in = interval;
        self.expired(nodes)
    }

    /// Must the search stop now, after `nodes` nodes? Reads the time.
    #[cold]
    pub fn expired(&self, nodes: u64) -> bool {
        let over = if self.armed {
            self.limits.exhausted(nodes)
        } else {
            self.limits.stop.is_stopped()
        };
        over || nodes >= self.stage_nodes
            || self.stage_deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Starts a stage that may use `share` of the time left, or, without a
    /// deadline, `nodes` more nodes (so untimed answers stay reproducible).
    /// Under a node budget it also takes no more than `share` of the nodes
    /// left (see [`Limits::share`]).
    pub fn start_stage(&mut self, share: f64, nodes_now: u64, nodes: u64) {
        let part = self.limits.share(share, nodes_now);
        // The stage's node bound in this stage's own count.
        let budget_share = part
            .nodes
            .map_or(u64::MAX, |n| n.saturating_sub(self.limits.spent));
        self.stage_nodes = match part.deadline {
            Some(_) => budget_share,
            None => nodes_now.saturating_add(nodes).min(budget_share),
        };
        self.stage_deadline = part.deadline;
    }

    /// Ends the stage: only the search's own limits count again.
    pub fn end_stage(&mut self) {
        self.stage_deadline = None;
        self.stage_nodes = u64::MAX;
    }

    /// Why not to start another iteration after one that began at
    /// `iteration_start`, with `nodes` nodes spent; `None` to go on. The
    /// next iteration is expected to take `growth` times the last one
    /// (0 when it does not matter): starting one that cannot end before
    /// the deadline would only burn the rest of the budget.
    pub fn stop_before_next(
        &self,
        nodes: u64,
        iteration_start: Instant,
        growth: f64,
    ) -> Option<Stopped> {
        if self.limits.exhausted(nodes) {
            return Some(self.limits.stop_reason(nodes));
        }
        let deadline = self.limits.deadline?;
        let now = Instant::now();
        let next = (now - iteration_start).mul_f64(growth);
        (now + next > deadline).then_some(Stopped::Time)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn an_unarmed_clock_hears_only_the_stop_flag() {
        let mut limits = Limits::depth(3);
        limits.nodes = Some(10);
        let mut clock = Clock::new(&limits);
        assert!(clock.expired(10));
        clock.arm(false);
        assert!(!clock.expired(10));
        limits.stop.stop();
        assert!(clock.expired(10));
    }

    #[test]
    fn polls_read_the_limits_once_an_interval() {
        let mut limits = Limits::depth(3);
        limits.nodes = Some(1);
        let mut clock = Clock::new(&limits);
        assert!(!clock.poll(Clock::INTERVAL - 1));
        assert!(clock.poll(Clock::INTERVAL));
        assert!(!clock.poll(Clock::INTERVAL + 1), "read once an interval");
        // Counted several at a time, the count skips the multiple: the
        // limits are read all the same.
        assert!(clock.poll(Clock::INTERVAL * 2 + 5));
    }

    #[test]
    fn an_untimed_stage_ends_after_its_nodes() {
        let limits = Limits::depth(3);
        let mut clock = Clock::new(&limits);
        clock.start_stage(0.1, 100, 50);
        assert!(!clock.expired(149) && clock.expired(150));
        clock.end_stage();
        assert!(!clock.expired(150));
    }

    #[test]
    fn a_stage_takes_its_share_of_a_node_budget() {
        let mut limits = Limits::depth(3);
        limits.nodes = Some(1_100);
        limits.deadline = Some(Instant::now() + std::time::Duration::from_secs(60));
        let mut clock = Clock::new(&limits);
        clock.start_stage(0.1, 100, 1_000_000);
        assert!(!clock.expired(199) && clock.expired(200));
        limits.deadline = None;
        let mut clock = Clock::new(&limits);
        clock.start_stage(0.5, 100, 50);
        assert!(!clock.expired(149) && clock.expired(150));
    }

    #[test]
    fn no_next_iteration_that_cannot_finish() {
        let mut limits = Limits::depth(9);
        let start = Instant::now();
        limits.deadline = Some(start + Duration::from_secs(60));
        let clock = Clock::new(&limits);
        assert_eq!(clock.stop_before_next(0, start, 3.0), None);
        let long_ago = start - Duration::from_secs(30);
        assert_eq!(
            clock.stop_before_next(0, long_ago, 3.0),
            Some(Stopped::Time)
        );
        assert_eq!(clock.stop_before_next(0, long_ago, 0.0), None);
    }
}
