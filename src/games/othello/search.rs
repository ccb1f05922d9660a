//! One search request: iterative deepening with the midgame search, then
//! the exact solver once the end is within reach, rendered for the API.

use std::time::Instant;

use super::midgame::{Midgame, MidgameTable};
use super::solver::{EndgameTable, Solver};
use super::{Move, Othello, PASS, bitboard, move_view, notation};
use crate::games::{ProvenView, SearchReport};
use crate::search::{self, Limits, Outcome, Stopped, WIN, Workspace};

/// Plies: deep enough that the default search is bounded by time, and
/// reaches the end of the game (an exact solve) when few squares are empty.
pub const DEFAULT_DEPTH: u32 = 60;
pub const MAX_DEPTH: u32 = 60;
/// About a second per move gives a strong move on a small machine.
pub const DEFAULT_TIME_MS: u64 = 1_000;
/// With at most this many empties the search goes straight to the solver
/// after a short midgame search that orders the root moves.
pub const SOLVE_EMPTIES: u32 = 20;
/// Midgame depth that orders the root before an early solve.
const ORDER_DEPTH: u32 = 6;
/// Without a deadline (an explicit deep `depth`), the deepest midgame
/// search run before solving.
const UNTIMED_ORDER_DEPTH: u32 = 12;
/// Once the midgame search is this close to the end, try the solver.
const SOLVE_GAP: u32 = 10;

/// Searches `pos` (a game not yet over) within `limits`.
pub fn search(pos: &Othello, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let start = Instant::now();
    let (p, o) = pos.player_opponent();
    if pos.is_over() {
        // Callers refuse finished games first; answer sensibly anyway.
        let done = super::solver::Solution {
            score: pos.final_score(),
            best_move: PASS,
            pv: Vec::new(),
            nodes: 1,
        };
        return proven_report(pos, &done, 1, start);
    }
    if bitboard::moves(p, o) == 0 {
        // A forced pass: search the opponent's position and answer "pass".
        let mut after = *pos;
        after.play(PASS);
        let child = search(&after, limits, ws);
        let mut pv = vec!["pass".to_owned()];
        pv.extend(child.pv);
        return SearchReport {
            best_move: move_view(PASS),
            score: -child.score,
            proven: child.proven.map(ProvenView::parent),
            depth: child.depth + 1,
            nodes: child.nodes,
            time_ms: search::elapsed_ms(start),
            pv,
            stopped: child.stopped,
            to_move: pos.to_move(),
        };
    }

    let empties = pos.empties();
    let max_depth = limits.depth.clamp(1, MAX_DEPTH);
    let mut nodes = 0;
    let mut order: Vec<Move> = bitboard::Squares(bitboard::moves(p, o))
        .map(|sq| sq as Move)
        .collect();
    let mut best: Option<(Move, i32, u32)> = None;
    let mut stopped = Stopped::Depth;
    ws.extra::<MidgameTable>().new_search();
    ws.extra::<EndgameTable>().new_search();

    for depth in 1..=max_depth {
        let solve_now = max_depth >= empties
            && (depth >= empties
                || (empties <= SOLVE_EMPTIES && depth > ORDER_DEPTH.min(empties - 1))
                || depth + SOLVE_GAP >= empties
                // With no clock, a deeper midgame search only orders the
                // root; past this depth it costs more than it saves.
                || (limits.deadline.is_none() && depth > UNTIMED_ORDER_DEPTH));
        if solve_now {
            let stage = limits.after(nodes);
            let mut solver = Solver::new(ws.extra::<EndgameTable>(), &stage);
            let solution = solver.solve(p, o, &order);
            nodes += solver.nodes;
            if let Some(s) = solution {
                return proven_report(pos, &s, nodes, start);
            }
            stopped = stage.stop_reason(solver.nodes);
            break;
        }
        let iteration_start = Instant::now();
        let stage = limits.after(nodes);
        let mut mid = Midgame::new(ws.extra::<MidgameTable>(), &stage);
        let result = mid.root(p, o, &order, depth);
        nodes += mid.nodes;
        match result {
            Some(scored) => {
                order = scored.iter().map(|&(mv, _)| mv).collect();
                best = Some((scored[0].0, scored[0].1, depth));
                limits.report(depth, scored[0].1, nodes, || {
                    principal_variation(pos, scored[0].0, depth, ws.extra::<MidgameTable>())
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
        if let Some(deadline) = limits.deadline {
            // The next iteration costs a few times this one: do not start
            // what cannot finish (unless the next step is the solver).
            let now = Instant::now();
            let spent = now - iteration_start;
            if now >= deadline || (now + spent * 3 > deadline && depth + 1 + SOLVE_GAP < empties) {
                stopped = Stopped::Time;
                break;
            }
        }
        if limits.exhausted(nodes) {
            stopped = limits.stop_reason(nodes);
            break;
        }
    }

    // The first iteration may be cut by an outside stop: any legal move.
    let (best_move, score, depth) = best.unwrap_or((order[0], 0, 0));
    let pv = principal_variation(pos, best_move, depth, ws.extra::<MidgameTable>());
    SearchReport {
        best_move: move_view(best_move),
        score,
        proven: None,
        depth,
        nodes,
        time_ms: search::elapsed_ms(start),
        pv: pv.into_iter().map(notation).collect(),
        stopped,
        to_move: pos.to_move(),
    }
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
fn proven_report(
    pos: &Othello,
    s: &super::solver::Solution,
    nodes: u64,
    start: Instant,
) -> SearchReport {
    let plies = s.pv.len() as u32;
    let (result, score) = match s.score.signum() {
        1 => (Outcome::Win, WIN - plies as i32),
        -1 => (Outcome::Loss, -(WIN - plies as i32)),
        _ => (Outcome::Draw, 0),
    };
    SearchReport {
        best_move: move_view(s.best_move),
        score,
        proven: Some(ProvenView {
            result,
            plies,
            disc_diff: Some(s.score),
        }),
        depth: pos.empties(),
        nodes,
        time_ms: search::elapsed_ms(start),
        pv: s.pv.iter().map(|&mv| notation(mv)).collect(),
        stopped: Stopped::Proven,
        to_move: pos.to_move(),
    }
}
