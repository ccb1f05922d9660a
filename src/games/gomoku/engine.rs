//! The gomoku engine's alpha-beta search: principal-variation search over
//! threat-restricted candidate moves, with a transposition table, killers,
//! history, late-move reductions, static pruning and a VCF check at the
//! leaves. The threat searches (`threat`) and the root (`root`) work on
//! the same [`Engine`].

use std::time::Instant;

use super::Rules;
use super::board::{Board, Cell, MAX_CELLS, color, flag};
use super::tables::{LMR_DEPTHS, LMR_MOVES, Tables};
use crate::search::{
    Bound, Clock, EVAL_LIMIT, History, Killers, Limits, PvTable, WIN, WIN_THRESHOLD, from_tt, to_tt,
};

pub(super) const MAX_PLY: usize = 96;
/// Threat-search lines are kept up to this ply.
pub(super) const LINE_PLIES: usize = MAX_PLY * 2 + 128;
pub(super) const INF: i32 = WIN + 1;
/// Fours a VCF at a leaf may use, and the nodes it may spend: leaf VCFs
/// are most of the tree's plays, and a short one still finds the quick wins.
const LEAF_VCF_FOURS: u32 = 4;
const LEAF_VCF_NODES: u64 = 8;
/// History scores stop growing here, so old cut-offs fade against the
/// candidates' shape values.
const HISTORY_CAP: i32 = 2_000;
/// Futility margin per ply of depth left, in evaluation units.
const FUTILITY_MARGIN: i32 = 250;
/// Reverse futility: a node this far above beta per ply of depth left, with
/// no threat from the opponent, fails high on its static value.
const RFP_DEPTH: i32 = 3;
const RFP_MARGIN: i32 = 200;
/// Razoring: a node this far below alpha per ply, with no threat from the
/// opponent, is settled by the leaf's forced-win check.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: i32 = 250;

/// One search in progress.
pub struct Engine<'a> {
    pub(super) b: Board,
    pub(super) tables: &'a mut Tables,
    /// Unarmed in the first iteration so a move always exists; the root's
    /// threat searches run as stages with a share of the budget.
    pub(super) clock: Clock<'a>,
    pub(super) nodes: u64,
    /// When the search began (for time management).
    pub(super) started: Instant,
    pub(super) aborted: bool,
    /// Node budget of the current bounded threat search, and whether it ran out.
    pub(super) threat_limit: u64,
    pub(super) threat_cut: bool,
    pub(super) killers: Killers<Cell, MAX_PLY>,
    history: History<MAX_CELLS>,
    pub(super) move_bufs: Vec<Vec<(i32, Cell)>>,
    pub(super) cell_buf: Vec<Vec<Cell>>,
    pub(super) pv: PvTable<Cell>,
    /// Threat-search lines by ply: the winning continuation found there.
    pub(super) lines: Vec<Vec<Cell>>,
}

/// How a node's move generation went.
enum Gen {
    /// The side to move wins on this move.
    Win,
    /// The side to move loses in this many plies whatever it does.
    Lose(i32),
    /// No candidate to search: score the position as it stands.
    Quiet,
    Moves,
}

impl<'a> Engine<'a> {
    pub fn new(b: Board, tables: &'a mut Tables, limits: &'a Limits) -> Self {
        // Each search starts from an empty table (entries of other ages are
        // ignored), so the same request always gets the same answer.
        tables.new_search();
        Engine {
            b,
            tables,
            clock: Clock::new(limits),
            nodes: 0,
            started: Instant::now(),
            aborted: false,
            threat_limit: u64::MAX,
            threat_cut: false,
            killers: Killers::new(0),
            history: History::new(HISTORY_CAP),
            move_bufs: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            cell_buf: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            lines: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            pv: PvTable::new(MAX_PLY),
        }
    }

