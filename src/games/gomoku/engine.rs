//! The gomoku engine's alpha-beta search: principal-variation search over
//! the cells near the stones, narrowed to the answers when the opponent
//! threatens to win, with a transposition table, killers, history,
//! move-count pruning, late-move reductions, razoring and reverse futility,
//! and a quiescence search of fours at the leaves. The threat searches
//! (`threat`) and the root (`root`) work on the same [`Engine`].

use std::time::Instant;

use super::Rules;
use super::board::{Board, Cell, MAX_CELLS, color, flag, p4};
use super::pattern::Pattern;
use super::tables::{LMR_DEPTHS, LMR_MOVES, Tables};
use crate::search::smp::Team;
use crate::search::{
    Bound, Clock, EVAL_LIMIT, History, Killers, Limits, PvTable, WIN, WIN_THRESHOLD, from_tt, to_tt,
};

pub(super) const MAX_PLY: usize = 96;
/// Threat-search lines are kept up to this ply.
pub(super) const LINE_PLIES: usize = MAX_PLY * 2 + 128;
pub(super) const INF: i32 = WIN + 1;
/// The ordering bonus of the best reply found to the opponent's last move.
const COUNTER_BONUS: i32 = 100;
/// The histories are held within this.
const STATS_CAP: i32 = 16_384;
/// A best move's bonus in the histories, by depth.
fn stat_bonus(depth: i32) -> i32 {
    (25 * depth * depth + 105 * depth - 157).clamp(0, 8_927)
}

/// Reverse futility: a node this far above beta per ply of depth left
/// (less a ply when the evaluation is improving), with no threat from the
/// opponent, fails high on its static value.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 120;
/// Razoring: a node this far below alpha at the last plies, with no threat
/// from the opponent, is settled by the quiescence search.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: [i32; 3] = [0, 150, 300];
/// Quiet moves that build nothing for either side are not searched this
/// close to the leaves once a move holds.
const TRIVIAL_DEPTH: i32 = 4;
/// In the quiescence search, fours that combine with nothing are tried
/// only at its first plies; deeper, only fours that also build.
const QUIESCENCE_PLAIN_FOURS: i32 = 1;
/// The most fours one side plays in a quiescence search: runs of fours
/// that build on each other can branch without end in a crowded position
/// (a renju middle game took 1.7 M nodes at depth 1 without this).
const QUIESCENCE_MAX_FOURS: i32 = 8;
/// A quiescence node this far below alpha cannot climb back with fours.
const QUIESCENCE_DELTA: i32 = 2_000;
/// Fail-high reduction: at a cut node whose static value is this far above
/// beta (per ply of depth, less [`FAIL_HIGH_BIAS`], more
/// [`FAIL_HIGH_THREAT`] when the opponent threatens), the moves other
/// than fours are searched a ply shallower; a four after a four of the
/// same side, a ply deeper.
const FAIL_HIGH_MARGIN: i32 = 30;
const FAIL_HIGH_BIAS: i32 = 18;
const FAIL_HIGH_THREAT: i32 = 170;
/// With helpers, nodes with at least this much depth left put off a move
/// another thread is searching (see [`crate::search::smp`]); nearer the
/// leaves a move costs less than the bookkeeping.
pub(super) const DEFER_DEPTH: i32 = 3;

