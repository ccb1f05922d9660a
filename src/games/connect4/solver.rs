//! The exact Connect Four solver.
//!
//! The ideas are those of Pascal Pons' "Solving Connect 4" tutorial (the
//! fastest public solver; its test sets are our reference), written anew:
//!
//! * Scores count how early the game ends: a win for the side to move is
//!   `22 - s` where `s` is the number of discs the winner has placed at the
//!   end (so +18 is a win with the fourth disc, +1 with the last), a loss
//!   the negation, a draw 0.
//! * Negamax alpha-beta whose window is clamped by what the discs left
//!   allow: since no node is ever entered where the side to move can win at
//!   once, nor where it loses at once without a reply, the best and worst
//!   scores reachable are known from the move count alone.
//! * Only non-losing moves are searched (see [`Board::non_losing_moves`]).
//! * Moves are tried in order of the table's move, then the number of
//!   threats the move creates, then centre first.
//! * An exact transposition table (see [`super::table`]) keeps a lower and
//!   an upper bound per position.
//! * The root is solved by null-window searches that narrow `[min, max]`
//!   from both ends, probing near zero first because most positions are
//!   close to a draw, and a null window prunes far more than a wide one.
//!
//! With helper threads (see [`Probes`]) every thread searches the main
//! thread's null windows one after the other on the shared table; the
//! first to answer a window answers it for all. Deep in the tree a thread
//! puts last the moves another thread is searching now (the simplified
//! ABDADA of [`crate::search::smp`]), so the threads split each window's
//! tree rather than search it twice.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::board::{Board, CELLS, WIDTH, column_mask, winning_cells};
use super::book::Book;
use super::table::{NO_MOVE, SolverTable};
use crate::search::smp::Team;
use crate::search::{Clock, Limits, StopFlag};

pub use super::board::{CENTRE_FIRST, win_now_score};

/// The solve was stopped by the deadline or the stop flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aborted;

/// An exact solver over one worker's table.
pub struct Solver<'a> {
    /// Shared by the threads of one solve.
    table: &'a SolverTable,
    clock: Option<Clock<'a>>,
    book: Option<&'a Book>,
    /// Positions with at most this many discs may be in the book (or
    /// children of its entries); -1 without a book.
    book_ply: i32,
    /// Positions entered (every call of the search, the root included).
    pub nodes: u64,
    aborted: bool,
    /// The team of a solve with helpers (`None` alone).
    team: Option<&'a Team>,
    /// The null windows of a solve with helpers, and the number of the
    /// one this thread searches.
    probes: Option<&'a Probes>,
    probe: u64,
}

/// Nodes with at least this many empty cells put last the moves another
/// thread is searching; nearer the leaves the bookkeeping costs more than
/// the duplicated work.
const DEFER_EMPTY: i32 = 16;

/// The null windows the main thread of a solve searches, one after the
/// other, for its helpers to search alongside it; whichever thread
/// finishes a window first answers it, and the others drop it.
#[derive(Debug, Default)]
pub struct Probes {
    /// The window searched now: its number (from 1), the position and the
    /// bound (the window is `(bound, bound + 1)`).
    current: Mutex<(u64, Board, i32)>,
    /// The number of the window searched now.
    number: AtomicU64,
    /// The last window answered: its number above 8 bits of its score.
    answered: AtomicU64,
}

impl Probes {
    /// The main thread starts a window: answers its number.
    fn open(&self, board: &Board, bound: i32) -> u64 {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let number = current.0 + 1;
        *current = (number, *board, bound);
        self.number.store(number, Ordering::Release);
        number
    }

