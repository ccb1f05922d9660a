//! Game records: reading and writing games in the formats other tools keep
//! them in, so a game can come from Piskvork, NBoard or an SGF editor and go
//! back to them.
//!
//! One file per format: [`sgf`] (gomoku and othello), [`ggf`] (othello, as
//! GGS and NBoard write it), [`psq`] (Piskvork's gomoku records) and
//! [`moves`] (the plain move strings the API already reads). Each format's
//! parser only reads text; whether the moves are legal is found by playing
//! them through the game itself ([`Position::play`]), so a [`Record`] that
//! [`parse`] returns always replays, and an error names the move at fault.
//!
//! ```
//! use gameai::records::{self, Format};
//!
//! let text = "(;GM[Othello]PC[NBoard]TY[8]\
//!     BO[8 ---------------------------O*------*O--------------------------- *]\
//!     B[F5]W[F6]B[E6];)";
//! let record = records::parse(Format::Ggf, text).unwrap();
//! assert_eq!(record.notations(), ["f5", "f6", "e6"]);
//! let position = record.replay().unwrap();
//! assert_eq!(position.to_move(), gameai::games::Player::O);
//! ```

pub mod ggf;
pub mod moves;

use crate::games::{GameKind, Player, Position, PositionSpec};

/// A record format, by the name the API uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Smart Game Format FF\[4\]: gomoku (`GM[4]`) and othello (`GM[2]`).
    Sgf,
    /// Generic Game Format: othello, as GGS and NBoard write it.
    Ggf,
    /// Piskvork's `.psq`: gomoku.
    Psq,
    /// The moves alone, as the API reads them: Connect Four's column
    /// digits, an othello transcript, cells separated by spaces.
    Moves,
}

impl Format {
    pub const ALL: &[Format] = &[Format::Sgf, Format::Ggf, Format::Psq, Format::Moves];

    /// The format's API name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Sgf => "sgf",
            Format::Ggf => "ggf",
            Format::Psq => "psq",
            Format::Moves => "moves",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The media type a record in this format is served with.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Sgf => "application/x-go-sgf",
            Format::Ggf | Format::Psq | Format::Moves => "text/plain; charset=utf-8",
        }
    }

    /// Whether this format can hold a game of `game`.
    pub fn fits(self, game: GameKind) -> bool {
        match self {
            Format::Sgf => matches!(game, GameKind::Gomoku | GameKind::Othello),
            Format::Ggf => game == GameKind::Othello,
            Format::Psq => game == GameKind::Gomoku,
            Format::Moves => true,
        }
    }

    /// The format a game's own tools use most: what the play page copies.
    pub fn natural(game: GameKind) -> Self {
        match game {
            GameKind::Gomoku => Format::Sgf,
            GameKind::Othello => Format::Ggf,
            GameKind::TicTacToe | GameKind::Connect4 => Format::Moves,
        }
    }
}

/// A game as a record holds it: which game, the position it started from,
/// and the moves since, in the API's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub game: GameKind,
    /// The board size, as the game's options spell it (`None`: the
    /// game's default).
    pub size: Option<u32>,
    /// The rule variant, as the game's options spell it.
    pub rules: Option<String>,
    /// The starting position when it is not the game's start position.
    pub start: Option<Start>,
    pub moves: Vec<RecordMove>,
}

/// A starting position other than the game's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// Rows, top first: `.` empty, `X` (black), `O` (white).
    pub board: Vec<String>,
    /// The side to move, when the record says.
    pub to_move: Option<Player>,
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move in the API's notation (`h8`, `4`, `pass`).
    pub notation: String,
    /// A comment on the move, where the format keeps one (an engine's
    /// evaluation, say).
    pub comment: Option<String>,
}

impl RecordMove {
    pub fn new(notation: impl Into<String>) -> Self {
        Self {
            notation: notation.into(),
            comment: None,
        }
    }
}

