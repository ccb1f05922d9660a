//! The session routes' bodies: what a client sends to create and change a
//! session, and the session as it is answered.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::PositionSpec;
use crate::http::bodies::{ClockBody, GameStatus, Moves, RecordBody, SearchResponse, Side};
use crate::http::extract::optional_object;
use crate::search::GameClock;
use crate::sessions::{AiPlays, AiSettings, Turn};
use crate::vocabulary::Player;

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
    /// Threads each of the AI's searches uses, as `threads` in
    /// `POST /v1/search` (default 1).
    #[schema(minimum = 1)]
    pub threads: Option<i64>,
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
    /// Threads each of its searches uses.
    pub threads: usize,
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
        let s = ai.strength;
        Self {
            plays: ai.plays.into(),
            depth: s.depth,
            time_ms: s.time_ms,
            level: s.level,
            clock: s.clock.map(Into::into),
            threads: s.threads,
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

/// Which format to export a session in.
#[derive(Clone, Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecordQuery {
    /// `sgf` (gomoku, othello), `ggf` (othello), `psq` (gomoku) or
    /// `moves` (any game); default: the game's own (GGF for othello, SGF
    /// for gomoku, moves otherwise).
    pub format: Option<String>,
}

impl From<Turn> for SessionResponse {
    fn from(turn: Turn) -> Self {
        let Turn {
            session,
            position,
            ai_search,
        } = turn;
        let report = position.describe();
        let info = session.game.info();
        Self {
            id: session.id.to_string(),
            game: session.game.name().to_owned(),
            size: session.size.unwrap_or(info.default_size),
            rules: session
                .rules
                .or_else(|| info.default_rules.map(str::to_owned)),
            board: report.board,
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
}
