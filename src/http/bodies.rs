//! The body parts several routes share, as clients see them: sides and
//! moves, a position as a request names it, a search request and its
//! answer, proven results and game statuses. A body only one route module
//! uses lives with that module.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::extract::optional_object;
use crate::games::{PositionSpec, lines::Line};
use crate::records::Format;
use crate::vocabulary::{
    MoveView, Outcome, Player, ProvenView, SearchReport, Source, Status, Stopped,
};

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
#[derive(Clone, Debug, ToSchema)]
#[serde(untagged)]
pub enum Moves {
    List(Vec<String>),
    Text(String),
}

// Read by hand rather than derived as an untagged enum, which buffers the
// value and builds an error for each shape it tries first: every search
// request carries moves. (The `serde(untagged)` above is for the schema.)
impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Shape;
        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = Moves;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of moves or one string of moves")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Moves, E> {
                Ok(Moves::Text(text.to_owned()))
            }

            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Moves, E> {
                Ok(Moves::Text(text))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Moves, A::Error> {
                let mut list = Vec::new();
                while let Some(notation) = seq.next_element()? {
                    list.push(notation);
                }
                Ok(Moves::List(list))
            }
        }
        deserializer.deserialize_any(Shape)
    }
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

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// SGF FF[4]: gomoku (`GM[4]`) and othello (`GM[2]`), points as
    /// `hh` (column, row from the top-left).
    Sgf,
    /// GGF as GGS and NBoard write it: othello.
    Ggf,
    /// Piskvork's `.psq`: gomoku.
    Psq,
    /// The moves alone, as `moves` takes them (`"4453"`, `"f5d6c3"`,
    /// `"h8 i9"`).
    Moves,
}

impl From<RecordFormat> for Format {
    fn from(f: RecordFormat) -> Self {
        match f {
            RecordFormat::Sgf => Format::Sgf,
            RecordFormat::Ggf => Format::Ggf,
            RecordFormat::Psq => Format::Psq,
            RecordFormat::Moves => Format::Moves,
        }
    }
}

/// A game record, in place of `board` and `moves`: the position after its
/// last move. Its game must be the request's `game`; `size` and `rules`,
/// if given, are checked against it or fill in what the format leaves out
/// (the rules of a psq or SGF record).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordBody {
    pub format: RecordFormat,
    /// The record itself.
    #[schema(example = "(;FF[4]GM[4]SZ[15];B[hh];W[ii])")]
    pub text: String,
}

/// A position: the game, and one of `board`, `moves` or `record`.
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
    #[serde(default, deserialize_with = "optional_object")]
    pub record: Option<RecordBody>,
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
    #[serde(default, deserialize_with = "optional_object")]
    pub record: Option<RecordBody>,
    /// Deepest iteration in plies, from 1 to the game's `max_depth`
    /// (default: the game's `default_depth`).
    #[schema(minimum = 1, example = 9)]
    pub depth: Option<i64>,
    /// Time budget in milliseconds, from 1 to the server's cap
    /// (default: the game's `default_time_ms`).
    #[schema(minimum = 1)]
    pub time_ms: Option<i64>,
    /// The mover's clock: the search thinks for a share of it (see
    /// `Clock`); with `time_ms` too, the smaller budget counts.
    #[serde(default, deserialize_with = "optional_object")]
    pub clock: Option<ClockBody>,
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
    /// Whether an earlier search of the same position may answer (default
    /// `true`): a proven result answers any request; a request without a
    /// time limit only the result of the same depth and node budget; a
    /// time-limited one a result at least as deep as its budget reaches.
    /// Requests with `randomize`, a random `level` or `multi_pv` above 1
    /// are always searched. `false` searches anew.
    pub cache: Option<bool>,
    /// Threads to search with, from 1 (the default) to the server's
    /// `max_threads` (`GET /v1/limits`). The search holds that many workers
    /// while it runs, and waits in the queue until they are free. With more
    /// than one the answer may differ from run to run (threads share one
    /// table, and who finds what first varies); with one it is the same
    /// every time for the same request and budget.
    #[schema(minimum = 1)]
    pub threads: Option<i64>,
}

/// A game clock, as bots and tournaments keep it. The move's budget is a
/// share of the time left (`time_left_ms / moves_to_go`, 20 moves when
/// not given) plus three quarters of the increment, never more than the
/// time left less 50 ms, never below 1 ms (a move is always answered),
/// and within the server's cap.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_left_ms": 60000, "increment_ms": 2000}))]
pub struct ClockBody {
    /// Milliseconds left on the mover's clock (0 is allowed: the answer
    /// comes at once).
    #[schema(minimum = 0)]
    pub time_left_ms: i64,
    /// Milliseconds added after each move (default 0).
    #[schema(minimum = 0)]
    pub increment_ms: Option<i64>,
    /// Moves to play before the next time control, if there is one.
    #[schema(minimum = 1)]
    pub moves_to_go: Option<i64>,
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
            record: self.record.clone(),
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

/// Where an answer came from: `search`, a search (or exact solve) made
/// for this request; `book`, the game's opening book, with no search
/// (`nodes` 0): Connect Four's opening positions, exact, and othello's
/// first ten plies, from our own deep searches (not for a strength level,
/// a random choice or a shallower `depth` than the book's); `cache`, an
/// earlier search of the same position (see `cache` in the request).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnswerSource {
    /// A search (or exact solve) made for this request.
    Search,
    /// The game's opening book (Connect Four): exact, no search, `nodes` 0.
    Book,
    /// The analysis cache: an earlier search of the same position, with
    /// its `depth` and `nodes`; `time_ms` is this answer's own time.
    Cache,
}

impl From<Source> for AnswerSource {
    fn from(s: Source) -> Self {
        match s {
            Source::Search => AnswerSource::Search,
            Source::Book => AnswerSource::Book,
            Source::Cache => AnswerSource::Cache,
        }
    }
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
    pub source: AnswerSource,
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
    pub source: AnswerSource,
}

impl From<Line> for LineBody {
    fn from(l: Line) -> Self {
        Self {
            mv: l.mv.into(),
            score: l.score,
            proven: l.proven.map(Proven::from),
            depth: l.depth,
            nodes: l.nodes,
            pv: l.pv,
            source: l.source.into(),
        }
    }
}

impl From<ProvenView> for Proven {
    fn from(p: ProvenView) -> Self {
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
        // A cached answer's nodes were searched earlier, not in its time.
        let nps = match r.source {
            Source::Cache => 0,
            _ => r.nodes.saturating_mul(1000) / r.time_ms.max(1),
        };
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
            source: r.source.into(),
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

impl From<Status> for GameStatus {
    fn from(s: Status) -> Self {
        match s {
            Status::Ongoing => GameStatus::Ongoing,
            Status::Win => GameStatus::Win,
            Status::Draw => GameStatus::Draw,
        }
    }
}
