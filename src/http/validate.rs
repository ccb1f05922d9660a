//! Checks shared by the routes: a game's name, a number within its range,
//! and a search's depth and time budget. Each names the request field at
//! fault, so every route words the same mistake the same way.

use super::AppState;
use super::bodies::{ClockBody, PositionRequest, RecordBody};
use super::error::{ApiError, Result};
use crate::games::{GameKind, Position, level};
use crate::plan::Strength;
use crate::records::{self, Hints, Record};
use crate::search::GameClock;

/// The longest clock accepted: a week, in milliseconds.
const MAX_CLOCK_MS: u64 = 7 * 24 * 3600 * 1000;

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
    Ok(checked_depth("depth", kind, depth)?.unwrap_or(kind.info().default_depth))
}

fn checked_depth(field: &'static str, kind: GameKind, depth: Option<i64>) -> Result<Option<u32>> {
    let max = u64::from(kind.info().max_depth);
    Ok(depth
        .map(|d| in_range(field, d, max))
        .transpose()?
        .map(|d| d as u32))
}

/// A search's time budget in milliseconds: checked against the server's
/// cap, or `default`.
pub fn time_ms(state: &AppState, time_ms: Option<i64>, default: u64) -> Result<u64> {
    match time_ms {
        Some(t) => in_range("time_ms", t, state.config.max_time_ms),
        None => Ok(default),
    }
}

/// The names of a request's strength fields, as its errors call them.
pub struct StrengthFields {
    pub depth: &'static str,
    pub time_ms: &'static str,
    pub level: &'static str,
    pub clock: &'static str,
    pub threads: &'static str,
}

/// A search request's own fields.
pub const SEARCH_FIELDS: StrengthFields = StrengthFields {
    depth: "depth",
    time_ms: "time_ms",
    level: "level",
    clock: "clock",
    threads: "threads",
};

/// A session's `ai` settings.
pub const AI_FIELDS: StrengthFields = StrengthFields {
    depth: "ai.depth",
    time_ms: "ai.time_ms",
    level: "ai.level",
    clock: "ai.clock",
    threads: "ai.threads",
};

/// What a client asks of a search's strength, as its request has it.
#[derive(Clone, Copy, Default)]
pub struct StrengthRequest<'a> {
    pub depth: Option<i64>,
    pub time_ms: Option<i64>,
    pub level: Option<i64>,
    pub clock: Option<&'a ClockBody>,
    pub threads: Option<i64>,
}

/// Threads for one search: from 1 to the server's cap, which the refusal
/// names.
pub fn threads(state: &AppState, field: &'static str, threads: Option<i64>) -> Result<usize> {
    let cap = state.config.thread_cap(state.pool.workers());
    match threads {
        None => Ok(1),
        Some(t) => usize::try_from(t)
            .ok()
            .filter(|t| (1..=cap).contains(t))
            .ok_or_else(|| {
                ApiError::invalid(
                    field,
                    format!(
                        "{field} must be between 1 and {cap}, this server's cap (GAMEAI_MAX_THREADS), got {t}"
                    ),
                )
            }),
    }
}

/// A client's depth, time, level, clock and threads, each checked against
/// its range and named as `fields` says, completed into a [`Strength`].
pub fn strength(
    state: &AppState,
    kind: GameKind,
    fields: &StrengthFields,
    asked: StrengthRequest<'_>,
) -> Result<Strength> {
    let StrengthRequest {
        depth,
        time_ms,
        level,
        clock: clock_body,
        threads: threads_asked,
    } = asked;
    let max_time_ms = state.config.max_time_ms;
    let depth = checked_depth(fields.depth, kind, depth)?;
    let time_ms = time_ms
        .map(|t| in_range(fields.time_ms, t, max_time_ms))
        .transpose()?;
    let level = level
        .map(|l| in_range(fields.level, l, u64::from(level::MAX)))
        .transpose()?
        .map(|l| l as u8);
    let clock = clock_body.map(|c| clock(fields.clock, c)).transpose()?;
    Ok(Strength {
        threads: threads(state, fields.threads, threads_asked)?,
        ..Strength::new(kind, depth, time_ms, level, clock, max_time_ms)
    })
}

/// A game clock, each value within its range; `field` is where the
/// request holds it (`clock`, `ai.clock`).
pub fn clock(field: &'static str, body: &ClockBody) -> Result<GameClock> {
    let millis = |name: &str, value: i64| {
        u64::try_from(value)
            .ok()
            .filter(|v| *v <= MAX_CLOCK_MS)
            .ok_or_else(|| {
                ApiError::invalid(
                    field,
                    format!("{field}.{name} must be between 0 and {MAX_CLOCK_MS}, got {value}"),
                )
            })
    };
    let moves_to_go = body
        .moves_to_go
        .map(|m| {
            u64::try_from(m)
                .ok()
                .filter(|m| (1..=1000).contains(m))
                .ok_or_else(|| {
                    ApiError::invalid(
                        field,
                        format!("{field}.moves_to_go must be between 1 and 1000, got {m}"),
                    )
                })
        })
        .transpose()?;
    Ok(GameClock {
        time_left_ms: millis("time_left_ms", body.time_left_ms)?,
        increment_ms: millis("increment_ms", body.increment_ms.unwrap_or(0))?,
        moves_to_go,
    })
}

/// Reads a request's `record` as a game of `kind`, with the request's
/// `size` and `rules` as what the record is checked against or lacks;
/// `others` says whether the request also gave `board`, `moves` or
/// `to_move`, which a record replaces.
pub fn record(
    kind: GameKind,
    body: &RecordBody,
    size: Option<u32>,
    rules: Option<String>,
    others: bool,
) -> Result<Record> {
    if others {
        return Err(ApiError::invalid(
            "record",
            "give either `record` or `board`/`moves`/`to_move`: the record says where the game starts and what was played",
        ));
    }
    let hints = Hints {
        game: Some(kind),
        size,
        rules,
    };
    records::parse_with(body.format.into(), &body.text, &hints)
        .map_err(|e| ApiError::invalid("record", format!("the record: {e}")))
}

/// The position a request names, from its `record` or its `board`/`moves`.
pub fn position(request: PositionRequest) -> Result<(GameKind, Position)> {
    let kind = game_kind(&request.game)?;
    match &request.record {
        Some(body) => {
            let others =
                request.board.is_some() || request.moves.is_some() || request.to_move.is_some();
            let record = record(kind, body, request.size, request.rules.clone(), others)?;
            let position = record
                .replay()
                .map_err(|e| ApiError::invalid("record", format!("the record: {e}")))?;
            Ok((kind, position))
        }
        None => Ok((kind, kind.parse(&request.into_spec())?)),
    }
}
