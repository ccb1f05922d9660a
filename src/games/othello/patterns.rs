//! A pattern evaluation learned from exact endgame results.
//!
//! The board is read through 46 windows: the edges with their X-squares,
//! the corner 3×3 and 2×5 blocks, rows 2 to 4 and the diagonals of length 4
//! to 8, each in every orientation the board's symmetries give it. Each
//! window's contents (empty, mine, theirs per square) index a table of
//! weights shared by all orientations of the same shape, one table set per
//! game stage; the value is their sum. A shape that maps onto itself under
//! a symmetry (an edge read backwards) shares one weight between the two
//! readings, so the evaluation is the same for all eight orientations of a
//! position.
//!
//! The weights (`weights.bin`) were fitted by least squares to the exact
//! final disc differences of positions from fixed-seed self-play, solved by
//! our own solver; `examples/othello_train.rs` reproduces them.

use std::sync::LazyLock;

/// Weights are in 1/`SCALE` discs.
pub const SCALE: i32 = 32;

/// The shapes, as squares (`row * 8 + col`) in reading order.
const SHAPES: [&[u8]; 11] = [
    // a1–h1 with b2 and g2.
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    // a1–c3.
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    // a1–e2.
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    // Rows 2, 3 and 4.
    &[8, 9, 10, 11, 12, 13, 14, 15],
    &[16, 17, 18, 19, 20, 21, 22, 23],
    &[24, 25, 26, 27, 28, 29, 30, 31],
    // Diagonals of length 8 down to 4.
    &[0, 9, 18, 27, 36, 45, 54, 63],
    &[1, 10, 19, 28, 37, 46, 55],
    &[2, 11, 20, 29, 38, 47],
    &[3, 12, 21, 30, 39],
    &[4, 13, 22, 31],
];

/// Game stages by empty squares: `STAGES[i]` is the fewest empties of
/// stage `i`.
pub const STAGES: [u32; 4] = [0, 11, 15, 18];

/// The stage of a position with `empties` empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    STAGES.iter().rposition(|&s| empties >= s).unwrap_or(0)
}

/// The eight symmetries of the board, as maps of squares.
fn symmetry(s: usize, sq: u8) -> u8 {
    let (r, c) = (sq / 8, sq % 8);
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 2 != 0 { 7 - r } else { r };
    let c = if s & 1 != 0 { 7 - c } else { c };
    r * 8 + c
}

/// One window on the board: its shape, the symmetry that carries the
/// shape onto it, its squares in reading order and where its shape's table
/// starts.
struct Window {
    shape: usize,
    symmetry: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    squares: Vec<u8>,
    base: usize,
}

/// The windows, the size of the full (per-reading) table set of one
/// stage, and for each full index its canonical weight (shared between
/// the readings of a self-symmetric shape).
struct Layout {
    windows: Vec<Window>,
    /// (shape, table start) of the windows, grouped by symmetry.
    by_symmetry: [Vec<(usize, usize)>; 8],
    full: usize,
    canonical: Vec<u32>,
    canonical_count: usize,
}

fn pow3(n: usize) -> usize {
    3usize.pow(n as u32)
}

static LAYOUT: LazyLock<Layout> = LazyLock::new(|| {
    let mut windows = Vec::new();
    let mut canonical = Vec::new();
    let mut canonical_count = 0;
    let mut base = 0;
    for (kind, shape) in SHAPES.iter().enumerate() {
        let len = shape.len();
        let mut seen: Vec<Vec<u8>> = Vec::new();
        // The permutations of the reading order under which the shape maps
        // onto itself.
        let mut self_maps: Vec<Vec<usize>> = Vec::new();
        for s in 0..8 {
            let squares: Vec<u8> = shape.iter().map(|&sq| symmetry(s, sq)).collect();
            let mut set = squares.clone();
            set.sort_unstable();
            let mut own = shape.to_vec();
            own.sort_unstable();
            if set == own {
                self_maps.push(
                    squares
                        .iter()
                        .map(|sq| shape.iter().position(|x| x == sq).unwrap_or(0))
                        .collect(),
                );
            }
            if !seen.contains(&set) {
                seen.push(set);
                windows.push(Window {
                    shape: kind,
                    symmetry: s,
                    squares,
                    base,
                });
            }
        }
        // Canonical index: the smallest index among a configuration's
        // readings; numbered densely per shape.
        let mut ids = vec![u32::MAX; pow3(len)];
        for idx in 0..pow3(len) {
            let digits: Vec<usize> = (0..len).map(|i| idx / pow3(i) % 3).collect();
            let least = self_maps
                .iter()
                .map(|map| (0..len).map(|i| digits[map[i]] * pow3(i)).sum::<usize>())
                .min()
                .unwrap_or(idx);
            if ids[least] == u32::MAX {
                ids[least] = canonical_count as u32;
                canonical_count += 1;
            }
            ids[idx] = ids[least];
        }
        canonical.extend(ids);
        base += pow3(len);
    }
    let mut by_symmetry: [Vec<(usize, usize)>; 8] = Default::default();
    for w in &windows {
        by_symmetry[w.symmetry].push((w.shape, w.base));
    }
    Layout {
        windows,
        by_symmetry,
        full: base,
        canonical,
        canonical_count,
    }
});

