//! SGF, the Smart Game Format (FF\[4\]), for gomoku (`GM[4]`) and othello
//! (`GM[2]`):
//!
//! ```text
//! (;FF[4]GM[4]SZ[15]AP[gameai]
//!   ;B[hh];W[ii]C[score -35, depth 8];B[hi])
//! ```
//!
//! A point is two letters, column then row, both counted from `a` at the
//! top-left, so `hh` is `h8`, the centre of 15×15, as FF\[4\] has it for
//! every board game. Go programs adapted to gomoku (KataGomo) write `GM[1]`:
//! that is read as gomoku when the reader says the game is gomoku.
//! `B[]` (or `B[tt]` on boards up to
//! 19) passes. A starting position is set up with `AB`/`AW`/`AE` and `PL`
//! in the root node (the first node with properties: an empty node before
//! it is skipped); point lists may be compressed (`AB[aa:cc]`). Only the
//! main line is read: other variations are skipped. `SZ` defaults to the
//! game's own size (15 for gomoku, 8 for othello); `RU` names the gomoku
//! rules when it is one of ours (`freestyle`, `standard`, `renju`), and the
//! reader's [`Hints`] otherwise. A move's `C` comment is kept.

use super::{Hints, Record, RecordError, Replay, Start};
use crate::games::notation::{cell_name, parse_cell};
use crate::games::{GameKind, Player};

/// SGF's number for each game it can hold here.
const GAMES: &[(u32, GameKind)] = &[(2, GameKind::Othello), (4, GameKind::Gomoku)];

/// The games SGF holds here.
pub fn fits(game: GameKind) -> bool {
    GAMES.iter().any(|&(_, g)| g == game)
}

/// One property: its identifier and values.
type Property = (String, Vec<String>);
/// A node: its properties in order.
type Node = Vec<Property>;

/// Reads a gomoku or othello game in SGF.
pub fn parse(text: &str, hints: &Hints) -> Result<Record, RecordError> {
    let nodes = main_line(text)?;
    // The root is the first node; some writers put an empty node before
    // it, so the first node with properties is taken.
    let first = nodes.iter().position(|n| !n.is_empty()).unwrap_or(0);
    let nodes = &nodes[first..];
    let root = &nodes[0];
    let game = match value(root, "GM") {
        Some(gm) => {
            let n: u32 = gm
                .trim()
                .parse()
                .map_err(|_| RecordError::header(format!("GM[{gm}] is not a game number")))?;
            GAMES
                .iter()
                .find(|&&(number, _)| number == n)
                .map(|&(_, g)| g)
                .or((n == 1 && hints.game == Some(GameKind::Gomoku)).then_some(GameKind::Gomoku))
                .ok_or_else(|| {
                    RecordError::header(format!(
                        "GM[{n}]: only gomoku (GM[4]) and othello (GM[2]) are read from SGF"
                    ))
                })?
        }
        None => hints.game.filter(|&g| fits(g)).ok_or_else(|| {
            RecordError::header("no GM[..]: say the game, GM[4] for gomoku or GM[2] for othello")
        })?,
    };
    let size = match value(root, "SZ") {
        Some(sz) => {
            let sz = sz.trim();
            let n = sz
                .parse::<u32>()
                .map_err(|_| RecordError::header(format!("SZ[{sz}]: a square board's size")))?;
            Some(n)
        }
        None => hints.size,
    };
    let rules = match value(root, "RU").map(|r| r.trim().to_ascii_lowercase()) {
        Some(r) if game == GameKind::Gomoku && game.info().rules.contains(&r.as_str()) => Some(r),
        _ => hints.rules.clone(),
    };
    // Othello's size is not an option: 8 is the only one.
    let (size_option, n) = match (game, size) {
        (GameKind::Othello, Some(8) | None) => (None, 8),
        (GameKind::Othello, Some(other)) => {
            return Err(RecordError::header(format!(
                "SZ[{other}]: othello is played on 8×8"
            )));
        }
        // A board without SZ has the size the reader assumed, which is
        // what a record written back says.
        (_, size) => {
            let n = size.unwrap_or(game.info().default_size);
            (Some(n), n)
        }
    };
    if !(1..=26).contains(&n) {
        return Err(RecordError::header(format!("SZ[{n}]: too large a board")));
    }
    let start = setup(root, game, n as usize)?;
    let mut replay = Replay::new(game, size_option, rules, start)?;
    // The root may hold a move too; every other node is at most one move.
    for node in nodes {
        let moves: Vec<&Property> = node
            .iter()
            .filter(|(id, _)| id == "B" || id == "W")
            .collect();
        let mv = match moves.as_slice() {
            [] => continue,
            [mv] => *mv,
            _ => {
                return Err(RecordError::at(
                    replay.next_number(),
                    "a node holds two moves; give each its own node",
                ));
            }
        };
        let number = replay.next_number();
        let (id, values) = mv;
        let side = if id == "B" { Player::X } else { Player::O };
        let [point] = values.as_slice() else {
            return Err(RecordError::at(
                number,
                format!("{id} has {} values", values.len()),
            ));
        };
        let notation = match point.trim() {
            "" => "pass".to_owned(),
            "tt" if n <= 19 => "pass".to_owned(),
            p => {
                let (row, col) = read_point(p, n as usize)
                    .map_err(|d| RecordError::at(number, format!("{id}[{p}]: {d}")))?;
                cell_name(row, col)
            }
        };
        let comment = value(node, "C").map(str::to_owned);
        replay.play_as(side, notation, comment)?;
    }
    Ok(replay.finish())
}

