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
//! cap what the side to move can still reach).

use arrayvec::ArrayVec;

use super::bitboard::{
    COL_A, COL_H, CORNERS, NEIGHBOURS, Squares, flips, last_flip_count, moves, neighbours,
    stable_discs, weighted_mobility,
};
use super::{Move, PASS, patterns};
use crate::search::Limits;

/// Beyond any disc difference.
const INF: i32 = 65;
/// At this many empties and fewer: parity ordering and no table.
const SHALLOW: u32 = 7;
/// From this many empties on, children are looked up in the table before
/// any is searched (enhanced transposition cut-off).
const ETC_EMPTIES: u32 = 12;
/// From this many empties on, the pattern evaluation of the position
/// after each move joins the ordering; a disc of it counts as a quarter of
/// one opponent reply.
const EVAL_ORDER_EMPTIES: u32 = 12;
/// From this many empties on, a shallow search on the pattern evaluation
/// replaces the plain evaluation: one ply, and one more for every two
/// further empties, at most [`ORDER_SEARCH_MAX_DEPTH`]. (Measured on FFO
/// #40-#49 when it came: 103 s of CPU against 246 s with mobility alone;
/// deeper or earlier searches save nodes but cost more time than they
/// save, and still did once the evaluation cost half as much.)
const ORDER_SEARCH_EMPTIES: u32 = 16;
const ORDER_SEARCH_MAX_DEPTH: u32 = 3;
/// Ordering keys count this many units per opponent reply.
const REPLY_WEIGHT: i32 = 16;
/// Deadline and stop flag are polled once per this many nodes.
const POLL_MASK: u64 = 4095;

const C_SQUARES: u64 = 0x4281_0000_0000_8142;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// Shallow-search order within a parity class: corners, plain squares,
/// then the squares next to corners.
const PRIORITY: [u64; 4] = [
    CORNERS,
    !(CORNERS | C_SQUARES | X_SQUARES),
    C_SQUARES,
    X_SQUARES,
];

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

/// `b`'s discs on the corners and on the edge squares next to its own
/// corners: discs that will (almost always) stay, so a move that adds to
/// them is worth trying early.
#[inline]
fn corner_stability(b: u64) -> u32 {
    let c = b & CORNERS;
    let next = ((c << 1) & !COL_A) | ((c >> 1) & !COL_H) | (c << 8) | (c >> 8);
    (c | (next & b)).count_ones()
}

/// The quadrants holding an odd number of empties: playing there first
/// tends to leave the opponent the even regions and us the last move.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    // Fold each quadrant's parity into one bit (rows, then columns) rather
    // than count four times: cheaper, and no popcount instruction needed.
    let mut x = empty ^ (empty >> 8);
    x ^= x >> 16;
    x ^= x >> 1;
    x ^= x >> 2;
    // Bits 0, 4, 32 and 36 now hold the parities of the four quadrants;
    // spread each over its four columns, then its four rows (the copies
    // never overlap, so the products carry nothing).
    (x & 0x0000_0011_0000_0011) * 0x0F * 0x0101_0101
}

/// The legal moves `m` with their flips, not yet ordered.
#[inline]
fn move_list(p: u64, o: u64, m: u64) -> ArrayVec<(i32, Move, u64), 40> {
    Squares(m)
        .map(|sq| (0, sq as Move, flips(p, o, sq)))
        .collect()
}

/// A small alpha-beta on the pattern evaluation, for move ordering: the
/// value of `p`'s position `depth` plies ahead, in 1/`SCALE` discs.
fn eval_search(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return patterns::evaluate(p, o);
    }
    let m = moves(p, o);
    if m == 0 {
        if moves(o, p) == 0 {
            return final_score(p, o) * patterns::SCALE;
        }
        return -eval_search(o, p, depth, -beta, -alpha);
    }
    let mut best = -EVAL_INF;
    for sq in Squares(m) {
        let f = flips(p, o, sq);
        let value = -eval_search(o & !f, p | f | 1 << sq, depth - 1, -beta, -alpha);
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Beyond any pattern evaluation.
const EVAL_INF: i32 = i32::MAX / 2;

/// One slot of the endgame table: the full position (so a hit is never a
/// collision) and the bounds proven on its value.
#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    mv: u8,
    empties: u8,
    /// The request that wrote it; other requests' entries are ignored.
    generation: u8,
}

