//! What a game says about itself: its options, depths and time budget, its
//! strength ladder and score scale, and how a client should draw it. The
//! HTTP layer, the levels, the lines and the play page read a game's needs
//! from here rather than from its name.

use crate::vocabulary::{Player, Status};

/// What `/v1/games` says about a game, and what the service's controls
/// need to know of it.
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
    /// Depths of levels 1–9 (level 10 is the game's defaults): each level
    /// searches at least as deep as the one below.
    pub level_depths: [u32; 9],
    /// The margin `"randomize": true` uses, in the game's score units:
    /// about what a pawn is to chess.
    pub default_margin: i32,
    /// A score drop above this marks a mistake in an analysis.
    pub mistake_threshold: i32,
    pub features: Features,
}

/// How a game's moves and board behave, as far as a client drawing it
/// cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// A move names a column and the disc drops to its lowest empty cell.
    pub gravity: bool,
    /// Moves are written as column digits, and a list of moves may be one
    /// string of digits.
    pub column_notation: bool,
    /// A side with no legal move passes (`"pass"` is a move).
    pub passes: bool,
    /// A move turns the opponent's discs it brackets.
    pub flips: bool,
    /// Black may have forbidden points under some rules.
    pub forbidden_points: bool,
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
