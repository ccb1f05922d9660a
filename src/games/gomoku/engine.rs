//! The gomoku search: threat-space search at the root (an immediate win,
//! VCF for both sides, VCT within part of the budget), then iterative
//! deepening principal-variation search over threat-restricted candidate
//! moves, with a transposition table, killers, history, late-move
//! reductions and a VCF check at the leaves.

use std::time::Instant;

use super::board::{Board, Cell, MAX_CELLS, color, flag};
use super::threat::LINE_PLIES;
use super::{Gomoku, Rules};
use crate::games::{MoveView, ProvenView, SearchReport, Stopped};
use crate::search::{EVAL_LIMIT, Limits, Outcome, WIN, WIN_THRESHOLD, Workspace, proof_from_score};

pub(super) const MAX_PLY: usize = 96;
const INF: i32 = WIN + 1;
/// Fours a VCF at a leaf may use, and the nodes it may spend: leaf VCFs
/// are most of the tree's plays, and a short one still finds the quick wins.
const LEAF_VCF_FOURS: u32 = 4;
const LEAF_VCF_NODES: u64 = 8;
/// Root VCF: fours and nodes when there is no deadline.
const ROOT_VCF_FOURS: u32 = 40;
const ROOT_VCF_NODES: u64 = 1_000_000;
/// Nodes for the opponent's VCF and the search for moves that stop it,
/// without a deadline.
const ROOT_OPP_VCF_NODES: u64 = 400_000;
/// Root VCT: threat depth (attacker moves) and nodes without a deadline.
const ROOT_VCT_DEPTH: u32 = 12;
const ROOT_VCT_NODES: u64 = 60_000;
const POLL_MASK: u64 = 1023;
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
/// Late-move reductions are looked up by depth and move number.
const LMR_DEPTHS: usize = 64;
const LMR_MOVES: usize = 64;

const TT_BITS: u32 = 20;
const VCF_BITS: u32 = 18;

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    mv: Cell,
    depth: i8,
    bound: u8,
    age: u8,
}

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;

/// A worker's gomoku tables, kept across requests (`Workspace::extra`).
pub struct Tables {
    tt: Vec<TtEntry>,
    /// Failed threat searches: key and the budget that failed.
    pub(super) threat_fail: Vec<(u64, u8)>,
    age: u8,
    /// Late-move reduction by depth and move number.
    lmr: Box<[[u8; LMR_MOVES]; LMR_DEPTHS]>,
}

impl Default for Tables {
    fn default() -> Self {
        Self {
            tt: vec![TtEntry::default(); 1 << TT_BITS],
            threat_fail: vec![(0, 0); 1 << VCF_BITS],
            age: 0,
            lmr: lmr_table(),
        }
    }
}

/// Reductions grow with the logarithms of both the depth left and the
/// move's rank: late moves at high depth are rarely best, and a re-search
/// catches the ones that are.
fn lmr_table() -> Box<[[u8; LMR_MOVES]; LMR_DEPTHS]> {
    let mut t = Box::new([[0u8; LMR_MOVES]; LMR_DEPTHS]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.5 + (d as f64).ln() * (i as f64).ln();
            *r = v as u8;
        }
    }
    t
}

