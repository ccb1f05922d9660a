//! `POST /v1/analyze`: a whole game reviewed move by move: the best move
//! at each position, the score before and after the move played, and the
//! mistakes and blunders.

use std::time::{Duration, Instant};

use axum::extract::State;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::bodies::{Moves, Proven, RecordBody, Side};
use super::caps::{MAX_ANALYZE_MOVES, MAX_NODES};
use super::error::{ApiError, Problem, Result};
use super::extract::{Json, optional_object};
use super::validate::{self, game_kind, in_range};
use crate::games::lines::{self, Line};
use crate::games::{Position, PositionSpec};
use crate::plan::Plan;
use crate::runner::{count_shed, finished};
use crate::vocabulary::{Outcome, SearchReport, Status};

/// Each position's time budget when the request names none.
const DEFAULT_TIME_MS: u64 = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(analyze_game))
}

/// A game to review.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The game's name, as `GET /v1/games` lists it.
    #[schema(example = "tictactoe")]
    pub game: String,
    /// The moves played, from `board` (or the game's start); required
    /// unless `record` is given.
    pub moves: Option<Moves>,
    /// The board the game started from (default: the game's start).
    pub board: Option<Vec<String>>,
    /// The side to move on `board`, where the stone counts leave it open.
    pub to_move: Option<Side>,
    /// Board size, for games with several (gomoku: 15, 19, 20).
    pub size: Option<u32>,
    /// Rule variant, for games with several (gomoku: freestyle, standard, renju).
    pub rules: Option<String>,
    /// The game as a record, in place of `moves`, `board` and `to_move`.
    #[serde(default, deserialize_with = "optional_object")]
    pub record: Option<RecordBody>,
    /// Deepest iteration per position (default: the game's `default_depth`).
    #[schema(minimum = 1)]
    pub depth: Option<i64>,
    /// Time budget per position in milliseconds (default 200); the whole
    /// analysis stays within the server's cap, so long games get less.
    #[schema(minimum = 1)]
    pub time_ms: Option<i64>,
    /// Node budget per position.
    #[schema(minimum = 1)]
    pub nodes: Option<i64>,
    /// A score drop above this is a mistake (default: the game's
    /// `default_mistake_threshold` in `GET /v1/limits`).
    #[schema(minimum = 1)]
    pub threshold: Option<i64>,
    /// Threads each position's search uses, as in `POST /v1/search`.
    #[schema(minimum = 1)]
    pub threads: Option<i64>,
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// The move the search prefers.
    Best,
    /// Another move, within the threshold of the best.
    Good,
    /// The score dropped by more than the threshold.
    Mistake,
    /// A proven result thrown away: a won game no longer won, a drawn one
    /// now lost, or a step into a proven loss.
    Blunder,
}

/// One move, reviewed.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveReview {
    /// 1 for the first move.
    pub ply: usize,
    pub side: Side,
    /// The move played.
    #[serde(rename = "move")]
    pub played: String,
    /// The search's choice in the position before it.
    pub best_move: String,
    /// The expected line after the best move.
    pub best_pv: Vec<String>,
    /// The position before the move, from the mover's side.
    pub score_before: i32,
    /// After the move, from the mover's side.
    pub score_after: i32,
    /// How much the move gave away (never negative).
    pub loss: i32,
    pub proven_before: Option<Proven>,
    pub proven_after: Option<Proven>,
    pub mark: Mark,
}

/// Moves and mistakes by one side.
#[derive(Clone, Debug, Default, Serialize, ToSchema)]
pub struct SideSummary {
    pub moves: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean `loss` per move.
    pub average_loss: f64,
}

/// The review.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    pub moves: Vec<MoveReview>,
    #[serde(rename = "X")]
    pub x: SideSummary,
    #[serde(rename = "O")]
    pub o: SideSummary,
    /// The threshold the marks used.
    pub threshold: i32,
    /// The time budget each position had, in milliseconds.
    pub time_ms_per_position: u64,
    /// The whole analysis's wall time, in milliseconds.
    pub time_ms: u64,
}

