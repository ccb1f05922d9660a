//! Turning a game clock ("time left plus increment", as UCI, GTP's
//! `time_settings` and Gomocup's `time_left` put it) into one move's time
//! budget.
//!
//! The rule: a share of the time left (`1/moves_to_go`, or
//! `1/`[`DEFAULT_MOVES_TO_GO`] when the clock does not say) plus three
//! quarters of the increment, never more than the time left less
//! [`SAFETY_MS`], and never less than [`MIN_MS`], so a move is always
//! answered, even with no time left.

use serde::{Deserialize, Serialize};

/// Moves assumed still to play when the clock does not say. A twentieth
/// of the time left keeps most of it for later moves, whose positions are
/// no easier.
pub const DEFAULT_MOVES_TO_GO: u64 = 20;

/// Kept back from the time left: the last poll of the search, the
/// answer's trip to the client, the client's own clock.
pub const SAFETY_MS: u64 = 50;

/// The smallest budget: the search still completes its first iteration
/// and answers with a legal move.
pub const MIN_MS: u64 = 1;

/// A player's clock as the client reports it before a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    /// Milliseconds left on the mover's clock.
    pub time_left_ms: u64,
    /// Milliseconds added after each move.
    pub increment_ms: u64,
    /// Moves to play before the next time control, if there is one.
    pub moves_to_go: Option<u64>,
}

impl GameClock {
    /// The thinking time for the next move, in milliseconds.
    pub fn move_budget_ms(&self) -> u64 {
        let moves_to_go = self.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
        let share = self.time_left_ms / moves_to_go;
        let increment = self.increment_ms.saturating_mul(3) / 4;
        let ceiling = self.time_left_ms.saturating_sub(SAFETY_MS);
        share.saturating_add(increment).min(ceiling).max(MIN_MS)
    }

    /// The clock after a move that thought `spent_ms`: the time spent
    /// comes off, the increment goes on, one move fewer to the control.
    pub fn after_move(&self, spent_ms: u64) -> Self {
        Self {
            time_left_ms: self
                .time_left_ms
                .saturating_sub(spent_ms)
                .saturating_add(self.increment_ms),
            increment_ms: self.increment_ms,
            moves_to_go: self.moves_to_go.map(|m| m.saturating_sub(1).max(1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: u64, increment: u64, moves_to_go: Option<u64>) -> GameClock {
        GameClock {
            time_left_ms: left,
            increment_ms: increment,
            moves_to_go,
        }
    }

    #[test]
    fn a_share_of_the_time_left_plus_most_of_the_increment() {
        assert_eq!(clock(3_000, 0, None).move_budget_ms(), 150);
        assert_eq!(clock(60_000, 2_000, None).move_budget_ms(), 3_000 + 1_500);
        assert_eq!(clock(10_000, 0, Some(5)).move_budget_ms(), 2_000);
    }

    #[test]
    fn never_past_the_time_left_less_the_margin() {
        // The last move before the control may use all but the margin.
        assert_eq!(clock(1_000, 0, Some(1)).move_budget_ms(), 950);
        // A large increment cannot be spent before it is added.
        assert_eq!(clock(400, 10_000, None).move_budget_ms(), 350);
    }

    #[test]
    fn an_empty_clock_still_gets_an_answer() {
        assert_eq!(clock(0, 0, None).move_budget_ms(), MIN_MS);
        assert_eq!(clock(30, 0, Some(0)).move_budget_ms(), MIN_MS);
        assert_eq!(clock(200, 0, None).move_budget_ms(), 10);
    }

    #[test]
    fn a_move_spends_time_and_earns_the_increment() {
        let after = clock(5_000, 1_000, Some(3)).after_move(1_500);
        assert_eq!(after, clock(4_500, 1_000, Some(2)));
        assert_eq!(clock(100, 0, Some(1)).after_move(500), clock(0, 0, Some(1)));
    }
}
