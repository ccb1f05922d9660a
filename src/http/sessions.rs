//! The session routes: whole games kept on the server. Each request loads
//! the session, rebuilds its position by replaying the moves, applies the
//! change (and the AI's reply, searched on the same pool and within the same
//! limits as `/v1/search`), then writes it back only if no other change got
//! there first.

use std::hash::{Hash, Hasher};

use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::de::DeserializeOwned;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::controls::Plan;
use super::error::{ApiError, Problem, Result};
use super::positions::{game_kind, in_range, run_plan, search_budget};
use super::types::{
    AiRequest, AiSide, ChangeRequest, CreateSessionRequest, GameStatus, MoveRequest,
    SessionResponse, Side,
};
use super::{AppState, Json};
use crate::games::{
    GameKind, Part, Player, Position, PositionError, PositionSpec, SearchReport, Status, level,
};
use crate::sessions::{AiPlays, AiSettings, Session, Store, StoreError, new_id, now_rfc3339};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_session))
        .routes(routes!(get_session, delete_session))
        .routes(routes!(play_move))
        .routes(routes!(make_ai_move))
        .routes(routes!(undo_move))
}

/// A JSON body that may be left out entirely (then `T::default()`).
pub struct OptionalJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self> {
        let is_json = request
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| {
                let v = v.trim();
                v == "application/json" || (v.starts_with("application/") && v.ends_with("+json"))
            });
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(
                    "the request body is larger than the server accepts".to_owned(),
                )
            } else {
                ApiError::BadRequest(e.body_text())
            }
        })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(T::default()));
        }
        if !is_json {
            return Err(ApiError::UnsupportedMediaType(
                "send the body as JSON with `content-type: application/json`, or send no body"
                    .to_owned(),
            ));
        }
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_bytes(&bytes)?;
        super::from_object(value).map(Self)
    }
}

/// Rebuilds a stored session's position by replaying its moves.
fn rebuild(session: &Session) -> Result<(GameKind, Position)> {
    let corrupt = |e: PositionError| {
        ApiError::Internal(format!("session {} does not replay: {e}", session.id))
    };
    let kind = game_kind(&session.game)?;
    let spec = PositionSpec {
        board: session.start_board.clone(),
        moves: session.start_board.is_none().then(|| session.moves.clone()),
        to_move: session.start_to_move,
        size: session.size,
        rules: session.rules.clone(),
    };
    let mut position = kind.parse(&spec).map_err(corrupt)?;
    if session.start_board.is_some() {
        for mv in &session.moves {
            position
                .play(mv)
                .map_err(|e| corrupt(PositionError::new(Part::Moves, e.to_string())))?;
        }
    }
    Ok((kind, position))
}

/// Loads a session, refusing a stale `expected_version`.
async fn load(state: &AppState, id: &str, expected_version: Option<u64>) -> Result<Session> {
    // Ids are UUIDs; anything else cannot name a session.
    if uuid::Uuid::parse_str(id).is_err() {
        return Err(StoreError::NotFound.into());
    }
    let session = state.sessions.get(id).await?;
    if let Some(expected) = expected_version.filter(|&v| v != session.version) {
        return Err(ApiError::Conflict(format!(
            "expected_version is {expected} but the session is at version {}; read it again",
            session.version
        )));
    }
    Ok(session)
}

/// Refuses a change to a finished game.
fn check_ongoing(position: &Position) -> Result<()> {
    let report = position.describe();
    match report.status {
        Status::Ongoing => Ok(()),
        Status::Win => Err(ApiError::Conflict(format!(
            "the game is over: {} has won; undo a move or start a new session",
            report.winner.map_or('?', Player::symbol)
        ))),
        Status::Draw => Err(ApiError::Conflict(
            "the game is over (a draw); undo a move or start a new session".to_owned(),
        )),
    }
}

fn is_ongoing(position: &Position) -> bool {
    position.describe().status == Status::Ongoing
}

