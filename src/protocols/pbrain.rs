//! The Gomocup (Piskvork) "pbrain" protocol for gomoku, on stdin/stdout.
//!
//! The manager sends one command a line (`START 15`, `INFO timeout_turn
//! 1000`, `BEGIN`, `TURN 7,8`, `BOARD` … `DONE`, `TAKEBACK 7,8`, `END`);
//! coordinates are `x,y` from the top-left, 0-based, `x` the column. The
//! brain answers its move as `x,y`, `OK` where the protocol wants it,
//! `ERROR …` for a command it cannot follow and `UNKNOWN …` for one it does
//! not know, and talks while thinking in `MESSAGE` lines (one per completed
//! depth, and a summary before the move).
//!
//! Besides the standard commands it takes a few that board programs
//! (Yixin-Board) send: `YXBOARD` … `DONE` sets a position without
//! thinking, `YXSHOWFORBID` lists black's renju forbidden points,
//! `YXSTOP`/`STOP` answer at once from the last completed depth; and two of
//! its own: `HINT` searches the position without playing (`SUGGEST x,y`),
//! and `PLAY x,y` plays the given move for the brain.

use std::io;
use std::time::{Duration, Instant};

use super::{Input, Line, PbrainArgs, say};
use crate::games::gomoku::{Gomoku, Rules, SIZES};
use crate::games::notation::{cell_name, parse_cell};
use crate::games::{Game, GameKind, Outcome, Player, Position, PositionSpec, SearchReport};
use crate::plan::Plan;
use crate::search::{GameClock, Progress, ProgressSink, StopFlag, WIN, WIN_THRESHOLD, Workspace};

/// Words that stop a running search as soon as they are read.
const STOP_WORDS: &[&str] = &["STOP", "YXSTOP", "END"];

/// What `ABOUT` answers.
const ABOUT: &str = concat!(
    "name=\"gameai\", version=\"",
    env!("CARGO_PKG_VERSION"),
    "\", author=\"the gameai authors\", country=\"-\""
);

/// Speaks pbrain on stdin/stdout until `END` or the end of stdin.
pub fn run(args: &PbrainArgs) -> io::Result<()> {
    let input = Input::spawn(STOP_WORDS);
    let mut brain = Brain::new(args.table_bytes(), args.threads as usize);
    while let Some(line) = input.next() {
        if brain.handle(&line, &input)? == Flow::End {
            break;
        }
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    End,
}

/// Piskvork's number for "no limit" in `time_left`.
const UNLIMITED_MS: u64 = 2_147_483_647;
/// The turn time a brain assumes before the manager says otherwise.
const DEFAULT_TURN_MS: u64 = 5_000;
/// The thinking time of `timeout_turn 0` ("play as fast as possible").
const FAST_MS: u64 = 10;
/// Kept back from every budget: the search's last poll, the answer's
/// trip through the pipe, the manager's own clock. Matches on a loaded
/// 2-core machine measured up to 20 ms from the deadline to the answer
/// leaving, and 15 ms more until the manager read it.
const LATENCY_MS: u64 = 30;
/// The part of the turn time kept back (at most [`TURN_MARGIN_CAP_MS`]),
/// for a loaded machine.
const TURN_MARGIN_DIVISOR: u64 = 10;
const TURN_MARGIN_CAP_MS: u64 = 250;

/// The time the manager gives (its `INFO timeout_*` and `time_left`): a
/// limit per turn, and the match clock, which shares itself out as every
/// game clock does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Timeouts {
    /// Per move; 0 means play as fast as possible.
    turn_ms: u64,
    /// The whole match; 0 means no limit.
    match_ms: u64,
    /// What is left of the match: the manager's last word, less what our
    /// moves have used since.
    left: GameClock,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            turn_ms: DEFAULT_TURN_MS,
            match_ms: 0,
            left: GameClock {
                time_left_ms: UNLIMITED_MS,
                ..GameClock::default()
            },
        }
    }
}

