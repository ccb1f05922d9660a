//! Connect Four's opening book: exact values of the positions the service
//! meets first, so the opening is answered at once and proven.
//!
//! The book holds the positions the service reaches when it plays its own
//! (book) moves from the empty board against any replies, as either side,
//! to the ply where the solver takes over in well under a second (see the
//! generator, `examples/connect4_book.rs`). Each entry keeps, for every
//! column, the exact score of playing it where the generator worked it out
//! (always for the best move), so an entry gives the position's score, its
//! best move, and the score of each of its children reached by a known
//! move.
//!
//! A position and its mirror image have the same value, so only one of the
//! two is stored: the one with the smaller key. Entries are 16 bytes,
//! sorted by key, and found by binary search.

use std::sync::LazyLock;

use super::board::{Board, CENTRE_FIRST, WIDTH, column_mask, mirror_columns, win_now_score};

/// A column whose score the book does not hold.
pub const UNKNOWN: i8 = i8::MIN;
/// A full column: no move.
pub const FULL: i8 = i8::MAX;

/// The file's first bytes: the format's name and version.
const MAGIC: &[u8; 8] = b"c4book01";
/// Bytes per entry: the key, a score per column, the ply.
const ENTRY_BYTES: usize = 16;

/// One position's line in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// [`Board::key`] of the stored orientation.
    pub key: u64,
    /// Discs on the board.
    pub ply: u8,
    /// For each column, the exact score (the side to move's view, as the
    /// solver counts it) of playing there, or [`UNKNOWN`] or [`FULL`].
    pub scores: [i8; WIDTH],
}

impl Entry {
    /// The entry of `board` with the given column scores, stored in the
    /// orientation of the smaller key.
    pub fn of(board: &Board, scores: [i8; WIDTH]) -> Self {
        let (key, mirrored) = canonical(board);
        Self {
            key,
            ply: board.moves() as u8,
            scores: if mirrored { reversed(scores) } else { scores },
        }
    }

    /// The best known column and its score: the highest score, ties to the
    /// column nearer the centre (so the choice never depends on how the
    /// scores were found).
    pub fn best(&self) -> Option<(usize, i32)> {
        CENTRE_FIRST
            .iter()
            .filter_map(|&col| known(self.scores[col]).map(|s| (col, s)))
            .fold(None, |best, (col, s)| match best {
                Some((_, b)) if b >= s => best,
                _ => Some((col, s)),
            })
    }

    /// The same entry seen in a mirror.
    fn mirrored(self) -> Self {
        Self {
            scores: reversed(self.scores),
            key: mirror_columns(self.key),
            ..self
        }
    }
}

fn known(score: i8) -> Option<i32> {
    (score != UNKNOWN && score != FULL).then_some(i32::from(score))
}

fn reversed(mut scores: [i8; WIDTH]) -> [i8; WIDTH] {
    scores.reverse();
    scores
}

/// The stored key of `board` and whether it is the mirror image's.
fn canonical(board: &Board) -> (u64, bool) {
    let key = board.key();
    let mirror = mirror_columns(key);
    if mirror < key {
        (mirror, true)
    } else {
        (key, false)
    }
}

/// Why a book file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("not a Connect Four book (the file does not start with {MAGIC:?})")]
    Magic,
    #[error("the file's length is not a whole number of {ENTRY_BYTES}-byte entries")]
    Length,
    #[error("entry {0} is out of key order")]
    Order(usize),
    #[error("entry {0} has no move with a known score")]
    NoMove(usize),
}

/// The book: entries sorted by key.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: Vec<Entry>,
    deepest: u32,
}

static EMBEDDED_FILE: &[u8] = include_bytes!("book.bin");

static EMBEDDED: LazyLock<Book> =
    LazyLock::new(|| Book::from_bytes(EMBEDDED_FILE).expect("the embedded book is well formed"));

impl Book {
    /// The book built into the binary.
    pub fn embedded() -> &'static Book {
        &EMBEDDED
    }

    /// A book of `entries` (any order; a later entry for the same position
    /// replaces an earlier one).
    pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Self {
        let mut map = std::collections::BTreeMap::new();
        for e in entries {
            map.insert(e.key, e);
        }
        let entries: Vec<Entry> = map.into_values().collect();
        let deepest = entries.iter().map(|e| u32::from(e.ply)).max().unwrap_or(0);
        Self { entries, deepest }
    }

    /// Reads a book file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BookError> {
        let body = bytes.strip_prefix(MAGIC).ok_or(BookError::Magic)?;
        if body.len() % ENTRY_BYTES != 0 {
            return Err(BookError::Length);
        }
        let mut entries = Vec::with_capacity(body.len() / ENTRY_BYTES);
        for (i, chunk) in body.chunks_exact(ENTRY_BYTES).enumerate() {
            let mut key = [0; 8];
            key.copy_from_slice(&chunk[..8]);
            let mut scores = [0; WIDTH];
            for (s, &b) in scores.iter_mut().zip(&chunk[8..8 + WIDTH]) {
                *s = b as i8;
            }
            let entry = Entry {
                key: u64::from_le_bytes(key),
                scores,
                ply: chunk[ENTRY_BYTES - 1],
            };
            if entries.last().is_some_and(|p: &Entry| p.key >= entry.key) {
                return Err(BookError::Order(i));
            }
            if entry.best().is_none() {
                return Err(BookError::NoMove(i));
            }
            entries.push(entry);
        }
        Ok(Self::from_entries(entries))
    }

    /// The book as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAGIC.len() + self.entries.len() * ENTRY_BYTES);
        out.extend_from_slice(MAGIC);
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend(e.scores.iter().map(|&s| s as u8));
            out.push(e.ply);
        }
        out
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most discs of any entry: below it and one ply past it, the
    /// solver asks the book.
    pub fn deepest_ply(&self) -> u32 {
        self.deepest
    }

    /// The entry of `board`, turned to `board`'s orientation.
    pub fn entry(&self, board: &Board) -> Option<Entry> {
        if board.moves() > self.deepest {
            return None;
        }
        let (key, mirrored) = canonical(board);
        let i = self.entries.binary_search_by_key(&key, |e| e.key).ok()?;
        let e = self.entries[i];
        Some(if mirrored { e.mirrored() } else { e })
    }

    /// The best move of `board` and its score, when `board` is in the book.
    pub fn best_move(&self, board: &Board) -> Option<(usize, i32)> {
        self.entry(board).and_then(|e| e.best())
    }

    /// The exact score of ongoing `board` when the book knows it: from its
    /// own entry, or from the entry of the position before its last disc
    /// (any column whose top disc the last mover owns may have been the
    /// last move).
    pub fn score(&self, board: &Board) -> Option<i32> {
        if board.moves() > self.deepest + 1 {
            return None;
        }
        if let Some((_, score)) = self.best_move(board) {
            return Some(score);
        }
        let last_mover = board.opponent();
        (0..WIDTH).find_map(|col| {
            let column = board.mask() & column_mask(col);
            if column == 0 {
                return None;
            }
            let top = 1u64 << (63 - column.leading_zeros());
            if top & last_mover == 0 {
                return None;
            }
            let mut parent = *board;
            parent.undo_col(col);
            let scores = self.entry(&parent)?.scores;
            known(scores[col]).map(|s| -s)
        })
    }
}