/// Has the AI search the position and play its move.
async fn play_ai_move(
    state: &AppState,
    kind: GameKind,
    session: &mut Session,
    position: &mut Position,
) -> Result<SearchReport> {
    let random_percent = session
        .ai
        .level
        .map_or(0, |l| level::level(kind, l).random_percent);
    let plan = Plan {
        kind,
        position: position.clone(),
        depth: session.ai.depth,
        time_ms: session.ai.time_ms,
        nodes: None,
        multi_pv: 1,
        margin: None,
        random_percent,
        // The same session at the same move picks the same way.
        seed: (random_percent > 0).then(|| {
            let mut hasher = std::hash::DefaultHasher::new();
            (&session.id, session.moves.len()).hash(&mut hasher);
            hasher.finish()
        }),
    };
    let report = run_plan(state, plan).await?.report;
    position
        .play(&report.best_move.notation)
        .map_err(|e| ApiError::Internal(format!("the AI's move does not play: {e}")))?;
    session.moves.push(report.best_move.notation.clone());
    Ok(report)
}

/// Writes a changed session back if it is still at `previous`.
async fn save(state: &AppState, session: &mut Session, previous: u64) -> Result<()> {
    session.version = previous + 1;
    session.updated_at = now_rfc3339();
    state.sessions.replace(session, previous).await?;
    Ok(())
}

fn respond(
    kind: GameKind,
    session: Session,
    position: &Position,
    ai_search: Option<SearchReport>,
) -> SessionResponse {
    let report = position.describe();
    let info = kind.info();
    SessionResponse {
        id: session.id,
        game: session.game,
        size: session.size.unwrap_or(info.default_size),
        rules: session
            .rules
            .or_else(|| info.default_rules.map(str::to_owned)),
        board: report.board.clone(),
        to_move: report.to_move.into(),
        status: match report.status {
            Status::Ongoing => GameStatus::Ongoing,
            Status::Win => GameStatus::Win,
            Status::Draw => GameStatus::Draw,
        },
        winner: report.winner.map(Side::from),
        winning_line: report.winning_line,
        legal_moves: report.legal_moves,
        moves: session.moves,
        start_board: session.start_board,
        ai: session.ai.into(),
        version: session.version,
        created_at: session.created_at,
        updated_at: session.updated_at,
        ai_search: ai_search.map(Into::into),
    }
}

/// Start a game on the server.
#[utoipa::path(
    post,
    path = "/v1/sessions",
    tag = "sessions",
    request_body = CreateSessionRequest,
    responses(
        (status = 201, description = "The new session, the AI's first move made if it is to move; `Location` names it", body = SessionResponse,
            headers(("location" = String, description = "The session's path"))),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown game, a position that cannot exist, or a value out of range", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable, or every worker is busy; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn create_session(
    State(state): State<AppState>,
    Json(request): Json<CreateSessionRequest>,
) -> Result<impl IntoResponse> {
    let kind = game_kind(&request.game)?;
    let mut position = kind.parse(&request.start_spec())?;
    let ai = request.ai.clone().unwrap_or_default();
    let (mut depth, mut time_ms) = search_budget(&state, kind, ai.depth, ai.time_ms)?;
    let level = ai
        .level
        .map(|l| in_range("ai.level", l, u64::from(level::MAX)))
        .transpose()?
        .map(|l| l as u8);
    if let Some(settings) = level.map(|l| level::level(kind, l)) {
        if ai.depth.is_none() {
            depth = settings.depth;
        }
        if ai.time_ms.is_none() {
            time_ms = settings.time_ms.min(state.config.max_time_ms);
        }
    }
    let AiRequest { plays, .. } = ai;
    let now = now_rfc3339();
    let start_board = request.board.clone();
    let mut session = Session {
        id: new_id(),
        game: kind.name().to_owned(),
        size: request.size,
        rules: request.rules.clone(),
        start_to_move: start_board.as_ref().and(request.to_move.map(Player::from)),
        moves: match &start_board {
            Some(_) => Vec::new(),
            None => request.start_spec().moves.unwrap_or_default(),
        },
        start_board,
        ai: AiSettings {
            plays: plays.unwrap_or(AiSide::O).into(),
            depth,
            time_ms,
            level,
        },
        version: 1,
        created_at: now.clone(),
        updated_at: now,
    };
    let mut ai_search = None;
    if is_ongoing(&position) && session.ai.plays.plays(position.to_move()) {
        ai_search = Some(play_ai_move(&state, kind, &mut session, &mut position).await?);
    }
    state.sessions.create(&session).await?;
    let location = format!("/v1/sessions/{}", session.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(respond(kind, session, &position, ai_search)),
    ))
}

