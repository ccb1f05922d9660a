//! Line patterns: what a stone placed on an empty cell makes along one line,
//! read from the eight neighbours on that line (four each side).
//!
//! The board keeps, per cell and direction, a 16-bit key of those eight
//! neighbours (2 bits each: empty, black, white, wall). A table built once
//! per rule set maps every key to the pattern a black and a white stone
//! would make there. The table is exact within its nine-cell window; for
//! the exact-five rules a stone five cells away can turn a "five" into an
//! overline, so wins are always confirmed on the real board.

use std::sync::OnceLock;

use super::Rules;

/// What one stone on an empty cell makes along one line, weakest first.
/// The twos and threes are told apart by how many ways they grow: an open
/// two that can become an open three in three ways is worth more than one
/// that can in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the cell on this line.
    Dead = 0,
    /// A five is still possible; the stone can grow only into a closed two.
    One,
    /// A lone stone that can grow into an open two.
    FlexOne,
    /// A two that can become a closed three.
    ClosedTwo,
    /// A two that can become an open three in one or two ways.
    OpenTwo,
    /// ... in three ways.
    OpenTwoPlus,
    /// ... in four or more.
    OpenTwoStrong,
    /// A three that can become a four (one five point).
    ClosedThree,
    /// A three that can become an open four in one way.
    OpenThree,
    /// ... in two ways.
    OpenThreeStrong,
    /// A four: one point makes five.
    Four,
    /// An open four (or two fours on the line): two points make five.
    OpenFour,
    /// Five in a row (for the exact rules: as far as the window shows).
    Five,
    /// Six or more where only exactly five wins.
    Overline,
}

impl Pattern {
    /// How many there are.
    pub const COUNT: usize = 14;

    const ALL: [Pattern; Self::COUNT] = [
        Pattern::Dead,
        Pattern::One,
        Pattern::FlexOne,
        Pattern::ClosedTwo,
        Pattern::OpenTwo,
        Pattern::OpenTwoPlus,
        Pattern::OpenTwoStrong,
        Pattern::ClosedThree,
        Pattern::OpenThree,
        Pattern::OpenThreeStrong,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
        Pattern::Overline,
    ];

    pub fn from_u8(v: u8) -> Pattern {
        Self::ALL[v as usize]
    }

    /// An open three of either kind: the stone makes a three that can
    /// become an open four.
    pub fn is_open_three(self) -> bool {
        matches!(self, Pattern::OpenThree | Pattern::OpenThreeStrong)
    }

    /// An open two of any kind.
    pub fn is_open_two(self) -> bool {
        matches!(
            self,
            Pattern::OpenTwo | Pattern::OpenTwoPlus | Pattern::OpenTwoStrong
        )
    }
}

/// Neighbour codes in a key.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// Slot of the neighbour at offset `k` (−4..=4, not 0) in a key.
pub const fn slot(k: i32) -> u32 {
    if k < 0 {
        (k + 4) as u32
    } else {
        (k + 3) as u32
    }
}

/// For every key, the pattern for black (low nibble) and white (high
/// nibble): one byte per key keeps the table at 64 KiB, close to the cache.
pub struct PatternTable {
    entries: Box<[u8; 1 << 16]>,
}

impl PatternTable {
    /// The patterns for black and white.
    #[inline]
    pub fn get(&self, key: u16) -> [u8; 2] {
        let e = self.entries[key as usize];
        [e & 15, e >> 4]
    }
}

/// The table for a rule set, built on first use.
pub fn table(rules: Rules) -> &'static PatternTable {
    static TABLES: [OnceLock<PatternTable>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (i, exact) = match rules {
        Rules::Freestyle => (0, [false, false]),
        Rules::Standard => (1, [true, true]),
        Rules::Renju => (2, [true, false]),
    };
    TABLES[i].get_or_init(|| build(exact))
}

fn build(exact: [bool; 2]) -> PatternTable {
    let levels = [levels(false), levels(true)];
    let mut entries = Box::new([0u8; 1 << 16]);
    for (key, entry) in entries.iter_mut().enumerate() {
        let mut out = [0u8; 2];
        for (color, code) in [BLACK, WHITE].into_iter().enumerate() {
            // Window of the line for `color`: 0 empty, 1 own, 2 blocked.
            let mut index = 0usize;
            for s in (0..8).rev() {
                let c = ((key >> (2 * s)) & 3) as u8;
                let v = if c == EMPTY {
                    0
                } else if c == code {
                    1
                } else {
                    2
                };
                index = index * 3 + v;
            }
            out[color] = levels[exact[color] as usize][index] as u8;
        }
        *entry = out[0] | out[1] << 4;
    }
    PatternTable { entries }
}

/// Window cells: index 0..4 are offsets −4..−1, 4 is the centre, 5..9 +1..+4.
type Window = [u8; 9];

fn window_of(index: usize) -> Window {
    let mut w = [0u8; 9];
    let mut rest = index;
    for s in 0..8 {
        let v = (rest % 3) as u8;
        rest /= 3;
        w[if s < 4 { s } else { s + 1 }] = v;
    }
    w[4] = 1;
    w
}

