//! The gomoku board: a padded array with, per empty cell, the line patterns
//! each colour would make there and what they combine into, kept up to
//! date on every play and undo, plus Zobrist hashing and the incremental
//! sums the evaluation reads.

use std::sync::OnceLock;

use super::Rules;
use super::eval::{self, COMBOS, THREATS, TO_MOVE, WAITING};
use super::pattern::{self, EMPTY, Pattern, PatternTable, WALL, slot};
use crate::games::Player;

/// Border cells around the board: enough for a four-cell reach each way.
pub const PAD: usize = 4;
/// The largest board side.
pub const MAX_SIZE: usize = 20;
/// Cells of the largest padded board; every cell index is below this.
pub const MAX_CELLS: usize = (MAX_SIZE + 2 * PAD) * (MAX_SIZE + 2 * PAD);

/// A cell index in the padded array.
pub type Cell = u16;

/// Per-cell flags for a colour, derived from its four line patterns.
pub mod flag {
    /// A stone here makes five (confirm with `makes_win` for exact rules).
    pub const FIVE: u8 = 1;
    /// A stone here makes an open four (or two fours on one line).
    pub const OPEN_FOUR: u8 = 2;
    /// A stone here makes at least a four.
    pub const FOUR: u8 = 4;
    /// A stone here makes an open three.
    pub const THREE: u8 = 8;
    /// A stone here builds something (at least a two).
    pub const SHAPE: u8 = 16;
    pub const COUNT: usize = 5;
}

/// What a colour's stone on one empty cell makes from all four lines
/// together, weakest first, so that "at least a four" is a comparison.
pub mod p4 {
    /// Nothing above a closed two.
    pub const NONE: u8 = 0;
    /// Renju black: a double three, double four or overline as the window
    /// reads it (the real rule decides, see `Board::forbidden`).
    pub const FORBID: u8 = 1;
    /// An open two.
    pub const TWO: u8 = 2;
    /// A closed three.
    pub const CLOSED_THREE: u8 = 3;
    /// Two open twos.
    pub const DOUBLE_TWO: u8 = 4;
    /// A closed three with another closed three or an open two.
    pub const CLOSED_THREE_PLUS: u8 = 5;
    /// An open three.
    pub const THREE: u8 = 6;
    /// An open three with a closed three or an open two.
    pub const THREE_PLUS: u8 = 7;
    /// Two open threes.
    pub const DOUBLE_THREE: u8 = 8;
    /// A four.
    pub const FOUR: u8 = 9;
    /// A four with a closed three or an open two.
    pub const FOUR_PLUS: u8 = 10;
    /// A four with an open three.
    pub const FOUR_THREE: u8 = 11;
    /// An open four, or two fours: two points make five.
    pub const OPEN_FOUR: u8 = 12;
    /// Five.
    pub const FIVE: u8 = 13;
    pub const COUNT: usize = 14;
}

/// The combination category of four line patterns for a colour that may
/// (`restricted` false) or may not make double threats.
fn combination(pats: [Pattern; 4], restricted: bool) -> u8 {
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    let fives = count(Pattern::Five);
    let open_fours = count(Pattern::OpenFour);
    let fours = count(Pattern::Four) + 2 * open_fours;
    let threes = pats.iter().filter(|p| p.is_open_three()).count();
    let closed_threes = count(Pattern::ClosedThree);
    let twos = pats.iter().filter(|p| p.is_open_two()).count();
    if fives > 0 {
        return p4::FIVE;
    }
    if restricted && (fours >= 2 || threes >= 2 || count(Pattern::Overline) > 0) {
        return p4::FORBID;
    }
    match (fours, threes) {
        (2.., _) => p4::OPEN_FOUR,
        (1, 1..) => p4::FOUR_THREE,
        (1, _) if closed_threes + twos > 0 => p4::FOUR_PLUS,
        (1, _) => p4::FOUR,
        (_, 2..) => p4::DOUBLE_THREE,
        (_, 1) if closed_threes + twos > 0 => p4::THREE_PLUS,
        (_, 1) => p4::THREE,
        _ if closed_threes >= 2 || (closed_threes == 1 && twos > 0) => p4::CLOSED_THREE_PLUS,
        _ if twos >= 2 => p4::DOUBLE_TWO,
        _ if closed_threes == 1 => p4::CLOSED_THREE,
        _ if twos == 1 => p4::TWO,
        _ => p4::NONE,
    }
}

/// Flags each line pattern sets, by `Pattern as usize`.
const PATTERN_FLAGS: [u8; Pattern::COUNT] = [
    0,
    0,
    0,
    flag::SHAPE,
    flag::SHAPE,
    flag::SHAPE,
    flag::SHAPE,
    flag::SHAPE,
    flag::SHAPE | flag::THREE,
    flag::SHAPE | flag::THREE,
    flag::SHAPE | flag::FOUR,
    flag::SHAPE | flag::FOUR | flag::OPEN_FOUR,
    flag::SHAPE | flag::FOUR | flag::FIVE,
    0,
];

