//! The endgame solver's move ordering: fastest first (fewest opponent
//! replies), refined by corners, parity and, with many empties, the
//! trained pattern evaluation or a shallow search on it.

use arrayvec::ArrayVec;

use super::super::bitboard::{
    COL_A, COL_H, CORNERS, Squares, flips_on, moves_on, neighbours, weighted_mobility,
};
use super::super::{Move, patterns};
use super::{Solver, final_score};

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
pub(super) fn odd_quadrants(empty: u64) -> u64 {
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
#[inline(always)]
pub(super) fn move_list<const V3: bool>(p: u64, o: u64, m: u64) -> ArrayVec<(i32, Move, u64), 40> {
    Squares(m)
        .map(|sq| (0, sq as Move, flips_on::<V3>(p, o, sq)))
        .collect()
}

crate::versioned! { V3;
/// A small alpha-beta on the pattern evaluation, for move ordering and
/// ProbCut: the value of `p`'s position `depth` plies ahead, in 1/`SCALE`
/// discs.
pub fn eval_search(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    let mut alpha = alpha;
    if depth == 0 {
        return patterns::value::<V3>(p, o);
    }
    let m = moves_on::<V3>(p, o);
    if m == 0 {
        if moves_on::<V3>(o, p) == 0 {
            return final_score(p, o) * patterns::SCALE;
        }
        return -eval_search::<V3>(o, p, depth, -beta, -alpha);
    }
    let mut best = -EVAL_INF;
    for sq in Squares(m) {
        let f = flips_on::<V3>(p, o, sq);
        let value = -eval_search::<V3>(o & !f, p | f | 1 << sq, depth - 1, -beta, -alpha);
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
}

/// Beyond any pattern evaluation.
const EVAL_INF: i32 = i32::MAX / 2;

impl Solver<'_> {
    /// ProbCut in a selective pass: when a shallow search on the pattern
    /// evaluation lands beyond `alpha` by `t` standard deviations of its
    /// error, the null-window search at `alpha` with `n` empties ends with
    /// that (likely) bound. `None` when neither test cuts.
    #[inline(always)]
    pub(super) fn probcut<const V3: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        t: f64,
    ) -> Option<i32> {
        let depth = super::probcut_depth(n);
        let margin = (t * super::probcut_sigma(n)).round() as i32;
        let scale = patterns::SCALE;
        let high = alpha + 1 + margin;
        if high < 64
            && eval_search::<V3>(p, o, depth, high * scale - 1, high * scale) >= high * scale
        {
            return Some(alpha + 1);
        }
        let low = alpha - margin;
        if low > -64 && eval_search::<V3>(p, o, depth, low * scale, low * scale + 1) <= low * scale
        {
            return Some(alpha);
        }
        None
    }

    /// The moves in fastest-first order, the table's move first.
    #[inline(always)]
    pub(super) fn sorted_moves<const V3: bool>(
        &self,
        p: u64,
        o: u64,
        m: u64,
        tt_move: Option<Move>,
        n: u32,
    ) -> ArrayVec<(i32, Move, u64), 40> {
        let mut list = move_list::<V3>(p, o, m);
        self.order::<V3>(&mut list, p, o, n);
        if let Some(i) = tt_move.and_then(|mv| list.iter().position(|e| e.1 == mv)) {
            list[..=i].rotate_right(1);
        }
        list
    }

    /// Sorts the moves: fewest (corner-weighted) replies for the opponent
    /// first; with many empties, also the pattern evaluation of the
    /// position after the move, or of a shallow search from it.
    #[inline(always)]
    pub(super) fn order<const V3: bool>(
        &self,
        list: &mut [(i32, Move, u64)],
        p: u64,
        o: u64,
        n: u32,
    ) {
        let odd = odd_quadrants(!(p | o));
        for (key, sq, f) in list.iter_mut() {
            let sq = *sq as usize;
            let (np, no) = (o & !*f, p | *f | 1 << sq);
            // Fewest replies first, then fewest squares where replies
            // may open up and most discs settled around our corners;
            // taking a corner and playing into an odd region break
            // ties. (Measured on FFO #25-#42 less #38: the corner
            // term saves 3.5% of the nodes, and 24% on #38.)
            let replies = weighted_mobility(moves_on::<V3>(np, no)) as i32;
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
                eval_search::<V3>(np, no, depth, -EVAL_INF, EVAL_INF)
            } else {
                patterns::value::<V3>(np, no)
            };
            *key += value * REPLY_WEIGHT / (4 * patterns::SCALE);
        }
        list.sort_unstable_by_key(|e| e.0);
    }
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
