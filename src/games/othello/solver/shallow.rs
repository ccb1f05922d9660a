//! The endgame solver near the end: with few empties a table costs more
//! than searching again, so moves go by parity and square type, and the
//! last four empties are played out from an array without move
//! generation.

use super::super::bitboard::{
    CORNERS, NEIGHBOURS, Squares, flips_on, last_flip_count, moves_on, stable_discs_on,
};
use super::order::odd_quadrants;
use super::{INF, Solver, final_score, stability_threshold};

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

impl Solver<'_> {
    crate::versioned! { V3;
    /// The shallow null-window search: parity and square-type ordering, no
    /// table (cheaper to search again than to look up).
    pub(super) fn nws_shallow(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.nodes += 1;
        if alpha >= stability_threshold(n) {
            let ceiling = 64 - 2 * stable_discs_on::<V3>(o, p).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
        }
        let m = moves_on::<V3>(p, o);
        if m == 0 {
            if moves_on::<V3>(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws_shallow::<V3>(o, p, -alpha - 1, n);
        }
        let odd = odd_quadrants(!(p | o));
        let mut best = -INF;
        for parity_class in [m & odd, m & !odd] {
            for group in PRIORITY {
                for sq in Squares(parity_class & group) {
                    let f = flips_on::<V3>(p, o, sq);
                    let score = -self.nws::<V3>(o & !f, p | f | 1 << sq, -alpha - 1, n - 1);
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
    }

    crate::versioned! { V3;
    /// The last four empties or fewer: the empties in an array, odd
    /// quadrants first, and no move generation.
    pub(super) fn nws_last(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        let empty = !(p | o);
        let mut sq = [0u8; 4];
        for (slot, s) in sq.iter_mut().zip(Squares(empty)) {
            *slot = s as u8;
        }
        match n {
            1 => {
                self.nodes += 1;
                solve1::<V3>(p, o, sq[0])
            }
            2 => self.solve2::<V3>(p, o, alpha, sq[0], sq[1]),
            3 => {
                // The lone square of an odd region first.
                let odd = odd_quadrants(empty);
                let mut e = [sq[0], sq[1], sq[2]];
                e.sort_by_key(|&s| (odd >> s) & 1 == 0);
                self.solve3::<V3>(p, o, alpha, e)
            }
            _ => {
                let odd = odd_quadrants(empty);
                let mut e = sq;
                e.sort_by_key(|&s| (odd >> s) & 1 == 0);
                self.solve4::<V3>(p, o, alpha, e)
            }
        }
    }
    }

    crate::versioned! { V3;
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
                flips_on::<V3>(p, o, x as usize)
            } else {
                0
            };
            if f != 0 {
                let score = -self.solve3::<V3>(o & !f, p | f | 1 << x, -alpha - 1, rest(i));
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
                flips_on::<V3>(o, p, x as usize)
            } else {
                0
            };
            if f != 0 {
                let score = self.solve3::<V3>(p & !f, o | f | 1 << x, alpha, rest(i));
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
    }

    crate::versioned! { V3;
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
                flips_on::<V3>(p, o, x as usize)
            } else {
                0
            };
            if f != 0 {
                let (a, b) = rest(i);
                let score = -self.solve2::<V3>(o & !f, p | f | 1 << x, -alpha - 1, a, b);
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
                flips_on::<V3>(o, p, x as usize)
            } else {
                0
            };
            if f != 0 {
                let (a, b) = rest(i);
                let score = self.solve2::<V3>(p & !f, o | f | 1 << x, alpha, a, b);
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
    }

    crate::versioned! { V3;
    fn solve2(&mut self, p: u64, o: u64, alpha: i32, a: u8, b: u8) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = if NEIGHBOURS[a as usize] & o != 0 {
            flips_on::<V3>(p, o, a as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            best = -solve1::<V3>(o & !f, p | f | 1 << a, b);
            if best > alpha {
                return best;
            }
        }
        let f = if NEIGHBOURS[b as usize] & o != 0 {
            flips_on::<V3>(p, o, b as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            return best.max(-solve1::<V3>(o & !f, p | f | 1 << b, a));
        }
        if best > -INF {
            return best;
        }
        let mut worst = INF;
        let f = if NEIGHBOURS[a as usize] & p != 0 {
            flips_on::<V3>(o, p, a as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            worst = solve1::<V3>(p & !f, o | f | 1 << a, b);
            if worst <= alpha {
                return worst;
            }
        }
        let f = if NEIGHBOURS[b as usize] & p != 0 {
            flips_on::<V3>(o, p, b as usize)
        } else {
            0
        };
        if f != 0 {
            self.nodes += 1;
            return worst.min(solve1::<V3>(p & !f, o | f | 1 << b, a));
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }
    }
}

crate::versioned! { V3;
/// The exact score with one empty square `x` left.
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
}
