//! A worker's reusable search memory, within one byte budget.
//!
//! The budget (`GAMEAI_TT_MB`) is the worker's whole table memory. It is
//! split in equal parts among the kinds of table the games declare they
//! need (the registry in `games` lists them): the generic core's table,
//! and each table an engine brings of its own. A kind nobody declared has
//! no part, and asking for it is a bug the first search finds, so a new
//! engine's table cannot quietly take memory beyond the budget. Every part
//! is allocated on first use; the service's pool has each engine make its
//! part when a worker starts, because making one takes about a
//! millisecond per MiB, which a search would otherwise pay inside its
//! deadline.

use std::any::{Any, TypeId};
use std::collections::HashMap;

use super::TranspositionTable;

/// Tables an engine keeps on a worker between searches.
pub trait EngineTables: Send + 'static {
    /// Tables within `bytes` (one part of the worker's budget).
    fn with_bytes(bytes: usize) -> Self;
}

/// A kind of table a worker keeps: what a game declares it needs.
#[derive(Clone, Copy, Debug)]
pub struct TableKind {
    id: TypeId,
    name: &'static str,
}

impl TableKind {
    pub fn of<T: EngineTables>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
        }
    }

    /// The Rust type of the tables, for messages.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl PartialEq for TableKind {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for TableKind {}

/// The size of one part when tables are made outside a workspace (tests,
/// benches), and of each part of the service's default budget: the sizes
/// the engines were tuned with.
pub const DEFAULT_PART: usize = 32 << 20;

/// Memory a worker keeps between searches: one table of each declared
/// kind, each created on first use within its part of the budget.
pub struct Workspace {
    budget: usize,
    kinds: Vec<TableKind>,
    tables: HashMap<TypeId, Box<dyn Any + Send>>,
}

impl Workspace {
    /// A workspace whose tables, one of each of `kinds`, together stay
    /// within `budget` bytes.
    ///
    /// # Panics
    /// If `kinds` is empty.
    pub fn new(budget: usize, kinds: &[TableKind]) -> Self {
        assert!(!kinds.is_empty(), "a workspace holds at least one table");
        Self {
            budget,
            kinds: kinds.to_vec(),
            tables: HashMap::new(),
        }
    }

    /// The whole table budget, in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// How many parts the budget is split in: the kinds of table.
    pub fn parts(&self) -> usize {
        self.kinds.len()
    }

    /// One part of the budget, in bytes.
    pub fn part(&self) -> usize {
        self.budget / self.kinds.len()
    }

    /// The generic core's table, created the first time.
    pub fn tt(&mut self) -> &mut TranspositionTable {
        self.extra()
    }

    /// The worker's instance of an engine's tables, created within one
    /// part of the budget the first time.
    ///
    /// # Panics
    /// If no game declared `T` among the tables it needs: it would take
    /// memory beyond the budget.
    pub fn extra<T: EngineTables>(&mut self) -> &mut T {
        let bytes = self.part();
        let kind = TableKind::of::<T>();
        assert!(
            self.kinds.contains(&kind),
            "{} is not among the tables the games declare ({:?})",
            kind.name,
            self.kinds.iter().map(TableKind::name).collect::<Vec<_>>()
        );
        self.tables
            .entry(kind.id)
            .or_insert_with(|| Box::new(T::with_bytes(bytes)))
            .downcast_mut()
            .expect("the map is keyed by type")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Small(usize);

    impl EngineTables for Small {
        fn with_bytes(bytes: usize) -> Self {
            Self(bytes)
        }
    }

    #[test]
    fn the_budget_is_split_among_the_declared_kinds() {
        let kinds = [
            TableKind::of::<TranspositionTable>(),
            TableKind::of::<Small>(),
        ];
        let mut ws = Workspace::new(8 << 20, &kinds);
        assert_eq!((ws.parts(), ws.part()), (2, 4 << 20));
        assert_eq!(ws.extra::<Small>().0, 4 << 20);
        assert!(ws.tt().bytes() <= 4 << 20);
    }

    #[test]
    #[should_panic(expected = "not among the tables")]
    fn an_undeclared_table_is_refused() {
        let mut ws = Workspace::new(8 << 20, &[TableKind::of::<TranspositionTable>()]);
        ws.extra::<Small>();
    }
}
