//! GGF, the Generic Game Format of the GGS game server, as NBoard and the
//! othello engines speaking its protocol exchange games:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]
//!   B[F5]W[F6//1.2]B[E6/3.5/0.9];)
//! ```
//!
//! `BO` is the size, 64 squares top row first (`-` empty, `*` black, `O`
//! white; GGS puts a space between rows) and the side to move. A move is
//! `square/evaluation/time`, the last two optional; `PA` passes. `TY` is the
//! game type: the board size, then letters for variants (`r` random start,
//! `a` anti-othello, `s` synchro, `k` komi). Other properties (players,
//! place, date, clocks, result) describe the game and are skipped.
//!
//! Written records carry no evaluations: GGF's evaluation slot is in discs,
//! and the engine's scores are not.

use super::{Hints, Record, RecordError, Replay, Start};
use crate::games::{GameKind, Player};

/// The standard start as GGF writes it, black to move.
const STANDARD_BOARD: &str = "---------------------------O*------*O---------------------------";

/// The games GGF holds here.
pub fn fits(game: GameKind) -> bool {
    game == GameKind::Othello
}

/// Reads one othello game in GGF.
pub fn parse(text: &str, _hints: &Hints) -> Result<Record, RecordError> {
    let props = properties(text)?;
    let game = props.iter().find(|(id, _)| *id == "GM");
    match game {
        Some((_, name)) if name.trim().eq_ignore_ascii_case("othello") => {}
        Some((_, name)) => {
            return Err(RecordError::header(format!(
                "GM[{name}]: only othello games can be read from GGF"
            )));
        }
        None => {
            return Err(RecordError::header(
                "no GM[Othello]: a GGF record names its game",
            ));
        }
    }
    if let Some((_, ty)) = props.iter().find(|(id, _)| *id == "TY") {
        check_type(ty)?;
    }
    let start = match props.iter().find(|(id, _)| *id == "BO") {
        Some((_, board)) => read_board(board)?,
        None => None,
    };
    let mut replay = Replay::new(GameKind::Othello, None, None, start)?;
    for (id, value) in &props {
        let side = match *id {
            "B" => Player::X,
            "W" => Player::O,
            _ => continue,
        };
        let square = value.split('/').next().unwrap_or_default().trim();
        let number = replay.next_number();
        let notation = if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
            "pass".to_owned()
        } else if is_square(square) {
            square.to_ascii_lowercase()
        } else {
            return Err(RecordError::at(
                number,
                format!("{id}[{value}]: {square:?} is not a square (a1..h8) or PA"),
            ));
        };
        replay.play_as(side, notation, None)?;
    }
    Ok(replay.finish())
}

/// Writes an othello record in GGF.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let pos = record.start_position()?;
    let board: String = pos
        .describe()
        .board
        .concat()
        .chars()
        .map(|c| match c {
            'X' => '*',
            'O' => 'O',
            _ => '-',
        })
        .collect();
    let mut side = pos.to_move();
    let mut out = format!(
        "(;GM[Othello]PC[gameai]TY[8]BO[8 {board} {}]",
        side_symbol(side)
    );
    for mv in &record.moves {
        let square = if mv.notation == "pass" {
            "PA".to_owned()
        } else {
            mv.notation.to_ascii_uppercase()
        };
        let colour = if side == Player::X { 'B' } else { 'W' };
        out.push_str(&format!("{colour}[{square}]"));
        side = side.other();
    }
    out.push_str(";)");
    Ok(out)
}

fn side_symbol(side: Player) -> char {
    match side {
        Player::X => '*',
        Player::O => 'O',
    }
}

fn is_square(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 2 && matches!(b[0].to_ascii_lowercase(), b'a'..=b'h') && matches!(b[1], b'1'..=b'8')
}

