//! A search request's controls checked once, each named by its field, into
//! a [`Plan`]: depth, time and node budgets, multi-PV lines, strength
//! levels, the clock and the seeded random choice. Every search route
//! (plain, streamed, batched) reads its request here; sessions and the
//! analysis build their plans from their own bodies.

use super::AppState;
use super::bodies::{Randomize, SearchRequest, SearchResponse};
use super::caps::{MAX_MULTI_PV, MAX_NODES};
use super::error::{ApiError, Result};
use super::validate::{self, StrengthRequest, in_range};
use crate::plan::{Answer, Plan};

/// Checks every field of `request` (a finished game is refused).
pub fn plan_of(state: &AppState, request: &SearchRequest) -> Result<Plan> {
    let (kind, position) = validate::position(request.position())?;
    position.check_ongoing()?;
    let strength = validate::strength(
        state,
        kind,
        &validate::SEARCH_FIELDS,
        StrengthRequest {
            depth: request.depth,
            time_ms: request.time_ms,
            level: request.level,
            clock: request.clock.as_ref(),
            threads: request.threads,
        },
    )?;
    let nodes = request
        .nodes
        .map(|n| in_range("nodes", n, MAX_NODES))
        .transpose()?;
    let multi_pv = request
        .multi_pv
        .map(|k| in_range("multi_pv", k, MAX_MULTI_PV))
        .transpose()?
        .unwrap_or(1) as usize;
    let margin = match request.randomize {
        None | Some(Randomize::Flag(false)) => None,
        Some(Randomize::Flag(true)) => Some(kind.info().default_margin),
        Some(Randomize::Margin(m)) => Some(
            i32::try_from(m)
                .ok()
                .filter(|m| (0..=2 * crate::search::WIN).contains(m))
                .ok_or_else(|| {
                    ApiError::invalid(
                        "randomize",
                        format!(
                            "randomize is true, false or a score margin from 0 to {}, got {m}",
                            2 * crate::search::WIN
                        ),
                    )
                })?,
        ),
    };
    let seed = request
        .seed
        .map(|s| {
            u64::try_from(s)
                .map_err(|_| ApiError::invalid("seed", format!("seed must be 0 or more, got {s}")))
        })
        .transpose()?;
    let plan = Plan {
        nodes,
        multi_pv,
        margin,
        timed: request.time_ms.is_some() || request.clock.is_some(),
        cache: request.cache.unwrap_or(true),
        ..Plan::new(position, &strength, state.config.max_time_ms)
    };
    Ok(plan.seeded(seed))
}

impl From<Answer> for SearchResponse {
    fn from(a: Answer) -> Self {
        let mut response = SearchResponse::from(a.report);
        response.lines = a.lines.map(|l| l.into_iter().map(Into::into).collect());
        response.seed = a.seed;
        response
    }
}
