//! Piskvork's `.psq` gomoku records, as the Gomocup tournament manager
//! saves its games:
//!
//! ```text
//! Piskvorky 20x20, 11:11, 0
//! 10,10,516
//! 11,11,1203
//! pbrain-one.exe
//! pbrain-two.exe
//! -1
//! ```
//!
//! The header names the board (`20x20`); each move is `x,y,time`: column
//! and row counted from 1 at the top-left, and the milliseconds the move
//! took. Lines after the moves (the engines' names, a result code) are
//! skipped. The file does not say the rules; they come from the reader's
//! [`Hints`].

use super::{Hints, Record, RecordError, Replay};
use crate::games::GameKind;
use crate::games::notation::{cell_name, parse_cell};

/// The games a psq record holds.
pub fn fits(game: GameKind) -> bool {
    game == GameKind::Gomoku
}

/// Reads a Piskvork record.
pub fn parse(text: &str, hints: &Hints) -> Result<Record, RecordError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines
        .next()
        .ok_or_else(|| RecordError::header("the record is empty"))?;
    let size = read_header(header)?;
    let mut replay = Replay::new(GameKind::Gomoku, Some(size), hints.rules.clone(), None)?;
    for line in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let numbers: Option<Vec<u32>> = fields.iter().map(|f| f.parse().ok()).collect();
        let (x, y) = match (fields.len(), numbers.as_deref()) {
            (2 | 3, Some([x, y, ..])) => (*x, *y),
            // The moves end where the engines' names begin.
            _ => break,
        };
        let number = replay.next_number();
        if x == 0 || y == 0 || x > size || y > size {
            return Err(RecordError::at(
                number,
                format!("{line}: x and y run from 1 to {size}"),
            ));
        }
        replay.play(cell_name(y as usize - 1, x as usize - 1), None)?;
    }
    Ok(replay.finish())
}

/// Writes a gomoku record as Piskvork saves it; times are unknown, so 0.
pub fn write(record: &Record) -> Result<String, RecordError> {
    if record.start.is_some() {
        return Err(RecordError::header(
            "this game starts from its own position, which a psq record cannot hold",
        ));
    }
    let size = record.size.unwrap_or(GameKind::Gomoku.info().default_size);
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (i, mv) in record.moves.iter().enumerate() {
        let (row, col) = parse_cell(&mv.notation, size as usize, size as usize)
            .ok_or_else(|| RecordError::at(i + 1, format!("{} is not a cell", mv.notation)))?;
        out.push_str(&format!("{},{},0\n", col + 1, row + 1));
    }
    Ok(out)
}

/// Reads `Piskvorky 20x20, 11:11, 0` for its board size.
fn read_header(line: &str) -> Result<u32, RecordError> {
    let err = || {
        RecordError::header(format!(
            "{line:?}: a psq record starts with a line such as \"Piskvorky 15x15, 11:11, 0\""
        ))
    };
    let rest = line.strip_prefix("Piskvorky").ok_or_else(err)?.trim_start();
    let dims = rest.split(',').next().ok_or_else(err)?.trim();
    let (w, h) = dims.split_once(['x', 'X']).ok_or_else(err)?;
    let (w, h): (u32, u32) = (w.parse().map_err(|_| err())?, h.parse().map_err(|_| err())?);
    if w != h {
        return Err(RecordError::header(format!(
            "the board is {w}×{h}; gomoku here is played on square boards"
        )));
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::super::{Format, parse as parse_record, parse_with, write as write_record};
    use super::*;

    /// A Gomocup game's opening, as Piskvork saves it.
    const GOMOCUP: &str = "Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,11,516\r\n9,11,2093\r\n\
        10,11,1687\r\npbrain-embryo21_e.exe\r\npbrain-rapfi21.exe\r\n-1\r\n";

    #[test]
    fn reads_a_gomocup_record() {
        let record = parse_record(Format::Psq, GOMOCUP).unwrap();
        assert_eq!(record.game, GameKind::Gomoku);
        assert_eq!(record.size, Some(20));
        assert_eq!(record.notations(), ["j10", "k11", "i11", "j11"]);
    }

    #[test]
    fn round_trips() {
        let record = parse_record(Format::Psq, GOMOCUP).unwrap();
        let text = write_record(Format::Psq, &record).unwrap();
        assert!(
            text.starts_with("Piskvorky 20x20, 11:11, 0\n10,10,0\n"),
            "{text}"
        );
        assert_eq!(parse_record(Format::Psq, &text).unwrap(), record);
    }

    #[test]
    fn rules_come_from_the_hints() {
        let hints = Hints {
            rules: Some("renju".into()),
            ..Hints::default()
        };
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n";
        let record = parse_with(Format::Psq, text, &hints).unwrap();
        assert_eq!(record.rules.as_deref(), Some("renju"));
        let e = parse_with(Format::Psq, "Piskvorky 20x20, 11:11, 0\n", &hints).unwrap_err();
        assert!(e.detail.contains("15×15"), "{e}");
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let cases = [
            ("", None, "empty"),
            ("Gomoku 15x15\n8,8,0\n", None, "starts with"),
            ("Piskvorky 15x17, 11:11, 0\n", None, "square"),
            ("Piskvorky 16x16, 11:11, 0\n", None, "15, 19 or 20"),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n",
                Some(2),
                "1 to 15",
            ),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,8,0\n",
                Some(3),
                "taken",
            ),
        ];
        for (text, number, words) in cases {
            let e = parse_record(Format::Psq, text).unwrap_err();
            assert_eq!(e.move_number, number, "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }
}
