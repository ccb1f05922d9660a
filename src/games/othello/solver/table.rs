//! The endgame transposition table.

use super::super::{Move, PASS};
use crate::search::Bound;
use crate::search::table::{Entry as TableEntry, Table, slots_for};

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
    const GENERATIONS: u32 = 256;
}

/// The endgame transposition table, one per worker (`Workspace::extra`).
/// Its bounds are exact facts, but a request still sees only its own
/// entries: reusing another request's would change node counts and the pv
/// from one identical request to the next. A generation stamp clears it in
/// O(1); the memory is wiped only when the stamp wraps.
pub struct EndgameTable {
    table: Table<Entry>,
    /// Whether the search now running is a selective pass.
    selective: bool,
}

/// The fewest slots, whatever the budget.
const MIN_SLOTS: usize = 1 << 10;
/// The most slots: a bucket is picked from 24 bits of the hash.
const MAX_SLOTS: usize = 1 << 24;

impl Default for EndgameTable {
    /// The size the solver was tuned with: 2^20 slots (24 MiB).
    fn default() -> Self {
        Self::with_bytes(24 << 20)
    }
}

impl EndgameTable {
    /// A table of at most `bytes`.
    pub fn with_bytes(bytes: usize) -> Self {
        let slots = slots_for::<Entry>(bytes, MIN_SLOTS).min(MAX_SLOTS);
        Self {
            table: Table::with_slots(slots),
            selective: false,
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Starts a request: earlier entries become invisible.
    pub fn new_search(&mut self) {
        self.table.new_search();
        self.selective = false;
    }

    /// Starts a selective pass (`true`) or the exact search (`false`) of
    /// the same request. A selective pass uses and writes likely bounds;
    /// the exact search keeps only the moves of what a selective pass
    /// wrote, and overwrites it.
    pub(super) fn set_selective(&mut self, selective: bool) {
        self.selective = selective;
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
    #[inline]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
        self.table.prefetch(self.bucket(p, o));
    }

    #[inline]
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Known> {
        let generation = self.table.generation() as u8;
        self.table
            .bucket(self.bucket(p, o), 2)
            .iter()
            .find(|e| e.p == p && e.o == o && e.generation == generation && (p | o) != 0)
            .map(|e| {
                if e.selective && !self.selective {
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
                }
            })
    }

    #[inline]
    pub(super) fn store(&mut self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, mv: Move) {
        let b = self.bucket(p, o);
        let generation = self.table.generation() as u8;
        let selective = self.selective;
        let slots = self.table.bucket_mut(b, 2);
        if let Some(e) = slots
            .iter_mut()
            .find(|e| e.p == p && e.o == o && e.generation == generation)
        {
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
            return;
        }
        let new = Entry {
            p,
            o,
            lower: lower as i8,
            upper: upper as i8,
            mv,
            empties: empties as u8,
            generation,
            selective,
        };
        // A stale entry is as good as an empty slot.
        if slots[0].generation != generation || u32::from(slots[0].empties) <= empties {
            slots[1] = slots[0];
            slots[0] = new;
        } else {
            slots[1] = new;
        }
    }

    /// Stores what a search of `(alpha, beta)` proved with `best`: a
    /// bound on the side it failed, or the exact score.
    #[inline]
    pub(super) fn store_result(
        &mut self,
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
