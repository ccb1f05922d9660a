//! Connect Four: 7 columns × 6 rows, gravity, X first, four in a row wins.
//!
//! Positions are bitboards ([`board`]); the opening is answered from an
//! opening book made by our own solver ([`book`]); any other position the
//! time budget allows is solved exactly ([`solver`], over the per-worker
//! table in [`table`], taking the book's values where it meets them); when
//! the budget is too short the generic alpha-beta core answers from its
//! deepest completed iteration with a threat-based evaluation ([`game`]).

pub mod board;
pub mod book;
pub mod game;
pub mod search;
pub mod solver;
pub mod table;

use self::board::{Board, CELLS, HEIGHT, WIDTH, cell_of, column_mask, fours, has_four};
use super::notation::cell_name;
use super::rows::{self, Rows};
use super::{
    Features, Game, GameInfo, MoveError, Part, Player, PositionError, PositionReport, PositionSpec,
    SearchReport, Status,
};
use crate::search::{Limits, Outcome, Proof, TableKind, TranspositionTable, Workspace};

/// The time budget when a request names none. Measured with the bench
/// (CPU time per exact solve on this 2-core machine): every L3 and L2
/// reference position solves in at most 0.11 s, every L1_R1 one in 0.01 s,
/// every L1_R2 one in at most 2.6 s (mean 0.11 s); the L1_R3 ones average
/// 5.9 s (the first 50; max 99 s). The solver's share of 4 s (3.2 s)
/// covers every position of the other five sets, with room for the best
/// move and pv (about 8% more than the solve) and a loaded machine; many
/// L1_R3 positions need more, and answer unproven.
pub const DEFAULT_TIME_MS: u64 = 4_000;

/// The columns named by `moves`: one element of several digits is the
/// compact form; otherwise each element is one column digit.
fn columns(moves: &[String]) -> Result<Vec<usize>, PositionError> {
    let err = |d: String| PositionError::new(Part::Moves, d);
    let digit = |i: usize, ch: char| match ch {
        '1'..='7' => Ok(ch as usize - '1' as usize),
        _ => Err(err(format!(
            "move {} is {ch:?}; moves are column digits 1-7",
            i + 1
        ))),
    };
    if let [compact] = moves {
        return compact
            .trim()
            .chars()
            .enumerate()
            .map(|(i, ch)| digit(i, ch))
            .collect();
    }
    moves
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let mut chars = text.trim().chars();
            match (chars.next(), chars.next()) {
                (Some(ch), None) => digit(i, ch),
                _ => Err(err(format!(
                    "move {} is {text:?}; each move is one column digit 1-7 (or give all moves as one string like \"445\")",
                    i + 1
                ))),
            }
        })
        .collect()
}

/// Plays one move written as a column digit (`"4"`), refusing a full
/// column or a finished game with the reason.
pub fn play_notation(board: &mut Board, text: &str) -> Result<(), MoveError> {
    let col = match text.trim().as_bytes() {
        [digit @ b'1'..=b'7'] => usize::from(digit - b'1'),
        _ => {
            return Err(MoveError::Unreadable(format!(
                "{text:?} is not a column; moves are column digits 1-7"
            )));
        }
    };
    if board.last_mover_won() || board.is_full() {
        return Err(MoveError::GameOver(format!(
            "{text}: the game is already over"
        )));
    }
    if !board.can_play(col) {
        return Err(MoveError::Illegal(format!("{text}: the column is full")));
    }
    board.play_col(col);
    Ok(())
}

fn from_moves(moves: &[String]) -> Result<Board, PositionError> {
    let mut board = Board::new();
    for (i, col) in columns(moves)?.into_iter().enumerate() {
        let err =
            |d: &str| PositionError::new(Part::Moves, format!("move {} ({}): {d}", i + 1, col + 1));
        if board.last_mover_won() {
            return Err(err("the game is already over"));
        }
        if !board.can_play(col) {
            return Err(err("the column is full"));
        }
        board.play_col(col);
    }
    Ok(board)
}

