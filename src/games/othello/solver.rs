//! The exact endgame solver: the final disc difference under perfect play.
//!
//! Scores are disc differences for the side to move with the empty squares
//! given to the winner (as in the FFO files). The shape is that of the
//! strong solvers: a full-window principal-variation search only along the
//! PV, null-window searches everywhere else; fastest-first ordering (fewest
//! opponent replies) with a transposition table while many squares are
//! empty, joined by the trained pattern evaluation ([`super::patterns`])
//! higher up; parity ordering and no table near the end; special code for the
//! last four empties; and stability cut-offs (the opponent's stable discs
//! cap what the side to move can still reach). Far from the end, selective
//! passes come first (as in Edax): the same search with ProbCut pruning on
//! a shallow pattern search, ever less aggressive, whose likely bounds and
//! moves order the exact search that follows; the exact search takes their
//! moves, never their bounds.
//!
//! This file holds the solver's entry and its deep searches; the move
//! ordering, the table and the searches near the end have files of their
//! own below it.

mod order;
mod shallow;
mod table;

pub use table::EndgameTable;

use super::bitboard::{Squares, flips, flips_on, moves, moves_on, stable_discs_on};
use super::zobrist;
use super::{Move, PASS};
use crate::search::smp::{Team, Walk};
use crate::search::{Clock, Limits};
use order::move_list;

/// Beyond any disc difference.
const INF: i32 = 65;
/// At this many empties and fewer: parity ordering and no table.
const SHALLOW: u32 = 7;
/// From this many empties on, children are looked up in the table before
/// any is searched (enhanced transposition cut-off).
const ETC_EMPTIES: u32 = 12;

/// From this many empties on, the exact solve is preceded by selective
/// passes, in which ProbCut prunes down to `SELECTIVE_MIN_EMPTIES`.
const SELECTIVE_EMPTIES: u32 = 18;
const SELECTIVE_MIN_EMPTIES: u32 = 12;
/// The passes' selectivity: standard deviations of the shallow search's
/// error that a ProbCut test asks for (Edax's 73%, 87%, 95% and 98%).
const SELECTIVITY: &[f64] = &[1.1, 1.5, 2.0, 2.6];

/// The depth of the shallow search that predicts the exact score with `n`
/// empties.
#[inline]
fn probcut_depth(n: u32) -> u32 {
    (n / 5).min(4)
}

/// The standard deviation of the exact score around the shallow search's
/// value, in discs, as the passes assume it. (Measured with `othello_train
/// endcut`, it is about 7–9 discs at 10–18 empties; smaller margins save
/// more nodes over the passes: on FFO #40–#49, 2 + 0.1 per empty square
/// took 1.07 G nodes, the measured one 1.21 G and 3 + 0.15 per empty
/// 1.16 G. A pass that prunes too much costs nodes, never exactness.)
#[inline]
fn probcut_sigma(n: u32) -> f64 {
    2.0 + 0.1 * f64::from(n)
}

/// The value of `p` to move against `o` by the shallow search the
/// selective passes' ProbCut tests use, `depth` plies on the pattern
/// evaluation, in 1/`SCALE` discs (for fitting [`probcut_sigma`]).
pub fn shallow_value(p: u64, o: u64, depth: u32) -> i32 {
    order::eval_search::<false>(p, o, depth, i32::MIN / 2, i32::MAX / 2)
}

/// The final disc difference for `p` when neither side can move: empties
/// go to the winner.
#[inline]
pub fn final_score(p: u64, o: u64) -> i32 {
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - pc - oc;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => pc - oc + empties,
        std::cmp::Ordering::Less => pc - oc - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// A null-window search at `n` empties can fail low on stability only if
/// alpha is at least this high (the opponent must own enough stable discs).
#[inline]
fn stability_threshold(n: u32) -> i32 {
    (2 * n as i32 - 4).min(64)
}

/// What an exact solve found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Final disc difference for the side to move under perfect play.
    pub score: i32,
    /// A best move ([`PASS`] when the side to move must pass).
    pub best_move: Move,
    /// A perfect-play line to the end of the game, passes included.
    pub pv: Vec<Move>,
    pub nodes: u64,
}

/// How far a solve got.
#[derive(Clone, Debug)]
pub enum Solve {
    /// Solved exactly.
    Exact(Solution),
    /// Stopped before the exact search finished, after a selective pass
    /// that asked for this many standard deviations: its score and line are
    /// likely, not proven.
    Likely(Solution, f64),
    /// Stopped before any pass finished (or the game is over).
    Stopped,
}

/// With helpers, a node with at least this many empties defers the moves
/// another thread is solving (see [`smp::Walk`]).
const DEFER_EMPTIES: u32 = 12;

