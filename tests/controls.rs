//! The search controls, for every game: node budgets, multi-PV lines,
//! levels, seeded variety, streaming, batches and game analysis.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use axum::http::StatusCode;
use common::*;
use serde_json::{Value, json};

/// Each game with a middle-game position where searches take a while.
fn games() -> Vec<(&'static str, Value)> {
    vec![
        ("tictactoe", json!({"game": "tictactoe", "moves": "b2"})),
        // X opened off the centre: outside the opening book's lines.
        ("connect4", json!({"game": "connect4", "moves": "1122"})),
        ("gomoku", json!({"game": "gomoku", "moves": "h8 h9 i8 g9"})),
        // Past the opening book's ten plies.
        (
            "othello",
            json!({"game": "othello", "moves": "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4"}),
        ),
    ]
}

/// `base` with `extra`'s fields added.
fn with(base: &Value, extra: Value) -> Value {
    let mut out = base.clone();
    for (k, v) in extra.as_object().unwrap() {
        out[k] = v.clone();
    }
    out
}

/// `base`'s moves with `more` played after them.
fn after(base: &Value, more: &[&str]) -> Value {
    let mut moves: Vec<String> = base["moves"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if base["game"] == "connect4" {
        moves = base["moves"]
            .as_str()
            .unwrap()
            .chars()
            .map(String::from)
            .collect();
    }
    moves.extend(more.iter().map(|m| (*m).to_owned()));
    with(base, json!({"moves": moves}))
}

async fn search(app: &axum::Router, body: Value) -> Value {
    let reply = post_json(app, "/v1/search", body.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{body} -> {}", reply.text);
    reply.body
}

#[tokio::test]
async fn a_node_budget_stops_the_search_near_it() {
    let app = test_app();
    for (game, position) in games() {
        let budget: u64 = if game == "tictactoe" { 200 } else { 40_000 };
        let body = search(
            &app,
            with(&position, json!({"nodes": budget, "time_ms": 10_000})),
        )
        .await;
        let nodes = body["nodes"].as_u64().unwrap();
        assert_eq!(body["stopped"], "nodes", "{game}: {body}");
        // Engines read the budget every few thousand nodes at most.
        assert!(
            nodes >= budget / 2 && nodes <= budget + budget / 10 + 4096,
            "{game}: {nodes} nodes for a budget of {budget}"
        );
        assert!(body["best_move"]["notation"].is_string(), "{game}: {body}");
    }
}

/// A search stopped inside an iteration answers with the line of the last
/// complete one, not with what the cut iteration had reached (which can be
/// the move alone). Node budgets stop the search at a known point, and
/// several of them stop it at different places in the iteration.
#[tokio::test]
async fn a_search_cut_short_answers_with_a_whole_line() {
    let app = test_app();
    for (game, position) in games() {
        if game != "gomoku" && game != "othello" {
            continue;
        }
        for budget in [30_000u64, 70_000, 150_000, 310_000] {
            let body = search(
                &app,
                with(&position, json!({"nodes": budget, "time_ms": 10_000})),
            )
            .await;
            let pv = body["pv"].as_array().unwrap();
            let depth = body["depth"].as_u64().unwrap();
            assert_eq!(pv[0], body["best_move"]["notation"], "{game}: {body}");
            assert!(
                depth < 4 || pv.len() >= 2,
                "{game}, {budget} nodes: a {}-move line at depth {depth}: {body}",
                pv.len()
            );
        }
    }
}

#[tokio::test]
async fn multi_pv_lines_agree_with_single_searches_of_each_move() {
    let app = test_app();
    for (game, position) in games() {
        let depth = match game {
            "tictactoe" => 8,
            "connect4" => 9,
            _ => 4,
        };
        let body = search(
            &app,
            with(
                &position,
                json!({"multi_pv": 3, "depth": depth, "time_ms": 10_000}),
            ),
        )
        .await;
        let lines = body["lines"].as_array().expect("lines");
        assert_eq!(lines.len(), 3, "{game}: {body}");
        assert_eq!(body["best_move"], lines[0]["move"], "{game}");
        assert_eq!(body["score"], lines[0]["score"], "{game}");
        let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{game}: ranked {scores:?}"
        );
        for line in lines {
            let mv = line["move"]["notation"].as_str().unwrap();
            assert_eq!(line["pv"][0], mv, "{game}");
            let child = search(
                &app,
                with(
                    &after(&position, &[mv]),
                    json!({"depth": depth - 1, "time_ms": 10_000}),
                ),
            )
            .await;
            let child_score = child["score"].as_i64().unwrap();
            // One ply further from a proven end, from the other side.
            let expected = if child_score >= 99_000 {
                -child_score + 1
            } else if child_score <= -99_000 {
                -child_score - 1
            } else {
                -child_score
            };
            assert_eq!(
                line["score"], expected,
                "{game}: line {line} vs child {child}"
            );
        }
    }
}

#[tokio::test]
async fn multi_pv_as_many_as_the_legal_moves_scores_every_move() {
    let app = test_app();
    for (game, position) in games() {
        let described = post_json(&app, "/v1/position", position.clone()).await;
        let legal: BTreeSet<String> = described.body["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        let body = search(
            &app,
            with(
                &position,
                json!({"multi_pv": legal.len(), "depth": 2, "time_ms": 5_000}),
            ),
        )
        .await;
        let scored: BTreeSet<String> = body["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["move"]["notation"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(scored, legal, "{game}");
    }
}

#[tokio::test]
async fn the_same_seed_gives_the_same_move_and_seeds_vary_among_equal_moves() {
    let app = test_app();
    // Symmetric positions: several moves score the same.
    let symmetric = [
        json!({"game": "tictactoe", "moves": [], "depth": 9}),
        json!({"game": "connect4", "moves": "4", "depth": 8}),
        json!({"game": "gomoku", "moves": "h8", "depth": 2, "time_ms": 5_000}),
        json!({"game": "othello", "moves": [], "depth": 4}),
    ];
    for position in symmetric {
        let game = position["game"].clone();
        let mut picked = BTreeSet::new();
        for seed in 1..=12 {
            let ask = with(&position, json!({"randomize": true, "seed": seed}));
            let first = search(&app, ask.clone()).await;
            let again = search(&app, ask).await;
            assert_eq!(first["seed"], seed, "{game}: the seed is echoed");
            assert_eq!(
                first["best_move"], again["best_move"],
                "{game}: seed {seed} repeats"
            );
            picked.insert(first["best_move"]["notation"].as_str().unwrap().to_owned());
        }
        assert!(picked.len() >= 2, "{game}: always {picked:?}");
        // A pick stays within the margin of the best of the lines it was
        // chosen from.
        let limits = get(&app, "/v1/limits").await.body;
        let margin = limits["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == game)
            .unwrap()["default_margin"]
            .as_i64()
            .unwrap();
        for seed in 1..=4 {
            let body = search(
                &app,
                with(
                    &position,
                    json!({"randomize": true, "seed": seed, "multi_pv": 400}),
                ),
            )
            .await;
            let best = body["lines"][0]["score"].as_i64().unwrap();
            let score = body["score"].as_i64().unwrap();
            assert!(score >= best - margin, "{game}: {score} against {best}");
        }
    }
}

#[tokio::test]
async fn randomize_never_trades_a_proven_win() {
    let app = test_app();
    // X to move wins at c1 (or later elsewhere); a huge margin admits
    // every move, but only winning ones may be picked.
    let position = json!({"game": "tictactoe", "board": ["XX.", "OO.", "..."], "to_move": "X"});
    for seed in 0..20 {
        let body = search(
            &app,
            with(&position, json!({"randomize": 200_000, "seed": seed})),
        )
        .await;
        assert_eq!(body["proven"]["result"], "win", "seed {seed}: {body}");
    }
}

/// Plays `high` against `low` from the start, both colours, and returns
/// (wins of high, wins of low).
async fn level_match(app: &axum::Router, game: &str, high: u8, low: u8, games: u64) -> (u32, u32) {
    let (mut high_wins, mut low_wins) = (0, 0);
    for g in 0..games {
        let high_is_x = g % 2 == 0;
        let mut moves: Vec<String> = Vec::new();
        loop {
            let position = json!({"game": game, "moves": moves});
            let described = post_json(app, "/v1/position", position.clone()).await.body;
            if described["status"] != "ongoing" {
                let winner = described["winner"].as_str();
                match (winner, high_is_x) {
                    (Some("X"), true) | (Some("O"), false) => high_wins += 1,
                    (Some(_), _) => low_wins += 1,
                    (None, _) => {}
                }
                break;
            }
            let x_to_move = described["to_move"] == "X";
            let level = if x_to_move == high_is_x { high } else { low };
            let seed = g * 1000 + moves.len() as u64;
            let body = search(app, with(&position, json!({"level": level, "seed": seed}))).await;
            moves.push(body["best_move"]["notation"].as_str().unwrap().to_owned());
        }
    }
    (high_wins, low_wins)
}

#[tokio::test]
async fn a_higher_level_beats_a_lower_one() {
    let app = test_app();
    for (game, high, low) in [
        ("tictactoe", 10, 1),
        ("connect4", 7, 1),
        ("gomoku", 6, 1),
        ("othello", 6, 1),
    ] {
        let (h, l) = level_match(&app, game, high, low, 4).await;
        assert!(h > l, "{game}: level {high} won {h}, level {low} won {l}");
    }
}

/// The events of a Server-Sent Events body: (name, data).
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_owned(), serde_json::from_str(data).unwrap()))
        })
        .collect()
}

