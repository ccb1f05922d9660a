//! A worker's gomoku tables, kept across requests: the alpha-beta search's
//! transposition table, the threat searches' memory of failures, and the
//! late-move reductions.

use super::board::Cell;
use crate::search::table::{Age, Entry, Table};
use crate::search::{Bound, DEFAULT_PART, EngineTables, Limits};

/// Late-move reductions are looked up by depth and move number.
pub(super) const LMR_DEPTHS: usize = 64;
pub(super) const LMR_MOVES: usize = 64;

/// The shares of the worker's part: three quarters for the transposition
/// table, an eighth for failed threat searches.
const TT_SHARE: (usize, usize) = (3, 4);
const THREAT_SHARE: (usize, usize) = (1, 8);

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
    type Words = [u64; 3];
    type Key = u64;
    const GENERATIONS: u32 = 256;

    #[inline]
    fn pack(&self) -> [u64; 3] {
        [
            self.key,
            u64::from(self.score as u32)
                | u64::from(self.eval as u16) << 32
                | u64::from(self.mv) << 48,
            u64::from(self.depth as u8) | u64::from(self.bound) << 8 | u64::from(self.age) << 16,
        ]
    }

    #[inline]
    fn unpack([key, a, b]: [u64; 3]) -> Self {
        Self {
            key,
            score: a as u32 as i32,
            eval: (a >> 32) as u16 as i16,
            mv: (a >> 48) as Cell,
            depth: b as u8 as i8,
            bound: (b >> 8) as u8,
            age: (b >> 16) as u8,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        self.age.into()
    }

    #[inline]
    fn set_stamp(&mut self, stamp: u16) {
        self.age = stamp as u8;
    }

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.key == key && self.bound != 0
    }

    /// A result replaces another position's only if it is at least as
    /// deep, or the other is from an earlier search. A result without a
    /// move keeps the move an earlier search of the same position found
    /// (this search's, or any one's when earlier searches count).
    #[inline]
    fn replace(mut self, old: &Self, age: Age) -> Option<Self> {
        if old.key == self.key || age != Age::Current || self.depth >= old.depth {
            if self.mv == 0 && old.key == self.key && age != Age::Stale {
                self.mv = old.mv;
            }
            Some(self)
        } else {
            None
        }
    }
}

impl TtEntry {
    pub(super) fn bound(&self) -> Bound {
        Bound::from_bits(self.bound).unwrap_or(Bound::Upper)
    }
}

/// A threat search that failed: its key and the budget it failed with.
#[derive(Clone, Copy, Default)]
struct Failure {
    key: u64,
    budget: u8,
}

impl Entry for Failure {
    type Words = [u64; 2];
    type Key = u64;
    /// Failures carry no stamp: they are wiped when they stop counting.
    const GENERATIONS: u32 = 2;

    #[inline]
    fn pack(&self) -> [u64; 2] {
        [self.key, self.budget.into()]
    }

    #[inline]
    fn unpack([key, budget]: [u64; 2]) -> Self {
        Self {
            key,
            budget: budget as u8,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        0
    }

    #[inline]
    fn set_stamp(&mut self, _: u16) {}

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.key == key
    }

    #[inline]
    fn replace(self, _: &Self, _: Age) -> Option<Self> {
        Some(self)
    }
}

/// A worker's gomoku tables (`Workspace::extra`).
pub struct Tables {
    tt: Table<TtEntry>,
    /// Failed threat searches: key and the budget that failed. Kept from
    /// one search to the next when `reuse` says so.
    threat_fail: Table<Failure>,
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
        Self {
            tt: Table::with_bytes(share(TT_SHARE)),
            threat_fail: Table::with_bytes(share(THREAT_SHARE)),
            lmr: lmr_table(),
            reuse: false,
        }
    }
}

impl Tables {
    /// The memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.tt.bytes() + self.threat_fail.bytes() + size_of_val(&*self.lmr)
    }

    /// Starts a search within `limits`. A search without a deadline starts
    /// from an empty table (entries of other ages are ignored), so the same
    /// request always gets the same answer. A search against the clock is
    /// not reproducible anyway: it reads what earlier searches left (the
    /// positions of the game it is playing, searched a move or two ago).
    pub fn start_search(&mut self, limits: &Limits) {
        self.reuse = limits.deadline.is_some();
        self.new_search();
    }

    /// Starts a search: the table's older entries stop counting unless
    /// `reuse` says they may, and without `reuse` the threat searches'
    /// failures are forgotten too: a remembered failure saves the nodes of
    /// searching again, and the root's threat searches run on node budgets
    /// without a deadline, so what earlier searches found would change
    /// the answer.
    pub(super) fn new_search(&mut self) {
        self.tt.new_search();
        self.tt.keep_earlier(self.reuse);
        if !self.reuse {
            self.threat_fail.clear();
        }
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<TtEntry> {
        self.tt.probe((key >> self.tt.shift()) as usize, key)
    }

    /// Stores a result over another position's only if it is at least
    /// as deep, or the other is from an earlier search.
    #[inline]
    pub(super) fn store(
        &self,
        key: u64,
        depth: i32,
        score: i32,
        eval: i32,
        bound: Bound,
        mv: Cell,
    ) {
        let entry = TtEntry {
            key,
            score,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            mv,
            depth: depth.clamp(-1, 100) as i8,
            bound: bound.bits(),
            age: 0,
        };
        self.tt.store((key >> self.tt.shift()) as usize, entry);
    }

    /// Has the threat search with `key` failed with at least `budget`?
    #[inline]
    pub(super) fn failed(&self, key: u64, budget: u32) -> bool {
        let slot = (key >> self.threat_fail.shift()) as usize;
        self.threat_fail
            .probe(slot, key)
            .is_some_and(|f| u32::from(f.budget) >= budget)
    }

    #[inline]
    pub(super) fn remember_failure(&self, key: u64, budget: u32) {
        let slot = (key >> self.threat_fail.shift()) as usize;
        let failure = Failure {
            key,
            budget: budget.min(255) as u8,
        };
        self.threat_fail.store(slot, failure);
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
        assert_eq!((t.tt.slots(), t.tt.shift()), (1 << 20, 44));
        assert_eq!(
            (t.threat_fail.slots(), t.threat_fail.shift()),
            (1 << 18, 46)
        );
        assert!(t.bytes() <= DEFAULT_PART);
    }
}
