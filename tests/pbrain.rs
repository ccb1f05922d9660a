//! `gameai pbrain` driven as a subprocess with scripted Piskvork
//! transcripts: the commands a tournament manager sends, malformed lines,
//! moves out of turn or on taken cells, time pressure, renju, and the
//! `pbrain-*` program name.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use common::engine::EngineProcess;

/// A running brain: its stdin, and its stdout lines as they come.
struct Brain {
    p: EngineProcess,
}

impl Brain {
    fn start() -> Self {
        Self::spawn(Command::new(env!("CARGO_BIN_EXE_gameai")).arg("pbrain"))
    }

    fn spawn(command: &mut Command) -> Self {
        Self {
            p: EngineProcess::spawn(command, false),
        }
    }

    fn send(&mut self, text: &str) {
        self.p.send(text);
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.p.send_bytes(bytes);
    }

    /// Waits up to `limit` for the process to exit, and says how.
    fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        self.p.wait_exit(limit)
    }

    /// The next line that is not a MESSAGE or DEBUG line, with the
    /// MESSAGE lines seen before it.
    fn answer_within(&mut self, limit: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + limit;
        let mut messages = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.p.out.recv_timeout(left) {
                Ok(line) if line.starts_with("MESSAGE") || line.starts_with("DEBUG") => {
                    messages.push(line)
                }
                Ok(line) => return (line, messages),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no answer within {limit:?} (messages: {messages:?})")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the brain closed its output (messages: {messages:?})")
                }
            }
        }
    }

    fn answer(&mut self) -> String {
        self.answer_within(Duration::from_secs(20)).0
    }

    /// Sends `command` and expects exactly `want` back.
    fn expect(&mut self, command: &str, want: &str) {
        self.send(command);
        let got = self.answer();
        assert_eq!(got, want, "after {command:?}");
    }

    /// Sends `command` and expects an `ERROR` line back.
    fn expect_error(&mut self, command: &str) -> String {
        self.send(command);
        let got = self.answer();
        assert!(got.starts_with("ERROR "), "after {command:?}: {got:?}");
        got
    }

    /// Sends `command` and reads the brain's move.
    fn play(&mut self, command: &str, size: usize) -> (usize, usize) {
        self.send(command);
        let got = self.answer();
        parse_move(&got, size).unwrap_or_else(|| panic!("after {command:?}: {got:?}"))
    }

    /// Sends a `BOARD` block: (x, y, field) entries.
    fn board(&mut self, word: &str, entries: &[(usize, usize, u8)]) {
        self.send(word);
        for (x, y, f) in entries {
            self.send(&format!("{x},{y},{f}"));
        }
        self.send("DONE");
    }

    /// Sends `END` and waits for the process to exit.
    fn end(mut self) {
        self.send("END");
        let status = self.wait_exit(Duration::from_secs(5));
        assert!(status.success(), "{status}");
    }
}

/// `x,y` on an n×n board.
fn parse_move(text: &str, size: usize) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    let (x, y) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < size && y < size).then_some((x, y))
}

fn started(size: usize, turn_ms: u64) -> Brain {
    let mut brain = Brain::start();
    brain.expect(&format!("START {size}"), "OK");
    brain.send(&format!("INFO timeout_turn {turn_ms}"));
    brain.send("INFO timeout_match 0");
    brain.send("INFO max_memory 67108864");
    brain.send("INFO game_type 1");
    brain.send("INFO rule 0");
    brain
}

#[test]
fn about_names_the_engine_and_start_takes_the_supported_sizes() {
    let mut brain = Brain::start();
    brain.send("ABOUT");
    let about = brain.answer();
    assert!(about.contains("name=\"gameai\""), "{about}");
    assert!(about.contains("version=\""), "{about}");
    assert!(about.contains("author=\""), "{about}");
    for size in [15, 19, 20] {
        brain.expect(&format!("START {size}"), "OK");
    }
    for bad in [
        "START 10",
        "START 25",
        "START",
        "START x",
        "RECTSTART 15,20",
    ] {
        let error = brain.expect_error(bad);
        assert!(error.len() > 10, "a reason: {error}");
    }
    brain.expect("RECTSTART 20,20", "OK");
    brain.expect("RECTSTART 15,15", "OK");
    brain.end();
}

