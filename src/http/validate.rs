//! Checks shared by the routes: a game's name, a number within its range,
//! and a search's depth and time budget. Each names the request field at
//! fault, so every route words the same mistake the same way.

use super::AppState;
use super::error::{ApiError, Result};
use crate::games::GameKind;

/// Finds a game by its API name, or says which games there are.
pub fn game_kind(name: &str) -> Result<GameKind> {
    GameKind::from_name(name).ok_or_else(|| {
        let known: Vec<_> = GameKind::ALL.iter().map(|g| g.name()).collect();
        ApiError::invalid(
            "game",
            format!(
                "unknown game {name:?}; this server plays {}",
                known.join(", ")
            ),
        )
    })
}

/// Checks `value` is within `1..=max`, or names the field and the range.
pub fn in_range(field: &'static str, value: i64, max: u64) -> Result<u64> {
    u64::try_from(value)
        .ok()
        .filter(|v| (1..=max).contains(v))
        .ok_or_else(|| {
            ApiError::invalid(
                field,
                format!("{field} must be between 1 and {max}, got {value}"),
            )
        })
}

/// A search's depth in plies: checked against the game's cap, or the
/// game's default.
pub fn depth(kind: GameKind, depth: Option<i64>) -> Result<u32> {
    let info = kind.info();
    match depth {
        Some(d) => Ok(in_range("depth", d, u64::from(info.max_depth))? as u32),
        None => Ok(info.default_depth),
    }
}

/// A search's time budget in milliseconds: checked against the server's
/// cap, or `default`.
pub fn time_ms(state: &AppState, time_ms: Option<i64>, default: u64) -> Result<u64> {
    match time_ms {
        Some(t) => in_range("time_ms", t, state.config.max_time_ms),
        None => Ok(default),
    }
}

/// A search's depth and time budget from a request's optional values:
/// each checked against its cap, or the game's default.
pub fn search_budget(
    state: &AppState,
    kind: GameKind,
    depth_plies: Option<i64>,
    time_budget_ms: Option<i64>,
) -> Result<(u32, u64)> {
    let default_ms = kind.info().default_time_ms.min(state.config.max_time_ms);
    Ok((
        depth(kind, depth_plies)?,
        time_ms(state, time_budget_ms, default_ms)?,
    ))
}
