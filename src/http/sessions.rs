//! The session routes: whole games kept on the server. Each request loads
//! the session, rebuilds its position by replaying the moves, applies the
//! change (and the AI's reply, searched on the same pool and within the same
//! limits as `/v1/search`), then writes it back only if no other change got
//! there first.

use std::hash::{Hash, Hasher};

use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::bodies::{ClockBody, GameStatus, Moves, RecordBody, SearchResponse, Side};
use super::error::{ApiError, BoxError, Problem, Result};
use super::extract::{Json, OptionalJson, optional_object};
use super::plan::{Plan, run_plan};
use super::validate::{self, game_kind, in_range, search_budget};
use crate::cache::ponder;
use crate::games::{GameKind, Position, PositionSpec, level};
use crate::records::{self, Format, Record, RecordMove, Start};
use crate::search::GameClock;
use crate::sessions::{
    AiEval, AiPlays, AiSettings, Session, Store, StoreError, new_id, now_rfc3339,
};
use crate::vocabulary::{Player, SearchReport, Status};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_session))
        .routes(routes!(get_session, delete_session))
        .routes(routes!(play_move))
        .routes(routes!(make_ai_move))
        .routes(routes!(undo_move))
        .routes(routes!(export_record))
}

/// Which sides the AI plays in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum AiSide {
    X,
    O,
    #[serde(rename = "none")]
    None,
    #[serde(rename = "both")]
    Both,
}

impl From<AiSide> for AiPlays {
    fn from(s: AiSide) -> Self {
        match s {
            AiSide::X => AiPlays::X,
            AiSide::O => AiPlays::O,
            AiSide::None => AiPlays::Nobody,
            AiSide::Both => AiPlays::Both,
        }
    }
}

impl From<AiPlays> for AiSide {
    fn from(p: AiPlays) -> Self {
        match p {
            AiPlays::X => AiSide::X,
            AiPlays::O => AiSide::O,
            AiPlays::Nobody => AiSide::None,
            AiPlays::Both => AiSide::Both,
        }
    }
}

/// The AI's side and strength, as a client asks for them.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AiRequest {
    /// The sides the AI plays (default `O`: the client plays X, first).
    pub plays: Option<AiSide>,
    /// Deepest iteration per move, from 1 to the game's `max_depth`
    /// (default: the game's `default_depth`).
    #[schema(minimum = 1)]
    pub depth: Option<i64>,
    /// Time budget per move in milliseconds, from 1 to the server's cap
    /// (default: the game's `default_time_ms`).
    #[schema(minimum = 1)]
    pub time_ms: Option<i64>,
    /// Strength from 1 (a beginner can win) to 10 (full strength), as in
    /// `POST /v1/search`: sets the depth and time unless given, and a
    /// chance of a random move.
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<i64>,
    /// The AI's game clock: each of its moves thinks for a share of the
    /// time left (as `clock` in `POST /v1/search`, and within `time_ms`
    /// when that is given), then the time it took comes off and the
    /// increment goes on.
    #[serde(default, deserialize_with = "optional_object")]
    pub clock: Option<ClockBody>,
}

/// A new session: the game, its options, where it starts, and the AI.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateSessionRequest {
    /// The game's name, as `GET /v1/games` lists it.
    #[schema(example = "tictactoe")]
    pub game: String,
    /// A board to start from (default: the game's start position).
    pub board: Option<Vec<String>>,
    /// Moves from the start position to begin with; they are the start of
    /// the session's history and can be undone.
    pub moves: Option<Moves>,
    /// The side to move on `board`, where the stone counts leave it open.
    pub to_move: Option<Side>,
    /// Board size, for games with several (gomoku: 15, 19, 20).
    pub size: Option<u32>,
    /// Rule variant, for games with several (gomoku: freestyle, standard, renju).
    pub rules: Option<String>,
    /// A game record to continue from, in place of `board`, `moves` and
    /// `to_move`: its moves become the session's history.
    #[serde(default, deserialize_with = "optional_object")]
    pub record: Option<RecordBody>,
    #[serde(default, deserialize_with = "optional_object")]
    pub ai: Option<AiRequest>,
}