    /// Counts a node and polls the limits once an interval.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        self.aborted |= self.clock.poll(self.nodes);
    }

    /// Is black to move under renju, where moves must be checked?
    pub(super) fn restricted(&self, color: usize) -> bool {
        self.b.rules == Rules::Renju && color == 0
    }

    /// May `color` play `cell` (empty and, for renju black, not forbidden)?
    pub(super) fn legal_for(&mut self, cell: Cell, color: usize) -> bool {
        self.b.is_empty(cell) && (!self.restricted(color) || self.b.forbidden(cell).is_none())
    }

    /// Static evaluation for the side to move.
    fn evaluate(&self) -> i32 {
        let me = color(self.b.side_to_move());
        self.b.eval_for(me).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Candidate moves for the side to move, scored for ordering, into
    /// `move_bufs[ply]`.
    fn generate(&mut self, ply: usize) -> Gen {
        let me = color(self.b.side_to_move());
        let opp = 1 - me;
        if self.b.first_win_point(me).is_some() {
            return Gen::Win;
        }
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        moves.clear();
        let mut blocks = std::mem::take(&mut self.cell_buf[ply]);
        self.b.win_points(opp, &mut blocks);
        let result = if !blocks.is_empty() {
            // A four on the board: block it or lose.
            let legal: Vec<Cell> = blocks
                .iter()
                .copied()
                .filter(|&c| self.legal_for(c, me))
                .collect();
            if legal.is_empty() || blocks.len() >= 2 {
                Gen::Lose(2)
            } else {
                moves.push((0, legal[0]));
                Gen::Moves
            }
        } else {
            let threatened = self.b.flag_count(opp, flag::OPEN_FOUR) > 0;
            for c in self.b.area(4) {
                if !self.b.is_empty(c) {
                    continue;
                }
                let mine = self.b.info(c, me);
                let theirs = self.b.info(c, opp);
                let take = if threatened {
                    // Facing an open three: block it, or counter with a four.
                    theirs.flags & flag::FOUR != 0 || mine.flags & flag::FOUR != 0
                } else {
                    self.b.near(c) > 0
                };
                if take && self.legal_for(c, me) {
                    let score = i32::from(mine.value) * 5 / 4
                        + i32::from(theirs.value)
                        + self.history.get(me, c as usize) / 8;
                    moves.push((score, c));
                }
            }
            if moves.is_empty() {
                // Nothing near the stones is legal (renju black hemmed in by
                // forbidden points): no verdict, just the evaluation.
                Gen::Quiet
            } else {
                Gen::Moves
            }
        };
        self.cell_buf[ply] = blocks;
        self.move_bufs[ply] = moves;
        result
    }

    /// The value of a quiet position: wins and forced blocks first, then a
    /// VCF check, then the static evaluation.
    fn leaf(&mut self, ply: usize) -> i32 {
        let me = color(self.b.side_to_move());
        let opp = 1 - me;
        if self.b.first_win_point(me).is_some() {
            return WIN - ply as i32 - 1;
        }
        if ply + 2 >= MAX_PLY {
            return self.evaluate();
        }
        let mut blocks = std::mem::take(&mut self.cell_buf[ply]);
        self.b.win_points(opp, &mut blocks);
        let forced = blocks.first().copied();
        let several = blocks.len() >= 2;
        self.cell_buf[ply] = blocks;
        if let Some(block) = forced {
            if several || !self.legal_for(block, me) {
                return -(WIN - ply as i32 - 2);
            }
            // A forced block costs no depth: follow it.
            self.b.play(block);
            self.nodes += 1;
            let score = -self.leaf(ply + 1);
            self.b.undo();
            return score;
        }
        // A VCF needs a second four after the first; one lone four point
        // cannot start one unless it is an open four.
        if self.b.flag_count(me, flag::FOUR) >= 2 || self.b.flag_count(me, flag::OPEN_FOUR) > 0 {
            self.threat_limit = self.nodes + LEAF_VCF_NODES;
            self.threat_cut = false;
            let found = self.vcf(me, LEAF_VCF_FOURS, ply);
            self.threat_limit = u64::MAX;
            self.threat_cut = false;
            if let Some(plies) = found {
                return WIN - ply as i32 - plies as i32;
            }
        }
        self.evaluate()
    }

    pub(super) fn pvs(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.tick();
        self.pv.clear(ply);
        if self.aborted {
            return 0;
        }
        if self.b.last_move_won() {
            return -(WIN - ply as i32);
        }
        if self.b.is_full() {
            return 0;
        }
        if depth <= 0 || ply + 2 >= MAX_PLY {
            return self.leaf(ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = self.b.hash();
        let mut tt_move = 0;
        if let Some(e) = self.tables.probe(key) {
            tt_move = e.mv;
            if i32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                if e.bound().cuts(score, alpha, beta) {
                    return score;
                }
            }
        }
        let pv_node = beta - alpha > 1;
        let me = color(self.b.side_to_move());
        let opp = 1 - me;
        // Static pruning, only where the opponent threatens nothing the
        // static value cannot see (no four to block, no open three).
        let opp_quiet =
            self.b.flag_count(opp, flag::FIVE) == 0 && self.b.flag_count(opp, flag::OPEN_FOUR) == 0;
        if !pv_node && opp_quiet && alpha.abs() < WIN_THRESHOLD && beta.abs() < WIN_THRESHOLD {
            let eval = self.evaluate();
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            if depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth <= alpha {
                // Far below alpha only a forced win helps, and the leaf
                // looks for one.
                let v = self.leaf(ply);
                if v <= alpha {
                    return v;
                }
            }
        }
        match self.generate(ply) {
            Gen::Win => return WIN - ply as i32 - 1,
            Gen::Lose(p) => return -(WIN - ply as i32 - p),
            Gen::Quiet => return self.evaluate(),
            Gen::Moves => {}
        }
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        let [killer, older_killer] = self.killers.at(ply);
        for m in moves.iter_mut() {
            if m.1 == tt_move {
                m.0 = i32::MAX;
            } else if m.1 == killer {
                m.0 += 400;
            } else if m.1 == older_killer {
                m.0 += 300;
            }
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        // A lone reply (a forced block) costs no depth.
        let extend = moves.len() == 1;
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_move = moves[0].1;
        // Only the best-ranked candidates are searched; fewer near the leaves.
        let width = match depth {
            1 => 4,
            2 => 6,
            3 => 8,
            4 => 10,
            5 => 12,
            _ => 14,
        } + if pv_node { 6 } else { 0 };
        // Futility: near the leaves, quiet moves cannot lift a position
        // this far below alpha.
        let futile =
            !pv_node && depth <= 2 && !extend && self.evaluate() + FUTILITY_MARGIN * depth <= alpha;
        for (i, &(_, mv)) in moves.iter().enumerate() {
            if i >= width && best > -WIN_THRESHOLD {
                break;
            }
            let mine = self.b.info(mv, me).flags;
            let theirs = self.b.info(mv, opp).flags;
            let forcing = (mine & (flag::FOUR | flag::THREE)) != 0 || (theirs & flag::FOUR) != 0;
            if futile && i > 0 && !forcing && best > -WIN_THRESHOLD {
                continue;
            }
            // Near the leaves a move that builds nothing for either side
            // cannot change the verdict.
            if depth <= 3 && i > 0 && best > -WIN_THRESHOLD && (mine | theirs) & flag::SHAPE == 0 {
                continue;
            }
            let new_depth = if extend { depth } else { depth - 1 };
            self.b.play(mv);
            let score = if i == 0 {
                -self.pvs(new_depth, ply + 1, -beta, -alpha)
            } else {
                let r = if depth >= 3 && i >= 2 && !extend {
                    let mut r = i32::from(
                        self.tables.lmr[(depth as usize).min(LMR_DEPTHS - 1)][i.min(LMR_MOVES - 1)],
                    );
                    let killer = self.killers.contains(ply, mv);
                    r -= i32::from(forcing) + i32::from(pv_node) + i32::from(killer);
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                let mut s = -self.pvs(new_depth - r, ply + 1, -alpha - 1, -alpha);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.pvs(new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.pvs(new_depth, ply + 1, -beta, -alpha);
                }
                s
            };
            self.b.undo();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                }
            }
            if alpha >= beta {
                self.killers.record(ply, mv);
                self.history.reward(me, mv as usize, depth);
                break;
            }
        }
        self.move_bufs[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = Bound::of(best, alpha_orig, beta);
        self.tables
            .store(key, depth, to_tt(best, ply), bound, best_move);
        best
    }
}
