//! The generic core's transposition table, reused across searches on one
//! worker: one slot per key's low bits, and a deeper entry of the same
//! search is kept over a shallower one.

use super::table::{Bound, Entry as TableEntry, Table, slots_for};

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: u8,
    /// Low two bits: bound (0 = empty); high six bits: generation.
    meta: u8,
}

impl TableEntry for Entry {
    const GENERATIONS: u32 = 64;
}

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The best or refuting move, encoded, if one was stored.
    pub mv: Option<u16>,
}

const NO_MOVE: u16 = u16::MAX;
/// The smallest table, whatever the budget.
const MIN_SLOTS: usize = 1024;

pub struct TranspositionTable {
    table: Table<Entry>,
}

impl TranspositionTable {
    /// A table of at most `bytes` (rounded down to a power-of-two entry count).
    pub fn with_bytes(bytes: usize) -> Self {
        Self {
            table: Table::with_slots(slots_for::<Entry>(bytes, MIN_SLOTS)),
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Starts a new search: earlier entries become invisible.
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = self.table.get(key as usize & self.table.mask());
        if e.key != key || u16::from(e.meta >> 2) != self.table.generation() {
            return None;
        }
        Some(Hit {
            score: e.score,
            depth: e.depth,
            bound: Bound::from_bits(e.meta)?,
            mv: (e.mv != NO_MOVE).then_some(e.mv),
        })
    }

    /// Stores a result, preferring to keep deeper entries of this search.
    #[inline]
    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, mv: Option<u16>) {
        let generation = self.table.generation() as u8;
        let slot = key as usize & self.table.mask();
        let slot = self.table.get_mut(slot);
        let same_search = slot.meta >> 2 == generation && slot.meta != 0;
        if same_search && slot.key != key && slot.depth > depth {
            return;
        }
        let mv = match mv {
            Some(m) => m,
            // Keep the old move for the same position: a fail-low has none.
            None if same_search && slot.key == key => slot.mv,
            None => NO_MOVE,
        };
        *slot = Entry {
            key,
            score,
            mv,
            depth,
            meta: (generation << 2) | bound.bits(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_search_hides_old_entries() {
        let mut tt = TranspositionTable::with_bytes(1 << 16);
        tt.new_search();
        tt.store(42, 3, 7, Bound::Exact, Some(5));
        let hit = tt.probe(42).unwrap();
        assert_eq!(
            (hit.score, hit.depth, hit.bound, hit.mv),
            (7, 3, Bound::Exact, Some(5))
        );
        assert!(tt.probe(43).is_none());
        tt.new_search();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn generations_wrap_without_resurrecting_entries() {
        let mut tt = TranspositionTable::with_bytes(1 << 16);
        tt.new_search();
        tt.store(9, 1, 1, Bound::Lower, None);
        for _ in 0..<Entry as TableEntry>::GENERATIONS {
            tt.new_search();
        }
        assert!(tt.probe(9).is_none());
    }
}
