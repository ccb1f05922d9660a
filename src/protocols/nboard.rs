//! The NBoard protocol for othello, on stdin/stdout: how the NBoard GUI
//! (and the engines it hosts, Edax and NTest) talk.
//!
//! The GUI sends `nboard 2`, `set depth N`, `set game <GGF>`, `move
//! F5/eval/time`, then `hint N` (the engine streams `search <pv> <eval> 0
//! <depth>` lines for its best moves as the search deepens, and ends with
//! `status`) or `go` (the engine answers `=== F5/eval/time`, and does not
//! play the move: the GUI sends it back with `move`). `ping N` stops any
//! search and answers `pong N`. Evaluations are in discs, from the side to
//! move. A line the engine cannot follow is reported on stderr and
//! ignored, as the protocol asks.

use std::io;
use std::time::{Duration, Instant};

use super::{Input, Line, NboardArgs, say};
use crate::games::lines::{self, Line as Scored};
use crate::games::othello::Othello;
use crate::games::{
    Game, GameKind, Position, PositionSpec, ProvenView, SearchReport, Status, Stopped,
};
use crate::plan::Plan;
use crate::records::{self, Format};
use crate::search::{Progress, ProgressSink, StopFlag, WIN_THRESHOLD, Workspace};

/// Words that stop a running search as soon as they are read.
const STOP_WORDS: &[&str] = &["ping", "quit"];
/// The midgame depth before the GUI sets one.
const DEFAULT_DEPTH: u32 = 12;
/// The deepest a search goes: the whole game.
const MAX_DEPTH: u32 = 60;
/// The engine's evaluation units per disc: a disc is worth about a hundred.
const UNITS_PER_DISC: f64 = 100.0;

/// Speaks NBoard on stdin/stdout until `quit` or the end of stdin.
pub fn run(args: &NboardArgs) -> io::Result<()> {
    let input = Input::spawn(STOP_WORDS);
    let mut engine = Engine::new(args);
    while let Some(line) = input.next() {
        if engine.handle(&line, &input)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct Engine {
    position: Position,
    /// Midgame depth (`set depth`); the endgame is solved when in reach.
    depth: u32,
    /// The longest a `go` or `hint` thinks.
    max_time: Duration,
    /// Threads per search (`--threads`).
    threads: usize,
    ws: Workspace,
}

impl Engine {
    fn new(args: &NboardArgs) -> Self {
        Self {
            position: start_position(),
            depth: DEFAULT_DEPTH,
            max_time: Duration::from_millis(args.max_time_ms),
            threads: args.threads as usize,
            ws: GameKind::workspace(args.table_bytes()),
        }
    }

    fn handle(&mut self, line: &Line, input: &Input) -> io::Result<Flow> {
        let text = line.text.trim();
        let (word, rest) = split_word(text);
        let rest = rest.trim();
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "nboard" => {
                if rest.parse::<u32>().is_err() {
                    complain(format!(
                        "nboard {rest:?}: expected a protocol version number"
                    ));
                }
                // Made now, so the first search does not pay for them.
                Othello::prepare(&mut self.ws);
                say("set myname gameai")?;
            }
            "set" => self.set(rest),
            "move" => self.play(rest),
            "go" => self.go(line.at, input)?,
            "hint" => self.hint(rest, line.at, input)?,
            "ping" => say(format!("pong {rest}"))?,
            "learn" => {
                say("status gameai keeps no opening book: nothing was learned")?;
                say("learned")?;
            }
            "quit" => return Ok(Flow::Quit),
            // NBoard 1.1 sent a bare move ("F5") for "move F5".
            _ if is_move(word) && rest.is_empty() => self.play(word),
            _ => complain(format!("unknown command {text:?}: ignored")),
        }
        Ok(Flow::Continue)
    }

    /// `set depth N`, `set game <GGF>`, `set contempt N`; other settings
    /// are ignored.
    fn set(&mut self, rest: &str) {
        let (name, value) = split_word(rest);
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if depth > 0 => self.depth = depth.min(MAX_DEPTH),
                _ => complain(format!(
                    "set depth {value:?}: expected a depth of 1 or more"
                )),
            },
            "game" => match records::parse(Format::Ggf, value).and_then(|r| r.replay()) {
                Ok(position) if position.kind() == GameKind::Othello => self.position = position,
                Ok(_) => complain("set game: not an othello game"),
                Err(e) => complain(format!("set game: {e}; the position is unchanged")),
            },
            // The search scores a draw as 0 and has no contempt to set.
            "contempt" => {
                if value.parse::<f64>().is_err() {
                    complain(format!("set contempt {value:?}: expected a number"));
                }
            }
            _ => tracing::debug!(setting = name, "unknown setting ignored"),
        }
    }

    /// `move F5/eval/time` (eval and time optional; `PA` passes).
    fn play(&mut self, rest: &str) {
        let square = rest.split('/').next().unwrap_or_default().trim();
        let notation = if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
            "pass".to_owned()
        } else {
            square.to_ascii_lowercase()
        };
        if let Err(e) = self.position.play(&notation) {
            complain(format!("move {rest:?}: {e}; the position is unchanged"));
        }
    }

    /// A search of the position `depth` plies deep within the time cap.
    fn plan(&self, depth: u32) -> Plan {
        Plan::plain(self.position.clone(), depth, self.max_time, None).with_threads(self.threads)
    }

    /// `go`: the move to play, with thinking output as the search deepens.
    /// The move is not played: the GUI sends it back with `move`.
    fn go(&mut self, at: Instant, input: &Input) -> io::Result<()> {
        if self.position.describe().status != Status::Ongoing {
            complain("go: the game is over, there is no move to make");
            return say("status the game is over");
        }
        say("status gameai is thinking")?;
        let stop = StopFlag::new();
        let thinking = input.thinking(&stop);
        let sink = ProgressSink::new(|p: Progress| {
            // A proof's disc count comes with the answer.
            if p.score.abs() < WIN_THRESHOLD {
                let _ = say(format!(
                    "search {} {:.2} 0 {}",
                    pv_text(&p.pv),
                    p.score as f64 / UNITS_PER_DISC,
                    p.depth
                ));
            }
        });
        let plan = self.plan(self.depth);
        let limits = plan.limits_from(at, &stop, Some(sink));
        let report = self.position.search(&limits, &mut self.ws);
        drop(thinking);
        let seconds = at.elapsed().as_secs_f64();
        say(format!("nodestats {} {seconds:.2}", report.nodes))?;
        say(format!(
            "=== {}/{:.2}/{seconds:.1}",
            square_text(&report.best_move.notation),
            discs(&report)
        ))?;
        say("status")
    }

    /// `hint N`: the best N moves with their values, again at each depth
    /// until the set depth, the time cap or a `ping`; then `status`.
    fn hint(&mut self, rest: &str, at: Instant, input: &Input) -> io::Result<()> {
        let wanted = match rest.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                complain(format!("hint {rest:?}: expected a number of moves"));
                return Ok(());
            }
        };
        let moves = self.position.describe().legal_moves;
        if moves.is_empty() {
            complain("hint: the game is over, there is nothing to evaluate");
            return say("status");
        }
        say("status gameai is thinking")?;
        let stop = StopFlag::new();
        let thinking = input.thinking(&stop);
        // A line of depth d is its move and a search d - 1 deep.
        for depth in 2..=self.depth.max(2) {
            let limits = self.plan(depth).limits_from(at, &stop, None);
            let scored = lines::search_lines(&self.position, &moves, &limits, &mut self.ws, |_| {});
            let cut = scored
                .iter()
                .any(|l| l.stopped != Stopped::Depth && l.stopped != Stopped::Proven);
            // A cut-short pass mixes depths: only the first one is shown
            // anyway, so there is always an answer.
            if cut && depth > 2 {
                break;
            }
            for line in scored.iter().take(wanted) {
                say(search_line(line))?;
            }
            if cut || scored.iter().all(|l| l.proven.is_some()) {
                break;
            }
        }
        drop(thinking);
        say("status")
    }
}

