//! `gameai nboard` driven as a subprocess with scripted NBoard transcripts:
//! ping/pong, `set game` then `go` answering a legal move, `hint` lines,
//! moves, passes, and malformed lines that leave it running.

mod common;

use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use common::engine::EngineProcess;

use gameai::games::{GameKind, PositionSpec};
use gameai::records::{self, Format};

/// The example game of NBoard's protocol description (black to move).
const NBOARD_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

struct Engine {
    p: EngineProcess,
}

impl Engine {
    fn start(max_time_ms: u64) -> Self {
        let p = EngineProcess::spawn(
            Command::new(env!("CARGO_BIN_EXE_gameai"))
                .args(["nboard", "--max-time-ms", &max_time_ms.to_string()])
                .env("NO_COLOR", "1"),
            true,
        );
        let mut engine = Self { p };
        engine.send("nboard 2");
        assert_eq!(engine.line(), "set myname gameai");
        engine
    }

    fn send(&mut self, text: &str) {
        self.p.send(text);
    }

    /// Waits up to `limit` for the process to exit.
    fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        self.p.wait_exit(limit)
    }

    fn line_within(&mut self, limit: Duration) -> String {
        match self.p.out.recv_timeout(limit) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line within {limit:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    fn line(&mut self) -> String {
        self.line_within(Duration::from_secs(30))
    }

    /// Lines up to and including the first that `last` accepts.
    fn lines_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `ping n` and expects `pong n` (after whatever came before).
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let want = format!("pong {n}");
        self.lines_until(|l| l == want)
    }

    /// What the engine said on stderr so far.
    fn complaints(&mut self) -> Vec<String> {
        std::thread::sleep(Duration::from_millis(50));
        self.p
            .err
            .as_ref()
            .expect("stderr is captured")
            .try_iter()
            .collect()
    }

    /// `go`: the move and its whole answer.
    fn go(&mut self) -> (String, Vec<String>) {
        self.send("go");
        let lines = self.lines_until(|l| l.starts_with("=== "));
        let answer = lines.last().unwrap()["=== ".len()..].to_owned();
        let mv = answer.split('/').next().unwrap().to_owned();
        assert_eq!(answer.split('/').count(), 3, "move/eval/time: {answer}");
        for part in answer.split('/').skip(1) {
            part.parse::<f64>()
                .unwrap_or_else(|_| panic!("a number: {answer}"));
        }
        assert_eq!(self.line(), "status", "go ends with a status line");
        (mv, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(Duration::from_secs(5));
        assert!(status.success(), "{status}");
    }
}

/// The legal moves of a GGF game's last position, as NBoard writes them.
fn legal_after(ggf: &str) -> Vec<String> {
    let position = records::parse(Format::Ggf, ggf).unwrap().replay().unwrap();
    nboard_moves(position.describe().legal_moves)
}

fn legal_after_moves(moves: &[&str]) -> Vec<String> {
    let position = GameKind::Othello
        .parse(&PositionSpec {
            moves: Some(moves.iter().map(|m| m.to_string()).collect()),
            ..PositionSpec::default()
        })
        .unwrap();
    nboard_moves(position.describe().legal_moves)
}

fn nboard_moves(moves: Vec<String>) -> Vec<String> {
    moves
        .into_iter()
        .map(|m| {
            if m == "pass" {
                "PA".to_owned()
            } else {
                m.to_ascii_uppercase()
            }
        })
        .collect()
}

#[test]
fn ping_answers_pong_and_learn_answers_learned() {
    let mut engine = Engine::start(2_000);
    assert_eq!(engine.sync(1), ["pong 1"]);
    assert_eq!(engine.sync(42), ["pong 42"]);
    engine.send("learn");
    let lines = engine.lines_until(|l| l == "learned");
    assert!(
        lines.iter().any(|l| l.starts_with("status ")),
        "says learning does nothing: {lines:?}"
    );
    engine.quit();
}

#[test]
fn go_after_set_game_answers_a_legal_move_with_thinking_output() {
    let mut engine = Engine::start(5_000);
    engine.send(&format!("set game {NBOARD_GAME}"));
    engine.send("set depth 6");
    engine.sync(1);
    let (mv, lines) = engine.go();
    let legal = legal_after(NBOARD_GAME);
    assert!(legal.contains(&mv), "{mv} among {legal:?}");
    assert!(lines[0].starts_with("status "), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("search ") && l.ends_with(" 0 6")),
        "thinking output to the set depth: {lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats ")),
        "{lines:?}"
    );
    // go does not play the move: the same position gives the same legal
    // moves, and the GUI's move command plays it.
    engine.send(&format!("move {mv}/0.00/0.1"));
    let (reply, _) = engine.go();
    let after = records::parse(Format::Ggf, NBOARD_GAME)
        .unwrap()
        .replay()
        .map(|mut p| {
            p.play(&mv.to_ascii_lowercase()).unwrap();
            nboard_moves(p.describe().legal_moves)
        })
        .unwrap();
    assert!(after.contains(&reply), "{reply} among {after:?}");
    engine.quit();
}

