//! The solver's transposition table: exact, small, and cleared in O(1).
//!
//! A position key is below 2^49. It is first mixed by a bijection of the
//! 49-bit numbers (an xor-shift, then a multiplication by an odd constant
//! modulo 2^49): the top `S` bits of the result pick one of 2^`S` slots
//! and the entry keeps the other `49 - S` bits. The two parts together
//! give back the mixed key and so the key itself: a hit is never a
//! different position. Each entry keeps a lower and an upper bound on the
//! position's score and the move that last refuted a window, in 8 bytes.
//!
//! The entry's tag holds 29 bits of the key and the move. A table of
//! 2^20 slots or more needs no more; a smaller one (a small budget) keeps
//! the key's remaining bits in the top of the generation field, which
//! then tells fewer searches apart (the memory is wiped more often).

use crate::search::table::{Age, Entry as TableEntry, Table};
use crate::search::{DEFAULT_PART, EngineTables};

/// Bits of a position key.
const KEY_BITS: u32 = 49;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// Odd, so multiplying by it modulo 2^49 is a bijection.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15 & KEY_MASK;
/// Bits of the key the tag holds (the move takes the 3 above them).
const TAG_BITS: u32 = 29;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
/// Bits of the generation field.
const GENERATION_BITS: u32 = 16;
/// The fewest slots: the key bits beyond the tag's must leave the
/// generation field room for a few stamps.
const MIN_SLOT_BITS: u32 = 10;
/// The most slots: a tag of 29 bits then holds more than the key needs.
const MAX_SLOT_BITS: u32 = KEY_BITS - 1;

/// Stored when a bound is unknown: outside every real score (±18).
const NO_LOWER: i8 = i8::MIN;
const NO_UPPER: i8 = i8::MAX;
/// Stored when no move is known (columns are 0..7).
pub const NO_MOVE: u8 = 7;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The low bits of the key's check part, and the move (3 bits) above.
    tag: u32,
    /// The search's stamp (0 never counts: zeroed entries are empty), and
    /// above it the check bits the tag has no room for.
    generation: u16,
    lower: i8,
    upper: i8,
}

/// Bits of the generation field that hold the stamp, in a table of
/// 2^`slot_bits` slots.
const fn stamp_bits(slot_bits: u32) -> u32 {
    let extra = (KEY_BITS - slot_bits).saturating_sub(TAG_BITS);
    GENERATION_BITS - extra
}

impl TableEntry for Entry {
    type Words = [u64; 1];
    /// The tag's check bits and the whole generation field expected.
    type Key = (u32, u16);
    const GENERATIONS: u32 = 1 << GENERATION_BITS;
    const MIN_SLOTS: usize = 1 << MIN_SLOT_BITS;
    const MAX_SLOTS: usize = 1 << MAX_SLOT_BITS;

    fn generations(slots: usize) -> u32 {
        1 << stamp_bits(slots.trailing_zeros())
    }

    #[inline]
    fn pack(&self) -> [u64; 1] {
        [u64::from(self.tag)
            | u64::from(self.generation) << 32
            | u64::from(self.lower as u8) << 48
            | u64::from(self.upper as u8) << 56]
    }

    #[inline]
    fn unpack([w]: [u64; 1]) -> Self {
        Self {
            tag: w as u32,
            generation: (w >> 32) as u16,
            lower: (w >> 48) as u8 as i8,
            upper: (w >> 56) as u8 as i8,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        self.generation
    }

    #[inline]
    fn set_stamp(&mut self, stamp: u16) {
        self.generation = stamp;
    }

    #[inline]
    fn holds(&self, (check, generation): (u32, u16)) -> bool {
        self.generation == generation && self.check() == check
    }

    /// Bounds of the same position in the same search tighten each
    /// other, and a new move replaces the old; anything else is replaced.
    #[inline]
    fn replace(mut self, old: &Self, age: Age) -> Option<Self> {
        if age == Age::Current && old.generation == self.generation && old.check() == self.check() {
            self.lower = self.lower.max(old.lower);
            self.upper = self.upper.min(old.upper);
            if self.mv() == NO_MOVE {
                self.tag = old.tag;
            }
        }
        Some(self)
    }
}

impl Entry {
    #[inline]
    fn check(&self) -> u32 {
        self.tag & TAG_MASK as u32
    }

    #[inline]
    fn mv(&self) -> u8 {
        (self.tag >> TAG_BITS) as u8
    }
}

#[inline]
fn tag(check: u64, mv: u8) -> u32 {
    (check & TAG_MASK) as u32 | u32::from(mv) << TAG_BITS
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The score is at least this (`i8::MIN` if unknown).
    pub lower: i8,
    /// The score is at most this (`i8::MAX` if unknown).
    pub upper: i8,
    /// A good move (column), or [`NO_MOVE`].
    pub mv: u8,
}

/// One worker's solver table, kept in its `Workspace` between requests.
pub struct SolverTable {
    table: Table<Entry>,
    /// log2 of the slot count.
    slot_bits: u32,
    /// Bits of the generation field that hold the stamp.
    stamp_bits: u32,
}

impl Default for SolverTable {
    /// The table of the default budget: 2^22 slots (32 MiB).
    fn default() -> Self {
        Self::with_bytes(DEFAULT_PART)
    }
}

impl EngineTables for SolverTable {
    fn with_bytes(bytes: usize) -> Self {
        let table = Table::with_bytes(bytes);
        let slot_bits = table.slots().trailing_zeros();
        Self {
            table,
            slot_bits,
            stamp_bits: stamp_bits(slot_bits),
        }
    }
}

impl SolverTable {
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything, logically: a new generation.
    pub fn new_solve(&mut self) {
        self.table.new_search();
    }

