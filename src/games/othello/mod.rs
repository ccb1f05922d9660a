//! Othello (reversi): 8×8, black (`X`) first, a move flips every line of
//! opponent discs it brackets, a side with no move passes, and the game ends
//! when neither side can move. The result is the disc difference, with the
//! empty squares given to the winner (the world rules, and the convention of
//! the FFO reference files).
//!
//! The engine is bitboards seen from the side to move ([`bitboard`]), a
//! hand-built evaluation ([`eval`]), its own alpha-beta for the midgame
//! ([`midgame`]) and an exact endgame solver ([`solver`]), whose moves a
//! trained pattern evaluation ([`patterns`]) helps order; [`search`] joins
//! them into one answer.

pub mod bitboard;
pub mod book;
pub mod eval;
pub mod midgame;
pub mod patterns;
pub mod perft;
pub mod search;
pub mod solver;
pub mod zobrist;

use super::notation::{cell_name, parse_cell};
use super::rows::Rows;
use super::{
    Features, Game, GameInfo, MoveError, MoveView, Part, Player, PositionError, PositionReport,
    PositionSpec, SearchReport, Status,
};
use crate::search::{Limits, TableKind, Workspace};
use bitboard::Squares;

/// A move as a square index (`row * 8 + col`), or [`PASS`].
pub type Move = u8;
/// The pass move, played only when the side to move has no other move.
pub const PASS: Move = 64;

/// The four centre squares: occupied from the start, so always occupied.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// An Othello position: black's and white's discs and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    black: u64,
    white: u64,
    to_move: Player,
}

impl Default for Othello {
    /// The standard start: d4 and e5 white, e4 and d5 black, black to move.
    fn default() -> Self {
        Self {
            black: 1 << 28 | 1 << 35,
            white: 1 << 27 | 1 << 36,
            to_move: Player::X,
        }
    }
}

