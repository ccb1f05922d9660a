//! Tic-tac-toe: solving from the empty board, against the seeds' figures.
//!
//! `cargo bench --bench tictactoe` prints nodes, the median time over many
//! runs, and nodes per second.

use std::time::Instant;

use gameai::games::tictactoe::TicTacToe;
use gameai::search::{self, Limits, Workspace};

fn main() {
    let mut ws = Workspace::default();
    let root = TicTacToe::default();
    let runs = 2_000;
    let mut times_ns = Vec::with_capacity(runs);
    let mut result = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = search::search(&root, &Limits::depth(9), &mut ws);
        times_ns.push(start.elapsed().as_nanos() as u64);
        result = Some(r);
    }
    times_ns.sort_unstable();
    let result = result.expect("at least one run");
    let median_ns = times_ns[runs / 2];
    let proof = result.proof.expect("the empty board is solved");
    println!("| search (empty board, depth 9) | nodes | median time | nodes/s | result |");
    println!("|---|---|---|---|---|");
    println!("| seeds' plain minimax | 549,946 | | | draw |");
    println!("| seeds' alpha-beta | ~17,000–18,000 | | | draw |");
    println!(
        "| gameai | {} | {:.1} µs | {:.1} M | {:?} in {} plies |",
        result.nodes,
        median_ns as f64 / 1000.0,
        result.nodes as f64 / (median_ns as f64 / 1e9) / 1e6,
        proof.outcome,
        proof.plies
    );
}
