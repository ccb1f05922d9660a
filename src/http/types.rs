//! Request and response bodies of the position and session routes, as
//! clients see them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::{self, MoveView, Player, PositionReport, PositionSpec, SearchReport, Status};
use crate::search::{Outcome, Stopped};
use crate::sessions::{AiPlays, AiSettings};

/// A side: `X` moves first (black in gomoku and othello).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum Side {
    X,
    O,
}

impl From<Player> for Side {
    fn from(p: Player) -> Self {
        match p {
            Player::X => Side::X,
            Player::O => Side::O,
        }
    }
}

impl From<Side> for Player {
    fn from(s: Side) -> Self {
        match s {
            Side::X => Player::X,
            Side::O => Player::O,
        }
    }
}

/// Moves from the start position: a list (`["a1", "b2"]`), or one string
/// split on spaces and commas (`"a1 b2"`; Connect Four's compact `"4453"`).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Moves {
    List(Vec<String>),
    Text(String),
}

impl Moves {
    pub fn into_list(self) -> Vec<String> {
        match self {
            Moves::List(list) => list,
            Moves::Text(text) => text
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
        }
    }
}

/// A position: the game, and either `board` or `moves`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game's name, as `GET /v1/games` lists it.
    #[schema(example = "tictactoe")]
    pub game: String,
    /// Rows, top row first: `.` empty, `X`, `O`.
    #[schema(example = json!(["X.O", "...", "..."]))]
    pub board: Option<Vec<String>>,
    pub moves: Option<Moves>,
    /// The side to move; derived from the stone counts where they decide it,
    /// and then checked.
    pub to_move: Option<Side>,
    /// Board size, for games with several (gomoku: 15, 19, 20).
    pub size: Option<u32>,
    /// Rule variant, for games with several (gomoku: freestyle, standard, renju).
    pub rules: Option<String>,
}

impl PositionRequest {
    pub fn into_spec(self) -> PositionSpec {
        PositionSpec {
            board: self.board,
            moves: self.moves.map(Moves::into_list),
            to_move: self.to_move.map(Player::from),
            size: self.size,
            rules: self.rules,
        }
    }
}

/// A position to search, and how hard to search it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchRequest {
    /// The game's name, as `GET /v1/games` lists it.
    #[schema(example = "tictactoe")]
    pub game: String,
    /// Rows, top row first: `.` empty, `X`, `O`.
    #[schema(example = json!(["X.O", "...", "..."]))]
    pub board: Option<Vec<String>>,
    pub moves: Option<Moves>,
    /// The side to move; derived from the stone counts where they decide it,
    /// and then checked.
    pub to_move: Option<Side>,
    /// Board size, for games with several (gomoku: 15, 19, 20).
    pub size: Option<u32>,
    /// Rule variant, for games with several (gomoku: freestyle, standard, renju).
    pub rules: Option<String>,
    /// Deepest iteration in plies, from 1 to the game's `max_depth`
    /// (default: the game's `default_depth`).
    #[schema(minimum = 1, example = 9)]
    pub depth: Option<i64>,
    /// Time budget in milliseconds, from 1 to the server's cap
    /// (default: the game's `default_time_ms`).
    #[schema(minimum = 1)]
    pub time_ms: Option<i64>,
    /// Node budget: the search stops soon after entering this many
    /// positions (up to `GET /v1/limits`' `max_nodes`). The first limit
    /// reached ends the search; `stopped` says which.
    #[schema(minimum = 1)]
    pub nodes: Option<i64>,
    /// Score the best `multi_pv` moves, each with its own line, in
    /// `lines`, best first (1, the default, gives no `lines`). The number
    /// of legal moves scores every move.
    #[schema(minimum = 1, example = 3)]
    pub multi_pv: Option<i64>,
    /// Strength from 1 (a beginner can win) to 10 (full strength): sets
    /// the depth and time (unless given) and a chance of a random move.
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<i64>,
    pub randomize: Option<Randomize>,
    /// Seed for `randomize` and `level`: the same seed gives the same
    /// move. Echoed in the answer; one is drawn (below 2^53, exact in
    /// JavaScript) when none is given.
    #[schema(minimum = 0)]
    pub seed: Option<i64>,
}

/// Pick at random among the moves whose score is within a margin of the
/// best: `true` for the game's default margin (`GET /v1/limits`), or the
/// margin itself in score units. A proven win is only traded for another.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Randomize {
    Flag(bool),
    Margin(i64),
}

impl SearchRequest {
    /// Splits off the position part.
    pub fn position(&self) -> PositionRequest {
        PositionRequest {
            game: self.game.clone(),
            board: self.board.clone(),
            moves: self.moves.clone(),
            to_move: self.to_move,
            size: self.size,
            rules: self.rules.clone(),
        }
    }
}

