//! The strength ladder: matches between adjacent levels (`level` 1–10) in
//! every game, both colours, each move's seed fixed by the game and ply.
//! Prints, per pair, the higher level's wins, the lower level's, draws and
//! the higher level's score (a draw is half a point).
//!
//! `cargo bench --bench levels [-- GAME [GAMES_PER_PAIR]]` (tens of minutes
//! for all four games: level 10 thinks a full second or more per move).

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use gameai::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

async fn post(app: &Router, path: &str, body: Value) -> Value {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// Plies of each game's opening, picked at random (the same opening for
/// both colours of a pair of games), so that games differ.
fn opening_plies(game: &str) -> usize {
    match game {
        "tictactoe" => 1,
        "othello" => 4,
        "gomoku" => 3,
        _ => 2,
    }
}

/// One game; `Some(true)` if `high` won, `Some(false)` if `low` did.
async fn play(app: &Router, game: &str, high: u8, low: u8, index: u64) -> Option<bool> {
    let high_is_x = index % 2 == 0;
    // Gomoku opens in the centre; random first stones anywhere would be
    // no opening at all.
    let mut moves: Vec<String> = if game == "gomoku" {
        vec!["h8".to_owned()]
    } else {
        Vec::new()
    };
    while moves.len() < opening_plies(game) {
        let seed = (index / 2) * 100 + moves.len() as u64;
        let ask =
            json!({"game": game, "moves": moves, "depth": 1, "randomize": 200_000, "seed": seed});
        let answer = post(app, "/v1/search", ask).await;
        moves.push(answer["best_move"]["notation"].as_str().unwrap().to_owned());
    }
    loop {
        let position = json!({"game": game, "moves": moves});
        let described = post(app, "/v1/position", position.clone()).await;
        if described["status"] != "ongoing" {
            return described["winner"]
                .as_str()
                .map(|w| (w == "X") == high_is_x);
        }
        let x_to_move = described["to_move"] == "X";
        let level = if x_to_move == high_is_x { high } else { low };
        let mut ask = position;
        ask["level"] = json!(level);
        ask["seed"] = json!(index * 1000 + moves.len() as u64);
        let answer = post(app, "/v1/search", ask).await;
        let Some(mv) = answer["best_move"]["notation"].as_str() else {
            panic!("{game}: {answer}");
        };
        moves.push(mv.to_owned());
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let games: Vec<&str> = match args.first() {
        Some(g) => vec![g.as_str()],
        None => vec!["tictactoe", "connect4", "gomoku", "othello"],
    };
    let per_pair: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(20);
    let app = app(AppState::new(Config::defaults()));
    println!("| game | levels | games | higher wins | lower wins | draws | higher's score |");
    println!("|---|---|---|---|---|---|---|");
    for game in games {
        for low in 1..10u8 {
            let high = low + 1;
            let start = std::time::Instant::now();
            // Two games at a time: one per worker.
            let mut results = Vec::new();
            for pair in (0..per_pair).collect::<Vec<_>>().chunks(2) {
                let runs = pair.iter().map(|&i| {
                    let app = app.clone();
                    async move { play(&app, game, high, low, i).await }
                });
                results.extend(futures_util::future::join_all(runs).await);
            }
            let wins = results.iter().filter(|r| **r == Some(true)).count();
            let losses = results.iter().filter(|r| **r == Some(false)).count();
            let draws = results.len() - wins - losses;
            let score = (wins as f64 + draws as f64 / 2.0) / results.len() as f64;
            println!(
                "| {game} | {high} vs {low} | {} | {wins} | {losses} | {draws} | {:.0}% |",
                results.len(),
                score * 100.0
            );
            eprintln!("  ({game} {high} vs {low}: {:.0?})", start.elapsed());
        }
    }
}
