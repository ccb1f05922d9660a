//! The Connect Four position as two bitboards, and its rules.
//!
//! Each column takes 7 bits: 6 cells from the bottom up, then a sentinel
//! bit that always stays empty. The sentinel keeps shifted lines from
//! wrapping into the next column, and lets a disc be added to a column by
//! one addition (`mask + bottom`). Bit `col * 7 + row` is the cell `row`
//! from the bottom of column `col`.

use crate::games::Player;

/// Columns on the board.
pub const WIDTH: usize = 7;
/// Rows on the board.
pub const HEIGHT: usize = 6;
/// Cells on the board: the longest possible game, in plies.
pub const CELLS: usize = WIDTH * HEIGHT;
/// Bits per column: the cells plus the sentinel.
const STRIDE: usize = HEIGHT + 1;

/// Columns, centre first: central discs take part in more lines.
pub const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// The solver's score when the side to move, with `moves` discs on the
/// board, wins with its next disc.
pub const fn win_now_score(moves: u32) -> i32 {
    (CELLS as i32 + 1 - moves as i32) / 2
}

/// The bottom cell of every column.
pub const BOTTOM: u64 = bottom_row();
/// Every playable cell (sentinels excluded).
pub const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

const fn bottom_row() -> u64 {
    let mut bits = 0;
    let mut col = 0;
    while col < WIDTH {
        bits |= 1 << (col * STRIDE);
        col += 1;
    }
    bits
}

/// The cells of column `col`.
#[inline]
pub const fn column_mask(col: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (col * STRIDE)
}

/// The bottom cell of column `col`.
#[inline]
pub const fn bottom_cell(col: usize) -> u64 {
    1 << (col * STRIDE)
}

/// The top cell of column `col`.
#[inline]
const fn top_cell(col: usize) -> u64 {
    1 << (col * STRIDE + HEIGHT - 1)
}

/// The bit of a cell, `row` counted from the bottom.
#[inline]
pub const fn cell_bit(col: usize, row_from_bottom: usize) -> u64 {
    1 << (col * STRIDE + row_from_bottom)
}

/// `bits` (columns of `STRIDE` bits) with the columns in reverse order.
/// A key ([`Board::key`]) mirrors this way too: its columns never carry
/// into each other.
#[inline]
pub const fn mirror_columns(bits: u64) -> u64 {
    let column = (1 << STRIDE) - 1;
    let mut out = 0;
    let mut col = 0;
    while col < WIDTH {
        out |= ((bits >> (col * STRIDE)) & column) << ((WIDTH - 1 - col) * STRIDE);
        col += 1;
    }
    out
}

/// Column and row (from the bottom) of a single-bit cell.
#[inline]
pub const fn cell_of(bit: u64) -> (usize, usize) {
    let index = bit.trailing_zeros() as usize;
    (index / STRIDE, index % STRIDE)
}

/// The empty cells that would complete four in a row for `discs`, in any
/// direction. Branch-free: for each direction, a cell is a threat when
/// three discs sit next to it on one side, or two on one side and one on
/// the other.
#[inline]
pub const fn winning_cells(discs: u64, mask: u64) -> u64 {
    // Vertical: only three discs below can make four.
    let mut r = (discs << 1) & (discs << 2) & (discs << 3);
    // Horizontal (7), and the two diagonals (6 and 8).
    r |= line_threats(discs, STRIDE);
    r |= line_threats(discs, STRIDE - 1);
    r |= line_threats(discs, STRIDE + 1);
    r & (BOARD ^ mask)
}

#[inline]
const fn line_threats(d: u64, s: usize) -> u64 {
    let mut r = 0;
    let pair = (d << s) & (d << (2 * s));
    r |= pair & (d << (3 * s));
    r |= pair & (d >> s);
    let pair = (d >> s) & (d >> (2 * s));
    r |= pair & (d >> (3 * s));
    r |= pair & (d << s);
    r
}

/// Does `discs` hold four in a row somewhere?
#[inline]
pub const fn has_four(discs: u64) -> bool {
    let shifts = [1, STRIDE, STRIDE - 1, STRIDE + 1];
    let mut i = 0;
    while i < shifts.len() {
        let s = shifts[i];
        let m = discs & (discs >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
        i += 1;
    }
    false
}

/// Every four-in-a-row of `discs`, as the cells of one line each.
pub fn fours(discs: u64) -> Vec<u64> {
    let mut lines = Vec::new();
    for s in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let m = discs & (discs >> s);
        let mut starts = m & (m >> (2 * s));
        while starts != 0 {
            let start = starts & starts.wrapping_neg();
            starts ^= start;
            lines.push(start | start << s | start << (2 * s) | start << (3 * s));
        }
    }
    lines
}

/// A Connect Four position: the side to move's discs and all discs.
///
/// `Copy` and 24 bytes, so the solver copies it instead of undoing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The discs of the side to move.
    current: u64,
    /// Every disc on the board.
    mask: u64,
    /// Discs played so far.
    moves: u32,
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