/// A move. Othello's pass has no cell: `{"pass": true, "notation": "pass"}`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct MoveBody {
    /// 0-based from the top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// 0-based from the left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// `b3`, Connect Four's column `4`, or `pass`.
    pub notation: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schema(default = false)]
    pub pass: bool,
}

impl From<MoveView> for MoveBody {
    fn from(m: MoveView) -> Self {
        Self {
            row: m.cell.map(|c| c.0),
            col: m.cell.map(|c| c.1),
            pass: m.cell.is_none(),
            notation: m.notation,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ResultKind {
    Win,
    Draw,
    Loss,
}

/// A result proven under perfect play, from the side to move's view.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Proven {
    pub result: ResultKind,
    /// Plies to the end of the game, the winner hurrying and the loser delaying.
    pub plies: u32,
    /// Othello: the final disc difference for the side to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disc_diff: Option<i32>,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// It completed the requested depth.
    Depth,
    /// The time budget ran out; the last completed depth answered.
    Time,
    /// The node budget ran out; the last completed depth answered.
    Nodes,
    /// The search was stopped (the service is shutting down).
    Cancelled,
    /// The result is exact; searching deeper cannot change it.
    Proven,
}

/// The search's answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SearchResponse {
    pub best_move: MoveBody,
    /// The side to move's view. A proven win in `p` plies scores
    /// `100000 - p`, a loss the negation; heuristic scores stay within ±50000.
    pub score: i32,
    pub proven: Option<Proven>,
    /// The last completed iteration, in plies.
    pub depth: u32,
    /// Every position the search entered, root and leaves included.
    pub nodes: u64,
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// The expected line, best move first, in notation.
    pub pv: Vec<String>,
    pub stopped: StopReason,
    pub to_move: Side,
    /// With `multi_pv` above 1: the best moves, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineBody>>,
    /// The seed the move was picked with (`randomize` or `level`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// One root move, searched on its own.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LineBody {
    #[serde(rename = "move")]
    pub mv: MoveBody,
    /// The side to move's view, as `score`.
    pub score: i32,
    pub proven: Option<Proven>,
    /// Plies searched, this move included.
    pub depth: u32,
    pub nodes: u64,
    /// This move, then the expected replies.
    pub pv: Vec<String>,
}

impl From<games::lines::Line> for LineBody {
    fn from(l: games::lines::Line) -> Self {
        Self {
            mv: l.mv.into(),
            score: l.score,
            proven: l.proven.map(Proven::from),
            depth: l.depth,
            nodes: l.nodes,
            pv: l.pv,
        }
    }
}

impl From<games::ProvenView> for Proven {
    fn from(p: games::ProvenView) -> Self {
        Self {
            result: p.result.into(),
            plies: p.plies,
            disc_diff: p.disc_diff,
        }
    }
}

impl From<Outcome> for ResultKind {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Win => ResultKind::Win,
            Outcome::Draw => ResultKind::Draw,
            Outcome::Loss => ResultKind::Loss,
        }
    }
}

impl From<Stopped> for StopReason {
    fn from(s: Stopped) -> Self {
        match s {
            Stopped::Depth => StopReason::Depth,
            Stopped::Time => StopReason::Time,
            Stopped::Nodes => StopReason::Nodes,
            Stopped::Cancelled => StopReason::Cancelled,
            Stopped::Proven => StopReason::Proven,
        }
    }
}

impl From<SearchReport> for SearchResponse {
    fn from(r: SearchReport) -> Self {
        let nps = r.nodes.saturating_mul(1000) / r.time_ms.max(1);
        Self {
            best_move: r.best_move.into(),
            score: r.score,
            proven: r.proven.map(Proven::from),
            depth: r.depth,
            nodes: r.nodes,
            time_ms: r.time_ms,
            nps,
            pv: r.pv,
            stopped: r.stopped.into(),
            to_move: r.to_move.into(),
            lines: None,
            seed: None,
        }
    }
}

#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    Ongoing,
    Win,
    Draw,
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
            status: match r.status {
                Status::Ongoing => GameStatus::Ongoing,
                Status::Win => GameStatus::Win,
                Status::Draw => GameStatus::Draw,
            },
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

impl From<&games::GameInfo> for GameBody {
    fn from(g: &games::GameInfo) -> Self {
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

/// Liveness or readiness.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HealthResponse {
    /// `ok`, or `not ready`.
    pub status: String,
    /// Why the service is not ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
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
    #[serde(default, deserialize_with = "super::optional_object")]
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
}

impl From<AiSettings> for AiBody {
    fn from(ai: AiSettings) -> Self {
        Self {
            plays: ai.plays.into(),
            depth: ai.depth,
            time_ms: ai.time_ms,
            level: ai.level,
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
    /// Searches that may wait for a worker; beyond it the server answers 503.
    pub queue: usize,
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