impl Timeouts {
    /// How long the next move may think with `empties` cells free: within
    /// the turn time and the match clock's share for a move, each less a
    /// safety margin.
    fn budget(&self, empties: usize) -> Duration {
        let mut ms = match self.turn_ms {
            0 => FAST_MS,
            turn => turn
                .saturating_sub((turn / TURN_MARGIN_DIVISOR).min(TURN_MARGIN_CAP_MS) + LATENCY_MS),
        };
        let left = self.left.time_left_ms;
        if self.match_ms > 0 && left < UNLIMITED_MS {
            // Games rarely last to the last cell: about a move for every
            // eight empty cells, between 8 and 25 moves still to play.
            let clock = GameClock {
                time_left_ms: left.saturating_sub(left / 20 + LATENCY_MS),
                increment_ms: 0,
                moves_to_go: Some((empties as u64 / 8).clamp(8, 25)),
            };
            ms = ms.min(clock.move_budget_ms());
        }
        Duration::from_millis(ms.max(1))
    }

    /// Counts a move's thinking against the match time.
    fn spend(&mut self, elapsed: Duration) {
        if self.left.time_left_ms < UNLIMITED_MS {
            self.left = self.left.after_move(elapsed.as_millis() as u64);
        }
    }
}

/// The brain's state between commands.
struct Brain {
    /// The board's side; `None` until `START`.
    size: Option<usize>,
    rules: Rules,
    /// The stones in the order they came: row, column, colour.
    stones: Vec<(usize, usize, Player)>,
    position: Gomoku,
    /// Our colour, once known (we moved, or a `BOARD` said).
    own: Option<Player>,
    clock: Timeouts,
    /// Deepest iteration (`INFO max_depth`).
    depth: u32,
    /// Node budget per move (`INFO max_node`).
    nodes: Option<u64>,
    /// The table budget from the command line (`--tt-mb`).
    table_budget: usize,
    /// `INFO max_memory` in bytes; 0 means no limit.
    max_memory: u64,
    /// Threads per search (`--threads`, `INFO thread_num`).
    threads: usize,
    ws: Workspace,
}

impl Brain {
    fn new(table_budget: usize, threads: usize) -> Self {
        Self {
            size: None,
            rules: Rules::Freestyle,
            stones: Vec::new(),
            position: Gomoku::new(15, Rules::Freestyle),
            own: None,
            clock: Timeouts::default(),
            depth: crate::games::gomoku::MAX_DEPTH,
            nodes: None,
            table_budget,
            max_memory: 0,
            threads,
            ws: GameKind::workspace(table_budget),
        }
    }

    fn handle(&mut self, line: &Line, input: &Input) -> io::Result<Flow> {
        let text = line.text.trim();
        let (word, rest) = split_word(text);
        match word.to_ascii_uppercase().as_str() {
            "" | "STOP" | "YXSTOP" => {} // Nothing runs between commands.
            "END" => return Ok(Flow::End),
            "ABOUT" => say(ABOUT)?,
            "START" => self.start(rest)?,
            "RECTSTART" => self.rectstart(rest)?,
            "RESTART" => match self.size {
                Some(size) => {
                    self.new_game(size);
                    say("OK")?;
                }
                None => no_game()?,
            },
            "INFO" => self.info(rest)?,
            "BEGIN" => self.begin(line.at, input)?,
            "TURN" => self.turn(rest, line.at, input)?,
            "BOARD" => self.board(input, true)?,
            "YXBOARD" => self.board(input, false)?,
            "TAKEBACK" => self.takeback(rest)?,
            "PLAY" => self.play_given(rest)?,
            "HINT" => {
                if self.ready()? {
                    self.think(line.at, input, false)?;
                }
            }
            "YXSHOWFORBID" => self.show_forbidden()?,
            _ => say(format!("UNKNOWN {text}"))?,
        }
        Ok(Flow::Continue)
    }

