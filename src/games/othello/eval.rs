//! The midgame evaluation: what strong players weigh, by hand.
//!
//! Features, all as (side to move) − (opponent): mobility (legal moves
//! now), potential mobility (empty squares next to the opponent's discs,
//! i.e. moves that may open up), corners, X- and C-squares next to an
//! empty corner (they give the corner away), edge-stable discs (which can
//! never be flipped), the disc count (few discs is good early, many late)
//! and parity (who gets the last move). Each weight slides linearly from
//! its opening value (60 empties) to its endgame value (0 empties).

use super::bitboard::{CORNERS, edge_stable, moves_on, neighbours};

/// Heuristic values stay within this bound; game ends score beyond it.
pub const EVAL_BOUND: i32 = 15_000;

/// (opening, endgame) weights per feature.
struct Weights {
    mobility: (i32, i32),
    potential: (i32, i32),
    corner: (i32, i32),
    x_square: (i32, i32),
    c_square: (i32, i32),
    stable: (i32, i32),
    discs: (i32, i32),
    parity: (i32, i32),
}

const WEIGHTS: Weights = Weights {
    mobility: (60, 30),
    potential: (20, 5),
    corner: (450, 250),
    x_square: (-250, -60),
    c_square: (-80, -20),
    stable: (60, 100),
    discs: (-10, 40),
    parity: (0, 120),
};

/// The X-square (diagonal neighbour) and C-squares (edge neighbours) of
/// each corner: a1, h1, a8, h8.
const CORNER_NEIGHBOURS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, 1 << 1 | 1 << 8),
    (1 << 7, 1 << 14, 1 << 6 | 1 << 15),
    (1 << 56, 1 << 49, 1 << 57 | 1 << 48),
    (1 << 63, 1 << 54, 1 << 62 | 1 << 55),
];

#[inline]
fn diff(mask: u64, p: u64, o: u64) -> i32 {
    (p & mask).count_ones() as i32 - (o & mask).count_ones() as i32
}

/// The position's value for `p` (to move) against `o`, in `±EVAL_BOUND`.
pub fn evaluate(p: u64, o: u64) -> i32 {
    if crate::cpu::has_v3() {
        value::<true>(p, o)
    } else {
        value::<false>(p, o)
    }
}

crate::versioned! { V3;
/// [`evaluate`] in one compiled version, for searches that chose theirs.
pub fn value(p: u64, o: u64) -> i32 {
    let empty = !(p | o);
    let empties = empty.count_ones() as i32;
    let weigh =
        |(open, end): (i32, i32), value: i32| (open * empties + end * (60 - empties)) * value / 60;

    let mobility =
        moves_on::<V3>(p, o).count_ones() as i32 - moves_on::<V3>(o, p).count_ones() as i32;
    let potential =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = diff(CORNERS, p, o);
    let (mut x_danger, mut c_danger) = (0, 0);
    for (corner, x, c) in CORNER_NEIGHBOURS {
        if empty & corner != 0 {
            x_danger |= x;
            c_danger |= c;
        }
    }
    let stable = edge_stable(p, o).count_ones() as i32 - edge_stable(o, p).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    // With an odd number of empties the side to move should get the last
    // move; only the last twenty or so empties make that count.
    let parity = if empties <= 20 {
        if empties % 2 == 1 { 1 } else { -1 }
    } else {
        0
    };

    let score = weigh(WEIGHTS.mobility, mobility)
        + weigh(WEIGHTS.potential, potential)
        + weigh(WEIGHTS.corner, corners)
        + weigh(WEIGHTS.x_square, diff(x_danger, p, o))
        + weigh(WEIGHTS.c_square, diff(c_danger, p, o))
        + weigh(WEIGHTS.stable, stable)
        + weigh(WEIGHTS.discs, discs)
        + weigh(WEIGHTS.parity, parity);
    score.clamp(-EVAL_BOUND, EVAL_BOUND)
}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_balanced_and_views_are_opposite() {
        let (black, white) = (1u64 << 28 | 1 << 35, 1u64 << 27 | 1 << 36);
        assert_eq!(evaluate(black, white), 0);
        // A corner is worth having.
        let p = black | 1;
        assert!(evaluate(p, white) > evaluate(black, white));
    }
}
