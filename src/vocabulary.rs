//! The words every layer shares: the sides, how a game stands or ended, a
//! move and a proven result as the API shows them, and one search's answer.
//! It depends on nothing else in the crate, so the search toolkit, the games
//! and the HTTP layer all build on it without pointing at each other.

use serde::{Deserialize, Serialize};

/// A side. `X` moves first (black in gomoku and othello).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    X = 0,
    O = 1,
}

impl Player {
    pub fn other(self) -> Self {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

/// How a game ended for the side it is told to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A move as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// Row and column, 0-based from the top-left; `None` for a pass.
    pub cell: Option<(usize, usize)>,
    pub notation: String,
}

impl MoveView {
    pub fn pass() -> Self {
        Self {
            cell: None,
            notation: "pass".to_owned(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Win,
    Draw,
}

/// A proven result as the API shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvenView {
    pub result: Outcome,
    pub plies: u32,
    /// Othello: the exact final disc difference for the side to move.
    pub disc_diff: Option<i32>,
}

impl ProvenView {
    /// The same result seen from the position one ply earlier, by the
    /// other side.
    pub fn parent(self) -> Self {
        Self {
            result: match self.result {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                Outcome::Draw => Outcome::Draw,
            },
            plies: self.plies + 1,
            disc_diff: self.disc_diff.map(|d| -d),
        }
    }
}

/// The answer of one search.
#[derive(Clone, Debug)]
pub struct SearchReport {
    pub best_move: MoveView,
    pub score: i32,
    pub proven: Option<ProvenView>,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<String>,
    pub stopped: Stopped,
    pub to_move: Player,
    pub source: Source,
}

/// Where an answer came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// A search (or exact solve) made for this request.
    #[default]
    Search,
    /// The game's opening book, with no search.
    Book,
    /// The analysis cache: an earlier search of the same position.
    Cache,
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// It completed the requested depth.
    Depth,
    /// The deadline cut it short.
    Time,
    /// The node budget cut it short.
    Nodes,
    /// It was asked to stop (its client left, or the service is stopping).
    Cancelled,
    /// The result is exact; searching deeper cannot change it.
    Proven,
}
