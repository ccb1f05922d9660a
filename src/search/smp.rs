//! One search run by several threads of the same request. The calling
//! thread is the main one: it runs the search as it would alone, decides
//! the answer and reports the depths it completes. Helpers search the same
//! root at the main thread's depth ([`Team::shared_depth`]) and share its
//! transposition table, so that the main thread finds what they proved;
//! they answer nothing themselves. Each thread keeps its own scratch
//! (killers, histories, stacks).
//!
//! The threads split the work by deferring (the simplified ABDADA of Tom
//! Kerrigan): a thread about to search a move that another thread of the
//! team is searching now puts it after its other moves, and takes it up
//! only when those are done, by which time the other thread's result is
//! usually in the table ([`Team::is_busy`], [`Team::enter`], [`Walk`]).
//!
//! A search with helpers is not reproducible: which thread stores an entry
//! first depends on timing, so the same request may get another move.
//! With one thread nothing here runs.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::thread;

use super::{Limits, StopFlag};

/// What the threads of one search share beside the table: the depth the
/// main thread is searching and the helpers' nodes.
#[derive(Debug, Default)]
pub struct Team {
    helpers: usize,
    depth: AtomicU32,
    helper_nodes: AtomicU64,
    /// The positions some thread is searching now, by key, one per slot
    /// (empty without helpers).
    busy: Box<[AtomicU64]>,
}

/// Slots of the busy table: far more than the nodes deep enough to defer
/// that a few threads search at once.
const BUSY_SLOTS: usize = 1 << 14;

impl Team {
    /// Whether the search has helpers (with none, nothing need be shared).
    pub fn has_helpers(&self) -> bool {
        self.helpers > 0
    }

    /// The main thread starts an iteration `depth` plies deep.
    pub fn start_depth(&self, depth: u32) {
        self.depth.store(depth, Relaxed);
    }

    /// The depth the main thread is searching (0 before it starts).
    pub fn main_depth(&self) -> u32 {
        self.depth.load(Relaxed)
    }

    /// The depth a helper that splits the main thread's work searches
    /// next, after completing `done` plies: the main thread's depth, or a
    /// ply beyond what it completed when it is ahead.
    pub fn shared_depth(&self, done: u32) -> u32 {
        (done + 1).max(self.main_depth())
    }

    /// Whether another thread of the team is searching the position of
    /// `key` (a well-mixed hash of the position, and of the depth where it
    /// matters)
    /// now. Never, without helpers.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        let key = key | 1;
        self.slot(key).is_some_and(|slot| slot.load(Relaxed) == key)
    }

    /// Marks the position of `key` as searched by this thread until the
    /// answer is dropped. Nothing, without helpers.
    #[inline]
    pub fn enter(&self, key: u64) -> Busy<'_> {
        let key = key | 1;
        let slot = self.slot(key);
        if let Some(slot) = slot {
            slot.store(key, Relaxed);
        }
        Busy { slot, key }
    }

    #[inline]
    fn slot(&self, key: u64) -> Option<&AtomicU64> {
        // The high bits, which every key mixes well (see `is_busy`).
        let index = (key >> 40) as usize & (BUSY_SLOTS - 1);
        self.busy.get(index)
    }

    /// A helper counts nodes it searched.
    pub fn add_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Relaxed);
    }

    /// The helpers' nodes so far.
    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Relaxed)
    }
}

/// Runs `main` on the calling thread with `limits.helpers()` helper threads
/// beside it, each running `helper(id, limits, team)` with `id` from 1 and
/// limits of their own (no listener, one thread, stopped as soon as `main`
/// returns); answers what `main` returns and the helpers' nodes. Without
/// helpers, `main` runs alone and nothing is spawned.
pub fn with_helpers<R>(
    limits: &Limits,
    helper: impl Fn(usize, &Limits, &Team) + Sync,
    main: impl FnOnce(&Team) -> R,
) -> (R, u64) {
    let helpers = limits.helpers();
    if helpers == 0 {
        return (main(&Team::default()), 0);
    }
    let team = Team {
        helpers,
        busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        ..Team::default()
    };
    let stop = limits.stop.child();
    let helper_limits = Limits {
        stop: stop.clone(),
        progress: None,
        threads: 1,
        ..limits.clone()
    };
    let answer = thread::scope(|s| {
        // Raised however `main` ends, a panic included, so the scope's
        // join never waits on helpers searching on.
        let _stop = StopOnDrop(stop);
        for id in 1..=helpers {
            let (helper, limits, team) = (&helper, &helper_limits, &team);
            // A helper the system refuses (no thread left) costs only
            // speed: the main thread searches on with the others.
            let _ = thread::Builder::new()
                .name(format!("helper-{id}"))
                .spawn_scoped(s, move || helper(id, limits, team));
        }
        main(&team)
    });
    (answer, team.helper_nodes())
}

/// The order one thread of a team walks the moves of a node in: first
/// every move by its index, except those another thread is searching when
/// it comes to them (never the first one it searches), then the deferred
/// ones. Without a team (one thread, or a node too shallow to share), just
/// every index in turn: nothing is asked or marked.
///
/// A node's loop over its `moves` then reads:
///
/// ```text
/// let mut walk = Walk::new(team, moves.len());
/// while let Some(i) = walk.next() {
///     let child = play(moves[i]);
///     let Some(_busy) = walk.enter(i, || key(child)) else { continue };
///     // search the child while `_busy` marks it
/// }
/// ```
pub struct Walk<'a> {
    team: Option<&'a Team>,
    len: usize,
    next: usize,
    /// The deferred indices (only the first 64 are ever deferred).
    deferred: u64,
    /// Whether the second pass, over the deferred indices, has begun.
    again: bool,
    searched: bool,
}