/// The game's properties in order, as (identifier, value). GGF values have
/// no escapes: a value runs to the next `]`.
fn properties(text: &str) -> Result<Vec<(&str, &str)>, RecordError> {
    let text = text.trim();
    let body = text
        .strip_prefix("(;")
        .ok_or_else(|| RecordError::header("a GGF game starts with \"(;\""))?;
    let end = body
        .find(";)")
        .ok_or_else(|| RecordError::header("a GGF game ends with \";)\""))?;
    if !body[end + 2..].trim().is_empty() {
        return Err(RecordError::header(
            "text follows the game's closing \";)\": give one game at a time",
        ));
    }
    let mut rest = &body[..end];
    let mut props = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(props);
        }
        let id_len = rest
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(rest.len());
        let (id, after) = rest.split_at(id_len);
        if id.is_empty() {
            let near: String = rest.chars().take(12).collect();
            return Err(RecordError::header(format!(
                "expected a property such as B[d3], found {near:?}"
            )));
        }
        let after = after.trim_start().strip_prefix('[').ok_or_else(|| {
            RecordError::header(format!("property {id} has no value in brackets"))
        })?;
        let close = after.find(']').ok_or_else(|| {
            RecordError::header(format!("property {id}'s value has no closing ]"))
        })?;
        props.push((id, &after[..close]));
        rest = &after[close + 1..];
    }
}

/// Refuses game types this service does not play: other board sizes and
/// anti-othello.
fn check_type(ty: &str) -> Result<(), RecordError> {
    let ty = ty.trim();
    let digits = ty.find(|c: char| !c.is_ascii_digit()).unwrap_or(ty.len());
    if &ty[..digits] != "8" {
        return Err(RecordError::header(format!(
            "TY[{ty}]: only 8×8 othello is played here"
        )));
    }
    if ty[digits..].contains(['a', 'A']) {
        return Err(RecordError::header(format!(
            "TY[{ty}]: anti-othello is not played here"
        )));
    }
    Ok(())
}

/// Reads `BO[8 <64 squares> <side>]`; `None` for the standard start with
/// black to move.
fn read_board(value: &str) -> Result<Option<Start>, RecordError> {
    let err = |d: String| RecordError::header(format!("BO[{}]: {d}", value.trim()));
    let mut parts = value.split_whitespace();
    match parts.next() {
        Some("8") => {}
        Some(other) => return Err(err(format!("the board is {other} wide; othello is 8"))),
        None => return Err(err("the board is empty".to_owned())),
    }
    let rest: Vec<&str> = parts.collect();
    let (side, squares) = rest
        .split_last()
        .ok_or_else(|| err("no squares and no side to move".to_owned()))?;
    let to_move = match *side {
        "*" => Player::X,
        "O" | "o" => Player::O,
        other => {
            return Err(err(format!(
                "the side to move is {other:?}; it is * (black) or O (white)"
            )));
        }
    };
    // White's squares may be written `o`: read as `O`, so the usual
    // start is recognised however it is spelled.
    let squares = squares.concat().replace('o', "O");
    if squares.chars().count() != 64 {
        return Err(err(format!(
            "{} squares; an othello board has 64",
            squares.chars().count()
        )));
    }
    if squares == STANDARD_BOARD && to_move == Player::X {
        return Ok(None);
    }
    let mut cells = Vec::with_capacity(64);
    for (i, c) in squares.chars().enumerate() {
        cells.push(match c {
            '-' => '.',
            '*' => 'X',
            'O' => 'O',
            other => {
                return Err(err(format!(
                    "square {} is {other:?}; squares are -, * or O",
                    i + 1
                )));
            }
        });
    }
    let board = cells.chunks(8).map(|row| row.iter().collect()).collect();
    Ok(Some(Start {
        board,
        to_move: Some(to_move),
    }))
}

#[cfg(test)]
mod tests {
    use super::super::{Format, RecordMove, parse as parse_record, write as write_record};
    use super::*;