/// What a colour's stone on one empty cell makes: flags, its combination's
/// category, the hand-made value that orders threat searches, the
/// evaluation's values of the cell for that colour to move and waiting,
/// and its move-ordering values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellInfo {
    pub flags: u8,
    /// The combination category (one of [`p4`]).
    pub p4: u8,
    pub value: i16,
    pub eval: [i16; 2],
    /// Move-ordering values of the cell's combination, as the mover's own
    /// and as the opponent's (`eval::OWN`, `eval::OTHERS`).
    pub order: [i16; 2],
}

/// Per colour, the info of every combination of four line patterns.
type CellTable = [[CellInfo; COMBOS]; 2];

/// The cell table of a rule set, built on first use from its weights.
fn cell_table(rules: Rules) -> &'static CellTable {
    static TABLES: [OnceLock<Box<CellTable>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[rules as usize].get_or_init(|| {
        let weights = eval::weights(rules);
        let mut t = Box::new([[CellInfo::default(); COMBOS]; 2]);
        for (color, infos) in t.iter_mut().enumerate() {
            for (i, info) in infos.iter_mut().enumerate() {
                let pats = eval::patterns_of(i);
                // Renju black's forbidden shapes are caught when it moves;
                // the hand value does not reward them.
                let value = eval::hand_value(pats, rules, color);
                let restricted = rules == Rules::Renju && color == 0;
                *info = CellInfo {
                    flags: pats.iter().fold(0, |f, &p| f | PATTERN_FLAGS[p as usize]),
                    p4: combination(pats, restricted),
                    value: value.min(i16::MAX.into()) as i16,
                    eval: [
                        weights.cells[color][TO_MOVE][i],
                        weights.cells[color][WAITING][i],
                    ],
                    order: [
                        weights.order[color][eval::OWN][i],
                        weights.order[color][eval::OTHERS][i],
                    ],
                };
            }
        }
        t
    })
}

/// The cells of a rectangle of the board, row by row; holds no borrow,
/// so a search can walk it while playing moves.
#[derive(Clone, Copy, Debug)]
pub struct Area {
    row: usize,
    col: usize,
    c0: usize,
    c1: usize,
    r1: usize,
    stride: usize,
}

impl Iterator for Area {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.row > self.r1 {
            return None;
        }
        let cell = (self.row + PAD) * self.stride + self.col + PAD;
        if self.col == self.c1 {
            self.col = self.c0;
            self.row += 1;
        } else {
            self.col += 1;
        }
        Some(cell as Cell)
    }
}

/// A cell's pattern state before a move changed it.
#[derive(Clone, Copy, Debug)]
struct Saved {
    cell: Cell,
    pats: [[u8; 4]; 2],
    info: [CellInfo; 2],
}

/// What a move changed besides the cells in the log: undo restores it
/// instead of recomputing patterns.
#[derive(Clone, Copy, Debug)]
struct Frame {
    log_len: usize,
    total: [[i32; 2]; 2],
    flag_count: [[u32; flag::COUNT]; 2],
    p4_count: [[u16; p4::COUNT]; 2],
    bounds: [usize; 4],
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    cell: Cell,
    won: bool,
}

/// A gomoku position with its incremental pattern state.
#[derive(Clone)]
pub struct Board {
    pub size: usize,
    pub stride: usize,
    pub rules: Rules,
    /// Offsets of the four line directions: →, ↓, ↘, ↙.
    pub dirs: [isize; 4],
    table: &'static PatternTable,
    cell_table: &'static CellTable,
    /// The evaluation's values of threat masks, by colour to move.
    threat_values: &'static [[i16; THREATS]; 2],
    /// 0 empty, 1 black, 2 white, 3 wall.
    pub(super) cells: Vec<u8>,
    keys: Vec<[u16; 4]>,
    /// Per cell and colour, the pattern of each direction (`Pattern as u8`).
    pats: Vec<[[u8; 4]; 2]>,
    info: Vec<[CellInfo; 2]>,
    /// Sums of `info.eval` over empty cells, per colour and role.
    total: [[i32; 2]; 2],
    /// Empty cells carrying each flag bit, per colour.
    flag_count: [[u32; flag::COUNT]; 2],
    /// Empty cells of each combination category, per colour.
    p4_count: [[u16; p4::COUNT]; 2],
    /// Stones within two cells (Chebyshev), per cell.
    near: Vec<u8>,
    hash: u64,
    side: Player,
    stones: usize,
    history: Vec<Undo>,
    /// Rows and columns spanned by the stones (min row, max row, min col,
    /// max col), and its earlier values for undo.
    bounds: [usize; 4],
    /// Per stone put: the state to restore on removal, and the cells it
    /// changed (in `log`).
    frames: Vec<Frame>,
    log: Vec<Saved>,
    /// The board's cells in row-major order.
    pub interior: Vec<Cell>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Board")
            .field("size", &self.size)
            .field("rules", &self.rules)
            .field("rows", &self.rows())
            .finish()
    }
}

