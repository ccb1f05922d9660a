//! The search plan: one search's controls, checked once, and the one way
//! from them to a search. Every front door (the search routes, sessions,
//! analysis, pondering, pbrain and NBoard) describes what it wants as a
//! [`Plan`] and gets its [`Limits`] from it, so every search is bounded the
//! same way; [`crate::runner`] answers plans on the pool and counts and
//! logs each one.
//!
//! How strong a search is comes from [`Strength`]: a depth and a time budget
//! as the client gave them, completed from a strength level or the game's
//! defaults, and a game clock that takes its share of the time. Search
//! requests and a session's AI settings share it, so a level means the same
//! everywhere.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::games::lines::{self, Line, Rng};
use crate::games::{GameKind, Position, SearchReport, level};
use crate::search::{GameClock, Limits, ProgressSink, StopFlag, Workspace};

/// How deep and how long a search may go, as a client sets it: what it
/// gave, completed from its level or the game's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Time budget per move, in milliseconds; with a clock, the most a
    /// move may take of it.
    pub time_ms: u64,
    /// Strength level 1–10, if the client chose one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// A game clock, if the search plays on one: each move thinks for a
    /// share of it (within `time_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<GameClock>,
    /// Threads to search with; each holds a worker while the search runs.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub threads: usize,
}

fn one() -> usize {
    1
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

impl Strength {
    /// The strength a client asked for in `kind`, each value it left out
    /// taken from its level, else from the game: with a clock and no
    /// `time_ms`, the clock decides within the server's cap.
    pub fn new(
        kind: GameKind,
        depth: Option<u32>,
        time_ms: Option<u64>,
        level: Option<u8>,
        clock: Option<GameClock>,
        max_time_ms: u64,
    ) -> Self {
        let info = kind.info();
        let settings = level.map(|l| level::level(kind, l));
        let default_ms = settings.map_or(info.default_time_ms, |s| s.time_ms);
        let time_ms = match (time_ms, clock) {
            (Some(t), _) => t,
            (None, Some(_)) => max_time_ms,
            (None, None) => default_ms.min(max_time_ms),
        };
        Self {
            depth: depth
                .or(settings.map(|s| s.depth))
                .unwrap_or(info.default_depth),
            time_ms,
            level,
            clock,
            threads: 1,
        }
    }

    /// The next move's time budget: `time_ms`, or the clock's share within
    /// it and within the server's cap.
    pub fn move_time_ms(&self, max_time_ms: u64) -> u64 {
        match &self.clock {
            Some(clock) => clock.move_budget_ms().min(max_time_ms).min(self.time_ms),
            None => self.time_ms,
        }
    }
}

/// One search, as a front door wants it.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kind: GameKind,
    pub position: Position,
    pub depth: u32,
    pub time_ms: u64,
    pub nodes: Option<u64>,
    /// Lines to answer with; 1 answers none.
    pub multi_pv: usize,
    /// Pick among moves this close to the best.
    pub margin: Option<i32>,
    /// Percent of moves played at random among the candidates (levels).
    pub random_percent: u32,
    /// Set whenever a random choice may be made.
    pub seed: Option<u64>,
    /// Threads to search with: the workers the search holds.
    pub threads: usize,
    /// The client set a time budget (`time_ms` or a clock): the answer
    /// depends on how deep that time reaches, not only on the request.
    pub timed: bool,
    /// An earlier search may answer (`"cache": false` says no).
    pub cache: bool,
    /// The opening book may answer: not for a strength level, whose
    /// depth, time and random moves are the point.
    pub book: bool,
}

impl Plan {
    /// One plain search of `position` at `strength`: its depth, this
    /// move's time, its level's random moves; the book only without a
    /// level. Timed, cacheable, one line.
    pub fn new(position: Position, strength: &Strength, max_time_ms: u64) -> Self {
        let kind = position.kind();
        Self {
            kind,
            position,
            depth: strength.depth,
            time_ms: strength.move_time_ms(max_time_ms),
            nodes: None,
            multi_pv: 1,
            margin: None,
            random_percent: strength
                .level
                .map_or(0, |l| level::level(kind, l).random_percent),
            seed: None,
            threads: strength.threads.max(1),
            timed: true,
            cache: true,
            book: strength.level.is_none(),
        }
    }

    /// A plain search of `position`, `depth` plies within `time`, with
    /// nothing random and no level (the engine protocols' searches).
    pub fn plain(position: Position, depth: u32, time: Duration, nodes: Option<u64>) -> Self {
        let kind = position.kind();
        Self {
            kind,
            position,
            depth,
            time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
            nodes,
            multi_pv: 1,
            margin: None,
            random_percent: 0,
            seed: None,
            threads: 1,
            timed: true,
            cache: false,
            book: false,
        }
    }

    /// The plan searched by `threads` threads.
    pub fn with_threads(self, threads: usize) -> Self {
        Self {
            threads: threads.max(1),
            ..self
        }
    }

    /// The plan with its seed set whenever it may choose at random: `seed`
    /// if given (so the same seed repeats the choice), else a fresh one.
    pub fn seeded(self, seed: Option<u64>) -> Self {
        let random = self.margin.is_some() || self.random_percent > 0;
        Self {
            seed: random.then(|| seed.unwrap_or_else(fresh_seed)),
            ..self
        }
    }

    /// Whether the answer is one plain search: one line, no random choice.
    pub fn is_plain(&self) -> bool {
        self.multi_pv == 1 && self.seed.is_none()
    }

