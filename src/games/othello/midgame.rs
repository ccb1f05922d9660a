//! The midgame search: negamax alpha-beta with principal variation search
//! on the bitboards, a transposition table, ProbCut (Buro's forward
//! pruning: a shallow search predicts the deep one's value) at null-window
//! nodes, and move ordering by the table's move, then by the opponent's
//! mobility after the move joined by the evaluation of the position after
//! it, or deeper in the tree by a shallow search of it. Leaves are valued
//! by the trained pattern evaluation ([`patterns`]).

use arrayvec::ArrayVec;

use super::bitboard::{CORNERS, Squares, flips_on, moves_on, weighted_mobility};
use super::eval::EVAL_BOUND;
use super::solver::final_score;
use super::{Move, PASS, eval, patterns, zobrist};
use crate::search::smp::{Team, Walk};
use crate::search::table::{Age, Entry as TableEntry, Table};
use crate::search::{Bound, Clock, Limits};

/// Pattern values (1/`SCALE` discs) are multiplied by this to land in the
/// search's range, where a disc is worth 128 (`DISC`).
const PATTERN_WEIGHT: i32 = 4;

/// What values the search's leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The trained pattern evaluation ([`patterns`]).
    Patterns,
    /// The hand-made evaluation ([`eval`]): what the trainer's first
    /// generation plays with, so that no trained weights go into it.
    Hand,
}

/// From this depth on, ProbCut may cut a null-window search short.
const PROBCUT_MIN_DEPTH: u32 = 3;
/// How far beyond the bound a ProbCut test asks the shallow value to be:
/// 1.5 standard deviations of the deep value around the shallow one, six
/// discs. The deviations were measured on self-play positions
/// (`examples/othello_train.rs`, `probcut`): 4–5 discs for the depth pairs
/// the search uses, growing with empties and the depths' gap. A margin
/// from a linear fit to them (empties, shallow and deep depth) cut less and
/// scored 27–35–2 against this constant in 64 games of self-play (−44 Elo,
/// [−123, +32]), so the constant stays.
const PROBCUT_MARGIN: i32 = 6 * DISC;

/// The shallow search that predicts a `depth` search: about half as deep,
/// with the same parity (the side to move at the leaves matters to the
/// evaluation).
#[inline]
fn probcut_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// One disc in search units.
pub const DISC: i32 = patterns::SCALE * PATTERN_WEIGHT;
/// From this depth on, moves are also ordered by the evaluation of the
/// position after them.
const ORDER_EVAL_DEPTH: u32 = 3;
/// From this depth on, at nodes with an open window, moves are ordered by
/// a shallow search of the position after them: one ply, and one more
/// every three plies of depth. Null-window nodes, most of the tree, order
/// by the evaluation alone: to depth 14 the searches cost more than their
/// order saved (27.3 M nodes against 38.3 M on the bench positions).
const ORDER_SEARCH_DEPTH: u32 = 6;
/// The evaluation's weight in the ordering key, where one opponent reply
/// counts 16: a divisor of search units.
const ORDER_EVAL_DIVISOR: i32 = DISC / 8;

/// A finished game scores beyond every heuristic value, plus the margin.
const GAME_OVER: i32 = EVAL_BOUND + 1_000;
const INF: i32 = GAME_OVER + 1_000;

/// Static square values to break ordering ties: corners first, the squares
/// that give corners away last.
const SQUARE_BONUS: [i32; 64] = {
    let rows: [[i32; 8]; 8] = [
        [20, -3, 11, 8, 8, 11, -3, 20],
        [-3, -7, -4, 1, 1, -4, -7, -3],
        [11, -4, 2, 2, 2, 2, -4, 11],
        [8, 1, 2, -3, -3, 2, 1, 8],
        [8, 1, 2, -3, -3, 2, 1, 8],
        [11, -4, 2, 2, 2, 2, -4, 11],
        [-3, -7, -4, 1, 1, -4, -7, -3],
        [20, -3, 11, 8, 8, 11, -3, 20],
    ];
    let mut out = [0; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = rows[i / 8][i % 8];
        i += 1;
    }
    out
};

/// The score of a finished game for `p`: decisive beyond any heuristic,
/// and better the more discs.
#[inline]
pub fn game_over_score(p: u64, o: u64) -> i32 {
    let diff = final_score(p, o);
    diff * 10 + diff.signum() * GAME_OVER
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i16,
    depth: u8,
    bound: u8,
    mv: u8,
    generation: u8,
}

impl TableEntry for Entry {
    type Words = [u64; 2];
    type Key = u64;
    const GENERATIONS: u32 = 256;

