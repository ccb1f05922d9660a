//! The bounded pool that runs searches off the async runtime.
//!
//! A fixed set of threads, each owning a [`Workspace`] (transposition
//! tables within one byte budget) that lives across requests. In front sits a semaphore with room
//! for every worker plus the queue: when it is full, [`Pool::run`] fails at
//! once with [`PoolError::Overloaded`] rather than letting a queue grow.
//!
//! Workers nobody needs may ponder ([`Pool::start_ponder`]): such work takes
//! no room from requests, starts only on an idle worker, and is stopped the
//! moment a request is admitted, so a request never waits behind it for
//! more than the few milliseconds a search takes to see its stop flag.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use tokio::sync::{Semaphore, oneshot};

use crate::search::{StopFlag, Workspace};

type Job = Box<dyn FnOnce(&mut Workspace) + Send>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("every worker is busy and the queue is full")]
    Overloaded,
    #[error("the service is shutting down")]
    ShuttingDown,
    #[error("the search failed unexpectedly")]
    Failed,
    #[error("no worker answered within the time a request may wait")]
    TimedOut,
}

/// A job admitted to the pool. Dropping it before the answer stops the
/// job (its client went away).
pub struct Running<T> {
    rx: oneshot::Receiver<T>,
    guard: StopOnDrop,
    /// How long [`Running::answer`] waits (see [`Pool::limit_waits`]).
    limit: Option<Duration>,
}

impl<T> Running<T> {
    /// Waits for the job's answer; a job that has not answered within the
    /// pool's wait limit is stopped and answers [`PoolError::TimedOut`].
    pub async fn answer(mut self) -> Result<T, PoolError> {
        let answer = match self.limit {
            Some(limit) => match tokio::time::timeout(limit, &mut self.rx).await {
                Ok(received) => received.map_err(|_| PoolError::Failed),
                Err(_) => Err(PoolError::TimedOut),
            },
            None => (&mut self.rx).await.map_err(|_| PoolError::Failed),
        };
        // Dropping the guard stops a job that timed out.
        self.guard.answered = true;
        answer
    }
}

/// A handle to the pool; clones share it.
#[derive(Clone)]
pub struct Pool {
    inner: Arc<Inner>,
}

struct Inner {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    slots: Arc<Semaphore>,
    capacity: usize,
    workers: usize,
    /// Each worker's table budget, in bytes.
    table_bytes: usize,
    busy: AtomicUsize,
    /// Workers that have made their tables and wait for jobs.
    prepared: Arc<AtomicUsize>,
    /// Raised at shutdown: every running search sees it.
    shutdown: StopFlag,
    /// Pondering work running or waiting: stopped when a request comes.
    pondering: Mutex<Vec<StopFlag>>,
    /// Pondering jobs not yet finished.
    ponder_jobs: Arc<AtomicUsize>,
    /// How long a request waits for its answer, in milliseconds; 0 for
    /// as long as it takes.
    wait_limit_ms: AtomicU64,
}

/// Raises the job's stop flag when the waiting request goes away, and
/// counts the searches whose client left before the answer.
struct StopOnDrop {
    stop: StopFlag,
    answered: bool,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.stop();
        if !self.answered {
            metrics::counter!("gameai_searches_cancelled_total", "reason" => "client_gone")
                .increment(1);
        }
    }
}

impl Pool {
    /// Starts `workers` threads, each with tables of at most `table_bytes`
    /// in all, and room for `queue` searches waiting.
    pub fn new(workers: usize, queue: usize, table_bytes: usize) -> Self {
        Self::with_prepare(workers, queue, table_bytes, |_| {})
    }

