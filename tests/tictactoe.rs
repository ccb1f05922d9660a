//! Tic-tac-toe against an independent exact solver, and the pruned search
//! against plain minimax.

use std::collections::HashMap;

use gameai::games::tictactoe::TicTacToe;
use gameai::search::{self, GameTree, Limits, Outcome, Terminal, Workspace};

/// The board as this file's own solver sees it: 0 empty, 1 X, 2 O.
type Cells = [u8; 9];

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn winner(cells: &Cells) -> Option<u8> {
    LINES
        .iter()
        .find(|l| cells[l[0]] != 0 && cells[l[0]] == cells[l[1]] && cells[l[1]] == cells[l[2]])
        .map(|l| cells[l[0]])
}

/// The exact value for `mover`: positive wins, negative loses, 0 draws;
/// `100 - plies` in magnitude, so faster wins and slower losses rank higher.
fn solve(cells: &mut Cells, mover: u8, memo: &mut HashMap<Cells, i32>) -> i32 {
    if let Some(&v) = memo.get(cells) {
        return v;
    }
    let value = if winner(cells).is_some() {
        -100 // The previous mover completed a line.
    } else if cells.iter().all(|&c| c != 0) {
        0
    } else {
        let mut best = i32::MIN;
        for i in 0..9 {
            if cells[i] == 0 {
                cells[i] = mover;
                let child = -solve(cells, 3 - mover, memo);
                cells[i] = 0;
                // One ply further from the end, seen from here.
                best = best.max(child - child.signum());
            }
        }
        best
    };
    memo.insert(*cells, value);
    value
}

#[test]
fn every_reachable_position_is_solved_exactly() {
    let mut memo = HashMap::new();
    let mut ws = Workspace::default();
    let mut stack = vec![(TicTacToe::default(), [0u8; 9], 1u8)];
    let mut seen = HashMap::new();
    let mut checked = 0;
    while let Some((pos, cells, mover)) = stack.pop() {
        if seen.insert(cells, ()).is_some() {
            continue;
        }
        if pos.terminal().is_some() {
            continue;
        }
        let mut scratch = cells;
        let exact = solve(&mut scratch, mover, &mut memo);
        let result = search::search(&pos, &Limits::depth(9), &mut ws);
        let proof = result.proof.expect("every tic-tac-toe search is exact");
        let (expected_outcome, expected_plies) = match exact {
            0 => (
                Outcome::Draw,
                cells.iter().filter(|&&c| c == 0).count() as u32,
            ),
            v if v > 0 => (Outcome::Win, (100 - v) as u32),
            v => (Outcome::Loss, (100 + v) as u32),
        };
        assert_eq!(
            (proof.outcome, proof.plies),
            (expected_outcome, expected_plies),
            "{cells:?}"
        );

        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let best = result.best_move.expect("a move");
        let mut after = cells;
        after[best as usize] = mover;
        let child = -solve(&mut after, 3 - mover, &mut memo);
        assert_eq!(
            child - child.signum(),
            exact,
            "{cells:?}: {best} is not optimal"
        );
        assert_eq!(
            result.pv.len() as u32,
            expected_plies,
            "{cells:?}: the pv plays out the result"
        );

        for mv in moves {
            let mut next = pos;
            next.play(mv);
            let mut next_cells = cells;
            next_cells[mv as usize] = mover;
            stack.push((next, next_cells, 3 - mover));
        }
        checked += 1;
    }
    // 5,478 legal positions, of which 958 are finished.
    assert_eq!(checked, 5478 - 958);
}

/// Hashes the path (as base-10 digits, unique for 9 plies), not the
/// position: the table then never transposes,
/// so the pruned search must give exactly minimax's value at every depth.
#[derive(Clone)]
struct PathHashed {
    pos: TicTacToe,
    path: Vec<u64>,
}

impl GameTree for PathHashed {
    type Move = u8;

    fn side_to_move(&self) -> gameai::games::Player {
        self.pos.side_to_move()
    }
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        self.pos.generate_moves(moves)
    }
    fn play(&mut self, mv: u8) {
        let h = self.hash();
        self.path.push(h * 10 + u64::from(mv) + 1);
        self.pos.play(mv)
    }
    fn undo(&mut self, mv: u8) {
        self.path.pop();
        self.pos.undo(mv)
    }
    fn terminal(&self) -> Option<Terminal> {
        self.pos.terminal()
    }
    fn evaluate(&self) -> i32 {
        self.pos.evaluate()
    }
    fn hash(&self) -> u64 {
        self.path.last().copied().unwrap_or(1)
    }
    fn encode(mv: u8) -> u16 {
        TicTacToe::encode(mv)
    }
    fn immediate_win(&self) -> Option<u8> {
        self.pos.immediate_win()
    }
    fn order_hint(&self, mv: u8) -> i32 {
        self.pos.order_hint(mv)
    }
    fn notation(&self, mv: u8) -> String {
        self.pos.notation(mv)
    }
    fn cell(mv: u8) -> Option<(usize, usize)> {
        TicTacToe::cell(mv)
    }
}

#[test]
fn alpha_beta_agrees_with_minimax_at_every_depth() {
    let mut ws = Workspace::default();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    for _ in 0..200 {
        let mut pos = TicTacToe::default();
        for _ in 0..next(6) {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            pos.play(moves[next(moves.len())]);
            if pos.terminal().is_some() {
                break;
            }
        }
        if pos.terminal().is_some() {
            continue;
        }
        let remaining = pos.remaining_plies().unwrap();
        for depth in 1..=remaining {
            let wrapped = PathHashed {
                pos,
                path: Vec::new(),
            };
            let pruned = search::search(&wrapped, &Limits::depth(depth), &mut ws);
            let plain = search::minimax(&mut pos.clone(), depth, 0);
            if pruned.proof.is_none() || pruned.depth == depth {
                assert_eq!(pruned.score, plain, "{:?} at depth {depth}", pos.rows());
            }
        }
    }
}
