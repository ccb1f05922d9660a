//! The games the service plays, behind one trait and one registry.
//!
//! Each game is one module that implements [`Game`]: what it is
//! ([`GameInfo`]), how a client's position is read and described, how a
//! move is played, and how the position is searched. Its special machinery
//! (a solver, a threat search) stays inside its module. The registry at the
//! bottom of this file is the only place that lists the games: adding a
//! fifth is one module and one line there.

pub mod connect4;
pub mod gomoku;
pub mod info;
pub mod level;
pub mod lines;
pub mod notation;
pub mod othello;
pub mod rows;
pub mod spec;
pub mod tictactoe;

use std::sync::LazyLock;

use crate::search::{DEFAULT_PART, Limits, TableKind, TranspositionTable, Workspace};
pub use crate::vocabulary::{
    MoveView, Outcome, Player, ProvenView, SearchReport, Source, Status, Stopped,
};
pub use info::{Features, GameInfo, PositionReport};
pub use spec::{MoveError, Part, PositionError, PositionSpec};

/// A game as the service sees it. Implemented by each game's position type.
pub trait Game: std::fmt::Debug + Send + Sync {
    /// What the game is: options, depths, levels, score scale, features.
    fn info() -> GameInfo
    where
        Self: Sized;

    /// Reads and validates a client's position. A finished game is valid
    /// here; searching one is refused by [`Position::check_ongoing`].
    fn parse(spec: &PositionSpec) -> Result<Self, PositionError>
    where
        Self: Sized;

    /// A client's move list as single moves. Games whose moves are one
    /// character each read one string of them as a list (Connect Four's
    /// `"4453"`).
    fn move_list(moves: Vec<String>) -> Vec<String>
    where
        Self: Sized,
    {
        moves
    }

    /// Side to move, status, winner, legal moves, the board's rows.
    fn describe(&self) -> PositionReport;

    /// The side to move, without describing the whole position.
    fn to_move(&self) -> Player;

    /// Whether the game goes on, and who has won: what [`Game::describe`]
    /// says, which a game may tell without listing moves or drawing rows
    /// (every search request asks it).
    fn outcome(&self) -> (Status, Option<Player>) {
        let report = self.describe();
        (report.status, report.winner)
    }

    /// Plays a move written in notation, refusing an illegal one with the
    /// reason.
    fn play_notation(&mut self, notation: &str) -> Result<(), MoveError>;

    /// The moves worth scoring when only the best few are wanted;
    /// `report` is this position's description. Every legal move unless
    /// the game knows better.
    fn candidate_moves(&self, report: PositionReport) -> Vec<String> {
        report.legal_moves
    }

    /// Searches the position on the calling thread.
    fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport;

    /// The kinds of table the game's searches keep on a worker: each
    /// kind any game declares gets an equal part of the worker's table
    /// budget, and a search may use no other. The generic core's table
    /// unless the game says otherwise.
    fn tables() -> Vec<TableKind>
    where
        Self: Sized,
    {
        vec![TableKind::of::<TranspositionTable>()]
    }

    /// Builds what the engine would otherwise build in its first search,
    /// inside that search's time budget: the tables all workers share
    /// (expanded weights, patterns, the book) and the worker's own tables in
    /// `ws`. Allocating a worker's tables takes about a millisecond per MiB.
    fn prepare(ws: &mut Workspace)
    where
        Self: Sized,
    {
        let _ = ws;
    }

    /// The opening book's answer for a search `depth` plies deep, when the
    /// game has a book and it holds the position: cheap enough to give
    /// without a worker.
    fn book_answer(&self, depth: u32) -> Option<SearchReport> {
        let _ = depth;
        None
    }

    /// What tells this position apart from every other position of its
    /// game, for the analysis cache: the side to move, the board and any
    /// rule variant that changes the answer.
    fn cache_key(&self) -> String {
        let report = self.describe();
        format!("{}:{}", report.to_move.symbol(), report.board.join("/"))
    }

    /// For a game whose answers mirror with its board: the cache key of
    /// this position's mirror image, so a position and its mirror share
    /// one cache entry. `None` (the default) keeps every position apart.
    fn mirror_key(&self) -> Option<String> {
        None
    }

    /// A move seen in the mirror of [`Game::mirror_key`]: its notation and
    /// its cell.
    fn mirror_move(
        &self,
        notation: &str,
        cell: Option<(usize, usize)>,
    ) -> (String, Option<(usize, usize)>) {
        (notation.to_owned(), cell)
    }
}

