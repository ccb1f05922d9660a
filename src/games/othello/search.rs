//! One search request: iterative deepening with the midgame search, then
//! the exact solver once the end is within reach, rendered for the API.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use super::midgame::DISC;
use super::midgame::{Midgame, MidgameTable};
use super::solver::{EndgameTable, Solution, Solve, Solver};
use super::{Move, Othello, PASS, bitboard, book, move_view, notation};
use crate::search::smp::{self, Team};
use crate::search::{
    DEFAULT_PART, EngineTables, Limits, Proof, ReportBuilder, StopFlag, Workspace,
};
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
/// Under a budget, the solver is tried when at most this many squares are
/// empty, after a midgame search `BUDGETED_SOLVE_GAP` plies short of the
/// end, while time is left.
const LATE_SOLVE_EMPTIES: u32 = 24;
const BUDGETED_SOLVE_GAP: u32 = 2;
/// A trial solve under a budget may use this share of what is left.
const TRIAL_SHARE: f64 = 0.4;
/// Midgame depth that orders the root before an early solve.
const ORDER_DEPTH: u32 = 6;
/// Without a deadline (an explicit deep `depth`), the deepest midgame
/// search run before solving.
const UNTIMED_ORDER_DEPTH: u32 = 12;
/// Once the midgame search is this close to the end, try the solver.
const SOLVE_GAP: u32 = 10;
/// A midgame iteration costs about this many times the one before.
const ITERATION_GROWTH: f64 = 2.0;
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

/// The opening book's answer for a search `depth` plies deep, when the
/// book holds `pos` and its searches went at least that deep (so that a
/// shallow request still gets the shallow search it asked for). The line
/// follows the book while it holds the positions reached.
pub fn book_answer(pos: &Othello, depth: u32) -> Option<SearchReport> {
    let (p, o) = pos.player_opponent();
    let entry = book::lookup(p, o)?;
    if depth < entry.depth || pos.legal_moves() >> entry.mv & 1 == 0 {
        return None;
    }
    let mut line = vec![notation(entry.mv)];
    let mut next = *pos;
    next.play(entry.mv);
    while let Some(b) = {
        let (p, o) = next.player_opponent();
        book::lookup(p, o)
    } {
        if next.legal_moves() >> b.mv & 1 == 0 {
            break;
        }
        line.push(notation(b.mv));
        next.play(b.mv);
    }
    Some(
        ReportBuilder::new(pos.to_move())
            .line(move_view(entry.mv), line)
            .unproven(entry.score)
            .depth(entry.depth)
            .from_book()
            .build(),
    )
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

    let order: Vec<Move> = bitboard::Squares(bitboard::moves(p, o))
        .map(|sq| sq as Move)
        .collect();
    let tables = ws.extra::<Tables>();
    tables.midgame.new_search();
    tables.endgame.new_search();
    let tables: &Tables = tables;
    let shared = Shared {
        order: Mutex::new(order.clone()),
        ..Shared::default()
    };
    let (mut answer, helper_nodes) = smp::with_helpers(
        limits,
        |_, limits, team| help(pos, tables, &shared, limits, team),
        |team| deepen(report, pos, limits, tables, order, team, &shared),
    );
    answer.nodes += helper_nodes;
    answer
}

/// What the main thread of a search tells its helpers, beside the table.
#[derive(Default)]
struct Shared {
    /// The root order of the main thread's last midgame iteration.
    order: Mutex<Vec<Move>>,
    /// Raised once the main thread starts solving: the helpers leave the
    /// midgame search (each raises its flag in `midgame`) and solve too.
    solving: AtomicBool,
    midgame: Mutex<Vec<StopFlag>>,
}

impl Shared {
    fn solving(&self) -> bool {
        self.solving.load(Relaxed)
    }

    /// The main thread starts its solver in root order `order`.
    fn start_solving(&self, order: &[Move]) {
        if let Ok(mut root) = self.order.lock() {
            root.clear();
            root.extend_from_slice(order);
        }
        self.solving.store(true, Relaxed);
        if let Ok(flags) = self.midgame.lock() {
            flags.iter().for_each(StopFlag::stop);
        }
    }
}

