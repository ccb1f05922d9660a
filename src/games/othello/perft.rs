//! Perft: the number of move sequences of a given length, to pin the rules.
//!
//! Convention (the one behind the published counts 4, 12, 56, 244, ...,
//! 3 005 288 at depth 9 and 24 571 284 at depth 10): a forced pass is a ply
//! of its own, and a finished game counts as one leaf at its own ply and at
//! every deeper ply. (Edax counts a finished game once, which puts its depth
//! 10 figure 228 lower.)

use super::bitboard::{Squares, flips_on, moves_on};

/// Leaves `depth` plies below the position with `p` to move against `o`.
pub fn perft(p: u64, o: u64, depth: u32) -> u64 {
    if crate::cpu::has_v3() {
        count::<true>(p, o, depth)
    } else {
        count::<false>(p, o, depth)
    }
}

crate::versioned! { V3;
/// [`perft`] in one compiled version.
pub(crate) fn count(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = moves_on::<V3>(p, o);
    if m == 0 {
        // A pass, or the end of the game: either way one line continues
        // (the finished game stands for a leaf at every deeper ply).
        if depth == 1 || moves_on::<V3>(o, p) == 0 {
            return 1;
        }
        return count::<V3>(o, p, depth - 1);
    }
    if depth == 1 {
        return u64::from(m.count_ones());
    }
    Squares(m)
        .map(|sq| {
            let f = flips_on::<V3>(p, o, sq);
            count::<V3>(o & !f, p | f | 1 << sq, depth - 1)
        })
        .sum()
}
}
