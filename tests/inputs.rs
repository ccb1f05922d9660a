//! Hostile input never panics and never gets a 5xx: arbitrary bytes and
//! arbitrary well-formed requests for every game answer 2xx or a 4xx
//! problem+json.

mod common;

use axum::http::{Method, StatusCode};
use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Every game the server plays, from its registry.
fn games() -> Vec<&'static str> {
    gameai::games::GameKind::ALL
        .iter()
        .map(|g| g.name())
        .collect()
}

/// One app for every case: its pool and tables are built once.
static APP: std::sync::LazyLock<axum::Router> = std::sync::LazyLock::new(test_app);

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn check(reply: &Reply) {
    assert!(
        reply.status.is_success() || reply.status.is_client_error(),
        "status {}: {}",
        reply.status,
        reply.text
    );
    if !reply.status.is_success() {
        let ct = reply.headers.get("content-type").unwrap().to_str().unwrap();
        assert_eq!(ct, "application/problem+json");
        assert_eq!(reply.body["status"], reply.status.as_u16());
    }
}

fn row() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just('.'), Just('X'), Just('O'), Just('x'), any::<char>()],
        0..22,
    )
    .prop_map(|cells| cells.into_iter().collect())
}

fn notation() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u8..22, 0u8..22).prop_map(|(c, r)| format!("{}{}", (b'a' + c) as char, r)),
        (0u8..9).prop_map(|c| c.to_string()),
        Just("pass".to_owned()),
        ".{0,6}",
    ]
}

/// Requests that are often valid, so that searches run too, and often
/// subtly wrong.
fn request() -> impl Strategy<Value = Value> {
    use proptest::option::weighted;
    let moves = prop_oneof![
        3 => proptest::collection::vec(notation(), 0..3),
        3 => proptest::collection::vec((1u8..8).prop_map(|c| c.to_string()), 0..12),
        1 => proptest::collection::vec(notation(), 0..30),
    ];
    (
        prop_oneof![9 => proptest::sample::select(games()).prop_map(str::to_owned), 1 => ".{0,8}"],
        prop_oneof![Just(true), Just(false)],
        proptest::collection::vec(row(), 0..22),
        moves,
        weighted(0.2, prop_oneof![Just("X"), Just("O")]),
        weighted(
            0.2,
            prop_oneof![Just(15u32), Just(19), Just(20), Just(3), Just(7), 0u32..100],
        ),
        weighted(
            0.2,
            prop_oneof![
                Just("freestyle"),
                Just("standard"),
                Just("renju"),
                Just("x")
            ],
        ),
        weighted(0.3, -3i64..70),
        weighted(0.05, Just(())),
    )
        .prop_map(
            |(game, use_board, board, moves, to_move, size, rules, depth, both)| {
                let mut body = json!({"game": game, "time_ms": 20});
                let obj = body.as_object_mut().unwrap();
                if use_board || both.is_some() {
                    obj.insert("board".into(), json!(board));
                }
                if !use_board || both.is_some() {
                    obj.insert("moves".into(), json!(moves));
                }
                if let Some(t) = to_move {
                    obj.insert("to_move".into(), json!(t));
                }
                if let Some(s) = size {
                    obj.insert("size".into(), json!(s));
                }
                if let Some(r) = rules {
                    obj.insert("rules".into(), json!(r));
                }
                if let Some(d) = depth {
                    obj.insert("depth".into(), json!(d));
                }
                body
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_get_a_client_error(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let app = APP.clone();
        let reply = runtime().block_on(send(&app, Method::POST, "/v1/search", Some("application/json"), bytes));
        check(&reply);
        prop_assert!(reply.status.is_client_error() || reply.status == StatusCode::OK);
    }

    #[test]
    fn arbitrary_requests_never_fail_the_server(body in request()) {
        let app = APP.clone();
        let rt = runtime();
        let mut described = body.clone();
        for search_only in ["depth", "time_ms"] {
            described.as_object_mut().unwrap().remove(search_only);
        }
        let position = rt.block_on(post_json(&app, "/v1/position", described));
        check(&position);
        let search = rt.block_on(post_json(&app, "/v1/search", body));
        check(&search);
        if search.status == StatusCode::OK {
            // A legal answer for an ongoing position: the move is legal there.
            prop_assert_eq!(position.status, StatusCode::OK);
            let legal = position.body["legal_moves"].as_array().unwrap();
            prop_assert!(legal.contains(&search.body["best_move"]["notation"]), "{}", search.text);
        }
    }
}

/// Serde reads a struct from an array (`["tictactoe"]` as `{"game": ...}`);
/// the API takes objects only, as its schema says.
#[test]
fn arrays_are_not_objects() {
    runtime().block_on(async {
        let created = post_json(&APP, "/v1/sessions", json!({"game": "tictactoe"})).await;
        let id = created.body["id"].as_str().unwrap().to_owned();
        for (path, body) in [
            ("/v1/search".to_owned(), json!(["tictactoe", null, ["b2"]])),
            ("/v1/position".to_owned(), json!(["tictactoe"])),
            (
                "/v1/sessions".to_owned(),
                json!({"game": "tictactoe", "ai": ["O"]}),
            ),
            (format!("/v1/sessions/{id}/undo"), json!([null])),
            (
                "/v1/search/batch".to_owned(),
                json!({"items": [["tictactoe"]]}),
            ),
        ] {
            let reply = post_json(&APP, &path, body.clone()).await;
            assert_problem(&reply, StatusCode::BAD_REQUEST);
        }
    });
}