    #[inline]
    fn pack(&self) -> [u64; 2] {
        [
            self.key,
            u64::from(self.score as u16)
                | u64::from(self.depth) << 16
                | u64::from(self.bound) << 24
                | u64::from(self.mv) << 32
                | u64::from(self.generation) << 40,
        ]
    }

    #[inline]
    fn unpack([key, data]: [u64; 2]) -> Self {
        Self {
            key,
            score: data as u16 as i16,
            depth: (data >> 16) as u8,
            bound: (data >> 24) as u8,
            mv: (data >> 32) as u8,
            generation: (data >> 40) as u8,
        }
    }

    #[inline]
    fn stamp(&self) -> u16 {
        self.generation.into()
    }

    #[inline]
    fn set_stamp(&mut self, stamp: u16) {
        self.generation = stamp as u8;
    }

    #[inline]
    fn holds(&self, key: u64) -> bool {
        self.key == key
    }

    /// A result replaces an entry of an earlier search, a shallower one,
    /// or one of the same position.
    #[inline]
    fn replace(self, old: &Self, age: Age) -> Option<Self> {
        (age != Age::Current || old.depth <= self.depth || old.key == self.key).then_some(self)
    }
}

/// The midgame transposition table, one per worker. Each search bumps the
/// generation and ignores older entries, so answers never depend on what
/// the worker searched before.
pub struct MidgameTable {
    table: Table<Entry>,
}

impl Default for MidgameTable {
    /// The size the search was tuned with: 2^19 slots (8 MiB).
    fn default() -> Self {
        Self::with_bytes(8 << 20)
    }
}

impl MidgameTable {
    /// A table of at most `bytes`.
    pub fn with_bytes(bytes: usize) -> Self {
        Self {
            table: Table::with_bytes(bytes),
        }
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Starts a new search: older entries stop counting.
    pub fn new_search(&mut self) {
        self.table.new_search();
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        self.table.probe(key as usize & self.table.mask(), key)
    }

    #[inline]
    fn store(&self, key: u64, depth: u32, score: i32, bound: Bound, mv: Move) {
        let entry = Entry {
            key,
            score: score as i16,
            depth: depth as u8,
            bound: bound.bits(),
            mv,
            generation: 0,
        };
        self.table.store(key as usize & self.table.mask(), entry);
    }

    /// The table's move for a position, if any.
    pub fn best_move(&self, p: u64, o: u64) -> Option<Move> {
        self.probe(zobrist::hash(p, o)).map(|e| e.mv)
    }
}

/// What one iteration at the root found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The moves searched to the end, best first, with their scores: the
    /// best's exact (or, in an iteration stopped while confirming a move
    /// that beat the others, a lower bound), the others' upper bounds.
    /// All the root moves when the iteration is complete; the ones
    /// finished when it was stopped (then none, if the first move was not).
    pub scored: Vec<(Move, i32)>,
    /// Whether every root move was searched.
    pub complete: bool,
}

impl Iteration {
    /// The iteration's best move and score, when it has one.
    pub fn best(&self) -> Option<(Move, i32)> {
        self.scored.first().copied()
    }
}

/// With helpers, a node at least this deep defers the moves another thread
/// is searching (see [`smp::Walk`]); nearer the leaves, the bookkeeping
/// costs more than the work it shares.
const DEFER_DEPTH: u32 = 4;

/// The busy table's key of the position `(p, o)` searched `depth` deep.
#[inline]
fn busy_key(p: u64, o: u64, depth: u32) -> u64 {
    zobrist::hash(p, o) ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One midgame search's state.
pub struct Midgame<'a> {
    table: &'a MidgameTable,
    /// The other threads of the search, when it has helpers.
    team: Option<&'a Team>,
    clock: Clock<'a>,
    evaluation: Evaluation,
    /// Whether ProbCut prunes (see [`Midgame::exact`]).
    probcut: bool,
    pub nodes: u64,
    pub aborted: bool,
}

impl<'a> Midgame<'a> {
    pub fn new(table: &'a MidgameTable, limits: &'a Limits) -> Self {
        Self {
            table,
            team: None,
            clock: Clock::new(limits),
            evaluation: Evaluation::Patterns,
            probcut: true,
            nodes: 0,
            aborted: false,
        }
    }

    /// The same search as one thread of `team`: with helpers, it defers
    /// the moves another thread is searching.
    pub fn in_team(mut self, team: &'a Team) -> Self {
        self.team = Some(team);
        self
    }

    /// The same search with its leaves valued by `evaluation`.
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Self {
        self.evaluation = evaluation;
        self
    }

    /// The same search without ProbCut's forward pruning: every move is
    /// searched to the full depth, so the value is exactly the depth-limited
    /// minimax value (what the tests compare with plain negamax).
    pub fn exact(mut self) -> Self {
        self.probcut = false;
        self
    }