/// The endgame transposition table, one per worker (`Workspace::extra`).
/// Its bounds are exact facts, but a request still sees only its own
/// entries: reusing another request's would change node counts and the pv
/// from one identical request to the next. A generation stamp clears it in
/// O(1); the memory is wiped only when the stamp wraps.
pub struct EndgameTable {
    entries: Vec<Entry>,
    generation: u8,
}

/// Slots in the table (a power of two; 24 bytes each).
const TABLE_SLOTS: usize = 1 << 20;

impl Default for EndgameTable {
    fn default() -> Self {
        Self {
            entries: crate::search::table_memory(TABLE_SLOTS),
            generation: 1,
        }
    }
}

impl EndgameTable {
    /// Starts a request: earlier entries become invisible.
    pub fn new_search(&mut self) {
        crate::search::next_generation(&mut self.generation, 256, &mut self.entries);
    }

    /// Two slots per bucket: the first keeps the deeper result, the second
    /// takes whatever comes.
    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        // A multiplicative mix: cheaper than the Zobrist tables, and the
        // full position is stored, so its quality only affects spread.
        let h = (p ^ o.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (h >> 40) as usize & (TABLE_SLOTS - 2)
    }

    /// Starts loading a position's bucket into the cache, so a probe soon
    /// after does not wait for memory.
    #[inline]
    fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = &self.entries[self.bucket(p, o)];
            // SAFETY: a prefetch is only a hint; it reads nothing and
            // cannot fault, and the address is a live slot of the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast()) };
        }
    }

    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.p == p && e.o == o && e.generation == self.generation && (p | o) != 0)
            .copied()
    }

    #[inline]
    fn store(&mut self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, mv: Move) {
        let b = self.bucket(p, o);
        let generation = self.generation;
        let slots = &mut self.entries[b..b + 2];
        if let Some(e) = slots
            .iter_mut()
            .find(|e| e.p == p && e.o == o && e.generation == generation)
        {
            e.lower = e.lower.max(lower as i8);
            e.upper = e.upper.min(upper as i8);
            if mv != PASS {
                e.mv = mv;
            }
            return;
        }
        let new = Entry {
            p,
            o,
            lower: lower as i8,
            upper: upper as i8,
            mv,
            empties: empties as u8,
            generation,
        };
        // A stale entry is as good as an empty slot.
        if slots[0].generation != generation || u32::from(slots[0].empties) <= empties {
            slots[1] = slots[0];
            slots[0] = new;
        } else {
            slots[1] = new;
        }
    }
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

/// One solve's state.
pub struct Solver<'a> {
    table: &'a mut EndgameTable,
    limits: &'a Limits,
    pub nodes: u64,
    aborted: bool,
    /// Whether the pattern evaluation orders moves.
    patterns: bool,
}

