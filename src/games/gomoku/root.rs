//! The gomoku search at the root: threat-space search first (an immediate
//! win, VCF for both sides, VCT within part of the budget), then iterative
//! deepening over the candidates the threats leave, and the answer.
//!
//! With helpers, the first one runs the root VCT while the main thread
//! runs the VCF searches and starts the main search; every helper then
//! searches the main thread's iteration beside it, the threads splitting
//! the work by putting off moves another one is searching
//! ([`crate::search::smp`]).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Gomoku;
use super::board::{Cell, color, flag};
use super::engine::{DEFER_DEPTH, Engine, INF, MAX_PLY, busy_key};
use super::tables::{LMR_DEPTHS, LMR_MOVES, Tables};
use crate::search::smp::{self, Team};
use crate::search::{Limits, Proof, ReportBuilder, WIN, WIN_THRESHOLD, Workspace};
use crate::vocabulary::{MoveView, SearchReport, Stopped};

/// Root VCF: fours and nodes when there is no deadline.
const ROOT_VCF_FOURS: u32 = 40;
const ROOT_VCF_NODES: u64 = 1_000_000;
/// Nodes for the opponent's VCF and the search for moves that stop it,
/// without a deadline.
const ROOT_OPP_VCF_NODES: u64 = 400_000;
/// Root VCT: threat depth (attacker moves) and nodes without a deadline.
const ROOT_VCT_DEPTH: u32 = 12;
const ROOT_VCT_NODES: u64 = 60_000;
/// The next iteration costs about one and a half times the last one with
/// the reductions.
const ITERATION_GROWTH: f64 = 1.5;
/// Time use: once this share of the budget is spent, an answer that has
/// kept its move for [`STABLE_ITERATIONS`] iterations, its score not
/// falling more than [`SCORE_DROP`], stops rather than start an iteration
/// that cannot finish. Any other answer searches on to the deadline, and
/// the cut-short iteration's best move counts.
const STABLE_SHARE: f64 = 0.5;
const STABLE_ITERATIONS: u32 = 3;
const SCORE_DROP: i32 = 40;
/// The first aspiration window's half-width, in evaluation units.
const ASPIRATION_DELTA: i32 = 60;

/// What the root search settled on.
struct RootResult {
    best: Cell,
    score: i32,
    depth: u32,
    pv: Vec<Cell>,
    stopped: Stopped,
}

/// A VCT's plies, first move and line.
type Vct = Option<(u32, Cell, Vec<Cell>)>;

/// What the threads of one search hand each other at the root: with
/// helpers, the first one runs the root VCT while the main thread runs the
/// VCF searches, and all of them wait for the main thread's root moves.
#[derive(Default)]
struct RootShare {
    /// Taken by the thread that runs the root VCT (the main thread's, when
    /// no helper took it first).
    vct_taken: AtomicBool,
    vct: OnceLock<Vct>,
    roots: OnceLock<Vec<Cell>>,
}

impl RootShare {
    /// Whether the caller is the one to run the root VCT.
    fn take_vct(&self) -> bool {
        !self.vct_taken.swap(true, Ordering::Relaxed)
    }

    /// Whether a VCT another thread runs has found a win.
    fn vct_won(&self) -> bool {
        self.vct.get().is_some_and(Option::is_some)
    }
}

/// Sets the VCT's result to none if its thread leaves without one (a
/// panic), so that the main thread never waits for it in vain.
struct VctGuard<'s>(&'s OnceLock<Vct>);

impl Drop for VctGuard<'_> {
    fn drop(&mut self) {
        let _ = self.0.set(None);
    }
}