/// The score of each column of `board` that the rules alone decide: a
/// full column, a disc that wins at once, a disc that lets the opponent
/// win at once. Every other column is [`UNKNOWN`].
pub fn obvious_scores(board: &Board) -> [i8; WIDTH] {
    let mut scores = [UNKNOWN; WIDTH];
    // Only meaningful when the side to move cannot win at once, and then
    // only consulted for columns that do not win.
    let safe = board.non_losing_moves();
    for (col, score) in scores.iter_mut().enumerate() {
        if !board.can_play(col) {
            *score = FULL;
        } else if board.is_winning_col(col) {
            *score = win_now_score(board.moves()) as i8;
        } else if safe & column_mask(col) == 0 {
            // The disc leaves a threat unblocked, or lands under one.
            *score = -(win_now_score(board.moves() + 1) as i8);
        }
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &str) -> Board {
        let mut b = Board::new();
        for c in moves.bytes() {
            b.play_col(usize::from(c - b'1'));
        }
        b
    }

    #[test]
    fn a_book_survives_its_file() {
        let entries = [
            Entry::of(&board(""), [-2, -1, 0, 1, 0, -1, -2]),
            Entry::of(&board("1"), [UNKNOWN, 3, UNKNOWN, -4, FULL, UNKNOWN, 5]),
        ];
        let book = Book::from_entries(entries);
        let again = Book::from_bytes(&book.to_bytes()).unwrap();
        assert_eq!(again.entries(), book.entries());
        assert_eq!(again.deepest_ply(), 1);
    }

    #[test]
    fn a_mirror_image_finds_the_same_entry_turned_around() {
        let book = Book::from_entries([Entry::of(&board("12"), [9, 1, 2, 3, 4, 5, 6])]);
        assert_eq!(book.best_move(&board("12")), Some((0, 9)));
        assert_eq!(book.best_move(&board("76")), Some((6, 9)));
        assert_eq!(book.entry(&board("13")), None);
    }

    #[test]
    fn a_child_reached_by_a_known_move_has_its_score() {
        let book =
            Book::from_entries([Entry::of(&board("4"), [UNKNOWN, 2, -3, 1, -3, 2, UNKNOWN])]);
        // After 2: the parent scores the move 2, so the child (the other
        // side to move) has -2.
        assert_eq!(book.score(&board("42")), Some(-2));
        assert_eq!(book.score(&board("46")), Some(-2), "the mirror image of 42");
        assert_eq!(book.score(&board("41")), None, "column 1 is unknown");
        // 24 is not a child of the entry: 2's disc is X's, not O's.
        assert_eq!(book.score(&board("24")), None);
    }

    #[test]
    fn ties_go_to_the_column_nearest_the_centre() {
        let e = Entry::of(&board(""), [1, 1, 1, 0, 1, 1, 1]);
        assert_eq!(e.best(), Some((2, 1)));
        let e = Entry::of(
            &board(""),
            [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, 0, UNKNOWN, 0],
        );
        assert_eq!(e.best(), Some((4, 0)));
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(matches!(Book::from_bytes(b"nope"), Err(BookError::Magic)));
        let mut bytes = MAGIC.to_vec();
        bytes.push(1);
        assert!(matches!(Book::from_bytes(&bytes), Err(BookError::Length)));
        let mut bytes = MAGIC.to_vec();
        bytes.extend([0; ENTRY_BYTES]);
        bytes[MAGIC.len() + 8..MAGIC.len() + 15].fill(UNKNOWN as u8);
        assert!(matches!(
            Book::from_bytes(&bytes),
            Err(BookError::NoMove(0))
        ));
    }

    #[test]
    fn the_rules_alone_score_full_winning_and_losing_columns() {
        // X has 1,2,3 on the bottom row: 4 wins for X at once.
        let b = board("172736");
        let s = obvious_scores(&b);
        assert_eq!(s[3], win_now_score(b.moves()) as i8);
        // O to move against X's three: every column but 4 loses at once.
        let b = board("17273");
        let s = obvious_scores(&b);
        assert_eq!(s[3], UNKNOWN);
        assert_eq!(s[4], -(win_now_score(b.moves() + 1) as i8));
    }
}