/// Iterative deepening on the calling (main) thread, from the root moves
/// in `order`, and the answer in `report`; `team` hears the depths it
/// starts and, when the search has helpers, `shared` its root orders and
/// when it solves.
fn deepen(
    report: ReportBuilder,
    pos: &Othello,
    limits: &Limits,
    tables: &Tables,
    mut order: Vec<Move>,
    team: &Team,
    shared: &Shared,
) -> SearchReport {
    let (p, o) = pos.player_opponent();
    let empties = pos.empties();
    let max_depth = limits.depth.clamp(1, MAX_DEPTH);
    let mut nodes = 0;
    let mut best: Option<(Move, i32, u32)> = None;
    // The line of the last complete iteration.
    let mut line: Vec<Move> = Vec::new();
    let mut stopped = Stopped::Depth;

    let budgeted = limits.deadline.is_some() || limits.nodes.is_some();
    // Under a budget near the end, the solver follows a midgame search
    // `BUDGETED_SOLVE_GAP` plies short of the end, if time is left.
    let late = budgeted && max_depth >= empties && empties <= LATE_SOLVE_EMPTIES;
    let mut tried = false;
    let mut last_iteration = std::time::Duration::ZERO;
    let mut likely: Option<Solution> = None;
    for depth in 1..=max_depth {
        let ordered = depth > ORDER_DEPTH.min(empties - 1);
        let solve_now = max_depth >= empties
            && (depth >= empties
                || if budgeted {
                    (empties <= QUICK_SOLVE_EMPTIES && ordered)
                        || (late && depth + BUDGETED_SOLVE_GAP >= empties)
                } else {
                    (empties <= SOLVE_EMPTIES && ordered)
                        || depth + SOLVE_GAP >= empties
                        // A deeper midgame search only orders the root;
                        // past this depth it costs more than it saves.
                        || depth > UNTIMED_ORDER_DEPTH
                });
        // Under a budget, a late solve before the midgame search reaches
        // the end is a trial with a share of what is left: one that does
        // not finish leaves the rest to the midgame search, which goes on
        // from where it was (or to the last selective pass the trial
        // finished). A quick solve near the end takes all that is left.
        let trial = budgeted && depth < empties && empties > QUICK_SOLVE_EMPTIES;
        if solve_now && !(trial && tried) {
            tried |= trial;
            let stage = if trial {
                trial_limits(limits, nodes, last_iteration.mul_f64(ITERATION_GROWTH))
            } else {
                limits.after(nodes)
            };
            if team.has_helpers() && !shared.solving() {
                shared.start_solving(&order);
            }
            let mut solver = Solver::new(&tables.endgame, &stage).in_team(team);
            let solved = solver.solve_within(p, o, &order);
            nodes += solver.nodes;
            stopped = stage.stop_reason(solver.nodes);
            match solved {
                Solve::Exact(s) => return proven_report(report, pos, &s, nodes),
                Solve::Likely(s, _) => likely = Some(s),
                Solve::Stopped => {}
            }
            if !trial || limits.exhausted(nodes) {
                stopped = limits.stop_reason(nodes);
                break;
            }
        }
        let iteration_start = Instant::now();
        let stage = limits.after(nodes);
        team.start_depth(depth);
        let mut mid = Midgame::new(&tables.midgame, &stage).in_team(team);
        let iteration = mid.root(p, o, &order, depth);
        nodes += mid.nodes;
        if !iteration.complete {
            // The unfinished iteration searched the best move so far
            // first: a move it found better replaces it, at the depth
            // completed before.
            if let (Some((mv, score)), Some(last)) = (iteration.best(), best.as_mut())
                && mv != last.0
                && score > last.1
            {
                (last.0, last.1) = (mv, score);
            }
            stopped = stage.stop_reason(mid.nodes);
            break;
        }
        last_iteration = iteration_start.elapsed();
        let (mv, score) = iteration.scored[0];
        order = iteration.scored.iter().map(|&(mv, _)| mv).collect();
        if team.has_helpers()
            && let Ok(mut root) = shared.order.lock()
        {
            root.clone_from(&order);
        }
        best = Some((mv, score, depth));
        // Read now: a later iteration cut short overwrites the table's
        // entries along it.
        line = principal_variation(pos, mv, depth, &tables.midgame);
        limits.report(depth, score, nodes + team.helper_nodes(), || {
            line.iter().map(|&mv| notation(mv)).collect()
        });
        if depth == max_depth {
            break;
        }
        // Spend the budget: iterations go on until the deadline, and what
        // an unfinished one finds counts. A forced move needs no more.
        if budgeted && order.len() == 1 {
            break;
        }
        if limits.exhausted(nodes) {
            stopped = limits.stop_reason(nodes);
            break;
        }
    }

    if let Some(s) = likely {
        // A selective pass to the end of the game: deeper than any
        // midgame iteration.
        return report
            .line(
                move_view(s.best_move),
                s.pv.iter().map(|&mv| notation(mv)).collect(),
            )
            .unproven(s.score * DISC)
            .depth(empties)
            .nodes(nodes)
            .stopped(stopped)
            .build();
    }
    // The first iteration may be cut by an outside stop: any legal move.
    let (best_move, score, depth) = best.unwrap_or((order[0], 0, 0));
    // The last complete iteration's whole line, unless a move that the
    // unfinished one found better replaced its first move.
    let pv = if line.first() == Some(&best_move) {
        line
    } else {
        principal_variation(pos, best_move, depth, &tables.midgame)
    };
    report
        .line(move_view(best_move), pv.into_iter().map(notation).collect())
        .unproven(score)
        .depth(depth)
        .nodes(nodes)
        .stopped(stopped)
        .build()
}

