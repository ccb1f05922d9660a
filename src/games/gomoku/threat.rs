//! Threat-space search: VCF (victory by continuous fours: every attacking
//! move makes a four, so the defender's reply is forced) and VCT (threes
//! too: the defender must answer an open three among a small set of
//! blocking points or with fours of its own).
//!
//! Candidates come from the incremental patterns; every four is confirmed
//! on the real board (its winning points under the exact rules), so a
//! pattern the nine-cell window misreads can cost a line but never fakes a
//! win. Failed searches are remembered per worker with the budget that
//! failed.

use super::board::{Cell, color, flag};
use super::engine::{Engine, LINE_PLIES};

const SALT: [[u64; 2]; 2] = [
    [0x51A7_0000_0000_0001, 0x51A7_0000_0000_0002],
    [0x7C7A_0000_0000_0003, 0x7C7A_0000_0000_0004],
];
/// Attacking moves tried per VCT node (best-ranked first).
const VCT_WIDTH: usize = 16;
/// Fours a VCF inside the VCT may use, and its nodes.
const VCT_VCF_FOURS: u32 = 10;
const VCT_VCF_NODES: u64 = 2_000;

impl Engine<'_> {
    fn fail_known(&self, kind: usize, a: usize, budget: u32) -> bool {
        self.tables.failed(self.b.hash() ^ SALT[kind][a], budget)
    }

    fn remember_fail(&mut self, kind: usize, a: usize, budget: u32) {
        if self.threat_cut || self.aborted {
            return;
        }
        self.tables
            .remember_failure(self.b.hash() ^ SALT[kind][a], budget);
    }

    fn over_budget(&mut self) -> bool {
        if self.nodes >= self.threat_limit {
            self.threat_cut = true;
        }
        self.threat_cut || self.aborted
    }

    fn set_line(&mut self, ply: usize, head: &[Cell], tail_from: Option<usize>) {
        if ply >= LINE_PLIES {
            return;
        }
        let mut line = std::mem::take(&mut self.lines[ply]);
        line.clear();
        line.extend_from_slice(head);
        if let Some(t) = tail_from.filter(|&t| t < LINE_PLIES) {
            line.extend_from_slice(&self.lines[t]);
        }
        self.lines[ply] = line;
    }

    /// Can `a`, to move, win by continuous fours using at most `fours`
    /// fours? The answer is the plies to the five; the line goes to
    /// `lines[ply]`.
    pub(super) fn vcf(&mut self, a: usize, fours: u32, ply: usize) -> Option<u32> {
        self.tick();
        if self.over_budget() {
            return None;
        }
        if let Some(c) = self.b.first_win_point(a) {
            self.set_line(ply, &[c], None);
            return Some(1);
        }
        let d = 1 - a;
        let mut buf = std::mem::take(&mut self.cell_buf[ply.min(LINE_PLIES - 1)]);
        self.b.win_points(d, &mut buf);
        let forced = buf.first().copied();
        let lost = buf.len() >= 2;
        if lost || fours == 0 || ply + 2 >= LINE_PLIES || self.fail_known(0, a, fours) {
            self.cell_buf[ply.min(LINE_PLIES - 1)] = buf;
            return None;
        }
        // Candidates: every cell where a stone of `a` makes a four.
        buf.clear();
        match forced {
            Some(c) => {
                if self.b.info(c, a).flags & flag::FOUR != 0 {
                    buf.push(c);
                }
            }
            None => {
                self.b.cells_with_flag(a, flag::FOUR, &mut buf);
                // Open fours first, then the strongest shapes.
                let b = &self.b;
                buf.sort_by_key(|&c| {
                    let i = b.info(c, a);
                    (i.flags & flag::OPEN_FOUR == 0, -i.value)
                });
            }
        }
        let mut result = None;
        let mut points = Vec::new();
        for &c in buf.iter() {
            if self.restricted(a) && self.b.forbidden(c).is_some() {
                continue;
            }
            self.b.play(c);
            self.b.win_points_through(c, a, &mut points);
            if points.is_empty() {
                self.b.undo();
                continue;
            }
            let block = points[0];
            if points.len() >= 2 || (self.restricted(d) && self.b.forbidden(block).is_some()) {
                // Two winning points, or the only block is forbidden.
                let win = if points.len() >= 2 { points[1] } else { block };
                self.b.undo();
                self.set_line(ply, &[c, block, win], None);
                result = Some(3);
                break;
            }
            self.b.play(block);
            let r = self.vcf(a, fours - 1, ply + 2);
            self.b.undo();
            self.b.undo();
            if let Some(p) = r {
                self.set_line(ply, &[c, block], Some(ply + 2));
                result = Some(p + 2);
                break;
            }
            if self.over_budget() {
                break;
            }
        }
        self.cell_buf[ply.min(LINE_PLIES - 1)] = buf;
        if result.is_none() {
            self.remember_fail(0, a, fours);
        }
        result
    }

    /// The first move of the VCF `vcf` last found at the root.
    pub(super) fn vcf_first_move(&mut self, _a: usize, _plies: u32) -> Option<Cell> {
        self.lines[0].first().copied()
    }

    /// The root VCF line last found.
    pub(super) fn vcf_line(&mut self, _a: usize, _plies: u32) -> Vec<Cell> {
        self.lines[0].clone()
    }

    /// The moves among `legal` (for `me`, to move) after which the
    /// opponent has no VCF any more, plus `me`'s own fours (which gain a
    /// tempo and are left to the search).
    pub(super) fn vcf_defences(&mut self, me: usize, legal: &[Cell]) -> Vec<Cell> {
        let opp = 1 - me;
        let mut out = Vec::new();
        for &m in legal {
            if self.b.near(m) == 0 {
                continue;
            }
            if self.b.info(m, me).flags & flag::FOUR != 0 {
                out.push(m);
                continue;
            }
            self.b.play(m);
            self.threat_cut = false;
            self.threat_limit = self.nodes + 20_000;
            let mut refuted = true;
            for fours in 1..=16 {
                if self.vcf(opp, fours, 0).is_some() {
                    refuted = false;
                    break;
                }
                if self.threat_cut || self.aborted {
                    break;
                }
            }
            self.threat_limit = u64::MAX;
            self.threat_cut = false;
            self.b.undo();
            if self.aborted {
                return Vec::new();
            }
            if refuted {
                out.push(m);
            }
        }
        out
    }

    /// VCT for `me` (to move) by iterative deepening on the number of
    /// attacking moves: plies, first move and line.
    pub(super) fn root_vct(&mut self, me: usize, max_depth: u32) -> Option<(u32, Cell, Vec<Cell>)> {
        debug_assert_eq!(me, color(self.b.side_to_move()));
        for depth in 2..=max_depth {
            let r = self.vct_attack(me, depth, 0);
            if let Some(plies) = r {
                let line = self.lines[0].clone();
                return line.first().copied().map(|c| (plies, c, line));
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// `a` to move: a threat sequence that wins within `depth` threats?
    fn vct_attack(&mut self, a: usize, depth: u32, ply: usize) -> Option<u32> {
        self.tick();
        if self.aborted || ply + 4 >= LINE_PLIES {
            return None;
        }
        if let Some(c) = self.b.first_win_point(a) {
            self.set_line(ply, &[c], None);
            return Some(1);
        }
        let d = 1 - a;
        let mut points = Vec::new();
        self.b.win_points(d, &mut points);
        if points.len() >= 2 {
            return None;
        }
        if let Some(&block) = points.first() {
            if self.restricted(a) && self.b.forbidden(block).is_some() {
                return None;
            }
            self.b.play(block);
            let r = self.vct_defend(a, depth, ply + 1);
            self.b.undo();
            if r.is_some() {
                self.set_line(ply, &[block], Some(ply + 1));
            }
            return r.map(|p| p + 1);
        }
        // A VCF settles it at once.
        let (limit, cut) = (self.threat_limit, self.threat_cut);
        self.threat_limit = self.nodes + VCT_VCF_NODES;
        self.threat_cut = false;
        let vcf = self.vcf(a, VCT_VCF_FOURS, ply);
        self.threat_limit = limit;
        self.threat_cut = cut;
        if vcf.is_some() {
            return vcf;
        }
        if depth == 0 || self.fail_known(1, a, depth) {
            return None;
        }
        let mut cands: Vec<(i32, Cell)> = Vec::new();
        for c in self.b.area(4) {
            if !self.b.is_empty(c) {
                continue;
            }
            let info = self.b.info(c, a);
            if info.flags & (flag::FOUR | flag::THREE) != 0 {
                cands.push((
                    i32::from(info.value) + i32::from(self.b.info(c, d).value) / 2,
                    c,
                ));
            }
        }
        cands.sort_by_key(|x| std::cmp::Reverse(x.0));
        cands.truncate(VCT_WIDTH);
        let mut result = None;
        for (_, c) in cands {
            if self.restricted(a) && self.b.forbidden(c).is_some() {
                continue;
            }
            self.b.play(c);
            let r = self.vct_defend(a, depth - 1, ply + 1);
            self.b.undo();
            if let Some(p) = r {
                self.set_line(ply, &[c], Some(ply + 1));
                result = Some(p + 1);
                break;
            }
            if self.aborted {
                return None;
            }
        }
        if result.is_none() {
            self.remember_fail(1, a, depth);
        }
        result
    }

    /// The defender to move after `a`'s threat: does every answer lose?
    fn vct_defend(&mut self, a: usize, depth: u32, ply: usize) -> Option<u32> {
        self.tick();
        if self.aborted || ply + 4 >= LINE_PLIES {
            return None;
        }
        let d = 1 - a;
        if self.b.last_move_won() {
            return Some(0);
        }
        if self.b.first_win_point(d).is_some() {
            return None;
        }
        let mut points = Vec::new();
        self.b.win_points(a, &mut points);
        if points.len() >= 2 {
            self.set_line(ply, &[points[0], points[1]], None);
            return Some(2);
        }
        if let Some(&block) = points.first() {
            if self.restricted(d) && self.b.forbidden(block).is_some() {
                self.set_line(ply, &[block, block], None);
                return Some(2);
            }
            self.b.play(block);
            let r = self.vct_attack(a, depth, ply + 1);
            self.b.undo();
            if r.is_some() {
                self.set_line(ply, &[block], Some(ply + 1));
            }
            return r.map(|p| p + 1);
        }
        if !self.open_four_threat(a) {
            return None;
        }
        // Answers: every point where the attacker would make a four (the
        // open three's blocks), and the defender's own fours.
        let mut defences = Vec::new();
        for c in self.b.area(4) {
            if self.b.is_empty(c)
                && (self.b.info(c, a).flags & flag::FOUR != 0
                    || self.b.info(c, d).flags & flag::FOUR != 0)
            {
                defences.push(c);
            }
        }
        let mut worst: Option<u32> = None;
        let mut worst_line = Vec::new();
        let mut any = false;
        for c in defences {
            if self.restricted(d) && self.b.forbidden(c).is_some() {
                continue;
            }
            any = true;
            self.b.play(c);
            let r = self.vct_attack(a, depth, ply + 1);
            self.b.undo();
            match r {
                None => return None,
                Some(p) => {
                    if worst.is_none_or(|w| p > w) {
                        worst = Some(p);
                        worst_line.clear();
                        worst_line.push(c);
                        if ply + 1 < LINE_PLIES {
                            worst_line.extend_from_slice(&self.lines[ply + 1]);
                        }
                    }
                }
            }
        }
        if !any {
            // No legal answer on the threat's points: the open four comes.
            return None;
        }
        self.set_line(ply, &worst_line, None);
        worst.map(|p| p + 1)
    }

    /// Does `a` have a legal move that makes a real open four (two winning
    /// points on the board)?
    fn open_four_threat(&mut self, a: usize) -> bool {
        if self.b.flag_count(a, flag::OPEN_FOUR) == 0 {
            return false;
        }
        let mut points = Vec::new();
        let mut cells = Vec::new();
        self.b.cells_with_flag(a, flag::OPEN_FOUR, &mut cells);
        for c in cells {
            if self.restricted(a) && self.b.forbidden(c).is_some() {
                continue;
            }
            // Play it as `a` whoever is to move.
            let pass = color(self.b.side_to_move()) != a;
            if pass {
                self.b.pass();
            }
            self.b.play(c);
            self.b.win_points_through(c, a, &mut points);
            self.b.undo();
            if pass {
                self.b.unpass();
            }
            if points.len() >= 2 {
                return true;
            }
        }
        false
    }
}
