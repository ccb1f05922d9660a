//! The position routes: search a position, describe a position, list the
//! games and the server's limits.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::bodies::{GameStatus, PositionRequest, SearchRequest, SearchResponse, Side};
use super::caps::{MAX_ANALYZE_MOVES, MAX_BATCH_ITEMS, MAX_MULTI_PV, MAX_NODES};
use super::error::{Problem, Result};
use super::extract::Json;
use super::plan::plan_of;
use super::validate;
use crate::games::{GameInfo, GameKind, Position, PositionReport, level};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(find_best_move))
        .routes(routes!(describe_position))
        .routes(routes!(list_games))
        .routes(routes!(server_limits))
}

/// A valid position, described.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PositionResponse {
    pub to_move: Side,
    pub status: GameStatus,
    pub winner: Option<Side>,
    /// The cells of the winning line, in notation (empty unless won).
    pub winning_line: Vec<String>,
    /// Legal moves for the side to move, in notation (empty once over).
    pub legal_moves: Vec<String>,
    /// Renju: points where black may not play.
    pub forbidden: Vec<String>,
    /// The position as rows, top first.
    pub board: Vec<String>,
}

impl From<PositionReport> for PositionResponse {
    fn from(r: PositionReport) -> Self {
        Self {
            to_move: r.to_move.into(),
            status: r.status.into(),
            winner: r.winner.map(Side::from),
            winning_line: r.winning_line,
            legal_moves: r.legal_moves,
            forbidden: r.forbidden,
            board: r.board,
        }
    }
}

/// A game the service plays.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameBody {
    /// The `game` value in requests.
    pub name: String,
    pub title: String,
    /// Board sizes offered (`size` in requests).
    pub sizes: Vec<u32>,
    pub default_size: u32,
    /// Rule variants offered (`rules` in requests).
    pub rules: Vec<String>,
    pub default_rules: Option<String>,
    pub default_depth: u32,
    pub max_depth: u32,
    /// The time budget when a request names none, in milliseconds.
    pub default_time_ms: u64,
    /// How moves are written.
    pub notation: String,
    /// The start position, rows top first.
    pub start: Vec<String>,
    /// A move names a column, and the disc drops to its lowest empty cell.
    pub gravity: bool,
    /// Moves are column digits, and `moves` may be one string of them
    /// (`"4453"`).
    pub column_notation: bool,
    /// A side with no legal move passes: `"pass"` is then its only move.
    pub passes: bool,
    /// A move turns the opponent's discs it brackets.
    pub flips: bool,
    /// Black may have forbidden points under some rules (`POST
    /// /v1/position` lists them in `forbidden`).
    pub forbidden_points: bool,
}

impl From<&GameInfo> for GameBody {
    fn from(g: &GameInfo) -> Self {
        let f = g.features;
        Self {
            name: g.name.to_owned(),
            title: g.title.to_owned(),
            sizes: g.sizes.clone(),
            default_size: g.default_size,
            rules: g.rules.iter().map(|r| (*r).to_owned()).collect(),
            default_rules: g.default_rules.map(str::to_owned),
            default_depth: g.default_depth,
            max_depth: g.max_depth,
            default_time_ms: g.default_time_ms,
            notation: g.notation.to_owned(),
            start: g.start.clone(),
            gravity: f.gravity,
            column_notation: f.column_notation,
            passes: f.passes,
            flips: f.flips,
            forbidden_points: f.forbidden_points,
        }
    }
}

/// The games, and the server's time cap.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GamesResponse {
    pub games: Vec<GameBody>,
    /// No search runs longer than this, in milliseconds.
    pub max_time_ms: u64,
}

/// The server's caps, so clients can adapt instead of guessing.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LimitsResponse {
    /// The largest `time_ms` of any search, in milliseconds.
    pub max_time_ms: u64,
    /// The largest `nodes` budget.
    pub max_nodes: u64,
    /// The largest `multi_pv`.
    pub max_multi_pv: u64,
    /// `level` runs from 1 to this.
    pub max_level: u8,
    /// The most items in one `POST /v1/search/batch`.
    pub max_batch_items: usize,
    /// The most moves in one `POST /v1/analyze`.
    pub max_analyze_moves: usize,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// Searches that run at once.
    pub workers: usize,
    /// The most `threads` one search may use (`GAMEAI_MAX_THREADS`).
    pub max_threads: usize,
    /// Searches that may wait for a worker; beyond it the server answers 503.
    pub queue: usize,
    /// The table memory each worker may use, in MiB (`GAMEAI_TT_MB`).
    pub tt_mb: u64,
    pub games: Vec<GameLimits>,
}

/// One game's caps and defaults.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameLimits {
    pub name: String,
    pub max_depth: u32,
    pub default_depth: u32,
    pub default_time_ms: u64,
    /// The margin `"randomize": true` uses, in score units.
    pub default_margin: i32,
    /// A score drop above this marks a mistake in `POST /v1/analyze`.
    pub default_mistake_threshold: i32,
}

fn parse_position(request: PositionRequest) -> Result<(GameKind, Position)> {
    validate::position(request)
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
    let plan = plan_of(&state, &request)?;
    let answer = state.runner.run(plan).await?;
    Ok(Json(answer.into()))
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
        max_threads: config.thread_cap(state.pool.workers()),
        queue: config.queue,
        tt_mb: config.tt_mb,
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
