//! `POST /v1/search/stream` and `GET /v1/search/stream`: a search answered
//! as Server-Sent Events, one event per completed depth (or per line with
//! `multi_pv`), then the result. Closing the connection stops the search
//! and frees its worker.
//!
//! The GET form takes the request in the query string, so a browser's
//! `EventSource` can open it; it becomes the same `SearchRequest` as the
//! POST body and goes through the same checks.

use std::convert::Infallible;
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tracing::Instrument;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::bodies::{ClockBody, LineBody, Moves, Randomize, SearchRequest, SearchResponse, Side};
use super::error::{ApiError, Problem, Result};
use super::extract::Json;
use super::plan::plan_of;
use crate::runner::{count_shed, finished};
use crate::search::{Progress, ProgressSink};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(stream_search, stream_search_get))
}

/// The `depth` event: one completed iteration.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DepthEvent {
    pub depth: u32,
    /// The side to move's view, as in the result.
    pub score: i32,
    /// The expected line so far, best move first.
    pub pv: Vec<String>,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
}

/// One Server-Sent Event as it travels: its name, and its JSON as text.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StreamEvent {
    /// `depth` (data: a `DepthEvent`), `line` (a `LineBody`), `result` (a
    /// `SearchResponse`) or `error` (a `Problem`).
    #[schema(example = "depth")]
    pub event: String,
    /// The event's JSON document.
    pub data: String,
}

fn event(name: &'static str, data: &impl Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name))
}

/// Search a position, streaming each completed depth.
///
/// Server-Sent Events (`curl -N`): `depth` events (`DepthEvent`) as each
/// iteration completes, or `line` events (`LineBody`) with `multi_pv`
/// above 1; then one `result` event (`SearchResponse`), or an `error`
/// event (`Problem`) if the search failed. Errors found before the search
/// starts are ordinary problem+json answers.
#[utoipa::path(
    post,
    path = "/v1/search/stream",
    tag = "search",
    request_body = SearchRequest,
    responses(
        (status = 200, description = "`text/event-stream`: `depth` (DepthEvent) or `line` (LineBody) events, then `result` (SearchResponse) or `error` (Problem)", body = StreamEvent, content_type = "text/event-stream"),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A position that cannot exist, a finished game, or a value out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every worker is busy and the queue is full; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn stream_search(
    State(state): State<AppState>,
    Json(request): Json<SearchRequest>,
) -> Result<Sse<impl Stream<Item = std::result::Result<Event, Infallible>>>> {
    stream(&state, &request)
}

/// The search request of `GET /v1/search/stream`, in the query string.
#[derive(Clone, Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// The game's name, as `GET /v1/games` lists it.
    #[param(example = "othello")]
    pub game: String,
    /// Moves from the start position, separated by spaces or commas
    /// (`f5 d6`, written `f5+d6` in a URL; Connect Four's `4453`).
    #[param(example = "f5 d6")]
    pub moves: Option<String>,
    /// Rows, top row first, separated by `/` (`X.O/.../...`).
    pub board: Option<String>,
    pub to_move: Option<Side>,
    pub size: Option<u32>,
    pub rules: Option<String>,
    /// As in `POST /v1/search`.
    pub depth: Option<i64>,
    /// As in `POST /v1/search`.
    #[param(example = 300)]
    pub time_ms: Option<i64>,
    pub nodes: Option<i64>,
    pub multi_pv: Option<i64>,
    pub level: Option<i64>,
    /// `true`, `false`, or a score margin, as in `POST /v1/search`.
    pub randomize: Option<String>,
    pub seed: Option<i64>,
    /// As in `POST /v1/search`.
    pub threads: Option<i64>,
    /// The mover's clock (`clock.time_left_ms` in `POST /v1/search`).
    pub time_left_ms: Option<i64>,
    /// With `time_left_ms`: the increment per move.
    pub increment_ms: Option<i64>,
    /// With `time_left_ms`: moves to the next time control.
    pub moves_to_go: Option<i64>,
}

impl TryFrom<StreamQuery> for SearchRequest {
    type Error = ApiError;