#[test]
fn a_game_of_begin_and_turns_gets_legal_moves_and_messages() {
    let mut brain = started(15, 300);
    brain.send("BEGIN");
    let (first, messages) = brain.answer_within(Duration::from_secs(5));
    let mut taken = vec![parse_move(&first, 15).expect(&first)];
    assert!(
        messages.iter().any(|m| m.starts_with("MESSAGE depth 1 ")),
        "one line per depth: {messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("nodes") && m.contains("pv")),
        "a summary: {messages:?}"
    );
    // The opponent plays the first free cell of the top row each time.
    for _ in 0..6 {
        let theirs = (0..15)
            .map(|x| (x, 0))
            .find(|c| !taken.contains(c))
            .unwrap();
        taken.push(theirs);
        let ours = brain.play(&format!("TURN {},{}", theirs.0, theirs.1), 15);
        assert!(!taken.contains(&ours), "{ours:?} was taken: {taken:?}");
        taken.push(ours);
    }
    brain.end();
}

#[test]
fn board_positions_are_won_and_defended() {
    let mut brain = started(15, 500);
    // Ours (black, as the counts are equal): four in a row with both ends
    // open; we complete five.
    brain.board(
        "BOARD",
        &[
            (3, 7, 1),
            (3, 8, 2),
            (4, 7, 1),
            (4, 8, 2),
            (5, 7, 1),
            (5, 8, 2),
            (6, 7, 1),
            (0, 0, 2),
        ],
    );
    let win = parse_move(&brain.answer(), 15).unwrap();
    assert!(win == (7, 7) || win == (2, 7), "{win:?}");

    // Theirs: a four we must block at its one open end.
    brain.expect("RESTART", "OK");
    brain.board(
        "BOARD",
        &[
            (2, 10, 1),
            (3, 10, 2),
            (0, 0, 1),
            (4, 10, 2),
            (14, 0, 1),
            (5, 10, 2),
            (0, 14, 1),
            (6, 10, 2),
        ],
    );
    assert_eq!(parse_move(&brain.answer(), 15), Some((7, 10)));

    // White to move (the opponent has one stone more), in any order.
    brain.expect("RESTART", "OK");
    brain.board("BOARD", &[(7, 7, 2)]);
    let reply = parse_move(&brain.answer(), 15).unwrap();
    assert_ne!(reply, (7, 7));
    brain.end();
}

#[test]
fn takeback_restart_and_yxboard_change_the_position() {
    let mut brain = started(15, 200);
    let first = brain.play("BEGIN", 15);
    let (tx, ty) = if first == (0, 0) { (1, 0) } else { (0, 0) };
    let second = brain.play(&format!("TURN {tx},{ty}"), 15);
    brain.expect(&format!("TAKEBACK {},{}", second.0, second.1), "OK");
    brain.expect(&format!("TAKEBACK {tx},{ty}"), "OK");
    // Gone: a second takeback of the same cell is refused.
    brain.expect_error(&format!("TAKEBACK {tx},{ty}"));
    // The cells are free again: the opponent may play where we had.
    let reply = brain.play(&format!("TURN {},{}", second.0, second.1), 15);
    assert_ne!(reply, second);
    assert_ne!(reply, first);

    brain.expect("RESTART", "OK");
    let again = brain.play("BEGIN", 15);
    assert!(again.0 < 15 && again.1 < 15);

    // YXBOARD sets a position and answers nothing; HINT searches it
    // without playing.
    brain.expect("RESTART", "OK");
    brain.board("YXBOARD", &[(7, 7, 2), (8, 8, 1), (6, 6, 2)]);
    brain.send("HINT");
    let hint = brain.answer();
    let cell = hint
        .strip_prefix("SUGGEST ")
        .and_then(|m| parse_move(m, 15))
        .unwrap_or_else(|| panic!("{hint}"));
    // Not played: the cell is still free for PLAY.
    let cell = format!("{},{}", cell.0, cell.1);
    brain.expect(&format!("PLAY {cell}"), &cell);
    brain.end();
}