    /// `START n`: a new game on an n×n board.
    fn start(&mut self, rest: &str) -> io::Result<()> {
        match rest.trim().parse::<usize>() {
            Ok(n) if SIZES.contains(&n) => self.open(n),
            Ok(n) => error(format!(
                "unsupported size {n}: gameai plays 15×15, 19×19 and 20×20"
            )),
            Err(_) => error(format!(
                "START needs a board size (15, 19 or 20), got {rest:?}"
            )),
        }
    }

    /// `RECTSTART w,h`: only square boards of a size we play.
    fn rectstart(&mut self, rest: &str) -> io::Result<()> {
        match parse_pair(rest) {
            Some((w, h)) if w == h && SIZES.contains(&w) => self.open(w),
            Some((w, h)) => error(format!(
                "unsupported board {w}×{h}: gameai plays square boards of 15, 19 and 20"
            )),
            None => error(format!("RECTSTART needs width,height, got {rest:?}")),
        }
    }

    fn open(&mut self, size: usize) -> io::Result<()> {
        if self.rules == Rules::Renju && size != 15 {
            self.rules = Rules::Freestyle;
            say(format!(
                "MESSAGE renju is played on 15×15 only: {size}×{size} starts as freestyle"
            ))?;
        }
        self.new_game(size);
        self.prepare_tables();
        say("OK")
    }

    fn new_game(&mut self, size: usize) {
        self.size = Some(size);
        self.stones.clear();
        self.own = None;
        self.position = Gomoku::new(size, self.rules);
    }

    /// The search tables, made now so that no move pays for them inside
    /// its time: half of `max_memory` at most, the rest being the
    /// program and its boards. Only gomoku's part of the workspace is
    /// ever made in this process.
    fn prepare_tables(&mut self) {
        let parts = self.ws.parts();
        let mut part = self.table_budget / parts;
        if self.max_memory > 0 {
            part = part.min(usize::try_from(self.max_memory / 2).unwrap_or(usize::MAX));
        }
        let budget = part * parts;
        if self.ws.budget() != budget {
            self.ws = GameKind::workspace(budget);
        }
        Gomoku::prepare(&mut self.ws);
    }

    /// `INFO key value`: the manager's settings. Unknown keys are ignored,
    /// as the protocol asks.
    fn info(&mut self, rest: &str) -> io::Result<()> {
        let (key, value) = split_word(rest);
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        let number = || value.parse::<u64>();
        match key.as_str() {
            "timeout_turn" | "timeout_match" | "time_left" | "max_memory" | "max_depth"
            | "max_node" | "rule" | "thread_num" => {
                let Ok(n) = number() else {
                    return error(format!(
                        "INFO {key} needs a whole number of 0 or more, got {value:?}"
                    ));
                };
                match key.as_str() {
                    "timeout_turn" => self.clock.turn_ms = n,
                    "timeout_match" => self.clock.match_ms = n,
                    "time_left" => self.clock.left.time_left_ms = n,
                    "max_memory" => {
                        if n != self.max_memory {
                            self.max_memory = n;
                            self.prepare_tables();
                        }
                    }
                    "max_depth" => {
                        self.depth = u32::try_from(n)
                            .unwrap_or(u32::MAX)
                            .clamp(1, crate::games::gomoku::MAX_DEPTH);
                    }
                    "max_node" => self.nodes = (n > 0).then_some(n),
                    "thread_num" => {
                        self.threads = n.clamp(1, super::MAX_THREADS) as usize;
                    }
                    _ => return self.set_rule(n),
                }
                Ok(())
            }
            // Accepted, nothing to do: the search plays the same against
            // a person or a program.
            _ => Ok(()),
        }
    }