    fn try_from(q: StreamQuery) -> Result<Self> {
        let randomize = q
            .randomize
            .map(|text| match text.trim() {
                "true" => Ok(Randomize::Flag(true)),
                "false" => Ok(Randomize::Flag(false)),
                other => other.parse().map(Randomize::Margin).map_err(|_| {
                    ApiError::invalid(
                        "randomize",
                        format!("randomize is true, false or a score margin, got {other:?}"),
                    )
                }),
            })
            .transpose()?;
        let clock = match (q.time_left_ms, q.increment_ms, q.moves_to_go) {
            (None, None, None) => None,
            (Some(time_left_ms), increment_ms, moves_to_go) => Some(ClockBody {
                time_left_ms,
                increment_ms,
                moves_to_go,
            }),
            (None, ..) => {
                return Err(ApiError::invalid(
                    "time_left_ms",
                    "increment_ms and moves_to_go need time_left_ms, the time on the clock",
                ));
            }
        };
        Ok(SearchRequest {
            game: q.game,
            board: q
                .board
                .map(|b| b.split('/').map(|row| row.trim().to_owned()).collect()),
            moves: q.moves.map(Moves::Text),
            to_move: q.to_move,
            size: q.size,
            rules: q.rules,
            record: None,
            depth: q.depth,
            time_ms: q.time_ms,
            clock,
            nodes: q.nodes,
            multi_pv: q.multi_pv,
            level: q.level,
            randomize,
            seed: q.seed,
            // A stream shows each depth as it is searched.
            cache: Some(false),
            threads: q.threads,
        })
    }
}

/// Search a position, streaming each completed depth (for `EventSource`).
///
/// The same search as `POST /v1/search/stream`, with the request in the
/// query string, so a browser's `EventSource` can open it:
/// `GET /v1/search/stream?game=othello&moves=f5+d6&time_ms=300`. The same
/// checks apply; errors found before the search starts are problem+json.
#[utoipa::path(
    get,
    path = "/v1/search/stream",
    tag = "search",
    params(StreamQuery),
    responses(
        (status = 200, description = "`text/event-stream`: `depth` (DepthEvent) or `line` (LineBody) events, then `result` (SearchResponse) or `error` (Problem)", body = StreamEvent, content_type = "text/event-stream"),
        (status = 400, description = "An unknown parameter, or a value of the wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A position that cannot exist, a finished game, or a value out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every worker is busy and the queue is full; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn stream_search_get(
    State(state): State<AppState>,
    query: std::result::Result<Query<StreamQuery>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = std::result::Result<Event, Infallible>>>> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    stream(&state, &SearchRequest::try_from(query)?)
}

/// Starts the search on the pool and answers with its events.
fn stream(
    state: &AppState,
    request: &SearchRequest,
) -> Result<Sse<impl Stream<Item = std::result::Result<Event, Infallible>> + use<>>> {
    let plan = plan_of(state, request)?;
    let kind = plan.kind;
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let start = Instant::now();
    let depth_tx = tx.clone();
    let sink = ProgressSink::new(move |p: Progress| {
        let _ = depth_tx.send(event(
            "depth",
            &DepthEvent {
                depth: p.depth,
                score: p.score,
                pv: p.pv,
                nodes: p.nodes,
                time_ms: crate::search::elapsed_ms(start),
            },
        ));
    });
    let line_tx = tx.clone();
    let threads = plan.threads;
    let running = state
        .pool
        .start(threads, move |ws, stop| {
            plan.run(ws, stop, Some(sink), |line| {
                let _ = line_tx.send(event("line", &LineBody::from(line.clone())));
            })
        })
        .inspect_err(|e| count_shed(kind, *e))?;
    tokio::spawn(
        async move {
            tokio::select! {
                answer = running.answer() => {
                    let last = match answer {
                        Ok(answer) => {
                            finished(kind, &answer.report);
                            event("result", &SearchResponse::from(answer))
                        }
                        Err(e) => {
                            let error = ApiError::from(e);
                            // The response went out with the first event, past
                            // the logging middleware: this error is logged here.
                            error.log();
                            event("error", &error.problem())
                        }
                    };
                    let _ = tx.send(last);
                }
                // The client left: dropping the running search stops it.
                () = tx.closed() => {}
            }
        }
        .instrument(tracing::Span::current()),
    );
    let events =
        futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) },
        );
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