#[tokio::test]
async fn the_stream_sends_increasing_depths_then_the_result() {
    let app = test_app();
    for (game, position) in games() {
        let reply = post_json(
            &app,
            "/v1/search/stream",
            with(&position, json!({"time_ms": 300})),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.text);
        assert!(
            reply.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        let events = events(&reply.text);
        let (last, depths) = events.split_last().expect("events");
        assert_eq!(last.0, "result", "{game}: {}", reply.text);
        assert!(!depths.is_empty(), "{game}: no depth events");
        let seen: Vec<u64> = depths
            .iter()
            .map(|(name, data)| {
                assert_eq!(name, "depth");
                data["depth"].as_u64().unwrap()
            })
            .collect();
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{game}: {seen:?}");
        assert!(last.1["best_move"]["notation"].is_string(), "{game}");
    }
    // With lines, one event per line.
    let reply = post_json(
        &app,
        "/v1/search/stream",
        json!({"game": "tictactoe", "moves": [], "multi_pv": 9}),
    )
    .await;
    let events = events(&reply.text);
    assert_eq!(events.iter().filter(|e| e.0 == "line").count(), 9);
    assert_eq!(events.last().unwrap().0, "result");
}

#[tokio::test]
async fn a_stream_refuses_bad_input_before_it_starts() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/search/stream",
        json!({"game": "othello", "moves": "a1"}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn a_dropped_stream_frees_its_worker() {
    let server = Server::start(&[("GAMEAI_WORKERS", "1"), ("GAMEAI_QUEUE", "0")]);
    let client = reqwest::Client::new();
    for (game, position) in games() {
        // A search far longer than the test: the empty board or an opening.
        let long = with(&position, json!({"time_ms": 10_000, "moves": []}));
        let mut stream = client
            .post(server.url("/v1/search/stream"))
            .json(&long)
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status(), 200, "{game}");
        // The first event arrives, then the client hangs up.
        let first = tokio::time::timeout(Duration::from_secs(10), stream.chunk())
            .await
            .expect("an event in time")
            .unwrap();
        assert!(first.is_some(), "{game}");
        drop(stream);
        // The only worker is free again well before the 10 s search would end.
        let mut freed = false;
        for _ in 0..100 {
            let reply = client
                .post(server.url("/v1/search"))
                // Past the cache: only a worker may answer.
                .json(&json!({"game": "tictactoe", "moves": ["b2"], "cache": false}))
                .send()
                .await
                .unwrap();
            if reply.status() == 200 {
                freed = true;
                break;
            }
            assert_eq!(reply.status(), 503, "{game}");
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        assert!(
            freed,
            "{game}: the worker stayed busy after the stream closed"
        );
    }
}

#[tokio::test]
async fn a_batch_answers_every_item_in_order_with_a_problem_for_a_bad_one() {
    let app = test_app();
    for (game, position) in games() {
        let bad = json!({"game": game, "board": ["not a board"]});
        let reply = post_json(
            &app,
            "/v1/search/batch",
            json!({"items": [
                with(&position, json!({"depth": 2})),
                bad,
                with(&position, json!({"depth": 3})),
            ]}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.text);
        let results = reply.body["results"].as_array().unwrap();
        let statuses: Vec<u64> = results
            .iter()
            .map(|r| r["status"].as_u64().unwrap())
            .collect();
        assert_eq!(statuses, [200, 422, 200], "{game}: {}", reply.text);
        assert!(results[0]["result"]["depth"].as_u64().unwrap() <= 2);
        assert!(results[1]["problem"]["detail"].is_string());
        assert!(results[2]["result"]["best_move"].is_object());
    }
    // An item that breaks the schema refuses the whole batch.
    let malformed = post_json(
        &app,
        "/v1/search/batch",
        json!({"items": [{"game": "tictactoe"}, {"game": "tictactoe", "unknown_field": 1}]}),
    )
    .await;
    assert_problem(&malformed, StatusCode::BAD_REQUEST);
    let empty = post_json(&app, "/v1/search/batch", json!({"items": []})).await;
    assert_problem(&empty, StatusCode::UNPROCESSABLE_ENTITY);
    let too_many: Vec<Value> = (0..65).map(|_| json!({"game": "tictactoe"})).collect();
    let reply = post_json(&app, "/v1/search/batch", json!({"items": too_many})).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
}

async fn analyze(app: &axum::Router, body: Value) -> Value {
    let reply = post_json(app, "/v1/analyze", body.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{body} -> {}", reply.text);
    reply.body
}

fn marks(review: &Value) -> Vec<String> {
    review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mark"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn analysis_flags_a_planted_blunder() {
    let app = test_app();
    // Tic-tac-toe: after a1 b2 c3, O must take an edge; the corner a3 loses.
    let review = analyze(&app, json!({"game": "tictactoe", "moves": "a1 b2 c3 a3"})).await;
    assert_eq!(marks(&review)[3], "blunder", "{review}");
    assert_eq!(review["moves"][3]["side"], "O");
    assert_eq!(review["moves"][3]["proven_after"]["result"], "loss");
    assert_eq!(review["O"]["blunders"], 1);
    assert_eq!(review["X"]["blunders"], 0);

    // Connect Four: O leaves X's three in column 1 open.
    let review = analyze(&app, json!({"game": "connect4", "moves": "171716"})).await;
    assert_eq!(marks(&review)[5], "blunder", "{review}");
    assert_eq!(review["moves"][5]["best_move"], "1");

    // Gomoku: O ignores X's open three. O's earlier moves are sound: after
    // moves thrown away the engine proves X's win before the open three,
    // and a lost position has no blunder left to make.
    let review = analyze(
        &app,
        json!({"game": "gomoku", "moves": "h8 h7 i8 i7 j8 a1", "time_ms": 300}),
    )
    .await;
    let m = marks(&review);
    assert_eq!(m[5], "blunder", "{review}");
    assert!(m[..5].iter().all(|m| m != "blunder"), "{m:?}");

    // Othello: from a position the solver settles, a proven loss instead
    // of the proven win.
    let position = json!({"game": "othello", "moves": OTHELLO_LATE});
    let lines = search(&app, with(&position, json!({"multi_pv": 64}))).await;
    let lines = lines["lines"].as_array().unwrap();
    assert_eq!(lines[0]["proven"]["result"], "win", "{lines:?}");
    let losing = lines
        .iter()
        .find(|l| l["proven"]["result"] == "loss")
        .expect("a losing move");
    let mut moves: Vec<&str> = OTHELLO_LATE.split_whitespace().collect();
    let start = moves.len();
    moves.push(losing["move"]["notation"].as_str().unwrap());
    let review = analyze(&app, json!({"game": "othello", "moves": moves.join(" ")})).await;
    let m = marks(&review);
    assert_eq!(m[start], "blunder", "{review}");
}

/// An othello game near its end (from the engine's own play), where some
/// moves win and some lose.
const OTHELLO_LATE: &str = "f5 f6 e6 d6 c7 f4 e3 d7 c5 c4 e7 b5 a5 c6 d3 f2 e2 f3 b6 d1 f1 c2 g1 d2 g6 h7 g3 g4 h6 h5 h4 h3 c1 e1 b1 a1 g2 h1 g5 b8 d8 b2 h2 a6 h8 a4 g7 b4 c3";

#[tokio::test]
async fn analysis_refuses_illegal_moves_with_their_number() {
    let app = test_app();
    let reply = post_json(
        &app,
        "/v1/analyze",
        json!({"game": "tictactoe", "moves": "b2 b2"}),
    )
    .await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("move 2"), "{detail}");
    let reply = post_json(
        &app,
        "/v1/analyze",
        json!({"game": "tictactoe", "moves": "a1 b1 a2 b2 a3 b3"}),
    )
    .await;
    let detail = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(detail.contains("after the game ended"), "{detail}");
}

#[tokio::test]
async fn new_fields_are_checked() {
    let app = test_app();
    for (field, value, status) in [
        ("nodes", json!(0), StatusCode::UNPROCESSABLE_ENTITY),
        ("multi_pv", json!(0), StatusCode::UNPROCESSABLE_ENTITY),
        ("multi_pv", json!(401), StatusCode::UNPROCESSABLE_ENTITY),
        ("level", json!(11), StatusCode::UNPROCESSABLE_ENTITY),
        ("level", json!(0), StatusCode::UNPROCESSABLE_ENTITY),
        ("randomize", json!(-5), StatusCode::UNPROCESSABLE_ENTITY),
        ("randomize", json!("yes"), StatusCode::BAD_REQUEST),
        ("seed", json!(-1), StatusCode::UNPROCESSABLE_ENTITY),
        (
            "seed",
            json!(18_446_744_073_709_551_615_u64),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let body = json!({"game": "tictactoe", "moves": [], field: value});
        let reply = post_json(&app, "/v1/search", body.clone()).await;
        assert_problem(&reply, status);
        if status == StatusCode::UNPROCESSABLE_ENTITY {
            assert_eq!(reply.body["errors"][0]["field"], field, "{body}");
        }
    }
}

#[tokio::test]
async fn limits_report_the_table_budget() {
    let mut config = gameai::Config::defaults();
    config.tt_mb = 4;
    let app = gameai::app(gameai::AppState::new(config));
    let body = get(&app, "/v1/limits").await.body;
    assert_eq!(body["tt_mb"], 4, "{body}");
}

#[tokio::test]
async fn limits_list_the_caps() {
    let app = test_app();
    let limits = get(&app, "/v1/limits").await;
    assert_eq!(limits.status, StatusCode::OK);
    let body = limits.body;
    for key in [
        "max_time_ms",
        "max_nodes",
        "max_multi_pv",
        "max_level",
        "max_batch_items",
        "max_analyze_moves",
        "max_body_bytes",
        "workers",
        "queue",
    ] {
        assert!(body[key].as_u64().unwrap() > 0, "{key}: {body}");
    }
    let games = body["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    // The depth caps are the ones searches are checked against.
    for game in games {
        let max = game["max_depth"].as_u64().unwrap();
        let name = game["name"].as_str().unwrap();
        let over = post_json(
            &app,
            "/v1/search",
            json!({"game": name, "moves": [], "depth": max + 1}),
        )
        .await;
        assert_problem(&over, StatusCode::UNPROCESSABLE_ENTITY);
    }
}

#[tokio::test]
async fn a_session_ai_plays_at_a_level() {
    let app = test_app();
    for (game, _) in games() {
        let reply = post_json(
            &app,
            "/v1/sessions",
            json!({"game": game, "ai": {"plays": "both", "level": 1}}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
        let session = reply.body;
        assert_eq!(session["ai"]["level"], 1, "{session}");
        assert_eq!(
            session["ai"]["depth"], 1,
            "{game}: level 1 searches one ply"
        );
        let id = session["id"].as_str().unwrap();
        for _ in 0..4 {
            let reply = post_json(&app, &format!("/v1/sessions/{id}/ai-move"), json!({})).await;
            assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.text);
        }
    }
    let reply = post_json(
        &app,
        "/v1/sessions",
        json!({"game": "tictactoe", "ai": {"level": 11}}),
    )
    .await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply.body["errors"][0]["field"], "ai.level");
}
