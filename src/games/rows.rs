//! A client's board as rows of cells, top row first: `.` empty, `X` the
//! first player, `O` the second (either case). Every game reads its board
//! here, with the same checks in the same words; each adds only what is its
//! own (gravity, the centre squares, which lines win).

use super::notation::cell_name;
use super::spec::{Part, PositionError};
use crate::vocabulary::Player;

/// A board read from rows: each cell empty or a player's.
#[derive(Clone, Debug)]
pub struct Rows {
    width: usize,
    cells: Vec<Option<Player>>,
}

fn board_error(detail: String) -> PositionError {
    PositionError::new(Part::Board, detail)
}

impl Rows {
    /// Reads `rows` as `height` rows of `width` cells; `game` names the
    /// game in what a refusal says.
    pub fn read(
        rows: &[String],
        height: usize,
        width: usize,
        game: &str,
    ) -> Result<Self, PositionError> {
        if rows.len() != height {
            return Err(board_error(format!(
                "{game} needs {height} rows (top first), got {}",
                rows.len()
            )));
        }
        let mut cells = Vec::with_capacity(height * width);
        for (r, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width {
                return Err(board_error(format!(
                    "row {} must have {width} cells, got {n} ({row:?})",
                    r + 1
                )));
            }
            for (c, ch) in row.chars().enumerate() {
                cells.push(match ch {
                    '.' => None,
                    'X' | 'x' => Some(Player::X),
                    'O' | 'o' => Some(Player::O),
                    other => {
                        return Err(board_error(format!(
                            "row {} has {other:?} at {}; cells are '.', 'X' or 'O'",
                            r + 1,
                            cell_name(r, c)
                        )));
                    }
                });
            }
        }
        Ok(Self { width, cells })
    }

    /// Every stone: its row and column from the top left, and its owner.
    pub fn stones(&self) -> impl Iterator<Item = (usize, usize, Player)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| cell.map(|p| (i / self.width, i % self.width, p)))
    }

    /// How many stones `player` has.
    pub fn count(&self, player: Player) -> usize {
        self.cells.iter().filter(|&&c| c == Some(player)).count()
    }

    /// The side to move in a game where X moves first and the sides take
    /// turns placing one piece each (`piece` is what the game calls one:
    /// stone, disc): X has as many as O, or one more.
    pub fn side_to_move(&self, piece: &str) -> Result<Player, PositionError> {
        let (xs, os) = (self.count(Player::X), self.count(Player::O));
        match xs.checked_sub(os) {
            Some(0) => Ok(Player::X),
            Some(1) => Ok(Player::O),
            _ => Err(board_error(format!(
                "impossible {piece} counts: {xs} X and {os} O (X moves first, so X has as many {piece}s as O or one more)"
            ))),
        }
    }
}

/// Refuses a client's `to_move` that disagrees with the side the board's
/// `piece` counts say is to move.
pub fn check_to_move(
    given: Option<Player>,
    derived: Player,
    piece: &str,
) -> Result<(), PositionError> {
    match given.filter(|&p| p != derived) {
        Some(given) => Err(PositionError::new(
            Part::ToMove,
            format!(
                "to_move is {} but the {piece} counts say {} is to move",
                given.symbol(),
                derived.symbol()
            ),
        )),
        None => Ok(()),
    }
}

/// Checks a board where someone may have won: `won` says whether X and O
/// each have a winning `line` ("three in a row"). Not both; the winner
/// moved last, so the loser is `to_move`; and `one_last_move(winner)`
/// says whether a single last piece could have completed all the
/// winner's lines. The winner, if any.
pub fn check_win(
    won: [bool; 2],
    to_move: Player,
    line: &str,
    one_last_move: impl FnOnce(Player) -> bool,
) -> Result<Option<Player>, PositionError> {
    let winner = match won {
        [false, false] => return Ok(None),
        [true, true] => return Err(board_error(format!("both X and O have {line}"))),
        [true, false] => Player::X,
        [false, true] => Player::O,
    };
    if to_move != winner.other() {
        return Err(board_error(format!(
            "{} has {line}, but then it would be {}'s turn; the counts say otherwise",
            winner.symbol(),
            winner.other().symbol()
        )));
    }
    if !one_last_move(winner) {
        return Err(board_error(format!(
            "{} has lines that no single last move could have completed together",
            winner.symbol()
        )));
    }
    Ok(Some(winner))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|r| (*r).to_owned()).collect()
    }

    #[test]
    fn a_board_reads_as_its_stones() {
        let board = Rows::read(&rows(&["X.o", "...", ".O."]), 3, 3, "a game").unwrap();
        let stones: Vec<_> = board.stones().collect();
        assert_eq!(
            stones,
            [(0, 0, Player::X), (0, 2, Player::O), (2, 1, Player::O)]
        );
        assert_eq!(board.count(Player::O), 2);
        assert!(board.side_to_move("stone").is_err());
    }

    #[test]
    fn each_refusal_names_what_is_wrong() {
        let detail = |r: &[&str]| Rows::read(&rows(r), 2, 3, "a game").unwrap_err().detail;
        assert_eq!(detail(&["..."]), "a game needs 2 rows (top first), got 1");
        assert_eq!(
            detail(&["...", ".."]),
            "row 2 must have 3 cells, got 2 (\"..\")"
        );
        assert_eq!(
            detail(&["...", ".#."]),
            "row 2 has '#' at b2; cells are '.', 'X' or 'O'"
        );
    }

    #[test]
    fn a_won_board_has_one_winner_who_moved_last() {
        let all = |_| true;
        assert_eq!(
            check_win([false, false], Player::X, "a line", all),
            Ok(None)
        );
        assert_eq!(
            check_win([true, false], Player::O, "a line", all),
            Ok(Some(Player::X))
        );
        assert!(check_win([true, true], Player::O, "a line", all).is_err());
        assert!(check_win([false, true], Player::O, "a line", all).is_err());
        assert!(check_win([true, false], Player::O, "a line", |_| false).is_err());
        assert!(check_to_move(Some(Player::O), Player::X, "stone").is_err());
        assert!(check_to_move(None, Player::X, "stone").is_ok());
    }
}
