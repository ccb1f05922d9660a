//! A worker's gomoku tables, kept across requests: the alpha-beta search's
//! transposition table, the threat searches' memory of failures, and the
//! late-move reductions.

use super::board::Cell;
use crate::search::table::{Entry, Table, slots_for, table_memory};
use crate::search::{Bound, DEFAULT_PART, EngineTables};

/// Late-move reductions are looked up by depth and move number.
pub(super) const LMR_DEPTHS: usize = 64;
pub(super) const LMR_MOVES: usize = 64;

/// The shares of the worker's part: three quarters for the transposition
/// table, an eighth for failed threat searches.
const TT_SHARE: (usize, usize) = (3, 4);
const THREAT_SHARE: (usize, usize) = (1, 8);
/// The fewest slots of either table.
const MIN_SLOTS: usize = 1 << 10;

#[derive(Clone, Copy, Default)]
pub(super) struct TtEntry {
    key: u64,
    pub(super) score: i32,
    /// The static evaluation of the position.
    pub(super) eval: i16,
    pub(super) mv: Cell,
    pub(super) depth: i8,
    bound: u8,
    age: u8,
}

impl Entry for TtEntry {
    const GENERATIONS: u32 = 256;
}

impl TtEntry {
    pub(super) fn bound(&self) -> Bound {
        Bound::from_bits(self.bound).unwrap_or(Bound::Upper)
    }
}

/// A worker's gomoku tables (`Workspace::extra`).
pub struct Tables {
    tt: Table<TtEntry>,
    /// A key's slot is its top bits: 64 less this.
    tt_shift: u32,
    /// Failed threat searches: key and the budget that failed. Kept from
    /// one search to the next when `reuse` says so.
    threat_fail: Vec<(u64, u8)>,
    threat_shift: u32,
    /// Late-move reduction by depth and move number.
    pub(super) lmr: Box<[[u8; LMR_MOVES]; LMR_DEPTHS]>,
    /// Whether entries of earlier searches count (they are replaced
    /// first all the same).
    pub(super) reuse: bool,
}

impl Default for Tables {
    /// The tables of the default budget: 2^20 table slots (24 MiB) and
    /// 2^18 failure slots (4 MiB).
    fn default() -> Self {
        Self::with_bytes(DEFAULT_PART)
    }
}

impl EngineTables for Tables {
    fn with_bytes(bytes: usize) -> Self {
        let share = |(num, den): (usize, usize)| bytes / den * num;
        let tt_slots = slots_for::<TtEntry>(share(TT_SHARE), MIN_SLOTS);
        let threat_slots = slots_for::<(u64, u8)>(share(THREAT_SHARE), MIN_SLOTS);
        Self {
            tt: Table::with_slots(tt_slots),
            tt_shift: 64 - tt_slots.trailing_zeros(),
            threat_fail: table_memory(threat_slots),
            threat_shift: 64 - threat_slots.trailing_zeros(),
            lmr: lmr_table(),
            reuse: false,
        }
    }
}

impl Tables {
    /// The memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.tt.bytes() + self.threat_fail.len() * size_of::<(u64, u8)>() + size_of_val(&*self.lmr)
    }

    /// Starts a search: the table's older entries stop counting unless
    /// `reuse` says they may, and without `reuse` the threat searches'
    /// failures are forgotten too: a remembered failure saves the nodes of
    /// searching again, and the root's threat searches run on node budgets
    /// without a deadline, so what earlier searches found would change
    /// the answer.
    pub(super) fn new_search(&mut self) {
        self.tt.new_search();
        if !self.reuse {
            self.threat_fail.fill((0, 0));
        }
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<TtEntry> {
        let e = *self.tt.get((key >> self.tt_shift) as usize);
        (e.key == key && e.bound != 0 && (self.reuse || u16::from(e.age) == self.tt.generation()))
            .then_some(e)
    }

    /// Stores a result over another position's only if it is at least
    /// as deep, or the other is from an earlier search.
    #[inline]
    pub(super) fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        eval: i32,
        bound: Bound,
        mv: Cell,
    ) {
        let age = self.tt.generation() as u8;
        let slot = self.tt.get_mut((key >> self.tt_shift) as usize);
        if slot.key == key || slot.age != age || depth as i8 >= slot.depth {
            // A result without a move keeps the move an earlier search of
            // the same position found (this search's, or any one's when
            // `reuse` lets earlier searches count).
            let mv = if mv == 0 && slot.key == key && (slot.age == age || self.reuse) {
                slot.mv
            } else {
                mv
            };
            *slot = TtEntry {
                key,
                score,
                eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                mv,
                depth: depth.clamp(-1, 100) as i8,
                bound: bound.bits(),
                age,
            };
        }
    }

    /// Has the threat search with `key` failed with at least `budget`?
    #[inline]
    pub(super) fn failed(&self, key: u64, budget: u32) -> bool {
        let slot = self.threat_fail[(key >> self.threat_shift) as usize];
        slot.0 == key && u32::from(slot.1) >= budget
    }

    #[inline]
    pub(super) fn remember_failure(&mut self, key: u64, budget: u32) {
        self.threat_fail[(key >> self.threat_shift) as usize] = (key, budget.min(255) as u8);
    }
}

/// Reductions grow with the logarithms of both the depth left and the
/// move's rank: late moves at high depth are rarely best, and a re-search
/// catches the ones that are.
fn lmr_table() -> Box<[[u8; LMR_MOVES]; LMR_DEPTHS]> {
    let mut t = Box::new([[0u8; LMR_MOVES]; LMR_DEPTHS]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.5 + (d as f64).ln() * (i as f64).ln();
            *r = v as u8;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_kept_only_for_searches_that_reuse() {
        let mut t = Tables::default();
        t.remember_failure(0xABCD, 3);
        t.reuse = true;
        t.new_search();
        assert!(t.failed(0xABCD, 3));
        t.reuse = false;
        t.new_search();
        assert!(!t.failed(0xABCD, 1));
    }

    #[test]
    fn the_default_budget_keeps_the_tuned_sizes() {
        let t = Tables::default();
        assert_eq!((t.tt.slots(), t.tt_shift), (1 << 20, 44));
        assert_eq!((t.threat_fail.len(), t.threat_shift), (1 << 18, 46));
        assert!(t.bytes() <= DEFAULT_PART);
    }
}