/// The number of distinct weights per stage (what training fits).
pub fn weights_per_stage() -> usize {
    LAYOUT.canonical_count
}

/// The number of windows read on every position.
pub fn window_count() -> usize {
    LAYOUT.windows.len()
}

/// The canonical weight indices of `p`'s position (to move) against `o`,
/// within one stage: one per window.
pub fn features(p: u64, o: u64) -> Vec<usize> {
    let layout = &*LAYOUT;
    let mut out = Vec::with_capacity(layout.windows.len());
    for (s, windows) in layout.by_symmetry.iter().enumerate() {
        let (ps, os) = (orient(p, s), orient(o, s));
        out.extend(
            windows
                .iter()
                .map(|&(shape, base)| layout.canonical[base + read(shape, ps, os)] as usize),
        );
    }
    out
}

/// The board seen through symmetry `s`: square `q` of the result is square
/// `symmetry(s, q)` of `b`.
#[inline]
fn orient(mut b: u64, s: usize) -> u64 {
    if s & 1 != 0 {
        // Mirror each row.
        b = (b >> 1 & 0x5555_5555_5555_5555) | (b & 0x5555_5555_5555_5555) << 1;
        b = (b >> 2 & 0x3333_3333_3333_3333) | (b & 0x3333_3333_3333_3333) << 2;
        b = (b >> 4 & 0x0F0F_0F0F_0F0F_0F0F) | (b & 0x0F0F_0F0F_0F0F_0F0F) << 4;
    }
    if s & 2 != 0 {
        b = b.swap_bytes();
    }
    if s & 4 != 0 {
        // Transpose: swap 4×4, then 2×2, then 1×1 blocks across the diagonal.
        let t = 0x0F0F_0F0F_0000_0000 & (b ^ b << 28);
        b ^= t ^ t >> 28;
        let t = 0x3333_0000_3333_0000 & (b ^ b << 14);
        b ^= t ^ t >> 14;
        let t = 0x5500_5500_5500_5500 & (b ^ b << 7);
        b ^= t ^ t >> 7;
    }
    b
}

/// The base-3 value of each byte read as eight cells (bit `i` a disc at
/// digit `i`).
static TERNARY: [u16; 256] = {
    let mut out = [0; 256];
    let mut m = 0;
    while m < 256 {
        let (mut value, mut digit, mut bit) = (0, 1, 0);
        while bit < 8 {
            if m >> bit & 1 == 1 {
                value += digit;
            }
            digit *= 3;
            bit += 1;
        }
        out[m] = value;
        m += 1;
    }
    out
};

/// The cells of the bits of `mask` in `p` and `o`, as base-3 digits (the
/// lowest bit first).
#[inline]
fn cells(p: u64, o: u64, shift: u32, mask: u64) -> usize {
    TERNARY[(p >> shift & mask) as usize] as usize
        + 2 * TERNARY[(o >> shift & mask) as usize] as usize
}

