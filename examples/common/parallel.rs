//! Work shared out over threads, for the examples that build data.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `work` on every item, one thread per state in `states` (each
/// thread takes the next item not yet taken and keeps its own state), and
/// returns the results in the items' order: the same whatever the number
/// of threads and however the items were shared out.
pub fn map_in_order<T: Sync, S: Send, R: Send>(
    items: &[T],
    states: &mut [S],
    work: impl Fn(&mut S, usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = states
            .iter_mut()
            .map(|state| {
                let (next, work) = (&next, &work);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, work(state, i, item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker panicked"))
            .collect()
    });
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// One state per core.
pub fn per_core<S>(make: impl Fn() -> S) -> Vec<S> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    (0..threads).map(|_| make()).collect()
}
