//! The score scale every engine reports on, and the helpers that carry a
//! proven result's distance through a table and into a proof.
//!
//! A win in `p` plies scores `WIN - p`, a loss the negation; heuristic
//! values stay within `±EVAL_LIMIT`. Inside a search, distances count from
//! the root; a table stores them from the node (a position can be reached
//! at different plies), so they are shifted on the way in and out.

use crate::vocabulary::Outcome;

/// The score of a win on the spot; a win in `p` plies scores `WIN - p`.
pub const WIN: i32 = 100_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;
/// Heuristic evaluations are clamped to this magnitude.
pub const EVAL_LIMIT: i32 = 50_000;

/// A search result proven exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    pub outcome: Outcome,
    /// Plies to the end of the game under perfect play (winner hurrying,
    /// loser delaying).
    pub plies: u32,
}

impl Proof {
    /// The proof of a game that lasts `plies` more plies and ends with
    /// `sign` (positive: the side to move wins) for the side to move.
    pub fn of_sign(sign: i32, plies: u32) -> Self {
        let outcome = match sign.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        Self { outcome, plies }
    }

    /// The proof's score on the service's scale: `WIN - plies` for a win.
    pub fn score(self) -> i32 {
        match self.outcome {
            Outcome::Win => WIN - self.plies as i32,
            Outcome::Loss => -(WIN - self.plies as i32),
            Outcome::Draw => 0,
        }
    }
}

/// Reads a score as a proof, if it is a proven win or loss.
pub fn proof_from_score(score: i32) -> Option<Proof> {
    if score >= WIN_THRESHOLD {
        Some(Proof {
            outcome: Outcome::Win,
            plies: (WIN - score) as u32,
        })
    } else if score <= -WIN_THRESHOLD {
        Some(Proof {
            outcome: Outcome::Loss,
            plies: (WIN + score) as u32,
        })
    } else {
        None
    }
}

/// A score found `ply` plies below the root, as a table stores it: a
/// proven distance counted from the node.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back `ply` plies below the root.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_survive_the_table() {
        for score in [WIN - 7, -(WIN - 9), 0, 1234, -EVAL_LIMIT] {
            for ply in [0, 1, 30] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
        assert_eq!(to_tt(WIN - 7, 3), WIN - 4, "a win in 4 plies from the node");
    }

    #[test]
    fn proofs_and_scores_agree() {
        for proof in [Proof::of_sign(1, 5), Proof::of_sign(-3, 8)] {
            assert_eq!(proof_from_score(proof.score()), Some(proof));
        }
        assert_eq!(Proof::of_sign(0, 9).score(), 0);
        assert_eq!(proof_from_score(EVAL_LIMIT), None);
    }
}