#[test]
fn hint_streams_several_moves_as_the_search_deepens() {
    let mut engine = Engine::start(10_000);
    engine.send("set depth 5");
    engine.send("move F5");
    engine.send("move d6/0.5/1.2");
    engine.send("C3"); // NBoard 1.1's bare move
    engine.sync(1);
    engine.send("hint 3");
    let lines = engine.lines_until(|l| l == "status");
    assert!(lines[0].starts_with("status "), "{lines:?}");
    let legal = legal_after_moves(&["f5", "d6", "c3"]);
    let mut depths = Vec::new();
    let mut moves = std::collections::HashSet::new();
    for line in lines.iter().filter(|l| l.starts_with("search ")) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(parts.len(), 5, "search pv eval 0 depth: {line}");
        let first = &parts[1][..2];
        assert!(legal.contains(&first.to_owned()), "{line} among {legal:?}");
        parts[2].parse::<f64>().expect("an evaluation");
        assert_eq!(parts[3], "0");
        depths.push(parts[4].parse::<u32>().expect("a depth"));
        moves.insert(first.to_owned());
    }
    assert!(moves.len() >= 3, "three moves: {lines:?}");
    assert!(
        depths.windows(2).all(|w| w[0] <= w[1]) && depths.first() < depths.last(),
        "streamed as the depth grows: {depths:?}"
    );
    assert_eq!(depths.last(), Some(&5));
    engine.quit();
}

#[test]
fn ping_stops_a_long_hint() {
    let mut engine = Engine::start(60_000);
    engine.send("set depth 60");
    engine.send("hint 2");
    assert!(engine.line().starts_with("status "));
    std::thread::sleep(Duration::from_millis(500));
    let pinged = Instant::now();
    let lines = engine.sync(7);
    assert!(
        pinged.elapsed() < Duration::from_secs(2),
        "{:?}",
        pinged.elapsed()
    );
    // The analysis ends before the pong, so the GUI never takes it for the
    // next position's.
    let status = lines.iter().position(|l| l == "status").expect("status");
    assert_eq!(status, lines.len() - 2, "{lines:?}");
    engine.quit();
}

#[test]
fn a_forced_pass_is_answered_pa() {
    let ggf = forced_pass_game();
    assert_eq!(legal_after(&ggf), ["PA"], "the fixture is a forced pass");
    let mut engine = Engine::start(5_000);
    engine.send(&format!("set game {ggf}"));
    engine.send("set depth 8");
    let (mv, _) = engine.go();
    assert_eq!(mv, "PA");
    engine.send("move PA");
    let (reply, _) = engine.go();
    let mut position = records::parse(Format::Ggf, &ggf).unwrap().replay().unwrap();
    position.play("pass").unwrap();
    let legal = nboard_moves(position.describe().legal_moves);
    assert!(legal.contains(&reply), "{reply} among {legal:?}");
    engine.quit();
}

/// A game from a fixed-seed random playout, cut where the side to move
/// must pass.
fn forced_pass_game() -> String {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..1000 {
        let mut position = GameKind::Othello
            .parse(&PositionSpec {
                moves: Some(Vec::new()),
                ..PositionSpec::default()
            })
            .unwrap();
        let mut ggf = String::from("(;GM[Othello]TY[8]");
        let mut black = true;
        loop {
            let legal = position.describe().legal_moves;
            if legal.is_empty() {
                break;
            }
            if legal == ["pass"] {
                return ggf + ";)";
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = &legal[(seed >> 33) as usize % legal.len()];
            position.play(mv).unwrap();
            ggf.push_str(&format!(
                "{}[{}]",
                if black { 'B' } else { 'W' },
                mv.to_ascii_uppercase()
            ));
            black = !black;
        }
    }
    panic!("no forced pass in a thousand random games");
}

#[test]
fn malformed_lines_are_reported_and_the_engine_carries_on() {
    let mut engine = Engine::start(5_000);
    engine.send(&format!("set game {NBOARD_GAME}"));
    engine.sync(1);
    let before = engine.complaints();
    assert!(before.is_empty(), "{before:?}");
    for bad in [
        "set game garbage",
        "set game (;GM[Othello]B[A1];)",
        "set game (;GM[Chess]B[E4];)",
        "set depth deep",
        "set depth -3",
        "set contempt much",
        "move Z9",
        "move A1",
        "hint many",
        "frobnicate",
        "\u{fffd}\u{fffd}",
    ] {
        engine.send(bad);
    }
    assert_eq!(engine.sync(2), ["pong 2"], "nothing on stdout for them");
    let complaints = engine.complaints();
    assert!(
        complaints.len() >= 10,
        "each bad line reported on stderr: {complaints:?}"
    );
    assert!(
        complaints.iter().any(|c| c.contains("move 1")),
        "the illegal record's move is named: {complaints:?}"
    );
    // Nothing changed: the position is still the game's end.
    let (mv, _) = engine.go();
    assert!(legal_after(NBOARD_GAME).contains(&mv), "{mv}");
    engine.quit();
}

#[test]
fn the_end_of_stdin_ends_the_engine() {
    let mut engine = Engine::start(60_000);
    engine.send("set depth 60");
    engine.send("go");
    std::thread::sleep(Duration::from_millis(200));
    engine.p.stdin.take();
    let status = engine.wait_exit(Duration::from_secs(3));
    assert!(status.success(), "{status}");
}
