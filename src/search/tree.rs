//! The contract between a game and the generic search.

use std::fmt::Debug;

use crate::vocabulary::Player;

/// How a finished game ended, seen by the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// The side to move has won (rare: most games end on the winner's move).
    Win,
    /// The side to move has lost: the opponent completed a win.
    Loss,
    Draw,
}

/// A two-player, zero-sum game with perfect information and no repetition,
/// as the alpha-beta core sees it.
///
/// `play` and `undo` mutate in place so the search never copies a position;
/// `hash` is a Zobrist key maintained incrementally by `play`/`undo`.
pub trait GameTree: Clone + Send + 'static {
    type Move: Copy + Eq + Debug + Send;

    /// When the game must end within this many plies, the search skips the
    /// shallow iterations and searches to the end at once (which also ignores
    /// the deadline, so keep it to trees that take microseconds).
    const DIRECT_SOLVE_PLIES: u32 = 0;

    fn side_to_move(&self) -> Player;

    /// Appends every legal move to `moves` (which arrives empty). Called
    /// only on positions that are not terminal.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn terminal(&self) -> Option<Terminal>;

    /// Heuristic value for the side to move. Must stay within
    /// `±search::EVAL_LIMIT`; larger values are clamped.
    fn evaluate(&self) -> i32;

    fn hash(&self) -> u64;

    /// Packs a move into the transposition table's 16 bits; must be
    /// below `search::MOVE_SPACE` so it can index the history table.
    fn encode(mv: Self::Move) -> u16;

    /// A move that wins on the spot, if the side to move has one. The search
    /// then scores the node without entering the child: a win in one ply is
    /// the best any line can do.
    fn immediate_win(&self) -> Option<Self::Move> {
        None
    }

    /// A cheap prior for move ordering: higher is searched first.
    fn order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// An upper bound on the plies left before the game must end, if the
    /// game has one. A search at least this deep is exact, which is how a
    /// draw becomes proven. For games that always end on a full board, it is
    /// also the exact length of a drawn game.
    fn remaining_plies(&self) -> Option<u32> {
        None
    }

    /// How a move is written in the API (`b3`, `4`, `pass`).
    fn notation(&self, mv: Self::Move) -> String;

    /// The move's cell, row and column from the top-left (`None` for a
    /// pass).
    fn cell(mv: Self::Move) -> Option<(usize, usize)>;
}
