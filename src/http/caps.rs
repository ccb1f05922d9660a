//! The server's fixed caps and each game's defaults for the search
//! controls: what requests are checked against and what `GET /v1/limits`
//! reports.

use crate::games::GameKind;

/// No node budget may exceed this.
pub const MAX_NODES: u64 = 100_000_000_000;
/// Lines a search may ask for: enough to score every move on the largest
/// board.
pub const MAX_MULTI_PV: u64 = 400;
/// The most items in one batch.
pub const MAX_BATCH_ITEMS: usize = 64;
/// The most moves one analysis reviews (a full 20×20 gomoku board).
pub const MAX_ANALYZE_MOVES: usize = 400;

/// The margin `"randomize": true` uses, in each game's score units: about
/// what a pawn is to chess.
pub fn default_margin(kind: GameKind) -> i32 {
    match kind {
        GameKind::TicTacToe => 1,
        GameKind::Connect4 => 2,
        GameKind::Gomoku => 30,
        GameKind::Othello => 60,
    }
}

/// A score drop above this marks a mistake, in each game's score units.
pub fn mistake_threshold(kind: GameKind) -> i32 {
    match kind {
        GameKind::TicTacToe => 2,
        GameKind::Connect4 => 4,
        GameKind::Gomoku => 300,
        GameKind::Othello => 400,
    }
}
