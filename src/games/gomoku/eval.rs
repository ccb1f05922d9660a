//! The evaluation's weights: a value for every combination of a cell's
//! four line patterns, for the side to move and for its opponent, fitted
//! per rule set (`examples/gomoku_train.rs`) to the outcomes of Rapfi's
//! games against itself, and for freestyle then to Rapfi's scores of
//! positions (`examples/gomoku_distill.sh`).
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

/// Distinct multisets of four patterns out of fourteen: C(17, 4).
pub const COMBOS: usize = 2380;
/// Whose value a table holds: the side to move's, or the side not to move's.
pub const TO_MOVE: usize = 0;
pub const WAITING: usize = 1;

/// Threat masks: which of eleven threats (see [`threat_mask`]) are on the
/// board, seen from the side to move.
pub const THREATS: usize = 1 << 11;

/// The evaluation's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// By colour, role and combination.
    pub cells: [[[i16; COMBOS]; 2]; 2],
    /// By the colour to move and the threat mask.
    pub threats: [[i16; THREATS]; 2],
    /// Move ordering: by colour, whose move it would be ([`OWN`] or
    /// [`OTHERS`]) and combination, the value of a cell where that colour
    /// has that combination. A move's value is its own combination's
    /// value as its own, plus the opponent's combination there as the
    /// opponent's: what it builds and what it takes away.
    pub order: [[[i16; COMBOS]; 2]; 2],
}

/// Whose move an ordering value is for.
pub const OWN: usize = 0;
pub const OTHERS: usize = 1;

impl Weights {
    fn zero() -> Box<Self> {
        Box::new(Weights {
            cells: [[[0; COMBOS]; 2]; 2],
            threats: [[0; THREATS]; 2],
            order: [[[0; COMBOS]; 2]; 2],
        })
    }
}

/// Bytes of one rule set's weights file: little-endian `i16`, the cells'
/// values by colour (black, white), role and combination, then the
/// threats' by colour to move and mask, then the ordering values by
/// colour, role and combination.
pub const FILE_BYTES: usize = (2 * 2 * COMBOS + 2 * THREATS + 2 * 2 * COMBOS) * 2;

/// The threat mask of a position for the side to move, from how many
/// empty cells of each combination category each side has (`count(side,
/// category)`, side 0 the side to move): one bit per threat, so that the
/// evaluation can value the way they combine (an open three is worth more
/// to the side that moves next; a four-three point against an open three).
#[inline]
pub fn threat_mask(count: impl Fn(usize, u8) -> u32) -> usize {
    use super::board::p4;
    let any = |side: usize, cats: &[u8]| cats.iter().any(|&c| count(side, c) > 0);
    let bits = [
        any(1, &[p4::FIVE]),
        any(0, &[p4::OPEN_FOUR]),
        any(1, &[p4::OPEN_FOUR]),
        any(0, &[p4::FOUR_THREE, p4::FOUR_PLUS]),
        any(0, &[p4::FOUR]),
        any(0, &[p4::DOUBLE_THREE, p4::THREE_PLUS]),
        any(0, &[p4::THREE]),
        any(1, &[p4::FOUR_THREE, p4::FOUR_PLUS]),
        any(1, &[p4::FOUR]),
        any(1, &[p4::DOUBLE_THREE, p4::THREE_PLUS]),
        any(1, &[p4::THREE]),
    ];
    bits.iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | usize::from(b) << i)
}

/// The committed weights of each rule set. Standard plays with
/// freestyle's: the rules differ only in overlines, freestyle's weights
/// were refined on Rapfi's scores of positions that include Rapfi's own
/// standard games, and standard's own weights (fitted to those games'
/// outcomes) scored less against Rapfi under standard rules.
static FILES: [&[u8]; 3] = [
    include_bytes!("eval-freestyle.bin"),
    include_bytes!("eval-freestyle.bin"),
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
    let mut w = Weights::zero();
    let mut values = file
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]));
    let cells = w.cells.iter_mut().flatten().flat_map(|t| t.iter_mut());
    let order = w.order.iter_mut().flatten().flat_map(|t| t.iter_mut());
    for v in cells.chain(w.threats.iter_mut().flatten()).chain(order) {
        *v = values.next()?;
    }
    Some(w)
}