/// Why a record was refused: what is wrong and, when it is one move, which.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{detail}", match .move_number { Some(n) => format!("move {n}: "), None => String::new() })]
pub struct RecordError {
    /// The move at fault, counted from 1 in the record (passes count).
    pub move_number: Option<usize>,
    pub detail: String,
}

impl RecordError {
    /// A problem with the record as a whole (its header, its game, its
    /// starting position).
    pub fn header(detail: impl Into<String>) -> Self {
        Self {
            move_number: None,
            detail: detail.into(),
        }
    }

    /// A problem with move `number` (from 1).
    pub fn at(number: usize, detail: impl Into<String>) -> Self {
        Self {
            move_number: Some(number),
            detail: detail.into(),
        }
    }
}

/// What the reader knows beyond the text: formats that do not name their
/// game, size or rules (the moves format; SGF's rules) take them from here,
/// and formats that do are checked against them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    pub game: Option<GameKind>,
    pub size: Option<u32>,
    pub rules: Option<String>,
}

impl Hints {
    /// Refuses a record whose game or size disagrees with what the reader
    /// was told.
    fn check(&self, game: GameKind, size: Option<u32>) -> Result<(), RecordError> {
        if let Some(hint) = self.game.filter(|&g| g != game) {
            return Err(RecordError::header(format!(
                "the record is a game of {}, not {}",
                game.name(),
                hint.name()
            )));
        }
        let default = game.info().default_size;
        if let Some(hint) = self.size.filter(|&s| s != size.unwrap_or(default)) {
            let n = size.unwrap_or(default);
            return Err(RecordError::header(format!(
                "the record's board is {n}×{n}, not {hint}×{hint}"
            )));
        }
        Ok(())
    }
}

/// Reads a record; see [`parse_with`] for records that need hints.
pub fn parse(format: Format, text: &str) -> Result<Record, RecordError> {
    parse_with(format, text, &Hints::default())
}

/// Reads a record in `format`, checks it against `hints` and replays it, so
/// an illegal move is refused with its number.
pub fn parse_with(format: Format, text: &str, hints: &Hints) -> Result<Record, RecordError> {
    let record = match format {
        Format::Ggf => ggf::parse(text, hints)?,
        Format::Moves => moves::parse(text, hints)?,
        Format::Sgf | Format::Psq => {
            return Err(RecordError::header(format!(
                "the {} format cannot be read yet",
                format.name()
            )));
        }
    };
    hints.check(record.game, record.size)?;
    Ok(record)
}

/// Writes a record in `format`; refuses a format that cannot hold the
/// record's game.
pub fn write(format: Format, record: &Record) -> Result<String, RecordError> {
    if !format.fits(record.game) {
        return Err(RecordError::header(format!(
            "a {} game cannot be written as {}",
            record.game.name(),
            format.name()
        )));
    }
    match format {
        Format::Ggf => ggf::write(record),
        Format::Moves => moves::write(record),
        Format::Sgf | Format::Psq => Err(RecordError::header(format!(
            "the {} format cannot be written yet",
            format.name()
        ))),
    }
}

impl Record {
    /// The moves in notation, without their comments.
    pub fn notations(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.notation.clone()).collect()
    }

    /// The position the record starts from.
    pub fn start_position(&self) -> Result<Position, RecordError> {
        let spec = PositionSpec {
            board: self.start.as_ref().map(|s| s.board.clone()),
            moves: self.start.is_none().then(Vec::new),
            to_move: self.start.as_ref().and_then(|s| s.to_move),
            size: self.size,
            rules: self.rules.clone(),
        };
        self.game
            .parse(&spec)
            .map_err(|e| RecordError::header(format!("the starting position: {e}")))
    }

    /// The position after every move, refusing the first illegal one.
    pub fn replay(&self) -> Result<Position, RecordError> {
        let mut pos = self.start_position()?;
        for (i, mv) in self.moves.iter().enumerate() {
            play(&mut pos, i + 1, &mv.notation)?;
        }
        Ok(pos)
    }
}

