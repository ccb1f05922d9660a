//! The board as the generic search sees it: moves, terminal states and a
//! threat-based evaluation. The generic core answers when an exact solve
//! does not fit in the time budget, and plain minimax over this impl is the
//! oracle the solver is tested against.

use super::board::CENTRE_FIRST;
use super::board::{BOARD, Board, HEIGHT, WIDTH, cell_of, column_mask, winning_cells};
use crate::search::{GameTree, Terminal};
use crate::vocabulary::Player;

/// A move: the bit index of the cell where the disc lands
/// (`col * 7 + row from the bottom`), so the cell is known from the move.
pub type Cell = u8;

/// Bits of the rows that favour X in the endgame: rows 1, 3, 5 counted
/// from the bottom (indices 0, 2, 4). With the board filling up two by two,
/// X (who plays the odd plies) gets to claim threats on odd rows, O on even.
const ODD_ROWS: u64 = {
    let mut bits = 0;
    let mut col = 0;
    while col < WIDTH {
        bits |= 0b10101 << (col * 7);
        col += 1;
    }
    bits
};

/// How much each column's discs are worth: the lines through its cells.
const COLUMN_WEIGHT: [i32; WIDTH] = [3, 4, 5, 7, 5, 4, 3];

impl Board {
    /// The threat-based heuristic for the side to move: threats (empty
    /// cells that would complete four) count, more when on the rows that
    /// favour their owner, threats stacked above an opponent's threat
    /// count less (they are blocked), and central discs count a little.
    pub fn heuristic(&self) -> i32 {
        let me = self.side_to_move();
        let (mine, theirs) = (self.current(), self.opponent());
        let my_threats = winning_cells(mine, self.mask());
        let their_threats = winning_cells(theirs, self.mask());
        let mut score = threat_value(my_threats, their_threats, me)
            - threat_value(their_threats, my_threats, me.other());
        for (col, weight) in COLUMN_WEIGHT.into_iter().enumerate() {
            let c = column_mask(col);
            score += weight * ((mine & c).count_ones() as i32 - (theirs & c).count_ones() as i32);
        }
        score
    }

    /// The playable cells in centre-first order.
    fn playable_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let playable = self.playable();
        CENTRE_FIRST.into_iter().filter_map(move |col| {
            let cell = playable & column_mask(col);
            (cell != 0).then(|| cell.trailing_zeros() as Cell)
        })
    }
}

fn threat_value(threats: u64, opposing: u64, owner: Player) -> i32 {
    // A threat right above an opposing threat can never be reached.
    let live = threats & !(opposing << 1) & BOARD;
    let good_rows = match owner {
        Player::X => ODD_ROWS,
        Player::O => BOARD & !ODD_ROWS,
    };
    40 * live.count_ones() as i32 + 60 * (live & good_rows).count_ones() as i32
}

impl GameTree for Board {
    type Move = Cell;

    fn side_to_move(&self) -> Player {
        Board::side_to_move(self)
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        moves.extend(self.playable_cells());
    }

    fn play(&mut self, cell: Cell) {
        self.play_cell(1 << cell);
    }

    fn undo(&mut self, cell: Cell) {
        self.undo_col(cell as usize / 7);
    }

    fn terminal(&self) -> Option<Terminal> {
        if self.last_mover_won() {
            Some(Terminal::Loss)
        } else if self.is_full() {
            Some(Terminal::Draw)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        self.heuristic()
    }

    fn hash(&self) -> u64 {
        // The key is unique; an odd multiplier keeps it unique and spreads
        // it over the table's index bits.
        self.key().wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn encode(cell: Cell) -> u16 {
        u16::from(cell)
    }

    fn order_hint(&self, cell: Cell) -> i32 {
        let bit = 1u64 << cell;
        if self.own_threats() & bit != 0 {
            return 10_000;
        }
        if self.opponent_threats() & bit != 0 {
            return 5_000;
        }
        let (col, _) = cell_of(bit);
        let created = winning_cells(self.current() | bit, self.mask() | bit).count_ones() as i32;
        // Never under the opponent's winning cell.
        let gift = if self.opponent_threats() & (bit << 1) != 0 {
            -5_000
        } else {
            0
        };
        gift + 100 * created + COLUMN_WEIGHT[col]
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(self.empty_cells())
    }

    fn notation(&self, cell: Cell) -> String {
        (cell as usize / 7 + 1).to_string()
    }

    fn cell(cell: Cell) -> Option<(usize, usize)> {
        let (col, row_from_bottom) = cell_of(1 << cell);
        Some((HEIGHT - 1 - row_from_bottom, col))
    }
}