    /// A leaf's value for `p` (to move) against `o`, in `±EVAL_BOUND`.
    #[inline(always)]
    fn evaluate<const V3: bool>(&self, p: u64, o: u64) -> i32 {
        match self.evaluation {
            Evaluation::Patterns => {
                (patterns::value::<V3>(p, o) * PATTERN_WEIGHT).clamp(-EVAL_BOUND, EVAL_BOUND)
            }
            Evaluation::Hand => eval::value::<V3>(p, o),
        }
    }

    /// Searches every root move to `depth` in the order given. The best
    /// move's score is exact, the others' are bounds; the moves come best
    /// first. A search stopped before the end keeps what it finished (see
    /// [`Iteration`]).
    pub fn root(&mut self, p: u64, o: u64, order: &[Move], depth: u32) -> Iteration {
        if crate::cpu::has_v3() {
            self.root_search::<true>(p, o, order, depth)
        } else {
            self.root_search::<false>(p, o, order, depth)
        }
    }

    crate::versioned! { V3;
    /// [`Midgame::root`] in one compiled version of the search.
    pub(crate) fn root_search(&mut self, p: u64, o: u64, order: &[Move], depth: u32) -> Iteration {
        self.nodes += 1;
        let mut alpha = -INF;
        let mut scored = Vec::with_capacity(order.len());
        let mut walk = Walk::new(self.team, order.len());
        while let Some(i) = walk.next() {
            let mv = order[i];
            let f = flips_on::<V3>(p, o, mv as usize);
            let (np, no) = (o & !f, p | f | 1 << mv);
            let Some(_busy) = walk.enter(i, || busy_key(np, no, depth - 1)) else {
                continue;
            };
            let score = if i == 0 {
                -self.search::<V3>(np, no, depth - 1, -INF, INF)
            } else {
                let probe = -self.search::<V3>(np, no, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    let exact = -self.search::<V3>(np, no, depth - 1, -INF, -alpha);
                    if self.aborted {
                        // Stopped while confirming a move that beat the
                        // best: it is better all the same, by at least
                        // what the probe found.
                        scored.push((mv, probe));
                        break;
                    }
                    exact
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            alpha = alpha.max(score);
            scored.push((mv, score));
        }
        // Stable: among equal bounds, the previous order stands.
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        let complete = !self.aborted;
        if complete {
            let key = zobrist::hash(p, o);
            self.table
                .store(key, depth, scored[0].1, Bound::Exact, scored[0].0);
        }
        Iteration { scored, complete }
    }
    }

    crate::versioned! { V3;
    fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let mut alpha = alpha;
        self.nodes += 1;
        self.aborted |= self.clock.poll(self.nodes);
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            return self.evaluate::<V3>(p, o);
        }
        let m = moves_on::<V3>(p, o);
        if m == 0 {
            if moves_on::<V3>(o, p) == 0 {
                return game_over_score(p, o);
            }
            return -self.search::<V3>(o, p, depth, -beta, -alpha);
        }
        if depth == 1 {
            // Leaves next: ordering would cost more than it saves.
            let mut best = -INF;
            for sq in Squares(m) {
                self.nodes += 1;
                let f = flips_on::<V3>(p, o, sq);
                let score = -self.evaluate::<V3>(o & !f, p | f | 1 << sq);
                best = best.max(score);
                if best >= beta {
                    break;
                }
            }
            return best;
        }

        let key = zobrist::hash(p, o);
        let mut tt_move = PASS;
        if let Some(e) = self.table.probe(key) {
            tt_move = e.mv;
            if u32::from(e.depth) >= depth {
                let score = i32::from(e.score);
                let cut = Bound::from_bits(e.bound).is_some_and(|b| b.cuts(score, alpha, beta));
                if cut {
                    return score;
                }
            }
        }

        if self.probcut && beta - alpha == 1 && depth >= PROBCUT_MIN_DEPTH {
            if let Some(cut) = self.probcut::<V3>(p, o, depth, alpha) {
                return cut;
            }
            if self.aborted {
                return 0;
            }
        }

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = PASS;
        let team = self.team.filter(|_| depth >= DEFER_DEPTH);
        // The table's move first, before the others are ordered: when it
        // cuts, ordering them would have been wasted.
        let tt_first = tt_move != PASS && m >> tt_move & 1 != 0;
        if tt_first {
            let sq = tt_move as usize;
            let f = flips_on::<V3>(p, o, sq);
            let (np, no) = (o & !f, p | f | 1 << sq);
            let _busy = team
                .filter(|team| team.has_helpers())
                .map(|team| team.enter(busy_key(np, no, depth - 1)));
            best = -self.search::<V3>(np, no, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            best_move = sq as u8;
            alpha = alpha.max(best);
        }

        // The other moves, unless the table's move cut.
        let rest = if alpha >= beta {
            0
        } else if tt_first {
            m & !(1 << tt_move)
        } else {
            m
        };
        let mut list: ArrayVec<(i32, u8, u64), 40> = ArrayVec::new();
        for sq in Squares(rest) {
            let f = flips_on::<V3>(p, o, sq);
            let key = {
                let (np, no) = (o & !f, p | f | 1 << sq);
                let replies = weighted_mobility(moves_on::<V3>(np, no)) as i32;
                let mut key = replies * 16 - SQUARE_BONUS[sq] - ((CORNERS >> sq) & 1) as i32 * 64;
                if depth >= ORDER_SEARCH_DEPTH && beta - alpha_orig > 1 {
                    // The opponent's view of the position after the move,
                    // searched a little.
                    let shallow = (depth - ORDER_SEARCH_DEPTH) / 3 + 1;
                    key += self.search::<V3>(np, no, shallow, -INF, INF) / ORDER_EVAL_DIVISOR;
                } else if depth >= ORDER_EVAL_DEPTH {
                    // The opponent's view of the position after the move.
                    key += self.evaluate::<V3>(np, no) / ORDER_EVAL_DIVISOR;
                }
                key
            };
            list.push((key, sq as u8, f));
        }
        list.sort_unstable_by_key(|e| e.0);

        let mut walk = Walk::new(team, list.len()).after_first(tt_first);
        while let Some(i) = walk.next() {
            let (_, sq, f) = list[i];
            let (np, no) = (o & !f, p | f | 1 << sq);
            let Some(_busy) = walk.enter(i, || busy_key(np, no, depth - 1)) else {
                continue;
            };
            let score = if i == 0 && !tt_first {
                -self.search::<V3>(np, no, depth - 1, -beta, -alpha)
            } else {
                let probe = -self.search::<V3>(np, no, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.search::<V3>(np, no, depth - 1, -beta, -alpha)
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
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, alpha_orig, beta);
        self.table.store(key, depth, best, bound, best_move);
        best
    }
    }

    crate::versioned! { V3;
    /// ProbCut (Buro): a shallow search predicts the deep one, so when the
    /// shallow value is beyond `alpha` by more than the prediction's error
    /// allows, the null-window search at `alpha` ends with that bound
    /// without searching deep. `None` when neither test cuts.
    fn probcut(&mut self, p: u64, o: u64, depth: u32, alpha: i32) -> Option<i32> {
        let shallow = probcut_depth(depth);
        let margin = PROBCUT_MARGIN;
        let high = alpha + 1 + margin;
        if high < EVAL_BOUND {
            let value = self.search::<V3>(p, o, shallow, high - 1, high);
            if value >= high && !self.aborted {
                return Some(alpha + 1);
            }
        }
        let low = alpha - margin;
        if low > -EVAL_BOUND && !self.aborted {
            let value = self.search::<V3>(p, o, shallow, low, low + 1);
            if value <= low && !self.aborted {
                return Some(alpha);
            }
        }
        None
    }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitboard::{flips, moves};
    use super::*;

    /// Plain negamax on the evaluation, passes free as in the search.
    fn negamax(p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return (patterns::evaluate(p, o) * PATTERN_WEIGHT).clamp(-EVAL_BOUND, EVAL_BOUND);
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return game_over_score(p, o);
            }
            return -negamax(o, p, depth);
        }
        Squares(m)
            .map(|sq| {
                let f = flips(p, o, sq);
                -negamax(o & !f, p | f | 1 << sq, depth - 1)
            })
            .max()
            .unwrap_or(-INF)
    }

    #[test]
    fn the_pruned_search_agrees_with_plain_negamax() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut table = MidgameTable::default();
        let limits = Limits::depth(60);
        for game in 0..30 {
            // A random opening of 4 to 40 plies.
            let (mut p, mut o) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
            for _ in 0..(4 + game) {
                let m = moves(p, o);
                if m == 0 {
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let sq = Squares(m)
                    .nth(state as usize % m.count_ones() as usize)
                    .unwrap();
                let f = flips(p, o, sq);
                (p, o) = (o & !f, p | f | 1 << sq);
            }
            let m = moves(p, o);
            if m == 0 {
                continue;
            }
            let order: Vec<Move> = Squares(m).map(|sq| sq as Move).collect();
            // One table through the iterations, as iterative deepening uses it.
            table.new_search();
            for depth in 1..=5 {
                let iteration = Midgame::new(&table, &limits)
                    .exact()
                    .root(p, o, &order, depth);
                assert!(iteration.complete);
                assert_eq!(
                    iteration.scored[0].1,
                    negamax(p, o, depth),
                    "{p:#x} {o:#x} depth {depth}"
                );
            }
        }
    }
}