impl<'a> Solver<'a> {
    pub fn new(table: &'a mut EndgameTable, limits: &'a Limits) -> Self {
        Self {
            table,
            limits,
            nodes: 0,
            aborted: false,
            patterns: true,
        }
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
        let n = 64 - (p | o).count_ones();
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return None;
            }
            let child = self.solve(o, p, &[])?;
            let mut pv = vec![PASS];
            pv.extend(child.pv);
            return Some(Solution {
                score: -child.score,
                best_move: PASS,
                pv,
                nodes: self.nodes,
            });
        }
        let mut root: Vec<Move> = order
            .iter()
            .copied()
            .filter(|&mv| mv != PASS && m >> mv & 1 == 1)
            .collect();
        if root.len() < m.count_ones() as usize {
            let mut rest = self.sorted_moves(p, o, m, None, n);
            rest.retain(|(_, mv, _)| !root.contains(mv));
            root.extend(rest.iter().map(|&(_, mv, _)| mv));
        }
        self.nodes += 1;
        let mut alpha = -INF;
        let mut best = (-INF, root[0], Vec::new());
        for (i, &mv) in root.iter().enumerate() {
            let f = flips(p, o, mv as usize);
            let (np, no) = (o & !f, p | f | 1 << mv);
            let mut child_pv = Vec::new();
            let score = if i == 0 {
                -self.pvs(np, no, -INF, INF, n - 1, &mut child_pv)
            } else {
                let probe = -self.nws(np, no, -alpha - 1, n - 1);
                if probe > alpha && !self.aborted {
                    -self.pvs(np, no, -INF, -alpha, n - 1, &mut child_pv)
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
        let (score, best_move, pv) = best;
        self.table.store(p, o, n, score, score, best_move);
        Some(Solution {
            score,
            best_move,
            pv,
            nodes: self.nodes,
        })
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & POLL_MASK == 0 && self.limits.exhausted(self.nodes) {
            self.aborted = true;
        }
    }

    /// The moves in fastest-first order, the table's move first.
    #[inline]
    fn sorted_moves(
        &self,
        p: u64,
        o: u64,
        m: u64,
        tt_move: Option<Move>,
        n: u32,
    ) -> ArrayVec<(i32, Move, u64), 40> {
        let mut list = move_list(p, o, m);
        self.order(&mut list, p, o, n);
        if let Some(i) = tt_move.and_then(|mv| list.iter().position(|e| e.1 == mv)) {
            list[..=i].rotate_right(1);
        }
        list
    }

    /// Sorts the moves: fewest (corner-weighted) replies for the opponent
    /// first; with many empties, also the pattern evaluation of the
    /// position after the move, or of a shallow search from it.
    #[inline]
    fn order(&self, list: &mut [(i32, Move, u64)], p: u64, o: u64, n: u32) {
        let odd = odd_quadrants(!(p | o));
        for (key, sq, f) in list.iter_mut() {
            let sq = *sq as usize;
            let (np, no) = (o & !*f, p | *f | 1 << sq);
            // Fewest replies first, then fewest squares where replies
            // may open up and most discs settled around our corners;
            // taking a corner and playing into an odd region break
            // ties. (Measured on FFO #25-#42 less #38: the corner
            // term saves 3.5% of the nodes, and 24% on #38.)
            let replies = weighted_mobility(moves(np, no)) as i32;
            let potential = (neighbours(no) & !(np | no)).count_ones() as i32;
            *key = replies * REPLY_WEIGHT + potential * 4
                - corner_stability(no) as i32 * 2
                - ((CORNERS >> sq) & 1) as i32 * 8
                - ((odd >> sq) & 1) as i32 * 4;
            if !self.patterns || n < EVAL_ORDER_EMPTIES {
                continue;
            }
            // The opponent's view of the position after the move: lower
            // is better for us.
            let value = if n >= ORDER_SEARCH_EMPTIES {
                let depth = ((n - ORDER_SEARCH_EMPTIES) / 2 + 1).min(ORDER_SEARCH_MAX_DEPTH);
                eval_search(np, no, depth, -EVAL_INF, EVAL_INF)
            } else {
                patterns::evaluate(np, no)
            };
            *key += value * REPLY_WEIGHT / (4 * patterns::SCALE);
        }
        list.sort_unstable_by_key(|e| e.0);
    }

    /// A full-window search along the principal variation, collecting it.
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if n == 0 {
            return final_score(p, o);
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            let mut child = Vec::new();
            let score = -self.pvs(o, p, -beta, -alpha, n, &mut child);
            pv.clear();
            pv.push(PASS);
            pv.extend(child);
            return score;
        }
        let tt_move = self.table.probe(p, o).map(|e| e.mv);
        let list = self.sorted_moves(p, o, m, tt_move, n);
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = PASS;
        for (i, &(_, sq, f)) in list.iter().enumerate() {
            let (np, no) = (o & !f, p | f | 1 << sq);
            let mut child = Vec::new();
            let score = if i == 0 {
                -self.pvs(np, no, -beta, -alpha, n - 1, &mut child)
            } else {
                let probe = -self.nws(np, no, -alpha - 1, n - 1);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.pvs(np, no, -beta, -alpha, n - 1, &mut child)
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
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best > alpha_orig {
            (best, best)
        } else {
            (-64, best)
        };
        self.table.store(p, o, n, lower, upper, best_move);
        best
    }

    /// Null-window search: is the score above `alpha`? Fail-soft, so the
    /// value returned is a bound on the true score on the side it failed.
    #[inline]
    fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1..=4 => self.nws_last(p, o, alpha, n),
            _ if n <= SHALLOW => self.nws_shallow(p, o, alpha, n),
            _ => self.nws_deep(p, o, alpha, n),
        }
    }

    /// The deep null-window search: table, stability, fastest first.
    fn nws_deep(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted {
            return 0;
        }
        if alpha >= stability_threshold(n) {
            let ceiling = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
        }
        let mut tt_move = None;
        if let Some(e) = self.table.probe(p, o) {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower > alpha {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            tt_move = Some(e.mv);
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws_deep(o, p, -alpha - 1, n);
        }
        let mut list = move_list(p, o, m);
        if n >= ETC_EMPTIES {
            // Enhanced transposition cut-off: a child already known to be
            // bad enough for the opponent settles this node at once.
            for &(_, sq, f) in &list {
                if let Some(e) = self.table.probe(o & !f, p | f | 1 << sq) {
                    let score = -i32::from(e.upper);
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
            let score = -self.nws(o & !f, p | f | 1 << sq, -alpha - 1, n - 1);
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
        self.order(&mut list, p, o, n);
        if n > SHALLOW + 1 {
            for &(_, sq, f) in &list {
                self.table.prefetch(o & !f, p | f | 1 << sq);
            }
        }
        for &(_, sq, f) in &list {
            let score = -self.nws(o & !f, p | f | 1 << sq, -alpha - 1, n - 1);
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

    /// The shallow null-window search: parity and square-type ordering, no
    /// table (cheaper to search again than to look up).
    fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if alpha >= stability_threshold(n) {
            let ceiling = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
        }
        let m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws_shallow(o, p, -alpha - 1, n);
        }
        let odd = odd_quadrants(!(p | o));
        let mut best = -INF;
        for parity_class in [m & odd, m & !odd] {
            for group in PRIORITY {
                for sq in Squares(parity_class & group) {
                    let f = flips(p, o, sq);
                    let score = -self.nws(o & !f, p | f | 1 << sq, -alpha - 1, n - 1);
                    if score > best {
                        best = score;
                        if score > alpha {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// The last four empties or fewer: the empties in an array, odd
    /// quadrants first, and no move generation.
    fn nws_last(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let empty = !(p | o);
        let mut sq = [0u8; 4];
        for (slot, s) in sq.iter_mut().zip(Squares(empty)) {
            *slot = s as u8;
        }
        match n {
            1 => {
                self.nodes += 1;
                solve1(p, o, sq[0])
            }
            2 => self.solve2(p, o, alpha, sq[0], sq[1]),
            3 => {
                // The lone square of an odd region first.
                let odd = odd_quadrants(empty);
                let mut e = [sq[0], sq[1], sq[2]];
                e.sort_by_key(|&s| (odd >> s) & 1 == 0);
                self.solve3(p, o, alpha, e)
            }
            _ => {
                let odd = odd_quadrants(empty);
                let mut e = sq;
                e.sort_by_key(|&s| (odd >> s) & 1 == 0);
                self.solve4(p, o, alpha, e)
            }
        }
    }

    fn solve4(&mut self, p: u64, o: u64, alpha: i32, e: [u8; 4]) -> i32 {
        self.nodes += 1;
        let rest = |i: usize| -> [u8; 3] {
            match i {
                0 => [e[1], e[2], e[3]],
                1 => [e[0], e[2], e[3]],
                2 => [e[0], e[1], e[3]],
                _ => [e[0], e[1], e[2]],
            }
        };
        let mut best = -INF;
        for (i, &x) in e.iter().enumerate() {
            let f = if NEIGHBOURS[x as usize] & o != 0 {
                flips(p, o, x as usize)
            } else {
                0
            };
            if f != 0 {
                let score = -self.solve3(o & !f, p | f | 1 << x, -alpha - 1, rest(i));
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        // We pass: the opponent moves, and we keep the lowest of its choices.
        self.nodes += 1;
        let mut worst = INF;
        for (i, &x) in e.iter().enumerate() {
            let f = if NEIGHBOURS[x as usize] & p != 0 {
                flips(o, p, x as usize)
            } else {
                0
            };
            if f != 0 {
                let score = self.solve3(p & !f, o | f | 1 << x, alpha, rest(i));
                if score < worst {
                    worst = score;
                    if score <= alpha {
                        return worst;
                    }
                }
            }
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    fn solve3(&mut self, p: u64, o: u64, alpha: i32, e: [u8; 3]) -> i32 {
        self.nodes += 1;
        let rest = |i: usize| -> (u8, u8) {
            match i {
                0 => (e[1], e[2]),
                1 => (e[0], e[2]),
                _ => (e[0], e[1]),
            }
        };
        let mut best = -INF;
        for (i, &x) in e.iter().enumerate() {
            let f = if NEIGHBOURS[x as usize] & o != 0 {
                flips(p, o, x as usize)
            } else {
                0
            };
            if f != 0 {
                let (a, b) = rest(i);
                let score = -self.solve2(o & !f, p | f | 1 << x, -alpha - 1, a, b);
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        self.nodes += 1;
        let mut worst = INF;
        for (i, &x) in e.iter().enumerate() {
            let f = if NEIGHBOURS[x as usize] & p != 0 {
                flips(o, p, x as usize)
            } else {
                0
            };
            if f != 0 {
                let (a, b) = rest(i);
                let score = self.solve2(p & !f, o | f | 1 << x, alpha, a, b);
                if score < worst {
                    worst = score;
                    if score <= alpha {
                        return worst;
                    }
                }
            }
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    fn solve2(&mut self, p: u64, o: u64, alpha: i32, a: u8, b: u8) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = if NEIGHBOURS[a as usize] & o != 0 {
            flips(p, o, a as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            best = -solve1(o & !f, p | f | 1 << a, b);
            if best > alpha {
                return best;
            }
        }
        let f = if NEIGHBOURS[b as usize] & o != 0 {
            flips(p, o, b as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            return best.max(-solve1(o & !f, p | f | 1 << b, a));
        }
        if best > -INF {
            return best;
        }
        let mut worst = INF;
        let f = if NEIGHBOURS[a as usize] & p != 0 {
            flips(o, p, a as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            worst = solve1(p & !f, o | f | 1 << a, b);
            if worst <= alpha {
                return worst;
            }
        }
        let f = if NEIGHBOURS[b as usize] & p != 0 {
            flips(o, p, b as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            return worst.min(solve1(p & !f, o | f | 1 << b, a));
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }
}

/// The exact score with one empty square `x` left.
#[inline]
fn solve1(p: u64, o: u64, x: u8) -> i32 {
    let pc = p.count_ones() as i32;
    let n = last_flip_count(p, x as usize) as i32;
    if n != 0 {
        return 2 * (pc + n + 1) - 64;
    }
    let n = last_flip_count(o, x as usize) as i32;
    if n != 0 {
        return 2 * (pc - n) - 64;
    }
    // Nobody can play x: it goes to the winner (no draw is possible with
    // an odd number of discs).
    let diff = 2 * pc - 63;
    if diff > 0 { diff + 1 } else { diff - 1 }
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

    const QUADRANTS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];

    #[test]
    fn odd_quadrants_match_a_count() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let want = QUADRANTS
                .iter()
                .filter(|&&q| (x & q).count_ones() % 2 == 1)
                .fold(0, |acc, q| acc | q);
            assert_eq!(odd_quadrants(x), want, "{x:#x}");
        }
    }

    #[test]
    fn corner_stability_counts_corners_and_their_edge_neighbours() {
        assert_eq!(corner_stability(0), 0);
        // a1 with b1 and a2; b2 (diagonal) does not count.
        assert_eq!(corner_stability(1 | 1 << 1 | 1 << 8 | 1 << 9), 3);
        // h1 with g1; a disc next to an empty corner (b8) does not count.
        assert_eq!(corner_stability(1 << 7 | 1 << 6 | 1 << 57), 2);
    }
}