#[test]
fn malformed_lines_are_refused_and_the_brain_carries_on() {
    let mut brain = Brain::start();
    // Nothing started yet.
    brain.expect_error("BEGIN");
    brain.expect_error("TURN 7,7");
    brain.expect_error("TAKEBACK 7,7");
    brain.expect("START 15", "OK");
    for bad in [
        "TURN",
        "TURN 7",
        "TURN a,b",
        "TURN 15,3",
        "TURN -1,3",
        "TURN 3;4",
        "TAKEBACK 7,7",
        "INFO timeout_turn soon",
        "INFO rule -1",
        "INFO rule 8",
    ] {
        brain.expect_error(bad);
    }
    brain.send("FOO BAR");
    assert_eq!(brain.answer(), "UNKNOWN FOO BAR");
    // A BOARD with a bad line, a third field or stones twice.
    brain.board("BOARD", &[(7, 7, 2)]);
    let reply = brain.answer();
    assert!(parse_move(&reply, 15).is_some(), "{reply}");
    brain.expect("RESTART", "OK");
    brain.send("BOARD");
    brain.send("7,7");
    brain.send("DONE");
    brain
        .answer()
        .starts_with("ERROR ")
        .then_some(())
        .expect("BOARD 7,7");
    brain.board("BOARD", &[(7, 7, 3)]);
    assert!(brain.answer().starts_with("ERROR "));
    brain.board("BOARD", &[(7, 7, 1), (7, 7, 2)]);
    assert!(brain.answer().starts_with("ERROR "));
    // Impossible counts, and our stone more when we are to move.
    brain.board("BOARD", &[(1, 1, 2), (2, 2, 2)]);
    assert!(brain.answer().starts_with("ERROR "));
    brain.board("BOARD", &[(1, 1, 1)]);
    assert!(brain.answer().starts_with("ERROR "));
    // Bytes that are not UTF-8 are a line like any other.
    brain.send_bytes(b"\xff\xfe TURN\n");
    assert!(brain.answer().starts_with("UNKNOWN "));
    // Still playing.
    brain.expect("RESTART", "OK");
    let mv = brain.play("BEGIN", 15);
    assert!(mv.0 < 15);
    brain.end();
}

#[test]
fn occupied_and_out_of_turn_moves_are_refused() {
    let mut brain = started(15, 200);
    let first = brain.play("BEGIN", 15);
    let error = brain.expect_error(&format!("TURN {},{}", first.0, first.1));
    assert!(error.contains("taken"), "{error}");
    // The refused move changed nothing: a free cell is still accepted.
    let free = if first == (0, 0) { (1, 1) } else { (0, 0) };
    let reply = brain.play(&format!("TURN {},{}", free.0, free.1), 15);
    assert_ne!(reply, first);

    // A position where it is our move: a TURN for the opponent is out of
    // turn, and BEGIN needs an empty board.
    brain.expect("RESTART", "OK");
    brain.board("YXBOARD", &[(7, 7, 1), (8, 8, 2)]);
    let error = brain.expect_error("TURN 3,3");
    assert!(error.contains("our move"), "{error}");
    brain.expect_error("BEGIN");
    // PLAY puts our stone and echoes it.
    brain.expect("PLAY 6,6", "6,6");
    let reply = brain.play("TURN 3,3", 15);
    assert!(![(7, 7), (8, 8), (6, 6), (3, 3)].contains(&reply));
    brain.end();
}

#[test]
fn a_finished_game_is_not_searched() {
    let mut brain = started(15, 200);
    brain.board(
        "YXBOARD",
        &[
            (3, 7, 2),
            (3, 8, 1),
            (4, 7, 2),
            (4, 8, 1),
            (5, 7, 2),
            (5, 8, 1),
            (6, 7, 2),
            (0, 0, 1),
        ],
    );
    // We look away, and the opponent completes five: there is nothing
    // left to play.
    brain.expect("PLAY 14,14", "14,14");
    let error = brain.expect_error("TURN 7,7");
    assert!(error.contains("over"), "{error}");
    brain.end();
}

