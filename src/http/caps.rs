//! The server's fixed caps: what requests are checked against and what
//! `GET /v1/limits` reports beside each game's own defaults.

/// No node budget may exceed this.
pub const MAX_NODES: u64 = 100_000_000_000;
/// Lines a search may ask for: enough to score every move on the largest
/// board.
pub const MAX_MULTI_PV: u64 = 400;
/// The most items in one batch.
pub const MAX_BATCH_ITEMS: usize = 64;
/// The most moves one analysis reviews (a full 20×20 gomoku board).
pub const MAX_ANALYZE_MOVES: usize = 400;