impl Othello {
    /// A position from black's and white's discs; `None` if they overlap.
    pub fn new(black: u64, white: u64, to_move: Player) -> Option<Self> {
        (black & white == 0).then_some(Self {
            black,
            white,
            to_move,
        })
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The side to move's discs and the opponent's.
    pub fn player_opponent(&self) -> (u64, u64) {
        match self.to_move {
            Player::X => (self.black, self.white),
            Player::O => (self.white, self.black),
        }
    }

    fn set_player_opponent(&mut self, p: u64, o: u64) {
        match self.to_move {
            Player::X => (self.black, self.white) = (p, o),
            Player::O => (self.white, self.black) = (p, o),
        }
    }

    pub fn discs(&self, player: Player) -> u32 {
        match player {
            Player::X => self.black.count_ones(),
            Player::O => self.white.count_ones(),
        }
    }

    pub fn empties(&self) -> u32 {
        64 - (self.black | self.white).count_ones()
    }

    /// The squares the side to move may play.
    pub fn legal_moves(&self) -> u64 {
        let (p, o) = self.player_opponent();
        bitboard::moves(p, o)
    }

    /// True when the side to move has no move but the opponent does.
    pub fn must_pass(&self) -> bool {
        let (p, o) = self.player_opponent();
        bitboard::moves(p, o) == 0 && bitboard::moves(o, p) != 0
    }

    /// True when neither side can move.
    pub fn is_over(&self) -> bool {
        let (p, o) = self.player_opponent();
        bitboard::moves(p, o) == 0 && bitboard::moves(o, p) == 0
    }

    /// Plays a move the caller knows is legal (a square from
    /// [`Othello::legal_moves`], or [`PASS`] when [`Othello::must_pass`]).
    pub fn play(&mut self, mv: Move) {
        if mv != PASS {
            let (p, o) = self.player_opponent();
            let f = bitboard::flips(p, o, mv as usize);
            self.set_player_opponent(p | f | 1 << mv, o & !f);
        }
        self.to_move = self.to_move.other();
    }

    /// The final disc difference for the side to move, empties to the
    /// winner. Meaningful once the game is over.
    pub fn final_score(&self) -> i32 {
        let (p, o) = self.player_opponent();
        solver::final_score(p, o)
    }

    /// Rows top first, as the API writes them.
    pub fn rows(&self) -> Vec<String> {
        (0..8)
            .map(|r| {
                (0..8)
                    .map(|c| {
                        let bit = 1u64 << (r * 8 + c);
                        if self.black & bit != 0 {
                            'X'
                        } else if self.white & bit != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Reads a move in notation (`d3`, `pass`) and plays it if legal.
    pub fn play_notation(&mut self, text: &str) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver("the game is already over".to_owned()));
        }
        if text.eq_ignore_ascii_case("pass") {
            if !self.must_pass() {
                return Err(MoveError::Illegal(format!(
                    "{} has a legal move, so passing is not allowed",
                    self.to_move.symbol()
                )));
            }
            self.play(PASS);
            return Ok(());
        }
        let (row, col) = parse_cell(text, 8, 8).ok_or_else(|| {
            MoveError::Unreadable(format!("{text:?} is not a square (a1..h8) or \"pass\""))
        })?;
        let sq = row * 8 + col;
        if self.legal_moves() >> sq & 1 == 0 {
            return Err(MoveError::Illegal(if self.must_pass() {
                format!("{text} is not legal: {} must pass", self.to_move.symbol())
            } else {
                format!(
                    "{text} is not legal for {}: it must bracket at least one opponent disc",
                    self.to_move.symbol()
                )
            }));
        }
        self.play(sq as Move);
        Ok(())
    }

    /// Reads rows of `.`/`X`/`O` (lower case accepted), top first.
    fn from_rows(rows: &[String], to_move: Player) -> Result<Self, PositionError> {
        let err = |d: String| PositionError::new(Part::Board, d);
        let (mut black, mut white) = (0u64, 0u64);
        for (r, c, player) in Rows::read(rows, 8, 8, "othello")?.stones() {
            let bit = 1u64 << (r * 8 + c);
            match player {
                Player::X => black |= bit,
                Player::O => white |= bit,
            }
        }
        if (black | white) & CENTRE != CENTRE {
            return Err(err(
                "the four centre squares (d4, e4, d5, e5) start occupied and can never be empty"
                    .to_owned(),
            ));
        }
        Ok(Self {
            black,
            white,
            to_move,
        })
    }
}

/// Writes a move in notation.
pub fn notation(mv: Move) -> String {
    if mv == PASS {
        "pass".to_owned()
    } else {
        cell_name(mv as usize / 8, mv as usize % 8)
    }
}

/// A move as the API shows it.
pub fn move_view(mv: Move) -> MoveView {
    if mv == PASS {
        MoveView::pass()
    } else {
        MoveView {
            cell: Some((mv as usize / 8, mv as usize % 8)),
            notation: notation(mv),
        }
    }
}

impl Game for Othello {
    fn info() -> GameInfo {
        GameInfo {
            name: "othello",
            title: "Othello",
            sizes: vec![8],
            default_size: 8,
            rules: vec![],
            default_rules: None,
            default_depth: search::DEFAULT_DEPTH,
            max_depth: search::MAX_DEPTH,
            default_time_ms: search::DEFAULT_TIME_MS,
            notation: "square: column letter a-h, then row 1-8 from the top (a1 top-left); or \"pass\"",
            start: Othello::default().rows(),
            level_depths: [1, 2, 3, 4, 5, 6, 7, 8, 10],
            default_margin: 60,
            mistake_threshold: 400,
            features: Features {
                passes: true,
                flips: true,
                ..Features::default()
            },
        }
    }

    fn parse(spec: &PositionSpec) -> Result<Self, PositionError> {
        if let Some(size) = spec.size.filter(|&s| s != 8) {
            return Err(PositionError::new(
                Part::Size,
                format!("othello is 8×8, not {size}"),
            ));
        }
        if let Some(rules) = &spec.rules {
            return Err(PositionError::new(
                Part::Rules,
                format!("othello has no rule variants (got {rules:?})"),
            ));
        }
        match (&spec.board, &spec.moves) {
            (Some(rows), None) => {
                let to_move = spec.to_move.ok_or_else(|| {
                    PositionError::new(Part::ToMove,
                        "an othello board needs `to_move` (\"X\" or \"O\"): passes make disc counts useless for telling whose turn it is",
                    )
                })?;
                Othello::from_rows(rows, to_move)
            }
            (None, Some(moves)) => {
                let mut pos = Othello::default();
                super::spec::play_moves(&mut pos, moves, Othello::play_notation)?;
                super::spec::check_to_move_after_moves(spec.to_move, pos.to_move)?;
                Ok(pos)
            }
            _ => Err(super::spec::board_xor_moves()),
        }
    }

    /// Both sides' discs and the side to move, without drawing the rows.
    fn cache_key(&self) -> String {
        format!(
            "{}:{:x}:{:x}",
            self.to_move.symbol(),
            self.black,
            self.white
        )
    }

    fn outcome(&self) -> (Status, Option<Player>) {
        let (black, white) = (self.discs(Player::X), self.discs(Player::O));
        if !self.is_over() {
            (Status::Ongoing, None)
        } else if black > white {
            (Status::Win, Some(Player::X))
        } else if white > black {
            (Status::Win, Some(Player::O))
        } else {
            (Status::Draw, None)
        }
    }

    fn describe(&self) -> PositionReport {
        let pos = self;
        let (status, winner) = pos.outcome();
        let over = status != Status::Ongoing;
        let legal_moves = if over {
            Vec::new()
        } else if pos.must_pass() {
            vec!["pass".to_owned()]
        } else {
            Squares(pos.legal_moves())
                .map(|sq| notation(sq as Move))
                .collect()
        };
        PositionReport {
            to_move: pos.to_move,
            status,
            winner,
            winning_line: Vec::new(),
            legal_moves,
            forbidden: Vec::new(),
            board: pos.rows(),
        }
    }

    fn to_move(&self) -> Player {
        Othello::to_move(self)
    }

    fn play_notation(&mut self, notation: &str) -> Result<(), MoveError> {
        Othello::play_notation(self, notation)
    }

    fn search(&self, limits: &Limits, ws: &mut Workspace) -> SearchReport {
        search::search(self, limits, ws)
    }

    fn book_answer(&self, depth: u32) -> Option<SearchReport> {
        search::book_answer(self, depth)
    }

    fn tables() -> Vec<TableKind> {
        vec![TableKind::of::<search::Tables>()]
    }

    fn prepare(ws: &mut Workspace) {
        patterns::prepare();
        book::prepare();
        bitboard::prepare();
        ws.extra::<search::Tables>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str], to_move: Option<Player>) -> Result<Othello, PositionError> {
        Othello::parse(&PositionSpec {
            board: Some(rows.iter().map(|r| r.to_string()).collect()),
            to_move,
            ..Default::default()
        })
    }

    fn moves(list: &[&str]) -> Result<Othello, PositionError> {
        Othello::parse(&PositionSpec {
            moves: Some(list.iter().map(|m| m.to_string()).collect()),
            ..Default::default()
        })
    }

    const START: [&str; 8] = [
        "........", "........", "........", "...OX...", "...XO...", "........", "........",
        "........",
    ];

    #[test]
    fn the_start_reads_and_writes_back() {
        let pos = board(&START, Some(Player::X)).unwrap();
        assert_eq!(pos, Othello::default());
        assert_eq!(pos.rows(), START);
        let report = pos.describe();
        assert_eq!(report.legal_moves, ["d3", "c4", "f5", "e6"]);
        assert_eq!(report.status, Status::Ongoing);
    }

    #[test]
    fn a_board_needs_to_move() {
        let e = board(&START, None).unwrap_err();
        assert_eq!(e.part, Part::ToMove);
    }

    #[test]
    fn malformed_boards_are_refused() {
        let mut bad_char = START;
        bad_char[0] = "...Z....";
        let mut short = START;
        short[2] = ".......";
        let mut long = START;
        long[2] = ".........";
        let mut unicode = START;
        unicode[7] = "éééééééé";
        for rows in [&bad_char[..], &short, &long, &unicode, &START[..7]] {
            let e = board(rows, Some(Player::X)).unwrap_err();
            assert_eq!(e.part, Part::Board, "{rows:?}");
        }
        let mut nine = START.to_vec();
        nine.push("........");
        assert!(board(&nine, Some(Player::X)).is_err());
        let mut hole = START;
        hole[3] = "....X...";
        assert!(board(&hole, Some(Player::X)).is_err(), "empty centre");
        let sized = Othello::parse(&PositionSpec {
            moves: Some(vec![]),
            size: Some(10),
            ..Default::default()
        });
        assert_eq!(sized.unwrap_err().part, Part::Size);
    }

    #[test]
    fn moves_are_checked() {
        assert!(moves(&["f5", "d6", "c3"]).is_ok());
        assert_eq!(moves(&["a1"]).unwrap_err().part, Part::Moves);
        assert!(moves(&["f5", "f5"]).is_err(), "occupied square");
        assert!(moves(&["pass"]).is_err(), "pass while a move exists");
        assert!(moves(&["z9"]).is_err());
        let e = Othello::parse(&PositionSpec {
            moves: Some(vec!["f5".into()]),
            to_move: Some(Player::X),
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(e.part, Part::ToMove);
    }

    #[test]
    fn a_forced_pass_is_the_only_move_and_may_be_played() {
        // O's only disc is g8: nothing of X's lies between it and b1 or h8,
        // so O must pass, while X can take h8.
        let rows = [
            "X.XXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX", "XXXXXXXX",
            "XXXXXXO.",
        ];
        let pos = board(&rows, Some(Player::O)).unwrap();
        assert!(pos.must_pass());
        assert_eq!(pos.describe().legal_moves, ["pass"]);
        let mut after = pos;
        after.play_notation("pass").unwrap();
        assert_eq!(after.to_move(), Player::X);
        assert!(after.play_notation("pass").is_err(), "X has moves");
        assert!(pos.clone().play_notation("h8").is_err(), "O cannot play");
    }

    #[test]
    fn one_colour_wiped_out_is_a_finished_game() {
        // With no white disc nobody can bracket anything: the game is over
        // even though squares are empty, and the empties go to the winner.
        let rows = [
            "........", "........", "........", "...XX...", "...XX...", "........", "........",
            "........",
        ];
        let pos = board(&rows, Some(Player::O)).unwrap();
        let report = pos.describe();
        assert_eq!(report.status, Status::Win);
        assert_eq!(report.winner, Some(Player::X));
        assert!(report.legal_moves.is_empty());
        assert_eq!(pos.final_score(), -64);
        assert!(moves(&["f5", "pass"]).is_err());
    }
}