    /// `INFO rule n`: 0 freestyle (five or more wins), 1 exactly five
    /// (our "standard"), 4 renju (5 too: renju already wins with exactly
    /// five; 2 is Yixin-Board's number for renju). Continuous games and
    /// caro are not played.
    fn set_rule(&mut self, code: u64) -> io::Result<()> {
        let rules = match code {
            0 => Rules::Freestyle,
            1 => Rules::Standard,
            2 | 4 | 5 => Rules::Renju,
            _ => {
                return error(format!(
                    "rule {code} is not supported (0 freestyle, 1 exactly five, 4 renju); keeping {}",
                    self.rules.name()
                ));
            }
        };
        if rules == Rules::Renju && self.size.is_some_and(|n| n != 15) {
            return error(format!(
                "renju is played on 15×15 only; keeping {}",
                self.rules.name()
            ));
        }
        if rules == self.rules {
            return Ok(());
        }
        let previous = self.rules;
        self.rules = rules;
        if let Some(size) = self.size {
            match build(size, rules, &self.stones) {
                Ok(position) => self.position = position,
                Err(e) => {
                    self.rules = previous;
                    return error(format!(
                        "the stones on the board do not fit {}: {e}; keeping {}",
                        rules.name(),
                        previous.name()
                    ));
                }
            }
        }
        Ok(())
    }

    /// `BEGIN`: we open on an empty board.
    fn begin(&mut self, at: Instant, input: &Input) -> io::Result<()> {
        if !self.ready()? {
            return Ok(());
        }
        if !self.stones.is_empty() {
            return error("BEGIN needs an empty board; use BOARD to give a position");
        }
        self.think(at, input, true)
    }

    /// `TURN x,y`: the opponent's move, then ours.
    fn turn(&mut self, rest: &str, at: Instant, input: &Input) -> io::Result<()> {
        let Some(size) = self.size else {
            return no_game();
        };
        let (row, col) = match parse_cell_xy(rest, size) {
            Ok(cell) => cell,
            Err(e) => return error(e),
        };
        let mover = self.position.side_to_move();
        if self.own == Some(mover) {
            return error(format!(
                "TURN {}: it is our move, not the opponent's",
                rest.trim()
            ));
        }
        if let Err(e) = self.place(row, col) {
            return error(format!("TURN {col},{row} ({}): {e}", cell_name(row, col)));
        }
        self.own = Some(mover.other());
        self.think(at, input, true)
    }

    /// `BOARD` … `DONE` (think and play) or `YXBOARD` … `DONE` (only set
    /// the position): `x,y,1` our stones, `x,y,2` the opponent's, and we
    /// are to move. Under renju the order matters to no rule we apply, so
    /// any order is taken.
    fn board(&mut self, input: &Input, then_move: bool) -> io::Result<()> {
        let mut entries = Vec::new();
        let mut problem = None;
        let at = loop {
            let Some(line) = input.next() else {
                return Ok(()); // The manager went away mid-position.
            };
            let text = line.text.trim();
            if text.eq_ignore_ascii_case("DONE") {
                break line.at;
            }
            if text.is_empty() || problem.is_some() {
                continue;
            }
            match parse_entry(text, self.size) {
                Ok(entry) => entries.push(entry),
                Err(e) => problem = Some(e),
            }
        };
        let Some(size) = self.size else {
            return no_game();
        };
        if let Some(e) = problem {
            return error(e);
        }
        let own_count = entries.iter().filter(|e| e.2).count();
        let opp_count = entries.len() - own_count;
        // We are to move, and black has as many stones as white or one
        // more: equal counts make us black, one stone fewer white.
        let own = match own_count.cmp(&opp_count) {
            std::cmp::Ordering::Equal => Player::X,
            std::cmp::Ordering::Less if opp_count == own_count + 1 => Player::O,
            std::cmp::Ordering::Greater => {
                return error(format!(
                    "the position has {own_count} of our stones and {opp_count} of the opponent's: it is not our move"
                ));
            }
            _ => {
                return error(format!(
                    "impossible stone counts: {own_count} of ours and {opp_count} of the opponent's (black has as many as white, or one more)"
                ));
            }
        };
        let stones: Vec<_> = entries
            .iter()
            .map(|&(r, c, mine)| (r, c, if mine { own } else { own.other() }))
            .collect();
        match build(size, self.rules, &stones) {
            Ok(position) => {
                self.position = position;
                self.stones = stones;
                self.own = Some(own);
            }
            Err(e) => return error(e),
        }
        if then_move {
            self.think(at, input, true)
        } else {
            Ok(())
        }
    }