    /// A pool whose workers each run `prepare` on their workspace when they
    /// start (the engines' tables), so that no search pays for it inside
    /// its time budget.
    pub fn with_prepare(
        workers: usize,
        queue: usize,
        table_bytes: usize,
        prepare: fn(&mut Workspace),
    ) -> Self {
        let workers = workers.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let inner = Arc::new(Inner {
            jobs: Mutex::new(Some(tx)),
            slots: Arc::new(Semaphore::new(workers + queue)),
            capacity: workers + queue,
            workers,
            table_bytes,
            busy: AtomicUsize::new(0),
            prepared: Arc::new(AtomicUsize::new(0)),
            shutdown: StopFlag::new(),
            pondering: Mutex::default(),
            ponder_jobs: Arc::default(),
            wait_limit_ms: AtomicU64::new(0),
        });
        for i in 0..workers {
            let rx = Arc::clone(&rx);
            let prepared = Arc::clone(&inner.prepared);
            thread::Builder::new()
                .name(format!("search-{i}"))
                .spawn(move || {
                    let mut workspace = Workspace::new(table_bytes);
                    // Made now, so the first search does not fill it in
                    // its own time budget.
                    workspace.tt();
                    prepare(&mut workspace);
                    prepared.fetch_add(1, Ordering::Release);
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match rx.lock().map(|r| r.recv()) {
                            Ok(Ok(job)) => job,
                            _ => break,
                        };
                        job(&mut workspace);
                    }
                })
                .expect("spawning a search worker");
        }
        Self { inner }
    }

    pub fn workers(&self) -> usize {
        self.inner.workers
    }

    /// Whether every worker has made its tables (readiness waits for it).
    pub fn prepared(&self) -> bool {
        self.inner.prepared.load(Ordering::Acquire) == self.inner.workers
    }

    /// Blocks until every worker has made its tables.
    pub fn wait_prepared(&self) {
        while !self.prepared() {
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Each worker's whole table budget (`GAMEAI_TT_MB`), in bytes.
    pub fn table_bytes(&self) -> usize {
        self.inner.table_bytes
    }

    /// Workers running a search right now.
    pub fn busy(&self) -> usize {
        self.inner.busy.load(Ordering::Relaxed)
    }

    /// Searches admitted and not yet finished (running or waiting).
    pub fn in_flight(&self) -> usize {
        self.inner.capacity - self.inner.slots.available_permits()
    }

    /// Searches waiting for a worker.
    pub fn queued(&self) -> usize {
        self.in_flight().saturating_sub(self.busy())
    }

    /// Bounds how long a request waits for its answer, queue included:
    /// past `limit` the search is stopped and the request answered
    /// [`PoolError::TimedOut`]. Pondering is never limited.
    pub fn limit_waits(&self, limit: Duration) {
        let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX).max(1);
        self.inner.wait_limit_ms.store(ms, Ordering::Relaxed);
    }

    /// Asks every running search to stop (at the end of a shutdown grace).
    pub fn stop_all(&self) {
        self.inner.shutdown.stop();
    }

    /// Runs `task` on a worker and waits for its answer. The task gets the
    /// worker's workspace and a stop flag that is raised if this future is
    /// dropped (the client went away) or the pool stops everything.
    pub async fn run<T, F>(&self, task: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Workspace, &StopFlag) -> T + Send + 'static,
    {
        self.start(task)?.answer().await
    }

    /// Admits `task` at once (or refuses it: overloaded, shutting down)
    /// and hands back the running job; dropping it stops the task.
    pub fn start<T, F>(&self, task: F) -> Result<Running<T>, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Workspace, &StopFlag) -> T + Send + 'static,
    {
        let permit = Arc::clone(&self.inner.slots)
            .try_acquire_owned()
            .map_err(|_| PoolError::Overloaded)?;
        self.stop_pondering();
        let stop = self.inner.shutdown.child();
        let mut guard = StopOnDrop {
            stop: stop.clone(),
            answered: false,
        };
        let (tx, rx) = oneshot::channel();
        let inner = Arc::clone(&self.inner);
        let job: Job = Box::new(move |ws| {
            if stop.is_stopped() {
                return; // Its client left while it waited.
            }
            inner.busy.fetch_add(1, Ordering::Relaxed);
            let outcome = catch_unwind(AssertUnwindSafe(|| task(ws, &stop)));
            inner.busy.fetch_sub(1, Ordering::Relaxed);
            // Free the slot before answering, so a client that sends its next
            // request the moment this answer arrives finds room.
            drop(permit);
            match outcome {
                Ok(value) => {
                    let _ = tx.send(value);
                }
                Err(_) => tracing::error!("a search panicked; its worker carries on"),
            }
        });
        let sent = match self.inner.jobs.lock() {
            Ok(guard) => guard.as_ref().is_some_and(|jobs| jobs.send(job).is_ok()),
            Err(_) => false,
        };
        if !sent {
            guard.answered = true;
            return Err(PoolError::ShuttingDown);
        }
        let limit = match self.inner.wait_limit_ms.load(Ordering::Relaxed) {
            0 => None,
            ms => Some(Duration::from_millis(ms)),
        };
        Ok(Running { rx, guard, limit })
    }

    /// A stop flag for pondering work: raised when a request is admitted
    /// or the pool stops everything.
    pub fn ponder_flag(&self) -> StopFlag {
        let flag = self.inner.shutdown.child();
        if let Ok(mut pondering) = self.inner.pondering.lock() {
            pondering.retain(|f| !f.is_stopped());
            pondering.push(flag.clone());
        }
        flag
    }

    /// Runs `task` on a worker nobody needs, with `stop` (from
    /// [`Pool::ponder_flag`]) as its stop flag; `None` when every worker
    /// has work, requests are waiting or `stop` is already raised.
    pub fn start_ponder<T, F>(&self, stop: &StopFlag, task: F) -> Option<Running<T>>
    where
        T: Send + 'static,
        F: FnOnce(&mut Workspace, &StopFlag) -> T + Send + 'static,
    {
        let jobs = Arc::clone(&self.inner.ponder_jobs);
        if stop.is_stopped() || self.in_flight() + jobs.load(Ordering::Relaxed) >= self.workers() {
            return None;
        }
        jobs.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let stop = stop.clone();
        let guard = StopOnDrop {
            stop: stop.clone(),
            // Nobody waits on pondering: its end is never a client gone.
            answered: true,
        };
        let job: Job = Box::new(move |ws| {
            if !stop.is_stopped() {
                match catch_unwind(AssertUnwindSafe(|| task(ws, &stop))) {
                    Ok(value) => {
                        let _ = tx.send(value);
                    }
                    Err(_) => tracing::error!("a pondering search panicked; its worker carries on"),
                }
            }
            jobs.fetch_sub(1, Ordering::Relaxed);
        });
        let sent = match self.inner.jobs.lock() {
            Ok(jobs) => jobs.as_ref().is_some_and(|jobs| jobs.send(job).is_ok()),
            Err(_) => false,
        };
        // A job the channel refused was dropped unrun: count it out.
        if !sent {
            self.inner.ponder_jobs.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        Some(Running {
            rx,
            guard,
            limit: None,
        })
    }

    /// Stops all pondering work.
    fn stop_pondering(&self) {
        if let Ok(mut pondering) = self.inner.pondering.lock() {
            for flag in pondering.drain(..) {
                flag.stop();
            }
        }
    }

    /// Stops accepting work; workers exit once the queue drains.
    pub fn close(&self) {
        if let Ok(mut jobs) = self.inner.jobs.lock() {
            jobs.take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_work_and_sheds_beyond_capacity() {
        let pool = Pool::new(1, 0, 1 << 16);
        assert_eq!(pool.run(|_, _| 7).await, Ok(7));

        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let running = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(move |_, _| hold_rx.recv().is_ok()).await }
        });
        while pool.busy() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(pool.run(|_, _| ()).await, Err(PoolError::Overloaded));
        hold_tx.send(()).unwrap();
        assert_eq!(running.await.unwrap(), Ok(true));
    }

    #[tokio::test]
    async fn a_dropped_request_stops_its_search() {
        let pool = Pool::new(1, 0, 1 << 16);
        let (seen_tx, seen_rx) = std::sync::mpsc::channel();
        let search = pool.run(move |_, stop| {
            while !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = seen_tx.send(());
        });
        // The client gives up: the request's future is dropped mid-search.
        let gave_up = tokio::time::timeout(Duration::from_millis(50), search).await;
        assert!(gave_up.is_err(), "{gave_up:?}");
        seen_rx
            .recv_timeout(Duration::from_secs(2))
            .expect("the search saw its stop flag");
        while pool.in_flight() > 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(pool.run(|_, _| 3).await, Ok(3), "the worker is free again");
    }

    #[tokio::test]
    async fn a_search_past_the_wait_limit_is_stopped_and_answers_timed_out() {
        let pool = Pool::new(1, 1, 1 << 16);
        pool.limit_waits(Duration::from_millis(50));
        let (seen_tx, seen_rx) = std::sync::mpsc::channel();
        let search = pool.run(move |_, stop| {
            while !stop.is_stopped() {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = seen_tx.send(());
        });
        assert_eq!(search.await, Err(PoolError::TimedOut));
        seen_rx
            .recv_timeout(Duration::from_secs(2))
            .expect("the search saw its stop flag");
        assert_eq!(
            pool.run(|_, _| 4).await,
            Ok(4),
            "quick searches still answer"
        );
    }

    #[tokio::test]
    async fn a_request_stops_pondering_at_once() {
        let pool = Pool::new(1, 0, 1 << 16);
        let flag = pool.ponder_flag();
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let pondering = pool
            .start_ponder(&flag, move |_, stop| {
                let _ = started_tx.send(());
                while !stop.is_stopped() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                "stopped"
            })
            .expect("an idle worker ponders");
        started_rx.recv_timeout(Duration::from_secs(2)).unwrap();
        let other = pool.ponder_flag();
        assert!(
            pool.start_ponder(&other, |_, _| ()).is_none(),
            "the only worker is pondering already"
        );
        let started = std::time::Instant::now();
        assert_eq!(pool.run(|_, _| 5).await, Ok(5), "the request is served");
        assert!(started.elapsed() < Duration::from_millis(500));
        assert_eq!(pondering.answer().await, Ok("stopped"));
        assert!(flag.is_stopped() && other.is_stopped());
    }

    #[tokio::test]
    async fn a_panicking_search_fails_alone() {
        let pool = Pool::new(1, 0, 1 << 16);
        let failed = pool.run(|_, _| -> u8 { panic!("boom") }).await;
        assert_eq!(failed, Err(PoolError::Failed));
        assert_eq!(pool.run(|_, _| 1).await, Ok(1));
    }
}
