//! The generic core's transposition table, reused across searches on one
//! worker: one slot per key's low bits, and a deeper entry of the same
//! search is kept over a shallower one.

use super::EngineTables;
use super::table::{Age, Bound, Entry as TableEntry, Table};

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    mv: u16,
    depth: u8,
    /// Low two bits: bound (0 = empty); high six bits: generation.
    meta: u8,
}

impl TableEntry for Entry {
    type Words = [u64; 2];
    type Key = u64;
    const GENERATIONS: u32 = 64;

    #[inline]
    fn pack(&self) -> [u64; 2] {
        [
            self.key,
            u64::from(self.score as u32)
                | u64::from(self.mv) << 32
                | u64::from(self.depth) << 48
                | u64::from(self.meta) << 56,
        ]
    }

    #[inline]
    fn unpack([key, data]: [u64; 2]) -> Self {
        Self {
            key,
            score: data as u32 as i32,
            mv: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            meta: (data >> 56) as u8,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        u16::from(self.meta >> 2)
    }

    #[inline]
    fn set_stamp(&mut self, stamp: u16) {
        self.meta = (stamp as u8) << 2 | (self.meta & 3);
    }

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.key == key
    }

    /// A deeper entry of the same search is kept over another position's;
    /// a result without a move keeps the one stored for the same position
    /// (a fail-low has none).
    #[inline]
    fn replace(mut self, old: &Self, age: Age) -> Option<Self> {
        let same_search = age == Age::Current;
        if same_search && old.key != self.key && old.depth > self.depth {
            return None;
        }
        if self.mv == NO_MOVE && same_search && old.key == self.key {
            self.mv = old.mv;
        }
        Some(self)
    }
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

pub struct TranspositionTable {
    table: Table<Entry>,
}

impl EngineTables for TranspositionTable {
    /// A table of at most `bytes` (rounded down to a power-of-two entry count).
    fn with_bytes(bytes: usize) -> Self {
        Self {
            table: Table::with_bytes(bytes),
        }
    }
}

impl TranspositionTable {
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Starts a new search: earlier entries become invisible.
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = self.table.probe(key as usize & self.table.mask(), key)?;
        Some(Hit {
            score: e.score,
            depth: e.depth,
            bound: Bound::from_bits(e.meta)?,
            mv: (e.mv != NO_MOVE).then_some(e.mv),
        })
    }

    /// Stores a result, preferring to keep deeper entries of this search.
    #[inline]
    pub fn store(&self, key: u64, depth: u8, score: i32, bound: Bound, mv: Option<u16>) {
        let entry = Entry {
            key,
            score,
            mv: mv.unwrap_or(NO_MOVE),
            depth,
            meta: bound.bits(),
        };
        self.table.store(key as usize & self.table.mask(), entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_search_hides_old_entries() {
        let mut tt = <TranspositionTable as EngineTables>::with_bytes(1 << 16);
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
        let mut tt = <TranspositionTable as EngineTables>::with_bytes(1 << 16);
        tt.new_search();
        tt.store(9, 1, 1, Bound::Lower, None);
        for _ in 0..<Entry as TableEntry>::GENERATIONS {
            tt.new_search();
        }
        assert!(tt.probe(9).is_none());
    }
}