/// Read a session.
#[utoipa::path(
    get,
    path = "/v1/sessions/{id}",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    responses(
        (status = 200, description = "The session", body = SessionResponse),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn get_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<SessionResponse>> {
    let session = load(&state, &id, None).await?;
    let (kind, position) = rebuild(&session)?;
    Ok(Json(respond(kind, session, &position, None)))
}

/// End a session and forget it.
#[utoipa::path(
    delete,
    path = "/v1/sessions/{id}",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn delete_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    if uuid::Uuid::parse_str(&id).is_err() {
        return Err(StoreError::NotFound.into());
    }
    state.sessions.delete(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Play the client's move; the AI replies in the same answer when it plays
/// the other side.
#[utoipa::path(
    post,
    path = "/v1/sessions/{id}/moves",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    request_body = MoveRequest,
    responses(
        (status = 200, description = "The session after the move and the AI's reply", body = SessionResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "It is the AI's turn, the game is over, `expected_version` is stale, or another change got there first; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An illegal move; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable, or every worker is busy", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Json(request): Json<MoveRequest>,
) -> Result<Json<SessionResponse>> {
    let mut session = load(&state, &id, request.expected_version).await?;
    let previous = session.version;
    let (kind, mut position) = rebuild(&session)?;
    check_ongoing(&position)?;
    let side = position.to_move();
    if session.ai.plays.plays(side) {
        return Err(ApiError::Conflict(format!(
            "it is {}'s turn, which the AI plays; POST /v1/sessions/{id}/ai-move to have it move",
            side.symbol()
        )));
    }
    position
        .play(request.notation.trim())
        .map_err(|e| ApiError::invalid("move", e.to_string()))?;
    session.moves.push(request.notation.trim().to_owned());
    let mut ai_search = None;
    if is_ongoing(&position) && session.ai.plays.plays(position.to_move()) {
        ai_search = Some(play_ai_move(&state, kind, &mut session, &mut position).await?);
    }
    save(&state, &mut session, previous).await?;
    Ok(Json(respond(kind, session, &position, ai_search)))
}

/// Have the AI play the side to move, whichever it is (AI against AI, or
/// "play for me").
#[utoipa::path(
    post,
    path = "/v1/sessions/{id}/ai-move",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    request_body(content = Option<ChangeRequest>, description = "Optional; the body may be empty"),
    responses(
        (status = 200, description = "The session after the AI's move, with its search", body = SessionResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over, `expected_version` is stale, or another change got there first; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable, or every worker is busy", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn make_ai_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<ChangeRequest>,
) -> Result<Json<SessionResponse>> {
    let mut session = load(&state, &id, request.expected_version).await?;
    let previous = session.version;
    let (kind, mut position) = rebuild(&session)?;
    check_ongoing(&position)?;
    let report = play_ai_move(&state, kind, &mut session, &mut position).await?;
    save(&state, &mut session, previous).await?;
    Ok(Json(respond(kind, session, &position, Some(report))))
}

/// Take back the last ply — and, when the AI plays one side, back to the
/// client's turn.
#[utoipa::path(
    post,
    path = "/v1/sessions/{id}/undo",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    request_body(content = Option<ChangeRequest>, description = "Optional; the body may be empty"),
    responses(
        (status = 200, description = "The session after taking moves back", body = SessionResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No move to take back, `expected_version` is stale, or another change got there first; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn undo_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<ChangeRequest>,
) -> Result<Json<SessionResponse>> {
    let mut session = load(&state, &id, request.expected_version).await?;
    let previous = session.version;
    if session.moves.pop().is_none() {
        return Err(ApiError::Conflict(
            "there is no move to take back".to_owned(),
        ));
    }
    let (mut kind, mut position) = rebuild(&session)?;
    // With the AI on one side, go back to the client's turn.
    let one_side = matches!(session.ai.plays, AiPlays::X | AiPlays::O);
    while one_side && session.ai.plays.plays(position.to_move()) && session.moves.pop().is_some() {
        (kind, position) = rebuild(&session)?;
    }
    save(&state, &mut session, previous).await?;
    Ok(Json(respond(kind, session, &position, None)))
}