    /// `TAKEBACK x,y`: removes that stone.
    fn takeback(&mut self, rest: &str) -> io::Result<()> {
        let Some(size) = self.size else {
            return no_game();
        };
        let (row, col) = match parse_cell_xy(rest, size) {
            Ok(cell) => cell,
            Err(e) => return error(e),
        };
        let Some(i) = self
            .stones
            .iter()
            .rposition(|&(r, c, _)| (r, c) == (row, col))
        else {
            return error(format!("TAKEBACK {}: there is no stone there", rest.trim()));
        };
        let mut stones = self.stones.clone();
        stones.remove(i);
        match build(size, self.rules, &stones) {
            Ok(position) => {
                self.position = position;
                self.stones = stones;
                say("OK")
            }
            Err(e) => error(format!("TAKEBACK {}: {e}", rest.trim())),
        }
    }

    /// `PLAY x,y`: the manager chose our move (after a `SUGGEST`).
    fn play_given(&mut self, rest: &str) -> io::Result<()> {
        let Some(size) = self.size else {
            return no_game();
        };
        let (row, col) = match parse_cell_xy(rest, size) {
            Ok(cell) => cell,
            Err(e) => return error(e),
        };
        let mover = self.position.side_to_move();
        if self.own.is_some_and(|own| own != mover) {
            return error(format!("PLAY {}: it is the opponent's move", rest.trim()));
        }
        if let Err(e) = self.place(row, col) {
            return error(format!("PLAY {col},{row} ({}): {e}", cell_name(row, col)));
        }
        self.own = Some(mover);
        say(format!("{col},{row}"))
    }

    /// `YXSHOWFORBID`: black's forbidden points under renju, as
    /// `FORBID xxyyxxyy….` (two digits each).
    fn show_forbidden(&mut self) -> io::Result<()> {
        if self.size.is_none() {
            return no_game();
        }
        let mut text = String::from("FORBID ");
        for (cell, _) in self.position.forbidden_points() {
            let (r, c) = self.position.board.row_col(cell);
            text.push_str(&format!("{c:02}{r:02}"));
        }
        text.push('.');
        say(text)
    }

    /// True once a game is started (says so otherwise).
    fn ready(&self) -> io::Result<bool> {
        if self.size.is_some() {
            Ok(true)
        } else {
            no_game().map(|()| false)
        }
    }

    /// Puts a stone of the side to move, refusing what the rules refuse.
    fn place(&mut self, row: usize, col: usize) -> Result<(), String> {
        let mover = self.position.side_to_move();
        self.position
            .play_notation(&cell_name(row, col))
            .map_err(|e| e.to_string())?;
        self.stones.push((row, col, mover));
        Ok(())
    }

    /// Searches the position from `at` (when the command came) and answers
    /// the move, playing it unless this is only a `HINT`.
    fn think(&mut self, at: Instant, input: &Input, play: bool) -> io::Result<()> {
        let size = self.position.size();
        if let Some((winner, _)) = self.position.winner() {
            return error(format!(
                "the game is over: {} has five in a row",
                colour_name(winner)
            ));
        }
        if self.position.board.is_full() {
            return error("the board is full: the game is a draw");
        }
        let empties = size * size - self.stones.len();
        let budget = self.clock.budget(empties);
        let stop = StopFlag::new();
        let thinking = input.thinking(&stop);
        let sink = ProgressSink::new(move |p: Progress| {
            let _ = say(format!(
                "MESSAGE depth {} score {} nodes {} pv {}",
                p.depth,
                score_text(p.score),
                p.nodes,
                pv_text(&p.pv, size)
            ));
        });
        let plan = Plan::plain(
            Position::Gomoku(self.position.clone()),
            self.depth,
            budget,
            self.nodes,
        )
        .with_threads(self.threads);
        let limits = plan.limits_from(at, &stop, Some(sink));
        let report = self.position.search(&limits, &mut self.ws);
        drop(thinking);
        let mover = self.position.side_to_move();
        let cell = report
            .best_move
            .cell
            .filter(|&(r, c)| {
                let mut probe = self.position.clone();
                probe.play_notation(&cell_name(r, c)).is_ok()
            })
            .or_else(|| {
                // Never answer an illegal move: any legal one is better.
                let cell = *self.position.legal_moves().first()?;
                Some(self.position.board.row_col(cell))
            });
        let Some((row, col)) = cell else {
            return error("there is no legal move for the side to move");
        };
        say(summary(&report, at.elapsed(), size))?;
        if play {
            self.clock.spend(at.elapsed());
            // Checked legal just above.
            let _ = self.place(row, col);
            self.own = Some(mover);
            say(format!("{col},{row}"))
        } else {
            say(format!("SUGGEST {col},{row}"))
        }
    }
}

