//! The analysis cache and pondering, through the real binary over real
//! HTTP: repeated requests are answered from the cache by the rules the
//! API documents, two replicas share it through Redis, a Redis that is
//! down costs nothing but the sharing, and pondering makes the AI's answer
//! to the predicted reply deeper.
//!
//! The tests run one at a time: two of them compare search depths, which
//! another test's searches on the same cores would disturb.

mod common;

use std::time::{Duration, Instant};

use common::Server;
use common::redis::{Redis, free_port};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// An othello midgame: 18 moves in, 42 empties, no quick solve.
const MIDGAME: &str = "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4 b5 d2 e3 a6 c1 b1";

async fn post(server: &Server, path: &str, body: &Value) -> (StatusCode, Value) {
    let reply = reqwest::Client::new()
        .post(server.url(path))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = reply.status();
    (status, reply.json().await.unwrap_or(Value::Null))
}

async fn search(server: &Server, body: &Value) -> Value {
    let (status, answer) = post(server, "/v1/search", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

fn depth(answer: &Value) -> u64 {
    answer["depth"].as_u64().expect("a depth")
}

/// What a search found, without how long this answer took.
fn finding(answer: &Value) -> Value {
    json!([
        answer["best_move"],
        answer["score"],
        answer["proven"],
        answer["depth"],
        answer["nodes"],
        answer["pv"],
        answer["stopped"],
    ])
}

async fn metric(server: &Server, name: &str) -> f64 {
    let text = reqwest::get(server.url("/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter(|l| l.starts_with(name))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

#[tokio::test]
async fn a_deterministic_request_repeated_gives_the_identical_answer() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    let body = json!({"game": "othello", "moves": MIDGAME, "depth": 6});
    let first = search(&server, &body).await;
    assert_eq!(first["source"], "search", "{first}");
    let second = search(&server, &body).await;
    assert_eq!(second["source"], "cache", "{second}");
    assert_eq!(finding(&second), finding(&first));
    assert_eq!(second["nps"], 0, "no nodes were searched for this answer");

    // Another depth is another search, never answered by this one.
    let deeper = search(
        &server,
        &json!({"game": "othello", "moves": MIDGAME, "depth": 7}),
    )
    .await;
    assert_eq!(deeper["source"], "search", "{deeper}");
    assert_eq!(depth(&deeper), 7);

    // `cache: false` searches anew, and finds the same.
    let mut fresh = body.clone();
    fresh["cache"] = json!(false);
    let again = search(&server, &fresh).await;
    assert_eq!(again["source"], "search", "{again}");
    assert_eq!(finding(&again), finding(&first));

    assert!(metric(&server, "gameai_cache_hits_total").await >= 1.0);
    assert!(metric(&server, "gameai_cache_misses_total").await >= 2.0);
    assert!(metric(&server, "gameai_cache_stores_total").await >= 2.0);
    assert!(metric(&server, "gameai_cache_bytes").await > 0.0);
}

#[tokio::test]
async fn a_timed_search_asked_again_comes_from_the_cache_no_shallower() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    let body = json!({"game": "othello", "moves": MIDGAME, "time_ms": 1500});
    let first = search(&server, &body).await;
    assert_eq!(first["source"], "search", "{first}");
    assert_eq!(first["stopped"], "time", "{first}");

    let asked = Instant::now();
    let second = search(&server, &body).await;
    let took = asked.elapsed();
    assert_eq!(second["source"], "cache", "{second}");
    assert!(depth(&second) >= depth(&first), "{second} after {first}");
    assert_eq!(second["nodes"], first["nodes"]);
    // The answer's own time; the round trip is bounded generously (a
    // busy machine), the bench measures it.
    assert!(second["time_ms"].as_u64().unwrap() <= 50, "{second}");
    assert!(took < Duration::from_millis(1000), "{took:?}");

    // A smaller budget takes the deeper result; a larger one searches,
    // since nothing says how deep it would reach.
    let mut less = body.clone();
    less["time_ms"] = json!(500);
    assert_eq!(search(&server, &less).await["source"], "cache");
    let mut more = body.clone();
    more["time_ms"] = json!(2000);
    assert_eq!(search(&server, &more).await["source"], "search");

    // Random choices and several lines are searched every time.
    for extra in [json!({"randomize": true}), json!({"multi_pv": 2})] {
        let mut varied = less.clone();
        for (k, v) in extra.as_object().unwrap() {
            varied[k] = v.clone();
        }
        assert_eq!(
            search(&server, &varied).await["source"],
            "search",
            "{extra}"
        );
    }
}

#[tokio::test]
async fn replicas_sharing_redis_share_the_cache() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let Some(redis) = Redis::start(None) else {
        return;
    };
    let url = redis.url();
    let envs = [
        ("GAMEAI_CACHE_STORE", url.as_str()),
        ("GAMEAI_WORKERS", "1"),
    ];
    let (one, two) = (Server::start(&envs), Server::start(&envs));
    let body = json!({"game": "othello", "moves": MIDGAME, "time_ms": 300});
    let searched = search(&one, &body).await;
    assert_eq!(searched["source"], "search", "{searched}");
    // The write to Redis happens after the answer (within 100 ms, or not
    // at all); a busy machine gets more.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let shared = search(&two, &body).await;
    assert_eq!(shared["source"], "cache", "{shared}");
    // The very same search: a search of its own would count other nodes.
    assert_eq!(finding(&shared), finding(&searched));
}

#[tokio::test]
async fn with_redis_down_the_service_searches_as_usual() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let nowhere = format!("redis://127.0.0.1:{}/0", free_port());
    let server = Server::start(&[("GAMEAI_CACHE_STORE", nowhere.as_str())]);
    let body = json!({"game": "othello", "moves": MIDGAME, "time_ms": 100});
    let asked = Instant::now();
    let first = search(&server, &body).await;
    assert_eq!(first["source"], "search", "{first}");
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    // This replica's own memory still answers.
    let second = search(&server, &body).await;
    assert_eq!(second["source"], "cache", "{second}");
    assert!(metric(&server, "gameai_cache_store_errors_total").await >= 1.0);
}

/// Plays an othello session against the AI (O, 500 ms a move): after the
/// AI's first move, waits 3 s, plays the reply the AI predicted and
/// returns the AI's answer to it.
async fn answer_to_predicted_reply(ponder: &str) -> Value {
    let server = Server::start(&[("GAMEAI_PONDER", ponder), ("GAMEAI_WORKERS", "1")]);
    // Eleven moves in, past the opening book (so the AI searches and
    // predicts a reply): O to move, so the AI moves at once.
    let (status, session) = post(
        &server,
        "/v1/sessions",
        &json!({
            "game": "othello",
            "moves": "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6",
            "ai": {"plays": "O", "time_ms": 500},
        }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{session}");
    let predicted = session["ai_search"]["pv"][1]
        .as_str()
        .unwrap_or_else(|| panic!("the AI predicts a reply: {session}"))
        .to_owned();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let id = session["id"].as_str().unwrap();
    let (status, after) = post(
        &server,
        &format!("/v1/sessions/{id}/moves"),
        &json!({"move": predicted}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let answer = after["ai_search"].clone();
    if ponder == "on" {
        assert!(metric(&server, "gameai_ponder_hits_total").await >= 1.0);
        assert!(metric(&server, "gameai_ponder_seconds_count").await >= 1.0);
    }
    answer
}

#[tokio::test]
async fn pondering_answers_the_predicted_reply_deeper() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let without = answer_to_predicted_reply("off").await;
    let with = answer_to_predicted_reply("on").await;
    assert_eq!(without["source"], "search", "{without}");
    assert_eq!(with["source"], "cache", "{with}");
    eprintln!(
        "the predicted reply answered at depth {} pondered, {} without",
        depth(&with),
        depth(&without)
    );
    assert!(
        depth(&with) >= depth(&without) + 2,
        "pondered {with} against {without}"
    );
}

#[tokio::test]
async fn a_connect4_position_and_its_mirror_image_share_an_entry() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let server = Server::start(&[("GAMEAI_WORKERS", "1")]);
    // Off the opening book: X opened in a corner column.
    let left = json!({"game": "connect4", "moves": "112", "time_ms": 200});
    let right = json!({"game": "connect4", "moves": "776", "time_ms": 200});
    let searched = search(&server, &left).await;
    assert_eq!(searched["source"], "search", "{searched}");
    let mirrored = search(&server, &right).await;
    assert_eq!(mirrored["source"], "cache", "{mirrored}");
    let mirror = |notation: &Value| {
        let col: u32 = notation.as_str().unwrap().parse().unwrap();
        json!((8 - col).to_string())
    };
    assert_eq!(
        mirrored["best_move"]["notation"],
        mirror(&searched["best_move"]["notation"])
    );
    assert_eq!(
        mirrored["best_move"]["col"].as_u64().unwrap(),
        6 - searched["best_move"]["col"].as_u64().unwrap()
    );
    assert_eq!(mirrored["best_move"]["row"], searched["best_move"]["row"]);
    let pv: Vec<Value> = searched["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(mirror)
        .collect();
    assert_eq!(mirrored["pv"], json!(pv));
    assert_eq!(
        (&mirrored["score"], &mirrored["depth"], &mirrored["nodes"]),
        (&searched["score"], &searched["depth"], &searched["nodes"])
    );
    // Without a time limit, each orientation is its own search.
    let exact = json!({"game": "connect4", "moves": "776", "depth": 8});
    assert_eq!(search(&server, &exact).await["source"], "search");
    assert_eq!(search(&server, &exact).await["source"], "cache");
}