    /// Keeps what the table holds for the next solve. A new table starts a
    /// generation first: stamp 0 would match its zeroed, empty slots.
    pub fn continue_solves(&mut self) {
        if self.table.generation() == 0 {
            self.table.new_search();
        }
    }

    /// The slot of `key` and the rest of the mixed key, which the entry
    /// keeps.
    #[inline]
    fn locate(&self, key: u64) -> (usize, u64) {
        let x = key ^ (key >> 25);
        let x = x.wrapping_mul(MIX) & KEY_MASK;
        let check_bits = KEY_BITS - self.slot_bits;
        ((x >> check_bits) as usize, x & ((1 << check_bits) - 1))
    }

    /// The check bits the generation field carries above the stamp.
    #[inline]
    fn high_check(&self, check: u64) -> u16 {
        ((check >> TAG_BITS) << self.stamp_bits) as u16
    }

    /// Asks the cache for the slot of `key` ahead of its probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        self.table.prefetch(self.locate(key).0);
    }

    /// What is known about the position with `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Known> {
        let (slot, check) = self.locate(key);
        let expected = self.high_check(check) | self.table.generation();
        self.table
            .probe(slot, ((check & TAG_MASK) as u32, expected))
            .map(|e| Known {
                lower: e.lower,
                upper: e.upper,
                mv: e.mv(),
            })
    }

    /// Records that the score is at least `lower`, refuted by column `mv`.
    #[inline]
    pub fn store_lower(&self, key: u64, lower: i8, mv: u8) {
        self.store(key, lower, NO_UPPER, mv);
    }

    /// Records that the score is at most `upper`.
    #[inline]
    pub fn store_upper(&self, key: u64, upper: i8) {
        self.store(key, NO_LOWER, upper, NO_MOVE);
    }

    #[inline]
    fn store(&self, key: u64, lower: i8, upper: i8, mv: u8) {
        let (slot, check) = self.locate(key);
        let entry = Entry {
            tag: tag(check, mv),
            generation: self.high_check(check),
            lower,
            upper,
        };
        self.table.store(slot, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inverse of MIX modulo 2^49, by Newton's iteration.
    fn inverse() -> u64 {
        let mut inverse: u64 = 1;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(inverse)));
        }
        inverse
    }

    #[test]
    fn slot_and_check_bits_determine_the_key() {
        // Walk the mixing backwards: undo the multiplication with the
        // inverse of MIX modulo 2^49, then the xor-shift.
        let inverse = inverse();
        for slot_bits in [MIN_SLOT_BITS, 17, 20, 22, 26] {
            let t = SolverTable {
                table: Table::with_slots(1 << MIN_SLOT_BITS),
                slot_bits,
                stamp_bits: 0,
            };
            for key in [0, 1, 12345, (1 << 48) + 777, KEY_MASK] {
                let (slot, check) = t.locate(key);
                let x = (slot as u64) << (KEY_BITS - slot_bits) | check;
                let y = x.wrapping_mul(inverse) & KEY_MASK;
                assert_eq!(y ^ (y >> 25), key);
            }
        }
    }

    #[test]
    fn the_default_budget_keeps_the_tuned_size() {
        let t = SolverTable::default();
        assert_eq!((t.slot_bits, t.stamp_bits, t.bytes()), (22, 16, 32 << 20));
    }

    #[test]
    fn small_tables_never_mistake_a_key_for_another() {
        // Keys that share a slot and the tag's 29 bits but differ above:
        // build them from mixed values, through the inverse mixing.
        let inverse = inverse();
        let unmix = |x: u64| {
            let y = x.wrapping_mul(inverse) & KEY_MASK;
            // On 49 bits, the xor-shift by 25 is its own inverse.
            y ^ (y >> 25)
        };
        let mut t = SolverTable::with_bytes(1 << 20);
        assert_eq!(t.slot_bits, 17);
        t.new_solve();
        let a = unmix(1 << TAG_BITS | 1234);
        let b = unmix(2 << TAG_BITS | 1234);
        assert_eq!(t.locate(a).0, t.locate(b).0);
        assert_eq!(t.locate(a).1 & TAG_MASK, t.locate(b).1 & TAG_MASK);
        t.store_lower(a, 3, 2);
        assert_eq!(t.probe(b), None);
        assert_eq!(t.probe(a).map(|k| (k.lower, k.mv)), Some((3, 2)));
        // And the stamps still wrap without resurrecting anything.
        for _ in 0..(1 << t.stamp_bits) {
            t.new_solve();
        }
        assert_eq!(t.probe(a), None);
    }

    #[test]
    fn bounds_tighten_and_generations_forget() {
        for bytes in [DEFAULT_PART, 1 << 20, 8 << 10] {
            let mut t = SolverTable::with_bytes(bytes);
            t.new_solve();
            let key = (1u64 << 48) + 12345;
            assert_eq!(t.probe(key), None);
            t.store_lower(key, -3, 2);
            t.store_upper(key, 5);
            t.store_lower(key, 1, 4);
            t.store_upper(key, 7);
            assert_eq!(
                t.probe(key),
                Some(Known {
                    lower: 1,
                    upper: 5,
                    mv: 4
                })
            );
            assert_eq!(t.probe(key + 1), None);
            t.new_solve();
            assert_eq!(t.probe(key), None);
        }
    }
}