/// A helper thread: iterative deepening with the midgame search at the
/// main thread's depth (see [`Team::shared_depth`]) in the main thread's
/// last root order, on the shared table, then, once the main thread
/// solves, the same solve on the shared endgame table; until stopped. The
/// two threads split each search by deferring what the other is on.
fn help(pos: &Othello, tables: &Tables, shared: &Shared, limits: &Limits, team: &Team) {
    let (p, o) = pos.player_opponent();
    let max_depth = limits.depth.clamp(1, MAX_DEPTH);
    let deepest = max_depth.min(pos.empties().saturating_sub(1));
    // The main thread solves only a search deep enough to reach the end.
    let may_solve = max_depth >= pos.empties();
    let midgame = limits.stop.child();
    if let Ok(mut flags) = shared.midgame.lock() {
        flags.push(midgame.clone());
    }
    let midgame_limits = Limits {
        stop: midgame,
        ..limits.clone()
    };
    let mut done = 0;
    while !shared.solving() && !limits.expired() {
        let depth = team.shared_depth(done);
        if depth > deepest {
            if !may_solve {
                // Nothing left to help with: leave at once, so that the
                // main thread's answer never waits on this thread.
                return;
            }
            // Wait for the solve.
            std::thread::sleep(std::time::Duration::from_micros(100));
            continue;
        }
        let Ok(order) = shared.order.lock().map(|o| o.clone()) else {
            return;
        };
        let mut mid = Midgame::new(&tables.midgame, &midgame_limits).in_team(team);
        let iteration = mid.root(p, o, &order, depth);
        team.add_nodes(mid.nodes);
        if iteration.complete {
            done = depth;
        }
    }
    if limits.expired() {
        return;
    }
    let Ok(order) = shared.order.lock().map(|o| o.clone()) else {
        return;
    };
    let mut solver = Solver::new(&tables.endgame, limits).in_team(team);
    solver.solve_within(p, o, &order);
    team.add_nodes(solver.nodes);
}

/// The limits of a trial solve after `nodes` nodes: `TRIAL_SHARE` of the
/// time and of the nodes left, and at most `time` (what the next midgame
/// iteration would take, so that a trial that fails costs the midgame
/// search about a ply).
fn trial_limits(limits: &Limits, nodes: u64, time: std::time::Duration) -> Limits {
    limits.stage(TRIAL_SHARE, nodes).cap_deadline(time)
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