/// One search in progress.
pub struct Engine<'a> {
    pub(super) b: Board,
    pub(super) tables: &'a mut Tables,
    limits: &'a Limits,
    pub(super) nodes: u64,
    /// When the search began (for time management).
    started: Instant,
    pub(super) aborted: bool,
    /// The first PVS iteration ignores the deadline so a move always exists.
    check_deadline: bool,
    /// A softer deadline for the root threat searches.
    pub(super) phase_deadline: Option<Instant>,
    pub(super) phase_nodes: u64,
    /// Node budget of the current bounded threat search, and whether it ran out.
    pub(super) threat_limit: u64,
    pub(super) threat_cut: bool,
    killers: [[Cell; 2]; MAX_PLY],
    history: Vec<[i32; MAX_CELLS]>,
    move_bufs: Vec<Vec<(i32, Cell)>>,
    pub(super) cell_buf: Vec<Vec<Cell>>,
    pv: Vec<Vec<Cell>>,
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
        crate::search::next_generation(&mut tables.age, 256, &mut tables.tt);
        Engine {
            b,
            tables,
            limits,
            nodes: 0,
            started: Instant::now(),
            aborted: false,
            check_deadline: true,
            phase_deadline: None,
            phase_nodes: u64::MAX,
            threat_limit: u64::MAX,
            threat_cut: false,
            killers: [[0; 2]; MAX_PLY],
            history: vec![[0; MAX_CELLS]; 2],
            move_bufs: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            cell_buf: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            lines: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// Counts a node and polls the limits every thousand nodes.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            let now_expired = if self.check_deadline {
                self.limits.exhausted(self.nodes)
            } else {
                self.limits.stop.is_stopped()
            };
            let phase_over = self.phase_deadline.is_some_and(|d| Instant::now() >= d)
                || self.nodes >= self.phase_nodes;
            self.aborted |= now_expired || phase_over;
        }
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
        let mine = self.b.total(me);
        let theirs = self.b.total(1 - me);
        // The side to move cashes its shapes first.
        (mine + mine / 6 - theirs).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn tt_probe(&self, key: u64) -> Option<TtEntry> {
        let e = self.tables.tt[(key >> (64 - TT_BITS)) as usize];
        (e.key == key && e.bound != 0 && e.age == self.tables.age).then_some(e)
    }

    fn tt_store(&mut self, key: u64, depth: i32, score: i32, bound: u8, mv: Cell) {
        let age = self.tables.age;
        let slot = &mut self.tables.tt[(key >> (64 - TT_BITS)) as usize];
        if slot.key == key || slot.age != age || depth as i8 >= slot.depth {
            *slot = TtEntry {
                key,
                score,
                mv,
                depth: depth.clamp(-1, 100) as i8,
                bound,
                age,
            };
        }
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
                    let score =
                        mine.value * 5 / 4 + theirs.value + self.history[me][c as usize] / 8;
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

    fn pvs(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.tick();
        self.pv[ply].clear();
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
        if let Some(e) = self.tt_probe(key) {
            tt_move = e.mv;
            if i32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    EXACT => true,
                    LOWER => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
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
        for m in moves.iter_mut() {
            if m.1 == tt_move {
                m.0 = i32::MAX;
            } else if m.1 == self.killers[ply][0] {
                m.0 += 400;
            } else if m.1 == self.killers[ply][1] {
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
                    let killer = mv == self.killers[ply][0] || mv == self.killers[ply][1];
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
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                if self.killers[ply][0] != mv {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = mv;
                }
                let h = &mut self.history[me][mv as usize];
                *h = (*h + depth * depth).min(2_000);
                break;
            }
        }
        self.move_bufs[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha_orig {
            EXACT
        } else {
            UPPER
        };
        self.tt_store(key, depth, to_tt(best, ply), bound, best_move);
        best
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// What the root search settled on.
struct RootResult {
    best: Cell,
    score: i32,
    depth: u32,
    pv: Vec<Cell>,
    stopped: Stopped,
}

impl Engine<'_> {
    /// Sets a phase limit: a share of the remaining time, or a node budget
    /// when there is no deadline (so answers stay reproducible).
    fn start_phase(&mut self, share: f64, nodes: u64) {
        self.aborted = false;
        match self.limits.deadline {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                self.phase_deadline = Some(Instant::now() + left.mul_f64(share));
                self.phase_nodes = u64::MAX;
            }
            None => {
                self.phase_deadline = None;
                self.phase_nodes = self.nodes + nodes;
            }
        }
    }

    fn end_phase(&mut self) {
        tracing::trace!(
            search.nodes = self.nodes,
            duration_ms = self.started.elapsed().as_millis() as u64,
            phase_over = self.aborted,
            "gomoku threat phase done"
        );
        self.phase_deadline = None;
        self.phase_nodes = u64::MAX;
        // A phase that ran out of its share is not a stop of the search,
        // but a real deadline or stop request is.
        self.aborted = self.limits.exhausted(self.nodes);
    }

    /// VCF for `color` from the current position by iterative deepening on
    /// the number of fours: the shortest one it finds, in plies.
    fn root_vcf(&mut self, color: usize) -> Option<(u32, Cell)> {
        let passed = color != self::color(self.b.side_to_move());
        if passed {
            self.b.pass();
        }
        let mut found = None;
        for fours in 1..=ROOT_VCF_FOURS {
            if let Some(plies) = self.vcf(color, fours, 0) {
                found = Some(plies);
                break;
            }
            if self.aborted || self.b.flag_count(color, flag::FOUR) == 0 {
                break;
            }
        }
        let result = found.and_then(|plies| self.vcf_first_move(color, plies).map(|m| (plies, m)));
        if passed {
            self.b.unpass();
        }
        result
    }

    /// Iterative deepening PVS over `roots`.
    fn root_search(&mut self, roots: &[Cell]) -> RootResult {
        let mut order: Vec<(i32, Cell)> = {
            let me = color(self.b.side_to_move());
            roots
                .iter()
                .map(|&c| {
                    let v = self.b.info(c, me).value * 5 / 4 + self.b.info(c, 1 - me).value;
                    (v, c)
                })
                .collect()
        };
        order.sort_by_key(|m| std::cmp::Reverse(m.0));
        let mut result = RootResult {
            best: order[0].1,
            score: 0,
            depth: 0,
            pv: vec![order[0].1],
            stopped: Stopped::Depth,
        };
        let max_depth = self.limits.depth.clamp(1, MAX_PLY as u32 - 8);
        for depth in 1..=max_depth {
            let iteration_start = Instant::now();
            self.check_deadline = depth > 1;
            let mut alpha = -INF;
            let beta = INF;
            let mut iter_best: Option<(Cell, i32, Vec<Cell>)> = None;
            let me = color(self.b.side_to_move());
            let forcing: Vec<bool> = order
                .iter()
                .map(|&(_, mv)| {
                    self.b.info(mv, me).flags & (flag::FOUR | flag::THREE) != 0
                        || self.b.info(mv, 1 - me).flags & flag::FOUR != 0
                })
                .collect();
            for (i, entry) in order.iter_mut().enumerate() {
                let mv = entry.1;
                self.b.play(mv);
                let score = if i == 0 {
                    -self.pvs(depth as i32 - 1, 1, -beta, -alpha)
                } else {
                    // Late, quiet root moves get a reduced first look.
                    let r = if depth >= 4 && i >= 4 && !forcing[i] {
                        let d = (depth as usize).min(LMR_DEPTHS - 1);
                        i32::from(self.tables.lmr[d][i.min(LMR_MOVES - 1)])
                            .clamp(1, depth as i32 - 2)
                    } else {
                        0
                    };
                    let mut s = -self.pvs(depth as i32 - 1 - r, 1, -alpha - 1, -alpha);
                    if s > alpha && r > 0 && !self.aborted {
                        s = -self.pvs(depth as i32 - 1, 1, -alpha - 1, -alpha);
                    }
                    if s > alpha && !self.aborted {
                        -self.pvs(depth as i32 - 1, 1, -beta, -alpha)
                    } else {
                        s
                    }
                };
                self.b.undo();
                if self.aborted {
                    break;
                }
                entry.0 = score;
                if score > alpha {
                    alpha = score;
                    let mut pv = vec![mv];
                    pv.extend_from_slice(&self.pv[1]);
                    iter_best = Some((mv, score, pv));
                    if score >= WIN_THRESHOLD {
                        break;
                    }
                }
            }
            if self.aborted {
                // A better move found and fully searched in the cut-short
                // iteration is kept; otherwise the last complete iteration.
                if let Some((mv, score, pv)) = iter_best.filter(|b| b.0 != result.best) {
                    if score > result.score || result.depth == 0 {
                        result.best = mv;
                        result.score = score;
                        result.pv = pv;
                    }
                }
                result.stopped = self.limits.stop_reason(self.nodes);
                break;
            }
            if let Some((mv, score, pv)) = iter_best {
                result.best = mv;
                result.score = score;
                result.pv = pv;
            }
            result.depth = depth;
            self.limits.report(depth, result.score, self.nodes, || {
                let name = |&c: &Cell| {
                    let (r, col) = self.b.row_col(c);
                    crate::games::notation::cell_name(r, col)
                };
                result.pv.iter().map(name).collect()
            });
            tracing::trace!(
                search.depth = depth,
                search.nodes = self.nodes,
                search.score = result.score,
                duration_ms = self.started.elapsed().as_millis() as u64,
                "gomoku iteration"
            );
            // Best first next time; the rest by this iteration's scores.
            let best = result.best;
            order.sort_by(|a, b| (b.1 == best).cmp(&(a.1 == best)).then(b.0.cmp(&a.0)));
            if result.score.abs() >= WIN_THRESHOLD {
                result.stopped = Stopped::Proven;
                break;
            }
            // The next iteration costs more than this one (about one and a
            // half times with the reductions): starting one that cannot end
            // would only burn the rest of the budget.
            let late = self.limits.deadline.is_some_and(|d| {
                let next = iteration_start.elapsed().mul_f64(1.5);
                Instant::now() + next > d
            });
            if depth < max_depth && (self.limits.exhausted(self.nodes) || late) {
                result.stopped = self.limits.stop_reason(self.nodes);
                break;
            }
        }
        result
    }
}

/// Searches a gomoku position and renders the answer.
pub fn search(pos: &Gomoku, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let start = Instant::now();
    let tables = ws.extra::<Tables>();
    let mut engine = Engine::new((*pos.board).clone(), tables, limits);
    let to_move = pos.side_to_move();
    let me = color(to_move);
    let report = |best: Cell, score: i32, depth: u32, pv: Vec<Cell>, stopped, nodes| {
        let (r, c) = pos.board.row_col(best);
        SearchReport {
            best_move: MoveView {
                cell: Some((r, c)),
                notation: pos.notation(best),
            },
            score,
            proven: proof_from_score(score).map(|p| ProvenView {
                result: p.outcome,
                plies: p.plies,
                disc_diff: None,
            }),
            depth,
            nodes,
            time_ms: start.elapsed().as_millis() as u64,
            pv: pv.iter().map(|&c| pos.notation(c)).collect(),
            stopped,
            to_move,
        }
    };
    let mut legal = Vec::new();
    for i in 0..engine.b.interior.len() {
        let c = engine.b.interior[i];
        if engine.legal_for(c, me) {
            legal.push(c);
        }
    }
    let won = pos.winner().is_some();
    if legal.is_empty() || won {
        // Nothing to search (a finished game reaches here only when called
        // directly): answer a pass-like centre move with the game's result.
        let centre = engine.b.cell(pos.size() / 2, pos.size() / 2);
        let best = legal.first().copied().unwrap_or(centre);
        let mut r = report(best, 0, 0, vec![], Stopped::Proven, 0);
        r.best_move = MoveView::pass();
        r.proven = Some(ProvenView {
            result: if won { Outcome::Loss } else { Outcome::Draw },
            plies: 0,
            disc_diff: None,
        });
        r.pv.clear();
        return r;
    }
    // 1. A win on the spot.
    if let Some(c) = engine.b.first_win_point(me) {
        return report(c, WIN - 1, 1, vec![c], Stopped::Proven, 1);
    }
    // 2. Our own VCF.
    engine.start_phase(0.1, ROOT_VCF_NODES);
    let own_vcf = engine.root_vcf(me);
    engine.end_phase();
    if let Some((plies, first)) = own_vcf {
        let pv = engine.vcf_line(me, plies);
        let nodes = engine.nodes;
        return report(first, WIN - plies as i32, 1, pv, Stopped::Proven, nodes);
    }
    // 3. The opponent's threats decide which moves are worth searching.
    let mut roots = legal.clone();
    let opp_fours = {
        let mut v = Vec::new();
        engine.b.win_points(1 - me, &mut v);
        v
    };
    if opp_fours.is_empty() {
        engine.start_phase(0.08, ROOT_OPP_VCF_NODES);
        let opp_vcf = engine.root_vcf(1 - me);
        if opp_vcf.is_some() && !engine.aborted {
            let defended = engine.vcf_defences(me, &legal);
            if !defended.is_empty() {
                roots = defended;
            }
        }
        engine.end_phase();
    }
    // 4. Our VCT, within a share of the budget.
    if !engine.aborted {
        engine.start_phase(0.12, ROOT_VCT_NODES);
        let vct = engine.root_vct(me, ROOT_VCT_DEPTH);
        engine.end_phase();
        if let Some((plies, first, pv)) = vct {
            let nodes = engine.nodes;
            return report(first, WIN - plies as i32, 1, pv, Stopped::Proven, nodes);
        }
    }
    tracing::trace!(
        duration_ms = start.elapsed().as_millis() as u64,
        search.nodes = engine.nodes,
        "gomoku root threat search done"
    );
    // 5. Alpha-beta over the candidates (the root keeps every legal move
    // near the stones, or all of them on an empty board).
    engine.aborted = false;
    let near: Vec<Cell> = roots
        .iter()
        .copied()
        .filter(|&c| engine.b.near(c) > 0)
        .collect();
    let roots = if near.is_empty() {
        let centre = engine.b.cell(pos.size() / 2, pos.size() / 2);
        if engine.b.is_empty(centre) {
            vec![centre]
        } else {
            roots
        }
    } else if near.len() < roots.len() && opp_fours.is_empty() && roots.len() == legal.len() {
        near
    } else {
        roots
    };
    // Facing an open three, only its blocks and our own fours answer it
    // (as inside the tree).
    let roots = if opp_fours.is_empty() && engine.b.flag_count(1 - me, flag::OPEN_FOUR) > 0 {
        let answers: Vec<Cell> = roots
            .iter()
            .copied()
            .filter(|&c| {
                engine.b.info(c, 1 - me).flags & flag::FOUR != 0
                    || engine.b.info(c, me).flags & flag::FOUR != 0
            })
            .collect();
        if answers.is_empty() { roots } else { answers }
    } else {
        roots
    };
    let result = engine.root_search(&roots);
    let nodes = engine.nodes;
    report(
        result.best,
        result.score,
        result.depth,
        result.pv,
        result.stopped,
        nodes,
    )
}