/// Draws the hash keys and builds the cell tables now rather than in the
/// first search.
pub fn prepare() {
    zobrist();
    for rules in Rules::ALL {
        cell_table(rules);
    }
}

fn zobrist() -> &'static [[u64; MAX_CELLS]; 2] {
    static KEYS: OnceLock<Box<[[u64; MAX_CELLS]; 2]>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            // splitmix64: a fixed seed keeps hashes stable between runs.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut keys = Box::new([[0u64; MAX_CELLS]; 2]);
        for side in keys.iter_mut() {
            for k in side.iter_mut() {
                *k = next();
            }
        }
        keys
    })
}

/// The colour index of a player: black (X) 0, white (O) 1.
pub fn color(p: Player) -> usize {
    p as usize
}

impl Board {
    /// An empty board of `size` × `size`.
    pub fn new(size: usize, rules: Rules) -> Self {
        assert!((5..=MAX_SIZE).contains(&size), "board size {size}");
        let stride = size + 2 * PAD;
        let n = stride * stride;
        let s = stride as isize;
        let mut board = Board {
            size,
            stride,
            rules,
            dirs: [1, s, s + 1, s - 1],
            table: pattern::table(rules),
            cell_table: cell_table(rules),
            threat_values: &eval::weights(rules).threats,
            cells: vec![WALL; n],
            keys: vec![[0; 4]; n],
            pats: vec![[[0; 4]; 2]; n],
            info: vec![[CellInfo::default(); 2]; n],
            total: [[0; 2]; 2],
            flag_count: [[0; flag::COUNT]; 2],
            p4_count: [[0; p4::COUNT]; 2],
            near: vec![0; n],
            hash: (size as u64) << 8 | rules as u64,
            side: Player::X,
            stones: 0,
            history: Vec::with_capacity(size * size),
            bounds: [usize::MAX, 0, usize::MAX, 0],
            frames: Vec::with_capacity(size * size),
            log: Vec::with_capacity(size * size * 16),
            interior: Vec::with_capacity(size * size),
        };
        for r in 0..size {
            for c in 0..size {
                let cell = (r + PAD) * stride + c + PAD;
                board.cells[cell] = EMPTY;
                board.interior.push(cell as Cell);
            }
        }
        // Keys of every cell from scratch; walls beyond the array's edge.
        for cell in 0..n {
            for (d, &off) in board.dirs.iter().enumerate() {
                let mut key = 0u16;
                for k in (-4..=4).filter(|&k| k != 0) {
                    let q = cell as isize + k as isize * off;
                    let code = if (0..n as isize).contains(&q) {
                        board.cells[q as usize]
                    } else {
                        WALL
                    };
                    key |= u16::from(code) << (2 * slot(k));
                }
                board.keys[cell][d] = key;
            }
        }
        for i in 0..board.interior.len() {
            let cell = board.interior[i];
            board.refresh(cell);
        }
        board
    }

