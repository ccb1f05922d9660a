//! The evaluation's weights: a value for every combination of a cell's
//! four line patterns, for the side to move and for its opponent, fitted
//! to self-play outcomes per rule set (`examples/gomoku_train.rs`).
//!
//! An empty cell's four patterns, as a multiset, say what a stone there
//! would make: a four and an open three together, two threes, a lone two.
//! The position's value for the side to move is the sum, over the empty
//! cells, of its own combination's value as the side to move and the
//! opponent's combination's value as the side not to move. Both colours'
//! tables are kept: under renju black's double three is a forbidden point,
//! not a threat, and the fit learns that from the games.
//!
//! The values are in the units of the hand-made evaluation they replace
//! (see [`hand`]): the fit scales its log-odds so that the search's margins
//! keep their meaning.

use std::sync::OnceLock;

use super::Rules;
use super::pattern::Pattern;

/// Distinct multisets of four patterns out of ten: C(13, 4).
pub const COMBOS: usize = 715;
/// Whose value a table holds: the side to move's, or the side not to move's.
pub const TO_MOVE: usize = 0;
pub const WAITING: usize = 1;

/// Values by colour, role and combination.
pub type Weights = [[[i16; COMBOS]; 2]; 2];

/// Bytes of one rule set's weights file: little-endian `i16`, colour
/// (black, white), then role, then combination.
pub const FILE_BYTES: usize = 2 * 2 * COMBOS * 2;

/// The committed weights, one file per rule set.
static FILES: [&[u8]; 3] = [
    include_bytes!("eval-freestyle.bin"),
    include_bytes!("eval-standard.bin"),
    include_bytes!("eval-renju.bin"),
];

static TABLES: [OnceLock<Box<Weights>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The weights of a rule set: the committed ones unless [`install`] chose
/// others first.
pub fn weights(rules: Rules) -> &'static Weights {
    TABLES[rules as usize]
        .get_or_init(|| read(FILES[rules as usize]).expect("the weights file fits the layout"))
}

/// Reads a weights file; `None` when it does not fit the layout.
pub fn read(file: &[u8]) -> Option<Box<Weights>> {
    if file.len() != FILE_BYTES {
        return None;
    }
    let mut w = Box::new([[[0i16; COMBOS]; 2]; 2]);
    let mut values = file
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]));
    for table in w.iter_mut().flatten() {
        for v in table.iter_mut() {
            *v = values.next()?;
        }
    }
    Some(w)
}

/// The bytes of a weights file.
pub fn write(w: &Weights) -> Vec<u8> {
    w.iter()
        .flatten()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// Uses `w` for `rules` instead of the committed weights, for the whole
/// process (the trainer plays one generation's weights to make the next).
/// It must come before the first board of those rules; false when too late.
pub fn install(rules: Rules, w: Box<Weights>) -> bool {
    TABLES[rules as usize].set(w).is_ok()
}

/// Reads the weights now rather than in the first search.
pub fn prepare() {
    for rules in Rules::ALL {
        weights(rules);
    }
}

/// The index of a cell's four patterns (`Pattern as u8`, any order) among
/// the [`COMBOS`] multisets.
#[inline]
pub fn combo(pats: &[u8; 4]) -> usize {
    let [mut a, mut b, mut c, mut d] = pats.map(usize::from);
    // A sorting network: a <= b <= c <= d.
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    if c > d {
        std::mem::swap(&mut c, &mut d);
    }
    if a > c {
        std::mem::swap(&mut a, &mut c);
    }
    if b > d {
        std::mem::swap(&mut b, &mut d);
    }
    if b > c {
        std::mem::swap(&mut b, &mut c);
    }
    // A multiset a <= b <= c <= d is the set a < b+1 < c+2 < d+3 of 0..13,
    // ranked in the combinatorial number system.
    BINOMIAL[d + 3][4] + BINOMIAL[c + 2][3] + BINOMIAL[b + 1][2] + a
}

/// `BINOMIAL[n][k]` = n choose k, for n < 13.
const BINOMIAL: [[usize; 5]; 13] = {
    let mut t = [[0usize; 5]; 13];
    let mut n = 0;
    while n < 13 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The four patterns of a combination, weakest first.
pub fn patterns_of(index: usize) -> [Pattern; 4] {
    static ALL: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut all = vec![[0u8; 4]; COMBOS];
        for a in 0..10u8 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        all[combo(&[a, b, c, d])] = [a, b, c, d];
                    }
                }
            }
        }
        all
    });
    all[index].map(Pattern::from_u8)
}