fn from_rows(rows: &[String]) -> Result<Board, PositionError> {
    let err = |d: String| PositionError::new(Part::Board, d);
    let read = Rows::read(rows, HEIGHT, WIDTH, "Connect Four")?;
    let mut discs = [0u64; 2];
    for (r, c, player) in read.stones() {
        discs[usize::from(player == Player::O)] |= board::cell_bit(c, HEIGHT - 1 - r);
    }
    let all = discs[0] | discs[1];
    for col in 0..WIDTH {
        let column = (all & column_mask(col)) >> (col * 7);
        // Filled from the bottom means the column's bits are 0b0..01..1.
        if column & (column + 1) != 0 {
            return Err(err(format!(
                "column {} has a disc floating above an empty cell",
                col + 1
            )));
        }
    }
    read.side_to_move("disc")?;
    let board = Board::from_discs(discs[0], discs[1]);
    let won = [has_four(discs[0]), has_four(discs[1])];
    rows::check_win(won, board.side_to_move(), "four in a row", |winner| {
        // The winning disc was the last one played: some column's top
        // disc must be the winner's and lie on every four.
        let mine = board.discs(winner);
        (0..WIDTH).any(|col| {
            let column = all & column_mask(col);
            if column == 0 {
                return false;
            }
            let top = 1u64 << (63 - column.leading_zeros());
            mine & top != 0 && !has_four(mine ^ top)
        })
    })?;
    Ok(board)
}

/// The player who has four in a row, if any.
fn winner(board: &Board) -> Option<Player> {
    board.last_mover_won().then(|| board.side_to_move().other())
}

/// Plies to the end of the game under perfect play, given the solver's
/// score `score` for `board`: a win with the mover's `k`-th disc overall
/// (`k = 22 - score`) takes `2 (k - discs it has now) - 1` plies; a loss to
/// the opponent's `k`-th disc (`k = 22 + score`) takes `2 (k - its discs
/// now)`; a draw fills the board.
pub fn proof_of_score(board: &Board, score: i32) -> Proof {
    let n = board.moves() as i32;
    let (mover_discs, opponent_discs) = (n / 2, (n + 1) / 2);
    let last_disc = CELLS as i32 / 2 + 1;
    match score.signum() {
        1 => Proof {
            outcome: Outcome::Win,
            plies: (2 * ((last_disc - score) - mover_discs) - 1) as u32,
        },
        -1 => Proof {
            outcome: Outcome::Loss,
            plies: (2 * ((last_disc + score) - opponent_discs)) as u32,
        },
        _ => Proof {
            outcome: Outcome::Draw,
            plies: board.empty_cells(),
        },
    }
}

impl Game for Board {
    fn info() -> GameInfo {
        GameInfo {
            name: "connect4",
            title: "Connect Four",
            sizes: vec![WIDTH as u32],
            default_size: WIDTH as u32,
            rules: vec![],
            default_rules: None,
            default_depth: CELLS as u32,
            max_depth: CELLS as u32,
            default_time_ms: DEFAULT_TIME_MS,
            notation: "column digit 1-7 from the left; a disc drops to the lowest empty cell",
            start: Board::new().rows(),
            level_depths: [1, 2, 3, 4, 6, 8, 10, 12, 14],
            default_margin: 2,
            mistake_threshold: 4,
            features: Features {
                gravity: true,
                column_notation: true,
                ..Features::default()
            },
        }
    }

    /// Reads a client's position: `board` (6 rows of 7, top first) or `moves`
    /// (column digits, as a list `["4","4","5"]` or one compact string
    /// `"445"`).
    fn parse(spec: &PositionSpec) -> Result<Self, PositionError> {
        if let Some(size) = spec.size.filter(|&s| s != WIDTH as u32) {
            return Err(PositionError::new(
                Part::Size,
                format!("Connect Four is 7 columns × 6 rows; size must be 7, not {size}"),
            ));
        }
        if let Some(rules) = &spec.rules {
            return Err(PositionError::new(
                Part::Rules,
                format!("Connect Four has no rule variants (got {rules:?})"),
            ));
        }
        let board = match (&spec.board, &spec.moves) {
            (Some(rows), None) => from_rows(rows)?,
            (None, Some(moves)) => from_moves(moves)?,
            _ => return Err(super::spec::board_xor_moves()),
        };
        rows::check_to_move(spec.to_move, board.side_to_move(), "disc")?;
        Ok(board)
    }

