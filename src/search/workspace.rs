//! A worker's reusable search memory.

use std::any::{Any, TypeId};
use std::collections::HashMap;

use super::TranspositionTable;

/// Memory a worker keeps between searches: the shared transposition table,
/// plus any tables a game's own solver needs, created on first use.
pub struct Workspace {
    pub tt: TranspositionTable,
    extras: HashMap<TypeId, Box<dyn Any + Send>>,
}

impl Workspace {
    pub fn new(tt_bytes: usize) -> Self {
        Self {
            tt: TranspositionTable::with_bytes(tt_bytes),
            extras: HashMap::new(),
        }
    }

    /// The worker's instance of `T`, created with `Default` the first time.
    pub fn extra<T: Default + Send + 'static>(&mut self) -> &mut T {
        self.extras
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::default()))
            .downcast_mut()
            .expect("the map is keyed by type")
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Self::new(16 << 20)
    }
}
