//! The memory under every engine's transposition table: power-of-two
//! slots sized from a byte budget, backed by huge pages, prefetched ahead
//! of probes, stamped with the search that wrote them, and safe to share
//! between the threads of one search.
//!
//! Each engine keeps its own entry layout, slot choice and replacement
//! rule (they decide node counts); what they share lives here: sizing,
//! the stamp of the current search and its check on every probe. A probe
//! counts an entry only if it carries the current stamp, so starting a
//! search forgets the table in O(1) and a request never sees another
//! request's entries: the same request always gets the same answer.
//!
//! An entry is stored as 64-bit words, each read and written atomically
//! (relaxed loads and stores: plain moves on x86-64), so that the threads
//! of a parallel search can probe and store without locks. Two threads
//! may still write one slot at once, or a probe may read one thread's
//! words beside another's: a torn entry. The key words are therefore
//! stored xored with the data words (Hyatt's lockless hashing): a probe
//! undoes the xor, and a torn entry gives back a key that is not the
//! probe's, so it is ignored like any other miss. With at most two data
//! words this is exact for one key: two entries of the same position
//! differ in their data, and any mix of their words undoes to a different
//! key unless the mix is one of the two entries whole. A store reads the
//! slot, applies the entry's rule and writes; a racing store may win
//! instead (a lost update), which a cache may afford, since every entry
//! written is one some thread computed whole.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// An entry's layout in the words of a [`Table`], and its replacement rule.
pub trait Entry: Copy {
    /// The entry as words: [`Entry::KEY_WORDS`] words of key first, then
    /// at most two words of data (see the module's note on torn entries).
    type Words: Words;
    /// What a probe asks for (a hash, a position, a key's check bits).
    type Key: Copy;
    /// Words of the layout that hold the key.
    const KEY_WORDS: usize = 1;
    /// How many stamps the stamp field tells apart (a power of two; stamp
    /// 0 marks an empty entry). A table of this layout wipes its memory
    /// once per `GENERATIONS - 1` searches.
    const GENERATIONS: u32;
    /// The fewest and the most slots, whatever the budget.
    const MIN_SLOTS: usize = 1 << 10;
    const MAX_SLOTS: usize = 1 << 40;

    /// How many stamps a table of `slots` slots tells apart, for a layout
    /// that shares its stamp's bits with the key (fewer slots leave more
    /// of the key to check).
    fn generations(slots: usize) -> u32 {
        let _ = slots;
        Self::GENERATIONS
    }

    fn pack(&self) -> Self::Words;
    fn unpack(words: Self::Words) -> Self;

    /// The stamp field: the stamp is its low bits (a layout may keep key
    /// bits above them).
    fn stamp(&self) -> u16;
    fn set_stamp(&mut self, stamp: u16);

    /// Whether this entry is the one `key` asks for (and is not empty).
    fn holds(&self, key: Self::Key) -> bool;

    /// The replacement rule: what a store of `self` leaves in a slot that
    /// holds `old`, of the given age; `None` keeps `old`. `self` carries
    /// the current stamp already.
    fn replace(self, old: &Self, age: Age) -> Option<Self>;
}

/// The words of an entry: `[u64; N]`.
pub trait Words: Copy + Default + AsRef<[u64]> + AsMut<[u64]> {}

impl<const N: usize> Words for [u64; N] where [u64; N]: Default {}

