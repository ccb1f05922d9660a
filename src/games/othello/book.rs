//! The opening book: positions of the first plies with the move our own
//! deep searches chose, negamaxed through the book's tree
//! (`examples/othello_book.rs` builds it).
//!
//! Each position is stored once for its eight symmetric forms, under the
//! smallest of them (as the pair of side-to-move and opponent bitboards);
//! a lookup finds the stored form and carries the move back.
//!
//! `book.bin` holds the entries sorted by position, 20 bytes each:
//! the side to move's discs and the opponent's (little-endian `u64`s), the
//! move (a square in the stored form), the depth of the searches behind it
//! and the score (little-endian `i16`, in the midgame search's units).

use std::sync::LazyLock;

use super::Move;
use super::bitboard::{inverse_transform, transform, transform_square};

static FILE: &[u8] = include_bytes!("book.bin");

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 20;

/// What the book says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The plies of the searches the book's values come from.
    pub depth: u32,
    /// The side to move's score, in the midgame search's units.
    pub score: i32,
}

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub p: u64,
    pub o: u64,
    pub book: BookMove,
}

impl Entry {
    /// The entry's bytes, as `book.bin` holds them.
    pub fn to_bytes(&self) -> [u8; ENTRY_BYTES] {
        let mut out = [0; ENTRY_BYTES];
        out[..8].copy_from_slice(&self.p.to_le_bytes());
        out[8..16].copy_from_slice(&self.o.to_le_bytes());
        out[16] = self.book.mv;
        out[17] = self.book.depth as u8;
        out[18..].copy_from_slice(&(self.book.score as i16).to_le_bytes());
        out
    }

    fn from_bytes(b: &[u8]) -> Self {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        Self {
            p: word(0),
            o: word(8),
            book: BookMove {
                mv: b[16],
                depth: u32::from(b[17]),
                score: i32::from(i16::from_le_bytes([b[18], b[19]])),
            },
        }
    }
}

static ENTRIES: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    FILE.chunks_exact(ENTRY_BYTES)
        .map(Entry::from_bytes)
        .collect()
});

/// The stored form of a position and the symmetry that makes it.
pub fn canonical(p: u64, o: u64) -> ((u64, u64), usize) {
    (0..8)
        .map(|s| ((transform(s, p), transform(s, o)), s))
        .min()
        .unwrap_or(((p, o), 0))
}

/// The book's move for `p` to move against `o`, if it holds the position.
pub fn lookup(p: u64, o: u64) -> Option<BookMove> {
    let (key, s) = canonical(p, o);
    let entries = &*ENTRIES;
    let i = entries.binary_search_by_key(&key, |e| (e.p, e.o)).ok()?;
    let book = entries[i].book;
    let mv = transform_square(inverse_transform(s), usize::from(book.mv)) as Move;
    Some(BookMove { mv, ..book })
}

/// Every stored position, sorted by its stored form.
pub fn entries() -> &'static [Entry] {
    &ENTRIES
}

/// Reads the book now rather than in the first search.
pub fn prepare() {
    LazyLock::force(&ENTRIES);
}