/// Review a whole game.
#[utoipa::path(
    post,
    path = "/v1/analyze",
    tag = "search",
    request_body = AnalyzeRequest,
    responses(
        (status = 200, description = "Each move with the best move, the scores before and after, and its mark", body = AnalyzeResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An illegal move, a start that cannot exist, or a value out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every worker is busy and the queue is full; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn analyze_game(
    State(state): State<AppState>,
    Json(request): Json<AnalyzeRequest>,
) -> Result<Json<AnalyzeResponse>> {
    let started = Instant::now();
    let kind = game_kind(&request.game)?;
    let (start, moves) = match &request.record {
        Some(body) => {
            let others =
                request.board.is_some() || request.moves.is_some() || request.to_move.is_some();
            let record = validate::record(kind, body, request.size, request.rules.clone(), others)?;
            let start = record
                .start_position()
                .map_err(|e| ApiError::invalid("record", format!("the record: {e}")))?;
            (start, record.notations())
        }
        None => {
            let moves = request.moves.clone().ok_or_else(|| {
                ApiError::invalid("moves", "give the moves played, or the game as a `record`")
            })?;
            let spec = PositionSpec {
                board: request.board.clone(),
                moves: request.board.is_none().then(Vec::new),
                to_move: request.to_move.map(Into::into),
                size: request.size,
                rules: request.rules.clone(),
            };
            (kind.parse(&spec)?, kind.move_list(moves.into_list()))
        }
    };
    if !(1..=MAX_ANALYZE_MOVES).contains(&moves.len()) {
        return Err(ApiError::invalid(
            "moves",
            format!(
                "an analysis reviews 1 to {MAX_ANALYZE_MOVES} moves, got {}",
                moves.len()
            ),
        ));
    }
    let depth = validate::depth(kind, request.depth)?;
    let requested_ms = validate::time_ms(&state, request.time_ms, DEFAULT_TIME_MS)?;
    let nodes = request
        .nodes
        .map(|n| in_range("nodes", n, MAX_NODES))
        .transpose()?;
    let threads = validate::threads(&state, "threads", request.threads)?;
    let threshold = match request.threshold {
        Some(t) => in_range("threshold", t, 2 * crate::search::WIN as u64)? as i32,
        None => kind.info().mistake_threshold,
    };
    let positions = replay(start, &moves)?;

    // Two searches per move, `workers` at a time, within the server's cap;
    // each move's pair is one search in the metrics and the log.
    let workers = state.pool.workers() as u64;
    let fair_share = state.config.max_time_ms * workers / (2 * moves.len() as u64);
    let time_ms = requested_ms.min(fair_share).max(1);
    let reviews: Vec<Result<(SearchReport, Line)>> =
        futures_util::stream::iter(positions.into_iter().zip(moves.clone()))
            .map(|(position, played)| {
                let state = state.clone();
                let plan = Plan {
                    threads,
                    ..Plan::plain(position, depth, Duration::from_millis(time_ms), nodes)
                };
                async move {
                    let (best, line) = state
                        .pool
                        .start(threads, move |ws, stop| {
                            let limits = plan.limits(stop, None);
                            let best = plan.position.search(&limits, ws);
                            let mut line = lines::search_lines(
                                &plan.position,
                                std::slice::from_ref(&played),
                                &limits,
                                ws,
                                |_| {},
                            );
                            (best, line.remove(0))
                        })
                        .inspect_err(|e| count_shed(kind, *e))?
                        .answer()
                        .await?;
                    finished(kind, &best);
                    Ok((best, line))
                }
            })
            .buffered(state.pool.workers())
            .collect()
            .await;

    let mut out = Vec::with_capacity(moves.len());
    let (mut x, mut o) = (SideSummary::default(), SideSummary::default());
    for (i, review) in reviews.into_iter().enumerate() {
        let (best, line) = review?;
        let review = review_move(i, &moves[i], best, line, threshold);
        let summary = if review.side == Side::X {
            &mut x
        } else {
            &mut o
        };
        summary.moves += 1;
        summary.mistakes += usize::from(review.mark == Mark::Mistake);
        summary.blunders += usize::from(review.mark == Mark::Blunder);
        summary.average_loss += f64::from(review.loss);
        out.push(review);
    }
    for s in [&mut x, &mut o] {
        if s.moves > 0 {
            s.average_loss /= s.moves as f64;
        }
    }
    Ok(Json(AnalyzeResponse {
        moves: out,
        x,
        o,
        threshold,
        time_ms_per_position: time_ms,
        time_ms: crate::search::elapsed_ms(started),
    }))
}

/// The position before each move, refusing illegal moves and moves after
/// the game ended.
fn replay(mut position: Position, moves: &[String]) -> Result<Vec<Position>> {
    let mut positions = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        if position.describe().status != Status::Ongoing {
            return Err(ApiError::invalid(
                "moves",
                format!("move {} ({mv}) comes after the game ended", i + 1),
            ));
        }
        positions.push(position.clone());
        position
            .play(mv)
            .map_err(|why| ApiError::invalid("moves", format!("move {} ({mv}): {why}", i + 1)))?;
    }
    Ok(positions)
}

fn review_move(
    i: usize,
    played: &str,
    best: SearchReport,
    line: Line,
    threshold: i32,
) -> MoveReview {
    let before = best.proven.map(|p| p.result);
    let after = line.proven.map(|p| p.result);
    let blunder = match before {
        Some(Outcome::Win) => after != Some(Outcome::Win),
        Some(Outcome::Loss) => false,
        _ => after == Some(Outcome::Loss),
    };
    let loss = best.score.saturating_sub(line.score).max(0);
    let mark = if best.best_move.notation == played {
        Mark::Best
    } else if blunder {
        Mark::Blunder
    } else if loss > threshold {
        Mark::Mistake
    } else {
        Mark::Good
    };
    MoveReview {
        ply: i + 1,
        side: best.to_move.into(),
        played: played.to_owned(),
        best_move: best.best_move.notation,
        best_pv: best.pv,
        score_before: best.score,
        score_after: line.score,
        loss,
        proven_before: best.proven.map(Proven::from),
        proven_after: line.proven.map(Proven::from),
        mark,
    }
}
