//! The worked examples the OpenAPI document carries: a request and its
//! answer for every route, and for the search and position routes one of
//! each per game. A test in the parent module sends each one a client can
//! send as it is, and checks the answer is the example's.

use serde_json::{Value, json};

/// Puts a request and an answer example on `operation` (the `GET` and
/// `POST` of one path share nothing but the answer), or one of each per
/// game where the route has them.
pub(super) fn add_example(method: &str, path: &str, operation: &mut Value) {
    if let Some(games) = game_examples(method, path) {
        add_game_examples(games, operation);
        return;
    }
    let Some((request, answer)) = example(method, path) else {
        return;
    };
    if let Some(request) = request
        && let Some(content) = operation["requestBody"]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["example"] = request;
    }
    let ok = ["200", "201", "204"]
        .into_iter()
        .find(|s| operation["responses"].get(*s).is_some());
    if let Some(ok) = ok
        && let Some(content) = operation["responses"][ok]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["example"] = answer;
    }
}

/// One worked example: its name, what it shows, the request and the
/// answer.
struct GameExample {
    name: &'static str,
    summary: &'static str,
    request: Value,
    answer: Value,
}

/// Puts each game's example on `operation` as named `examples` of its
/// request body and of its success answer.
fn add_game_examples(games: Vec<GameExample>, operation: &mut Value) {
    let named = |pick: fn(&GameExample) -> &Value| -> Value {
        games
            .iter()
            .map(|g| {
                let example = json!({"summary": g.summary, "value": pick(g)});
                (g.name.to_owned(), example)
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    if let Some(content) = operation["requestBody"]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["examples"] = named(|g| &g.request);
    }
    if let Some(content) = operation["responses"]["200"]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["examples"] = named(|g| &g.answer);
    }
}

/// Per game, the routes whose answer depends most on the game: a search
/// and a position's description, as the server gives them.
fn game_examples(method: &str, path: &str) -> Option<Vec<GameExample>> {
    match (method, path) {
        ("post", "/v1/search") => Some(vec![
            GameExample {
                name: "connect4",
                summary: "Connect Four, from the opening book: X wins in 39 plies",
                request: json!({"game": "connect4", "moves": "44"}),
                answer: json!({
                    "best_move": {"row": 3, "col": 3, "notation": "4"}, "score": 99961,
                    "proven": {"result": "win", "plies": 39}, "depth": 40, "nodes": 0,
                    "time_ms": 0, "nps": 0, "pv": ["4", "4", "4", "4", "3", "2", "6"],
                    "stopped": "proven", "to_move": "X", "source": "book"
                }),
            },
            GameExample {
                name: "gomoku",
                summary: "Gomoku (15×15 freestyle): black makes its open three an open four",
                request: json!({"game": "gomoku", "moves": "h8 h9 i8 i9 j8 a1"}),
                answer: json!({
                    "best_move": {"row": 7, "col": 6, "notation": "g8"}, "score": 99997,
                    "proven": {"result": "win", "plies": 3}, "depth": 1, "nodes": 1,
                    "time_ms": 0, "nps": 1000, "pv": ["g8", "f8", "k8"],
                    "stopped": "proven", "to_move": "X", "source": "search"
                }),
            },
            GameExample {
                name: "othello",
                summary: "Othello, 8 plies deep",
                request: json!({"game": "othello", "moves": "f5 d6", "depth": 8}),
                answer: json!({
                    "best_move": {"row": 3, "col": 2, "notation": "c4"}, "score": 8,
                    "proven": null, "depth": 8, "nodes": 12891, "time_ms": 1, "nps": 12891000,
                    "pv": ["c4", "b3", "b4", "d3", "c3", "f3", "c2"],
                    "stopped": "depth", "to_move": "X", "source": "search"
                }),
            },
            GameExample {
                name: "tictactoe",
                summary: "Tic-tac-toe from a board: X wins in 5 plies",
                request: json!({"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9}),
                answer: tictactoe_search(),
            },
        ]),
        ("post", "/v1/position") => Some(vec![
            GameExample {
                name: "connect4",
                summary: "Connect Four after four moves",
                request: json!({"game": "connect4", "moves": "4453"}),
                answer: json!({
                    "to_move": "X", "status": "ongoing", "winner": null, "winning_line": [],
                    "legal_moves": ["1", "2", "3", "4", "5", "6", "7"], "forbidden": [],
                    "board": [".......", ".......", ".......", ".......", "...O...", "..OXX.."]
                }),
            },
            GameExample {
                name: "gomoku",
                summary: "Gomoku: black's five on row 8 has won",
                request: json!({"game": "gomoku", "moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8"}),
                answer: json!({
                    "to_move": "O", "status": "win", "winner": "X",
                    "winning_line": ["h8", "i8", "j8", "k8", "l8"], "legal_moves": [],
                    "forbidden": [],
                    "board": ["O..............", "O..............", "O..............",
                        "O..............", "...............", "...............",
                        "...............", ".......XXXXX...", "...............",
                        "...............", "...............", "...............",
                        "...............", "...............", "..............."]
                }),
            },
            GameExample {
                name: "othello",
                summary: "Othello from a board, which needs to_move",
                request: json!({"game": "othello", "to_move": "O",
                    "board": ["........", "........", "........", "...OX...",
                        "...XX...", "....X...", "........", "........"]}),
                answer: json!({
                    "to_move": "O", "status": "ongoing", "winner": null, "winning_line": [],
                    "legal_moves": ["f4", "d6", "f6"], "forbidden": [],
                    "board": ["........", "........", "........", "...OX...",
                        "...XX...", "....X...", "........", "........"]
                }),
            },
            GameExample {
                name: "tictactoe",
                summary: "Tic-tac-toe: a won game, with its winning line",
                request: json!({"game": "tictactoe", "board": ["OX.", "OX.", ".X."]}),
                answer: json!({
                    "to_move": "O", "status": "win", "winner": "X",
                    "winning_line": ["b1", "b2", "b3"], "legal_moves": [], "forbidden": [],
                    "board": ["OX.", "OX.", ".X."]
                }),
            },
        ]),
        _ => None,
    }
}

/// The tic-tac-toe search that the search and batch examples share.
fn tictactoe_search() -> Value {
    json!({
        "best_move": {"row": 2, "col": 0, "notation": "a3"}, "score": 99995,
        "proven": {"result": "win", "plies": 5}, "depth": 7, "nodes": 98, "time_ms": 0,
        "nps": 98000, "pv": ["a3", "a2", "c3", "b3", "b2"], "stopped": "proven",
        "to_move": "X", "source": "search"
    })
}

/// A worked example per route: the request body (if any) and the answer,
/// as the server gives them.
fn example(method: &str, path: &str) -> Option<(Option<Value>, Value)> {
    let search = tictactoe_search();
    let session = |moves: Value, board: Value, version: u64| {
        json!({
            "id": "a126322e-9403-4374-a5f4-56f33659a6da", "game": "tictactoe", "size": 3,
            "rules": null, "board": board, "to_move": "X", "status": "ongoing", "winner": null,
            "winning_line": [], "legal_moves": ["b1", "c1", "a2", "c2", "a3", "b3", "c3"],
            "moves": moves, "ai": {"plays": "O", "depth": 9, "time_ms": 1000}, "version": version,
            "created_at": "2026-11-30T23:32:35.473Z", "updated_at": "2026-11-30T23:32:35.768Z"
        })
    };
    let after_reply = || {
        let mut s = session(json!(["b2", "a1"]), json!(["O..", ".X.", "..."]), 2);
        s["ai_search"] = json!({
            "best_move": {"row": 0, "col": 0, "notation": "a1"}, "score": 0,
            "proven": {"result": "draw", "plies": 8}, "depth": 8, "nodes": 101, "time_ms": 0,
            "nps": 101000, "pv": ["a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
            "stopped": "proven", "to_move": "O", "source": "search"
        });
        s
    };
    Some(match (method, path) {
        ("post", "/v1/search/stream") => (
            Some(json!({"game": "tictactoe", "moves": "b2 a1", "depth": 3})),
            json!({"event": "depth", "data": "{\"depth\":3,\"score\":4,\"pv\":[\"c2\",\"a2\",\"a3\"],\"nodes\":52,\"time_ms\":0}"}),
        ),
        ("get", "/v1/search/stream") => (
            None,
            json!({"event": "result", "data": "{\"best_move\":{\"row\":3,\"col\":2,\"notation\":\"c4\"},\"score\":43,\"proven\":null,\"depth\":12,\"nodes\":758843,\"time_ms\":186,\"nps\":4079801,\"pv\":[\"c4\",\"d3\",\"c3\"],\"stopped\":\"time\",\"to_move\":\"X\",\"source\":\"search\"}"}),
        ),
        ("post", "/v1/search/batch") => (
            Some(
                json!({"items": [{"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9}]}),
            ),
            json!({"results": [{"status": 200, "result": search}]}),
        ),
        ("post", "/v1/analyze") => (
            Some(json!({"game": "tictactoe", "moves": ["b2", "a1"], "depth": 9})),
            json!({"moves": [
                {"ply": 1, "side": "X", "move": "b2", "best_move": "b2",
                 "best_pv": ["b2", "a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
                 "score_before": 0, "score_after": 0, "loss": 0,
                 "proven_before": {"result": "draw", "plies": 9},
                 "proven_after": {"result": "draw", "plies": 9}, "mark": "best"},
                {"ply": 2, "side": "O", "move": "a1", "best_move": "a1",
                 "best_pv": ["a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
                 "score_before": 0, "score_after": 0, "loss": 0,
                 "proven_before": {"result": "draw", "plies": 8},
                 "proven_after": {"result": "draw", "plies": 8}, "mark": "best"}],
                "X": {"moves": 1, "mistakes": 0, "blunders": 0, "average_loss": 0.0},
                "O": {"moves": 1, "mistakes": 0, "blunders": 0, "average_loss": 0.0},
                "threshold": 2, "time_ms_per_position": 200, "time_ms": 0}),
        ),
        ("get", "/v1/games") => (
            None,
            json!({"games": [
                {"name": "tictactoe", "title": "Tic-tac-toe", "sizes": [3], "default_size": 3,
                    "rules": [], "default_rules": null, "default_depth": 9, "max_depth": 9,
                    "default_time_ms": 1000,
                    "notation": "cell: column letter a-c, then row 1-3 from the top (a1 top-left)",
                    "start": ["...", "...", "..."], "gravity": false, "column_notation": false,
                    "passes": false, "flips": false, "forbidden_points": false},
                {"name": "connect4", "title": "Connect Four", "sizes": [7], "default_size": 7,
                    "rules": [], "default_rules": null, "default_depth": 42, "max_depth": 42,
                    "default_time_ms": 4000,
                    "notation": "column digit 1-7 from the left; a disc drops to the lowest empty cell",
                    "start": [".......", ".......", ".......", ".......", ".......", "......."],
                    "gravity": true, "column_notation": true, "passes": false, "flips": false,
                    "forbidden_points": false},
                {"name": "gomoku", "title": "Gomoku", "sizes": [15, 19, 20], "default_size": 15,
                    "rules": ["freestyle", "standard", "renju"], "default_rules": "freestyle",
                    "default_depth": 60, "max_depth": 60, "default_time_ms": 1000,
                    "notation": "cell: column letter (a-o on 15×15, a-t on 20×20), then row from the top, 1-based (a1 top-left, h8 the centre of 15×15)",
                    "start": ["...............", "...............", "...............",
                        "...............", "...............", "...............",
                        "...............", "...............", "...............",
                        "...............", "...............", "...............",
                        "...............", "...............", "..............."],
                    "gravity": false, "column_notation": false, "passes": false, "flips": false,
                    "forbidden_points": true},
                {"name": "othello", "title": "Othello", "sizes": [8], "default_size": 8,
                    "rules": [], "default_rules": null, "default_depth": 60, "max_depth": 60,
                    "default_time_ms": 1000,
                    "notation": "square: column letter a-h, then row 1-8 from the top (a1 top-left); or \"pass\"",
                    "start": ["........", "........", "........", "...OX...", "...XO...",
                        "........", "........", "........"],
                    "gravity": false, "column_notation": false, "passes": true, "flips": true,
                    "forbidden_points": false}
            ]}),
        ),
        ("get", "/v1/limits") => (
            None,
            json!({"max_time_ms": 10000, "max_nodes": 100_000_000_000_u64, "max_multi_pv": 400,
                "max_level": 10, "max_batch_items": 64, "max_analyze_moves": 400,
                "max_body_bytes": 65536, "workers": 2, "queue": 64, "tt_mb": 128,
                "games": [
                    {"name": "tictactoe", "max_depth": 9, "default_depth": 9,
                        "default_time_ms": 1000, "default_margin": 1,
                        "default_mistake_threshold": 2},
                    {"name": "connect4", "max_depth": 42, "default_depth": 42,
                        "default_time_ms": 4000, "default_margin": 2,
                        "default_mistake_threshold": 4},
                    {"name": "gomoku", "max_depth": 60, "default_depth": 60,
                        "default_time_ms": 1000, "default_margin": 30,
                        "default_mistake_threshold": 300},
                    {"name": "othello", "max_depth": 60, "default_depth": 60,
                        "default_time_ms": 1000, "default_margin": 60,
                        "default_mistake_threshold": 400}]}),
        ),
        ("post", "/v1/sessions") => (
            Some(json!({"game": "tictactoe", "ai": {"plays": "O", "depth": 9}})),
            {
                let mut s = session(json!([]), json!(["...", "...", "..."]), 1);
                s["legal_moves"] = json!(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]);
                s
            },
        ),
        ("get", "/v1/sessions/{id}") => (
            None,
            session(json!(["b2", "a1"]), json!(["O..", ".X.", "..."]), 2),
        ),
        ("delete", "/v1/sessions/{id}") => return None,
        ("post", "/v1/sessions/{id}/moves") => (
            Some(json!({"move": "b2", "expected_version": 1})),
            after_reply(),
        ),
        ("post", "/v1/sessions/{id}/ai-move") => {
            (Some(json!({"expected_version": 1})), after_reply())
        }
        ("post", "/v1/sessions/{id}/undo") => (
            Some(json!({"expected_version": 2})),
            session(json!([]), json!(["...", "...", "..."]), 3),
        ),
        ("get", "/v1/sessions/{id}/record") => (None, json!("b2 a1")),
        ("get", "/healthz") => (None, json!({"status": "ok"})),
        ("get", "/readyz") => (None, json!({"status": "ok"})),
        ("get", "/metrics") => (
            None,
            json!(
                "# TYPE gameai_searches_total counter\ngameai_searches_total{game=\"tictactoe\",stopped=\"proven\"} 3\n"
            ),
        ),
        ("get", "/openapi.yaml") => (None, json!("openapi: 3.1.0\ninfo:\n  title: gameai\n...")),
        _ => return None,
    })
}