    /// One string of digits is a list of columns.
    fn move_list(moves: Vec<String>) -> Vec<String> {
        match moves.as_slice() {
            [compact] => compact.trim().chars().map(String::from).collect(),
            _ => moves,
        }
    }

    fn outcome(&self) -> (Status, Option<Player>) {
        let winner = winner(self);
        let status = match winner {
            Some(_) => Status::Win,
            None if self.is_full() => Status::Draw,
            None => Status::Ongoing,
        };
        (status, winner)
    }

    fn describe(&self) -> PositionReport {
        let board = self;
        let (status, winner) = board.outcome();
        let winning_line = winner
            .and_then(|w| fours(board.discs(w)).into_iter().next())
            .map(|line| {
                let mut cells = Vec::new();
                let mut rest = line;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    let (col, row) = cell_of(bit);
                    cells.push(cell_name(HEIGHT - 1 - row, col));
                }
                cells
            })
            .unwrap_or_default();
        let legal_moves = if status == Status::Ongoing {
            (0..WIDTH)
                .filter(|&c| board.can_play(c))
                .map(|c| (c + 1).to_string())
                .collect()
        } else {
            Vec::new()
        };
        PositionReport {
            to_move: board.side_to_move(),
            status,
            winner,
            winning_line,
            legal_moves,
            forbidden: Vec::new(),
            board: board.rows(),
        }
    }

    fn to_move(&self) -> Player {
        self.side_to_move()
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), MoveError> {
        play_notation(self, notation)
    }

    fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        search::search(self, limits, ws)
    }

    fn tables() -> Vec<TableKind> {
        // The solver's, and the generic core's for a solve that does not
        // finish in time.
        vec![
            TableKind::of::<table::SolverTable>(),
            TableKind::of::<TranspositionTable>(),
        ]
    }

    fn prepare(ws: &mut Workspace) {
        book::Book::embedded();
        ws.extra::<table::SolverTable>();
    }

    fn book_answer(&self, depth: u32) -> Option<SearchReport> {
        search::book_answer(self, depth)
    }

    /// The board's key (its discs and whose they are, in one word; the
    /// side to move follows from the count), without drawing the rows.
    fn cache_key(&self) -> String {
        format!("{:x}", self.key())
    }

    fn mirror_key(&self) -> Option<String> {
        Some(self.mirrored().cache_key())
    }

    fn mirror_move(
        &self,
        notation: &str,
        cell: Option<(usize, usize)>,
    ) -> (String, Option<(usize, usize)>) {
        let mirrored = match notation.parse::<usize>() {
            Ok(col @ 1..=WIDTH) => (WIDTH + 1 - col).to_string(),
            _ => notation.to_owned(),
        };
        (mirrored, cell.map(|(row, col)| (row, WIDTH - 1 - col)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_and_its_mirror_key_each_other() {
        let mut b = Board::new();
        for c in [0, 0, 1] {
            b.play_col(c);
        }
        let mirror = b.mirrored();
        assert_eq!(b.mirror_key(), Some(mirror.cache_key()));
        assert_eq!(mirror.mirror_key(), Some(b.cache_key()));
        assert_ne!(b.cache_key(), mirror.cache_key());
        assert_eq!(
            b.mirror_move("2", Some((5, 1))),
            ("6".to_owned(), Some((5, 5)))
        );
        assert_eq!(b.mirror_move("4", None), ("4".to_owned(), None));
    }

    #[test]
    fn plies_follow_the_score_convention() {
        // X to move after 4 discs (2 each): winning with the 4th disc is
        // +18 and takes 2*(4-2)-1 = 3 plies.
        let mut b = Board::new();
        for c in [0, 6, 1, 6] {
            b.play_col(c);
        }
        let p = proof_of_score(&b, 18);
        assert_eq!((p.outcome, p.plies), (Outcome::Win, 3));
        // O to move, X (3 discs) wins with its 4th: -18, 2*(4-3) = 2 plies.
        b.play_col(2);
        let p = proof_of_score(&b, -18);
        assert_eq!((p.outcome, p.plies), (Outcome::Loss, 2));
        assert_eq!(proof_of_score(&b, 0).plies, 37);
    }
}