/// One solve's state.
pub struct Solver<'a> {
    table: table::View<'a>,
    /// The other threads of the solve, when it has helpers.
    team: Option<&'a Team>,
    clock: Clock<'a>,
    pub nodes: u64,
    aborted: bool,
    /// Whether the pattern evaluation orders moves.
    patterns: bool,
    /// In a selective pass, how many standard deviations of the shallow
    /// search's error a ProbCut test asks for; `None` in the exact search.
    selectivity: Option<f64>,
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a EndgameTable, limits: &'a Limits) -> Self {
        Self {
            table: table.view(),
            team: None,
            clock: Clock::new(limits),
            nodes: 0,
            aborted: false,
            patterns: true,
            selectivity: None,
        }
    }

    /// The same solver as one thread of `team`: with helpers, it defers
    /// the moves another thread is solving.
    pub fn in_team(mut self, team: &'a Team) -> Self {
        self.team = Some(team);
        self
    }

    /// A solver that orders moves without the pattern evaluation: the
    /// same scores, found with more nodes, and lines that do not depend on
    /// the trained weights (what the weights are trained on).
    pub fn without_patterns(mut self) -> Self {
        self.patterns = false;
        self
    }

    /// Solves the position exactly. Root moves are tried in `order` first
    /// (e.g. from a shallow midgame search), the rest after. `None` when the
    /// deadline or stop flag ended the solve first, or the game is over.
    pub fn solve(&mut self, p: u64, o: u64, order: &[Move]) -> Option<Solution> {
        match self.solve_within(p, o, order) {
            Solve::Exact(s) => Some(s),
            _ => None,
        }
    }

    /// Solves the position as [`Solver::solve`] does; a solve stopped by
    /// its limits after a selective pass answers with that pass's likely
    /// score and line.
    pub fn solve_within(&mut self, p: u64, o: u64, order: &[Move]) -> Solve {
        if crate::cpu::has_v3() {
            self.solve_root::<true>(p, o, order)
        } else {
            self.solve_root::<false>(p, o, order)
        }
    }

    crate::versioned! { V3;
    /// [`Solver::solve_within`] in one compiled version of the search.
    pub(crate) fn solve_root(&mut self, p: u64, o: u64, order: &[Move]) -> Solve {
        let n = 64 - (p | o).count_ones();
        let m = moves_on::<V3>(p, o);
        if m == 0 {
            if moves_on::<V3>(o, p) == 0 {
                return Solve::Stopped;
            }
            let after_pass = |child: Solution| {
                let mut pv = vec![PASS];
                pv.extend(child.pv);
                Solution {
                    score: -child.score,
                    best_move: PASS,
                    pv,
                    nodes: child.nodes,
                }
            };
            return match self.solve_root::<V3>(o, p, &[]) {
                Solve::Exact(child) => Solve::Exact(after_pass(child)),
                Solve::Likely(child, t) => Solve::Likely(after_pass(child), t),
                Solve::Stopped => Solve::Stopped,
            };
        }
        let mut root: Vec<Move> = order
            .iter()
            .copied()
            .filter(|&mv| mv != PASS && m >> mv & 1 == 1)
            .collect();
        if root.len() < m.count_ones() as usize {
            let mut rest = self.sorted_moves::<V3>(p, o, m, None, n);
            rest.retain(|(_, mv, _)| !root.contains(mv));
            root.extend(rest.iter().map(|&(_, mv, _)| mv));
        }
        // Far from the end, selective passes first: each fills the table
        // with likely bounds and good moves, the next starts from its best
        // move, and the exact search at the end takes the moves.
        let mut likely = None;
        if self.patterns && n >= SELECTIVE_EMPTIES {
            for &t in SELECTIVITY {
                self.table.set_selective(true);
                self.selectivity = Some(t);
                let pass = self.root_pass::<V3>(p, o, &root, n);
                self.table.set_selective(false);
                self.selectivity = None;
                let Some((score, best_move, pv)) = pass else {
                    break;
                };
                if let Some(i) = root.iter().position(|&mv| mv == best_move) {
                    root[..=i].rotate_right(1);
                }
                let solution = Solution {
                    score,
                    best_move,
                    pv,
                    nodes: self.nodes,
                };
                likely = Some((solution, t));
            }
        }
        let exact = if self.aborted {
            None
        } else {
            self.root_pass::<V3>(p, o, &root, n)
        };
        match (exact, likely) {
            (Some((score, best_move, pv)), _) => {
                self.table.store(p, o, n, score, score, best_move);
                Solve::Exact(Solution {
                    score,
                    best_move,
                    pv,
                    nodes: self.nodes,
                })
            }
            (None, Some((solution, t))) => Solve::Likely(solution, t),
            (None, None) => Solve::Stopped,
        }
    }
    }

    crate::versioned! { V3;
    /// One search of the root moves in the order given: the best score,
    /// its move and line; `None` when stopped.
    fn root_pass(&mut self, p: u64, o: u64, root: &[Move], n: u32) -> Option<(i32, Move, Vec<Move>)> {
        self.nodes += 1;
        let mut alpha = -INF;
        let mut best = (-INF, root[0], Vec::new());
        let mut walk = Walk::new(self.team, root.len());
        while let Some(i) = walk.next() {
            let mv = root[i];
            let f = flips_on::<V3>(p, o, mv as usize);
            let (np, no) = (o & !f, p | f | 1 << mv);
            let Some(_busy) = walk.enter(i, || zobrist::hash(np, no)) else {
                continue;
            };
            let mut child_pv = Vec::new();
            let score = if i == 0 {
                -self.pvs::<V3>(np, no, -INF, INF, n - 1, &mut child_pv)
            } else {
                let probe = -self.nws::<V3>(np, no, -alpha - 1, n - 1);
                if probe > alpha && !self.aborted {
                    -self.pvs::<V3>(np, no, -INF, -alpha, n - 1, &mut child_pv)
                } else {
                    probe
                }
            };
            if self.aborted {
                return None;
            }
            if score > best.0 {
                let mut pv = vec![mv];
                pv.extend(child_pv);
                best = (score, mv, pv);
                alpha = score;
            }
        }
        Some(best)
    }
    }

    #[inline]
    fn poll(&mut self) {
        self.aborted |= self.clock.poll(self.nodes);
    }

    crate::versioned! { V3;
    /// A full-window search along the principal variation, collecting it.
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        let mut alpha = alpha;
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if n == 0 {
            return final_score(p, o);
        }
        let m = moves_on::<V3>(p, o);
        if m == 0 {
            if moves_on::<V3>(o, p) == 0 {
                return final_score(p, o);
            }
            let mut child = Vec::new();
            let score = -self.pvs::<V3>(o, p, -beta, -alpha, n, &mut child);
            pv.clear();
            pv.push(PASS);
            pv.extend(child);
            return score;
        }
        let tt_move = self.table.probe(p, o).map(|e| e.mv);
        let list = self.sorted_moves::<V3>(p, o, m, tt_move, n);
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = PASS;
        let mut walk = Walk::new(self.team.filter(|_| n >= DEFER_EMPTIES), list.len());
        while let Some(i) = walk.next() {
            let (_, sq, f) = list[i];
            let (np, no) = (o & !f, p | f | 1 << sq);
            let Some(_busy) = walk.enter(i, || zobrist::hash(np, no)) else {
                continue;
            };
            let mut child = Vec::new();
            let score = if i == 0 {
                -self.pvs::<V3>(np, no, -beta, -alpha, n - 1, &mut child)
            } else {
                let probe = -self.nws::<V3>(np, no, -alpha - 1, n - 1);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.pvs::<V3>(np, no, -beta, -alpha, n - 1, &mut child)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(sq);
                    pv.extend(child);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.table
            .store_result((p, o), n, (best, alpha_orig, beta), best_move);
        best
    }
    }

    /// Null-window search: is the score above `alpha`? Fail-soft, so the
    /// value returned is a bound on the true score on the side it failed.
    #[inline(always)]
    fn nws<const V3: bool>(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1..=4 => self.nws_last::<V3>(p, o, alpha, n),
            _ if n <= SHALLOW => self.nws_shallow::<V3>(p, o, alpha, n),
            _ => self.nws_deep::<V3>(p, o, alpha, n),
        }
    }

    crate::versioned! { V3;
    /// The deep null-window search: table, stability, fastest first.
    fn nws_deep(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if alpha >= stability_threshold(n) {
            let ceiling = 64 - 2 * stable_discs_on::<V3>(o, p).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
        }
        if let Some(t) = self.selectivity
            && n >= SELECTIVE_MIN_EMPTIES
            && let Some(cut) = self.probcut::<V3>(p, o, alpha, n, t)
        {
            return cut;
        }
        let mut tt_move = None;
        if let Some(e) = self.table.probe(p, o) {
            let (lower, upper) = (e.lower, e.upper);
            if lower > alpha {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            tt_move = Some(e.mv);
        }
        let m = moves_on::<V3>(p, o);
        if m == 0 {
            if moves_on::<V3>(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws_deep::<V3>(o, p, -alpha - 1, n);
        }
        let mut list = move_list::<V3>(p, o, m);
        if n >= ETC_EMPTIES {
            // Enhanced transposition cut-off: a child already known to be
            // bad enough for the opponent settles this node at once.
            for &(_, sq, f) in &list {
                if let Some(e) = self.table.probe(o & !f, p | f | 1 << sq) {
                    let score = -e.upper;
                    if score > alpha {
                        self.table.store(p, o, n, score, 64, sq);
                        return score;
                    }
                }
            }
        }
        let mut best = -INF;
        let mut best_move = PASS;
        // The table's move first, before the others are ordered: when it
        // cuts off, ordering them would be wasted work.
        if let Some(i) = tt_move.and_then(|mv| list.iter().position(|e| e.1 == mv)) {
            let (_, sq, f) = list.swap_remove(i);
            let score = -self.nws::<V3>(o & !f, p | f | 1 << sq, -alpha - 1, n - 1);
            if self.aborted {
                return 0;
            }
            best = score;
            best_move = sq;
            if score > alpha {
                self.table.store(p, o, n, best, 64, best_move);
                return best;
            }
        }
        self.order::<V3>(&mut list, p, o, n);
        if n > SHALLOW + 1 {
            for &(_, sq, f) in &list {
                self.table.prefetch(o & !f, p | f | 1 << sq);
            }
        }
        // The table's move, if searched, came first: any of these may wait.
        let mut walk = Walk::new(self.team.filter(|_| n >= DEFER_EMPTIES), list.len())
            .after_first(best > -INF);
        while let Some(i) = walk.next() {
            let (_, sq, f) = list[i];
            let (np, no) = (o & !f, p | f | 1 << sq);
            let Some(_busy) = walk.enter(i, || zobrist::hash(np, no)) else {
                continue;
            };
            let score = -self.nws::<V3>(np, no, -alpha - 1, n - 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    break;
                }
            }
        }
        if best > alpha {
            self.table.store(p, o, n, best, 64, best_move);
        } else {
            self.table.store(p, o, n, -64, best, PASS);
        }
        best
    }
    }
}

