//! A search's answer as the API shows it, built from the core's result.

use std::time::Instant;

use super::{GameTree, Limits, Workspace, elapsed_ms, render_line, search};
use crate::vocabulary::{MoveView, ProvenView, SearchReport};

/// Runs the generic alpha-beta core and renders its result.
pub fn search_report<G: GameTree>(pos: &G, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let start = Instant::now();
    let result = search(pos, limits, ws);
    let time_ms = elapsed_ms(start);
    let pv = render_line(pos, &result.pv);
    SearchReport {
        // A finished game (searched as a line's last move) has no move.
        best_move: result
            .best_move
            .map_or_else(MoveView::pass, |best| MoveView {
                cell: G::cell(best),
                notation: pos.notation(best),
            }),
        score: result.score,
        proven: result.proof.map(|p| ProvenView {
            result: p.outcome,
            plies: p.plies,
            disc_diff: None,
        }),
        depth: result.depth,
        nodes: result.nodes,
        time_ms,
        pv,
        stopped: result.stopped,
        to_move: pos.side_to_move(),
    }
}
