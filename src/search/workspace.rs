//! A worker's reusable search memory, within one byte budget.
//!
//! The budget (`GAMEAI_TT_MB`) is the worker's whole table memory. It is
//! split in [`Workspace::PARTS`] equal parts: one for the generic core's
//! table, one for each engine that brings tables of its own. Every part is
//! allocated on first use; the service's pool has each engine make its
//! part when a worker starts, because making one takes about a millisecond
//! per MiB, which a search would otherwise pay inside its deadline.

use std::any::{Any, TypeId};
use std::collections::HashMap;

use super::TranspositionTable;

/// Tables an engine keeps on a worker between searches.
pub trait EngineTables: Send + 'static {
    /// Tables within `bytes` (one part of the worker's budget).
    fn with_bytes(bytes: usize) -> Self;
}

/// Memory a worker keeps between searches: the generic core's table, plus
/// the tables an engine's own search needs, each created on first use.
pub struct Workspace {
    budget: usize,
    tt: Option<TranspositionTable>,
    extras: HashMap<TypeId, Box<dyn Any + Send>>,
}

impl Workspace {
    /// The budget when none is given: the part of each engine then holds
    /// the tables the engines were tuned with (32 MiB each).
    pub const DEFAULT_BYTES: usize = 128 << 20;
    /// Equal parts of the budget: the generic table, the Connect Four
    /// solver, gomoku's engine and othello's (midgame and endgame).
    pub const PARTS: usize = 4;

    /// A workspace whose tables together stay within `budget` bytes.
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            tt: None,
            extras: HashMap::new(),
        }
    }

    /// The whole table budget, in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// One part of the budget, in bytes.
    pub fn part(&self) -> usize {
        part_of(self.budget)
    }

    /// The generic core's table, created the first time.
    pub fn tt(&mut self) -> &mut TranspositionTable {
        let bytes = self.part();
        self.tt
            .get_or_insert_with(|| TranspositionTable::with_bytes(bytes))
    }

    /// The worker's instance of an engine's tables, created within one
    /// part of the budget the first time.
    pub fn extra<T: EngineTables>(&mut self) -> &mut T {
        let bytes = self.part();
        self.extras
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(T::with_bytes(bytes)))
            .downcast_mut()
            .expect("the map is keyed by type")
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Self::new(Self::DEFAULT_BYTES)
    }
}

/// One part of a budget of `budget` bytes.
pub const fn part_of(budget: usize) -> usize {
    budget / Workspace::PARTS
}

/// One part of the default budget: what an engine's tables take when they
/// are made outside a workspace (tests, benches).
pub const DEFAULT_PART: usize = part_of(Workspace::DEFAULT_BYTES);