/// A position from stones in the order played: the same reading and
/// checks as a board sent to the HTTP service.
fn build(size: usize, rules: Rules, stones: &[(usize, usize, Player)]) -> Result<Gomoku, String> {
    let mut grid = vec![vec![b'.'; size]; size];
    for &(r, c, colour) in stones {
        if grid[r][c] != b'.' {
            return Err(format!("{c},{r} is given twice"));
        }
        grid[r][c] = colour.symbol() as u8;
    }
    let rows = grid
        .into_iter()
        .map(|row| String::from_utf8_lossy(&row).into_owned())
        .collect();
    let spec = PositionSpec {
        board: Some(rows),
        size: Some(size as u32),
        rules: Some(rules.name().to_owned()),
        ..PositionSpec::default()
    };
    <Gomoku as Game>::parse(&spec).map_err(|e| e.to_string())
}

/// The first word and the rest.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

/// `a,b` as two numbers (spaces allowed around them).
fn parse_pair(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.trim().split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `x,y` as (row, column) on an n×n board.
fn parse_cell_xy(text: &str, size: usize) -> Result<(usize, usize), String> {
    let (x, y) = parse_pair(text)
        .ok_or_else(|| format!("expected coordinates x,y (0-based), got {:?}", text.trim()))?;
    if x >= size || y >= size {
        return Err(format!(
            "{x},{y} is off the {size}×{size} board (0..{})",
            size - 1
        ));
    }
    Ok((y, x))
}

/// A `BOARD` line `x,y,f` as (row, column, ours).
fn parse_entry(text: &str, size: Option<usize>) -> Result<(usize, usize, bool), String> {
    let mut parts = text.split(',').map(str::trim);
    let (Some(x), Some(y), Some(f), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("expected x,y,field in BOARD, got {text:?}"));
    };
    let field = match f {
        "1" => true,
        "2" => false,
        "3" => {
            return Err(format!(
                "{text}: continuous games (field 3) are not supported"
            ));
        }
        _ => {
            return Err(format!(
                "{text}: the field is 1 (ours) or 2 (the opponent's)"
            ));
        }
    };
    let Some(size) = size else {
        return Err("no game: send START first".to_owned());
    };
    let (row, col) = parse_cell_xy(&format!("{x},{y}"), size)?;
    Ok((row, col, field))
}