/// Writes a gomoku or othello record in SGF, each move's comment as `C`.
pub fn write(record: &Record) -> Result<String, RecordError> {
    let (gm, _) = GAMES
        .iter()
        .find(|&&(_, g)| g == record.game)
        .ok_or_else(|| RecordError::header("SGF holds gomoku and othello games only"))?;
    let start = record.start_position()?;
    let rows = start.describe().board;
    let n = rows.len();
    let mut out = format!("(;FF[4]GM[{gm}]SZ[{n}]CA[UTF-8]AP[gameai]");
    if let Some(rules) = &record.rules {
        out.push_str(&format!("RU[{}]", escape(rules)));
    }
    // Othello's start is always written: SGF does not fix it.
    if record.start.is_some() || record.game == GameKind::Othello {
        for (id, symbol) in [("AB", 'X'), ("AW", 'O')] {
            let points: String = cells(&rows, symbol)
                .map(|(r, c)| format!("[{}]", point(r, c)))
                .collect();
            if !points.is_empty() {
                out.push_str(&format!("{id}{points}"));
            }
        }
        // The side to move of othello's usual start, or of a set-up that
        // names it; without PL the reader infers it as the position does,
        // so the text reads back as the same record.
        let named = match &record.start {
            Some(s) => s.to_move,
            None => Some(start.to_move()),
        };
        match named {
            Some(Player::X) => out.push_str("PL[B]"),
            Some(Player::O) => out.push_str("PL[W]"),
            None => {}
        }
    }
    let mut side = start.to_move();
    for (i, mv) in record.moves.iter().enumerate() {
        let colour = if side == Player::X { 'B' } else { 'W' };
        let at = if mv.notation == "pass" {
            String::new()
        } else {
            let (r, c) = parse_cell(&mv.notation, n, n)
                .ok_or_else(|| RecordError::at(i + 1, format!("{} is not a cell", mv.notation)))?;
            point(r, c)
        };
        out.push_str(&format!("\n;{colour}[{at}]"));
        if let Some(comment) = &mv.comment {
            out.push_str(&format!("C[{}]", escape(comment)));
        }
        side = side.other();
    }
    out.push_str(")\n");
    Ok(out)
}

