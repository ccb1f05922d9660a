//! One search request: iterative deepening with the midgame search, then
//! the exact solver once the end is within reach, rendered for the API.

use std::time::Instant;

use super::midgame::{Midgame, MidgameTable};
use super::solver::{EndgameTable, Solution, Solver};
use super::{Move, Othello, PASS, bitboard, move_view, notation};
use crate::search::{Clock, DEFAULT_PART, EngineTables, Limits, Proof, ReportBuilder, Workspace};
use crate::vocabulary::{SearchReport, Stopped};

/// Plies: deep enough that the default search is bounded by time, and
/// reaches the end of the game (an exact solve) when few squares are empty.
pub const DEFAULT_DEPTH: u32 = 60;
pub const MAX_DEPTH: u32 = 60;
/// About a second per move gives a strong move on a small machine.
pub const DEFAULT_TIME_MS: u64 = 1_000;
/// With at most this many empties and no budget (a depth request), the
/// search goes straight to the solver after a short midgame search that
/// orders the root moves.
pub const SOLVE_EMPTIES: u32 = 20;
/// Under a time or node budget, positions this close to the end are solved
/// straight after the ordering search: the solve takes a few milliseconds.
/// Further from the end a solve may not finish, so the midgame search runs
/// first, as far as its budget allows, and the solver gets what is left
/// (a solve that does not finish then changes nothing).
const QUICK_SOLVE_EMPTIES: u32 = 16;
/// Under a budget, the solver is tried with the time the midgame search
/// leaves when at most this many squares are empty.
const LATE_SOLVE_EMPTIES: u32 = 24;
/// Midgame depth that orders the root before an early solve.
const ORDER_DEPTH: u32 = 6;
/// Without a deadline (an explicit deep `depth`), the deepest midgame
/// search run before solving.
const UNTIMED_ORDER_DEPTH: u32 = 12;
/// Once the midgame search is this close to the end, try the solver.
const SOLVE_GAP: u32 = 10;
/// A midgame iteration costs a few times the one before.
const ITERATION_GROWTH: f64 = 3.0;
/// The endgame table's share of the worker's part; the midgame table has
/// the rest.
const ENDGAME_SHARE: (usize, usize) = (3, 4);

/// A worker's othello tables (`Workspace::extra`): the midgame search's
/// and the endgame solver's, within one part of the budget.
pub struct Tables {
    pub midgame: MidgameTable,
    pub endgame: EndgameTable,
}

impl Default for Tables {
    /// The sizes the engine was tuned with: 8 MiB and 24 MiB.
    fn default() -> Self {
        Self::with_bytes(DEFAULT_PART)
    }
}

impl Tables {
    /// The memory the tables hold, in bytes.
    pub fn bytes(&self) -> usize {
        self.midgame.bytes() + self.endgame.bytes()
    }
}

impl EngineTables for Tables {
    fn with_bytes(bytes: usize) -> Self {
        let (num, den) = ENDGAME_SHARE;
        let endgame = bytes / den * num;
        Self {
            midgame: MidgameTable::with_bytes(bytes - endgame),
            endgame: EndgameTable::with_bytes(endgame),
        }
    }
}