/// A line in notation (`h8 i9`) as protocol coordinates (`7,7 8,8`).
fn pv_text(pv: &[String], size: usize) -> String {
    pv.iter()
        .map(|m| match parse_cell(m, size, size) {
            Some((r, c)) => format!("{c},{r}"),
            None => m.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A score for people: proven results as wins and losses in plies.
fn score_text(score: i32) -> String {
    if score >= WIN_THRESHOLD {
        format!("win in {}", WIN - score)
    } else if score <= -WIN_THRESHOLD {
        format!("loss in {}", WIN + score)
    } else {
        score.to_string()
    }
}

/// The line before the move: what the search found and what it cost.
fn summary(report: &SearchReport, elapsed: Duration, size: usize) -> String {
    let score = match report.proven {
        Some(p) => match p.result {
            Outcome::Win => format!("win in {}", p.plies),
            Outcome::Loss => format!("loss in {}", p.plies),
            Outcome::Draw => "draw".to_owned(),
        },
        None => report.score.to_string(),
    };
    let ms = elapsed.as_millis() as u64;
    let nps = report.nodes * 1000 / ms.max(1);
    format!(
        "MESSAGE gameai depth {} score {score} nodes {} nps {nps} time {ms} ms stopped {} pv {}",
        report.depth,
        report.nodes,
        format!("{:?}", report.stopped).to_lowercase(),
        pv_text(&report.pv, size)
    )
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::X => "black",
        Player::O => "white",
    }
}

fn error(message: impl std::fmt::Display) -> io::Result<()> {
    say(format!("ERROR {message}"))
}

fn no_game() -> io::Result<()> {
    error("no game: send START first")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(turn_ms: u64, match_ms: u64, left_ms: u64) -> Timeouts {
        Timeouts {
            turn_ms,
            match_ms,
            left: GameClock {
                time_left_ms: left_ms,
                ..GameClock::default()
            },
        }
    }

    #[test]
    fn the_turn_time_keeps_a_margin() {
        assert_eq!(clock(50, 0, UNLIMITED_MS).budget(225).as_millis(), 15);
        assert_eq!(clock(1_000, 0, UNLIMITED_MS).budget(225).as_millis(), 870);
        assert_eq!(
            clock(30_000, 0, UNLIMITED_MS).budget(225).as_millis(),
            29_720
        );
        assert_eq!(clock(0, 0, UNLIMITED_MS).budget(225).as_millis(), 10);
        assert_eq!(clock(5, 0, UNLIMITED_MS).budget(225).as_millis(), 1);
    }

    #[test]
    fn the_match_time_is_shared_out() {
        // A long match barely limits; a short one does.
        assert_eq!(clock(1_000, 180_000, 180_000).budget(225).as_millis(), 870);
        assert_eq!(clock(1_000, 180_000, 5_000).budget(225).as_millis(), 188);
        // Little left: play fast.
        assert_eq!(clock(1_000, 180_000, 200).budget(225).as_millis(), 6);
        assert_eq!(clock(1_000, 180_000, 10).budget(225).as_millis(), 1);
        // No match limit: time_left is ignored.
        assert_eq!(clock(1_000, 0, 10).budget(225).as_millis(), 870);
    }

    #[test]
    fn spending_counts_down_a_limited_match_only() {
        let mut c = clock(1_000, 10_000, 10_000);
        c.spend(Duration::from_millis(2_500));
        assert_eq!(c.left.time_left_ms, 7_500);
        c.spend(Duration::from_secs(60));
        assert_eq!(c.left.time_left_ms, 0);
        let mut unlimited = Timeouts::default();
        unlimited.spend(Duration::from_secs(5));
        assert_eq!(unlimited.left.time_left_ms, UNLIMITED_MS);
    }

    #[test]
    fn coordinates_read_as_column_then_row() {
        assert_eq!(parse_cell_xy("7,3", 15), Ok((3, 7)));
        assert_eq!(parse_cell_xy(" 0 , 14 ", 15), Ok((14, 0)));
        assert!(parse_cell_xy("15,0", 15).is_err());
        assert!(parse_cell_xy("-1,0", 15).is_err());
        assert!(parse_cell_xy("7", 15).is_err());
        assert!(parse_cell_xy("a,b", 15).is_err());
        assert_eq!(parse_entry("1,2,1", Some(15)), Ok((2, 1, true)));
        assert_eq!(parse_entry("1,2,2", Some(15)), Ok((2, 1, false)));
        assert!(parse_entry("1,2,3", Some(15)).is_err());
        assert!(parse_entry("1,2", Some(15)).is_err());
        assert!(parse_entry("1,2,1,1", Some(15)).is_err());
    }

    #[test]
    fn scores_read_as_proofs_near_the_win_score() {
        assert_eq!(score_text(WIN - 5), "win in 5");
        assert_eq!(score_text(-(WIN - 4)), "loss in 4");
        assert_eq!(score_text(-120), "-120");
        assert_eq!(pv_text(&["h8".into(), "i9".into()], 15), "7,7 8,8");
    }
}