fn index_of(w: &Window) -> usize {
    let mut index = 0;
    for s in (0..8).rev() {
        index = index * 3 + w[if s < 4 { s } else { s + 1 }] as usize;
    }
    index
}

/// Length of the run of own stones through the centre.
fn run(w: &Window) -> usize {
    let left = (0..4).rev().take_while(|&i| w[i] == 1).count();
    let right = (5..9).take_while(|&i| w[i] == 1).count();
    left + right + 1
}

/// The pattern of every window (centre occupied by the own stone).
fn levels(exact: bool) -> Vec<Pattern> {
    let mut memo = vec![None; 3usize.pow(8)];
    for i in 0..memo.len() {
        level(&window_of(i), exact, &mut memo);
    }
    memo.into_iter()
        .map(|p| p.unwrap_or(Pattern::Dead))
        .collect()
}

fn level(w: &Window, exact: bool, memo: &mut Vec<Option<Pattern>>) -> Pattern {
    let index = index_of(w);
    if let Some(p) = memo[index] {
        return p;
    }
    let len = run(w);
    let p = if len == 5 || (len > 5 && !exact) {
        Pattern::Five
    } else if len > 5 {
        Pattern::Overline
    } else {
        // What one more stone can make, and in how many ways.
        let mut fives = 0;
        let mut open_fours = 0;
        let mut open_threes = 0;
        let mut best = Pattern::Dead;
        for j in (0..9).filter(|&j| w[j] == 0) {
            let mut next = *w;
            next[j] = 1;
            let child = level(&next, exact, memo);
            match child {
                Pattern::Five => fives += 1,
                Pattern::OpenFour => open_fours += 1,
                c if c.is_open_three() => open_threes += 1,
                _ => {}
            }
            best = best.max(child);
        }
        match (fives, best) {
            (2.., _) => Pattern::OpenFour,
            (1, _) => Pattern::Four,
            (_, Pattern::OpenFour) if open_fours >= 2 => Pattern::OpenThreeStrong,
            (_, Pattern::OpenFour) => Pattern::OpenThree,
            (_, Pattern::Four) => Pattern::ClosedThree,
            (_, b) if b.is_open_three() && open_threes >= 4 => Pattern::OpenTwoStrong,
            (_, b) if b.is_open_three() && open_threes == 3 => Pattern::OpenTwoPlus,
            (_, b) if b.is_open_three() => Pattern::OpenTwo,
            (_, Pattern::ClosedThree) => Pattern::ClosedTwo,
            (_, b) if b.is_open_two() => Pattern::FlexOne,
            (_, Pattern::ClosedTwo) => Pattern::One,
            _ => Pattern::Dead,
        }
    };
    memo[index] = Some(p);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern for black of a line written like `"..XX?X..."`, `?` the
    /// cell, `#` a wall; the line must have four cells each side.
    fn black(rules: Rules, line: &str) -> Pattern {
        let cells: Vec<u8> = line
            .bytes()
            .map(|b| match b {
                b'X' => BLACK,
                b'O' => WHITE,
                b'#' => WALL,
                _ => EMPTY,
            })
            .collect();
        let centre = line.find('?').unwrap() as i32;
        let mut key = 0u16;
        for k in (-4..=4).filter(|&k| k != 0) {
            key |= u16::from(cells[(centre + k) as usize]) << (2 * slot(k));
        }
        Pattern::from_u8(table(rules).get(key)[0])
    }

    #[test]
    fn shapes_are_classified() {
        let f = Rules::Freestyle;
        assert_eq!(black(f, "XXXX?...."), Pattern::Five);
        assert_eq!(black(f, "XXXX?X..."), Pattern::Five);
        assert_eq!(black(Rules::Standard, "XXXX?X..."), Pattern::Overline);
        assert_eq!(black(f, "...X?XX.."), Pattern::OpenFour);
        assert_eq!(black(f, "..OX?XX.."), Pattern::Four);
        assert_eq!(black(f, "...X?.XX."), Pattern::Four);
        assert_eq!(black(f, ".X.X?X.X."), Pattern::OpenFour);
        assert_eq!(black(f, "....?XX.."), Pattern::OpenThreeStrong);
        assert_eq!(black(f, "...X?.X.."), Pattern::OpenThree);
        assert_eq!(black(f, "#O.X?X..."), Pattern::OpenThree);
        assert_eq!(black(f, "...O?XX.."), Pattern::ClosedThree);
        assert_eq!(black(f, "....?X..."), Pattern::OpenTwoStrong);
        assert_eq!(black(f, "#...?.X.."), Pattern::OpenTwoPlus);
        assert_eq!(black(f, "#O.X?...."), Pattern::OpenTwo);
        assert_eq!(black(f, "#O.X?XO.."), Pattern::Dead);
        assert_eq!(black(f, "....?...."), Pattern::FlexOne);
        assert_eq!(black(f, "#O..?..O."), Pattern::One);
    }
}