impl<'a> Walk<'a> {
    /// A walk over `len` moves for one thread of `team`.
    #[inline]
    pub fn new(team: Option<&'a Team>, len: usize) -> Self {
        Self {
            team: team.filter(|team| team.has_helpers()),
            len,
            next: 0,
            deferred: 0,
            again: false,
            searched: false,
        }
    }

    /// The same walk at a node where a move was searched before it (so
    /// that even its first may wait), if `searched`.
    #[inline]
    pub fn after_first(mut self, searched: bool) -> Self {
        self.searched = searched;
        self
    }

    /// Whether move `i` is searched now: `None` defers it (another thread
    /// searches the child of `key()` now); otherwise the mark that the
    /// child is searched by this thread, held while it is.
    #[inline]
    pub fn enter(&mut self, i: usize, key: impl FnOnce() -> u64) -> Option<Busy<'a>> {
        let Some(team) = self.team else {
            return Some(Busy { slot: None, key: 0 });
        };
        let key = key();
        if self.searched && !self.again && i < 64 && team.is_busy(key) {
            self.deferred |= 1 << i;
            return None;
        }
        self.searched = true;
        Some(team.enter(key))
    }
}

impl Iterator for Walk<'_> {
    type Item = usize;

    /// The index of the next move to search.
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.next < self.len {
            self.next += 1;
            return Some(self.next - 1);
        }
        if self.deferred == 0 {
            return None;
        }
        self.again = true;
        let i = self.deferred.trailing_zeros() as usize;
        self.deferred &= self.deferred - 1;
        Some(i)
    }
}

/// A position a thread is searching ([`Team::enter`]): the mark goes when
/// this is dropped, unless another position took its slot meanwhile.
#[must_use]
pub struct Busy<'a> {
    slot: Option<&'a AtomicU64>,
    key: u64,
}

impl Drop for Busy<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            let _ = slot.compare_exchange(self.key, 0, Relaxed, Relaxed);
        }
    }
}

/// Stops the helpers when dropped.
struct StopOnDrop(StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_run_until_the_main_thread_returns_and_count_their_nodes() {
        let limits = Limits::depth(5).with_threads(3);
        let (answer, nodes) = with_helpers(
            &limits,
            |id, limits, team| {
                assert!(limits.progress.is_none() && limits.helpers() == 0);
                while !limits.stop.is_stopped() {
                    std::hint::spin_loop();
                }
                team.add_nodes(id as u64);
            },
            |team| {
                assert!(team.has_helpers());
                team.start_depth(4);
                (
                    team.shared_depth(0),
                    team.shared_depth(3),
                    team.shared_depth(7),
                )
            },
        );
        assert_eq!(answer, (4, 4, 8));
        assert_eq!(nodes, 1 + 2);
        assert!(
            !limits.stop.is_stopped(),
            "the request's own flag stays down"
        );
    }

    #[test]
    fn a_position_is_busy_while_a_thread_searches_it() {
        let limits = Limits::depth(5).with_threads(2);
        let (seen, _) = with_helpers(
            &limits,
            |_, _, _| {},
            |team| {
                let key = 0x1234_5678_9abc_def0;
                let before = team.is_busy(key);
                let busy = team.enter(key);
                let during = team.is_busy(key);
                drop(busy);
                (before, during, team.is_busy(key))
            },
        );
        assert_eq!(seen, (false, true, false));
        let alone = Team::default();
        let _busy = alone.enter(7);
        assert!(!alone.is_busy(7), "without helpers nothing is marked");
    }

    #[test]
    fn a_walk_defers_busy_moves_to_the_end_but_never_the_first() {
        let limits = Limits::depth(5).with_threads(2);
        let (order, _) = with_helpers(
            &limits,
            |_, _, _| {},
            |team| {
                // Another thread searches the children with keys 10 and 30.
                let _other = (team.enter(10 << 40), team.enter(30 << 40));
                let mut walk = Walk::new(Some(team), 4);
                let mut order = Vec::new();
                while let Some(i) = walk.next() {
                    let key = [40, 10, 20, 30][i] << 40;
                    if walk.enter(i, || key).is_some() {
                        order.push(i);
                    }
                }
                order
            },
        );
        assert_eq!(order, [0, 2, 1, 3]);
        let mut alone = Walk::new(None, 3);
        let mut order = Vec::new();
        while let Some(i) = alone.next() {
            assert!(
                alone
                    .enter(i, || unreachable!("no key without a team"))
                    .is_some()
            );
            order.push(i);
        }
        assert_eq!(order, [0, 1, 2]);
    }

    #[test]
    fn one_thread_spawns_nothing() {
        let (answer, nodes) = with_helpers(
            &Limits::depth(5),
            |_, _, _| panic!("no helper"),
            |team| team.has_helpers(),
        );
        assert_eq!((answer, nodes), (false, 0));
    }
}