/// The standard start, black to move.
fn start_position() -> Position {
    GameKind::Othello
        .parse(&PositionSpec {
            moves: Some(Vec::new()),
            ..PositionSpec::default()
        })
        .expect("the start position reads")
}

/// One `search <pv> <eval> 0 <depth>` line.
fn search_line(line: &Scored) -> String {
    let eval = match line.proven {
        Some(p) => proven_discs(p),
        None => line.score as f64 / UNITS_PER_DISC,
    };
    format!("search {} {eval:.2} 0 {}", pv_text(&line.pv), line.depth)
}

/// The answer's value in discs for the side to move.
fn discs(report: &SearchReport) -> f64 {
    match report.proven {
        Some(p) => proven_discs(p),
        None => report.score as f64 / UNITS_PER_DISC,
    }
}

fn proven_discs(p: ProvenView) -> f64 {
    let sign = match p.result {
        crate::games::Outcome::Win => 1,
        crate::games::Outcome::Draw => 0,
        crate::games::Outcome::Loss => -1,
    };
    f64::from(p.disc_diff.unwrap_or(64 * sign))
}

/// A square as NBoard writes it: `F5`, or `PA` for a pass.
fn square_text(notation: &str) -> String {
    if notation == "pass" {
        "PA".to_owned()
    } else {
        notation.to_ascii_uppercase()
    }
}

/// A line without spaces, as the protocol requires: `F5-D6-PA`.
fn pv_text(pv: &[String]) -> String {
    pv.iter()
        .map(|m| square_text(m))
        .collect::<Vec<_>>()
        .join("-")
}

/// True for a square such as `F5` or `pa`.
fn is_move(word: &str) -> bool {
    let b = word.as_bytes();
    word.eq_ignore_ascii_case("pa")
        || (b.len() == 2
            && matches!(b[0].to_ascii_lowercase(), b'a'..=b'h')
            && matches!(b[1], b'1'..=b'8'))
}

/// The first word and the rest.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

/// Reports a line the engine could not follow on stderr (NBoard keeps the
/// engine's stderr in its log); the session goes on.
fn complain(message: impl std::fmt::Display) {
    tracing::warn!("nboard: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_lines_are_written_as_nboard_reads_them() {
        assert_eq!(square_text("f5"), "F5");
        assert_eq!(square_text("pass"), "PA");
        assert_eq!(
            pv_text(&["f5".into(), "d6".into(), "pass".into()]),
            "F5-D6-PA"
        );
        assert!(is_move("F5") && is_move("a1") && is_move("PA"));
        assert!(!is_move("i1") && !is_move("a9") && !is_move("go") && !is_move("F55"));
    }

    #[test]
    fn proven_values_are_exact_disc_counts() {
        let p = ProvenView {
            result: crate::games::Outcome::Win,
            plies: 3,
            disc_diff: Some(12),
        };
        assert_eq!(proven_discs(p), 12.0);
        assert_eq!(
            proven_discs(ProvenView {
                disc_diff: None,
                ..p
            }),
            64.0
        );
    }
}