/// Plain minimax over disc differences to the end of the game: the oracle
/// the solver is tested against. Exponential; only for a few empties.
pub fn minimax(p: u64, o: u64) -> i32 {
    let m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -minimax(o, p);
    }
    Squares(m)
        .map(|sq| {
            let f = flips(p, o, sq);
            -minimax(o & !f, p | f | 1 << sq)
        })
        .max()
        .unwrap_or(-INF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::midgame::{Midgame, MidgameTable};
    use crate::games::othello::perft;

    /// Positions reached by random play from the start, `empties` squares
    /// before the end, with a move to play.
    fn random_positions(count: usize, empties: u32) -> Vec<(u64, u64)> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut found = Vec::new();
        while found.len() < count {
            let (mut p, mut o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
            while 64 - (p | o).count_ones() > empties {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                let sq = Squares(m)
                    .nth(next() as usize % m.count_ones() as usize)
                    .unwrap();
                let f = flips(p, o, sq);
                (p, o) = (o & !f, p | f | 1 << sq);
            }
            if 64 - (p | o).count_ones() == empties && moves(p, o) != 0 {
                found.push((p, o));
            }
        }
        found
    }

    /// The baseline and x86-64-v3 builds of the solver walk the same tree:
    /// same scores, lines and node counts (where the CPU runs both).
    #[test]
    fn both_compiled_versions_solve_alike() {
        if !crate::cpu::has_v3() {
            return;
        }
        let limits = Limits::depth(60);
        for (p, o) in random_positions(20, 16) {
            let solve = |v3: bool| {
                let table = EndgameTable::with_bytes(4 << 20);
                let mut solver = Solver::new(&table, &limits);
                let s = if v3 {
                    solver.solve_root::<true>(p, o, &[])
                } else {
                    solver.solve_root::<false>(p, o, &[])
                };
                match s {
                    Solve::Exact(s) => Some((s.score, s.pv, s.nodes)),
                    _ => None,
                }
            };
            assert_eq!(solve(false), solve(true), "{p:#x} {o:#x}");
        }
    }

    #[test]
    fn both_compiled_versions_search_the_midgame_alike() {
        if !crate::cpu::has_v3() {
            return;
        }
        let limits = Limits::depth(60);
        // Both sides of the switch to the pattern evaluation (20 empties).
        for empties in [18, 30] {
            for (p, o) in random_positions(10, empties) {
                let order: Vec<Move> = Squares(moves(p, o)).map(|sq| sq as Move).collect();
                let search = |v3: bool| {
                    let table = MidgameTable::with_bytes(1 << 20);
                    let mut midgame = Midgame::new(&table, &limits);
                    let scored = if v3 {
                        midgame.root_search::<true>(p, o, &order, 5)
                    } else {
                        midgame.root_search::<false>(p, o, &order, 5)
                    };
                    (scored, midgame.nodes)
                };
                assert_eq!(search(false), search(true), "{p:#x} {o:#x}");
            }
        }
    }

    #[test]
    fn both_compiled_versions_count_perft_alike() {
        let (p, o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        assert_eq!(perft::count::<false>(p, o, 7), 55_092);
        if crate::cpu::has_v3() {
            assert_eq!(perft::count::<true>(p, o, 7), 55_092);
        }
    }
}