/// A quiet middle game on 15×15 (x, y, field), ours (black) to move: the
/// first 24 moves of the first VCF puzzle of the reference set, long
/// before its win.
const MIDDLE_GAME: &[(usize, usize, u8)] = &[
    (7, 7, 1),
    (7, 6, 2),
    (7, 5, 1),
    (6, 6, 2),
    (8, 6, 1),
    (9, 7, 2),
    (9, 5, 1),
    (6, 8, 2),
    (6, 7, 1),
    (8, 5, 2),
    (10, 4, 1),
    (11, 3, 2),
    (9, 4, 1),
    (9, 2, 2),
    (11, 4, 1),
    (12, 4, 2),
    (10, 5, 1),
    (10, 6, 2),
    (11, 5, 1),
    (12, 6, 2),
    (11, 6, 1),
    (12, 7, 2),
    (12, 3, 1),
    (9, 6, 2),
];

#[test]
fn a_short_turn_time_is_kept() {
    let mut brain = started(15, 50);
    for round in 0..5 {
        brain.expect("RESTART", "OK");
        brain.board("BOARD", MIDDLE_GAME);
        let sent = Instant::now();
        let (answer, messages) = brain.answer_within(Duration::from_secs(2));
        let took = sent.elapsed();
        assert!(parse_move(&answer, 15).is_some(), "{answer}");
        // A search that ran out of time, not a quick proof.
        assert!(
            messages.iter().any(|m| m.contains("stopped time")),
            "{messages:?}"
        );
        // 50 ms per move, and a little for a loaded machine.
        assert!(
            took < Duration::from_millis(50 + 60),
            "round {round}: {took:?}"
        );
    }
    // Play as fast as possible.
    brain.send("INFO timeout_turn 0");
    brain.expect("RESTART", "OK");
    brain.board("BOARD", MIDDLE_GAME);
    let sent = Instant::now();
    brain.answer_within(Duration::from_secs(2));
    assert!(
        sent.elapsed() < Duration::from_millis(80),
        "{:?}",
        sent.elapsed()
    );
    brain.end();
}

#[test]
fn little_match_time_left_plays_fast() {
    let mut brain = started(20, 10_000);
    brain.send("INFO timeout_match 600000");
    brain.send("INFO time_left 400");
    brain.board("BOARD", MIDDLE_GAME);
    let sent = Instant::now();
    let (answer, _) = brain.answer_within(Duration::from_secs(5));
    assert!(parse_move(&answer, 20).is_some(), "{answer}");
    assert!(
        sent.elapsed() < Duration::from_millis(100),
        "{:?}",
        sent.elapsed()
    );
    brain.end();
}

#[test]
fn yxstop_answers_at_once() {
    let mut brain = started(15, 20_000);
    brain.board("BOARD", MIDDLE_GAME);
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    brain.send("YXSTOP");
    let (answer, messages) = brain.answer_within(Duration::from_secs(5));
    assert!(parse_move(&answer, 15).is_some(), "{answer}");
    assert!(
        stopped.elapsed() < Duration::from_millis(500),
        "{:?}",
        stopped.elapsed()
    );
    assert!(!messages.is_empty());
    brain.end();
}

