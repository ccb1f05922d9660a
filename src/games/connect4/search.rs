//! Connect Four's answer to a search: the opening book's when it holds the
//! position, an exact solve when the budget allows it, otherwise the
//! generic alpha-beta core's deepest iteration.

use super::board::{Board, HEIGHT, cell_of};
use super::book::Book;
use super::proof_of_score;
use super::solver::{Aborted, Probes, Solver};
use super::table::SolverTable;
use crate::search::{self, Limits, ReportBuilder, Workspace, smp};
use crate::vocabulary::{MoveView, SearchReport};

/// The share of a deadline given to the exact solver; the rest is kept
/// for the depth-limited fallback when the solve does not finish.
const SOLVER_SHARE: f64 = 0.8;

fn move_view(board: &Board, col: usize) -> MoveView {
    MoveView {
        cell: Some((HEIGHT - 1 - board.landing_row(col), col)),
        notation: (col + 1).to_string(),
    }
}

/// The book's exact answer when it holds ongoing `board` and a search
/// `depth` plies deep may solve it.
pub fn book_answer(board: &Board, depth: u32) -> Option<SearchReport> {
    let ongoing = !board.last_mover_won() && !board.is_full();
    if !ongoing || depth < board.empty_cells() {
        return None;
    }
    let book = Book::embedded();
    let (best, score) = book.best_move(board)?;
    Some(
        ReportBuilder::new(board.side_to_move())
            .line(move_view(board, best), book_line(book, board))
            .exact(proof_of_score(board, score), None)
            .depth(board.empty_cells())
            .from_book()
            .build(),
    )
}

/// Answers from the book when it holds `board` and the request allows an
/// exact answer; solves `board` exactly (with the book's help) when the
/// depth allows it and the solve fits in the time budget; otherwise
/// answers from the generic alpha-beta core.
pub fn search(board: &Board, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let report = ReportBuilder::new(board.side_to_move());
    let mut solver_nodes = 0;
    let ongoing = !board.last_mover_won() && !board.is_full();
    let book = Book::embedded();
    if ongoing && limits.depth >= board.empty_cells() {
        if let Some(answer) = book_answer(board, limits.depth) {
            return answer;
        }
        let solver_limits = limits.stage(SOLVER_SHARE, 0);
        let table = ws.extra::<SolverTable>();
        let (solved, nodes) = solve(board, &solver_limits, table, Some(book));
        if let Ok((score, pv)) = solved {
            return report
                .line(
                    move_view(board, pv[0]),
                    pv.iter().map(|c| (c + 1).to_string()).collect(),
                )
                .exact(proof_of_score(board, score), None)
                .depth(board.empty_cells())
                .nodes(nodes)
                .build();
        }
        solver_nodes = nodes;
    }
    let result = search::search(board, &limits.after(solver_nodes), ws);
    let best = result.best_move.map(|cell| cell_of(1 << cell).0);
    let pv = search::render_line(board, &result.pv);
    report
        .line(
            best.map_or_else(MoveView::pass, |col| move_view(board, col)),
            pv,
        )
        .score_and_proof(result.score, result.proof)
        .depth(result.depth)
        .nodes(result.nodes + solver_nodes)
        .stopped(result.stopped)
        .build()
}

/// Solves ongoing `board` exactly within `limits` on `table` (a new solve)
/// with `limits.threads` threads, taking exact values from `book` where it
/// has them: the score and the line from the best move on, and the nodes
/// of every thread.
pub fn solve(
    board: &Board,
    limits: &Limits,
    table: &mut SolverTable,
    book: Option<&Book>,
) -> (Result<(i32, Vec<usize>), Aborted>, u64) {
    table.new_solve();
    let table: &SolverTable = table;
    // Helpers, if any, search the main thread's null windows alongside it
    // on the same table.
    let probes = Probes::default();
    let ((solved, nodes), helper_nodes) = smp::with_helpers(
        limits,
        |_, limits, team| {
            let mut helper = solver(table, limits, book).with_team(team, &probes);
            helper.follow(&limits.stop);
            team.add_nodes(helper.nodes);
        },
        |team| {
            let mut main = solver(table, limits, book).with_team(team, &probes);
            let solved = main.solve(board).and_then(|score| {
                let best = main.best_move(board, score)?;
                let mut pv = vec![best];
                let mut next = *board;
                next.play_col(best);
                if !next.last_mover_won() && !next.is_full() {
                    pv.extend(main.principal_variation(&next, -score));
                }
                Ok((score, pv))
            });
            (solved, main.nodes)
        },
    );
    (solved, nodes + helper_nodes)
}

/// A solver of one thread of a solve on `table`.
fn solver<'a>(table: &'a SolverTable, limits: &'a Limits, book: Option<&'a Book>) -> Solver<'a> {
    let solver = Solver::sharing(table, Some(limits));
    match book {
        Some(book) => solver.with_book(book),
        None => solver,
    }
}

/// The best moves the book gives from `board` on, each side in turn, while
/// it holds the position reached.
fn book_line(book: &Book, board: &Board) -> Vec<String> {
    let mut line = Vec::new();
    let mut pos = *board;
    while let Some((col, _)) = book.best_move(&pos) {
        line.push((col + 1).to_string());
        pos.play_col(col);
        if pos.last_mover_won() || pos.is_full() {
            break;
        }
    }
    line
}