fn play(pos: &mut Position, number: usize, notation: &str) -> Result<(), RecordError> {
    pos.play(notation)
        .map_err(|e| RecordError::at(number, format!("{notation}: {e}")))
}

/// Builds a record move by move, playing each through the game as it is
/// read, so the parsers can ask whose turn it is and errors carry the
/// move's number.
struct Replay {
    record: Record,
    pos: Position,
}

impl Replay {
    fn new(
        game: GameKind,
        size: Option<u32>,
        rules: Option<String>,
        start: Option<Start>,
    ) -> Result<Self, RecordError> {
        let record = Record {
            game,
            size,
            rules,
            start,
            moves: Vec::new(),
        };
        let pos = record.start_position()?;
        Ok(Self { record, pos })
    }

    /// The number the next move will have.
    fn next_number(&self) -> usize {
        self.record.moves.len() + 1
    }

    fn to_move(&self) -> Player {
        self.pos.to_move()
    }

    /// Whether the side to move has nothing to play but a pass.
    fn must_pass(&self) -> bool {
        self.record.game.info().features.passes && self.pos.describe().legal_moves == ["pass"]
    }

    fn play(&mut self, notation: String, comment: Option<String>) -> Result<(), RecordError> {
        let number = self.next_number();
        play(&mut self.pos, number, &notation)?;
        self.record.moves.push(RecordMove { notation, comment });
        Ok(())
    }

    /// Plays a move the record gives to `side`. Records often leave a
    /// forced pass unwritten, so when `side` is not to move and the side to
    /// move can only pass, the pass is put in first.
    fn play_as(
        &mut self,
        side: Player,
        notation: String,
        comment: Option<String>,
    ) -> Result<(), RecordError> {
        if side != self.to_move() {
            if !self.must_pass() {
                return Err(RecordError::at(
                    self.next_number(),
                    format!(
                        "{notation} is played by {} but {} is to move",
                        colour(side),
                        colour(self.to_move())
                    ),
                ));
            }
            self.play("pass".to_owned(), None)?;
        }
        self.play(notation, comment)
    }

    fn finish(self) -> Record {
        self.record
    }
}

/// A side by the colour record formats call it.
fn colour(side: Player) -> &'static str {
    match side {
        Player::X => "black",
        Player::O => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_move() {
        let e = RecordError::at(3, "d3: not legal");
        assert_eq!(e.to_string(), "move 3: d3: not legal");
        assert_eq!(RecordError::header("no game").to_string(), "no game");
    }

    #[test]
    fn formats_know_their_games() {
        for &f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        assert!(Format::Psq.fits(GameKind::Gomoku));
        assert!(!Format::Psq.fits(GameKind::Othello));
        assert!(!Format::Ggf.fits(GameKind::Gomoku));
        assert!(!Format::Sgf.fits(GameKind::Connect4));
        for &g in GameKind::ALL {
            assert!(Format::natural(g).fits(g));
            assert!(Format::Moves.fits(g));
        }
        let record = Record {
            game: GameKind::Connect4,
            size: None,
            rules: None,
            start: None,
            moves: vec![],
        };
        assert!(write(Format::Ggf, &record).is_err());
    }

    #[test]
    fn replay_refuses_the_first_illegal_move() {
        let record = Record {
            game: GameKind::TicTacToe,
            size: None,
            rules: None,
            start: None,
            moves: ["a1", "b2", "a1"].map(RecordMove::new).to_vec(),
        };
        let e = record.replay().unwrap_err();
        assert_eq!(e.move_number, Some(3));
        assert!(e.detail.contains("taken"), "{e}");
    }

    #[test]
    fn hints_are_checked() {
        let e = parse_with(
            Format::Ggf,
            "(;GM[Othello]B[f5];)",
            &Hints {
                game: Some(GameKind::Gomoku),
                ..Hints::default()
            },
        )
        .unwrap_err();
        assert!(e.detail.contains("othello"), "{e}");
    }
}
