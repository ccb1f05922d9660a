//! Tic-tac-toe: 3×3, X first, three in a row wins. Small enough that the
//! generic search solves it from any position in well under a millisecond.

use super::notation::{cell_name, parse_cell};
use super::rows::{self, Rows};
use super::{
    Features, Game, GameInfo, MoveError, Part, Player, PositionError, PositionReport, PositionSpec,
    SearchReport, Status,
};
use crate::search::{self, GameTree, Limits, Terminal, Workspace};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;
/// Centre first, then corners, then edges: how many lines pass each cell.
const CELL_LINES: [i32; 9] = [3, 2, 3, 2, 4, 2, 3, 2, 3];

/// The board's eight symmetries, each as a map from cell to cell.
const SYMMETRIES: [[usize; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// Every 9-bit set of cells under each symmetry, computed once at compile time.
const TRANSFORMED: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut mask = 0;
        while mask < 512 {
            let mut out = 0u16;
            let mut cell = 0;
            while cell < 9 {
                if mask & (1 << cell) != 0 {
                    out |= 1 << SYMMETRIES[s][cell];
                }
                cell += 1;
            }
            table[s][mask] = out;
            mask += 1;
        }
        s += 1;
    }
    table
};

/// A tic-tac-toe position: one bit per cell, `row * 3 + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    stones: [u16; 2],
    to_move: Player,
}

/// A move: the cell index `row * 3 + col`.
pub type Cell = u8;

impl Default for TicTacToe {
    fn default() -> Self {
        Self {
            stones: [0, 0],
            to_move: Player::X,
        }
    }
}

impl TicTacToe {
    fn empty(&self) -> u16 {
        FULL & !(self.stones[0] | self.stones[1])
    }

