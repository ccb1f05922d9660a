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
//! position. A window is read in one step: its squares, gathered from each
//! side's bitboard (`pext`), index a small table of base-3 values. Beside
//! the windows, each side's count of legal moves has a weight per count:
//! mobility, which no window sees whole.
//!
//! There are `STAGE_COUNT` stages of `STAGE_WIDTH` counts of empties each,
//! from the end of the game to its start. The weights (`weights.bin`) were
//! fitted by least squares to the final disc differences of 4.3 million
//! positions from 100,000 fixed-seed self-play games, each game solved
//! exactly from 18 empties on and its result backed up into the earlier
//! positions; `examples/othello_train.sh` reproduces them.

use std::sync::{LazyLock, OnceLock};

use super::bitboard::moves_on;

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

/// Mobility weights per side: counts of legal moves from 0 up, the last
/// for that many or more.
const MOBILITY_COUNTS: usize = 24;

/// Game stages by empty squares: a stage spans this many counts of empties.
pub const STAGE_WIDTH: u32 = 4;
/// The number of stages: the last one holds the start (60 empties) too.
pub const STAGE_COUNT: usize = 15;

/// The stage of a position with `empties` empty squares.
#[inline]
pub fn stage(empties: u32) -> usize {
    (empties.min(STAGE_WIDTH * STAGE_COUNT as u32 - 1) / STAGE_WIDTH) as usize
}

/// The eight symmetries of the board, as maps of squares.
fn symmetry(s: usize, sq: u8) -> u8 {
    let (r, c) = (sq / 8, sq % 8);
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 2 != 0 { 7 - r } else { r };
    let c = if s & 1 != 0 { 7 - c } else { c };
    r * 8 + c
}

/// One window on the board: its squares in reading order (the shape's
/// squares carried by one symmetry), where its shape's table starts, and
/// how to read it in one step.
struct Window {
    #[cfg_attr(not(test), allow(dead_code))]
    squares: Vec<u8>,
    symmetry: usize,
    read: Read,
}

/// What reading a window takes: the squares as a bit mask, the start of
/// its shape's table, and the start of its digit table in
/// [`Layout::digits`].
#[derive(Clone, Copy)]
struct Read {
    mask: u64,
    base: usize,
    digits: usize,
}

/// The windows, the size of the full (per-reading) table set of one
/// stage, and for each full index its canonical weight (shared between
/// the readings of a self-symmetric shape).
struct Layout {
    windows: Vec<Window>,
    reads: Vec<Read>,
    /// Per window, for each set of its squares (as the bits gathered from
    /// its mask, lowest square first) the base-3 value of ones on those
    /// squares in the window's reading order.
    digits: Vec<u16>,
    /// Where the mobility weights start in a stage's table: the side to
    /// move's, then the opponent's.
    mobility: usize,
    full: usize,
    canonical: Vec<u32>,
    canonical_count: usize,
}

fn pow3(n: usize) -> usize {
    3usize.pow(n as u32)
}