/// The cells of `rows` holding `symbol`.
fn cells(rows: &[String], symbol: char) -> impl Iterator<Item = (usize, usize)> + '_ {
    rows.iter().enumerate().flat_map(move |(r, row)| {
        row.chars()
            .enumerate()
            .filter(move |&(_, ch)| ch == symbol)
            .map(move |(c, _)| (r, c))
    })
}

fn point(row: usize, col: usize) -> String {
    format!(
        "{}{}",
        (b'a' + col as u8) as char,
        (b'a' + row as u8) as char
    )
}

/// Reads a point `hh` as (row, col) on an `n`×`n` board.
fn read_point(text: &str, n: usize) -> Result<(usize, usize), String> {
    let b = text.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_lowercase) {
        return Err("a point is two letters a-z, column then row".to_owned());
    }
    let (col, row) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
    if col >= n || row >= n {
        return Err(format!("off the {n}×{n} board"));
    }
    Ok((row, col))
}

/// The root's setup (`AB`, `AW`, `AE`, `PL`) as a starting position;
/// `None` when it is the game's own start with black to move.
fn setup(root: &Node, game: GameKind, n: usize) -> Result<Option<Start>, RecordError> {
    let has_setup = root
        .iter()
        .any(|(id, _)| matches!(id.as_str(), "AB" | "AW" | "AE" | "PL"));
    if !has_setup {
        return Ok(None);
    }
    let standard: Vec<String> = if game.info().sizes.contains(&(n as u32)) {
        match game {
            // A gomoku board starts empty at any size.
            GameKind::Gomoku => vec![".".repeat(n); n],
            _ => game.info().start.clone(),
        }
    } else {
        vec![".".repeat(n); n]
    };
    let mut board: Vec<Vec<char>> = standard.iter().map(|r| r.chars().collect()).collect();
    for (id, values) in root {
        let symbol = match id.as_str() {
            "AB" => 'X',
            "AW" => 'O',
            "AE" => '.',
            _ => continue,
        };
        for v in values {
            let v = v.trim();
            let (from, to) = v.split_once(':').unwrap_or((v, v));
            let err = |d: String| RecordError::header(format!("{id}[{v}]: {d}"));
            let (r1, c1) = read_point(from, n).map_err(err)?;
            let (r2, c2) = read_point(to, n).map_err(err)?;
            for row in board.iter_mut().take(r1.max(r2) + 1).skip(r1.min(r2)) {
                for cell in row.iter_mut().take(c1.max(c2) + 1).skip(c1.min(c2)) {
                    *cell = symbol;
                }
            }
        }
    }
    let to_move = match value(root, "PL").map(str::trim) {
        None => None,
        Some("B" | "b") => Some(Player::X),
        Some("W" | "w") => Some(Player::O),
        Some(other) => {
            return Err(RecordError::header(format!(
                "PL[{other}]: the side to move is B or W"
            )));
        }
    };
    let board: Vec<String> = board.into_iter().map(String::from_iter).collect();
    if board == standard && to_move.is_none_or(|p| p == Player::X) {
        return Ok(None);
    }
    Ok(Some(Start { board, to_move }))
}

/// The first value of property `id` in `node`.
fn value<'a>(node: &'a Node, id: &str) -> Option<&'a str> {
    node.iter()
        .find(|(i, _)| i == id)
        .and_then(|(_, v)| v.first())
        .map(String::as_str)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// The nodes of the first game's main line: each variation's first branch.
fn main_line(text: &str) -> Result<Vec<Node>, RecordError> {
    let mut p = Parser {
        chars: text.char_indices().peekable(),
    };
    p.skip_space();
    if p.chars.peek().map(|&(_, c)| c) != Some('(') {
        return Err(RecordError::header("an SGF record starts with \"(;\""));
    }
    let nodes = p.tree(0)?;
    p.skip_space();
    if p.chars.peek().is_some() {
        return Err(RecordError::header(
            "text follows the game's closing \")\": give one game at a time",
        ));
    }
    if nodes.is_empty() {
        return Err(RecordError::header("the game has no nodes"));
    }
    Ok(nodes)
}