/// Waits, polling, until `slot` is set or `stopped` says to give up.
fn wait_for<T>(slot: &OnceLock<T>, stopped: impl Fn() -> bool) -> Option<&T> {
    loop {
        if let Some(v) = slot.get() {
            return Some(v);
        }
        if stopped() {
            return None;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
}

impl Engine<'_> {
    /// Sets a phase limit: a share of the remaining time, or a node budget
    /// when there is no deadline (so answers stay reproducible).
    fn start_phase(&mut self, share: f64, nodes: u64) {
        self.aborted = false;
        self.clock.start_stage(share, self.nodes, nodes);
    }

    fn end_phase(&mut self) {
        tracing::trace!(
            search.nodes = self.nodes,
            duration_ms = self.started.elapsed().as_millis() as u64,
            phase_over = self.aborted,
            "gomoku threat phase done"
        );
        self.clock.end_stage();
        // A phase that ran out of its share is not a stop of the search,
        // but a real deadline or stop request is.
        self.aborted = self.clock.limits().exhausted(self.nodes);
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

    /// Why not to start another iteration after one that began at
    /// `iteration_start`; `None` to go on. A `settled` answer (a lone
    /// candidate, or a stable move and score) stops once half the budget
    /// is spent and the next iteration could not finish within it; any
    /// other answer searches on until the deadline cuts it short.
    fn time_to_stop(&self, iteration_start: Instant, settled: bool) -> Option<Stopped> {
        let limits = self.clock.limits();
        if limits.exhausted(self.nodes) {
            return Some(limits.stop_reason(self.nodes));
        }
        let budget = limits.deadline?.saturating_duration_since(self.started);
        if !settled || self.started.elapsed() < budget.mul_f64(STABLE_SHARE) {
            return None;
        }
        self.clock
            .stop_before_next(self.nodes, iteration_start, ITERATION_GROWTH)
    }

    /// One pass over the root moves at `depth` within `(alpha, beta)`:
    /// the best move that raised alpha with its score and line, if any, and
    /// the best score. Each move's score is kept in `order` for the next
    /// pass's ordering.
    fn root_iteration(
        &mut self,
        order: &mut [(i32, Cell)],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<(Cell, i32, Vec<Cell>)>, i32) {
        let me = color(self.b.side_to_move());
        let forcing: Vec<bool> = order
            .iter()
            .map(|&(_, mv)| {
                self.b.info(mv, me).flags & (flag::FOUR | flag::THREE) != 0
                    || self.b.info(mv, 1 - me).flags & flag::FOUR != 0
            })
            .collect();
        let mut iter_best = None;
        let mut best = -INF;
        // With helpers, a root move another thread is searching waits
        // until the others are done, as inside the tree.
        let defer = self.team.filter(|_| depth as i32 >= DEFER_DEPTH);
        let mut deferred = Vec::new();
        let mut next = 0;
        loop {
            let i = if next < order.len() {
                next
            } else if let Some(&i) = deferred.get(next - order.len()) {
                i
            } else {
                break;
            };
            let first_pass = next < order.len();
            next += 1;
            let entry = &mut order[i];
            let mv = entry.1;
            let key = busy_key(self.b.hash_after(mv, me), depth as i32);
            if let Some(team) = defer {
                if first_pass && i > 0 && team.is_busy(key) {
                    deferred.push(i);
                    continue;
                }
            }
            let _busy = defer.map(|team| team.enter(key));
            self.stack[0].static_eval = self.evaluate();
            self.enter(0, mv);
            self.b.play(mv);
            let score = if i == 0 {
                -self.pvs(depth as i32 - 1, 1, -beta, -alpha, false)
            } else {
                // Late, quiet root moves get a reduced first look.
                let r = if depth >= 4 && i >= 4 && !forcing[i] {
                    let d = (depth as usize).min(LMR_DEPTHS - 1);
                    i32::from(self.tables.lmr[d][i.min(LMR_MOVES - 1)]).clamp(1, depth as i32 - 2)
                } else {
                    0
                };
                let mut s = -self.pvs(depth as i32 - 1 - r, 1, -alpha - 1, -alpha, true);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.pvs(depth as i32 - 1, 1, -alpha - 1, -alpha, true);
                }
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(depth as i32 - 1, 1, -beta, -alpha, false)
                } else {
                    s
                }
            };
            self.b.undo();
            // Once the first move has a score there is an answer: the
            // limits count from here even in the first iteration.
            self.clock.arm(true);
            if self.aborted {
                break;
            }
            entry.0 = score;
            best = best.max(score);
            if score > alpha {
                alpha = score;
                let mut pv = vec![mv];
                pv.extend_from_slice(self.pv.line(1));
                iter_best = Some((mv, score, pv));
                if score >= beta || score >= WIN_THRESHOLD {
                    break;
                }
            }
        }
        (iter_best, best)
    }

    /// The root moves `roots` in their first order, with their ordering
    /// values.
    fn root_order(&self, roots: &[Cell]) -> Vec<(i32, Cell)> {
        let me = color(self.b.side_to_move());
        let mut order: Vec<(i32, Cell)> = roots
            .iter()
            .map(|&c| {
                let v = i32::from(self.b.info(c, me).order[0])
                    + i32::from(self.b.info(c, 1 - me).order[1]);
                (v, c)
            })
            .collect();
        order.sort_by_key(|m| std::cmp::Reverse(m.0));
        order
    }

    /// Iterative deepening PVS over `roots`, as the main thread of the
    /// search (`team` hears the depths it starts).
    fn root_search(&mut self, roots: &[Cell], team: &Team, share: &RootShare) -> RootResult {
        let mut order = self.root_order(roots);
        let mut result = RootResult {
            best: order[0].1,
            score: 0,
            depth: 0,
            pv: vec![order[0].1],
            stopped: Stopped::Depth,
        };
        let limits = self.clock.limits();
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 8);
        // Iterations in a row that kept the best move.
        let mut stable = 0;
        for depth in 1..=max_depth {
            let iteration_start = Instant::now();
            team.start_depth(depth);
            self.clock.arm(depth > 1);
            // An aspiration window around the last score; a score outside
            // it widens the window on that side and searches again.
            let mut delta = ASPIRATION_DELTA;
            let aspire = depth >= 5 && result.score.abs() < WIN_THRESHOLD;
            let (mut lo, mut hi) = if aspire {
                (result.score - delta, result.score + delta)
            } else {
                (-INF, INF)
            };
            let mut fail_high: Option<(Cell, i32, Vec<Cell>)> = None;
            let iter_best = loop {
                let (found, best) = self.root_iteration(&mut order, depth, lo, hi);
                if self.aborted {
                    break found.or(fail_high);
                }
                if best <= lo && lo > -INF {
                    hi = (lo + hi) / 2;
                    lo = (best - delta).max(-INF);
                } else if best >= hi && hi < INF {
                    hi = (best + delta).min(INF);
                    fail_high = found;
                    let first = fail_high.as_ref().map(|f| f.0);
                    order.sort_by_key(|m| Some(m.1) != first);
                } else {
                    break found;
                }
                delta += delta / 2;
            };
            // A cut-short iteration counts too: it searched the last best
            // move first, so its best so far is a deeper look than the last
            // complete iteration's.
            let last_score = result.score;
            if let Some((mv, score, pv)) = iter_best {
                stable = if mv == result.best { stable + 1 } else { 0 };
                // A cut-short iteration's line ends where the search was
                // stopped, or is the move alone when its score came from a
                // null window: the same move keeps the last complete
                // iteration's whole line.
                if !(self.aborted && mv == result.best && result.depth > 0) {
                    result.pv = pv;
                }
                result.best = mv;
                result.score = score;
            }
            if self.aborted {
                result.stopped = limits.stop_reason(self.nodes);
                break;
            }
            result.depth = depth;
            limits.report(
                depth,
                result.score,
                self.nodes + team.helper_nodes(),
                || {
                    let name = |&c: &Cell| {
                        let (r, col) = self.b.row_col(c);
                        crate::games::notation::cell_name(r, col)
                    };
                    result.pv.iter().map(name).collect()
                },
            );
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
            // A helper's VCT proved a win: that is the answer.
            if share.vct_won() {
                break;
            }
            if depth < max_depth {
                let settled = order.len() == 1
                    || (stable >= STABLE_ITERATIONS && result.score >= last_score - SCORE_DROP);
                if let Some(stopped) = self.time_to_stop(iteration_start, settled) {
                    result.stopped = stopped;
                    break;
                }
            }
        }
        result
    }

    /// A helper thread of the main search over `roots`: full-window
    /// iterations at the main thread's depth on the shared table, each in
    /// the order the last one's scores give, the work split with the other
    /// threads by putting off the moves they are searching; until stopped
    /// or past the deepest depth. Its nodes from here go to `team`.
    fn help(&mut self, roots: &[Cell], team: &Team) {
        let mut order = self.root_order(roots);
        let max_depth = self.clock.limits().depth.clamp(1, MAX_PLY as u32 - 8);
        let mut done = 0;
        let mut counted = self.nodes;
        loop {
            let depth = team.shared_depth(done);
            if depth > max_depth {
                break;
            }
            let (found, _) = self.root_iteration(&mut order, depth, -INF, INF);
            team.add_nodes(self.nodes - counted);
            counted = self.nodes;
            if self.aborted {
                break;
            }
            let best = found.map_or(order[0].1, |f| f.0);
            order.sort_by(|a, b| (b.1 == best).cmp(&(a.1 == best)).then(b.0.cmp(&a.0)));
            done = depth;
        }
    }

    /// The root VCT within its share of the budget.
    fn vct_phase(&mut self, me: usize) -> Vct {
        self.start_phase(0.12, ROOT_VCT_NODES);
        let vct = self.root_vct(me, ROOT_VCT_DEPTH);
        self.end_phase();
        vct
    }

    /// A helper of the search from `board`: the first one runs the root
    /// VCT if the main thread has not, then every one helps the main
    /// search once the main thread has chosen the root moves.
    fn root_helper(&mut self, id: usize, team: &'_ Team, share: &RootShare) {
        if id == 1 && share.take_vct() {
            let guard = VctGuard(&share.vct);
            let me = color(self.b.side_to_move());
            let vct = self.vct_phase(me);
            let _ = share.vct.set(vct);
            drop(guard);
            team.add_nodes(self.nodes);
        }
        self.aborted = false;
        let limits = self.clock.limits();
        if let Some(roots) = wait_for(&share.roots, || limits.stop.is_stopped()) {
            self.help(roots, team);
        }
    }
}

