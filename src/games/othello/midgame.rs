//! The midgame search: negamax alpha-beta with principal variation search
//! on the bitboards, a transposition table, and move ordering by the
//! opponent's mobility after the move (the table's move first). Leaves
//! late in the game are valued by the trained pattern evaluation, earlier
//! ones by the hand-made one.

use arrayvec::ArrayVec;

use super::bitboard::{CORNERS, Squares, flips_on, moves_on, weighted_mobility};
use super::eval::EVAL_BOUND;
use super::solver::final_score;
use super::{Move, PASS, eval, patterns, zobrist};
use crate::search::table::{Entry as TableEntry, Table, slots_for};
use crate::search::{Bound, Clock, Limits};

/// Leaves with at most this many empties are valued by the pattern
/// evaluation: the range its weights were trained on, where it predicts
/// the final result far better than the hand-made evaluation. (Measured on
/// FFO #40-#49, where the midgame search orders the solver's root moves:
/// 63 s of CPU against 69 s with the hand-made evaluation; #45 alone went
/// from 19 s to 14 s.)
const PATTERN_EMPTIES: u32 = 20;
/// Pattern values (1/`SCALE` discs) are multiplied by this to land in the
/// hand-made evaluation's range, where a disc is worth about a hundred.
const PATTERN_WEIGHT: i32 = 4;

/// A leaf's value for `p` (to move) against `o`, in `±EVAL_BOUND`.
#[inline(always)]
fn evaluate<const V3: bool>(p: u64, o: u64) -> i32 {
    if 64 - (p | o).count_ones() <= PATTERN_EMPTIES {
        (patterns::value::<V3>(p, o) * PATTERN_WEIGHT).clamp(-EVAL_BOUND, EVAL_BOUND)
    } else {
        eval::value::<V3>(p, o)
    }
}

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
    const GENERATIONS: u32 = 256;
}

/// The fewest slots, whatever the budget.
const MIN_SLOTS: usize = 1 << 10;

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
            table: Table::with_slots(slots_for::<Entry>(bytes, MIN_SLOTS)),
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
        let e = *self.table.get(key as usize & self.table.mask());
        (e.key == key && u16::from(e.generation) == self.table.generation()).then_some(e)
    }

    #[inline]
    fn store(&mut self, key: u64, depth: u32, score: i32, bound: Bound, mv: Move) {
        let generation = self.table.generation() as u8;
        let slot = self.table.get_mut(key as usize & self.table.mask());
        if slot.generation != generation || u32::from(slot.depth) <= depth || slot.key == key {
            *slot = Entry {
                key,
                score: score as i16,
                depth: depth as u8,
                bound: bound.bits(),
                mv,
                generation,
            };
        }
    }

    /// The table's move for a position, if any.
    pub fn best_move(&self, p: u64, o: u64) -> Option<Move> {
        self.probe(zobrist::hash(p, o)).map(|e| e.mv)
    }
}

/// One midgame search's state.
pub struct Midgame<'a> {
    table: &'a mut MidgameTable,
    clock: Clock<'a>,
    pub nodes: u64,
    pub aborted: bool,
}

impl<'a> Midgame<'a> {
    pub fn new(table: &'a mut MidgameTable, limits: &'a Limits) -> Self {
        Self {
            table,
            clock: Clock::new(limits),
            nodes: 0,
            aborted: false,
        }
    }

    /// Searches every root move to `depth` in the order given; returns each
    /// move's score (exact for the best, a bound for the others), best first.
    /// `None` if stopped before the iteration completed.
    pub fn root(&mut self, p: u64, o: u64, order: &[Move], depth: u32) -> Option<Vec<(Move, i32)>> {
        if crate::cpu::has_v3() {
            self.root_search::<true>(p, o, order, depth)
        } else {
            self.root_search::<false>(p, o, order, depth)
        }
    }

    crate::versioned! { V3;
    /// [`Midgame::root`] in one compiled version of the search.
    pub(crate) fn root_search(
        &mut self,
        p: u64,
        o: u64,
        order: &[Move],
        depth: u32,
    ) -> Option<Vec<(Move, i32)>> {
        self.nodes += 1;
        let mut alpha = -INF;
        let mut scored = Vec::with_capacity(order.len());
        for (i, &mv) in order.iter().enumerate() {
            let f = flips_on::<V3>(p, o, mv as usize);
            let (np, no) = (o & !f, p | f | 1 << mv);
            let score = if i == 0 {
                -self.search::<V3>(np, no, depth - 1, -INF, INF)
            } else {
                let probe = -self.search::<V3>(np, no, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    -self.search::<V3>(np, no, depth - 1, -INF, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                return None;
            }
            alpha = alpha.max(score);
            scored.push((mv, score));
        }
        // Stable: among equal bounds, the previous order stands.
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        let key = zobrist::hash(p, o);
        self.table
            .store(key, depth, scored[0].1, Bound::Exact, scored[0].0);
        Some(scored)
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
            return evaluate::<V3>(p, o);
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
                let score = -evaluate::<V3>(o & !f, p | f | 1 << sq);
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

        let mut list: ArrayVec<(i32, u8, u64), 40> = ArrayVec::new();
        for sq in Squares(m) {
            let f = flips_on::<V3>(p, o, sq);
            let key = if sq as Move == tt_move {
                i32::MIN
            } else {
                let replies = weighted_mobility(moves_on::<V3>(o & !f, p | f | 1 << sq)) as i32;
                replies * 16 - SQUARE_BONUS[sq] - ((CORNERS >> sq) & 1) as i32 * 64
            };
            list.push((key, sq as u8, f));
        }
        list.sort_unstable_by_key(|e| e.0);

        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = list[0].1;
        for (i, &(_, sq, f)) in list.iter().enumerate() {
            let (np, no) = (o & !f, p | f | 1 << sq);
            let score = if i == 0 {
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
}

#[cfg(test)]
mod tests {
    use super::super::bitboard::{flips, moves};
    use super::*;

    /// Plain negamax on the evaluation, passes free as in the search.
    fn negamax(p: u64, o: u64, depth: u32) -> i32 {
        if depth == 0 {
            return evaluate::<false>(p, o);
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
                let scored = Midgame::new(&mut table, &limits)
                    .root(p, o, &order, depth)
                    .unwrap();
                assert_eq!(
                    scored[0].1,
                    negamax(p, o, depth),
                    "{p:#x} {o:#x} depth {depth}"
                );
            }
        }
    }
}
