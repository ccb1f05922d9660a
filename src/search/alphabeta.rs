//! The generic core: negamax alpha-beta with principal variation search,
//! iterative deepening, a transposition table, killer and history move
//! ordering, and proven results that carry their distance in plies, for
//! any game that implements [`GameTree`].

use std::time::Instant;

use super::{
    Bound, Clock, EVAL_LIMIT, GameTree, History, Killers, Limits, Proof, PvTable, Stopped,
    Terminal, TranspositionTable, WIN, Workspace, from_tt, proof_from_score, to_tt,
};

/// Encoded moves are below this (it sizes the history table).
pub const MOVE_SPACE: usize = 1024;

const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 128;

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best_move: Option<M>,
    /// The side to move's view: `WIN - p` for a win in `p` plies, the
    /// negation for a loss, otherwise a heuristic in `±EVAL_LIMIT`.
    pub score: i32,
    pub proof: Option<Proof>,
    /// The last completed iteration.
    pub depth: u32,
    /// Every position the search entered, root and leaves included.
    pub nodes: u64,
    pub pv: Vec<M>,
    pub stopped: Stopped,
}

/// Searches `root` by iterative deepening until a limit is reached or the
/// result is proven. The first iteration always completes (unless stopped
/// from outside), so a legal move comes back whenever one exists.
pub fn search<G: GameTree>(root: &G, limits: &Limits, ws: &mut Workspace) -> SearchResult<G::Move> {
    let tt = ws.tt();
    tt.new_search();
    let mut searcher = Searcher::<G> {
        tt,
        clock: Clock::new(limits),
        nodes: 0,
        aborted: false,
        killers: Killers::new(None),
        history: History::new(i32::MAX),
        move_bufs: (0..MAX_PLY).map(|_| Vec::new()).collect(),
        scored_bufs: (0..MAX_PLY).map(|_| Vec::new()).collect(),
        pv: PvTable::new(MAX_PLY),
    };
    let mut pos = root.clone();
    let mut result = SearchResult {
        best_move: None,
        score: 0,
        proof: None,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
        stopped: Stopped::Depth,
    };
    if let Some(t) = pos.terminal() {
        result.score = terminal_score(t, 0);
        result.nodes = 1;
        result.proof = Some(Proof::of_sign(result.score, 0));
        result.stopped = Stopped::Proven;
        return result;
    }
    let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
    // Iterative deepening pays for itself in time control and ordering, but
    // a tree the game calls small is cheaper solved in one pass.
    // A node budget needs the iterations: one pass could not stop early.
    let first = match root.remaining_plies() {
        Some(r) if r <= G::DIRECT_SOLVE_PLIES && limits.nodes.is_none() => max_depth.min(r.max(1)),
        _ => 1,
    };
    for depth in first..=max_depth {
        let iteration_start = Instant::now();
        searcher.clock.arm(depth > first);
        let score = searcher.negamax(&mut pos, depth, 0, -INFINITY, INFINITY);
        if searcher.aborted {
            result.stopped = limits.stop_reason(searcher.nodes);
            break;
        }
        result.depth = depth;
        result.score = score;
        result.pv = searcher.pv.line(0).to_vec();
        result.best_move = result.pv.first().copied();
        limits.report(depth, score, searcher.nodes, || {
            render_line(root, &result.pv)
        });
        result.proof = proof_from_score(score);
        if result.proof.is_none() && root.remaining_plies().is_some_and(|r| depth >= r) {
            result.proof = Some(Proof::of_sign(score, root.remaining_plies().unwrap_or(0)));
        }
        if result.proof.is_some() {
            result.stopped = Stopped::Proven;
            break;
        }
        // The core has no growth estimate: it stops only once a limit is
        // reached.
        if depth < max_depth {
            if let Some(stopped) =
                searcher
                    .clock
                    .stop_before_next(searcher.nodes, iteration_start, 0.0)
            {
                result.stopped = stopped;
                break;
            }
        }
    }
    result.nodes = searcher.nodes;
    if result.best_move.is_none() {
        // Stopped before the first iteration finished: any legal move.
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        result.best_move = moves.first().copied();
        result.pv = result.best_move.into_iter().collect();
    }
    result
}

/// A line of moves from `root`, in notation.
pub fn render_line<G: GameTree>(root: &G, line: &[G::Move]) -> Vec<String> {
    let mut pos = root.clone();
    line.iter()
        .map(|&mv| {
            let text = pos.notation(mv);
            pos.play(mv);
            text
        })
        .collect()
}

