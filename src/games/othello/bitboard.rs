//! Bitboard primitives: move generation, flips, stable discs.
//!
//! A board is two `u64`s seen from the side to move: `p` (its discs) and
//! `o` (the opponent's). Bit `row * 8 + col` is the square, so bit 0 is
//! `a1` (top-left) and bit 63 is `h8`.

use std::sync::OnceLock;

/// Every square except the `a` and `h` columns: a run of discs that goes
/// sideways must not wrap from one row to the next.
const NOT_EDGE_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
pub const COL_A: u64 = 0x0101_0101_0101_0101;
pub const COL_H: u64 = 0x8080_8080_8080_8080;
pub const ROW_1: u64 = 0x0000_0000_0000_00FF;
pub const ROW_8: u64 = 0xFF00_0000_0000_0000;
pub const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

crate::versioned! { V3;
/// The squares `p` may play: empty squares that bracket at least one
/// opponent disc in some direction.
pub fn moves_on(p: u64, o: u64) -> u64 {
    let inner = o & NOT_EDGE_COLS;
    (dir_moves(p, inner, 1) | dir_moves(p, o, 8) | dir_moves(p, inner, 7) | dir_moves(p, inner, 9))
        & !(p | o)
}
}

/// Moves along one axis (both ways) by a doubling fill: runs of up to six
/// opponent discs in four steps instead of six.
#[inline(always)]
fn dir_moves(p: u64, o: u64, s: u32) -> u64 {
    let mut up = o & (p << s);
    let mut down = o & (p >> s);
    up |= o & (up << s);
    down |= o & (down >> s);
    let pre_up = o & (o << s);
    let pre_down = pre_up >> s;
    up |= pre_up & (up << (2 * s));
    down |= pre_down & (down >> (2 * s));
    up |= pre_up & (up << (2 * s));
    down |= pre_down & (down >> (2 * s));
    (up << s) | (down >> s)
}

/// Rays from each square in the four directions of increasing index (E, SW,
/// S, SE) and the four of decreasing index (W, NE, N, NW), the square
/// itself excluded.
struct Rays {
    up: [[u64; 4]; 64],
    down: [[u64; 4]; 64],
}

const fn build_rays() -> Rays {
    // (row step, col step); the first four increase the index.
    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut rays = Rays {
        up: [[0; 4]; 64],
        down: [[0; 4]; 64],
    };
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRS[d];
            let mut r = (sq / 8) as i32 + dr;
            let mut c = (sq % 8) as i32 + dc;
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            if d < 4 {
                rays.up[sq][d] = ray;
            } else {
                rays.down[sq][d - 4] = ray;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

static RAYS: Rays = build_rays();

crate::versioned! { V3;
/// The opponent discs that flip when `p` plays on `sq` (empty if the move
/// is illegal). Branch-free: on each ray, the first square that is not an
/// opponent disc must be one of `p`'s, and everything before it flips.
pub fn flips_on(p: u64, o: u64, sq: usize) -> u64 {
    let up = &RAYS.up[sq];
    let down = &RAYS.down[sq];
    let mut f = 0;
    for d in 0..4 {
        let ray = up[d];
        let blockers = ray & !o;
        let first = blockers & blockers.wrapping_neg();
        let ok = ((first & p) != 0) as u64;
        f |= first.wrapping_sub(1) & ray & ok.wrapping_neg();

        let ray = down[d];
        let blockers = (ray & !o) | 1;
        let first = 1u64 << (63 - blockers.leading_zeros());
        let ok = ((first & p & ray) != 0) as u64;
        f |= ray & !((first << 1).wrapping_sub(1)) & ok.wrapping_neg();
    }
    f
}
}

/// Flip counts along one full 8-square line: `LAST_FLIPS[x][line]` is how
/// many discs flip (both ways along the line) when the side owning the set
/// bits of `line` plays at `x`, every other square being the opponent's.
const LAST_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Towards higher squares: opponent run, then an own disc.
            let mut i = x + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - x - 1;
            }
            let mut i = x as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += x - i as usize - 1;
            }
            table[x][line] = count as u8;
            line += 1;
        }
        x += 1;
    }
    table
};

/// Diagonal masks (down-right and down-left) through each square.
const DIAGONALS: [(u64, u64); 64] = {
    let mut out = [(0, 0); 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut i: i32 = 0;
        while i < 64 {
            let (rr, cc) = (i / 8, i % 8);
            if rr - cc == r - c {
                out[sq].0 |= 1 << i;
            }
            if rr + cc == r + c {
                out[sq].1 |= 1 << i;
            }
            i += 1;
        }
        sq += 1;
    }
    out
};

