//! Several root moves searched side by side: multi-PV lines, and a seeded
//! choice among moves nearly as good as the best (variety and strength
//! levels).
//!
//! Each line is the game's own search of the position after one root move,
//! one ply shallower, its score turned to the root's side. So a line's
//! score is exactly what a single search of that move's position says, and
//! every game gets lines without special code in its engine.

use std::time::Instant;

use super::{MoveView, Position, ProvenView, SearchReport, Status};
use crate::search::{Limits, Outcome, Stopped, WIN_THRESHOLD, Workspace};
use crate::vocabulary::Source;

/// One root move and what searching it found, from the root's side.
#[derive(Clone, Debug)]
pub struct Line {
    pub mv: MoveView,
    pub score: i32,
    pub proven: Option<ProvenView>,
    /// Plies searched from the root (the move itself included).
    pub depth: u32,
    pub nodes: u64,
    /// The move, then the expected replies.
    pub pv: Vec<String>,
    pub stopped: Stopped,
    pub source: Source,
}

impl Line {
    fn is_proven_win(&self) -> bool {
        self.proven.is_some_and(|p| p.result == Outcome::Win)
    }
}

/// Turns a child's score to its parent's side, one ply further from the
/// end: a win in `p` plies there is a loss in `p + 1` here.
pub fn parent_score(child: i32) -> i32 {
    if child >= WIN_THRESHOLD {
        -child + 1
    } else if child <= -WIN_THRESHOLD {
        -child - 1
    } else {
        -child
    }
}

/// Searches each of `moves` (legal moves in notation) of `pos`, sharing
/// the time and node budgets evenly, and returns the lines best first
/// (ties keep the order given). `on_line` hears each line as it ends.
pub fn search_lines(
    pos: &Position,
    moves: &[String],
    limits: &Limits,
    ws: &mut Workspace,
    mut on_line: impl FnMut(&Line),
) -> Vec<Line> {
    let before = pos.describe().board;
    let mut lines = Vec::with_capacity(moves.len());
    let mut spent = 0;
    for (i, notation) in moves.iter().enumerate() {
        let mut child = pos.clone();
        if child.play(notation).is_err() {
            continue;
        }
        let left = (moves.len() - i) as u32;
        // An even part of what is left, one ply shallower, unheard.
        let mut child_limits = limits.stage(1.0 / f64::from(left), spent);
        child_limits.depth = limits.depth.saturating_sub(1).max(1);
        child_limits.progress = None;
        let report = child.search(&child_limits, ws);
        spent += report.nodes;
        let line = line_of(&before, notation, &child, report);
        on_line(&line);
        lines.push(line);
    }
    // Stable: equal scores keep the order given.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
    lines
}

fn line_of(before: &[String], notation: &str, child: &Position, report: SearchReport) -> Line {
    let after = child.describe();
    let mut pv = vec![notation.to_owned()];
    // A finished child has nothing more to play.
    if after.status == Status::Ongoing {
        pv.extend(report.pv);
    }
    Line {
        mv: move_view(before, &after.board, notation),
        score: parent_score(report.score),
        proven: report.proven.map(ProvenView::parent),
        depth: report.depth + 1,
        nodes: report.nodes,
        pv,
        stopped: report.stopped,
        source: report.source,
    }
}

/// The move's cell: the one square empty before and filled after (a pass
/// fills none).
fn move_view(before: &[String], after: &[String], notation: &str) -> MoveView {
    let cell = before
        .iter()
        .zip(after)
        .enumerate()
        .find_map(|(r, (b, a))| {
            b.bytes()
                .zip(a.bytes())
                .position(|(x, y)| x == b'.' && y != b'.')
                .map(|c| (r, c))
        });
    match cell {
        Some(cell) => MoveView {
            cell: Some(cell),
            notation: notation.to_owned(),
        },
        None => MoveView::pass(),
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same
/// picks on every machine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Picks one of `lines` (best first) whose score is within `margin` of the
/// best. A proven win is never traded for anything but another proven win.
pub fn choose(lines: &[Line], margin: i32, rng: &mut Rng) -> usize {
    let Some(best) = lines.first() else {
        return 0;
    };
    let floor = best.score.saturating_sub(margin.max(0));
    let eligible: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.score >= floor && (!best.is_proven_win() || l.is_proven_win()))
        .map(|(i, _)| i)
        .collect();
    eligible[rng.below(eligible.len())]
}

/// The answer of a search made of lines: the chosen line's move, score and
/// pv; the shallowest line's depth; every line's nodes.
pub fn report_of_lines(
    pos: &Position,
    lines: &[Line],
    chosen: usize,
    start: Instant,
) -> SearchReport {
    let line = &lines[chosen];
    let stopped = if lines.iter().all(|l| l.stopped == Stopped::Proven) {
        Stopped::Proven
    } else {
        lines
            .iter()
            .map(|l| l.stopped)
            .find(|s| matches!(s, Stopped::Cancelled | Stopped::Nodes | Stopped::Time))
            .unwrap_or(Stopped::Depth)
    };
    SearchReport {
        best_move: line.mv.clone(),
        score: line.score,
        proven: line.proven,
        depth: lines.iter().map(|l| l.depth).min().unwrap_or(0),
        nodes: lines.iter().map(|l| l.nodes).sum(),
        time_ms: crate::search::elapsed_ms(start),
        pv: line.pv.clone(),
        stopped,
        to_move: pos.to_move(),
        // From the book only when every line is.
        source: if lines.iter().all(|l| l.source == Source::Book) {
            Source::Book
        } else {
            Source::Search
        },
    }
}