    pub fn cell(&self, row: usize, col: usize) -> Cell {
        ((row + PAD) * self.stride + col + PAD) as Cell
    }

    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        let c = cell as usize;
        (c / self.stride - PAD, c % self.stride - PAD)
    }

    /// The stone on a cell: `None` if empty.
    pub fn stone(&self, cell: Cell) -> Option<Player> {
        match self.cells[cell as usize] {
            1 => Some(Player::X),
            2 => Some(Player::O),
            _ => None,
        }
    }

    pub fn is_empty(&self, cell: Cell) -> bool {
        self.cells[cell as usize] == EMPTY
    }

    pub fn side_to_move(&self) -> Player {
        self.side
    }

    pub fn stones(&self) -> usize {
        self.stones
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.size * self.size
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the board would have after `color` plays `cell`.
    #[inline]
    pub fn hash_after(&self, cell: Cell, color: usize) -> u64 {
        self.hash ^ zobrist()[color][cell as usize]
    }

    /// The moves played since the board was set up, oldest first.
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().map(|u| u.cell)
    }

    /// Did the last move win?
    pub fn last_move_won(&self) -> bool {
        self.history.last().is_some_and(|u| u.won)
    }

    pub fn info(&self, cell: Cell, color: usize) -> CellInfo {
        self.info[cell as usize][color]
    }

    /// The pattern `color` makes on `cell` in direction `d`.
    pub fn pattern(&self, cell: Cell, color: usize, d: usize) -> Pattern {
        Pattern::from_u8(self.pats[cell as usize][color][d])
    }

    /// Empty cells where `color` has the flag `bit` (one of [`flag`]).
    pub fn flag_count(&self, color: usize, bit: u8) -> u32 {
        self.flag_count[color][bit.trailing_zeros() as usize]
    }

    /// Empty cells where `color`'s combination is `category` (one of [`p4`],
    /// not `NONE`).
    #[inline]
    pub fn p4_count(&self, color: usize, category: u8) -> u32 {
        u32::from(self.p4_count[color][category as usize])
    }

    /// The evaluation of the position for `color` to move: its cells'
    /// values to move plus the opponent's cells' values waiting, plus the
    /// value of the threats on the board.
    pub fn eval_for(&self, color: usize) -> i32 {
        self.total[color][TO_MOVE]
            + self.total[1 - color][WAITING]
            + i32::from(self.threat_values[color][self.threat_mask(color)])
    }

    /// The threat mask (see [`eval::threat_mask`]) with `color` to move.
    #[inline]
    pub fn threat_mask(&self, color: usize) -> usize {
        eval::threat_mask(|side, category| {
            let c = if side == 0 { color } else { 1 - color };
            self.p4_count(c, category)
        })
    }

    /// Is `b` within two cells of `a`, or on one of its lines within four?
    pub fn within_reach(&self, a: Cell, b: Cell) -> bool {
        let (ra, ca) = self.row_col(a);
        let (rb, cb) = self.row_col(b);
        let dr = ra.abs_diff(rb);
        let dc = ca.abs_diff(cb);
        let far = dr.max(dc);
        far <= 2 || (far <= 4 && (dr == 0 || dc == 0 || dr == dc))
    }

    /// Stones within two cells of `cell`.
    pub fn near(&self, cell: Cell) -> u8 {
        self.near[cell as usize]
    }

    /// The cells within `margin` of the stones' bounding box (the whole
    /// board when it is empty): every cell whose patterns can be non-trivial
    /// lies within four cells of a stone.
    pub fn area(&self, margin: usize) -> Area {
        let n = self.size - 1;
        let [r0, r1, c0, c1] = if self.stones == 0 {
            [0, n, 0, n]
        } else {
            let b = self.bounds;
            [
                b[0].saturating_sub(margin),
                (b[1] + margin).min(n),
                b[2].saturating_sub(margin),
                (b[3] + margin).min(n),
            ]
        };
        Area {
            row: r0,
            col: c0,
            c0,
            c1,
            r1,
            stride: self.stride,
        }
    }

    /// Sets the side to move (for boards set up stone by stone).
    pub fn set_side(&mut self, side: Player) {
        self.side = side;
    }

    /// Plays the side to move's stone on an empty cell.
    pub fn play(&mut self, cell: Cell) {
        let color = color(self.side);
        self.put(cell, color);
        let won = self.wins_at(cell, color);
        self.history.push(Undo { cell, won });
        self.side = self.side.other();
    }

    /// Passes the turn without a stone (threat search for the side not to
    /// move); [`Board::unpass`] takes it back.
    pub fn pass(&mut self) {
        self.side = self.side.other();
    }

    pub fn unpass(&mut self) {
        self.side = self.side.other();
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.side = self.side.other();
        self.remove(u.cell, color(self.side));
    }

    /// Puts a stone of `color` without touching the move history or the
    /// side to move (for setting up a drawn board).
    pub fn put(&mut self, cell: Cell, color: usize) {
        let code = color as u8 + 1;
        self.frames.push(Frame {
            log_len: self.log.len(),
            total: self.total,
            flag_count: self.flag_count,
            p4_count: self.p4_count,
            bounds: self.bounds,
        });
        let (r, c) = self.row_col(cell);
        let b = &mut self.bounds;
        *b = [b[0].min(r), b[1].max(r), b[2].min(c), b[3].max(c)];
        self.save(cell);
        self.clear_info(cell);
        self.cells[cell as usize] = code;
        self.hash ^= zobrist()[color][cell as usize];
        self.stones += 1;
        self.toggle_keys(cell, code, true);
        self.adjust_near(cell, true);
    }

    fn remove(&mut self, cell: Cell, color: usize) {
        let code = color as u8 + 1;
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.cells[cell as usize] = EMPTY;
        self.hash ^= zobrist()[color][cell as usize];
        self.stones -= 1;
        self.toggle_keys(cell, code, false);
        self.adjust_near(cell, false);
        while self.log.len() > frame.log_len {
            let Some(saved) = self.log.pop() else { break };
            let c = saved.cell as usize;
            self.pats[c] = saved.pats;
            self.info[c] = saved.info;
        }
        self.total = frame.total;
        self.flag_count = frame.flag_count;
        self.p4_count = frame.p4_count;
        self.bounds = frame.bounds;
    }

    /// Logs a cell's pattern state before it changes.
    #[inline]
    fn save(&mut self, cell: Cell) {
        let c = cell as usize;
        self.log.push(Saved {
            cell,
            pats: self.pats[c],
            info: self.info[c],
        });
    }

    fn adjust_near(&mut self, cell: Cell, add: bool) {
        let s = self.stride as isize;
        for dr in -2..=2isize {
            for dc in -2..=2isize {
                let q = (cell as isize + dr * s + dc) as usize;
                if add {
                    self.near[q] += 1;
                } else {
                    self.near[q] -= 1;
                }
            }
        }
    }

    /// Flips `code` at `cell` in its neighbours' keys and, when `refresh`,
    /// brings their patterns up to date (undo restores them instead).
    fn toggle_keys(&mut self, cell: Cell, code: u8, refresh: bool) {
        for d in 0..4 {
            let off = self.dirs[d];
            for k in 1..=4i32 {
                // `cell` sits at offset −k from the cell after it, +k from the one before.
                let after = (cell as isize + k as isize * off) as usize;
                self.keys[after][d] ^= u16::from(code) << (2 * slot(-k));
                let before = (cell as isize - k as isize * off) as usize;
                self.keys[before][d] ^= u16::from(code) << (2 * slot(k));
                if refresh {
                    self.refresh_line(after as Cell, d);
                    self.refresh_line(before as Cell, d);
                }
            }
        }
    }

    /// Replaces a cell's info for a colour, keeping the sums in step.
    /// Always inlined: as a call from `refresh_line`, the new info went
    /// through the stack on the hottest path of the board update.
    #[inline(always)]
    fn set_info(&mut self, c: usize, color: usize, new: CellInfo) {
        let old = self.info[c][color];
        if old == new {
            return;
        }
        for role in [TO_MOVE, WAITING] {
            self.total[color][role] += i32::from(new.eval[role]) - i32::from(old.eval[role]);
        }
        // Stones and walls hold the default info: `NONE` is not counted.
        if old.p4 != new.p4 {
            if old.p4 != p4::NONE {
                self.p4_count[color][old.p4 as usize] -= 1;
            }
            if new.p4 != p4::NONE {
                self.p4_count[color][new.p4 as usize] += 1;
            }
        }
        let mut changed = old.flags ^ new.flags;
        while changed != 0 {
            let b = changed.trailing_zeros() as usize;
            if new.flags & (1 << b) != 0 {
                self.flag_count[color][b] += 1;
            } else {
                self.flag_count[color][b] -= 1;
            }
            changed &= changed - 1;
        }
        self.info[c][color] = new;
    }

    fn clear_info(&mut self, cell: Cell) {
        let c = cell as usize;
        for color in 0..2 {
            self.set_info(c, color, CellInfo::default());
        }
    }

    /// Recomputes an empty cell's pattern along line `d` after its key
    /// changed; most far-away stones leave the pattern as it was.
    #[inline]
    fn refresh_line(&mut self, cell: Cell, d: usize) {
        let c = cell as usize;
        if self.cells[c] != EMPTY {
            return;
        }
        let new = self.table.get(self.keys[c][d]);
        let old = [self.pats[c][0][d], self.pats[c][1][d]];
        if old == new {
            return;
        }
        self.save(cell);
        // Only a colour whose pattern changed needs its cell info again.
        for color in 0..2 {
            if old[color] != new[color] {
                // Updated as one word in a register and stored whole:
                // reading four bytes back right after a one-byte store to
                // them stalls the load (a third of this function's time).
                let shift = 8 * d as u32;
                let word = u32::from_le_bytes(self.pats[c][color]) & !(0xff << shift)
                    | u32::from(new[color]) << shift;
                let line_pats = word.to_le_bytes();
                self.pats[c][color] = line_pats;
                let info = self.combine(&line_pats, color);
                self.set_info(c, color, info);
            }
        }
    }

    /// Recomputes an empty cell's patterns from its keys.
    fn refresh(&mut self, cell: Cell) {
        let c = cell as usize;
        if self.cells[c] != EMPTY {
            return;
        }
        let mut pats = [[0u8; 4]; 2];
        for (d, &key) in self.keys[c].iter().enumerate() {
            let [b, w] = self.table.get(key);
            pats[0][d] = b;
            pats[1][d] = w;
        }
        self.pats[c] = pats;
        for (color, line_pats) in pats.iter().enumerate() {
            let info = self.combine(line_pats, color);
            self.set_info(c, color, info);
        }
    }

    /// What a cell's four line patterns combine into for `color`.
    #[inline]
    fn combine(&self, pats: &[u8; 4], color: usize) -> CellInfo {
        self.cell_table[color][eval::combo(pats)]
    }

    /// Length of `color`'s run through `cell` along `d`, counting `cell`
    /// itself whatever it holds.
    pub fn run(&self, cell: Cell, d: usize, color: usize) -> usize {
        let code = color as u8 + 1;
        let off = self.dirs[d];
        let mut len = 1;
        for sign in [1isize, -1] {
            let mut q = cell as isize + sign * off;
            while self.cells[q as usize] == code {
                len += 1;
                q += sign * off;
            }
        }
        len
    }

    /// Does a run of `len` win for `color` under these rules?
    pub fn is_winning_run(&self, len: usize, color: usize) -> bool {
        match self.rules {
            Rules::Freestyle => len >= 5,
            Rules::Standard => len == 5,
            Rules::Renju => len == 5 || (len > 5 && color == 1),
        }
    }

    /// Does the stone of `color` on `cell` complete a winning line?
    pub fn wins_at(&self, cell: Cell, color: usize) -> bool {
        (0..4).any(|d| self.is_winning_run(self.run(cell, d, color), color))
    }

    /// Would a stone of `color` on the empty `cell` win?
    pub fn makes_win(&self, cell: Cell, color: usize) -> bool {
        self.info[cell as usize][color].flags & flag::FIVE != 0 && self.wins_at(cell, color)
    }

    /// Appends every empty cell where `color` has the flag `bit` (one of
    /// [`flag`]), in row-major order. The scan stops at the last one: the
    /// flag counts say how many there are, and most nodes have few.
    pub fn cells_with_flag(&self, color: usize, bit: u8, out: &mut Vec<Cell>) {
        let mut left = self.flag_count(color, bit);
        if left == 0 {
            return;
        }
        // Stones and walls carry no flags, so no emptiness test is needed.
        for c in self.area(4) {
            if self.info[c as usize][color].flags & bit != 0 {
                out.push(c);
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
    }

    /// Appends every empty cell where `color`'s combination is `category`
    /// (one of [`p4`], not `NONE`), in row-major order.
    pub fn cells_with_p4(&self, color: usize, category: u8, out: &mut Vec<Cell>) {
        let mut left = self.p4_count(color, category);
        if left == 0 {
            return;
        }
        for c in self.area(4) {
            if self.info[c as usize][color].p4 == category {
                out.push(c);
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
    }

    /// The ways to spoil what `attacker` threatens at the empty cell `at`:
    /// `at` itself, and every empty cell on a line through `at` along
    /// which `attacker` makes at least `min` there, whose stone of the
    /// other colour would make that line's pattern weaker. Appended to
    /// `out` without repeats.
    pub fn spoilers(&self, at: Cell, attacker: usize, min: Pattern, out: &mut Vec<Cell>) {
        if !out.contains(&at) {
            out.push(at);
        }
        let defender = 1 - attacker;
        for d in 0..4 {
            let old = self.pats[at as usize][attacker][d];
            if old < min as u8 {
                continue;
            }
            // A strong open three made a plain one is still a three.
            let old = if old == Pattern::OpenThreeStrong as u8 {
                Pattern::OpenThree as u8
            } else {
                old
            };
            self.probe_line(at, d, defender, out, |pats| pats[attacker] < old);
        }
    }

    /// The empty cells on the lines through the empty cell `at` (within
    /// four) where a stone of `color` would make `color`'s pattern at `at`
    /// along that line at least `min`, where it is not yet. Appended to
    /// `out` without repeats.
    pub fn makers(&self, at: Cell, color: usize, min: Pattern, out: &mut Vec<Cell>) {
        for d in 0..4 {
            if self.pats[at as usize][color][d] < min as u8 {
                self.probe_line(at, d, color, out, |pats| pats[color] >= min as u8);
            }
        }
    }

    /// The empty cells within four of `at` along direction `d` where a
    /// stone of `color` leaves the patterns at `at` on that line (black's
    /// and white's) passing `keep`. Appended to `out` without repeats.
    fn probe_line(
        &self,
        at: Cell,
        d: usize,
        color: usize,
        out: &mut Vec<Cell>,
        keep: impl Fn([u8; 2]) -> bool,
    ) {
        let a = at as usize;
        let code = color as u8 + 1;
        let off = self.dirs[d];
        for k in (-4..=4i32).filter(|&k| k != 0) {
            let q = (a as isize + k as isize * off) as usize;
            if self.cells[q] != EMPTY {
                continue;
            }
            let key = self.keys[a][d] | u16::from(code) << (2 * slot(k));
            if keep(self.table.get(key)) && !out.contains(&(q as Cell)) {
                out.push(q as Cell);
            }
        }
    }

    /// Every empty cell where `color` would win at once.
    pub fn win_points(&self, color: usize, out: &mut Vec<Cell>) {
        out.clear();
        self.cells_with_flag(color, flag::FIVE, out);
        out.retain(|&c| self.wins_at(c, color));
    }

    /// The first winning point of `color`, if any.
    pub fn first_win_point(&self, color: usize) -> Option<Cell> {
        let mut left = self.flag_count(color, flag::FIVE);
        if left == 0 {
            return None;
        }
        for c in self.area(4) {
            if self.info[c as usize][color].flags & flag::FIVE != 0 {
                if self.wins_at(c, color) {
                    return Some(c);
                }
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        None
    }

    /// Winning points of `color` on the four lines through `cell` (which
    /// holds a stone of `color`), at most two distinct ones.
    pub fn win_points_through(&self, cell: Cell, color: usize, out: &mut Vec<Cell>) {
        out.clear();
        for d in 0..4 {
            let off = self.dirs[d];
            for k in (-4..=4isize).filter(|&k| k != 0) {
                let q = (cell as isize + k * off) as Cell;
                if self.is_empty(q) && self.makes_win(q, color) && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
    }

    /// Rows, top first, as the API writes them.
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .map(|r| {
                (0..self.size)
                    .map(|c| match self.stone(self.cell(r, c)) {
                        Some(p) => p.symbol(),
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// Every winning line on the board: (colour, cells).
    pub fn winning_lines(&self) -> Vec<(Player, Vec<Cell>)> {
        let mut lines = Vec::new();
        for &cell in &self.interior {
            let Some(p) = self.stone(cell) else { continue };
            let color = color(p);
            for d in 0..4 {
                let off = self.dirs[d];
                // Only from the first stone of each run.
                let prev = (cell as isize - off) as usize;
                if self.cells[prev] == color as u8 + 1 {
                    continue;
                }
                let len = self.run(cell, d, color);
                if self.is_winning_run(len, color) {
                    let run = (0..len)
                        .map(|i| (cell as isize + i as isize * off) as Cell)
                        .collect();
                    lines.push((p, run));
                }
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_fall_in_their_categories() {
        use Pattern::*;
        let free = |p: [Pattern; 4]| combination(p, false);
        assert_eq!(free([Five, Dead, Dead, Dead]), p4::FIVE);
        assert_eq!(free([OpenFour, One, One, One]), p4::OPEN_FOUR);
        assert_eq!(free([Four, Four, One, One]), p4::OPEN_FOUR);
        assert_eq!(free([Four, OpenThree, One, One]), p4::FOUR_THREE);
        assert_eq!(free([Four, OpenTwo, One, One]), p4::FOUR_PLUS);
        assert_eq!(free([Four, ClosedTwo, One, One]), p4::FOUR);
        assert_eq!(free([OpenThree, OpenThree, One, One]), p4::DOUBLE_THREE);
        assert_eq!(free([OpenThree, ClosedThree, One, One]), p4::THREE_PLUS);
        assert_eq!(free([OpenThree, One, One, One]), p4::THREE);
        assert_eq!(
            free([ClosedThree, OpenTwo, One, One]),
            p4::CLOSED_THREE_PLUS
        );
        assert_eq!(free([OpenTwo, OpenTwo, One, One]), p4::DOUBLE_TWO);
        assert_eq!(free([ClosedThree, One, One, One]), p4::CLOSED_THREE);
        assert_eq!(free([OpenTwo, One, One, One]), p4::TWO);
        assert_eq!(free([ClosedTwo, One, One, One]), p4::NONE);
        // Renju black: double threats and overlines are the rule's to judge.
        let black = |p: [Pattern; 4]| combination(p, true);
        assert_eq!(black([OpenThree, OpenThree, One, One]), p4::FORBID);
        assert_eq!(black([Four, Four, One, One]), p4::FORBID);
        assert_eq!(black([Overline, One, One, One]), p4::FORBID);
        assert_eq!(black([Five, OpenThree, OpenThree, One]), p4::FIVE);
        assert_eq!(black([Four, OpenThree, One, One]), p4::FOUR_THREE);
    }

    #[test]
    fn spoilers_are_the_cells_that_weaken_a_threat() {
        let mut b = Board::new(15, Rules::Freestyle);
        let at = |b: &Board, n: &str| {
            let (r, c) = crate::games::notation::parse_cell(n, 15, 15).unwrap();
            b.cell(r, c)
        };
        // Black g8 h8 i8: an open three; f8 and j8 make open fours.
        for n in ["g8", "h8", "i8"] {
            let cell = at(&b, n);
            b.put(cell, 0);
        }
        let mut out = Vec::new();
        b.spoilers(at(&b, "f8"), 0, Pattern::OpenFour, &mut out);
        let mut names: Vec<String> = out
            .iter()
            .map(|&c| {
                let (r, col) = b.row_col(c);
                crate::games::notation::cell_name(r, col)
            })
            .collect();
        names.sort();
        assert_eq!(names, ["e8", "f8", "j8"]);
        assert!(b.within_reach(at(&b, "h8"), at(&b, "l8")));
        assert!(!b.within_reach(at(&b, "h8"), at(&b, "m8")));
        assert!(!b.within_reach(at(&b, "h8"), at(&b, "k9")));
    }

    #[test]
    fn play_and_undo_restore_everything() {
        let mut b = Board::new(15, Rules::Freestyle);
        let fresh = b.clone();
        let moves = [
            (7, 7),
            (7, 8),
            (6, 6),
            (8, 8),
            (5, 5),
            (0, 0),
            (14, 14),
            (4, 4),
        ];
        for (r, c) in moves {
            let cell = b.cell(r, c);
            b.play(cell);
        }
        // Incremental totals equal a rebuild from scratch.
        let mut rebuilt = Board::new(15, Rules::Freestyle);
        for (i, (r, c)) in moves.iter().enumerate() {
            rebuilt.put(rebuilt.cell(*r, *c), i % 2);
        }
        assert_eq!(b.total, rebuilt.total);
        assert_eq!(b.flag_count, rebuilt.flag_count);
        assert_eq!(b.hash, rebuilt.hash);
        assert!(!b.last_move_won());
        for _ in moves {
            b.undo();
        }
        assert_eq!(b.keys, fresh.keys);
        assert_eq!(b.info, fresh.info);
        assert_eq!(b.total, fresh.total);
        assert_eq!(b.flag_count, fresh.flag_count);
        assert_eq!(b.near, fresh.near);
        assert_eq!(b.hash, fresh.hash);
    }

    #[test]
    fn random_games_keep_the_incremental_state_exact() {
        let mut seed = 0x1234_5678_9ABC_DEF0u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        for (size, rules) in [
            (15, Rules::Freestyle),
            (19, Rules::Standard),
            (20, Rules::Freestyle),
            (15, Rules::Renju),
        ] {
            for _ in 0..20 {
                let mut b = Board::new(size, rules);
                let fresh = b.clone();
                let mut played = Vec::new();
                let plies = 10 + next(80);
                while played.len() < plies && !b.last_move_won() {
                    // Mostly near the centre so that shapes form.
                    let r = (size / 2 + next(9)).saturating_sub(4);
                    let c = (size / 2 + next(9)).saturating_sub(4);
                    let cell = b.cell(r, c);
                    if b.is_empty(cell) {
                        b.play(cell);
                        played.push(cell);
                    }
                }
                let mut rebuilt = Board::new(size, rules);
                for (i, &cell) in played.iter().enumerate() {
                    rebuilt.put(cell, i % 2);
                }
                assert_eq!(b.keys, rebuilt.keys);
                assert_eq!(b.info, rebuilt.info);
                assert_eq!(b.total, rebuilt.total);
                assert_eq!(b.flag_count, rebuilt.flag_count);
                assert_eq!(b.p4_count, rebuilt.p4_count);
                assert_eq!(b.near, rebuilt.near);
                assert_eq!(b.hash, rebuilt.hash);
                for _ in &played {
                    b.undo();
                }
                assert_eq!(b.keys, fresh.keys);
                assert_eq!(b.pats, fresh.pats);
                assert_eq!(b.info, fresh.info);
                assert_eq!(b.total, fresh.total);
                assert_eq!(b.flag_count, fresh.flag_count);
                assert_eq!(b.p4_count, fresh.p4_count);
                assert_eq!(b.hash, fresh.hash);
                assert_eq!(b.bounds, fresh.bounds);
            }
        }
    }

    #[test]
    fn winning_combinations_outrank_single_shapes() {
        // Black: c8 d8 e8 (b8 white) and f6 f7: f8 makes a four and an
        // open three. Black j2 k2 l2: m2 makes an open four.
        let mut b = Board::new(15, Rules::Freestyle);
        let at = |b: &Board, n: &str| {
            let (r, c) = crate::games::notation::parse_cell(n, 15, 15).unwrap();
            b.cell(r, c)
        };
        for n in ["c8", "d8", "e8", "f6", "f7", "j2", "k2", "l2"] {
            let cell = at(&b, n);
            b.put(cell, 0);
        }
        let cell = at(&b, "b8");
        b.put(cell, 1);
        let four_three = b.info(at(&b, "f8"), 0);
        assert_eq!(
            four_three.flags & (flag::FOUR | flag::THREE),
            flag::FOUR | flag::THREE
        );
        let open_four = b.info(at(&b, "m2"), 0);
        assert_ne!(open_four.flags & flag::OPEN_FOUR, 0);
        assert_eq!(four_three.p4, p4::FOUR_THREE);
        assert_eq!(open_four.p4, p4::OPEN_FOUR);
        assert_eq!(b.p4_count(0, p4::FOUR_THREE), 1);
        // Above any cell without a combination (one four or one open
        // three at most, closed threes elsewhere)...
        let single = eval::hand_value(
            [
                Pattern::Four,
                Pattern::ClosedThree,
                Pattern::ClosedThree,
                Pattern::ClosedThree,
            ],
            Rules::Freestyle,
            0,
        );
        assert!(i32::from(four_three.value) > single, "{four_three:?}");
        // ...and below an open four, which wins two plies sooner.
        assert!(
            open_four.value >= four_three.value,
            "{open_four:?} {four_three:?}"
        );
    }
}