/// How an entry already in a slot stands towards the current search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Age {
    /// Written by the current search.
    Current,
    /// Written by an earlier search, which this table lets count (see
    /// [`Table::keep_earlier`]).
    Earlier,
    /// Empty, or written by an earlier search that no longer counts.
    Stale,
}

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft search proved with `best`, having searched
    /// the window `(alpha, beta)`.
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Self {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Settles a node searched with `(alpha, beta)`: does a stored `score`
    /// with this bound decide it without a search?
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }

    /// Two bits for an entry; 0 is left for "nothing stored".
    #[inline]
    pub const fn bits(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    /// Reads [`Bound::bits`] back; `None` for 0.
    #[inline]
    pub const fn from_bits(bits: u8) -> Option<Self> {
        match bits & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// Slots of `size` bytes in a table of at most `bytes`, a power of two
/// and at least `min_slots` (itself a power of two).
pub fn slots_of(size: usize, bytes: usize, min_slots: usize) -> usize {
    let fit = (bytes / size.max(1)).max(1);
    let slots = if fit.is_power_of_two() {
        fit
    } else {
        fit.next_power_of_two() / 2
    };
    slots.max(min_slots)
}

/// A power-of-two array of entries with the stamp of the current search,
/// which the threads of one search may share (`&Table` is enough to probe
/// and store).
pub struct Table<E: Entry> {
    words: Vec<AtomicU64>,
    slots: usize,
    generation: u16,
    /// `generations - 1`: the stamp's bits in the stamp field.
    stamp_mask: u16,
    generations: u32,
    keep_earlier: bool,
    entry: PhantomData<fn() -> E>,
}

impl<E: Entry> Table<E> {
    /// Words per entry.
    const WIDTH: usize = size_of::<E::Words>() / 8;

    /// A table of at most `bytes` (a power of two of slots, within the
    /// layout's [`Entry::MIN_SLOTS`] and [`Entry::MAX_SLOTS`]), empty.
    pub fn with_bytes(bytes: usize) -> Self {
        let slots = slots_of(size_of::<E::Words>(), bytes, E::MIN_SLOTS).min(E::MAX_SLOTS);
        Self::with_slots(slots)
    }

    /// A table of `slots` entries (a power of two), empty.
    pub fn with_slots(slots: usize) -> Self {
        assert!(slots.is_power_of_two(), "{slots} slots");
        const { assert!(size_of::<E::Words>() % 8 == 0) };
        assert!(
            E::KEY_WORDS >= 1 && Self::WIDTH - E::KEY_WORDS <= 2,
            "a torn entry is caught with at most two data words"
        );
        let generations = E::generations(slots);
        assert!(
            generations.is_power_of_two() && (2..=1 << 16).contains(&generations),
            "{generations} stamps"
        );
        Self {
            words: table_memory(slots * Self::WIDTH),
            slots,
            generation: 0,
            stamp_mask: (generations - 1) as u16,
            generations,
            keep_earlier: false,
            entry: PhantomData,
        }
    }

    /// Starts a search: entries of earlier searches stop counting. The
    /// memory is wiped only when the stamps wrap, since a stale entry
    /// could then look current again.
    pub fn new_search(&mut self) {
        let next = (u32::from(self.generation) + 1) % self.generations;
        if next == 0 {
            self.clear();
            self.generation = 1;
        } else {
            self.generation = next as u16;
        }
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
    }

    /// Whether entries of earlier searches count in probes (they are still
    /// replaced as the entry's rule says for [`Age::Earlier`]).
    pub fn keep_earlier(&mut self, keep: bool) {
        self.keep_earlier = keep;
    }

    /// The current search's stamp, never 0 once a search has started.
    #[inline]
    pub fn generation(&self) -> u16 {
        self.generation
    }

    #[inline]
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// `slots() - 1`: a hash masked with it is a slot.
    #[inline]
    pub fn mask(&self) -> usize {
        self.slots() - 1
    }

    /// `64 - log2(slots())`: a hash shifted right by it is a slot.
    #[inline]
    pub fn shift(&self) -> u32 {
        64 - self.slots().trailing_zeros()
    }

    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The entry at `slot` if it holds `key` and counts in this search.
    #[inline(always)]
    pub fn probe(&self, slot: usize, key: E::Key) -> Option<E> {
        let (e, age) = self.read(slot);
        (age != Age::Stale && e.holds(key)).then_some(e)
    }

    /// Stores `new` at `slot` as its replacement rule says, stamped with
    /// the current search.
    #[inline(always)]
    pub fn store(&self, slot: usize, new: E) {
        let (old, age) = self.read(slot);
        if let Some(e) = self.stamped(new).replace(&old, age) {
            self.put(slot, e);
        }
    }

    /// The entry at `slot`, whatever it holds, and its age: for a layout
    /// whose rule spans several slots (a bucket).
    #[inline(always)]
    pub fn read(&self, slot: usize) -> (E, Age) {
        let e = self.load(slot);
        (e, self.age(&e))
    }

    /// Writes `e` at `slot`, stamped with the current search, over
    /// whatever was there.
    #[inline(always)]
    pub fn write(&self, slot: usize, e: E) {
        self.put(slot, self.stamped(e));
    }

    #[inline(always)]
    fn stamped(&self, mut e: E) -> E {
        e.set_stamp((e.stamp() & !self.stamp_mask) | self.generation);
        e
    }

    #[inline(always)]
    fn age(&self, e: &E) -> Age {
        let stamp = e.stamp() & self.stamp_mask;
        if stamp == self.generation {
            Age::Current
        } else if self.keep_earlier && stamp != 0 {
            Age::Earlier
        } else {
            Age::Stale
        }
    }

    #[inline(always)]
    fn load(&self, slot: usize) -> E {
        let start = slot * Self::WIDTH;
        let cells = &self.words[start..start + Self::WIDTH];
        let mut words = E::Words::default();
        for (w, cell) in words.as_mut().iter_mut().zip(cells) {
            *w = cell.load(Relaxed);
        }
        let w = words.as_mut();
        let data = w[E::KEY_WORDS..].iter().fold(0, |x, &d| x ^ d);
        for k in &mut w[..E::KEY_WORDS] {
            *k ^= data;
        }
        E::unpack(words)
    }

    /// Writes `e` at `slot` as it is, stamp and all (an entry read from
    /// another slot, moved).
    #[inline(always)]
    pub fn put(&self, slot: usize, e: E) {
        let mut words = e.pack();
        let w = words.as_mut();
        let data = w[E::KEY_WORDS..].iter().fold(0, |x, &d| x ^ d);
        for k in &mut w[..E::KEY_WORDS] {
            *k ^= data;
        }
        let start = slot * Self::WIDTH;
        let cells = &self.words[start..start + Self::WIDTH];
        for (&w, cell) in words.as_ref().iter().zip(cells) {
            cell.store(w, Relaxed);
        }
    }

    /// Starts loading `slot` into the cache, so that a probe soon after
    /// does not wait for memory: near the leaves the time goes to waiting
    /// for the table, and a node's children can be fetched together.
    #[inline]
    pub fn prefetch(&self, slot: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry: *const AtomicU64 = &self.words[slot * Self::WIDTH];
            // SAFETY: a prefetch is a hint; it reads nothing, never
            // faults, and this address is a live slot of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }
}

/// `len` default values, backed by huge pages where the system allows:
/// probes land all over a large table, and with 4 KB pages nearly each
/// one also misses the TLB (measured on the Connect Four solver: about
/// 15% less CPU per solve). The advice is given before the memory is first
/// touched, so the kernel can back it with huge pages from the start.
pub fn table_memory<T: Default>(len: usize) -> Vec<T> {
    let mut entries = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = entries.as_ptr() as usize;
        let begin = start.next_multiple_of(HUGE);
        let end = (start + len * std::mem::size_of::<T>()) / HUGE * HUGE;
        if end > begin {
            // SAFETY: advice on pages this allocation owns; it changes how
            // they are backed, never their contents or validity. If huge
            // pages are off it fails and ordinary pages serve.
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    entries.resize_with(len, T::default);
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key and a value, stamped in the value's top bits.
    #[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
    struct Pair {
        key: u64,
        value: u32,
        stamp: u16,
    }

    impl Entry for Pair {
        type Words = [u64; 2];
        type Key = u64;
        const GENERATIONS: u32 = 4;

        fn pack(&self) -> [u64; 2] {
            [
                self.key,
                u64::from(self.value) | u64::from(self.stamp) << 32,
            ]
        }

        fn unpack([key, data]: [u64; 2]) -> Self {
            Self {
                key,
                value: data as u32,
                stamp: (data >> 32) as u16,
            }
        }

        fn stamp(&self) -> u16 {
            self.stamp
        }

        fn set_stamp(&mut self, stamp: u16) {
            self.stamp = stamp;
        }

        fn holds(&self, key: u64) -> bool {
            self.key == key
        }

        fn replace(self, old: &Self, age: Age) -> Option<Self> {
            // Keeps the larger value of this search.
            (age != Age::Current || self.value >= old.value).then_some(self)
        }
    }

    fn pair(key: u64, value: u32) -> Pair {
        Pair {
            key,
            value,
            stamp: 0,
        }
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(slots_of(8, 1 << 20, 1), 1 << 17);
        assert_eq!(slots_of(8, (1 << 20) + 8, 1), 1 << 17);
        assert_eq!(slots_of(24, 24 << 20, 1), 1 << 20);
        assert_eq!(slots_of(24, 3 << 20, 1), 1 << 17);
        assert_eq!(slots_of(8, 10, 1024), 1024);
        let t = Table::<Pair>::with_bytes(1 << 20);
        assert_eq!((t.slots(), t.bytes(), t.shift()), (1 << 16, 1 << 20, 48));
        assert_eq!(Table::<Pair>::with_bytes(100).slots(), 1024);
    }

    #[test]
    fn stamps_run_from_one_and_wrap_with_a_wipe() {
        let mut t = Table::<Pair>::with_slots(8);
        t.new_search();
        assert_eq!(t.generation(), 1);
        t.store(3, pair(9, 5));
        t.new_search();
        t.new_search();
        assert_eq!(t.generation(), 3);
        assert_eq!(
            t.read(3),
            (
                Pair {
                    stamp: 1,
                    ..pair(9, 5)
                },
                Age::Stale
            )
        );
        assert_eq!(t.probe(3, 9), None);
        t.new_search();
        assert_eq!(t.generation(), 1);
        assert_eq!(t.read(3), (Pair::default(), Age::Stale), "a wrap wipes");
    }

    #[test]
    fn probes_see_this_searchs_entries_and_the_rule_decides_stores() {
        let mut t = Table::<Pair>::with_slots(8);
        t.new_search();
        t.store(2, pair(7, 10));
        t.store(2, pair(8, 4));
        assert_eq!(t.probe(2, 7).map(|e| e.value), Some(10));
        assert_eq!(t.probe(2, 8), None);
        t.new_search();
        assert_eq!(t.probe(2, 7), None);
        t.keep_earlier(true);
        assert_eq!(t.read(2).1, Age::Earlier);
        assert_eq!(t.probe(2, 7).map(|e| e.value), Some(10));
        t.store(2, pair(8, 4));
        assert_eq!(t.probe(2, 8).map(|e| (e.value, e.stamp)), Some((4, 2)));
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let mut t = Table::<Pair>::with_slots(8);
        t.new_search();
        t.store(1, pair(7, 10));
        let first = [t.words[2].load(Relaxed), t.words[3].load(Relaxed)];
        t.store(1, pair(7, 11));
        // The key word of the first store beside the data of the second.
        t.words[2].store(first[0], Relaxed);
        assert_eq!(t.probe(1, 7), None);
        t.words[3].store(first[1], Relaxed);
        assert_eq!(t.probe(1, 7).map(|e| e.value), Some(10));
    }

    #[test]
    fn threads_share_a_table_without_torn_reads() {
        // Four threads store entries of 64 positions into a few slots at
        // once, each value telling its position; any probe that hits must
        // see a value written with its key. The keys are hashes, as the
        // engines' are: with small keys and values, one entry's key word
        // beside another's data can undo to a third position's key, which
        // the lockless check rules out only for keys that look random.
        let hash = |n: u64| crate::games::lines::Rng::new(n).next_u64();
        let mut t = Table::<Pair>::with_slots(4);
        t.new_search();
        std::thread::scope(|s| {
            for thread in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let n = (i * 4 + thread) % 64 + 1;
                        t.store((n % 4) as usize, pair(hash(n), n as u32 * 3));
                        for probe in 1..=64 {
                            if let Some(e) = t.probe((probe % 4) as usize, hash(probe)) {
                                assert_eq!(e.value, probe as u32 * 3);
                            }
                        }
                    }
                });
            }
        });
    }

    #[test]
    fn bounds_round_trip_and_cut() {
        for b in [Bound::Exact, Bound::Lower, Bound::Upper] {
            assert_eq!(Bound::from_bits(b.bits()), Some(b));
        }
        assert_eq!(Bound::from_bits(0), None);
        assert_eq!(Bound::of(5, 0, 5), Bound::Lower);
        assert_eq!(Bound::of(3, 0, 5), Bound::Exact);
        assert_eq!(Bound::of(0, 0, 5), Bound::Upper);
        assert!(Bound::Lower.cuts(5, 0, 5) && !Bound::Lower.cuts(4, 0, 5));
        assert!(Bound::Upper.cuts(0, 0, 5) && !Bound::Upper.cuts(1, 0, 5));
    }
}