    /// The lines `player` has completed.
    fn lines_of(&self, player: Player) -> impl Iterator<Item = u16> + '_ {
        let mine = self.stones[player as usize];
        LINES.into_iter().filter(move |&l| mine & l == l)
    }

    fn has_won(&self, player: Player) -> bool {
        self.lines_of(player).next().is_some()
    }

    fn winner(&self) -> Option<Player> {
        [Player::X, Player::O]
            .into_iter()
            .find(|&p| self.has_won(p))
    }

    /// Would playing `cell` complete a line for `player`?
    fn completes_line(&self, player: Player, cell: Cell) -> bool {
        let mine = self.stones[player as usize] | 1 << cell;
        LINES.iter().any(|&l| l & (1 << cell) != 0 && mine & l == l)
    }

    /// Rows top first, as the API writes them.
    pub fn rows(&self) -> Vec<String> {
        (0..3)
            .map(|r| {
                (0..3)
                    .map(|c| {
                        let bit = 1 << (r * 3 + c);
                        if self.stones[0] & bit != 0 {
                            'X'
                        } else if self.stones[1] & bit != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Plays `text` if it names an empty cell of an unfinished game.
    pub fn play_notation(&mut self, text: &str) -> Result<(), MoveError> {
        if self.terminal().is_some() {
            return Err(MoveError::GameOver(format!(
                "{text}: the game is already over"
            )));
        }
        let (row, col) = parse_cell(text, 3, 3).ok_or_else(|| {
            MoveError::Unreadable(format!("{text:?} is not a cell of a 3×3 board (a1..c3)"))
        })?;
        let cell = (row * 3 + col) as Cell;
        if self.empty() & (1 << cell) == 0 {
            return Err(MoveError::Illegal(format!("{text} is already taken")));
        }
        self.play(cell);
        Ok(())
    }

    fn from_rows(rows: &[String], to_move: Option<Player>) -> Result<Self, PositionError> {
        let board = Rows::read(rows, 3, 3, "tic-tac-toe")?;
        let mut stones = [0u16; 2];
        for (r, c, player) in board.stones() {
            stones[usize::from(player == Player::O)] |= 1 << (r * 3 + c);
        }
        let derived = board.side_to_move("stone")?;
        rows::check_to_move(to_move, derived, "stone")?;
        let pos = Self {
            stones,
            to_move: derived,
        };
        let won = [pos.has_won(Player::X), pos.has_won(Player::O)];
        // Several lines are possible only if one last stone made them all.
        rows::check_win(won, derived, "three in a row", |winner| {
            pos.lines_of(winner).fold(FULL, |acc, l| acc & l) != 0
        })?;
        Ok(pos)
    }
}

impl GameTree for TicTacToe {
    type Move = Cell;

    /// The whole game tree solves in about a thousand nodes.
    const DIRECT_SOLVE_PLIES: u32 = 9;

    fn side_to_move(&self) -> Player {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        let empty = self.empty();
        moves.extend((0..9).filter(|&c| empty & (1 << c) != 0));
    }

    fn play(&mut self, cell: Cell) {
        self.stones[self.to_move as usize] |= 1 << cell;
        self.to_move = self.to_move.other();
    }

    fn undo(&mut self, cell: Cell) {
        self.to_move = self.to_move.other();
        self.stones[self.to_move as usize] &= !(1 << cell);
    }

    fn terminal(&self) -> Option<Terminal> {
        // Only the player who just moved can have completed a line.
        if self.has_won(self.to_move.other()) {
            Some(Terminal::Loss)
        } else if self.empty() == 0 {
            Some(Terminal::Draw)
        } else {
            None
        }
    }

    /// Lines still open to the side to move minus those open to the other.
    fn evaluate(&self) -> i32 {
        let me = self.stones[self.to_move as usize];
        let them = self.stones[self.to_move.other() as usize];
        LINES
            .iter()
            .map(|&l| match (me & l != 0, them & l != 0) {
                (true, false) => (me & l).count_ones() as i32,
                (false, true) => -((them & l).count_ones() as i32),
                _ => 0,
            })
            .sum()
    }

    /// The position is its own 18-bit key (the side to move follows from
    /// the counts), taken at its smallest over the eight symmetries so that
    /// mirrored positions share one table entry: they have the same value.
    /// The stored move may then be a mirror image; it only orders moves.
    fn hash(&self) -> u64 {
        let [x, o] = self.stones.map(usize::from);
        let key = TRANSFORMED
            .iter()
            .map(|t| u64::from(t[x]) | u64::from(t[o]) << 9)
            .min()
            .unwrap_or_default();
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn encode(cell: Cell) -> u16 {
        u16::from(cell)
    }

    fn immediate_win(&self) -> Option<Cell> {
        let empty = self.empty();
        (0..9).find(|&c| empty & (1 << c) != 0 && self.completes_line(self.to_move, c))
    }

    fn order_hint(&self, cell: Cell) -> i32 {
        if self.completes_line(self.to_move, cell) {
            1000
        } else if self.completes_line(self.to_move.other(), cell) {
            500
        } else {
            CELL_LINES[cell as usize]
        }
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(self.empty().count_ones())
    }

    fn notation(&self, cell: Cell) -> String {
        cell_name(cell as usize / 3, cell as usize % 3)
    }

    fn cell(cell: Cell) -> Option<(usize, usize)> {
        Some((cell as usize / 3, cell as usize % 3))
    }
}

impl Game for TicTacToe {
    fn info() -> GameInfo {
        GameInfo {
            name: "tictactoe",
            title: "Tic-tac-toe",
            sizes: vec![3],
            default_size: 3,
            rules: vec![],
            default_rules: None,
            default_depth: 9,
            max_depth: 9,
            default_time_ms: 1_000,
            notation: "cell: column letter a-c, then row 1-3 from the top (a1 top-left)",
            start: TicTacToe::default().rows(),
            level_depths: [1, 1, 2, 2, 3, 4, 5, 6, 7],
            default_margin: 1,
            mistake_threshold: 2,
            features: Features::default(),
        }
    }

    fn parse(spec: &PositionSpec) -> Result<Self, PositionError> {
        if let Some(size) = spec.size.filter(|&s| s != 3) {
            return Err(PositionError::new(
                Part::Size,
                format!("tic-tac-toe is 3×3, not {size}"),
            ));
        }
        if let Some(rules) = &spec.rules {
            return Err(PositionError::new(
                Part::Rules,
                format!("tic-tac-toe has no rule variants (got {rules:?})"),
            ));
        }
        match (&spec.board, &spec.moves) {
            (Some(rows), None) => TicTacToe::from_rows(rows, spec.to_move),
            (None, Some(moves)) => {
                let mut pos = TicTacToe::default();
                super::spec::play_moves(&mut pos, moves, TicTacToe::play_notation)?;
                super::spec::check_to_move_after_moves(spec.to_move, pos.to_move)?;
                Ok(pos)
            }
            _ => Err(super::spec::board_xor_moves()),
        }
    }

    fn describe(&self) -> PositionReport {
        let pos = self;
        let winner = pos.winner();
        let status = match (winner, pos.empty()) {
            (Some(_), _) => Status::Win,
            (None, 0) => Status::Draw,
            _ => Status::Ongoing,
        };
        let winning_line = winner
            .and_then(|w| pos.lines_of(w).next())
            .map(|line| {
                (0..9)
                    .filter(|c| line & (1 << c) != 0)
                    .map(|c| cell_name(c / 3, c % 3))
                    .collect()
            })
            .unwrap_or_default();
        let mut legal = Vec::new();
        if status == Status::Ongoing {
            pos.generate_moves(&mut legal);
        }
        PositionReport {
            to_move: pos.to_move,
            status,
            winner,
            winning_line,
            legal_moves: legal.into_iter().map(|c| pos.notation(c)).collect(),
            forbidden: Vec::new(),
            board: pos.rows(),
        }
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), MoveError> {
        TicTacToe::play_notation(self, notation)
    }

    fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        search::search_report(self, limits, ws)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{self, Limits, Outcome, Workspace};

    fn board<const N: usize>(rows: [&str; N]) -> Result<TicTacToe, PositionError> {
        TicTacToe::parse(&PositionSpec {
            board: Some(rows.iter().map(|r| r.to_string()).collect()),
            ..Default::default()
        })
    }

    #[test]
    fn the_empty_board_is_a_proven_draw() {
        let mut ws = Workspace::default();
        let result = search::search(&TicTacToe::default(), &Limits::depth(9), &mut ws);
        let proof = result.proof.unwrap();
        assert_eq!((proof.outcome, proof.plies), (Outcome::Draw, 9));
        assert_eq!(result.pv.len(), 9);
    }

    #[test]
    fn x_finds_the_win_in_one() {
        // X a1, O b2, X b1, O c3: X completes the top row at c1.
        let pos = TicTacToe::parse(&PositionSpec {
            moves: Some(["a1", "b2", "b1", "c3"].map(String::from).to_vec()),
            ..Default::default()
        })
        .unwrap();
        let result = search::search(&pos, &Limits::depth(9), &mut Workspace::default());
        assert_eq!(pos.notation(result.best_move.unwrap()), "c1");
        assert_eq!(
            result.proof.map(|p| (p.outcome, p.plies)),
            Some((Outcome::Win, 1))
        );
    }

    #[test]
    fn impossible_boards_are_refused() {
        assert!(board(["XX.", "...", "..."]).is_err(), "two X, no O");
        assert!(board(["O..", "...", "..."]).is_err(), "O moved first");
        assert!(board(["XXX", "OOO", "X.."]).is_err(), "two winners");
        assert!(board(["XXX", "OO.", "..."]).is_ok(), "X just won");
        assert!(
            board(["XXX", "OO.", "O.."]).is_err(),
            "X won but O moved after"
        );
        assert!(board(["XXX", "...", "XOO"]).is_err(), "X has 4 X vs 2 O");
        assert!(board(["X?.", "...", "..."]).is_err());
        assert!(board(["X..", "..."]).is_err(), "two rows");
        assert!(board(["X..", "...."]).is_err());
        // Two lines through one last stone are possible.
        assert!(board(["XXX", "XOO", "XOO"]).is_ok());
    }

    #[test]
    fn a_finished_game_reports_its_winner_and_line() {
        let pos = board(["XXX", "OO.", "..."]).unwrap();
        let report = pos.describe();
        assert_eq!(report.status, Status::Win);
        assert_eq!(report.winner, Some(Player::X));
        assert_eq!(report.winning_line, ["a1", "b1", "c1"]);
        assert!(report.legal_moves.is_empty());
    }

    #[test]
    fn illegal_moves_are_refused() {
        let spec = |m: &[&str]| PositionSpec {
            moves: Some(m.iter().map(|s| s.to_string()).collect()),
            ..Default::default()
        };
        assert!(TicTacToe::parse(&spec(&["a1", "a1"])).is_err());
        assert!(TicTacToe::parse(&spec(&["d1"])).is_err());
        assert!(
            TicTacToe::parse(&spec(&["a1", "b1", "a2", "b2", "a3", "b3"])).is_err(),
            "a move after X won"
        );
    }
}
