//! Lazy SMP: one search run by several threads of the same request. The
//! calling thread is the main one: it runs the search as it would alone,
//! decides the answer and reports the depths it completes. Helpers search
//! the same root at other depths (most a ply deeper than the main thread)
//! and share its transposition table, so that the main thread finds what
//! they proved; they answer nothing themselves. Each thread keeps its own
//! scratch (killers, histories, stacks).
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
}

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

    /// The depth helper `id` (from 1) searches next, after completing
    /// `done` plies: most go a ply beyond the main thread, every second
    /// one two plies, so they fill the table ahead of it.
    pub fn helper_depth(&self, id: usize, done: u32) -> u32 {
        let ahead = 1 + (id as u32 + 1) % 2;
        (done + 1).max(self.main_depth() + ahead)
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
                    team.helper_depth(1, 0),
                    team.helper_depth(2, 0),
                    team.helper_depth(1, 7),
                )
            },
        );
        assert_eq!(answer, (5, 6, 8));
        assert_eq!(nodes, 1 + 2);
        assert!(
            !limits.stop.is_stopped(),
            "the request's own flag stays down"
        );
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