impl CreateSessionRequest {
    /// The start position as a spec: `board`, else `moves`, else the
    /// game's start (no moves yet).
    pub fn start_spec(&self) -> PositionSpec {
        let moves = match (&self.board, &self.moves) {
            (None, None) => Some(Vec::new()),
            (_, moves) => moves.clone().map(Moves::into_list),
        };
        PositionSpec {
            board: self.board.clone(),
            moves,
            to_move: self.to_move.map(Player::from),
            size: self.size,
            rules: self.rules.clone(),
        }
    }
}

/// Where a new session starts, from a record or from `board`/`moves`.
struct SessionStart {
    position: Position,
    start_board: Option<Vec<String>>,
    start_to_move: Option<Player>,
    moves: Vec<String>,
    size: Option<u32>,
    rules: Option<String>,
}

/// The client's move.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in notation (`b2`; Connect Four's column `4`).
    #[serde(rename = "move")]
    #[schema(example = "b2")]
    pub notation: String,
    /// Refuse with 409 unless the session is at this version.
    pub expected_version: Option<u64>,
    /// `false`: the AI does not reply in this answer, and the client asks
    /// for its move later with `POST .../ai-move` (after streaming the
    /// search itself, say). Default `true`.
    pub reply: Option<bool>,
}

/// The AI's move: searched by the server, or, with `move`, found by the
/// client's own search (a streamed one it showed live) and played as the
/// AI's. The body may be empty.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AiMoveRequest {
    /// Refuse with 409 unless the session is at this version.
    pub expected_version: Option<u64>,
    /// The move to play for the AI, in notation; it must be legal. Without
    /// it the server searches with the session's AI settings.
    #[serde(rename = "move")]
    #[schema(example = "c1")]
    pub notation: Option<String>,
    /// With `move`: the score its search gave (the mover's view), kept
    /// with the move for the session's record.
    pub score: Option<i64>,
    /// With `move` and `score`: the depth of that search, in plies.
    #[schema(minimum = 0)]
    pub depth: Option<i64>,
}

/// A change with nothing to say but, optionally, the version it expects.
/// The body may be empty.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeRequest {
    /// Refuse with 409 unless the session is at this version.
    pub expected_version: Option<u64>,
}

/// The AI's side and strength in a session.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AiBody {
    pub plays: AiSide,
    /// Deepest iteration per move, in plies.
    pub depth: u32,
    /// Time budget per move, in milliseconds.
    pub time_ms: u64,
    /// The strength level, if one was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The AI's clock as it stands, if it plays on one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}

/// A game clock as it stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct ClockView {
    /// Milliseconds left.
    pub time_left_ms: u64,
    /// Milliseconds added after each move.
    pub increment_ms: u64,
    /// Moves before the next time control, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_to_go: Option<u64>,
}

impl From<GameClock> for ClockView {
    fn from(c: GameClock) -> Self {
        Self {
            time_left_ms: c.time_left_ms,
            increment_ms: c.increment_ms,
            moves_to_go: c.moves_to_go,
        }
    }
}

impl From<AiSettings> for AiBody {
    fn from(ai: AiSettings) -> Self {
        Self {
            plays: ai.plays.into(),
            depth: ai.depth,
            time_ms: ai.time_ms,
            level: ai.level,
            clock: ai.clock.map(Into::into),
        }
    }
}

