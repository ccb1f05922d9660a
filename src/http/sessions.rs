//! The session routes: whole games kept on the server. Each maps its body
//! to a session operation (`crate::sessions`), which loads the session,
//! replays it, applies the change (and the AI's reply) and writes it back
//! only if no other change got there first, and the result to an answer.

mod bodies;

use axum::Extension;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use bodies::{
    AiMoveRequest, AiSide, ChangeRequest, CreateSessionRequest, MoveRequest, RecordQuery,
    SessionResponse,
};

use super::AppState;
use super::error::{ApiError, Problem, Result};
use super::extract::{Json, OptionalJson};
use super::validate::{self, StrengthRequest, game_kind};
use crate::sessions::{AiSettings, GivenMove, NewSession, Owner};
use crate::vocabulary::Player;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_session))
        .routes(routes!(get_session, delete_session))
        .routes(routes!(play_move))
        .routes(routes!(make_ai_move))
        .routes(routes!(undo_move))
        .routes(routes!(export_record))
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
        (status = 503, description = "The session store is unreachable or refused the session, or every worker is busy; nothing was made: retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
        (status = 504, description = "The session store did not confirm the change in time: it may have been applied (settled within a second); the detail says which read tells", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn create_session(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Json(request): Json<CreateSessionRequest>,
) -> Result<impl IntoResponse> {
    let new = new_session(&state, &request)?;
    let turn = state.sessions.create(owned(&owner), new).await?;
    let location = format!("/v1/sessions/{}", turn.session.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(SessionResponse::from(turn)),
    ))
}

/// The requester's key's owner, when the server has keys.
fn owned(owner: &Option<Extension<Owner>>) -> Option<&Owner> {
    owner.as_ref().map(|Extension(owner)| owner)
}

/// The game a create request describes: from its record, or from `board`
/// and `moves`; the AI's side and strength checked.
fn new_session(state: &AppState, request: &CreateSessionRequest) -> Result<NewSession> {
    let kind = game_kind(&request.game)?;
    let ai = request.ai.clone().unwrap_or_default();
    let strength = validate::strength(
        state,
        kind,
        &validate::AI_FIELDS,
        StrengthRequest {
            depth: ai.depth,
            time_ms: ai.time_ms,
            level: ai.level,
            clock: ai.clock.as_ref(),
            threads: ai.threads,
        },
    )?;
    let ai = AiSettings {
        plays: ai.plays.unwrap_or(AiSide::O).into(),
        strength,
    };
    let Some(body) = &request.record else {
        let spec = request.start_spec();
        return Ok(NewSession {
            position: kind.parse(&spec)?,
            start_board: request.board.clone(),
            start_to_move: request
                .board
                .as_ref()
                .and(request.to_move.map(Player::from)),
            moves: match &request.board {
                Some(_) => Vec::new(),
                None => spec.moves.unwrap_or_default(),
            },
            size: request.size,
            rules: request.rules.clone(),
            ai,
        });
    };
    let others = request.board.is_some() || request.moves.is_some() || request.to_move.is_some();
    let record = validate::record(kind, body, request.size, request.rules.clone(), others)?;
    let position = record
        .replay()
        .map_err(|e| ApiError::invalid("record", format!("the record: {e}")))?;
    Ok(NewSession {
        position,
        moves: record.notations(),
        start_to_move: record.start.as_ref().and_then(|s| s.to_move),
        start_board: record.start.map(|s| s.board),
        size: record.size,
        rules: record.rules,
        ai,
    })
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
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
) -> Result<Json<SessionResponse>> {
    Ok(Json(state.sessions.read(owned(&owner), &id).await?.into()))
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
        (status = 503, description = "The session store is unreachable or refused the change; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 504, description = "The session store did not confirm the change in time: it may have been applied (settled within a second); the detail says which read tells", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn delete_session(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
) -> Result<StatusCode> {
    state.sessions.delete(owned(&owner), &id).await?;
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
        (status = 503, description = "The session store is unreachable or refused the change, or every worker is busy; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 504, description = "The session store did not confirm the change in time: it may have been applied (settled within a second); the detail says which read tells", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn play_move(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
    Json(request): Json<MoveRequest>,
) -> Result<Json<SessionResponse>> {
    let reply = request.reply != Some(false);
    let turn = state
        .sessions
        .play(
            owned(&owner),
            &id,
            &request.notation,
            request.expected_version,
            reply,
        )
        .await?;
    Ok(Json(turn.into()))
}

/// Have the AI play the side to move, whichever it is (AI against AI, or
/// "play for me").
#[utoipa::path(
    post,
    path = "/v1/sessions/{id}/ai-move",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id")),
    request_body(content = Option<AiMoveRequest>, description = "Optional; the body may be empty"),
    responses(
        (status = 200, description = "The session after the AI's move, with its search (none when the client gave the move)", body = SessionResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over, `expected_version` is stale, or another change got there first; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The given `move` is illegal; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable or refused the change, or every worker is busy; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 504, description = "The session store did not confirm the change in time: it may have been applied (settled within a second); the detail says which read tells", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn make_ai_move(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<AiMoveRequest>,
) -> Result<Json<SessionResponse>> {
    let given = match &request.notation {
        Some(notation) => Some(GivenMove {
            notation: notation.clone(),
            eval: client_eval(&request)?,
        }),
        None => None,
    };
    let turn = state
        .sessions
        .ai_move(owned(&owner), &id, request.expected_version, given)
        .await?;
    Ok(Json(turn.into()))
}

/// The evaluation a client's own search gave its move, checked.
fn client_eval(request: &AiMoveRequest) -> Result<Option<(i32, u32)>> {
    let limit = i64::from(2 * crate::search::WIN);
    match (request.score, request.depth) {
        (None, None) => Ok(None),
        (Some(score), depth) => {
            let score = i32::try_from(score)
                .ok()
                .filter(|s| i64::from(*s).abs() <= limit)
                .ok_or_else(|| {
                    ApiError::invalid(
                        "score",
                        format!("score must be within ±{limit}, got {score}"),
                    )
                })?;
            let depth = u32::try_from(depth.unwrap_or(0))
                .ok()
                .filter(|d| *d <= 1000)
                .ok_or_else(|| ApiError::invalid("depth", "depth must be between 0 and 1000"))?;
            Ok(Some((score, depth)))
        }
        (None, Some(_)) => Err(ApiError::invalid(
            "score",
            "depth comes with the score it gave",
        )),
    }
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
        (status = 503, description = "The session store is unreachable or refused the change; nothing changed", body = Problem, content_type = "application/problem+json"),
        (status = 504, description = "The session store did not confirm the change in time: it may have been applied (settled within a second); the detail says which read tells", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn undo_move(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<ChangeRequest>,
) -> Result<Json<SessionResponse>> {
    let turn = state
        .sessions
        .undo(owned(&owner), &id, request.expected_version)
        .await?;
    Ok(Json(turn.into()))
}

/// The session as a game record, with the AI's evaluation of each of its
/// moves as a comment where the format keeps comments (SGF).
#[utoipa::path(
    get,
    path = "/v1/sessions/{id}/record",
    tag = "sessions",
    params(("id" = String, Path, description = "The session's id"), RecordQuery),
    responses(
        (status = 200, description = "The record: `application/x-go-sgf` for SGF, `text/plain` for the others", content(
            (String = "application/x-go-sgf"),
            (String = "text/plain"),
        )),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such session, or it expired", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unknown format, or one that cannot hold this game (or its starting position)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The session store is unreachable", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn export_record(
    State(state): State<AppState>,
    owner: Option<Extension<Owner>>,
    Path(id): Path<String>,
    Query(query): Query<RecordQuery>,
) -> Result<Response> {
    let (format, text) = state
        .sessions
        .record(owned(&owner), &id, query.format.as_deref())
        .await?;
    Ok(([(header::CONTENT_TYPE, format.content_type())], text).into_response())
}