/// Lists the games: each line names the [`GameKind`] and [`Position`]
/// variant and the type that implements [`Game`].
macro_rules! registry {
    ($($kind:ident => $ty:ty),+ $(,)?) => {
        /// The games, by their API name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($kind),+
        }

        /// A validated position of any game.
        #[derive(Clone, Debug)]
        pub enum Position {
            $($kind($ty)),+
        }

        impl GameKind {
            /// Every game, in the order `/v1/games` lists them.
            pub const ALL: &[GameKind] = &[$(GameKind::$kind),+];

            /// What the game says about itself.
            pub fn info(self) -> &'static GameInfo {
                static INFO: LazyLock<Vec<GameInfo>> =
                    LazyLock::new(|| vec![$(<$ty as Game>::info()),+]);
                &INFO[self as usize]
            }

            /// Reads and validates a client's position of this game.
            pub fn parse(self, spec: &PositionSpec) -> Result<Position, PositionError> {
                match self {
                    $(GameKind::$kind => <$ty as Game>::parse(spec).map(Position::$kind)),+
                }
            }

            /// The kinds of table the games keep on a worker, each once, in
            /// the registry's order (see [`Game::tables`]).
            pub fn table_kinds() -> &'static [TableKind] {
                static KINDS: LazyLock<Vec<TableKind>> = LazyLock::new(|| {
                    let mut kinds = Vec::new();
                    for kind in [$(<$ty as Game>::tables()),+].into_iter().flatten() {
                        if !kinds.contains(&kind) {
                            kinds.push(kind);
                        }
                    }
                    kinds
                });
                &KINDS
            }

            /// Builds every game's tables for a worker (see [`Game::prepare`]).
            pub fn prepare_all(ws: &mut Workspace) {
                $(<$ty as Game>::prepare(ws);)+
            }

            /// A client's move list as single moves (see [`Game::move_list`]).
            pub fn move_list(self, moves: Vec<String>) -> Vec<String> {
                match self {
                    $(GameKind::$kind => <$ty as Game>::move_list(moves)),+
                }
            }
        }

        impl Position {
            pub fn kind(&self) -> GameKind {
                match self {
                    $(Position::$kind(_) => GameKind::$kind),+
                }
            }

            /// The position as its game sees it.
            pub fn game(&self) -> &dyn Game {
                match self {
                    $(Position::$kind(p) => p),+
                }
            }

            fn game_mut(&mut self) -> &mut dyn Game {
                match self {
                    $(Position::$kind(p) => p),+
                }
            }
        }
    };
}

registry! {
    TicTacToe => tictactoe::TicTacToe,
    Connect4 => connect4::board::Board,
    Gomoku => gomoku::Gomoku,
    Othello => othello::Othello,
}

impl GameKind {
    /// A worker's memory of `budget` bytes, split in equal parts among
    /// the tables the games declare.
    pub fn workspace(budget: usize) -> Workspace {
        Workspace::new(budget, Self::table_kinds())
    }

    /// Its place in [`GameKind::ALL`] (the enum lists its games in that
    /// order), for tables with one entry per game.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The game's API name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|g| g.name() == name)
    }
}

/// Stored and sent by its API name.
impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Self::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown game {name:?}")))
    }
}

impl Default for Workspace {
    /// A workspace whose every table has the size the engines were tuned
    /// with ([`DEFAULT_PART`]), as the service's default budget gives it.
    fn default() -> Self {
        GameKind::workspace(DEFAULT_PART * GameKind::table_kinds().len())
    }
}

impl Position {
    pub fn describe(&self) -> PositionReport {
        self.game().describe()
    }

    /// The side to move, without describing the whole position.
    pub fn to_move(&self) -> Player {
        self.game().to_move()
    }

    /// Refuses positions where the game is already over.
    pub fn check_ongoing(&self) -> Result<(), PositionError> {
        match self.game_over() {
            None => Ok(()),
            Some(over) => Err(PositionError::new(
                Part::Board,
                format!("{over}, there is nothing to search"),
            )),
        }
    }

    /// How the game ended (`the game is over: X has won`), or `None` while
    /// it goes on.
    pub fn game_over(&self) -> Option<String> {
        let (status, winner) = self.game().outcome();
        match status {
            Status::Ongoing => None,
            Status::Win => Some(format!(
                "the game is over: {} has won",
                winner.map_or('?', Player::symbol)
            )),
            Status::Draw => Some("the game is over (a draw)".to_owned()),
        }
    }

    /// Plays a move written in notation, refusing illegal ones with the reason.
    pub fn play(&mut self, notation: &str) -> Result<(), MoveError> {
        self.game_mut().play_notation(notation)
    }

    /// See [`Game::candidate_moves`].
    pub fn candidate_moves(&self, report: PositionReport) -> Vec<String> {
        self.game().candidate_moves(report)
    }

    /// Runs the search on the calling thread.
    pub fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        self.game().search(limits, ws)
    }

    /// See [`Game::book_answer`].
    pub fn book_answer(&self, depth: u32) -> Option<SearchReport> {
        self.game().book_answer(depth)
    }

    /// See [`Game::cache_key`]; the game's name leads.
    pub fn cache_key(&self) -> String {
        format!("{}:{}", self.kind().name(), self.game().cache_key())
    }

    /// The key this position shares with its mirror image (the smaller of
    /// the two), and the position's own key when it is the mirrored one of
    /// the pair (`None` when the shared key is its own, as for games
    /// without a mirror).
    pub fn canonical_cache_key(&self) -> (String, Option<String>) {
        let own = self.cache_key();
        match self.game().mirror_key() {
            Some(mirror) => {
                let mirror = format!("{}:{mirror}", self.kind().name());
                if mirror < own {
                    (mirror, Some(own))
                } else {
                    (own, None)
                }
            }
            None => (own, None),
        }
    }

    /// See [`Game::mirror_move`].
    pub fn mirror_move(
        &self,
        notation: &str,
        cell: Option<(usize, usize)>,
    ) -> (String, Option<(usize, usize)>) {
        self.game().mirror_move(notation, cell)
    }
}
