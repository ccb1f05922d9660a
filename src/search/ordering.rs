//! Move-ordering memory a search keeps by ply and by move: killer moves,
//! the history of cut-offs, and the principal variation being built.
//!
//! Each engine decides how much these weigh in its ordering; the
//! bookkeeping is the same everywhere.

/// Two moves per ply, for `PLIES` plies, that recently refuted a sibling:
/// a move that cut off one line often cuts off its neighbours too.
pub struct Killers<M, const PLIES: usize> {
    slots: [[M; 2]; PLIES],
}

impl<M: Copy + PartialEq, const PLIES: usize> Killers<M, PLIES> {
    /// Killers all `none` (a value no real move takes).
    pub fn new(none: M) -> Self {
        Self {
            slots: [[none; 2]; PLIES],
        }
    }

    /// The killers at `ply`, the latest first.
    #[inline]
    pub fn at(&self, ply: usize) -> [M; 2] {
        self.slots[ply]
    }

    #[inline]
    pub fn contains(&self, ply: usize, mv: M) -> bool {
        let [a, b] = self.slots[ply];
        mv == a || mv == b
    }

    /// Records a cut-off by `mv` at `ply`; the older killer makes room.
    #[inline]
    pub fn record(&mut self, ply: usize, mv: M) {
        let slot = &mut self.slots[ply];
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }
}

/// Per side and move, how much cutting off the move has done: a move that
/// refutes deep lines is tried early elsewhere too. `MOVES` bounds the move
/// codes (a constant, so a lookup in the ordering loop is one indexed load).
pub struct History<const MOVES: usize> {
    scores: Vec<[i32; MOVES]>,
    cap: i32,
}

impl<const MOVES: usize> History<MOVES> {
    /// Scores for two sides, each held at most `cap`.
    pub fn new(cap: i32) -> Self {
        Self {
            scores: vec![[0; MOVES]; 2],
            cap,
        }
    }

    #[inline]
    pub fn get(&self, side: usize, code: usize) -> i32 {
        self.scores[side][code]
    }

    /// Moves `code`'s score towards `±cap` by `bonus` (negative: a malus),
    /// the step shrinking as the score nears the cap: scores stay bounded,
    /// and recent results outweigh old ones.
    #[inline]
    pub fn update(&mut self, side: usize, code: usize, bonus: i32) {
        let h = &mut self.scores[side][code];
        let bonus = bonus.clamp(-self.cap, self.cap);
        *h += bonus - (i64::from(*h) * i64::from(bonus.abs()) / i64::from(self.cap)) as i32;
    }

    /// A cut-off by `code` with `depth` plies left: deep refutations weigh
    /// the square of their depth.
    #[inline]
    pub fn reward(&mut self, side: usize, code: usize, depth: i32) {
        let h = &mut self.scores[side][code];
        *h = h.saturating_add(depth * depth).min(self.cap);
    }
}

/// The principal variation by ply: the line below each node on the path,
/// so the root's line comes back whole from a completed search.
pub struct PvTable<M> {
    lines: Vec<Vec<M>>,
}

impl<M: Copy> PvTable<M> {
    /// Lines for `plies` plies, plus the empty one below the deepest.
    pub fn new(plies: usize) -> Self {
        Self {
            lines: (0..=plies).map(|_| Vec::new()).collect(),
        }
    }

    /// Entering a node at `ply`: no line yet.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// `mv` raised alpha at `ply`: its line is `mv` then the child's.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// A line of one move (a win found without entering the child).
    #[inline]
    pub fn set_single(&mut self, ply: usize, mv: M) {
        self.lines[ply].push(mv);
    }

    #[inline]
    pub fn line(&self, ply: usize) -> &[M] {
        &self.lines[ply]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_keep_the_two_latest_distinct_moves() {
        let mut k = Killers::<u16, 4>::new(0);
        k.record(1, 5);
        k.record(1, 5);
        assert_eq!(k.at(1), [5, 0]);
        k.record(1, 7);
        assert_eq!(k.at(1), [7, 5]);
        assert!(k.contains(1, 5) && !k.contains(2, 5));
    }

    #[test]
    fn history_grows_by_depth_squared_up_to_its_cap() {
        let mut h = History::<8>::new(30);
        h.reward(1, 3, 4);
        assert_eq!((h.get(1, 3), h.get(0, 3)), (16, 0));
        h.reward(1, 3, 4);
        assert_eq!(h.get(1, 3), 30);
    }

    #[test]
    fn updates_move_a_score_towards_its_cap_and_back() {
        let mut h = History::<4>::new(1000);
        h.update(0, 1, 500);
        assert_eq!(h.get(0, 1), 500);
        h.update(0, 1, 500);
        assert_eq!(h.get(0, 1), 750);
        for _ in 0..100 {
            h.update(0, 1, 5000);
        }
        assert_eq!(h.get(0, 1), 1000);
        h.update(0, 1, -1000);
        assert_eq!(h.get(0, 1), -1000);
    }

    #[test]
    fn the_pv_joins_a_move_to_its_childs_line() {
        let mut pv = PvTable::new(3);
        pv.set_single(2, 9);
        pv.update(1, 4);
        pv.update(0, 1);
        assert_eq!(pv.line(0), &[1, 4, 9]);
    }
}