/// A game kept on the server.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SessionResponse {
    /// The session's id, 128 random bits as a UUID.
    pub id: String,
    pub game: String,
    /// Board size.
    pub size: u32,
    /// Rule variant, for games with several.
    pub rules: Option<String>,
    /// The position now, rows top first.
    pub board: Vec<String>,
    pub to_move: Side,
    pub status: GameStatus,
    pub winner: Option<Side>,
    /// The cells of the winning line, in notation (empty unless won).
    pub winning_line: Vec<String>,
    /// Legal moves for the side to move, in notation (empty once over).
    pub legal_moves: Vec<String>,
    /// Every move since the start, in notation.
    pub moves: Vec<String>,
    /// The board the game started from, when it was not the game's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_board: Option<Vec<String>>,
    pub ai: AiBody,
    /// Increases by one with each change; send it back as `expected_version`.
    pub version: u64,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
    /// The AI's search for the move it made in this request, if it moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_search: Option<SearchResponse>,
}

/// Rebuilds a stored session's position by replaying its moves.
fn rebuild(session: &Session) -> Result<(GameKind, Position)> {
    let corrupt =
        |e: BoxError| ApiError::internal(format!("session {} does not replay", session.id), e);
    let kind = game_kind(&session.game)?;
    let spec = PositionSpec {
        board: session.start_board.clone(),
        moves: session.start_board.is_none().then(|| session.moves.clone()),
        to_move: session.start_to_move,
        size: session.size,
        rules: session.rules.clone(),
    };
    let mut position = kind.parse(&spec).map_err(|e| corrupt(e.into()))?;
    if session.start_board.is_some() {
        for mv in &session.moves {
            position
                .play(mv)
                .map_err(|e| corrupt(format!("move {mv}: {e}").into()))?;
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
        time_ms: match &session.ai.clock {
            Some(clock) => validate::clock_budget(state, clock, Some(session.ai.time_ms)),
            None => session.ai.time_ms,
        },
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
        timed: true,
        cache: true,
        book: session.ai.level.is_none(),
    };
    let budget_ms = plan.time_ms;
    let report = run_plan(state, plan).await?.report;
    position
        .play(&report.best_move.notation)
        .map_err(|e| ApiError::internal("the AI's move does not play", e))?;
    // The player thinks now: idle workers search the likely replies. A
    // random-playing AI cannot use them (its choices skip the cache).
    if random_percent == 0 && is_ongoing(position) && !session.ai.plays.plays(position.to_move()) {
        state.ponder.start(
            &session.id,
            position.clone(),
            report.pv.get(1).cloned(),
            ponder::Controls {
                depth: session.ai.depth,
                time_ms: budget_ms,
                ponder_ms: state.config.max_time_ms,
            },
        );
    }
    if let Some(clock) = &mut session.ai.clock {
        *clock = clock.after_move(report.time_ms);
    }
    session.ai_evals.push(AiEval {
        ply: session.moves.len(),
        score: report.score,
        depth: report.depth,
    });
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
        status: report.status.into(),
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
    let start = match &request.record {
        Some(body) => {
            let others =
                request.board.is_some() || request.moves.is_some() || request.to_move.is_some();
            let record = validate::record(kind, body, request.size, request.rules.clone(), others)?;
            let position = record
                .replay()
                .map_err(|e| ApiError::invalid("record", format!("the record: {e}")))?;
            SessionStart {
                moves: record.notations(),
                start_to_move: record.start.as_ref().and_then(|s| s.to_move),
                start_board: record.start.map(|s| s.board),
                size: record.size,
                rules: record.rules,
                position,
            }
        }
        None => SessionStart {
            position: kind.parse(&request.start_spec())?,
            start_board: request.board.clone(),
            start_to_move: request
                .board
                .as_ref()
                .and(request.to_move.map(Player::from)),
            moves: match &request.board {
                Some(_) => Vec::new(),
                None => request.start_spec().moves.unwrap_or_default(),
            },
            size: request.size,
            rules: request.rules.clone(),
        },
    };
    let mut position = start.position;
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
    let clock = ai
        .clock
        .as_ref()
        .map(|c| validate::clock("ai.clock", c))
        .transpose()?;
    if clock.is_some() && ai.time_ms.is_none() {
        // The clock decides; `time_ms` only caps it when the client set it.
        time_ms = state.config.max_time_ms;
    }
    let AiRequest { plays, .. } = ai;
    let now = now_rfc3339();
    let mut session = Session {
        id: new_id(),
        game: kind.name().to_owned(),
        size: start.size,
        rules: start.rules,
        start_board: start.start_board,
        start_to_move: start.start_to_move,
        moves: start.moves,
        ai_evals: Vec::new(),
        ai: AiSettings {
            plays: plays.unwrap_or(AiSide::O).into(),
            depth,
            time_ms,
            level,
            clock,
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
    state.ponder.stop(&id);
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
    if request.reply != Some(false)
        && is_ongoing(&position)
        && session.ai.plays.plays(position.to_move())
    {
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
        (status = 503, description = "The session store is unreachable, or every worker is busy", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn make_ai_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<AiMoveRequest>,
) -> Result<Json<SessionResponse>> {
    let mut session = load(&state, &id, request.expected_version).await?;
    let previous = session.version;
    let (kind, mut position) = rebuild(&session)?;
    check_ongoing(&position)?;
    let report = match request.notation.as_deref().map(str::trim) {
        Some(notation) => {
            let eval = client_eval(&request)?;
            position
                .play(notation)
                .map_err(|e| ApiError::invalid("move", e.to_string()))?;
            if let Some((score, depth)) = eval {
                session.ai_evals.push(AiEval {
                    ply: session.moves.len(),
                    score,
                    depth,
                });
            }
            session.moves.push(notation.to_owned());
            None
        }
        None => Some(play_ai_move(&state, kind, &mut session, &mut position).await?),
    };
    save(&state, &mut session, previous).await?;
    Ok(Json(respond(kind, session, &position, report)))
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
    let played = session.moves.len();
    session.ai_evals.retain(|e| e.ply < played);
    save(&state, &mut session, previous).await?;
    Ok(Json(respond(kind, session, &position, None)))
}

/// Which format to export a session in.
#[derive(Clone, Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecordQuery {
    /// `sgf` (gomoku, othello), `ggf` (othello), `psq` (gomoku) or
    /// `moves` (any game); default: the game's own (GGF for othello, SGF
    /// for gomoku, moves otherwise).
    pub format: Option<String>,
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
    Path(id): Path<String>,
    Query(query): Query<RecordQuery>,
) -> Result<Response> {
    let session = load(&state, &id, None).await?;
    let kind = game_kind(&session.game)?;
    let format = match query.format.as_deref() {
        None => Format::natural(kind),
        Some(name) => Format::from_name(name).ok_or_else(|| {
            let known: Vec<_> = Format::ALL.iter().map(|f| f.name()).collect();
            ApiError::invalid(
                "format",
                format!("unknown format {name:?}; records are {}", known.join(", ")),
            )
        })?,
    };
    if !format.fits(kind) {
        let fitting: Vec<_> = Format::ALL
            .iter()
            .filter(|f| f.fits(kind))
            .map(|f| f.name())
            .collect();
        return Err(ApiError::invalid(
            "format",
            format!(
                "a {} game cannot be written as {}; use {}",
                kind.name(),
                format.name(),
                fitting.join(", ")
            ),
        ));
    }
    let text = records::write(format, &session_record(kind, &session))
        .map_err(|e| ApiError::invalid("format", e.to_string()))?;
    Ok(([(header::CONTENT_TYPE, format.content_type())], text).into_response())
}

/// A session as a record, the AI's evaluations as its moves' comments.
fn session_record(kind: GameKind, session: &Session) -> Record {
    let mut moves: Vec<RecordMove> = session.moves.iter().map(RecordMove::new).collect();
    for eval in &session.ai_evals {
        if let Some(mv) = moves.get_mut(eval.ply) {
            mv.comment = Some(format!(
                "gameai: score {} at depth {}",
                eval.score, eval.depth
            ));
        }
    }
    Record {
        game: kind,
        size: session.size,
        rules: session.rules.clone(),
        start: session.start_board.clone().map(|board| Start {
            board,
            to_move: session.start_to_move,
        }),
        moves,
    }
}
