//! The bounded pool that runs searches off the async runtime.
//!
//! A fixed set of threads, each owning a [`Workspace`] (transposition
//! tables within one byte budget) that lives across requests. Everything
//! counts in workers: a search may ask for several threads (it then runs
//! its helpers itself, and holds that many workers while it runs), and
//! admission, the queue and the metrics count the workers each search
//! holds. In front sits a semaphore with room for every worker plus the
//! queue: when it is full, [`Pool::start`] fails at once with
//! [`PoolError::Overloaded`] rather than letting a queue grow. The queue is
//! first in, first out: a search waits until as many workers as it asks for
//! are free, and the ones behind it wait too, so at most as many search
//! threads run as there are workers. A waiting search whose client goes
//! away leaves the queue at once and frees its room.
//!
//! Workers nobody needs may ponder ([`Pool::start_ponder`]): such work takes
//! no room from requests, starts only on an idle worker, and is stopped the
//! moment a request is admitted, so a request never waits behind it for
//! more than the few milliseconds a search takes to see its stop flag.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

use crate::games::GameKind;
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
/// job (its client went away), or takes it out of the queue if it has
/// not started.
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

/// A job waiting for workers.
struct Queued {
    id: u64,
    /// Workers it holds while it runs.
    workers: usize,
    job: Job,
}

/// The jobs waiting, and the workers free to take them.
struct Queue {
    jobs: VecDeque<Queued>,
    free: usize,
    next_id: u64,
    closed: bool,
}

struct Inner {
    queue: Mutex<Queue>,
    /// Signalled when a job arrives, workers come free or the pool closes.
    changed: Condvar,
    slots: Arc<Semaphore>,
    capacity: usize,
    workers: usize,
    /// Each worker's table budget, in bytes.
    table_bytes: usize,
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

impl Inner {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        // A job runs outside the lock, so no panic can poison it; recover
        // the data all the same rather than stop every worker.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `job` for `workers` workers; `None` once the pool is closed.
    fn push(&self, workers: usize, job: Job) -> Option<u64> {
        let mut queue = self.queue();
        if queue.closed {
            return None;
        }
        let id = queue.next_id;
        queue.next_id += 1;
        queue.jobs.push_back(Queued { id, workers, job });
        drop(queue);
        self.changed.notify_all();
        Some(id)
    }

    /// Takes job `id` out of the queue if it has not started; whether it
    /// was there.
    fn withdraw(&self, id: u64) -> bool {
        let mut queue = self.queue();
        let before = queue.jobs.len();
        queue.jobs.retain(|q| q.id != id);
        let withdrawn = queue.jobs.len() < before;
        drop(queue);
        if withdrawn {
            // The job behind it may fit the free workers now.
            self.changed.notify_all();
        }
        withdrawn
    }

