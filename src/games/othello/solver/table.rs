//! The endgame transposition table.

use super::super::{Move, PASS};
use crate::search::Bound;
use crate::search::table::{Age, Entry as TableEntry, Table};

/// What the table proved about a position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The move that settled it ([`PASS`] if none).
    pub mv: Move,
}

/// One slot of the endgame table: the full position (so a hit is never a
/// collision) and the bounds proven on its value.
#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    mv: u8,
    empties: u8,
    /// The request that wrote it; other requests' entries are ignored.
    generation: u8,
    /// Whether a selective pass wrote it: its bounds are likely, not
    /// proven, and an exact search takes only its move.
    selective: bool,
}

impl TableEntry for Entry {
    type Words = [u64; 3];
    type Key = (u64, u64);
    const KEY_WORDS: usize = 2;
    const GENERATIONS: u32 = 256;
    /// A bucket is picked from 24 bits of the hash.
    const MAX_SLOTS: usize = 1 << 24;

    #[inline]
    fn pack(&self) -> [u64; 3] {
        [
            self.p,
            self.o,
            u64::from(self.lower as u8)
                | u64::from(self.upper as u8) << 8
                | u64::from(self.mv) << 16
                | u64::from(self.empties) << 24
                | u64::from(self.generation) << 32
                | u64::from(self.selective) << 40,
        ]
    }

    #[inline]
    fn unpack([p, o, data]: [u64; 3]) -> Self {
        Self {
            p,
            o,
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            mv: (data >> 16) as u8,
            empties: (data >> 24) as u8,
            generation: (data >> 32) as u8,
            selective: (data >> 40) & 1 == 1,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        self.generation.into()
    }

    #[inline]
    fn set_stamp(&mut self, stamp: u16) {
        self.generation = stamp as u8;
    }

    #[inline]
    fn holds(&self, (p, o): (u64, u64)) -> bool {
        self.p == p && self.o == o && (p | o) != 0
    }

    /// Stores go through the bucket's rule ([`EndgameTable::store`]).
    #[inline]
    fn replace(self, _: &Self, _: Age) -> Option<Self> {
        Some(self)
    }
}

/// The endgame transposition table, one per worker (`Workspace::extra`).
/// Its bounds are exact facts, but a request still sees only its own
/// entries: reusing another request's would change node counts and the pv
/// from one identical request to the next. A generation stamp clears it in
/// O(1); the memory is wiped only when the stamp wraps.
pub struct EndgameTable {
    table: Table<Entry>,
}

impl Default for EndgameTable {
    /// The size the solver was tuned with: 2^20 slots (24 MiB).
    fn default() -> Self {
        Self::with_bytes(24 << 20)
    }
}

impl EndgameTable {
    /// A table of at most `bytes`.
    pub fn with_bytes(bytes: usize) -> Self {
        Self {
            table: Table::with_bytes(bytes),
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Starts a request: earlier entries become invisible.
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    /// Two slots per bucket: the first keeps the deeper result, the second
    /// takes whatever comes.
    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        // A multiplicative mix: cheaper than the Zobrist tables, and the
        // full position is stored, so its quality only affects spread.
        let h = (p ^ o.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h >> 40) as usize & (self.table.mask() - 1)
    }

    /// Starts loading a position's bucket into the cache, so a probe soon
    /// after does not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        self.table.prefetch(self.bucket(p, o));
    }

    /// One solve's view of the table, starting in the exact search.
    pub(super) fn view(&self) -> View<'_> {
        View {
            table: self,
            selective: false,
        }
    }

    /// What the table holds on a position. In the exact search
    /// (`selective` false), a selective pass's entry gives its move only.
    #[inline(always)]
    fn probe(&self, p: u64, o: u64, selective: bool) -> Option<Known> {
        let b = self.bucket(p, o);
        let e = self
            .table
            .probe(b, (p, o))
            .or_else(|| self.table.probe(b + 1, (p, o)))?;
        Some(if e.selective && !selective {
            Known {
                lower: -64,
                upper: 64,
                mv: e.mv,
            }
        } else {
            Known {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                mv: e.mv,
            }
        })
    }

    /// Stores bounds on a position with `empties` empties, found by a
    /// selective pass or by the exact search. A selective pass's bounds
    /// are likely; the exact search's replace them.
    #[inline(always)]
    fn store(
        &self,
        (p, o): (u64, u64),
        empties: u32,
        (lower, upper): (i32, i32),
        mv: Move,
        selective: bool,
    ) {
        let b = self.bucket(p, o);
        let merge = |mut e: Entry| {
            if e.selective == selective {
                e.lower = e.lower.max(lower as i8);
                e.upper = e.upper.min(upper as i8);
            } else if !selective {
                // Proven bounds replace likely ones.
                (e.lower, e.upper, e.selective) = (lower as i8, upper as i8, false);
            }
            if mv != PASS {
                e.mv = mv;
            }
            e
        };
        let same = |e: &Entry, age| age == Age::Current && e.p == p && e.o == o;
        let (first, first_age) = self.table.read(b);
        if same(&first, first_age) {
            self.table.write(b, merge(first));
            return;
        }
        let (second, second_age) = self.table.read(b + 1);
        if same(&second, second_age) {
            self.table.write(b + 1, merge(second));
            return;
        }
        let new = Entry {
            p,
            o,
            lower: lower as i8,
            upper: upper as i8,
            mv,
            empties: empties as u8,
            generation: 0,
            selective,
        };
        // A stale entry is as good as an empty slot.
        if first_age != Age::Current || u32::from(first.empties) <= empties {
            self.table.put(b + 1, first);
            self.table.write(b, new);
        } else {
            self.table.write(b + 1, new);
        }
    }
}

/// One solve's access to the [`EndgameTable`] (threads of one solve share
/// the table, each through its own view): whether the search now running
/// is a selective pass.
#[derive(Clone, Copy)]
pub(super) struct View<'a> {
    table: &'a EndgameTable,
    selective: bool,
}

impl View<'_> {
    /// Starts a selective pass (`true`) or the exact search (`false`) of
    /// the same request. A selective pass uses and writes likely bounds;
    /// the exact search keeps only the moves of what a selective pass
    /// wrote, and overwrites it.
    pub(super) fn set_selective(&mut self, selective: bool) {
        self.selective = selective;
    }

    #[inline(always)]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        self.table.prefetch(p, o);
    }

    #[inline(always)]
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Known> {
        self.table.probe(p, o, self.selective)
    }

    #[inline(always)]
    pub(super) fn store(&self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, mv: Move) {
        self.table
            .store((p, o), empties, (lower, upper), mv, self.selective);
    }

    /// Stores what a search of `(alpha, beta)` proved with `best`: a
    /// bound on the side it failed, or the exact score.
    #[inline]
    pub(super) fn store_result(
        &self,
        (p, o): (u64, u64),
        empties: u32,
        (best, alpha, beta): (i32, i32, i32),
        mv: Move,
    ) {
        let (lower, upper) = match Bound::of(best, alpha, beta) {
            Bound::Lower => (best, 64),
            Bound::Exact => (best, best),
            Bound::Upper => (-64, best),
        };
        self.store(p, o, empties, lower, upper, mv);
    }
}
