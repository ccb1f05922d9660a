//! Game-agnostic search, and the toolkit every game's engine is built from.
//!
//! The generic core (`alphabeta`) is negamax alpha-beta with principal
//! variation search and iterative deepening over any [`GameTree`]. The
//! engines that bring their own algorithm (Connect Four's solver, gomoku's
//! threat search, othello's midgame search and endgame solver) share the
//! machinery around it: the bound table under every transposition table
//! ([`table`]), the score scale with its proof and table-distance helpers
//! (`score`), one [`Clock`] for limits and iterations, a [`GameClock`]'s
//! per-move budget, [`Killers`],
//! [`History`] and the [`PvTable`], the worker's memory within its budget
//! ([`Workspace`]), one [`ReportBuilder`], and the threads of a parallel
//! search ([`smp`]).

mod alphabeta;
mod clock;
mod limits;
mod ordering;
mod report;
mod score;
pub mod smp;
pub mod table;
mod time_control;
mod tree;
mod tt;
mod workspace;

pub use crate::vocabulary::Outcome;
pub use alphabeta::{MOVE_SPACE, SearchResult, minimax, render_line, search};
pub use clock::Clock;
pub use limits::{Limits, Progress, ProgressSink, Share, StopFlag, Stopped};
pub use ordering::{History, Killers, PvTable};
pub use report::{ReportBuilder, search_report};
pub use score::{EVAL_LIMIT, Proof, WIN, WIN_THRESHOLD, from_tt, proof_from_score, to_tt};
pub use table::Bound;
pub use time_control::GameClock;
pub use tree::{GameTree, Terminal};
pub use tt::{Hit, TranspositionTable};
pub use workspace::{DEFAULT_PART, EngineTables, TableKind, Workspace};

use std::time::Instant;

/// Elapsed milliseconds since `start`, for reports.
pub fn elapsed_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}
