//! A search's answer as the API shows it: every engine fills in one
//! [`ReportBuilder`], which starts timing when the search starts.

use std::time::Instant;

use super::{
    GameTree, Limits, Proof, Stopped, Workspace, elapsed_ms, proof_from_score, render_line, search,
};
use crate::vocabulary::{MoveView, Player, ProvenView, SearchReport, Source};

/// Collects what a search found; [`ReportBuilder::build`] stamps the time.
#[must_use]
pub struct ReportBuilder {
    start: Instant,
    report: SearchReport,
}

impl ReportBuilder {
    /// Starts timing a search for `to_move`. Until told otherwise the
    /// answer is a pass with score 0, depth 0, no nodes, stopped by depth.
    pub fn new(to_move: Player) -> Self {
        Self {
            start: Instant::now(),
            report: SearchReport {
                best_move: MoveView::pass(),
                score: 0,
                proven: None,
                depth: 0,
                nodes: 0,
                time_ms: 0,
                pv: Vec::new(),
                stopped: Stopped::Depth,
                to_move,
                source: Source::Search,
            },
        }
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// The move to play and the line expected after it (which starts
    /// with that move).
    pub fn line(mut self, best_move: MoveView, pv: Vec<String>) -> Self {
        self.report.best_move = best_move;
        self.report.pv = pv;
        self
    }

    /// A heuristic score; a proven win or loss is read from it.
    pub fn score(mut self, score: i32) -> Self {
        self.report.score = score;
        self.report.proven = proof_from_score(score).map(view);
        self
    }

    /// A score with the proof the search established beside it (a draw
    /// proven by searching to the end has no sign in the score).
    pub fn score_and_proof(mut self, score: i32, proof: Option<Proof>) -> Self {
        self.report.score = score;
        self.report.proven = proof.map(view);
        self
    }

    /// A heuristic score that is never read as a proof (an engine whose
    /// evaluation has its own scale).
    pub fn unproven(mut self, score: i32) -> Self {
        self.report.score = score;
        self.report.proven = None;
        self
    }

    /// An exact result: its score on the service's scale, the proof
    /// (with othello's final disc difference), and stopped as proven.
    pub fn exact(mut self, proof: Proof, disc_diff: Option<i32>) -> Self {
        self.report.score = proof.score();
        self.report.proven = Some(ProvenView {
            disc_diff,
            ..view(proof)
        });
        self.report.stopped = Stopped::Proven;
        self
    }

    /// The same result as `child`'s (the position after a forced move,
    /// such as a pass), seen one ply earlier by the other side.
    pub fn parent_of(mut self, child: SearchReport) -> Self {
        self.report.score = -child.score;
        self.report.proven = child.proven.map(ProvenView::parent);
        self.report.depth = child.depth + 1;
        self.report.nodes = child.nodes;
        self.report.stopped = child.stopped;
        self.report.pv.extend(child.pv);
        self
    }

    /// An answer read from the game's opening book.
    pub fn from_book(mut self) -> Self {
        self.report.source = Source::Book;
        self
    }

    /// The last completed iteration, in plies.
    pub fn depth(mut self, depth: u32) -> Self {
        self.report.depth = depth;
        self
    }

    pub fn nodes(mut self, nodes: u64) -> Self {
        self.report.nodes = nodes;
        self
    }

    pub fn stopped(mut self, stopped: Stopped) -> Self {
        self.report.stopped = stopped;
        self
    }

    /// The report, timed from [`ReportBuilder::new`].
    pub fn build(mut self) -> SearchReport {
        self.report.time_ms = elapsed_ms(self.start);
        self.report
    }
}

fn view(proof: Proof) -> ProvenView {
    ProvenView {
        result: proof.outcome,
        plies: proof.plies,
        disc_diff: None,
    }
}

/// Runs the generic alpha-beta core and renders its result.
pub fn search_report<G: GameTree>(pos: &G, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let report = ReportBuilder::new(pos.side_to_move());
    let result = search(pos, limits, ws);
    tree_report(report, pos, result.best_move, &result.pv)
        .score_and_proof(result.score, result.proof)
        .depth(result.depth)
        .nodes(result.nodes)
        .stopped(result.stopped)
        .build()
}

/// The move and line of a game the core searched, rendered: a finished
/// game (searched as a line's last move) has no move and answers a pass.
fn tree_report<G: GameTree>(
    report: ReportBuilder,
    pos: &G,
    best: Option<G::Move>,
    pv: &[G::Move],
) -> ReportBuilder {
    let best_move = best.map_or_else(MoveView::pass, |best| MoveView {
        cell: G::cell(best),
        notation: pos.notation(best),
    });
    report.line(best_move, render_line(pos, pv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN;
    use crate::vocabulary::Outcome;

    #[test]
    fn an_exact_result_scores_its_proof_and_stops_proven() {
        let proof = Proof {
            outcome: Outcome::Loss,
            plies: 6,
        };
        let report = ReportBuilder::new(Player::O)
            .exact(proof, Some(-10))
            .depth(12)
            .nodes(99)
            .build();
        assert_eq!(report.score, -(WIN - 6));
        assert_eq!(report.stopped, Stopped::Proven);
        let proven = report.proven.unwrap();
        assert_eq!(
            (proven.result, proven.plies, proven.disc_diff),
            (Outcome::Loss, 6, Some(-10))
        );
        assert_eq!(
            (report.depth, report.nodes, report.to_move),
            (12, 99, Player::O)
        );
    }

    #[test]
    fn a_forced_move_reports_its_child_one_ply_up() {
        let child = ReportBuilder::new(Player::O)
            .line(MoveView::pass(), vec!["e6".into(), "f4".into()])
            .score(WIN - 3)
            .depth(4)
            .nodes(50)
            .build();
        let report = ReportBuilder::new(Player::X)
            .line(MoveView::pass(), vec!["pass".into()])
            .parent_of(child)
            .build();
        assert_eq!(report.pv, ["pass", "e6", "f4"]);
        assert_eq!(report.score, -(WIN - 3));
        let proven = report.proven.unwrap();
        assert_eq!((proven.result, proven.plies), (Outcome::Loss, 4));
        assert_eq!((report.depth, report.nodes), (5, 50));
    }
}
