//! The memory under every engine's transposition table: power-of-two
//! slots sized from a byte budget, backed by huge pages, prefetched ahead
//! of probes, and stamped with the search that wrote them.
//!
//! Each engine keeps its own entry layout, slot choice and replacement
//! rule (they decide node counts); what they share lives here. A probe
//! counts an entry only if it carries the current stamp, so starting a
//! search forgets the table in O(1) and a request never sees another
//! request's entries: the same request always gets the same answer.

/// An entry of a [`Table`].
pub trait Entry: Copy + Default + Send + 'static {
    /// How many stamps the entry's generation field can tell apart (stamp
    /// 0 marks an empty entry). A table of this layout wipes its memory
    /// once per `GENERATIONS - 1` searches.
    const GENERATIONS: u32;
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

/// Slots of `E` in a table of at most `bytes`, a power of two and at least
/// `min_slots` (itself a power of two).
pub fn slots_for<E>(bytes: usize, min_slots: usize) -> usize {
    let fit = (bytes / size_of::<E>().max(1)).max(1);
    let slots = if fit.is_power_of_two() {
        fit
    } else {
        fit.next_power_of_two() / 2
    };
    slots.max(min_slots)
}

/// A power-of-two array of entries with the stamp of the current search.
pub struct Table<E> {
    entries: Vec<E>,
    generation: u16,
    generations: u32,
}

impl<E: Entry> Table<E> {
    /// A table of `slots` entries (a power of two), empty.
    pub fn with_slots(slots: usize) -> Self {
        Self::with_generations(slots, E::GENERATIONS)
    }

    /// A table whose entries tell apart only `generations` stamps (a
    /// layout that shares the stamp's bits with something else).
    pub fn with_generations(slots: usize, generations: u32) -> Self {
        assert!(slots.is_power_of_two(), "{slots} slots");
        assert!((2..=1 << 16).contains(&generations), "{generations} stamps");
        Self {
            entries: table_memory(slots),
            generation: 0,
            generations,
        }
    }

    /// Starts a search: entries of earlier searches stop counting. The
    /// memory is wiped only when the stamps wrap, since a stale entry
    /// could then look current again.
    pub fn new_search(&mut self) {
        let next = (u32::from(self.generation) + 1) % self.generations;
        if next == 0 {
            self.entries.fill(E::default());
            self.generation = 1;
        } else {
            self.generation = next as u16;
        }
    }

    /// The current search's stamp, never 0 once a search has started.
    #[inline]
    pub fn generation(&self) -> u16 {
        self.generation
    }

    #[inline]
    pub fn slots(&self) -> usize {
        self.entries.len()
    }

    /// `slots() - 1`: a hash masked with it is a slot.
    #[inline]
    pub fn mask(&self) -> usize {
        self.entries.len() - 1
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * size_of::<E>()
    }

    #[inline]
    pub fn get(&self, slot: usize) -> &E {
        &self.entries[slot]
    }

    #[inline]
    pub fn get_mut(&mut self, slot: usize) -> &mut E {
        &mut self.entries[slot]
    }

    /// `len` consecutive slots from `slot` (a bucket).
    #[inline]
    pub fn bucket(&self, slot: usize, len: usize) -> &[E] {
        &self.entries[slot..slot + len]
    }

    #[inline]
    pub fn bucket_mut(&mut self, slot: usize, len: usize) -> &mut [E] {
        &mut self.entries[slot..slot + len]
    }

    /// Starts loading `slot` into the cache, so that a probe soon after
    /// does not wait for memory: near the leaves the time goes to waiting
    /// for the table, and a node's children can be fetched together.
    #[inline]
    pub fn prefetch(&self, slot: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry: *const E = &self.entries[slot];
            // SAFETY: a prefetch is a hint; it reads nothing, never
            // faults, and this address is a live slot of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }
}

/// A table of `len` default entries, backed by huge pages where the system
/// allows: probes land all over a large table, and with 4 KB pages nearly
/// each one also misses the TLB (measured on the Connect Four solver: about
/// 15% less CPU per solve). The advice is given before the memory is first
/// touched, so the kernel can back it with huge pages from the start.
pub fn table_memory<E: Default + Clone>(len: usize) -> Vec<E> {
    let mut entries = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = entries.as_ptr() as usize;
        let begin = start.next_multiple_of(HUGE);
        let end = (start + len * std::mem::size_of::<E>()) / HUGE * HUGE;
        if end > begin {
            // SAFETY: advice on pages this allocation owns; it changes how
            // they are backed, never their contents or validity. If huge
            // pages are off it fails and ordinary pages serve.
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    entries.resize(len, E::default());
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
    struct Stamp(u16);

    impl Entry for Stamp {
        const GENERATIONS: u32 = 4;
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(slots_for::<u64>(1 << 20, 1), 1 << 17);
        assert_eq!(slots_for::<u64>((1 << 20) + 8, 1), 1 << 17);
        assert_eq!(slots_for::<[u8; 24]>(24 << 20, 1), 1 << 20);
        assert_eq!(slots_for::<[u8; 24]>(3 << 20, 1), 1 << 17);
        assert_eq!(slots_for::<u64>(10, 1024), 1024);
    }

    #[test]
    fn stamps_run_from_one_and_wrap_with_a_wipe() {
        let mut t = Table::<Stamp>::with_slots(8);
        t.new_search();
        assert_eq!(t.generation(), 1);
        *t.get_mut(3) = Stamp(1);
        t.new_search();
        t.new_search();
        assert_eq!(t.generation(), 3);
        assert_eq!(*t.get(3), Stamp(1));
        t.new_search();
        assert_eq!(t.generation(), 1);
        assert_eq!(*t.get(3), Stamp(0), "a wrap wipes the old stamps");
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
