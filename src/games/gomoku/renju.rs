//! Renju's forbidden points for black: overline, double four, double three.
//!
//! The check follows the referee the reference data was made with (and
//! RIF): an exact five is always allowed; then an overline is forbidden;
//! then two fours (a straight four counts once, two fours on one line
//! twice); then two threes, where a three is real only if one of its
//! straight-four points is itself legal for black and makes no five —
//! which makes the check recursive.
//!
//! It works on the raw cells only (stones are set and cleared in place),
//! and the incremental patterns serve as a cheap filter first.

use arrayvec::ArrayVec;

use super::Rules;
use super::board::{Board, Cell};
use super::pattern::{BLACK, EMPTY, Pattern};

/// Why black may not play a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl Forbidden {
    /// The name used by the API and the reference data.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        }
    }
}

/// Nested threes deeper than this are not followed (never reached in
/// practice: each level needs a fresh straight-four point).
const MAX_NESTING: u32 = 12;

impl Board {
    /// Why black may not play the empty `cell`, if it is forbidden. Always
    /// `None` outside renju.
    pub fn forbidden(&mut self, cell: Cell) -> Option<Forbidden> {
        if self.rules != Rules::Renju || !self.may_be_forbidden(cell) {
            return None;
        }
        self.cells[cell as usize] = BLACK;
        let verdict = self.classify_placed(cell, 0);
        self.cells[cell as usize] = EMPTY;
        verdict
    }

    /// Is the move legal for the side to move (empty, and not forbidden)?
    pub fn is_legal(&mut self, cell: Cell) -> bool {
        self.is_empty(cell)
            && (self.side_to_move() != crate::games::Player::X || self.forbidden(cell).is_none())
    }

    /// A necessary condition read from the patterns: some line makes at
    /// least a five or an overline or two fours, or two lines make threes
    /// or better. The patterns see a superset of the real shapes.
    fn may_be_forbidden(&self, cell: Cell) -> bool {
        let mut strong = 0;
        for d in 0..4 {
            match self.pattern(cell, 0, d) {
                Pattern::OpenFour | Pattern::Five | Pattern::Overline => return true,
                Pattern::OpenThree | Pattern::OpenThreeStrong | Pattern::Four => strong += 1,
                _ => {}
            }
        }
        strong >= 2
    }

    /// The verdict for black's stone already on `cell`.
    fn classify_placed(&mut self, cell: Cell, nesting: u32) -> Option<Forbidden> {
        let mut overline = false;
        for d in 0..4 {
            match self.run(cell, d, 0) {
                5 => return None,
                6.. => overline = true,
                _ => {}
            }
        }
        if overline {
            return Some(Forbidden::Overline);
        }
        let mut fours = 0;
        let mut four_lines = [false; 4];
        for (d, has_four) in four_lines.iter_mut().enumerate() {
            let n = self.fours_in_line(cell, d);
            fours += n;
            *has_four = n > 0;
        }
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        if nesting >= MAX_NESTING {
            return None;
        }
        let mut threes = 0;
        for d in (0..4).filter(|&d| !four_lines[d]) {
            if self.is_real_three(cell, d, nesting) {
                threes += 1;
                if threes >= 2 {
                    return Some(Forbidden::DoubleThree);
                }
            }
        }
        None
    }

    /// Offsets (along `d`) of the empty points that make an exact black
    /// five through `cell`.
    fn five_points(&self, cell: Cell, d: usize) -> ArrayVec<isize, 8> {
        let off = self.dirs[d];
        let mut points = ArrayVec::new();
        for k in (-4..=4isize).filter(|&k| k != 0) {
            let q = (cell as isize + k * off) as Cell;
            if !self.is_empty(q) {
                continue;
            }
            // Every cell strictly between q and cell must be black.
            let between = (1..k.abs()).all(|i| {
                let r = cell as isize + k.signum() * i * off;
                self.cells[r as usize] == BLACK
            });
            if between && self.run(q, d, 0) == 5 {
                points.push(k);
            }
        }
        points
    }

    /// Fours through `cell` on line `d`: a straight four counts once.
    fn fours_in_line(&self, cell: Cell, d: usize) -> usize {
        let points = self.five_points(cell, d);
        if points.len() == 2 && points[1] - points[0] == 5 {
            1
        } else {
            points.len()
        }
    }

    /// Can the stone on `cell` become a straight four on line `d` by a
    /// black move that is legal and makes no five?
    fn is_real_three(&mut self, cell: Cell, d: usize, nesting: u32) -> bool {
        let off = self.dirs[d];
        for k in (-4..=4isize).filter(|&k| k != 0) {
            let q = (cell as isize + k * off) as Cell;
            if !self.is_empty(q) {
                continue;
            }
            self.cells[q as usize] = BLACK;
            let points = self.five_points(cell, d);
            let straight =
                points.len() == 2 && points[1] - points[0] == 5 && points[0] < k && k < points[1];
            let real =
                straight && !self.wins_at(q, 0) && self.classify_placed(q, nesting + 1).is_none();
            self.cells[q as usize] = EMPTY;
            if real {
                return true;
            }
        }
        false
    }
}
