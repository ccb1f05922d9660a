//! Strength levels 1–10: a depth and time per game, and a chance of
//! playing a random reasonable move instead of the best one. Level 10 is
//! the game's full strength. The ladder is measured by `cargo bench
//! --bench levels` (matches between adjacent levels), not guessed.

use super::GameKind;

pub const MIN: u8 = 1;
pub const MAX: u8 = 10;

/// What a level means for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: u32,
    pub time_ms: u64,
    /// Percent of moves played at random among the candidate moves.
    pub random_percent: u32,
}

/// Chance of a random move, by level (index 0 is level 1).
const RANDOM_PERCENT: [u32; 10] = [50, 35, 25, 16, 10, 6, 3, 1, 0, 0];
/// Time cap per move, by level, in milliseconds.
const TIME_MS: [u64; 9] = [50, 100, 150, 200, 300, 400, 500, 650, 800];

/// The settings of `level` (1–10) in `kind`.
pub fn level(kind: GameKind, level: u8) -> Level {
    let i = usize::from(level.clamp(MIN, MAX) - 1);
    let info = kind.info();
    if level >= MAX {
        return Level {
            depth: info.default_depth,
            time_ms: info.default_time_ms,
            random_percent: 0,
        };
    }
    Level {
        depth: info.level_depths[i],
        time_ms: TIME_MS[i],
        random_percent: RANDOM_PERCENT[i],
    }
}