impl Board {
    /// The empty board, X to move.
    pub const fn new() -> Self {
        Self {
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// Builds a board from the discs of X and O; does not validate.
    pub const fn from_discs(x: u64, o: u64) -> Self {
        let moves = (x | o).count_ones();
        let current = if moves % 2 == 0 { x } else { o };
        Self {
            current,
            mask: x | o,
            moves,
        }
    }

    /// Discs played so far.
    #[inline]
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// Empty cells left.
    #[inline]
    pub const fn empty_cells(&self) -> u32 {
        CELLS as u32 - self.moves
    }

    /// Every disc on the board.
    #[inline]
    pub const fn mask(&self) -> u64 {
        self.mask
    }

    /// The side to move's discs.
    #[inline]
    pub const fn current(&self) -> u64 {
        self.current
    }

    /// The discs of the side that just moved.
    #[inline]
    pub const fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    pub const fn side_to_move(&self) -> Player {
        if self.moves % 2 == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    /// The discs of `player`.
    pub const fn discs(&self, player: Player) -> u64 {
        if self.side_to_move() as u8 == player as u8 {
            self.current
        } else {
            self.opponent()
        }
    }

    /// A unique key for the position, below 2^49: the side to move's discs
    /// plus the mask. Adding the mask turns each column's filled part into
    /// a carry that marks the column's height, so the sum keeps both the
    /// heights and who owns each disc.
    #[inline]
    pub const fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The position seen in a mirror: column `c` becomes column `6 - c`.
    /// Connect Four is symmetric, so both have the same value.
    #[inline]
    pub const fn mirrored(&self) -> Self {
        Self {
            current: mirror_columns(self.current),
            mask: mirror_columns(self.mask),
            moves: self.moves,
        }
    }

    /// The cell where the next disc in each open column would land.
    #[inline]
    pub const fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// Can a disc go into column `col`?
    #[inline]
    pub const fn can_play(&self, col: usize) -> bool {
        col < WIDTH && self.mask & top_cell(col) == 0
    }

    /// Plays column `col`, which must be open.
    #[inline]
    pub fn play_col(&mut self, col: usize) {
        self.play_cell((self.mask + bottom_cell(col)) & column_mask(col));
    }

    /// Plays the single-bit `cell`, which must be a playable cell.
    #[inline]
    pub fn play_cell(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves += 1;
    }

    /// Takes back the top disc of column `col`, which must be the last
    /// disc played.
    pub fn undo_col(&mut self, col: usize) {
        let column = self.mask & column_mask(col);
        let top = 1u64 << (63 - column.leading_zeros());
        self.mask ^= top;
        self.current ^= self.mask;
        self.moves -= 1;
    }

    /// The row from the bottom where a disc in `col` would land.
    pub fn landing_row(&self, col: usize) -> usize {
        (self.mask & column_mask(col)).count_ones() as usize
    }

    /// Would playing column `col` win at once for the side to move?
    pub fn is_winning_col(&self, col: usize) -> bool {
        self.can_play(col)
            && winning_cells(self.current, self.mask) & self.playable() & column_mask(col) != 0
    }

    /// Cells where the side to move would complete four.
    #[inline]
    pub const fn own_threats(&self) -> u64 {
        winning_cells(self.current, self.mask)
    }

    /// Cells where the opponent would complete four.
    #[inline]
    pub const fn opponent_threats(&self) -> u64 {
        winning_cells(self.opponent(), self.mask)
    }

    /// Can the side to move win with its next disc?
    #[inline]
    pub const fn can_win_next(&self) -> bool {
        self.own_threats() & self.playable() != 0
    }

    /// Playable cells that do not lose at once, given that the side to move
    /// cannot win at once: if the opponent threatens two playable cells
    /// every move loses (empty set); if one, it must be blocked; and a disc
    /// never goes right under an opponent's winning cell.
    #[inline]
    pub const fn non_losing_moves(&self) -> u64 {
        let mut playable = self.playable();
        let threats = self.opponent_threats();
        let forced = playable & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            playable = forced;
        }
        playable & !(threats >> 1)
    }

    /// Has the side that just moved made four in a row?
    #[inline]
    pub const fn last_mover_won(&self) -> bool {
        has_four(self.opponent())
    }

    /// Is the board full?
    #[inline]
    pub const fn is_full(&self) -> bool {
        self.moves as usize == CELLS
    }

    /// The cell occupant at (`row` from the top, `col`).
    pub fn at(&self, row_from_top: usize, col: usize) -> Option<Player> {
        let bit = cell_bit(col, HEIGHT - 1 - row_from_top);
        if self.mask & bit == 0 {
            None
        } else if self.discs(Player::X) & bit != 0 {
            Some(Player::X)
        } else {
            Some(Player::O)
        }
    }

    /// Rows top first, as the API writes them.
    pub fn rows(&self) -> Vec<String> {
        (0..HEIGHT)
            .map(|r| {
                (0..WIDTH)
                    .map(|c| self.at(r, c).map_or('.', Player::symbol))
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_as_drawn() {
        assert_eq!(BOTTOM.count_ones(), 7);
        assert_eq!(BOARD.count_ones(), 42);
        assert_eq!(BOARD & (BOTTOM << HEIGHT), 0, "sentinels stay out");
    }

    #[test]
    fn a_mirrored_game_is_the_game_played_in_mirrored_columns() {
        let (mut b, mut m) = (Board::new(), Board::new());
        for c in [3, 3, 2, 4, 6, 0, 0, 0, 1, 5, 5] {
            b.play_col(c);
            m.play_col(WIDTH - 1 - c);
            assert_eq!(b.mirrored(), m);
            assert_eq!(mirror_columns(b.key()), m.key());
            assert_eq!(b.mirrored().mirrored(), b);
        }
    }

    #[test]
    fn play_and_undo_round_trip() {
        let mut b = Board::new();
        let cols = [3, 3, 2, 4, 6, 0, 0, 0];
        let mut seen = vec![b];
        for &c in &cols {
            b.play_col(c);
            seen.push(b);
        }
        for &c in cols.iter().rev() {
            seen.pop();
            b.undo_col(c);
            assert_eq!(Some(&b), seen.last());
        }
    }
}
