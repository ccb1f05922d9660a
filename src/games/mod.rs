//! The games the service plays, behind one interface the HTTP layer uses:
//! parse a client's position once, describe it, search it.
//!
//! Each game lives in its own module and owns its rules, notation,
//! evaluation and any special machinery (solvers, threat search).

pub mod connect4;
pub mod gomoku;
pub mod level;
pub mod lines;
pub mod notation;
pub mod othello;
pub mod tictactoe;

use crate::search::{self, Limits, Workspace};
pub use crate::vocabulary::{MoveView, Outcome, Player, ProvenView, SearchReport, Status, Stopped};

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

/// Why a client's position or request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct PositionError {
    /// The request field at fault (`board`, `moves`, `to_move`, ...).
    pub field: &'static str,
    pub detail: String,
}

impl PositionError {
    pub fn new(field: &'static str, detail: impl Into<String>) -> Self {
        Self {
            field,
            detail: detail.into(),
        }
    }
}

/// What `/v1/position` reports about a valid position.
#[derive(Clone, Debug)]
pub struct PositionReport {
    pub to_move: Player,
    pub status: Status,
    pub winner: Option<Player>,
    /// The cells of the winning line, in notation.
    pub winning_line: Vec<String>,
    /// Legal moves for the side to move (empty once the game is over).
    pub legal_moves: Vec<String>,
    /// Points where black may not play (renju only).
    pub forbidden: Vec<String>,
    pub board: Vec<String>,
}

/// What `/v1/games` says about a game.
#[derive(Clone, Debug)]
pub struct GameInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub sizes: Vec<u32>,
    pub default_size: u32,
    pub rules: Vec<&'static str>,
    pub default_rules: Option<&'static str>,
    pub default_depth: u32,
    pub max_depth: u32,
    /// The time budget when a request names none.
    pub default_time_ms: u64,
    pub notation: &'static str,
    pub start: Vec<String>,
}

/// The games, by their API name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    TicTacToe,
    Connect4,
    Gomoku,
    Othello,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::TicTacToe,
        GameKind::Connect4,
        GameKind::Gomoku,
        GameKind::Othello,
    ];

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Connect4 => "connect4",
            GameKind::Gomoku => "gomoku",
            GameKind::Othello => "othello",
        }
    }

    pub fn info(self) -> GameInfo {
        match self {
            GameKind::TicTacToe => tictactoe::info(),
            GameKind::Connect4 => connect4::info(),
            GameKind::Gomoku => gomoku::info(),
            GameKind::Othello => othello::info(),
        }
    }

    /// Reads and validates a client's position. A finished game is valid
    /// here; searching one is refused by [`Position::check_ongoing`].
    pub fn parse(self, spec: &PositionSpec) -> Result<Position, PositionError> {
        match self {
            GameKind::TicTacToe => tictactoe::parse(spec).map(Position::TicTacToe),
            GameKind::Connect4 => connect4::parse(spec).map(Position::Connect4),
            GameKind::Gomoku => gomoku::parse(spec).map(Position::Gomoku),
            GameKind::Othello => othello::parse(spec).map(Position::Othello),
        }
    }
}

/// A validated position of any game.
#[derive(Clone, Debug)]
pub enum Position {
    TicTacToe(tictactoe::TicTacToe),
    Connect4(connect4::board::Board),
    Gomoku(gomoku::Gomoku),
    Othello(othello::Othello),
}

impl Position {
    pub fn describe(&self) -> PositionReport {
        match self {
            Position::TicTacToe(p) => tictactoe::describe(p),
            Position::Connect4(p) => connect4::describe(p),
            Position::Gomoku(p) => gomoku::describe(p),
            Position::Othello(p) => othello::describe(p),
        }
    }

    /// The side to move, without describing the whole position.
    pub fn to_move(&self) -> Player {
        match self {
            Position::TicTacToe(p) => search::GameTree::side_to_move(p),
            Position::Connect4(p) => p.side_to_move(),
            Position::Gomoku(p) => p.side_to_move(),
            Position::Othello(p) => p.to_move(),
        }
    }

    /// Refuses positions where the game is already over.
    pub fn check_ongoing(&self) -> Result<(), PositionError> {
        let report = self.describe();
        match report.status {
            Status::Ongoing => Ok(()),
            Status::Win => Err(PositionError::new(
                "board",
                format!(
                    "the game is over: {} has won, there is nothing to search",
                    report.winner.map_or('?', Player::symbol)
                ),
            )),
            Status::Draw => Err(PositionError::new(
                "board",
                "the game is over (a draw), there is nothing to search",
            )),
        }
    }

    /// Plays a move written in notation, refusing illegal ones with the reason.
    pub fn play(&mut self, notation: &str) -> Result<(), String> {
        match self {
            Position::TicTacToe(p) => p.play_notation(notation),
            Position::Connect4(p) => connect4::play_notation(p, notation),
            Position::Gomoku(p) => p.play_notation(notation),
            Position::Othello(p) => p.play_notation(notation),
        }
    }

    /// Runs the search on the calling thread.
    pub fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        match self {
            Position::TicTacToe(p) => search::search_report(p, limits, ws),
            Position::Connect4(p) => connect4::search::search(p, limits, ws),
            Position::Gomoku(p) => gomoku::search(p, limits, ws),
            Position::Othello(p) => othello::search::search(p, limits, ws),
        }
    }
}

/// Plays `moves` on `pos` in order, refusing the first one `play` refuses,
/// with its number.
pub fn play_moves<P>(
    pos: &mut P,
    moves: &[String],
    mut play: impl FnMut(&mut P, &str) -> Result<(), String>,
) -> Result<(), PositionError> {
    for (i, mv) in moves.iter().enumerate() {
        play(pos, mv)
            .map_err(|e| PositionError::new("moves", format!("move {} ({mv}): {e}", i + 1)))?;
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
            "to_move",
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
        "board",
        "give exactly one of `board` (rows, top first) or `moves` (a list of moves from the start)",
    )
}