#[test]
fn renju_forbidden_points_are_listed_and_never_played() {
    let mut brain = started(15, 300);
    brain.send("INFO rule 4");
    // Black (ours: the counts are equal) has two twos crossing at 7,7:
    // a stone there is a double three, forbidden.
    let position = [
        (5, 7, 1),
        (0, 0, 2),
        (6, 7, 1),
        (14, 0, 2),
        (7, 5, 1),
        (0, 14, 2),
        (7, 6, 1),
        (14, 14, 2),
    ];
    brain.board("YXBOARD", &position);
    brain.send("YXSHOWFORBID");
    let forbid = brain.answer();
    assert!(
        forbid.starts_with("FORBID ") && forbid.ends_with('.'),
        "{forbid}"
    );
    assert!(forbid.contains("0707"), "{forbid}");
    brain.send("HINT");
    let hint = brain.answer();
    assert!(
        hint.starts_with("SUGGEST ") && hint != "SUGGEST 7,7",
        "{hint}"
    );
    // Under freestyle the same point is allowed and listed nowhere.
    brain.send("INFO rule 0");
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.answer(), "FORBID .");
    brain.send("INFO rule 4");
    brain.send("YXSHOWFORBID");
    assert!(brain.answer().contains("0707"));
    // Black's forbidden move from the opponent is refused. Black is theirs
    // now (one stone more), and to move after ours.
    brain.expect("RESTART", "OK");
    let mut theirs: Vec<_> = position.iter().map(|&(x, y, f)| (x, y, 3 - f)).collect();
    theirs.push((10, 12, 2));
    brain.board("YXBOARD", &theirs);
    brain.expect("PLAY 13,13", "13,13");
    let error = brain.expect_error("TURN 7,7");
    assert!(error.contains("forbidden"), "{error}");
    let reply = brain.play("TURN 8,9", 15);
    assert_ne!(reply, (8, 9));
    // Renju is 15×15 only: a larger board starts freestyle, and says so.
    brain.send("START 20");
    let (ok, messages) = brain.answer_within(Duration::from_secs(5));
    assert_eq!(ok, "OK");
    assert!(
        messages.iter().any(|m| m.contains("freestyle")),
        "{messages:?}"
    );
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.answer(), "FORBID .");
    brain.expect_error("INFO rule 4");
    brain.end();
}

#[test]
fn a_copy_named_pbrain_speaks_the_protocol_without_arguments() {
    let dir = std::env::temp_dir().join(format!("gameai-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("pbrain-gameai");
    let _ = std::fs::remove_file(&exe);
    link_or_copy(Path::new(env!("CARGO_BIN_EXE_gameai")), &exe);
    let mut brain = Brain::spawn(&mut Command::new(&exe));
    brain.expect("START 20", "OK");
    brain.send("INFO timeout_turn 200");
    let mv = brain.play("BEGIN", 20);
    assert!(mv.0 < 20 && mv.1 < 20);
    brain.end();
    let _ = std::fs::remove_dir_all(&dir);
}

fn link_or_copy(from: &Path, to: &Path) {
    #[cfg(unix)]
    if std::os::unix::fs::symlink(from, to).is_ok() {
        return;
    }
    std::fs::copy(from, to).unwrap();
}

#[test]
fn the_end_of_stdin_ends_the_brain() {
    let mut brain = started(15, 20_000);
    brain.board("BOARD", MIDDLE_GAME);
    std::thread::sleep(Duration::from_millis(100));
    brain.p.stdin.take();
    let status = brain.wait_exit(Duration::from_secs(3));
    assert!(status.success(), "{status}");
}

#[test]
fn thread_num_sets_the_threads_of_each_search() {
    for threads in ["1", "2"] {
        let mut brain = started(15, 1_000);
        brain.send(&format!("INFO thread_num {threads}"));
        brain.send("INFO max_depth 6");
        brain.send("BOARD");
        for stone in ["7,7,1", "8,8,2", "6,6,1", "8,6,2"] {
            brain.send(stone);
        }
        brain.send("DONE");
        let (answer, messages) = brain.answer_within(Duration::from_secs(20));
        assert!(parse_move(&answer, 15).is_some(), "{answer}");
        assert!(
            messages.iter().any(|m| m.starts_with("MESSAGE depth 6 ")),
            "{threads} threads reach the depth: {messages:?}"
        );
        brain.end();
    }
    let mut brain = started(15, 300);
    let error = brain.expect_error("INFO thread_num many");
    assert!(error.contains("thread_num"), "{error}");
    brain.end();
}
