//! The table budget holds for the whole process: with `GAMEAI_TT_MB=4`
//! and two workers, searches down every engine's heavy path (Connect
//! Four's solver, gomoku's engine, othello's midgame search and endgame
//! solver) keep the binary's peak resident memory under 64 MiB.

mod common;

use common::Server;
use gameai::games::GameKind;
use gameai::games::connect4::table::SolverTable;
use gameai::games::gomoku::tables::Tables as GomokuTables;
use gameai::games::othello::search::Tables as OthelloTables;
use gameai::games::othello::{self, Othello, PASS};
use serde_json::{Value, json};

#[test]
fn a_workspace_holding_every_table_stays_within_its_budget() {
    for mib in [1, 4, 32, 128, 1000] {
        let budget = mib << 20;
        let mut ws = GameKind::workspace(budget);
        let held = ws.tt().bytes()
            + ws.extra::<SolverTable>().bytes()
            + ws.extra::<GomokuTables>().bytes()
            + ws.extra::<OthelloTables>().bytes();
        assert!(
            held <= budget,
            "{held} bytes held for a budget of {mib} MiB"
        );
        // Power-of-two slots waste at most half of each part.
        assert!(held * 2 >= budget / 2, "{held} bytes of {mib} MiB used");
    }
}

/// Peak resident memory of process `pid`, in KiB (`VmHWM`).
fn peak_resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("procfs");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmHWM line")
}

/// An othello game played from the start by always taking the first legal
/// move, until `empties` squares are left: a position the solver finishes
/// in milliseconds.
fn othello_moves(empties: u32) -> Vec<String> {
    let mut pos = Othello::default();
    let mut moves = Vec::new();
    while pos.empties() > empties && !pos.is_over() {
        let mv = if pos.must_pass() {
            PASS
        } else {
            pos.legal_moves().trailing_zeros() as othello::Move
        };
        moves.push(othello::notation(mv));
        pos.play(mv);
    }
    moves
}

#[tokio::test]
async fn every_engine_stays_within_the_table_budget() {
    let server = Server::start(&[("GAMEAI_TT_MB", "4"), ("GAMEAI_WORKERS", "2")]);
    let client = reqwest::Client::new();
    let searches = [
        // The exact solver: a mid-game position, solved within the budget.
        json!({"game": "connect4", "moves": ["4", "4", "4", "4", "3", "5", "2", "6", "3"], "time_ms": 2000}),
        json!({"game": "gomoku", "moves": ["h8", "h9", "i9", "g7", "j10"], "time_ms": 300}),
        json!({"game": "othello", "moves": [], "depth": 7}),
        json!({"game": "othello", "moves": othello_moves(16), "depth": 60}),
    ];
    for round in 0..3 {
        for body in &searches {
            // Two at once, so that both workers set up their tables.
            let ask = || async {
                let reply = client
                    .post(server.url("/v1/search"))
                    .json(body)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(reply.status(), 200, "round {round}: {body}");
                reply.json::<Value>().await.unwrap()
            };
            let (a, b) = tokio::join!(ask(), ask());
            for answer in [a, b] {
                assert!(answer["best_move"]["notation"].is_string(), "{answer}");
            }
        }
    }
    let peak_mib = peak_resident_kib(server.child.id()) / 1024;
    println!("peak resident memory: {peak_mib} MiB");
    assert!(peak_mib < 64, "peak resident memory {peak_mib} MiB");
}