    /// The window searched now, if it is not `seen`.
    fn next(&self, seen: u64) -> Option<(u64, Board, i32)> {
        if self.number.load(Ordering::Acquire) == seen {
            return None;
        }
        Some(*self.current.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Window `number`'s score, if some thread answered it.
    #[inline]
    fn answer(&self, number: u64) -> Option<i32> {
        let answered = self.answered.load(Ordering::Acquire);
        (answered >> 8 == number).then_some(i32::from(answered as u8 as i8))
    }

    /// Answers window `number` with `score`, a bound on its position's
    /// score on the side of the window it shows (when two threads answer
    /// one window, either answer stands: both are true).
    fn give(&self, number: u64, score: i32) {
        let _ = self
            .answered
            .fetch_max(number << 8 | u64::from(score as i8 as u8), Ordering::AcqRel);
    }
}

impl<'a> Solver<'a> {
    /// A solver that forgets what the table held before (a new generation).
    pub fn new(table: &'a mut SolverTable, limits: Option<&'a Limits>) -> Self {
        table.new_solve();
        Self::keeping_table(table, limits)
    }

    /// A solver that keeps what the table holds: its bounds are exact, so
    /// they stay true for any later solve (the book's generator solves one
    /// position after another over one table).
    pub fn keeping_table(table: &'a mut SolverTable, limits: Option<&'a Limits>) -> Self {
        table.continue_solves();
        Self::sharing(table, limits)
    }

    /// A solver over a table other solvers of the same solve use at once
    /// (helper threads); the table's bounds are exact, so each thread
    /// uses what any other proved.
    pub fn sharing(table: &'a SolverTable, limits: Option<&'a Limits>) -> Self {
        Self {
            table,
            clock: limits.map(Clock::new),
            book: None,
            book_ply: -1,
            nodes: 0,
            aborted: false,
            team: None,
            probes: None,
            probe: 0,
        }
    }

    /// Makes this solver one thread of a solve with helpers: `team` is
    /// theirs, and `probes` the windows the main thread searches (this
    /// solver's own solve when it is the main thread, the ones it follows
    /// when it helps). Nothing changes without helpers.
    pub fn with_team(mut self, team: &'a Team, probes: &'a Probes) -> Self {
        if team.has_helpers() {
            self.team = Some(team);
            self.probes = Some(probes);
        }
        self
    }

    /// Takes exact values from `book` wherever the search meets its
    /// positions (and their children reached by a move it scores).
    pub fn with_book(mut self, book: &'a Book) -> Self {
        self.book = Some(book);
        self.book_ply = book.deepest_ply() as i32 + 1;
        self
    }

    /// The book's score of `board`, if the solver has a book that knows it.
    #[inline]
    fn book_score(&self, board: &Board) -> Option<i32> {
        self.book.and_then(|book| book.score(board))
    }

    /// The exact score of `board`, which must be ongoing (nobody has four
    /// and the board is not full).
    pub fn solve(&mut self, board: &Board) -> Result<i32, Aborted> {
        if board.can_win_next() {
            self.nodes += 1;
            return Ok(win_now_score(board.moves()));
        }
        if let Some(score) = self.book_score(board) {
            return Ok(score);
        }
        let n = board.moves() as i32;
        let mut min = -(CELLS as i32 - n) / 2;
        let mut max = (CELLS as i32 + 1 - n) / 2;
        while min < max {
            let mut med = min + (max - min) / 2;
            // Probe nearer zero first: most positions end close to it.
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.probe(board, med)?;
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        Ok(min)
    }

    /// Is the score of `board` at most `bound`? One null-window search.
    fn at_most(&mut self, board: &Board, bound: i32) -> Result<bool, Aborted> {
        if board.can_win_next() {
            return Ok(win_now_score(board.moves()) <= bound);
        }
        Ok(self.probe(board, bound)? <= bound)
    }

    /// One null-window search `(bound, bound + 1)` of `board`: a bound on
    /// its score on the side of `bound` it shows. With helpers, they
    /// search it too, and whichever finishes first answers.
    fn probe(&mut self, board: &Board, bound: i32) -> Result<i32, Aborted> {
        let Some(probes) = self.probes else {
            let r = self.negamax(board, bound, bound + 1);
            return if self.aborted { Err(Aborted) } else { Ok(r) };
        };
        self.probe = probes.open(board, bound);
        let r = self.negamax(board, bound, bound + 1);
        if !self.aborted {
            probes.give(self.probe, r);
            return Ok(r);
        }
        let answer = probes.answer(self.probe).ok_or(Aborted);
        self.aborted = answer.is_err();
        answer
    }

    /// Searches the windows the main thread of the solve searches (see
    /// [`Solver::with_team`]) as they come, until `stop` is raised.
    pub fn follow(&mut self, stop: &StopFlag) {
        let Some(probes) = self.probes else {
            return;
        };
        let mut seen = 0;
        while !stop.is_stopped() {
            let Some((number, board, bound)) = probes.next(seen) else {
                std::thread::yield_now();
                continue;
            };
            seen = number;
            if board.can_win_next() {
                continue;
            }
            self.probe = number;
            let r = self.negamax(&board, bound, bound + 1);
            if !self.aborted {
                probes.give(number, r);
            }
            self.aborted = false;
        }
    }

    /// A column that keeps the score `score` of ongoing `board` (the best
    /// move: the fastest win, the slowest loss, or a draw).
    pub fn best_move(&mut self, board: &Board, score: i32) -> Result<usize, Aborted> {
        if let Some((col, known)) = self.book.and_then(|b| b.best_move(board))
            && known == score
        {
            return Ok(col);
        }
        let hint = self.table.probe(board.key()).map_or(NO_MOVE, |k| k.mv);
        self.best_move_trying_first(board, score, hint)
    }

    /// [`Self::best_move`] that tries columns centre first only, so the
    /// choice among equally good moves does not depend on the table.
    pub fn first_best_move(&mut self, board: &Board, score: i32) -> Result<usize, Aborted> {
        self.best_move_trying_first(board, score, NO_MOVE)
    }

    fn best_move_trying_first(
        &mut self,
        board: &Board,
        score: i32,
        hint: u8,
    ) -> Result<usize, Aborted> {
        let playable = board.playable();
        let own = board.own_threats() & playable;
        if own != 0 {
            return Ok(first_column(own));
        }
        let safe = board.non_losing_moves();
        if safe == 0 {
            // Lost at once whatever happens: block one threat if there is one.
            let threats = board.opponent_threats() & playable;
            return Ok(first_column(if threats != 0 { threats } else { playable }));
        }
        let order = std::iter::once(hint as usize)
            .filter(|&c| c < WIDTH)
            .chain(CENTRE_FIRST);
        for col in order {
            let cell = safe & column_mask(col);
            if cell == 0 {
                continue;
            }
            let mut child = *board;
            child.play_cell(cell);
            if child.is_full() || self.at_most(&child, -score)? {
                return Ok(col);
            }
        }
        unreachable!("some non-losing move achieves the position's score")
    }

    /// The game played out from ongoing `board` (score `score`) with both
    /// sides playing best moves, until it ends; cut short if stopped.
    pub fn principal_variation(&mut self, board: &Board, score: i32) -> Vec<usize> {
        let mut pv = Vec::new();
        let mut pos = *board;
        let mut score = score;
        while !pos.is_full() && !pos.last_mover_won() {
            let Ok(col) = self.best_move(&pos, score) else {
                break;
            };
            pv.push(col);
            pos.play_col(col);
            score = -score;
        }
        pv
    }

    #[inline]
    fn poll(&mut self) {
        if let Some(clock) = &mut self.clock {
            self.aborted |= clock.poll(self.nodes);
        }
        if let Some(probes) = self.probes {
            // Another thread answered the window: this search is moot.
            self.aborted |= probes.answer(self.probe).is_some();
        }
    }

    /// The score of `board` if it lies in `(alpha, beta)`; otherwise a bound
    /// on the same side of the window. `board` must not allow the side to
    /// move an immediate win.
    fn negamax(&mut self, board: &Board, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        let safe = board.non_losing_moves();
        let n = board.moves() as i32;
        if safe == 0 {
            // Every move lets the opponent win with its next disc.
            return -(CELLS as i32 - n) / 2;
        }
        if n >= CELLS as i32 - 2 {
            // Neither of the last two discs can win: a draw.
            return 0;
        }
        if n <= self.book_ply {
            if let Some(score) = self.book_score(board) {
                return score;
            }
        }
        // The opponent cannot win with its next disc, and neither can we.
        let mut lower = -(CELLS as i32 - 2 - n) / 2;
        let mut upper = (CELLS as i32 - 1 - n) / 2;
        let key = board.key();
        let mut hint = NO_MOVE;
        if let Some(known) = self.table.probe(key) {
            lower = lower.max(i32::from(known.lower));
            upper = upper.min(i32::from(known.upper));
            hint = known.mv;
        }
        if lower >= beta {
            return lower;
        }
        if upper <= alpha || lower == upper {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);

        let moves = ordered_moves(board, safe, hint);
        // Most nodes are near the leaves, where time goes to waiting for
        // the table: start every child's load now so they overlap.
        for &(_, cell) in moves.as_slice() {
            let mask = board.mask() | cell;
            self.table.prefetch((board.current() ^ board.mask()) + mask);
        }
        if let Some(team) = self.team
            && CELLS as i32 - n >= DEFER_EMPTY
        {
            return self.negamax_deferring(board, &moves, team, alpha, beta);
        }
        let alpha_searched = alpha;
        let mut best = hint;
        for &(_, cell) in moves.as_slice() {
            let mut child = *board;
            child.play_cell(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            let col = (cell.trailing_zeros() / 7) as u8;
            if score >= beta {
                self.table.store_lower(key, score as i8, col);
                return score;
            }
            if score > alpha {
                alpha = score;
                best = col;
            }
        }
        self.table.store_upper(key, alpha as i8);
        if alpha > alpha_searched {
            // A move landed inside the window: the score is exact.
            self.table.store_lower(key, alpha as i8, best);
        }
        alpha
    }

    /// [`Self::negamax`]'s loop over `moves` (the window already clamped
    /// by the table) in a solve with helpers: after the first move, a
    /// move whose position another thread is searching now is put off
    /// until the others are searched, when its bound is likely in the
    /// table.
    #[inline(never)]
    fn negamax_deferring(
        &mut self,
        board: &Board,
        moves: &MoveList,
        team: &Team,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let key = board.key();
        let alpha_searched = alpha;
        let mut best = NO_MOVE;
        let list = moves.as_slice();
        let mut deferred = [0u64; WIDTH];
        let mut put_off = 0;
        let mut i = 0;
        while i < list.len() + put_off {
            let (cell, may_defer) = match list.get(i) {
                Some(&(_, cell)) => (cell, i > 0),
                None => (deferred[i - list.len()], false),
            };
            i += 1;
            let mut child = *board;
            child.play_cell(cell);
            let busy = busy_key(&child);
            if may_defer && team.is_busy(busy) {
                deferred[put_off] = cell;
                put_off += 1;
                continue;
            }
            let score = {
                let _busy = team.enter(busy);
                -self.negamax(&child, -beta, -alpha)
            };
            if self.aborted {
                return 0;
            }
            let col = (cell.trailing_zeros() / 7) as u8;
            if score >= beta {
                self.table.store_lower(key, score as i8, col);
                return score;
            }
            if score > alpha {
                alpha = score;
                best = col;
            }
        }
        self.table.store_upper(key, alpha as i8);
        if alpha > alpha_searched {
            self.table.store_lower(key, alpha as i8, best);
        }
        alpha
    }
}

/// The key of `board` in the team's busy table: the board's own key is a
/// compact encoding, and the busy table reads high bits.
#[inline]
fn busy_key(board: &Board) -> u64 {
    board.key().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The lowest-numbered column among the single-cell moves in `cells`.
fn first_column(cells: u64) -> usize {
    cells.trailing_zeros() as usize / 7
}

/// Up to seven moves, sorted best first.
struct MoveList {
    moves: [(u32, u64); WIDTH],
    len: usize,
}

impl MoveList {
    fn as_slice(&self) -> &[(u32, u64)] {
        &self.moves[..self.len]
    }
}

/// The non-losing moves in `safe`, best first: the table's move, then by
/// the threats each creates, ties centre first.
#[inline]
fn ordered_moves(board: &Board, safe: u64, hint: u8) -> MoveList {
    let mut list = MoveList {
        moves: [(0, 0); WIDTH],
        len: 0,
    };
    for col in CENTRE_FIRST {
        let cell = safe & column_mask(col);
        if cell == 0 {
            continue;
        }
        let score = if col as u8 == hint {
            u32::MAX
        } else {
            winning_cells(board.current() | cell, board.mask() | cell).count_ones()
        };
        // Insertion sort, stable: a later column goes after equal scores.
        let mut i = list.len;
        while i > 0 && list.moves[i - 1].0 < score {
            list.moves[i] = list.moves[i - 1];
            i -= 1;
        }
        list.moves[i] = (score, cell);
        list.len += 1;
    }
    list
}
