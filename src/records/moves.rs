//! The moves alone, in the API's notation: Connect Four's column digits
//! (`4453`), an othello transcript (`f5d6c3d3`, forced passes left out as
//! transcripts do), or cells separated by spaces or commas (`h8 i9 h9`).
//! The text does not say which game it is, nor its size or rules: those
//! come from the reader's [`Hints`].

use super::{Hints, Record, RecordError, Replay};

/// Reads a move list of the game the hints name.
pub fn parse(text: &str, hints: &Hints) -> Result<Record, RecordError> {
    let game = hints.game.ok_or_else(|| {
        RecordError::header("a list of moves does not say which game it is: name the game")
    })?;
    let mut replay = Replay::new(game, hints.size, hints.rules.clone(), None)?;
    let column_notation = game.info().features.column_notation;
    for token in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let moves = if column_notation {
            token.chars().map(String::from).collect()
        } else {
            split_cells(token).map_err(|near| {
                RecordError::at(
                    replay.next_number(),
                    format!("{near:?} is not a move: write cells such as h8, or pass"),
                )
            })?
        };
        for mv in moves {
            let mv = mv.to_ascii_lowercase();
            if mv != "pass" && replay.must_pass() {
                replay.play("pass".to_owned(), None)?;
            }
            replay.play(mv, None)?;
        }
    }
    Ok(replay.finish())
}

/// Writes the moves the way [`parse`] reads them; a record that starts
/// from its own position cannot be written this way.
pub fn write(record: &Record) -> Result<String, RecordError> {
    if record.start.is_some() {
        return Err(RecordError::header(
            "this game starts from its own position, which a list of moves cannot hold",
        ));
    }
    let features = record.game.info().features;
    let moves = record
        .moves
        .iter()
        .map(|m| m.notation.as_str())
        .filter(|&m| !(features.passes && m == "pass"));
    Ok(if features.column_notation || features.passes {
        moves.collect()
    } else {
        moves.collect::<Vec<_>>().join(" ")
    })
}

/// Splits `f5d6` into `f5`, `d6`: each cell is a letter and its digits.
/// `Err` holds the unreadable rest.
fn split_cells(token: &str) -> Result<Vec<String>, String> {
    let mut cells = Vec::new();
    let mut rest = token;
    while !rest.is_empty() {
        if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case("pass") {
            cells.push("pass".to_owned());
            rest = &rest[4..];
            continue;
        }
        let mut chars = rest.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_ascii_alphabetic() => {}
            _ => return Err(rest.to_owned()),
        }
        let end = chars
            .find(|&(_, c)| !c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        if end == 1 {
            return Err(rest.to_owned());
        }
        cells.push(rest[..end].to_owned());
        rest = &rest[end..];
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::super::{Format, parse_with, write as write_record};
    use super::*;
    use crate::games::GameKind;

    fn hints(game: GameKind) -> Hints {
        Hints {
            game: Some(game),
            ..Hints::default()
        }
    }

    #[test]
    fn reads_each_games_move_strings() {
        let c4 = parse_with(Format::Moves, "4453", &hints(GameKind::Connect4)).unwrap();
        assert_eq!(c4.notations(), ["4", "4", "5", "3"]);
        let c4 = parse_with(Format::Moves, "4, 4 5 3", &hints(GameKind::Connect4)).unwrap();
        assert_eq!(c4.notations(), ["4", "4", "5", "3"]);
        let oth = parse_with(Format::Moves, "F5d6C3", &hints(GameKind::Othello)).unwrap();
        assert_eq!(oth.notations(), ["f5", "d6", "c3"]);
        let gom = parse_with(Format::Moves, "h8 i9,h10", &hints(GameKind::Gomoku)).unwrap();
        assert_eq!(gom.notations(), ["h8", "i9", "h10"]);
        let big = Hints {
            size: Some(19),
            ..hints(GameKind::Gomoku)
        };
        let gom = parse_with(Format::Moves, "s19 a1", &big).unwrap();
        assert_eq!(gom.size, Some(19));
        assert!(parse_with(Format::Moves, "s19", &hints(GameKind::Gomoku)).is_err());
    }

    #[test]
    fn errors_name_the_move() {
        let e = parse_with(Format::Moves, "44448", &hints(GameKind::Connect4)).unwrap_err();
        assert_eq!(e.move_number, Some(5), "{e}");
        let e = parse_with(Format::Moves, "4444444", &hints(GameKind::Connect4)).unwrap_err();
        assert_eq!(e.move_number, Some(7), "{e}");
        let e = parse_with(Format::Moves, "f5 d6 5c", &hints(GameKind::Othello)).unwrap_err();
        assert_eq!(e.move_number, Some(3), "{e}");
        assert!(e.detail.contains("\"5c\""), "{e}");
        let e = parse_with(Format::Moves, "a1 b2 a1", &hints(GameKind::TicTacToe)).unwrap_err();
        assert_eq!(e.move_number, Some(3), "{e}");
        let e = parse_with(Format::Moves, "a1", &Hints::default()).unwrap_err();
        assert!(e.detail.contains("which game"), "{e}");
    }

    #[test]
    fn round_trips() {
        for (game, text) in [
            (GameKind::Connect4, "4453"),
            (GameKind::Othello, "f5d6c3d3c4"),
            (GameKind::Gomoku, "h8 i9 h9"),
            (GameKind::TicTacToe, "a1 b2 c3"),
        ] {
            let record = parse_with(Format::Moves, text, &hints(game)).unwrap();
            assert_eq!(write_record(Format::Moves, &record).unwrap(), text);
        }
    }

    #[test]
    fn othello_transcripts_leave_forced_passes_out() {
        // After these eight moves black has no move and passes.
        let explicit = "d3c3e6d2d1e1b2c1passa3a1";
        let implicit = "d3c3e6d2d1e1b2c1a3a1";
        let a = parse_with(Format::Moves, explicit, &hints(GameKind::Othello)).unwrap();
        let b = parse_with(Format::Moves, implicit, &hints(GameKind::Othello)).unwrap();
        assert_eq!(a.notations()[8], "pass");
        assert_eq!(a, b);
        assert_eq!(write_record(Format::Moves, &a).unwrap(), implicit);
        let e = parse_with(Format::Moves, "f5 pass", &hints(GameKind::Othello)).unwrap_err();
        assert_eq!(e.move_number, Some(2), "a pass where a move exists: {e}");
    }
}