    /// A worker's loop: the next job once enough workers are free for it.
    fn work(&self, ws: &mut Workspace) {
        loop {
            let mut queue = self.queue();
            let taken = loop {
                match queue.jobs.front() {
                    Some(front) if front.workers <= queue.free => {
                        let taken = queue.jobs.pop_front().expect("a front job");
                        queue.free -= taken.workers;
                        break taken;
                    }
                    None if queue.closed => return,
                    _ => {
                        queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
                    }
                }
            };
            drop(queue);
            (taken.job)(ws);
            self.queue().free += taken.workers;
            self.changed.notify_all();
        }
    }
}

/// Raises the job's stop flag when the waiting request goes away (or takes
/// the job out of the queue), and counts the searches whose client left
/// before the answer.
struct StopOnDrop {
    stop: StopFlag,
    answered: bool,
    /// The job in the queue, to take out if it has not started.
    queued: Option<(Arc<Inner>, u64)>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.stop.stop();
        if let Some((inner, id)) = self.queued.take() {
            inner.withdraw(id);
        }
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
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                free: workers,
                next_id: 0,
                closed: false,
            }),
            changed: Condvar::new(),
            slots: Arc::new(Semaphore::new(workers + queue)),
            capacity: workers + queue,
            workers,
            table_bytes,
            prepared: Arc::new(AtomicUsize::new(0)),
            shutdown: StopFlag::new(),
            pondering: Mutex::default(),
            ponder_jobs: Arc::default(),
            wait_limit_ms: AtomicU64::new(0),
        });
        for i in 0..workers {
            let inner = Arc::clone(&inner);
            thread::Builder::new()
                .name(format!("search-{i}"))
                .spawn(move || {
                    let mut workspace = GameKind::workspace(table_bytes);
                    // Made now, so the first search does not fill it in
                    // its own time budget.
                    workspace.tt();
                    prepare(&mut workspace);
                    inner.prepared.fetch_add(1, Ordering::Release);
                    inner.work(&mut workspace);
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

    /// Workers running a search (or pondering) right now.
    pub fn busy(&self) -> usize {
        self.inner.workers - self.inner.queue().free
    }

    /// Workers held by searches admitted and not yet finished, running or
    /// waiting.
    pub fn in_flight(&self) -> usize {
        self.inner.capacity - self.inner.slots.available_permits()
    }

    /// Workers that searches waiting in the queue will hold.
    pub fn queued(&self) -> usize {
        self.inner.queue().jobs.iter().map(|q| q.workers).sum()
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
        self.start(1, task)?.answer().await
    }

    /// Admits `task`, holding `workers` workers while it runs, at once (or
    /// refuses it: overloaded, shutting down) and hands back the running
    /// job; dropping it stops the task or takes it out of the queue. The
    /// task runs on one of the workers and runs its helpers on threads of
    /// its own: the others only stay free for it.
    pub fn start<T, F>(&self, workers: usize, task: F) -> Result<Running<T>, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Workspace, &StopFlag) -> T + Send + 'static,
    {
        let workers = workers.clamp(1, self.inner.workers);
        let permit = Arc::clone(&self.inner.slots)
            .try_acquire_many_owned(workers as u32)
            .map_err(|_| PoolError::Overloaded)?;
        self.stop_pondering();
        let stop = self.inner.shutdown.child();
        let mut guard = StopOnDrop {
            stop: stop.clone(),
            answered: false,
            queued: None,
        };
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move |ws| run_job(permit, ws, &stop, task, tx));
        match self.inner.push(workers, job) {
            Some(id) => guard.queued = Some((Arc::clone(&self.inner), id)),
            None => {
                guard.answered = true;
                return Err(PoolError::ShuttingDown);
            }
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
            queued: None,
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
        if self.inner.push(1, job).is_none() {
            // The closed pool dropped the job unrun: count it out.
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
        self.inner.queue().closed = true;
        self.inner.changed.notify_all();
    }
}

/// Runs an admitted task on its worker: it answers through `tx`, and its
/// room in the pool is freed before the answer goes, so a client that
/// sends its next request the moment this one is answered finds room.
fn run_job<T, F>(
    permit: OwnedSemaphorePermit,
    ws: &mut Workspace,
    stop: &StopFlag,
    task: F,
    tx: oneshot::Sender<T>,
) where
    F: FnOnce(&mut Workspace, &StopFlag) -> T,
{
    if stop.is_stopped() {
        return; // Its client left as it was taken from the queue.
    }
    let outcome = catch_unwind(AssertUnwindSafe(|| task(ws, stop)));
    drop(permit);
    match outcome {
        Ok(value) => {
            let _ = tx.send(value);
        }
        Err(_) => tracing::error!("a search panicked; its worker carries on"),
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
        // Admitted, not merely busy: the worker may still count itself
        // busy with the first task after its answer came.
        while pool.in_flight() == 0 {
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

    /// Holds the pool's only worker until the returned sender is used.
    async fn hold(pool: &Pool) -> (std::sync::mpsc::Sender<()>, tokio::task::JoinHandle<()>) {
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let running = tokio::spawn({
            let pool = pool.clone();
            async move {
                let _ = pool.run(move |_, _| hold_rx.recv()).await;
            }
        });
        // Admitted and taken from the queue by the worker.
        while pool.in_flight() == 0 || pool.queued() > 0 || pool.busy() == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        (hold_tx, running)
    }

    #[tokio::test]
    async fn a_waiting_search_whose_client_leaves_frees_its_room_at_once() {
        let pool = Pool::new(1, 2, 1 << 16);
        let (release, running) = hold(&pool).await;
        let waiting: Vec<_> = (0..2)
            .map(|_| pool.start(1, |_, _| ()).expect("room in the queue"))
            .collect();
        assert_eq!(pool.queued(), 2);
        assert!(matches!(
            pool.start(1, |_, _| ()),
            Err(PoolError::Overloaded)
        ));
        drop(waiting);
        assert_eq!(pool.queued(), 0);
        let next = pool.start(1, |_, _| 9).expect("the room is free again");
        release.send(()).unwrap();
        assert_eq!(next.answer().await, Ok(9));
        running.await.unwrap();
    }

    #[tokio::test]
    async fn a_search_holds_as_many_workers_as_it_asks_for() {
        let pool = Pool::new(2, 4, 1 << 16);
        let (release, release_rx) = std::sync::mpsc::channel::<()>();
        let team = pool
            .start(2, move |_, _| {
                let _ = release_rx.recv();
                "team"
            })
            .unwrap();
        while pool.busy() < 2 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let (seen_tx, seen_rx) = std::sync::mpsc::channel::<()>();
        let single = pool
            .start(1, move |_, _| {
                let _ = seen_tx.send(());
                "single"
            })
            .unwrap();
        assert_eq!(pool.in_flight(), 3);
        assert_eq!(pool.queued(), 1);
        assert!(
            seen_rx.recv_timeout(Duration::from_millis(100)).is_err(),
            "no third thread: the single search waits for a free worker"
        );
        release.send(()).unwrap();
        assert_eq!(team.answer().await, Ok("team"));
        assert_eq!(single.answer().await, Ok("single"));
        // More workers than the pool has: all of them, never a deadlock.
        assert_eq!(pool.start(5, |_, _| 1).unwrap().answer().await, Ok(1));
    }
}