/// Searches a gomoku position and renders the answer.
pub fn search(pos: &Gomoku, limits: &Limits, ws: &mut Workspace) -> SearchReport {
    let to_move = pos.side_to_move();
    let report = ReportBuilder::new(to_move);
    let tables = ws.extra::<Tables>();
    tables.start_search(limits);
    let tables: &Tables = tables;
    let mut engine = Engine::new((*pos.board).clone(), tables, limits);
    let me = color(to_move);
    let found = |report: ReportBuilder, best: Cell, pv: &[Cell]| {
        let (r, c) = pos.board.row_col(best);
        let best_move = MoveView {
            cell: Some((r, c)),
            notation: pos.notation(best),
        };
        report.line(best_move, pv.iter().map(|&c| pos.notation(c)).collect())
    };
    // A win the threat search proved before the main search: depth 1, as
    // the root's own move decides it.
    let proven_win = |report: ReportBuilder, first: Cell, pv: &[Cell], plies: u32, nodes: u64| {
        found(report, first, pv)
            .score(WIN - plies as i32)
            .depth(1)
            .nodes(nodes)
            .stopped(Stopped::Proven)
            .build()
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
        // directly): a pass with the game's result.
        let sign = if won { -1 } else { 0 };
        return report
            .score_and_proof(0, Some(Proof::of_sign(sign, 0)))
            .stopped(Stopped::Proven)
            .build();
    }
    // 1. A win on the spot.
    if let Some(c) = engine.b.first_win_point(me) {
        return proven_win(report, c, &[c], 1, 1);
    }
    let centre = engine.b.cell(pos.size() / 2, pos.size() / 2);
    let started = report.started();
    // Helpers, if any, join here: the first runs the root VCT beside the
    // main thread's VCF searches, then all search the main tree with it.
    let share = RootShare::default();
    let board = engine.b.clone();
    let (outcome, helper_nodes) = smp::with_helpers(
        limits,
        |id, limits, team| {
            let mut helper = Engine::new(board.clone(), tables, limits);
            helper.team = Some(team);
            helper.root_helper(id, team, &share);
        },
        |team| {
            let mut engine = engine;
            if team.has_helpers() {
                engine.team = Some(team);
            }
            let outcome = engine.threats_then_search(&legal, centre, started, team, &share);
            (outcome, engine.nodes)
        },
    );
    let (outcome, nodes) = outcome;
    let nodes = nodes + helper_nodes;
    match outcome {
        Outcome::Proven(plies, first, pv) => proven_win(report, first, &pv, plies, nodes),
        Outcome::Searched(result) => found(report, result.best, &result.pv)
            .score(result.score)
            .depth(result.depth)
            .nodes(nodes)
            .stopped(result.stopped)
            .build(),
    }
}

