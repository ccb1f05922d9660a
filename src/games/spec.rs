//! A position as a client wrote it, and why a position or a move is
//! refused. The errors say which part of the position is at fault, not
//! which JSON field: naming fields is the HTTP layer's business.

use crate::vocabulary::Player;

/// A position as a client wrote it, before any game has read it.
#[derive(Clone, Debug, Default)]
pub struct PositionSpec {
    /// Rows, top first: `.` empty, `X`, `O`.
    pub board: Option<Vec<String>>,
    /// Moves in notation from the start position.
    pub moves: Option<Vec<String>>,
    pub to_move: Option<Player>,
    pub size: Option<u32>,
    pub rules: Option<String>,
}

/// The part of a position a problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The board: its rows, its stones, or the game it shows being over.
    Board,
    /// The moves played from the start.
    Moves,
    /// The side said to be on move.
    ToMove,
    /// The board size.
    Size,
    /// The rule variant.
    Rules,
}

/// Why a client's position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct PositionError {
    pub part: Part,
    pub detail: String,
}

impl PositionError {
    pub fn new(part: Part, detail: impl Into<String>) -> Self {
        Self {
            part,
            detail: detail.into(),
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text names no move of this game (or none on this board).
    #[error("{0}")]
    Unreadable(String),
    /// A move of this game that the position does not allow: an occupied
    /// cell, a full column, a forbidden point, a move that flips nothing.
    #[error("{0}")]
    Illegal(String),
    /// The game is already over.
    #[error("{0}")]
    GameOver(String),
}

/// Plays `moves` on `pos` in order, refusing the first one `play` refuses,
/// with its number.
pub fn play_moves<P>(
    pos: &mut P,
    moves: &[String],
    mut play: impl FnMut(&mut P, &str) -> Result<(), MoveError>,
) -> Result<(), PositionError> {
    for (i, mv) in moves.iter().enumerate() {
        play(pos, mv)
            .map_err(|e| PositionError::new(Part::Moves, format!("move {} ({mv}): {e}", i + 1)))?;
    }
    Ok(())
}

/// Refuses a client's `to_move` that disagrees with the side to move after
/// its `moves`.
pub fn check_to_move_after_moves(
    given: Option<Player>,
    actual: Player,
) -> Result<(), PositionError> {
    match given.filter(|&p| p != actual) {
        Some(given) => Err(PositionError::new(
            Part::ToMove,
            format!(
                "to_move is {} but after these moves {} is to move",
                given.symbol(),
                actual.symbol()
            ),
        )),
        None => Ok(()),
    }
}

/// The error for a request that gives both or neither of `board` and `moves`.
pub fn board_xor_moves() -> PositionError {
    PositionError::new(
        Part::Board,
        "give exactly one of `board` (rows, top first) or `moves` (a list of moves from the start)",
    )
}