    /// The limits of this plan's search, starting now.
    pub fn limits(&self, stop: &StopFlag, progress: Option<ProgressSink>) -> Limits {
        self.limits_from(Instant::now(), stop, progress)
    }

    /// The limits of this plan's search, its time counted from `start`
    /// (when the request arrived). The one place outside the search
    /// toolkit where a search's limits are made.
    pub fn limits_from(
        &self,
        start: Instant,
        stop: &StopFlag,
        progress: Option<ProgressSink>,
    ) -> Limits {
        let deadline = start + Duration::from_millis(self.time_ms);
        Limits::new(self.depth, Some(deadline), self.nodes, stop)
            .reporting(progress)
            .with_threads(self.threads)
    }

    /// Runs the search on the calling (worker) thread. `progress` hears each
    /// completed depth of a single search, `on_line` each line of a
    /// multi-line one.
    pub fn run(
        &self,
        ws: &mut Workspace,
        stop: &StopFlag,
        progress: Option<ProgressSink>,
        on_line: impl FnMut(&Line),
    ) -> Answer {
        let start = Instant::now();
        let limits = self.limits_from(start, stop, progress);
        let mut rng = self.seed.map(Rng::new);
        let random_move = rng.as_mut().is_some_and(|r| {
            self.random_percent > 0 && (r.below(100) as u32) < self.random_percent
        });
        if self.multi_pv == 1 && self.margin.is_none() && !random_move {
            return Answer {
                report: self.position.search(&limits, ws),
                lines: None,
                seed: self.seed,
            };
        }
        let report = self.position.describe();
        let moves = if self.multi_pv >= report.legal_moves.len() {
            report.legal_moves
        } else {
            self.position.candidate_moves(report)
        };
        let lines = lines::search_lines(&self.position, &moves, &limits, ws, on_line);
        if lines.is_empty() {
            // Only when no listed move could be played: search as usual.
            return Answer {
                report: self.position.search(&limits, ws),
                lines: None,
                seed: self.seed,
            };
        }
        let chosen = match (rng.as_mut(), self.margin) {
            (Some(r), _) if random_move => r.below(lines.len()),
            (Some(r), Some(margin)) => lines::choose(&lines, margin, r),
            _ => 0,
        };
        let report = lines::report_of_lines(&self.position, &lines, chosen, start);
        Answer {
            report,
            lines: (self.multi_pv > 1).then(|| lines.into_iter().take(self.multi_pv).collect()),
            seed: self.seed,
        }
    }
}

/// What a plan's search found.
#[derive(Clone, Debug)]
pub struct Answer {
    pub report: SearchReport,
    pub lines: Option<Vec<Line>>,
    pub seed: Option<u64>,
}

impl Answer {
    /// An answer that took no search of its own (the book, the cache).
    pub fn of(report: SearchReport) -> Self {
        Self {
            report,
            lines: None,
            seed: None,
        }
    }
}

/// A seed for a client that gave none: below 2^53, so JavaScript clients
/// can send it back exactly.
fn fresh_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0 >> 11
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_fills_in_what_the_client_left_out() {
        let kind = GameKind::Othello;
        let level = level::level(kind, 3);
        let s = Strength::new(kind, None, None, Some(3), None, 60_000);
        assert_eq!((s.depth, s.time_ms), (level.depth, level.time_ms));
        let s = Strength::new(kind, Some(2), Some(70), Some(3), None, 60_000);
        assert_eq!((s.depth, s.time_ms), (2, 70));
        let info = kind.info();
        let s = Strength::new(kind, None, None, None, None, 60_000);
        assert_eq!(
            (s.depth, s.time_ms),
            (info.default_depth, info.default_time_ms)
        );
        // The server's cap bounds a default, never a client's own value
        // (the routes check that against the cap).
        let s = Strength::new(kind, None, None, None, None, 1);
        assert_eq!(s.time_ms, 1);
    }

    #[test]
    fn a_clock_takes_its_share_within_time_ms_and_the_cap() {
        let clock = GameClock {
            time_left_ms: 60_000,
            increment_ms: 0,
            moves_to_go: None,
        };
        let kind = GameKind::Gomoku;
        let s = Strength::new(kind, None, None, None, Some(clock), 10_000);
        assert_eq!(s.move_time_ms(10_000), 3_000);
        assert_eq!(s.move_time_ms(1_000), 1_000);
        let s = Strength::new(kind, None, Some(500), None, Some(clock), 10_000);
        assert_eq!(s.move_time_ms(10_000), 500);
    }

    #[test]
    fn a_seed_is_kept_only_where_a_choice_is_random() {
        let position = GameKind::TicTacToe
            .parse(&crate::games::PositionSpec {
                moves: Some(Vec::new()),
                ..Default::default()
            })
            .unwrap();
        let strength = Strength::new(GameKind::TicTacToe, None, None, None, None, 1_000);
        let plain = Plan::new(position.clone(), &strength, 1_000).seeded(Some(7));
        assert_eq!(plain.seed, None);
        assert!(plain.is_plain() && plain.book);
        let strength = Strength::new(GameKind::TicTacToe, None, None, Some(1), None, 1_000);
        let random = Plan::new(position, &strength, 1_000).seeded(Some(7));
        assert_eq!(random.seed, Some(7));
        assert!(!random.book && random.random_percent > 0);
    }
}