/// Hand-made value of a line pattern, by `Pattern as usize`.
const HAND_WEIGHT: [i32; 10] = [0, 1, 4, 14, 16, 50, 60, 250, 1000, 0];
/// Hand-made bonus of a cell whose lines combine into a winning threat.
const DOUBLE_FOUR: i32 = 350;
const FOUR_THREE: i32 = 350;
const DOUBLE_THREE: i32 = 220;

/// The hand-made value of a combination for `color`: its patterns' values
/// plus a bonus for a double four, four-three or double three (which renju
/// forbids black).
pub fn hand_value(pats: [Pattern; 4], rules: Rules, color: usize) -> i32 {
    let value: i32 = pats.iter().map(|&p| HAND_WEIGHT[p as usize]).sum();
    let fours: u32 = pats
        .iter()
        .map(|&p| match p {
            Pattern::Four => 1,
            Pattern::OpenFour => 2,
            _ => 0,
        })
        .sum();
    let threes = pats.iter().filter(|&&p| p == Pattern::OpenThree).count();
    let restricted = rules == Rules::Renju && color == 0;
    value
        + if fours >= 2 && !restricted {
            DOUBLE_FOUR
        } else if fours == 1 && threes >= 1 {
            FOUR_THREE
        } else if threes >= 2 && !restricted {
            DOUBLE_THREE
        } else {
            0
        }
}

/// The hand-made evaluation as weights: the side to move's shapes count a
/// sixth more (it cashes them first), the opponent's count against it.
pub fn hand(rules: Rules) -> Box<Weights> {
    let mut w = Box::new([[[0i16; COMBOS]; 2]; 2]);
    let fit = |v: i32| v.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
    for (color, [to_move, waiting]) in w.iter_mut().enumerate() {
        for (i, (m, w)) in to_move.iter_mut().zip(waiting.iter_mut()).enumerate() {
            let v = hand_value(patterns_of(i), rules, color);
            *m = fit(v * 7 / 6);
            *w = fit(-v);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_multiset_has_its_own_index() {
        let mut seen = vec![false; COMBOS];
        for a in 0..10u8 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        let i = combo(&[a, b, c, d]);
                        assert!(!seen[i], "{a}{b}{c}{d}");
                        seen[i] = true;
                        // Any order gives the same index.
                        assert_eq!(combo(&[d, b, a, c]), i);
                        assert_eq!(combo(&[c, d, b, a]), i);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn the_committed_weights_fit_and_rank_threats() {
        for rules in Rules::ALL {
            let w = weights(rules);
            let at = |pats: [Pattern; 4]| combo(&pats.map(|p| p as u8));
            let one = at([Pattern::One; 4]);
            let four_three = at([
                Pattern::One,
                Pattern::One,
                Pattern::Four,
                Pattern::OpenThree,
            ]);
            let open_four = at([Pattern::One, Pattern::One, Pattern::One, Pattern::OpenFour]);
            for t in w.iter() {
                // A four-three or open four to play is worth far more than
                // an empty cell, to either side.
                assert!(t[TO_MOVE][four_three] > t[TO_MOVE][one] + 100, "{rules:?}");
                assert!(t[TO_MOVE][open_four] > t[TO_MOVE][one] + 100, "{rules:?}");
                assert!(t[WAITING][open_four] < t[WAITING][one] - 100, "{rules:?}");
            }
        }
    }

    #[test]
    fn a_weights_file_reads_back() {
        let w = hand(Rules::Renju);
        let back = read(&write(&w)).unwrap();
        assert_eq!(*back, *w);
        assert!(read(&[0; 3]).is_none());
    }
}
