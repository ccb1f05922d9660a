//! Othello's opening book: what it holds is well formed and legal, and the
//! service answers the opening from it at once, except where a request
//! asks for a shallower search, a strength level or a random choice.

mod common;

use axum::http::StatusCode;
use common::{post_json, test_app};
use gameai::games::othello::bitboard::{flips, moves, transform};
use gameai::games::othello::book;
use serde_json::{Value, json};

/// The start position as (side to move, opponent).
const START: (u64, u64) = (1 << 28 | 1 << 35, 1 << 27 | 1 << 36);

#[test]
fn every_entry_is_a_stored_form_with_a_legal_move() {
    let entries = book::entries();
    assert!(entries.len() >= 900, "{} positions", entries.len());
    for pair in entries.windows(2) {
        assert!(
            (pair[0].p, pair[0].o) < (pair[1].p, pair[1].o),
            "sorted, once each"
        );
    }
    for e in entries {
        assert_eq!(e.p & e.o, 0);
        let discs = (e.p | e.o).count_ones();
        assert!((4..=13).contains(&discs), "{discs} discs");
        assert_eq!(book::canonical(e.p, e.o).0, (e.p, e.o), "the smallest form");
        assert!(moves(e.p, e.o) >> e.book.mv & 1 == 1, "legal");
        assert!(e.book.depth >= 8);
        assert_eq!(book::lookup(e.p, e.o).map(|b| b.score), Some(e.book.score));
    }
}

/// The position after `mv`, in its stored form.
fn after(p: u64, o: u64, mv: u8) -> (u64, u64) {
    let f = flips(p, o, usize::from(mv));
    book::canonical(o & !f, p | f | 1 << mv).0
}

#[test]
fn every_symmetric_form_of_a_position_finds_its_move() {
    for e in book::entries().iter().step_by(7) {
        for s in 0..8 {
            let (p, o) = (transform(s, e.p), transform(s, e.o));
            let found = book::lookup(p, o).expect("in the book");
            // The same move seen through the symmetry (or, in a symmetric
            // position, one that leads to the same position).
            assert_eq!(after(p, o, found.mv), after(e.p, e.o, e.book.mv));
            assert_eq!(found.score, e.book.score);
        }
    }
}

#[test]
fn the_book_follows_its_own_line_from_the_start() {
    let (mut p, mut o) = START;
    let mut plies = 0;
    while let Some(b) = book::lookup(p, o) {
        let f = flips(p, o, usize::from(b.mv));
        (p, o) = (o & !f, p | f | 1 << b.mv);
        plies += 1;
    }
    assert!(
        plies >= 8,
        "the book's own line leaves it after {plies} plies"
    );
}

async fn search(body: Value) -> Value {
    let reply = post_json(&test_app(), "/v1/search", body).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body
}

#[tokio::test]
async fn the_opening_is_answered_from_the_book_at_once() {
    for moves in [
        json!([]),
        json!(["f5"]),
        json!(["f5", "d6"]),
        json!("e6 f4 c3"),
    ] {
        let answer = search(json!({"game": "othello", "moves": moves, "time_ms": 1000})).await;
        assert_eq!(answer["source"], "book", "{moves}: {answer}");
        assert_eq!(answer["nodes"], 0, "{answer}");
        assert!(answer["time_ms"].as_u64().unwrap() < 100, "{answer}");
        assert!(answer["proven"].is_null(), "{answer}");
        assert!(!answer["pv"].as_array().unwrap().is_empty(), "{answer}");
    }
    // The first move: one of the four, and the same for the default search.
    let answer = search(json!({"game": "othello", "moves": []})).await;
    assert_eq!(answer["source"], "book", "{answer}");
    let first = answer["best_move"]["notation"].as_str().unwrap();
    assert!(["d3", "c4", "f5", "e6"].contains(&first), "{first}");
}

#[tokio::test]
async fn shallow_searches_levels_and_random_choices_search() {
    let position = json!({"game": "othello", "moves": ["f5"]});
    let with = |extra: Value| {
        let mut body = position.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for extra in [
        json!({"depth": 4}),
        json!({"level": 6, "seed": 1}),
        json!({"randomize": true, "seed": 1, "depth": 6}),
        json!({"multi_pv": 2, "depth": 6}),
    ] {
        let answer = search(with(extra.clone())).await;
        assert_eq!(answer["source"], "search", "{extra}: {answer}");
    }
}