/// The bytes of a weights file.
pub fn write(w: &Weights) -> Vec<u8> {
    w.cells
        .iter()
        .flatten()
        .flatten()
        .chain(w.threats.iter().flatten())
        .chain(w.order.iter().flatten().flatten())
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
    // A multiset a <= b <= c <= d is the set a < b+1 < c+2 < d+3 of 0..17,
    // ranked in the combinatorial number system.
    BINOMIAL[d + 3][4] + BINOMIAL[c + 2][3] + BINOMIAL[b + 1][2] + a
}

/// `BINOMIAL[n][k]` = n choose k, for n < 17.
const BINOMIAL: [[usize; 5]; 17] = {
    let mut t = [[0usize; 5]; 17];
    let mut n = 0;
    while n < 17 {
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
        for a in 0..14u8 {
            for b in a..14 {
                for c in b..14 {
                    for d in c..14 {
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
const HAND_WEIGHT: [i32; Pattern::COUNT] = [0, 1, 1, 4, 14, 14, 14, 16, 50, 50, 60, 250, 1000, 0];
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
    let threes = pats.iter().filter(|p| p.is_open_three()).count();
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
/// sixth more (it cashes them first), the opponent's count against it. The
/// ordering values are the shapes' values, a move's own a quarter more.
pub fn hand(rules: Rules) -> Box<Weights> {
    let mut w = Weights::zero();
    let fit = |v: i32| v.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
    for color in 0..2 {
        for i in 0..COMBOS {
            let v = hand_value(patterns_of(i), rules, color);
            w.cells[color][TO_MOVE][i] = fit(v * 7 / 6);
            w.cells[color][WAITING][i] = fit(-v);
            w.order[color][OWN][i] = fit(v * 5 / 4);
            w.order[color][OTHERS][i] = fit(v);
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
        for a in 0..14u8 {
            for b in a..14 {
                for c in b..14 {
                    for d in c..14 {
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
            for t in w.cells.iter() {
                // A four-three or open four to play is worth far more than
                // an empty cell.
                assert!(t[TO_MOVE][four_three] > t[TO_MOVE][one] + 100, "{rules:?}");
                assert!(t[TO_MOVE][open_four] > t[TO_MOVE][one] + 100, "{rules:?}");
                // The opponent's open-four point (its open three) counts
                // against the side to move, by less: that side blocks it
                // first (fitted to Rapfi's scores, freestyle puts it about
                // 50 below an empty cell).
                assert!(t[WAITING][open_four] < t[WAITING][one], "{rules:?}");
            }
            for t in w.order.iter() {
                // A move that makes a four-three or an open four comes
                // before one that builds nothing, and so does one that
                // takes such a point from the opponent.
                for role in [OWN, OTHERS] {
                    assert!(t[role][four_three] > t[role][one] + 100, "{rules:?}");
                    assert!(t[role][open_four] > t[role][one] + 100, "{rules:?}");
                }
            }
        }
    }

    #[test]
    fn threat_masks_read_each_threat_from_the_side_to_move() {
        use super::super::board::p4;
        let mask = |mine: &[u8], theirs: &[u8]| {
            threat_mask(|side, c| u32::from(if side == 0 { mine } else { theirs }.contains(&c)))
        };
        assert_eq!(mask(&[], &[]), 0);
        assert_eq!(mask(&[], &[p4::FIVE]), 1);
        assert_eq!(mask(&[p4::OPEN_FOUR], &[p4::OPEN_FOUR]), 0b110);
        assert_eq!(mask(&[p4::FOUR_THREE], &[p4::FOUR_PLUS]), 1 << 3 | 1 << 7);
        assert_eq!(mask(&[p4::THREE], &[p4::THREE]), 1 << 6 | 1 << 10);
        assert_eq!(mask(&[p4::DOUBLE_THREE, p4::FOUR], &[]), 1 << 4 | 1 << 5);
        assert!(mask(&p4_all(), &p4_all()) < THREATS);
    }

    fn p4_all() -> Vec<u8> {
        (0..super::super::board::p4::COUNT as u8).collect()
    }

    #[test]
    fn a_weights_file_reads_back() {
        let w = hand(Rules::Renju);
        let back = read(&write(&w)).unwrap();
        assert_eq!(*back, *w);
        assert!(read(&[0; 3]).is_none());
    }
}