/// The key under which a thread marks the move to `child` (a position's
/// hash) searched from a node `depth` plies from the leaves: the busy
/// table reads its high bits, so the hash and depth are mixed into them.
#[inline]
pub(super) fn busy_key(child: u64, depth: i32) -> u64 {
    (child ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Per ply of the path being searched.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frame {
    /// The static evaluation, for the side to move there.
    pub(super) static_eval: i32,
    /// The move being searched from there, and its category for the side
    /// that plays it.
    pub(super) mv: Cell,
    pub(super) p4: u8,
}

/// One search in progress.
pub struct Engine<'a> {
    pub(super) b: Board,
    /// Shared by the threads of one search (see [`Tables::start_search`]).
    pub(super) tables: &'a Tables,
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
    /// History of cut-offs and best moves, for moves that make at least an
    /// open three (attacks) and for the others (quiet moves).
    attack_history: History<MAX_CELLS>,
    quiet_history: History<MAX_CELLS>,
    /// Per side, the best reply found to each of the opponent's moves.
    counter: Vec<[Cell; MAX_CELLS]>,
    /// Per ply, the moves searched there that were not best.
    searched: Vec<Vec<Cell>>,
    pub(super) move_bufs: Vec<Vec<(i32, Cell)>>,
    pub(super) cell_buf: Vec<Vec<Cell>>,
    /// The forced blocks [`Engine::tempo_blocks`] looks at.
    block_buf: Vec<Cell>,
    pub(super) pv: PvTable<Cell>,
    /// Threat-search lines by ply: the winning continuation found there.
    pub(super) lines: Vec<Vec<Cell>>,
    pub(super) stack: Vec<Frame>,
    /// Move-count pruning: how many moves a node searches at each depth,
    /// without and with an improving evaluation.
    move_counts: [[usize; 2]; LMR_DEPTHS],
    /// The other threads of the search, when it has helpers: moves one of
    /// them is searching are put off (`None` with one thread).
    pub(super) team: Option<&'a Team>,
    /// Per ply, the moves put off there.
    deferred: Vec<Vec<(usize, Cell)>>,
}

/// How a node's move generation went.
enum Gen {
    /// No candidate to search: score the position as it stands.
    Quiet,
    Moves,
}

impl<'a> Engine<'a> {
    /// A search of `b` within `limits` on `tables`, which
    /// [`Tables::start_search`] made ready for it.
    pub fn new(b: Board, tables: &'a Tables, limits: &'a Limits) -> Self {
        let mut move_counts = [[0; 2]; LMR_DEPTHS];
        for (d, counts) in move_counts.iter_mut().enumerate() {
            let full = 3 + (d as f64).powf(1.32) as usize;
            *counts = [(full * 2 / 3).max(1), full];
        }
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
            attack_history: History::new(STATS_CAP),
            quiet_history: History::new(STATS_CAP),
            counter: vec![[0; MAX_CELLS]; 2],
            searched: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            move_bufs: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            cell_buf: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            block_buf: Vec::new(),
            lines: (0..LINE_PLIES).map(|_| Vec::new()).collect(),
            pv: PvTable::new(MAX_PLY),
            stack: vec![Frame::default(); MAX_PLY + 2],
            move_counts,
            team: None,
            deferred: (0..MAX_PLY).map(|_| Vec::new()).collect(),
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
    pub(super) fn evaluate(&self) -> i32 {
        let me = color(self.b.side_to_move());
        self.b.eval_for(me).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Notes the move about to be searched from `ply` on the path.
    #[inline]
    pub(super) fn enter(&mut self, ply: usize, mv: Cell) {
        let me = color(self.b.side_to_move());
        let frame = &mut self.stack[ply];
        frame.mv = mv;
        frame.p4 = self.b.info(mv, me).p4;
    }

    /// The ordering value of a candidate for `me`.
    #[inline]
    fn order_value(&self, c: Cell, me: usize) -> i32 {
        let mine = self.b.info(c, me);
        let shape = i32::from(mine.order[0]) + i32::from(self.b.info(c, 1 - me).order[1]);
        let history = if mine.p4 >= p4::THREE {
            self.attack_history.get(me, c as usize) / 64
        } else {
            self.quiet_history.get(me, c as usize) / 128
        };
        let counter = self
            .b
            .last_move()
            .is_some_and(|l| self.counter[1 - me][l as usize] == c);
        shape + history + if counter { COUNTER_BONUS } else { 0 }
    }

    /// Updates the histories for the best move of a node at `ply` where
    /// `me` moved, the moves searched before it getting a malus.
    fn reward_best(&mut self, ply: usize, me: usize, depth: i32, best: Cell, defending: bool) {
        let bonus = stat_bonus(depth);
        let attack = self.b.info(best, me).p4 >= p4::THREE;
        if attack {
            self.attack_history.update(me, best as usize, bonus);
        } else if !defending {
            self.quiet_history.update(me, best as usize, bonus);
        }
        for i in 0..self.searched[ply].len() {
            let m = self.searched[ply][i];
            if self.b.info(m, me).p4 >= p4::THREE {
                self.attack_history.update(me, m as usize, -bonus);
            } else if !attack && !defending {
                self.quiet_history.update(me, m as usize, -bonus);
            }
        }
        if let Some(last) = self.b.last_move() {
            self.counter[1 - me][last as usize] = best;
        }
    }

    /// Candidate moves for the side to move (which has no five to make and
    /// faces no five), scored for ordering, into `move_bufs[ply]`.
    fn generate(&mut self, ply: usize) -> Gen {
        let me = color(self.b.side_to_move());
        let opp = 1 - me;
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        moves.clear();
        let mut answers = std::mem::take(&mut self.cell_buf[ply]);
        answers.clear();
        // Facing a threat to win in three plies (an open four or four-three
        // to make), only the moves that spoil it or make a four answer it.
        let open_fours = self.b.p4_count(opp, p4::OPEN_FOUR);
        let four_threes = self.b.p4_count(opp, p4::FOUR_THREE);
        if open_fours + four_threes > 0 {
            let mut threats = Vec::new();
            self.b.cells_with_p4(opp, p4::OPEN_FOUR, &mut threats);
            let fours_from = threats.len();
            self.b.cells_with_p4(opp, p4::FOUR_THREE, &mut threats);
            for (i, &t) in threats.iter().enumerate() {
                if i < fours_from {
                    self.b.spoilers(t, opp, Pattern::Four, &mut answers);
                } else {
                    self.b.spoilers(t, opp, Pattern::OpenThree, &mut answers);
                    self.tempo_blocks(t, opp, &mut answers);
                }
            }
            self.b.cells_with_flag(me, flag::FOUR, &mut answers);
            for &c in &answers {
                if self.legal_for(c, me) && !moves.iter().any(|m| m.1 == c) {
                    moves.push((self.order_value(c, me), c));
                }
            }
        }
        if moves.is_empty() {
            for c in self.b.area(2) {
                if self.b.is_empty(c) && self.b.near(c) > 0 && self.legal_for(c, me) {
                    moves.push((self.order_value(c, me), c));
                }
            }
        }
        let result = if moves.is_empty() {
            // Nothing near the stones is legal (renju black hemmed in by
            // forbidden points): no verdict, just the evaluation.
            Gen::Quiet
        } else {
            Gen::Moves
        };
        self.cell_buf[ply] = answers;
        self.move_bufs[ply] = moves;
        result
    }

    /// Against the four-three `opp` would make at `t`: the cells where a
    /// stone of the side to move makes the four's forced block a four of
    /// its own, so the block gains the tempo that answers the three.
    fn tempo_blocks(&mut self, t: Cell, opp: usize, out: &mut Vec<Cell>) {
        let me = 1 - opp;
        let mut blocks = std::mem::take(&mut self.block_buf);
        self.b.pass();
        self.b.play(t);
        self.b.win_points_through(t, opp, &mut blocks);
        for &f in &blocks {
            self.b.makers(f, me, Pattern::Four, out);
        }
        self.b.undo();
        self.b.unpass();
        self.block_buf = blocks;
    }

    /// Where `me` must block the opponent's five, if anywhere: `Err` when
    /// it cannot (two fives, or a forbidden block).
    fn forced_block(&mut self, ply: usize, me: usize) -> Result<Option<Cell>, ()> {
        let opp = 1 - me;
        if self.b.flag_count(opp, flag::FIVE) == 0 {
            return Ok(None);
        }
        let mut blocks = std::mem::take(&mut self.cell_buf[ply]);
        self.b.win_points(opp, &mut blocks);
        let result = match blocks.as_slice() {
            [] => Ok(None),
            [block] => Ok(Some(*block)),
            _ => Err(()),
        };
        self.cell_buf[ply] = blocks;
        match result {
            Ok(Some(block)) if !self.legal_for(block, me) => Err(()),
            r => r,
        }
    }

    /// Counts a node at `ply` and scores it at once when it needs no
    /// search: the search stopped, the game is over, or the side to move
    /// has a five to make.
    #[inline]
    fn settled(&mut self, ply: usize) -> Option<i32> {
        self.tick();
        self.pv.clear(ply);
        if self.aborted {
            return Some(0);
        }
        if self.b.last_move_won() {
            return Some(-(WIN - ply as i32));
        }
        if self.b.is_full() {
            return Some(0);
        }
        let me = color(self.b.side_to_move());
        self.b.first_win_point(me).map(|_| WIN - ply as i32 - 1)
    }

    /// The quiescence search: the side to move may stand on the static
    /// value or play fours (near its last stone; deeper, only fours that
    /// also build), each answered by its forced block. `qdepth` counts the
    /// side to move's fours so far, from 0.
    pub(super) fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32, qdepth: i32) -> i32 {
        if let Some(score) = self.settled(ply) {
            return score;
        }
        let me = color(self.b.side_to_move());
        if ply + 2 >= MAX_PLY {
            return self.evaluate();
        }
        match self.forced_block(ply, me) {
            Err(()) => return -(WIN - ply as i32 - 2),
            Ok(Some(block)) => {
                // The block costs nothing: the attacker goes on.
                self.enter(ply, block);
                self.stack[ply].static_eval = -self.stack[ply.saturating_sub(1)].static_eval;
                self.b.play(block);
                self.nodes += 1;
                let score = -self.quiesce(ply + 1, -beta, -alpha, qdepth);
                self.b.undo();
                if score > alpha {
                    self.pv.update(ply, block);
                }
                return score;
            }
            Ok(None) => {}
        }
        let stand = self.evaluate();
        self.stack[ply].static_eval = stand;
        if stand >= beta {
            return stand;
        }
        let pv_node = beta - alpha > 1;
        if !pv_node && stand + QUIESCENCE_DELTA < alpha {
            return stand;
        }
        if stand > alpha {
            alpha = stand;
        }
        if self.b.flag_count(me, flag::FOUR) == 0 || qdepth >= QUIESCENCE_MAX_FOURS {
            return stand;
        }
        // Fours near the side's own last stone.
        let last = if ply >= 2 {
            Some(self.stack[ply - 2].mv)
        } else {
            None
        };
        let plain = qdepth < QUIESCENCE_PLAIN_FOURS
            || (ply >= 4
                && self.stack[ply - 2].p4 >= p4::FOUR_PLUS
                && self.stack[ply - 4].p4 >= p4::FOUR_PLUS);
        let mut fours = std::mem::take(&mut self.cell_buf[ply]);
        fours.clear();
        self.b.cells_with_flag(me, flag::FOUR, &mut fours);
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        moves.clear();
        for &c in &fours {
            let info = self.b.info(c, me);
            if !plain && info.p4 < p4::FOUR_PLUS {
                continue;
            }
            if let Some(l) = last.filter(|&l| l != 0) {
                if !self.b.within_reach(l, c) {
                    continue;
                }
            }
            moves.push((i32::from(info.value), c));
        }
        self.cell_buf[ply] = fours;
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let mut best = stand;
        for &(_, mv) in moves.iter() {
            if self.restricted(me) && self.b.forbidden(mv).is_some() {
                continue;
            }
            self.enter(ply, mv);
            self.b.play(mv);
            let score = -self.quiesce(ply + 1, -beta, -alpha, qdepth + 1);
            self.b.undo();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_bufs[ply] = moves;
        best
    }

    pub(super) fn pvs(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        if let Some(score) = self.settled(ply) {
            return score;
        }
        let me = color(self.b.side_to_move());
        let opp = 1 - me;
        if depth <= 0 || ply + 4 >= MAX_PLY {
            return self.quiesce(ply, alpha, beta, 0);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = self.b.hash();
        let mut tt_move = 0;
        let mut tt_eval = None;
        if let Some(e) = self.tables.probe(key) {
            tt_move = e.mv;
            tt_eval = Some(i32::from(e.eval));
            let score = from_tt(e.score, ply);
            if !pv_node && i32::from(e.depth) >= depth && e.bound().cuts(score, alpha, beta) {
                return score;
            }
        }
        // The opponent's four: block it, at no cost in depth.
        match self.forced_block(ply, me) {
            Err(()) => return -(WIN - ply as i32 - 2),
            Ok(Some(block)) => {
                self.stack[ply].static_eval = -self.stack[ply - 1].static_eval;
                self.enter(ply, block);
                self.b.play(block);
                let score = -self.pvs(depth, ply + 1, -beta, -alpha, !cut_node);
                self.b.undo();
                if self.aborted {
                    return 0;
                }
                if score > alpha {
                    self.pv.update(ply, block);
                }
                let bound = Bound::of(score, alpha, beta);
                let eval = self.stack[ply].static_eval;
                self.tables
                    .store(key, depth, to_tt(score, ply), eval, bound, block);
                return score;
            }
            Ok(None) => {}
        }
        let eval = tt_eval.unwrap_or_else(|| self.evaluate());
        self.stack[ply].static_eval = eval;
        let improving = ply >= 2 && eval > self.stack[ply - 2].static_eval;
        // Static pruning, only where the opponent threatens nothing the
        // static value cannot see (no open four or four-three to make).
        let opp_threat =
            self.b.p4_count(opp, p4::OPEN_FOUR) + self.b.p4_count(opp, p4::FOUR_THREE) > 0;
        if !pv_node && !opp_threat && alpha.abs() < WIN_THRESHOLD && beta.abs() < WIN_THRESHOLD {
            if depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN[depth as usize] < alpha {
                return self.quiesce(ply, alpha, alpha + 1, 0);
            }
            // Not inside a run of fours, whose end the static value misreads.
            let attacking = ply >= 4
                && self.stack[ply - 2].p4 >= p4::FOUR
                && self.stack[ply - 4].p4 >= p4::FOUR;
            if depth <= RFP_DEPTH
                && !attacking
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
        }
        match self.generate(ply) {
            Gen::Quiet => return eval,
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
        let alpha_orig = alpha;
        let likely_fail_high = !pv_node
            && cut_node
            && eval
                >= beta + FAIL_HIGH_MARGIN * depth - FAIL_HIGH_BIAS
                    + if opp_threat { FAIL_HIGH_THREAT } else { 0 };
        let mut best = -INF;
        let mut best_move = 0;
        let move_limit =
            self.move_counts[(depth as usize).min(LMR_DEPTHS - 1)][usize::from(improving)];
        let mut move_count = 0;
        self.searched[ply].clear();
        // With helpers, a move another thread is searching waits until the
        // others are done (the first move never does).
        let defer = self.team.filter(|_| depth >= DEFER_DEPTH);
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let mut next = 0;
        loop {
            let first_pass = next < moves.len();
            let mv = if let Some(&(_, mv)) = moves.get(next) {
                move_count += 1;
                mv
            } else if let Some(&(count, mv)) = deferred.get(next - moves.len()) {
                // Its place in the order, for the reductions.
                move_count = count;
                mv
            } else {
                break;
            };
            next += 1;
            let mine = self.b.info(mv, me).p4;
            let theirs = self.b.info(mv, opp).p4;
            if best > -WIN_THRESHOLD {
                if move_count > move_limit {
                    if first_pass && !deferred.is_empty() {
                        next = moves.len();
                        continue;
                    }
                    break;
                }
                if depth < TRIVIAL_DEPTH && mine == p4::NONE && theirs == p4::NONE {
                    continue;
                }
            }
            let busy = defer.map(|team| (team, busy_key(self.b.hash_after(mv, me), depth)));
            if let Some((team, key)) = busy
                && first_pass
                && move_count > 1
                && team.is_busy(key)
            {
                deferred.push((move_count, mv));
                continue;
            }
            let important = mine >= p4::DOUBLE_TWO || theirs >= p4::THREE;
            let mut new_depth = depth - 1;
            if likely_fail_high {
                if mine < p4::FOUR {
                    new_depth -= 1;
                } else if ply >= 2 && self.stack[ply - 2].p4 >= p4::FOUR {
                    new_depth += 1;
                }
            }
            let _busy = busy.map(|(team, key)| team.enter(key));
            self.enter(ply, mv);
            self.b.play(mv);
            let mut score = -INF;
            if depth >= 2 && move_count > 1 {
                let mut r = i32::from(
                    self.tables.lmr[(depth as usize).min(LMR_DEPTHS - 1)]
                        [move_count.min(LMR_MOVES - 1)],
                );
                r += i32::from(!pv_node && !improving);
                r += i32::from(cut_node && !self.killers.contains(ply, mv));
                r -= i32::from(pv_node) + i32::from(important);
                r -= if mine >= p4::THREE {
                    self.attack_history.get(me, mv as usize) / 8_192
                } else {
                    self.quiet_history.get(me, mv as usize) / 8_192
                };
                let d = (new_depth - r).max(1).min(new_depth);
                score = -self.pvs(d, ply + 1, -alpha - 1, -alpha, true);
                if score > alpha && d < new_depth && !self.aborted {
                    score = -self.pvs(new_depth, ply + 1, -alpha - 1, -alpha, !cut_node);
                }
            } else if !pv_node || move_count > 1 {
                score = -self.pvs(new_depth, ply + 1, -alpha - 1, -alpha, !cut_node);
            }
            if pv_node && (move_count == 1 || (score > alpha && score < beta)) && !self.aborted {
                score = -self.pvs(new_depth, ply + 1, -beta, -alpha, false);
            }
            self.b.undo();
            if self.aborted {
                break;
            }
            if self.searched[ply].len() < 64 {
                self.searched[ply].push(mv);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    self.pv.update(ply, mv);
                    if score >= beta {
                        self.killers.record(ply, mv);
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.move_bufs[ply] = moves;
        self.deferred[ply] = deferred;
        if self.aborted {
            return 0;
        }
        if best_move != 0 {
            self.searched[ply].retain(|&m| m != best_move);
            self.reward_best(ply, me, depth, best_move, opp_threat);
        }
        if best == -INF {
            // Every candidate was pruned.
            return eval;
        }
        let bound = Bound::of(best, alpha_orig, beta);
        self.tables
            .store(key, depth, to_tt(best, ply), eval, bound, best_move);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn board(moves: &str) -> Board {
        let mut b = Board::new(15, Rules::Freestyle);
        for m in moves.split_whitespace() {
            let (r, c) = crate::games::notation::parse_cell(m, 15, 15).unwrap();
            let cell = b.cell(r, c);
            b.play(cell);
        }
        b
    }

    fn generated(b: Board) -> Vec<String> {
        let mut tables = Tables::default();
        let limits = Limits::depth(1);
        tables.start_search(&limits);
        let mut engine = Engine::new(b, &tables, &limits);
        assert!(matches!(engine.generate(1), Gen::Moves));
        let mut names: Vec<String> = engine.move_bufs[1]
            .iter()
            .map(|&(_, c)| {
                let (r, col) = engine.b.row_col(c);
                crate::games::notation::cell_name(r, col)
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_four_three_is_answered_by_a_block_that_will_make_a_four() {
        // From a game against Rapfi: black threatens k8 (k4 k5 k6 and k8
        // a four, m6 l7 k8 an open three). White's m5 or n4 answers it
        // from afar: black's k8 forces white's k7, which then makes a
        // four on j8 k7 l6 m5 (or k7 l6 m5 n4 with j8), and the tempo
        // blocks the three. Leaving them out proved a win for black that
        // was not there.
        let b = board(
            "h8 h7 i7 g9 i9 g7 i8 i10 g8 j8 k5 i5 j6 l4 k6 l6 l5 j7 k4 k3 m6 h6 j4 f8 e9 j3 l7",
        );
        let moves = generated(b);
        for spoiler in ["k8", "k7", "n5", "j9", "o4"] {
            assert!(
                moves.contains(&spoiler.to_string()),
                "{spoiler} in {moves:?}"
            );
        }
        for tempo in ["m5", "n4"] {
            assert!(moves.contains(&tempo.to_string()), "{tempo} in {moves:?}");
        }
    }
}