fn terminal_score(t: Terminal, ply: usize) -> i32 {
    match t {
        Terminal::Win => WIN - ply as i32,
        Terminal::Loss => -(WIN - ply as i32),
        Terminal::Draw => 0,
    }
}

struct Searcher<'a, G: GameTree> {
    tt: &'a mut TranspositionTable,
    /// Unarmed in the first iteration, so that a move always exists.
    clock: Clock<'a>,
    nodes: u64,
    aborted: bool,
    killers: Killers<Option<u16>, MAX_PLY>,
    history: History<MOVE_SPACE>,
    move_bufs: Vec<Vec<G::Move>>,
    scored_bufs: Vec<Vec<(i32, G::Move)>>,
    pv: PvTable<G::Move>,
}

impl<G: GameTree> Searcher<'_, G> {
    fn poll(&mut self) {
        // The node budget is exact (a compare per node); the clock and the
        // flag cost more to read.
        if self.clock.armed() && self.clock.limits().out_of_nodes(self.nodes) {
            self.aborted = true;
        }
        self.aborted |= self.clock.poll(self.nodes);
    }

    fn negamax(
        &mut self,
        pos: &mut G,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.pv.clear(ply);
        self.poll();
        if self.aborted {
            return 0;
        }
        if let Some(t) = pos.terminal() {
            return terminal_score(t, ply);
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            return pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }

        if let Some(mv) = pos.immediate_win() {
            self.pv.set_single(ply, mv);
            return WIN - ply as i32 - 1;
        }

        // Mate-distance pruning: no line from here beats a win on the next move.
        let best_possible = WIN - ply as i32 - 1;
        if best_possible < beta {
            beta = best_possible;
            if alpha >= beta {
                return beta;
            }
        }

        let key = pos.hash();
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.mv;
            // No cut-offs on the principal variation, so it comes back whole.
            let pv_node = beta - alpha > 1;
            if ply > 0 && !pv_node && u32::from(hit.depth) >= depth {
                let score = from_tt(hit.score, ply);
                if hit.bound.cuts(score, alpha, beta) {
                    return score;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        let mut scored = std::mem::take(&mut self.scored_bufs[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        self.order(pos, &moves, &mut scored, tt_move, ply);

        let alpha_orig = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &(_, mv)) in scored.iter().enumerate() {
            pos.play(mv);
            let score = if i == 0 {
                -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            pos.undo(mv);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.pv.update(ply, mv);
                }
            }
            if alpha >= beta {
                let code = G::encode(mv);
                self.killers.record(ply, Some(code));
                let side = pos.side_to_move() as usize;
                self.history.reward(side, code as usize, depth as i32);
                break;
            }
        }
        self.move_bufs[ply] = moves;
        self.scored_bufs[ply] = scored;
        if self.aborted {
            return 0;
        }

        let bound = Bound::of(best_score, alpha_orig, beta);
        let stored_move = (bound != Bound::Upper)
            .then(|| best_move.map(G::encode))
            .flatten();
        self.tt.store(
            key,
            depth.min(255) as u8,
            to_tt(best_score, ply),
            bound,
            stored_move,
        );
        best_score
    }

    /// Orders moves: the table's move, then killers, then the game's hint
    /// plus history.
    fn order(
        &self,
        pos: &G,
        moves: &[G::Move],
        scored: &mut Vec<(i32, G::Move)>,
        tt_move: Option<u16>,
        ply: usize,
    ) {
        let side = pos.side_to_move() as usize;
        scored.clear();
        let [killer, older_killer] = self.killers.at(ply);
        scored.extend(moves.iter().map(|&mv| {
            let code = G::encode(mv);
            let score = if Some(code) == tt_move {
                i32::MAX
            } else if Some(code) == killer {
                i32::MAX - 1
            } else if Some(code) == older_killer {
                i32::MAX - 2
            } else {
                pos.order_hint(mv)
                    .saturating_add(self.history.get(side, code as usize))
            };
            (score, mv)
        }));
        // Stable, so equal scores keep the game's generation order.
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    }
}

/// Plain minimax to a fixed depth, with no pruning and no table: the oracle
/// the pruned search is tested against. Scores use the same convention.
pub fn minimax<G: GameTree>(pos: &mut G, depth: u32, ply: usize) -> i32 {
    if let Some(t) = pos.terminal() {
        return terminal_score(t, ply);
    }
    if depth == 0 {
        return pos.evaluate().clamp(-EVAL_LIMIT, EVAL_LIMIT);
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut best = -INFINITY;
    for mv in moves {
        pos.play(mv);
        best = best.max(-minimax(pos, depth - 1, ply + 1));
        pos.undo(mv);
    }
    best
}