static LAYOUT: LazyLock<Layout> = LazyLock::new(|| {
    let mut windows = Vec::new();
    let mut digits = Vec::new();
    let mut canonical = Vec::new();
    let mut canonical_count = 0;
    let mut base = 0;
    for shape in SHAPES {
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
                let read = Read {
                    mask: squares.iter().fold(0, |m, &sq| m | 1 << sq),
                    base,
                    digits: digits.len(),
                };
                // Gathered bit `j` is the window's `j`-th lowest square;
                // its digit's place is that square's place in the reading.
                let mut by_square: Vec<(u8, usize)> = squares
                    .iter()
                    .enumerate()
                    .map(|(i, &sq)| (sq, pow3(i)))
                    .collect();
                by_square.sort_unstable();
                digits.extend((0..1usize << len).map(|bits| {
                    by_square
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| bits >> j & 1 == 1)
                        .map(|(_, &(_, value))| value as u16)
                        .sum::<u16>()
                }));
                windows.push(Window {
                    squares,
                    symmetry: s,
                    read,
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
    // Symmetry by symmetry, each in shape order: the order training sums
    // the features in, which the committed weights depend on to the last
    // bit.
    windows.sort_by_key(|w| w.symmetry);
    // Then each side's mobility, one weight per count of moves.
    canonical.extend((0..2 * MOBILITY_COUNTS as u32).map(|i| canonical_count as u32 + i));
    canonical_count += 2 * MOBILITY_COUNTS;
    Layout {
        reads: windows.iter().map(|w| w.read).collect(),
        windows,
        digits,
        mobility: base,
        full: base + 2 * MOBILITY_COUNTS,
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
/// within one stage: one per window, then the two mobility weights.
pub fn features(p: u64, o: u64) -> Vec<usize> {
    let layout = &*LAYOUT;
    let v3 = crate::cpu::has_v3();
    let index = |r| {
        if v3 {
            layout.index::<true>(r, p, o)
        } else {
            layout.index::<false>(r, p, o)
        }
    };
    let (mine, theirs) = layout.mobility_indices::<false>(p, o);
    layout
        .reads
        .iter()
        .map(|r| layout.canonical[r.base + index(r)] as usize)
        .chain([mine, theirs].map(|i| layout.canonical[i] as usize))
        .collect()
}

impl Layout {
    /// The indices of the two mobility weights in a stage's table.
    #[inline(always)]
    fn mobility_indices<const V3: bool>(&self, p: u64, o: u64) -> (usize, usize) {
        let count = |a, b| (moves_on::<V3>(a, b).count_ones() as usize).min(MOBILITY_COUNTS - 1);
        (
            self.mobility + count(p, o),
            self.mobility + MOBILITY_COUNTS + count(o, p),
        )
    }

    /// A window's index within its shape's table: one digit per square
    /// (0 empty, 1 `p`, 2 `o`), the first square of the reading order
    /// lowest.
    #[inline(always)]
    fn index<const V3: bool>(&self, r: &Read, p: u64, o: u64) -> usize {
        let digits = &self.digits[r.digits..];
        usize::from(digits[gather::<V3>(p, r.mask)])
            + 2 * usize::from(digits[gather::<V3>(o, r.mask)])
    }
}

/// The bits of `b` under `mask`, packed into the low bits in square order:
/// `pext` in the x86-64-v3 version (see [`crate::cpu`]).
#[inline(always)]
fn gather<const V3: bool>(b: u64, mask: u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    if V3 {
        // SAFETY: the v3 version runs only on CPUs with BMI2, and is
        // compiled with it, so the instruction is there and inlined.
        return unsafe { std::arch::x86_64::_pext_u64(b, mask) as usize };
    }
    gather_bit_by_bit(b, mask)
}

/// [`gather`] one mask bit at a time: the baseline version, and the
/// reference the v3 one is tested against.
#[inline]
fn gather_bit_by_bit(b: u64, mut mask: u64) -> usize {
    let mut out = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if b & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask ^= low;
    }
    out
}

/// A window's index read square by square (the reference for
/// [`Layout::index`]).
#[cfg(test)]
fn index(squares: &[u8], p: u64, o: u64) -> usize {
    squares.iter().rev().fold(0, |acc, &sq| {
        acc * 3 + (p >> sq & 1) as usize + 2 * (o >> sq & 1) as usize
    })
}

/// The trained weights, little-endian `i16`, stage after stage.
static WEIGHTS_FILE: &[u8] = include_bytes!("weights.bin");

/// The weights expanded to every reading, stage after stage: the committed
/// ones unless [`install`] chose others first.
static TABLE: OnceLock<Vec<i16>> = OnceLock::new();

fn table() -> &'static [i16] {
    TABLE.get_or_init(|| expand(WEIGHTS_FILE).expect("weights.bin matches the pattern layout"))
}

/// The weights of a weights file expanded to every reading; `None` when
/// the file does not fit the layout.
fn expand(file: &[u8]) -> Option<Vec<i16>> {
    let layout = &*LAYOUT;
    let stored: Vec<i16> = file
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    let per_stage = layout.canonical_count;
    if file.len() % 2 != 0 || stored.len() != per_stage * STAGE_COUNT {
        return None;
    }
    let mut table = Vec::with_capacity(layout.full * STAGE_COUNT);
    for weights in stored.chunks_exact(per_stage) {
        table.extend(layout.canonical.iter().map(|&c| weights[c as usize]));
    }
    Some(table)
}

/// Uses the weights of `file` (as `weights.bin` is laid out) instead of the
/// committed ones, for the whole process: the trainer plays and solves with
/// one generation's weights to make the next. It must come before the first
/// evaluation; false when it came too late or the file does not fit.
pub fn install(file: &[u8]) -> bool {
    expand(file).is_some_and(|table| TABLE.set(table).is_ok())
}

/// Expands the weights now rather than in the first search.
pub fn prepare() {
    table();
}

/// The position's value for `p` (to move) against `o`: the expected final
/// disc difference, in 1/[`SCALE`] discs.
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
    let layout = &*LAYOUT;
    let empties = 64 - (p | o).count_ones();
    let table = &table()[stage(empties) * layout.full..];
    let (mine, theirs) = layout.mobility_indices::<V3>(p, o);
    layout
        .reads
        .iter()
        .map(|r| i32::from(table[r.base + layout.index::<V3>(r, p, o)]))
        .sum::<i32>()
        + i32::from(table[mine])
        + i32::from(table[theirs])
}
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
                let reference = index(&w.squares, p, o);
                assert_eq!(LAYOUT.index::<false>(&w.read, p, o), reference);
                if crate::cpu::has_v3() {
                    assert_eq!(LAYOUT.index::<true>(&w.read, p, o), reference);
                }
            }
        }
    }

    #[test]
    fn gathering_keeps_the_masked_bits_in_square_order() {
        if crate::cpu::has_v3() {
            for (b, mask) in boards() {
                assert_eq!(gather::<true>(b, mask), gather_bit_by_bit(b, mask));
            }
        }
        assert_eq!(gather_bit_by_bit(0b1010_0110, 0b1111_0100), 0b1_0101);
    }

    #[test]
    fn the_layout_reads_46_windows() {
        assert_eq!(window_count(), 46);
        assert_eq!(table().len(), LAYOUT.full * STAGE_COUNT);
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
    fn both_compiled_versions_give_the_same_values() {
        if !crate::cpu::has_v3() {
            return;
        }
        for (p, o) in boards() {
            assert_eq!(value::<true>(p, o), value::<false>(p, o));
        }
    }

    #[test]
    fn stages_cover_every_count_of_empties() {
        assert_eq!(stage(0), 0);
        assert_eq!(stage(STAGE_WIDTH - 1), 0);
        assert_eq!(stage(STAGE_WIDTH), 1);
        assert_eq!(stage(60), STAGE_COUNT - 1);
        assert_eq!(stage(64), STAGE_COUNT - 1);
    }
}