/// Searches `pos` (a game not yet over) within `limits`.
pub fn search(pos: &Othello, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let report = ReportBuilder::new(pos.to_move());
    let (p, o) = pos.player_opponent();
    if pos.is_over() {
        // Callers refuse finished games first; answer sensibly anyway.
        let done = Solution {
            score: pos.final_score(),
            best_move: PASS,
            pv: Vec::new(),
            nodes: 1,
        };
        return proven_report(report, pos, &done, 1);
    }
    if bitboard::moves(p, o) == 0 {
        // A forced pass: search the opponent's position and answer "pass".
        let mut after = *pos;
        after.play(PASS);
        let child = search(&after, limits, ws);
        return report
            .line(move_view(PASS), vec![notation(PASS)])
            .parent_of(child)
            .build();
    }

    let empties = pos.empties();
    let max_depth = limits.depth.clamp(1, MAX_DEPTH);
    let mut nodes = 0;
    let mut order: Vec<Move> = bitboard::Squares(bitboard::moves(p, o))
        .map(|sq| sq as Move)
        .collect();
    let mut best: Option<(Move, i32, u32)> = None;
    let mut stopped = Stopped::Depth;
    let tables = ws.extra::<Tables>();
    tables.midgame.new_search();
    tables.endgame.new_search();

    let budgeted = limits.deadline.is_some() || limits.nodes.is_some();
    for depth in 1..=max_depth {
        let ordered = depth > ORDER_DEPTH.min(empties - 1);
        let solve_now = max_depth >= empties
            && (depth >= empties
                || if budgeted {
                    empties <= QUICK_SOLVE_EMPTIES && ordered
                } else {
                    (empties <= SOLVE_EMPTIES && ordered)
                        || depth + SOLVE_GAP >= empties
                        // A deeper midgame search only orders the root;
                        // past this depth it costs more than it saves.
                        || depth > UNTIMED_ORDER_DEPTH
                });
        if solve_now {
            match solve(&mut tables.endgame, limits, &mut nodes, (p, o), &order) {
                Ok(s) => return proven_report(report, pos, &s, nodes),
                Err(reason) => stopped = reason,
            }
            break;
        }
        let iteration_start = Instant::now();
        let stage = limits.after(nodes);
        let mut mid = Midgame::new(&mut tables.midgame, &stage);
        let result = mid.root(p, o, &order, depth);
        nodes += mid.nodes;
        match result {
            Some(scored) => {
                order = scored.iter().map(|&(mv, _)| mv).collect();
                best = Some((scored[0].0, scored[0].1, depth));
                limits.report(depth, scored[0].1, nodes, || {
                    principal_variation(pos, scored[0].0, depth, &tables.midgame)
                        .into_iter()
                        .map(notation)
                        .collect()
                });
            }
            None => {
                stopped = stage.stop_reason(mid.nodes);
                break;
            }
        }
        if depth == max_depth {
            break;
        }
        // Do not start an iteration that cannot finish. The time it would
        // have had goes to the solver when the end is near: a solve that
        // finishes answers exactly, one that does not leaves this
        // iteration's answer as it is.
        let Some(reason) =
            Clock::new(limits).stop_before_next(nodes, iteration_start, ITERATION_GROWTH)
        else {
            continue;
        };
        stopped = reason;
        if reason == Stopped::Time
            && max_depth >= empties
            && empties <= LATE_SOLVE_EMPTIES
            && let Ok(s) = solve(&mut tables.endgame, limits, &mut nodes, (p, o), &order)
        {
            return proven_report(report, pos, &s, nodes);
        }
        break;
    }

    // The first iteration may be cut by an outside stop: any legal move.
    let (best_move, score, depth) = best.unwrap_or((order[0], 0, 0));
    let pv = principal_variation(pos, best_move, depth, &tables.midgame);
    report
        .line(move_view(best_move), pv.into_iter().map(notation).collect())
        .unproven(score)
        .depth(depth)
        .nodes(nodes)
        .stopped(stopped)
        .build()
}

/// Solves `p` to move against `o` exactly, the root moves tried in
/// `order`, within what is left of `limits` after `nodes` (which it adds
/// its own to); why it stopped when it did not finish.
fn solve(
    table: &mut EndgameTable,
    limits: &Limits,
    nodes: &mut u64,
    (p, o): (u64, u64),
    order: &[Move],
) -> Result<Solution, Stopped> {
    let stage = limits.after(*nodes);
    let mut solver = Solver::new(table, &stage);
    let solution = solver.solve(p, o, order);
    *nodes += solver.nodes;
    solution.ok_or_else(|| stage.stop_reason(solver.nodes))
}

/// The expected line: `best_move`, then the table's moves, at most
/// `depth` plies.
fn principal_variation(
    pos: &Othello,
    best_move: Move,
    depth: u32,
    table: &MidgameTable,
) -> Vec<Move> {
    let mut pv = vec![best_move];
    let mut line = *pos;
    line.play(best_move);
    while pv.len() < depth as usize && !line.is_over() {
        let mv = if line.must_pass() {
            PASS
        } else {
            let (lp, lo) = line.player_opponent();
            match table.best_move(lp, lo) {
                Some(mv) if mv != PASS && line.legal_moves() >> mv & 1 == 1 => mv,
                _ => break,
            }
        };
        pv.push(mv);
        line.play(mv);
    }
    pv
}

/// Reports an exact solve. The score follows the service's convention for
/// proven results (a win in `p` plies scores `WIN - p`); the disc difference
/// is in `proven.disc_diff`.
fn proven_report(report: ReportBuilder, pos: &Othello, s: &Solution, nodes: u64) -> SearchReport {
    let proof = Proof::of_sign(s.score, s.pv.len() as u32);
    report
        .line(
            move_view(s.best_move),
            s.pv.iter().map(|&mv| notation(mv)).collect(),
        )
        .exact(proof, Some(s.score))
        .depth(pos.empties())
        .nodes(nodes)
        .build()
}