/// How deep variations may nest: far beyond any real record.
const MAX_NESTING: usize = 200;

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
    }

    fn next_char(&mut self) -> Option<char> {
        self.chars.next().map(|(_, c)| c)
    }

    /// `( node* tree* )`, keeping the first subtree's nodes only. `depth`
    /// counts the variations around it: deep nesting is refused before it
    /// can exhaust the stack.
    fn tree(&mut self, depth: usize) -> Result<Vec<Node>, RecordError> {
        if depth >= MAX_NESTING {
            return Err(RecordError::header(format!(
                "variations nest more than {MAX_NESTING} deep"
            )));
        }
        self.next_char(); // '('
        let mut nodes = Vec::new();
        let mut took_branch = false;
        loop {
            self.skip_space();
            match self.chars.peek().map(|&(_, c)| c) {
                Some(';') if !took_branch => {
                    self.next_char();
                    nodes.push(self.node()?);
                }
                Some('(') => {
                    let branch = self.tree(depth + 1)?;
                    if !took_branch {
                        nodes.extend(branch);
                        took_branch = true;
                    }
                }
                Some(')') => {
                    self.next_char();
                    return Ok(nodes);
                }
                Some(c) => {
                    return Err(RecordError::header(format!(
                        "unexpected {c:?} between nodes of the SGF game"
                    )));
                }
                None => {
                    return Err(RecordError::header(
                        "the SGF game ends before its closing \")\"",
                    ));
                }
            }
        }
    }

    fn node(&mut self) -> Result<Node, RecordError> {
        let mut props = Vec::new();
        loop {
            self.skip_space();
            match self.chars.peek().map(|&(_, c)| c) {
                Some(c) if c.is_ascii_alphabetic() => {}
                _ => return Ok(props),
            }
            let mut id = String::new();
            while let Some((_, c)) = self.chars.next_if(|&(_, c)| c.is_ascii_alphabetic()) {
                // FF[4] ignores lower-case letters of old identifiers.
                if c.is_ascii_uppercase() {
                    id.push(c);
                }
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.chars.next_if(|&(_, c)| c == '[').is_none() {
                    break;
                }
                values.push(self.value(&id)?);
            }
            if values.is_empty() {
                return Err(RecordError::header(format!(
                    "property {id} has no value in brackets"
                )));
            }
            props.push((id, values));
        }
    }

    /// A value after its `[`: up to the unescaped `]`.
    fn value(&mut self, id: &str) -> Result<String, RecordError> {
        let mut out = String::new();
        loop {
            match self.next_char() {
                Some(']') => return Ok(out),
                Some('\\') => match self.next_char() {
                    // An escaped line break is no break at all.
                    Some('\n') => {}
                    Some(c) => out.push(c),
                    None => break,
                },
                Some(c) => out.push(c),
                None => break,
            }
        }
        Err(RecordError::header(format!(
            "property {id}'s value has no closing ]"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{
        Format, RecordMove, parse as parse_record, parse_with, write as write_record,
    };
    use super::*;

    fn read(text: &str) -> Result<Record, RecordError> {
        parse_record(Format::Sgf, text)
    }

    #[test]
    fn the_root_is_the_first_node_with_properties() {
        let record = read("(;;GM[4]SZ[19]RU[standard];B[jj];W[kk])").unwrap();
        assert_eq!(record.size, Some(19));
        assert_eq!(record.rules.as_deref(), Some("standard"));
        assert_eq!(record.notations(), ["j10", "k11"]);
    }

    #[test]
    fn a_gomoku_board_without_a_size_round_trips() {
        // Found by the records' fuzzing: the first reading took no size
        // and the written record said SZ[15].
        let hints = Hints {
            game: Some(GameKind::Gomoku),
            ..Hints::default()
        };
        for text in [
            "(;;FF[4]GM[4]SZ[15]RU[renju]AB[aa]AW[ab]PL[B];B[hh]C[x];W[ii](;B[hi])(;B[jj]))",
            "(;FF[4];B[hh]C[x];W[ii])",
        ] {
            let record = parse_with(Format::Sgf, text, &hints);
            let record = record.expect("a record");
            assert_eq!(record.size, Some(15));
            let written = write_record(Format::Sgf, &record).unwrap();
            assert_eq!(parse_with(Format::Sgf, &written, &hints), Ok(record));
        }
    }

    #[test]
    fn a_set_up_board_without_a_side_to_move_round_trips() {
        // Found by the records' fuzzing: the writer named the side the
        // position infers, and the text read back with `PL` set.
        let text = "(;FF[4]GM[4]SZ[15]RU[renju]AB[aa];W[ii];B[hi])";
        let record = read(text).unwrap();
        assert_eq!(record.start.as_ref().map(|s| s.to_move), Some(None));
        let written = write(&record).unwrap();
        assert!(!written.contains("PL["), "{written}");
        assert_eq!(read(&written), Ok(record));
    }

    #[test]
    fn reads_a_gomoku_game() {
        let text = "(;GM[4]FF[4]SZ[15]PB[Yixin]PW[Human]\n;B[hh];W[ig]C[a good reply];B[ii]\n)";
        let record = read(text).unwrap();
        assert_eq!(record.game, GameKind::Gomoku);
        assert_eq!(record.size, Some(15));
        assert_eq!(record.notations(), ["h8", "i7", "i9"]);
        assert_eq!(record.moves[1].comment.as_deref(), Some("a good reply"));
    }

    #[test]
    fn takes_the_main_line_and_unescapes_comments() {
        let text = "(;GM[4]SZ[19](;B[jj]C[centre \\] here];W[kk](;B[ll])(;B[aa]))(;B[ab]))";
        let record = read(text).unwrap();
        assert_eq!(record.size, Some(19));
        assert_eq!(record.notations(), ["j10", "k11", "l12"]);
        assert_eq!(record.moves[0].comment.as_deref(), Some("centre ] here"));
    }

    #[test]
    fn reads_othello_with_its_setup() {
        let text = "(;GM[2]FF[4]SZ[8]AB[ed][de]AW[dd][ee]PL[B];B[fe];W[df];B[cc])";
        let record = read(text).unwrap();
        assert_eq!(record.game, GameKind::Othello);
        assert_eq!(record.start, None, "the standard start");
        assert_eq!(record.notations(), ["f5", "d6", "c3"]);
        // With no setup, othello starts from its own start.
        assert_eq!(read("(;GM[2];B[fe];W[df];B[cc])").unwrap(), record);
    }

    #[test]
    fn reads_a_set_up_gomoku_position() {
        let text = "(;GM[4]SZ[15]RU[renju]AB[hh][hi]AW[ii:ij]PL[B];B[hj])";
        let record = read(text).unwrap();
        assert_eq!(record.rules.as_deref(), Some("renju"));
        let start = record.start.as_ref().unwrap();
        assert_eq!(start.to_move, Some(Player::X));
        assert_eq!(&start.board[7][7..9], "X.");
        assert_eq!(&start.board[8][7..9], "XO");
        assert_eq!(&start.board[9][7..9], ".O");
        assert_eq!(record.notations(), ["h10"]);
    }

    #[test]
    fn round_trips() {
        let mut record = read("(;GM[4]SZ[20];B[jj];W[kk];B[ll])").unwrap();
        record.moves[1].comment = Some("AI: score -35, depth 8 [sure]".into());
        let text = write_record(Format::Sgf, &record).unwrap();
        assert!(text.starts_with("(;FF[4]GM[4]SZ[20]"), "{text}");
        assert!(
            text.contains(";W[kk]C[AI: score -35, depth 8 [sure\\]]"),
            "{text}"
        );
        assert_eq!(read(&text).unwrap(), record);

        let othello = read("(;GM[2];B[fe];W[df];B[cc])").unwrap();
        let text = write_record(Format::Sgf, &othello).unwrap();
        assert!(text.contains("AB[ed][de]AW[dd][ee]PL[B]"), "{text}");
        assert_eq!(read(&text).unwrap(), othello);

        let setup = read("(;GM[4]SZ[15]RU[renju]AB[hh][hi]AW[ii:ij]PL[B];B[hj])").unwrap();
        assert_eq!(
            read(&write_record(Format::Sgf, &setup).unwrap()).unwrap(),
            setup
        );
    }

    #[test]
    fn othello_passes_are_empty_moves() {
        let text = "(;GM[2];B[dc];W[cc];B[ef];W[db];B[da];W[ea];B[bb];W[ca];W[ac];B[aa])";
        let record = read(text).unwrap();
        assert_eq!(record.notations()[8], "pass", "black's pass was left out");
        let text = write_record(Format::Sgf, &record).unwrap();
        assert!(text.contains(";B[]"), "{text}");
        assert_eq!(read(&text).unwrap(), record);
        assert_eq!(record.moves[9], RecordMove::new("a3"));
    }

    #[test]
    fn go_programs_gomoku_reads_when_the_game_is_named() {
        let text = "(;FF[4]GM[1]SZ[15]PB[katagomo]PW[katagomo];B[hh];W[hi])";
        assert!(read(text).is_err(), "GM[1] alone is go");
        let hints = Hints {
            game: Some(GameKind::Gomoku),
            ..Hints::default()
        };
        let record = parse_with(Format::Sgf, text, &hints).unwrap();
        assert_eq!(record.notations(), ["h8", "h9"]);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!("(;GM[4]{}", "(;B[hh]".repeat(100_000));
        let e = read(&text).unwrap_err();
        assert!(e.detail.contains("nest"), "{e}");
    }

    #[test]
    fn the_rules_may_come_from_the_hints() {
        let hints = Hints {
            rules: Some("standard".into()),
            ..Hints::default()
        };
        let record = parse_with(Format::Sgf, "(;GM[4];B[hh])", &hints).unwrap();
        assert_eq!(record.rules.as_deref(), Some("standard"));
    }

    #[test]
    fn malformed_records_say_what_is_wrong() {
        let cases = [
            (";GM[4];B[hh])", None, "starts with"),
            ("(;GM[4];B[hh]", None, "closing"),
            ("(;GM[1];B[hh])", None, "GM[1]"),
            ("(;B[hh])", None, "GM[4]"),
            ("(;GM[2]SZ[10];B[hh])", None, "8×8"),
            ("(;GM[4]SZ[16];B[hh])", None, "15, 19 or 20"),
            ("(;GM[4];B[hh];W[hh])", Some(2), "taken"),
            ("(;GM[4];B[hh];W[zz])", Some(2), "off the 15×15"),
            ("(;GM[4];B[hh];W[h8])", Some(2), "two letters"),
            ("(;GM[4];B[hh];B[ii])", Some(2), "white is to move"),
            ("(;GM[4];B[hh]W[ii])", Some(1), "two moves"),
            ("(;GM[4];B[hh];W[ii\\])", None, "closing ]"),
            ("(;GM[4];B[hh])(;GM[4])", None, "one game"),
            ("(;GM[4]AB[zz])", None, "AB[zz]"),
            ("(;GM[4];B)", None, "no value"),
            ("(;GM[4];B[hé])", Some(1), "two letters"),
        ];
        for (text, number, words) in cases {
            let e = read(text).unwrap_err();
            assert_eq!(e.move_number, number, "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }
}