/// How the search of a position ended: a threat search proved a win
/// (plies, first move, line), or the main search answered.
enum Outcome {
    Proven(u32, Cell, Vec<Cell>),
    Searched(RootResult),
}

impl Engine<'_> {
    /// The main thread's search among the `legal` moves, after the
    /// obvious answers: the threat searches (the root VCT on a helper when
    /// one takes it), then alpha-beta over the candidates they leave.
    fn threats_then_search(
        &mut self,
        legal: &[Cell],
        centre: Cell,
        started: Instant,
        team: &Team,
        share: &RootShare,
    ) -> Outcome {
        let me = color(self.b.side_to_move());
        // 2. Our own VCF.
        self.start_phase(0.1, ROOT_VCF_NODES);
        let own_vcf = self.root_vcf(me);
        self.end_phase();
        if let Some((plies, first)) = own_vcf {
            let pv = self.vcf_line(me, plies);
            return Outcome::Proven(plies, first, pv);
        }
        // 3. The opponent's threats decide which moves are worth searching.
        let mut roots = legal.to_vec();
        let opp_fours = {
            let mut v = Vec::new();
            self.b.win_points(1 - me, &mut v);
            v
        };
        if opp_fours.is_empty() {
            self.start_phase(0.08, ROOT_OPP_VCF_NODES);
            let opp_vcf = self.root_vcf(1 - me);
            if opp_vcf.is_some() && !self.aborted {
                let defended = self.vcf_defences(me, legal);
                if !defended.is_empty() {
                    roots = defended;
                }
            }
            self.end_phase();
        }
        // 4. Our VCT, within a share of the budget (unless a helper runs
        // it meanwhile).
        let own_vct = !self.aborted && share.take_vct();
        if own_vct {
            let vct = self.vct_phase(me);
            let _ = share.vct.set(vct.clone());
            if let Some((plies, first, pv)) = vct {
                return Outcome::Proven(plies, first, pv);
            }
        }
        let helper_vct = !own_vct && share.vct_taken.load(Ordering::Relaxed);
        tracing::trace!(
            duration_ms = started.elapsed().as_millis() as u64,
            search.nodes = self.nodes,
            "gomoku root threat search done"
        );
        // 5. Alpha-beta over the candidates (the root keeps every legal
        // move near the stones, or all of them on an empty board).
        self.aborted = false;
        let near: Vec<Cell> = roots
            .iter()
            .copied()
            .filter(|&c| self.b.near(c) > 0)
            .collect();
        let roots = if near.is_empty() {
            if self.b.is_empty(centre) {
                vec![centre]
            } else {
                roots
            }
        } else if near.len() < roots.len() && opp_fours.is_empty() && roots.len() == legal.len() {
            near
        } else {
            roots
        };
        // Facing an open three, only its blocks and our own fours answer
        // it (as inside the tree).
        let roots = if opp_fours.is_empty() && self.b.flag_count(1 - me, flag::OPEN_FOUR) > 0 {
            let answers: Vec<Cell> = roots
                .iter()
                .copied()
                .filter(|&c| {
                    self.b.info(c, 1 - me).flags & flag::FOUR != 0
                        || self.b.info(c, me).flags & flag::FOUR != 0
                })
                .collect();
            if answers.is_empty() { roots } else { answers }
        } else {
            roots
        };
        let roots = share.roots.get_or_init(|| roots);
        let result = self.root_search(roots, team, share);
        // A VCT a helper runs decides if it proves a win: wait for it (it
        // keeps to its own share of the budget).
        if helper_vct {
            let limits = self.clock.limits();
            if let Some(Some((plies, first, pv))) =
                wait_for(&share.vct, || limits.stop.is_stopped())
            {
                return Outcome::Proven(*plies, *first, pv.clone());
            }
        }
        Outcome::Searched(result)
    }
}