/// How many discs flip when `p` plays the last empty square `x` (every
/// other square is full, so no opponent mask is needed). Each of the four
/// lines through `x` is packed into a byte and looked up.
#[inline]
pub fn last_flip_count(p: u64, x: usize) -> u32 {
    let (r, c) = (x / 8, x % 8);
    let row = (p >> (8 * r)) as usize & 0xFF;
    let col = pack_col_a(p >> c);
    // Squares of a diagonal have distinct columns: the multiply gathers
    // them into the top byte without carries.
    let (d9, d7) = DIAGONALS[x];
    let diag9 = ((p & d9).wrapping_mul(COL_A) >> 56) as usize;
    let diag7 = ((p & d7).wrapping_mul(COL_A) >> 56) as usize;
    u32::from(LAST_FLIPS[c][row])
        + u32::from(LAST_FLIPS[r][col])
        + u32::from(LAST_FLIPS[c][diag9])
        + u32::from(LAST_FLIPS[c][diag7])
}

/// The squares around each square: a move there needs an opponent disc
/// among them, a cheap test before computing flips.
pub const NEIGHBOURS: [u64; 64] = {
    let mut out = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        let h = ((b << 1) & !COL_A) | ((b >> 1) & !COL_H);
        let row = b | h;
        out[sq] = h | (row << 8) | (row >> 8);
        sq += 1;
    }
    out
};

/// Moves weighted for move ordering: corners count twice, because a corner
/// the opponent can take is worse than an ordinary reply.
#[inline]
pub fn weighted_mobility(m: u64) -> u32 {
    m.count_ones() + (m & CORNERS).count_ones()
}

/// The squares next to (8-neighbourhood of) any bit of `b`.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & !COL_A) | ((b >> 1) & !COL_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Iterates the set bits of a `u64` as square indices, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// Builds the edge stability table now rather than in the first search.
pub fn prepare() {
    edge_table();
}

/// Stable discs along one edge, for every pair of 8-bit edge patterns
/// (`p` in the high byte of the index, `o` in the low byte): the bits of
/// `p` that no sequence of plays on that edge can flip. Discs can land on
/// an edge square from another direction without flipping along the edge,
/// so every empty square is tried for both colours, legal in 1-D or not.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u8; 65536]);
        // Fuller edges first: every play leads to a fuller edge.
        for filled in (0..=8u32).rev() {
            for p in 0..256usize {
                for o in 0..256usize {
                    if p & o != 0 || (p | o).count_ones() != filled {
                        continue;
                    }
                    let mut stable = p as u8;
                    let empty = !(p | o) as u8;
                    for x in 0..8 {
                        if empty & (1 << x) == 0 {
                            continue;
                        }
                        let f = edge_flips(p as u8, o as u8, x);
                        let (np, no) = (p as u8 | f | 1 << x, o as u8 & !f);
                        stable &= table[usize::from(np) << 8 | usize::from(no)];
                        let f = edge_flips(o as u8, p as u8, x);
                        let (np, no) = (p as u8 & !f, o as u8 | f | 1 << x);
                        stable &= table[usize::from(np) << 8 | usize::from(no)];
                    }
                    table[p << 8 | o] = stable;
                }
            }
        }
        table
    })
}

/// Flips on a single 8-square line when `p` plays at `x`.
fn edge_flips(p: u8, o: u8, x: usize) -> u8 {
    let mut flips = 0;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && o & (1 << i) != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && p & (1 << i) != 0 {
            flips |= run;
        }
    }
    flips
}

