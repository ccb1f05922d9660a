//! The position routes: search a position, describe a position, list games.

use axum::extract::State;
use tracing::info;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::analyze::MAX_ANALYZE_MOVES;
use super::batch::MAX_BATCH_ITEMS;
use super::controls::{Answer, MAX_MULTI_PV, MAX_NODES, Plan};
use super::error::{ApiError, Problem, Result};
use super::types::{
    GameLimits, GamesResponse, LimitsResponse, PositionRequest, PositionResponse, SearchRequest,
    SearchResponse,
};
use super::{AppState, Json};
use crate::games::{GameKind, Position, SearchReport, Stopped, level};
use crate::pool::PoolError;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(find_best_move))
        .routes(routes!(describe_position))
        .routes(routes!(list_games))
        .routes(routes!(server_limits))
}

/// Finds a game by its API name, or says which games there are.
pub(super) fn game_kind(name: &str) -> Result<GameKind> {
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

fn parse_position(request: PositionRequest) -> Result<(GameKind, Position)> {
    let kind = game_kind(&request.game)?;
    let position = kind.parse(&request.into_spec())?;
    Ok((kind, position))
}

/// A search's depth and time budget from a request's optional values:
/// each checked against its cap, or the game's default.
pub(super) fn search_budget(
    state: &AppState,
    kind: GameKind,
    depth: Option<i64>,
    time_ms: Option<i64>,
) -> Result<(u32, u64)> {
    let info = kind.info();
    let depth = match depth {
        Some(d) => in_range("depth", d, u64::from(info.max_depth))? as u32,
        None => info.default_depth,
    };
    let time_ms = match time_ms {
        Some(t) => in_range("time_ms", t, state.config.max_time_ms)?,
        None => info.default_time_ms.min(state.config.max_time_ms),
    };
    Ok((depth, time_ms))
}

/// Checks `value` is within `1..=max`, or names the field and the range.
pub(super) fn in_range(field: &'static str, value: i64, max: u64) -> Result<u64> {
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

/// Search a position for the best move.
#[utoipa::path(
    post,
    path = "/v1/search",
    tag = "search",
    request_body = SearchRequest,
    responses(
        (status = 200, description = "The best move, its score and the search's figures", body = SearchResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A position that cannot exist, a finished game, or a value out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every worker is busy and the queue is full; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn find_best_move(
    State(state): State<AppState>,
    Json(request): Json<SearchRequest>,
) -> Result<Json<SearchResponse>> {
    let plan = Plan::new(&state, &request)?;
    let answer = run_plan(&state, plan).await?;
    Ok(Json(answer.into()))
}

/// Runs a checked search on the pool and records it.
pub(super) async fn run_plan(state: &AppState, plan: Plan) -> Result<Answer> {
    let kind = plan.kind;
    let answer = state
        .pool
        .run(move |ws, stop| plan.run(ws, stop, None, |_| {}))
        .await
        .inspect_err(|e| count_shed(kind, *e))?;
    finished(kind, &answer.report);
    Ok(answer)
}

/// Counts a search the pool turned away.
pub(super) fn count_shed(kind: GameKind, e: PoolError) {
    if e == PoolError::Overloaded {
        metrics::counter!("gameai_searches_shed_total", "game" => kind.name()).increment(1);
    }
}

/// Records and logs a finished search.
pub(super) fn finished(kind: GameKind, report: &SearchReport) {
    record_search(kind, report);
    info!(
        search.game = kind.name(),
        search.depth = report.depth,
        search.nodes = report.nodes,
        search.best_move = %report.best_move.notation,
        duration_ms = report.time_ms,
        "search done"
    );
}

/// Counts and measures a finished search.
fn record_search(kind: GameKind, report: &SearchReport) {
    let game = kind.name();
    let stopped = match report.stopped {
        Stopped::Depth => "depth",
        Stopped::Time => "time",
        Stopped::Nodes => "nodes",
        Stopped::Cancelled => "cancelled",
        Stopped::Proven => "proven",
    };
    metrics::counter!("gameai_searches_total", "game" => game, "stopped" => stopped).increment(1);
    metrics::histogram!("gameai_search_duration_seconds", "game" => game)
        .record(report.time_ms as f64 / 1000.0);
    metrics::histogram!("gameai_search_nodes", "game" => game).record(report.nodes as f64);
}

/// Validate and describe a position without searching it.
#[utoipa::path(
    post,
    path = "/v1/position",
    tag = "search",
    request_body = PositionRequest,
    responses(
        (status = 200, description = "The position: side to move, status, winner, legal moves", body = PositionResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A position that cannot exist", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn describe_position(Json(request): Json<PositionRequest>) -> Result<Json<PositionResponse>> {
    let (_, position) = parse_position(request)?;
    Ok(Json(position.describe().into()))
}

/// List the games, their options and limits.
#[utoipa::path(
    get,
    path = "/v1/games",
    tag = "search",
    responses(
        (status = 200, description = "Every game the server plays", body = GamesResponse),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn list_games(State(state): State<AppState>) -> Json<GamesResponse> {
    Json(GamesResponse {
        games: GameKind::ALL.iter().map(|g| g.info().into()).collect(),
        max_time_ms: state.config.max_time_ms,
    })
}

/// The server's caps: depth per game, time, nodes, lines, batch and
/// analysis sizes, body size and queue.
#[utoipa::path(
    get,
    path = "/v1/limits",
    tag = "search",
    responses(
        (status = 200, description = "The caps every request is checked against", body = LimitsResponse),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn server_limits(State(state): State<AppState>) -> Json<LimitsResponse> {
    let config = &state.config;
    Json(LimitsResponse {
        max_time_ms: config.max_time_ms,
        max_nodes: MAX_NODES,
        max_multi_pv: MAX_MULTI_PV,
        max_level: level::MAX,
        max_batch_items: MAX_BATCH_ITEMS,
        max_analyze_moves: MAX_ANALYZE_MOVES,
        max_body_bytes: config.max_body_bytes,
        workers: state.pool.workers(),
        queue: config.queue,
        games: GameKind::ALL
            .iter()
            .map(|kind| {
                let info = kind.info();
                GameLimits {
                    name: info.name.to_owned(),
                    max_depth: info.max_depth,
                    default_depth: info.default_depth,
                    default_time_ms: info.default_time_ms,
                    default_margin: info.default_margin,
                    default_mistake_threshold: info.mistake_threshold,
                }
            })
            .collect(),
    })
}
