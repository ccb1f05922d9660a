//! The in-memory session store: a moka cache capped in count, expiring
//! sessions idle for the TTL, evicting the least recently used when full.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use moka::future::Cache;
use moka::notification::RemovalCause;
use moka::ops::compute::Op;
use moka::policy::EvictionPolicy;

use super::{Session, SessionId, SessionStats, Store, StoreError};

/// Sessions in this process's memory; clones share them.
#[derive(Clone)]
pub struct MemoryStore {
    cache: Cache<SessionId, Arc<Session>>,
    counts: Arc<Counts>,
}

#[derive(Default)]
struct Counts {
    created: AtomicU64,
    expired: AtomicU64,
    evicted: AtomicU64,
}

impl MemoryStore {
    pub fn new(max_sessions: u64, ttl: Duration) -> Self {
        let counts = Arc::new(Counts::default());
        let listener = Arc::clone(&counts);
        let cache = Cache::builder()
            .max_capacity(max_sessions)
            .time_to_idle(ttl)
            .eviction_policy(EvictionPolicy::lru())
            .eviction_listener(move |_, _, cause| match cause {
                RemovalCause::Expired => {
                    listener.expired.fetch_add(1, Ordering::Relaxed);
                }
                RemovalCause::Size => {
                    listener.evicted.fetch_add(1, Ordering::Relaxed);
                }
                RemovalCause::Explicit | RemovalCause::Replaced => {}
            })
            .build();
        Self { cache, counts }
    }

    /// Counts for `/metrics`.
    pub async fn stats(&self) -> SessionStats {
        SessionStats {
            live: Some(self.count().await),
            created: self.counts.created.load(Ordering::Relaxed),
            expired: Some(self.counts.expired.load(Ordering::Relaxed)),
            evicted: Some(self.counts.evicted.load(Ordering::Relaxed)),
        }
    }

    /// Sessions held now (after pending evictions are applied).
    pub async fn count(&self) -> u64 {
        self.cache.run_pending_tasks().await;
        self.cache.entry_count()
    }
}

impl Store for MemoryStore {
    async fn create(&self, session: &Session) -> Result<(), StoreError> {
        self.cache
            .insert(session.id, Arc::new(session.clone()))
            .await;
        self.counts.created.fetch_add(1, Ordering::Relaxed);
        // Apply the cap now rather than on the cache's next housekeeping.
        self.cache.run_pending_tasks().await;
        Ok(())
    }

    async fn get(&self, id: &SessionId) -> Result<Session, StoreError> {
        self.cache
            .get(id)
            .await
            .map(|s| Session::clone(&s))
            .ok_or(StoreError::NotFound)
    }

    async fn replace(&self, session: &Session, previous: u64) -> Result<(), StoreError> {
        let mut outcome = Err(StoreError::NotFound);
        // The compute closure runs under the cache's lock for this key, so
        // the version check and the write are one step.
        self.cache
            .entry(session.id)
            .and_compute_with(|entry| {
                let op = match entry {
                    None => Op::Nop,
                    Some(entry) if entry.value().version != previous => {
                        outcome = Err(StoreError::Conflict {
                            current: entry.value().version,
                        });
                        Op::Nop
                    }
                    Some(_) => {
                        outcome = Ok(());
                        Op::Put(Arc::new(session.clone()))
                    }
                };
                std::future::ready(op)
            })
            .await;
        outcome
    }

    async fn delete(&self, id: &SessionId) -> Result<(), StoreError> {
        self.cache
            .remove(id)
            .await
            .map(|_| ())
            .ok_or(StoreError::NotFound)
    }

    async fn check(&self) -> Result<(), StoreError> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sessions::sample;

    #[tokio::test]
    async fn replace_applies_only_on_the_expected_version() {
        let store = MemoryStore::new(10, Duration::from_secs(60));
        let mut s = sample();
        store.create(&s).await.unwrap();
        s.version = 2;
        store.replace(&s, 1).await.unwrap();
        s.version = 3;
        assert_eq!(
            store.replace(&s, 1).await,
            Err(StoreError::Conflict { current: 2 })
        );
        assert_eq!(store.get(&s.id).await.unwrap().version, 2);
        store.delete(&s.id).await.unwrap();
        assert_eq!(store.replace(&s, 2).await, Err(StoreError::NotFound));
    }

    #[tokio::test]
    async fn the_count_is_capped() {
        let store = MemoryStore::new(5, Duration::from_secs(60));
        let mut last = None;
        for _ in 0..20 {
            let s = sample();
            store.create(&s).await.unwrap();
            last = Some(s.id);
        }
        assert!(store.count().await <= 5);
        assert!(store.get(&last.unwrap()).await.is_ok());
        let stats = store.stats().await;
        assert_eq!(stats.created, 20);
        assert_eq!(stats.evicted, Some(20 - stats.live.unwrap()));
    }

    #[tokio::test]
    async fn idle_sessions_expire_and_are_counted() {
        let store = MemoryStore::new(5, Duration::from_millis(50));
        let s = sample();
        store.create(&s).await.unwrap();
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert_eq!(store.get(&s.id).await, Err(StoreError::NotFound));
        let stats = store.stats().await;
        assert_eq!((stats.live, stats.expired), (Some(0), Some(1)));
    }
}
