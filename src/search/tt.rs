//! A bounded transposition table, reused across searches on one worker.
//!
//! Entries carry the generation of the search that wrote them; a probe
//! ignores any other generation, so starting a search clears the table
//! logically in O(1) and a search never sees another request's entries.
//! That keeps answers deterministic without reallocating per request.

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

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

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    /// The best or refuting move, encoded, if one was stored.
    pub mv: Option<u16>,
}

const GENERATIONS: u8 = 64;
const NO_MOVE: u16 = u16::MAX;

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of at most `bytes` (rounded down to a power-of-two entry count).
    pub fn with_bytes(bytes: usize) -> Self {
        let wanted = (bytes / size_of::<Entry>()).max(1024);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Self {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            generation: 0,
        }
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * size_of::<Entry>()
    }

    /// Starts a new search: earlier entries become invisible. The whole table
    /// is wiped only when the generation counter wraps.
    pub fn new_search(&mut self) {
        next_generation(&mut self.generation, GENERATIONS.into(), &mut self.entries);
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[key as usize & self.mask];
        if e.key != key || e.meta == 0 || e.meta >> 2 != self.generation {
            return None;
        }
        let bound = match e.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            score: e.score,
            depth: e.depth,
            bound,
            mv: (e.mv != NO_MOVE).then_some(e.mv),
        })
    }

    /// Stores a result, preferring to keep deeper entries of this search.
    pub fn store(&mut self, key: u64, depth: u8, score: i32, bound: Bound, mv: Option<u16>) {
        let slot = &mut self.entries[key as usize & self.mask];
        let same_search = slot.meta >> 2 == self.generation && slot.meta != 0;
        if same_search && slot.key != key && slot.depth > depth {
            return;
        }
        let mv = match mv {
            Some(m) => m,
            // Keep the old move for the same position: a fail-low has none.
            None if same_search && slot.key == key => slot.mv,
            None => NO_MOVE,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Entry {
            key,
            score,
            mv,
            depth,
            meta: (self.generation << 2) | bound_bits,
        };
    }
}

/// Advances a table's search stamp so that entries of earlier searches stop
/// counting: clearing in O(1). Stamps run through `1..count`; when they wrap
/// the entries are wiped, since a stale entry could look current again.
pub fn next_generation<E: Default + Clone>(generation: &mut u8, count: u16, entries: &mut [E]) {
    let next = (u16::from(*generation) + 1) % count;
    if next == 0 {
        entries.fill(E::default());
        *generation = 1;
    } else {
        *generation = next as u8;
    }
}

/// A table of `len` default entries, backed by huge pages where the system
/// allows: probes land all over a large table, and with 4 KB pages nearly
/// each one also misses the TLB. The advice is given before the memory is
/// first touched, so the kernel can back it with huge pages from the start.
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
            // they are backed, never their contents or validity.
            unsafe { libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE) };
        }
    }
    entries.resize(len, E::default());
    entries
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
        for _ in 0..GENERATIONS {
            tt.new_search();
        }
        assert!(tt.probe(9).is_none());
    }
}