    /// The example game of NBoard's protocol description.
    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[E3]W[C5]B[C4]W[D3]B[C3]W[E2];)";

    fn read(text: &str) -> Result<Record, RecordError> {
        parse_record(Format::Ggf, text)
    }

    #[test]
    fn the_usual_start_spelled_with_a_small_o_is_the_usual_start() {
        // Found by the records' fuzzing: it read as a set-up position,
        // and the written record as the usual start.
        let text = NBOARD.replace("---O*---", "---o*---");
        assert_ne!(text, NBOARD);
        let record = read(&text).unwrap();
        assert_eq!(record.start, None);
        assert_eq!(
            read(&write_record(Format::Ggf, &record).unwrap()),
            Ok(record)
        );
    }

    #[test]
    fn reads_nboards_example() {
        let record = read(NBOARD).unwrap();
        assert_eq!(record.game, GameKind::Othello);
        assert_eq!(record.start, None, "the standard start");
        assert_eq!(
            record.notations(),
            ["f5", "f6", "e6", "f4", "e3", "c5", "c4", "d3", "c3", "e2"]
        );
        assert_eq!(record.replay().unwrap().to_move(), Player::X);
    }

    #[test]
    fn reads_ggs_rows_evaluations_and_times() {
        let text = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[a]PW[b]\n\
            RB[2000.00]RW[2000.00]TI[05:00//02:00]TY[8r]RE[+2.000]\n\
            BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\n\
            B[d3//0.01]W[c5/-1.50/2.30]B[f6/0.00];)";
        let record = read(text).unwrap();
        assert_eq!(record.notations(), ["d3", "c5", "f6"]);
    }

    #[test]
    fn a_custom_board_and_white_to_move() {
        let text = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- O]W[PA];)";
        let e = read(text).unwrap_err();
        assert_eq!(e.move_number, Some(1), "white has moves, so no pass");
        let text = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- O]W[e3];)";
        let record = read(text).unwrap();
        let start = record.start.as_ref().unwrap();
        assert_eq!(start.to_move, Some(Player::O));
        assert_eq!(start.board[3], "...OX...");
        assert_eq!(record.notations(), ["e3"]);
    }

    #[test]
    fn a_forced_pass_may_be_written_or_left_out() {
        // White's only disc is g8 and nothing black lies between it and an
        // empty square, so white must pass while black can take h8... but
        // first white is to move.
        let board = "*-****************************************************************";
        let board = format!("{}*O-", &board[..61]);
        let written = format!("(;GM[Othello]BO[8 {board} O]W[PA]B[H8];)");
        let left_out = format!("(;GM[Othello]BO[8 {board} O]B[H8];)");
        let a = read(&written).unwrap();
        let b = read(&left_out).unwrap();
        assert_eq!(a.notations(), ["pass", "h8"]);
        assert_eq!(a, b);
    }

    #[test]
    fn round_trips() {
        let record = read(NBOARD).unwrap();
        let text = write_record(Format::Ggf, &record).unwrap();
        assert!(text.starts_with("(;GM[Othello]"), "{text}");
        assert!(text.contains("B[F5]W[F6]"), "{text}");
        assert_eq!(read(&text).unwrap(), record);

        let custom = read(
            "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- O]W[e3]B[d3];)",
        )
        .unwrap();
        assert_eq!(
            read(&write_record(Format::Ggf, &custom).unwrap()).unwrap(),
            custom
        );
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let cases = [
            ("GM[Othello]B[f5]", None, "starts with"),
            ("(;GM[Othello]B[f5]", None, "ends with"),
            ("(;GM[Chess]B[e4];)", None, "only othello"),
            ("(;B[f5];)", None, "GM[Othello]"),
            ("(;GM[Othello]TY[10]B[f5];)", None, "8×8"),
            ("(;GM[Othello]TY[8a];)", None, "anti"),
            ("(;GM[Othello]BO[8 ---- *];)", None, "64"),
            ("(;GM[Othello]B[f5];)(;GM[Othello];)", None, "one game"),
            ("(;GM[Othello]B[f5]W[f6]B[z9];)", Some(3), "not a square"),
            ("(;GM[Othello]B[f5]W[f6]B[a1];)", Some(3), "not legal"),
            ("(;GM[Othello]B[f5]B[f4];)", Some(2), "white is to move"),
            ("(;GM[Othello]B[f5]W[f6;)", None, "closing"),
            ("(;GM[Othello]b[f5];)", None, "expected a property"),
        ];
        for (text, number, words) in cases {
            let e = read(text).unwrap_err();
            assert_eq!(e.move_number, number, "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }

    #[test]
    fn writes_passes_as_pa() {
        let board = "*-****************************************************************";
        let board = format!("{}*O-", &board[..61]);
        let record = read(&format!("(;GM[Othello]BO[8 {board} O]B[H8];)")).unwrap();
        let text = write_record(Format::Ggf, &record).unwrap();
        assert!(text.ends_with("W[PA]B[H8];)"), "{text}");
        assert_eq!(
            record.moves,
            vec![RecordMove::new("pass"), RecordMove::new("h8")]
        );
    }

    #[test]
    fn hints_are_checked() {
        let e = super::super::parse_with(
            Format::Ggf,
            "(;GM[Othello]B[f5];)",
            &super::super::Hints {
                game: Some(GameKind::Gomoku),
                ..Hints::default()
            },
        )
        .unwrap_err();
        assert!(e.detail.contains("othello"), "{e}");
    }
}