/// The squares of one diagonal gathered into a byte by column.
#[inline]
fn diagonal(b: u64, mask: u64) -> u64 {
    (b & mask).wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// The diagonal starting on square `start` of the first row.
const fn diagonal_mask(start: u32) -> u64 {
    let mut mask = 0;
    let mut r = 0;
    while r + start < 8 {
        mask |= 1 << (r * 9 + start);
        r += 1;
    }
    mask
}

/// Shape `shape`'s index on boards already oriented.
#[inline]
fn read(shape: usize, p: u64, o: u64) -> usize {
    match shape {
        0 => cells(p, o, 0, 0xFF) + 6561 * (cells(p, o, 9, 1) + 3 * cells(p, o, 14, 1)),
        1 => cells(p, o, 0, 7) + 27 * cells(p, o, 8, 7) + 729 * cells(p, o, 16, 7),
        2 => cells(p, o, 0, 31) + 243 * cells(p, o, 8, 31),
        3..=5 => cells(p, o, 8 * (shape as u32 - 2), 0xFF),
        _ => {
            let start = shape as u32 - 6;
            let mask = diagonal_mask(start);
            cells(diagonal(p, mask), diagonal(o, mask), start, 0xFF)
        }
    }
}

/// Shape `squares`' index read square by square (the reference for
/// [`read`]).
#[cfg(test)]
fn index(squares: &[u8], p: u64, o: u64) -> usize {
    squares.iter().rev().fold(0, |acc, &sq| {
        acc * 3 + (p >> sq & 1) as usize + 2 * (o >> sq & 1) as usize
    })
}

/// The trained weights, little-endian `i16`, stage after stage.
static WEIGHTS_FILE: &[u8] = include_bytes!("weights.bin");

/// The weights expanded to every reading, stage after stage.
static TABLE: LazyLock<Vec<i16>> = LazyLock::new(|| {
    let layout = &*LAYOUT;
    let stored: Vec<i16> = WEIGHTS_FILE
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    let per_stage = layout.canonical_count;
    assert_eq!(
        stored.len(),
        per_stage * STAGES.len(),
        "weights.bin does not match the pattern layout"
    );
    let mut table = Vec::with_capacity(layout.full * STAGES.len());
    for stage in 0..STAGES.len() {
        let weights = &stored[stage * per_stage..(stage + 1) * per_stage];
        table.extend(layout.canonical.iter().map(|&c| weights[c as usize]));
    }
    table
});

/// The position's value for `p` (to move) against `o`: the expected final
/// disc difference, in 1/[`SCALE`] discs.
pub fn evaluate(p: u64, o: u64) -> i32 {
    let layout = &*LAYOUT;
    let empties = 64 - (p | o).count_ones();
    let table = &TABLE[stage(empties) * layout.full..];
    let mut sum = 0;
    for (s, windows) in layout.by_symmetry.iter().enumerate() {
        let (ps, os) = (orient(p, s), orient(o, s));
        for &(shape, base) in windows {
            sum += i32::from(table[base + read(shape, ps, os)]);
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transform(s: usize, b: u64) -> u64 {
        (0..64u8)
            .filter(|&sq| b >> sq & 1 == 1)
            .fold(0, |acc, sq| acc | 1 << symmetry(s, sq))
    }

    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = x | x.rotate_left(17);
            let p = occupied & x.rotate_left(31);
            (p, occupied & !p)
        })
        .take(500)
    }

    #[test]
    fn fast_reads_match_square_by_square_reads() {
        for (p, o) in boards() {
            for w in &LAYOUT.windows {
                let (ps, os) = (orient(p, w.symmetry), orient(o, w.symmetry));
                assert_eq!(read(w.shape, ps, os), index(&w.squares, p, o));
            }
        }
    }

    #[test]
    fn the_layout_reads_46_windows() {
        assert_eq!(window_count(), 46);
        assert_eq!(TABLE.len(), LAYOUT.full * STAGES.len());
    }

    #[test]
    fn all_orientations_of_a_position_score_the_same() {
        for (p, o) in boards() {
            let value = evaluate(p, o);
            for s in 1..8 {
                assert_eq!(evaluate(transform(s, p), transform(s, o)), value);
            }
        }
    }

    #[test]
    fn stages_cover_every_count_of_empties() {
        assert_eq!(stage(0), 0);
        assert_eq!(stage(10), 0);
        assert_eq!(stage(11), 1);
        assert_eq!(stage(60), STAGES.len() - 1);
    }
}