/// Packs column `a` (bit `8k` → bit `k`).
#[inline]
fn pack_col_a(b: u64) -> usize {
    ((b & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Spreads bit `k` of `x` to bit `8k` (the inverse of [`pack_col_a`]).
#[inline]
fn unpack_col_a(x: u8) -> u64 {
    // Bits 0-6 land in their own bytes without colliding (k + 7j = k' + 7j'
    // needs |k - k'| = 7), so no carry can spoil them; bit 7 goes alone.
    ((u64::from(x & 0x7F).wrapping_mul(0x0002_0408_1020_4081)) & COL_A)
        | (u64::from(x & 0x80) << 49)
}

/// `p`'s discs that are stable along the four edges (1-D edge stability,
/// which includes every occupied corner).
#[inline]
pub fn edge_stable(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let top = t[((p & 0xFF) << 8 | (o & 0xFF)) as usize];
    let bottom = t[((p >> 56) << 8 | (o >> 56)) as usize];
    let left = t[pack_col_a(p) << 8 | pack_col_a(o)];
    let right = t[pack_col_a(p >> 7) << 8 | pack_col_a(o >> 7)];
    u64::from(top) | u64::from(bottom) << 56 | unpack_col_a(left) | unpack_col_a(right) << 7
}

/// Lines (in the four axes) that are completely filled: no disc on them can
/// ever flip along that axis.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    // Horizontal: AND each row with itself shifted, within the row.
    let mut h = filled;
    h &= h >> 1 & 0x7F7F_7F7F_7F7F_7F7F | COL_H;
    h &= h >> 2 & 0x3F3F_3F3F_3F3F_3F3F | 0xC0C0_C0C0_C0C0_C0C0;
    h &= h >> 4 & 0x0F0F_0F0F_0F0F_0F0F | 0xF0F0_F0F0_F0F0_F0F0;
    // Now bit at column 0 tells if the row is full; spread it along the row.
    let h = (h & COL_A).wrapping_mul(0xFF);

    let mut v = filled;
    v &= v >> 8 | ROW_8;
    v &= v >> 16 | 0xFFFF_0000_0000_0000;
    v &= v >> 32 | 0xFFFF_FFFF_0000_0000;
    let v = (v & ROW_1).wrapping_mul(COL_A);

    [h, v, diag_full(filled, 7), diag_full(filled, 9)]
}

/// Full diagonals along shift `s` (7: down-left, 9: down-right). A square
/// is on a full line when the walk from it to the border is filled both
/// ways; each pass extends the known-filled walk by one square.
#[inline]
fn diag_full(filled: u64, s: u32) -> u64 {
    // Border squares where the walk in each direction ends.
    let (end_up, end_down) = if s == 9 {
        (ROW_8 | COL_H, ROW_1 | COL_A)
    } else {
        (ROW_8 | COL_A, ROW_1 | COL_H)
    };
    let mut up = filled;
    let mut down = filled;
    for _ in 0..7 {
        up &= end_up | up >> s;
        down &= end_down | down << s;
    }
    up & down
}

crate::versioned! { V3;
/// `p`'s stable discs: discs that can never be flipped again. Edge
/// stability first, then the interior: a disc is stable when on each of the
/// four axes its line is full, or it touches the border, or a stable disc
/// of its own colour is next to it on that axis.
pub fn stable_discs_on(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let [full_h, full_v, full_d7, full_d9] = full_lines(filled);
    let mut stable = edge_stable(p, o) | (p & full_h & full_v & full_d7 & full_d9);
    if stable == 0 {
        return 0;
    }
    let candidates = p & !BORDER;
    loop {
        let h = full_h | (stable << 1 & !COL_A) | (stable >> 1 & !COL_H);
        let v = full_v | stable << 8 | stable >> 8;
        let d7 = full_d7 | (stable << 7 & !COL_H) | (stable >> 7 & !COL_A);
        let d9 = full_d9 | (stable << 9 & !COL_A) | (stable >> 9 & !COL_H);
        let next = stable | (candidates & h & v & d7 & d9);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}
}

/// [`moves_on`] in the baseline version, for code outside the searches.
#[inline]
pub fn moves(p: u64, o: u64) -> u64 {
    moves_on::<false>(p, o)
}

/// [`flips_on`] in the baseline version, for code outside the searches.
#[inline]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    flips_on::<false>(p, o, sq)
}

/// [`stable_discs_on`] in the baseline version, for code outside the
/// searches.
#[inline]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    stable_discs_on::<false>(p, o)
}

/// The board turned upside down (row 1 becomes row 8).
#[inline]
pub fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// The board mirrored left to right (column a becomes column h).
#[inline]
pub fn mirror_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// The board mirrored in its a1–h8 diagonal (rows become columns).
#[inline]
pub fn flip_diagonal(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = K2 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// One of the board's eight symmetries, `s` in `0..8`: bit 2 mirrors in
/// the diagonal first, then bit 1 turns the board upside down and bit 0
/// mirrors it left to right.
#[inline]
pub fn transform(s: usize, b: u64) -> u64 {
    let b = if s & 4 != 0 { flip_diagonal(b) } else { b };
    let b = if s & 2 != 0 { flip_vertical(b) } else { b };
    if s & 1 != 0 { mirror_horizontal(b) } else { b }
}

/// The square `sq` under [`transform`]`(s, ..)`.
#[inline]
pub fn transform_square(s: usize, sq: usize) -> usize {
    transform(s, 1 << sq).trailing_zeros() as usize
}

/// The symmetry that undoes [`transform`]`(s, ..)`.
#[inline]
pub fn inverse_transform(s: usize) -> usize {
    // The mirrors undo themselves; after a diagonal mirror, the other two
    // trade places.
    if s & 4 != 0 && s & 3 != 0 && s & 3 != 3 {
        s ^ 3
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference move generator: walk each direction square by square.
    fn slow_flips(p: u64, o: u64, sq: usize) -> u64 {
        let mut all = 0;
        for (dr, dc) in [
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, -1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ] {
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            let mut run = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) && o >> (r * 8 + c) & 1 == 1 {
                run |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            if (0..8).contains(&r) && (0..8).contains(&c) && p >> (r * 8 + c) & 1 == 1 {
                all |= run;
            }
        }
        all
    }

    fn random_boards() -> impl Iterator<Item = (u64, u64)> {
        let mut s = 0x1234_5678_9ABC_DEF0u64;
        std::iter::from_fn(move || {
            let mut next = || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            let a = next();
            let b = next();
            let filled = a | b & next();
            Some((a & filled, !a & filled))
        })
    }

    #[test]
    fn moves_and_flips_match_a_square_by_square_walk() {
        for (p, o) in random_boards().take(20_000) {
            let empty = !(p | o);
            let mut expected = 0;
            for sq in 0..64 {
                let slow = if empty >> sq & 1 == 1 {
                    slow_flips(p, o, sq)
                } else {
                    0
                };
                if slow != 0 {
                    expected |= 1 << sq;
                }
                if empty >> sq & 1 == 1 {
                    assert_eq!(flips(p, o, sq), slow, "{p:x} {o:x} {sq}");
                }
            }
            assert_eq!(moves(p, o), expected, "{p:x} {o:x}");
        }
    }

    #[test]
    fn last_flip_counts_match_the_flips() {
        for (p, _) in random_boards().take(20_000) {
            for x in 0..64 {
                let p = p & !(1 << x);
                let o = !p & !(1 << x);
                assert_eq!(
                    last_flip_count(p, x),
                    flips(p, o, x).count_ones(),
                    "{p:x} {x}"
                );
            }
        }
    }

    #[test]
    fn column_packing_round_trips() {
        for x in 0..=255u8 {
            assert_eq!(pack_col_a(unpack_col_a(x)), x as usize);
            assert_eq!(unpack_col_a(x) & !COL_A, 0);
        }
    }

    #[test]
    fn full_lines_match_a_direct_check() {
        for (p, o) in random_boards().take(5_000) {
            let filled = p | o | (p ^ 0xFFFF_FFFF_0000_0000);
            for filled in [p | o, filled, !0, !0 ^ 1 << 27] {
                let got = full_lines(filled);
                for sq in 0..64 {
                    let (r, c) = (sq / 8, sq % 8);
                    let line_full = |dr: i32, dc: i32| {
                        [1, -1].iter().all(|&k| {
                            let (mut rr, mut cc) = (r, c);
                            while (0..8).contains(&rr) && (0..8).contains(&cc) {
                                if filled >> (rr * 8 + cc) & 1 == 0 {
                                    return false;
                                }
                                rr += k * dr;
                                cc += k * dc;
                            }
                            true
                        })
                    };
                    let want = [
                        line_full(0, 1),
                        line_full(1, 0),
                        line_full(1, -1),
                        line_full(1, 1),
                    ];
                    for axis in 0..4 {
                        assert_eq!(
                            got[axis] >> sq & 1 == 1,
                            want[axis],
                            "{filled:x} {sq} {axis}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn stable_discs_never_flip_in_random_play() {
        // Play random games; a disc once stable must keep its colour.
        let mut rng = random_boards();
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut black_to_move = true;
            let mut stable_black = 0u64;
            let mut stable_white = 0u64;
            loop {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    black_to_move = !black_to_move;
                    continue;
                }
                let pick = rng.next().unwrap().0 as usize % m.count_ones() as usize;
                let sq = Squares(m).nth(pick).unwrap();
                let f = flips(p, o, sq);
                p |= f | 1 << sq;
                o &= !f;
                let (black, white) = if black_to_move { (p, o) } else { (o, p) };
                assert_eq!(stable_black & !black, 0, "a stable black disc flipped");
                assert_eq!(stable_white & !white, 0, "a stable white disc flipped");
                stable_black |= stable_discs(black, white);
                stable_white |= stable_discs(white, black);
                std::mem::swap(&mut p, &mut o);
                black_to_move = !black_to_move;
            }
        }
    }

    #[test]
    fn symmetries_move_squares_as_the_board_geometry_says() {
        for sq in 0..64usize {
            let (r, c) = (sq / 8, sq % 8);
            assert_eq!(transform_square(1, sq), r * 8 + (7 - c));
            assert_eq!(transform_square(2, sq), (7 - r) * 8 + c);
            assert_eq!(transform_square(4, sq), c * 8 + r);
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for s in 0..8 {
                assert_eq!(transform(inverse_transform(s), transform(s, x)), x, "{s}");
                assert_eq!(transform(s, x).count_ones(), x.count_ones());
            }
        }
    }
}
