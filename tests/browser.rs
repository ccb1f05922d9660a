//! The play page at `/` in a real browser: headless chromium driven through
//! chromedriver against the real binary. Each test is one scenario, on a
//! fresh page of its own server in one browser the tests share by turns: a
//! whole tic-tac-toe game by clicking, a few moves of gomoku, othello and
//! Connect Four, AI against AI with a pause, a hint and an undo; the
//! service's errors (an illegal move, a full queue, a missing API key) as
//! messages on a page that keeps working; the layout at phone width. After
//! each, the console holds no script error. Screenshots go to
//! `target/browser-screenshots/`.
//!
//! Without `/usr/bin/chromium` and `chromedriver` the tests say they
//! skipped, unless `GAMEAI_REQUIRE_BROWSER` is set; `.ci/run` installs both
//! and sets it, so CI always runs them.

mod common;
#[path = "browser/webdriver.rs"]
mod webdriver;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

use common::Server;
use common::require::BROWSER;
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use webdriver::{Browser, Result};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const WAIT: Duration = Duration::from_secs(20);

#[test]
fn a_whole_tictactoe_game_by_clicking() {
    in_browser(tictactoe_to_the_end);
}

#[test]
fn a_hint_plays_nothing_and_undo_takes_back_two_moves() {
    in_browser(hint_and_undo);
}

#[test]
fn ai_against_ai_pauses_and_draws() {
    in_browser(ai_against_ai_with_a_pause);
}

#[test]
fn gomoku_shows_the_thinking_ai_and_its_reply() {
    in_browser(gomoku_moves);
}

#[test]
fn the_ai_search_streams_live_and_stops() {
    in_browser(live_search_and_stop);
}

#[test]
fn renju_marks_and_refuses_the_forbidden_point() {
    in_browser(renju_forbidden_point);
}

#[test]
fn othello_refuses_an_illegal_move_then_plays() {
    in_browser(othello_illegal_then_legal);
}

#[test]
fn connect4_ai_opens_and_plays_at_a_level() {
    in_browser(connect4_move);
}

#[test]
fn a_full_queue_is_explained_and_the_move_plays_later() {
    in_browser(queue_full_then_recovery);
}

#[test]
fn the_keyboard_plays() {
    in_browser(keyboard_play);
}

#[test]
fn a_record_is_copied_and_loaded_back() {
    in_browser(records_copy_and_load);
}

#[test]
fn the_page_fits_a_phone() {
    in_browser(phone_width);
}

#[test]
fn a_server_with_an_api_key_asks_for_it() {
    in_browser(api_key_prompt);
}

/// One scenario's view: the shared browser on the play page of the
/// scenario's own server (so no search, session or stored setting of one
/// scenario reaches the next).
struct Page<'a> {
    browser: &'a Browser,
    /// One worker and no queue: a second search at once is refused (503).
    server: Server,
    shots: PathBuf,
}

/// Chromium under chromedriver, shared by the scenarios one at a time: it
/// takes longer to start than most scenarios take to run.
struct Shared {
    browser: Browser,
    /// Dropped after chromium has closed.
    _profile: TempDir,
}

/// The running browser, while any test holds it. Tests waiting for their
/// turn hold it too, so it lives from the first scenario to the last and
/// closes when the last one ends (no process outlives the tests).
static SHARED: Mutex<Weak<Shared>> = Mutex::new(Weak::new());
/// One scenario at a time drives the browser.
static TURN: Mutex<()> = Mutex::new(());

/// One runtime for every test: the browser's HTTP client keeps connections
/// on the runtime that opened them.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// The shared browser, started if no test holds it.
fn shared_browser(chromedriver: &Path, chromium: &Path) -> Arc<Shared> {
    let mut slot = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(shared) = slot.upgrade() {
        return shared;
    }
    let profile = TempDir::new("gameai-chromium-profile");
    let browser = runtime()
        .block_on(Browser::start(chromedriver, chromium, &profile.0))
        .expect("chromium starts under chromedriver");
    let shared = Arc::new(Shared {
        browser,
        _profile: profile,
    });
    *slot = Arc::downgrade(&shared);
    shared
}

/// Runs `scenario` on a fresh page in its turn; on failure, panics with the
/// page's status and a screenshot named after the test. Skips (or fails,
/// when required) without chromium and chromedriver.
fn in_browser(scenario: impl AsyncFnOnce(&Page<'_>) -> Result<()>) {
    let (chromium, chromedriver) = (Path::new(CHROMIUM), Path::new(CHROMEDRIVER));
    let present = chromium.exists() && chromedriver.exists();
    if !BROWSER.check(present, &format!("{CHROMIUM} or {CHROMEDRIVER}")) {
        return;
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("browser")
        .to_owned();
    let shared = shared_browser(chromedriver, chromium);
    // A failed scenario poisons the lock; the next one starts afresh anyway.
    let _turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
    let started = Instant::now();
    let shots = screenshot_dir();
    let failure = shots.join(format!("failure-{test}.png"));
    let _ = std::fs::remove_file(&failure);
    runtime().block_on(async {
        let page = Page {
            browser: &shared.browser,
            server: Server::start(&[("GAMEAI_WORKERS", "1"), ("GAMEAI_QUEUE", "0")]),
            shots,
        };
        let outcome = async {
            // Leave the earlier scenario's page (whose server is gone) before
            // dropping its messages, so none of them count here; and undo
            // its window size.
            page.browser.goto("about:blank").await?;
            page.browser.console().await?;
            page.browser.set_window_size(1280, 900).await?;
            page.browser.goto(&page.server.url("/")).await?;
            scenario(&page).await?;
            no_script_errors(page.browser).await
        }
        .await;
        if let Err(e) = outcome {
            let b = page.browser;
            let _ = b.screenshot(&failure).await;
            let status = b
                .js("return document.getElementById('status').textContent + ' | ' + document.getElementById('error-text').textContent")
                .await
                .unwrap_or_default();
            panic!("{e}\npage: {status}\n(screenshot: {})", failure.display());
        }
        let _ = writeln!(
            std::io::stderr(),
            "{test}: {:.1} s; screenshots in {}",
            started.elapsed().as_secs_f64(),
            page.shots.display()
        );
    });
}

/// Picks a game and its options in the form, then presses New game and
/// waits for the game to be ready.
async fn new_game(b: &Browser, game: &str, options: &[(&str, &str)]) -> Result<()> {
    // The page fills the list from `/v1/games` after it loads.
    b.wait_for(
        "the games list",
        &format!("return document.querySelector(\"#game option[value='{game}']\") ? true : null"),
        WAIT,
    )
    .await?;
    b.click(&format!("#game option[value='{game}']")).await?;
    for (field, value) in options {
        match *field {
            "depth" | "time-ms" | "level" => {
                b.click(match *field {
                    "depth" => "#by-depth",
                    "time-ms" => "#by-time",
                    _ => "#by-level",
                })
                .await?;
                b.js(&format!(
                    "document.getElementById('{field}').value = ''; return null"
                ))
                .await?;
                b.type_into(&format!("#{field}"), value).await?;
            }
            _ => {
                b.click(&format!("#{field} option[value='{value}']"))
                    .await?
            }
        }
    }
    b.click("#new-game").await?;
    b.wait_for(
        "a new game",
        &format!(
            "const s = document.getElementById('status').dataset.state;
             return document.querySelector('.board-{game}') && ['your-turn', 'over', 'ai-turn', 'paused'].includes(s) ? s : null"
        ),
        WAIT,
    )
    .await
    .map(drop)
}

/// How many moves the page lists.
async fn move_count(b: &Browser) -> Result<usize> {
    let n = b
        .js("return document.querySelectorAll('#moves li').length")
        .await?;
    Ok(n.as_u64().unwrap_or(0) as usize)
}

/// Clicks `cell` and waits until the game is back to the player (or over)
/// with at least `at_least` moves listed.
async fn play(b: &Browser, cell: &str, at_least: usize) -> Result<String> {
    b.click(&format!("[data-cell='{cell}']")).await?;
    let state = b
        .wait_for(
            &format!("the answer to {cell}"),
            &format!(
                "const s = document.getElementById('status').dataset.state;
                 const n = document.querySelectorAll('#moves li').length;
                 return ['your-turn', 'over'].includes(s) && n >= {at_least} ? s : null"
            ),
            WAIT,
        )
        .await?;
    Ok(state.as_str().unwrap_or_default().to_owned())
}

async fn text(b: &Browser, id: &str) -> Result<String> {
    let value = b
        .js(&format!(
            "return document.getElementById('{id}').textContent"
        ))
        .await?;
    Ok(value.as_str().unwrap_or_default().to_owned())
}

async fn count(b: &Browser, css: &str) -> Result<u64> {
    let value = b
        .js(&format!(
            "return document.querySelectorAll(\"{css}\").length"
        ))
        .await?;
    Ok(value.as_u64().unwrap_or(0))
}

/// A screenshot once the page's motion (a dropping disc, a turning one)
/// has settled.
async fn shot(b: &Browser, path: &Path) -> Result<()> {
    tokio::time::sleep(Duration::from_millis(600)).await;
    b.screenshot(path).await
}

fn check(ok: bool, what: impl std::fmt::Display) -> Result<()> {
    if ok { Ok(()) } else { Err(what.to_string()) }
}

/// A whole game against the perfect tic-tac-toe AI, clicking the first
/// open cell each turn: it ends, and the page says how.
async fn tictactoe_to_the_end(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    new_game(b, "tictactoe", &[("side", "X"), ("depth", "9")]).await?;
    check(
        count(b, ".cell.open").await? == 9,
        "nine open cells at the start",
    )?;
    let mut state = play(b, "b2", 2).await?;
    let mut plies = 2;
    while state == "your-turn" {
        let cell = b
            .js("return document.querySelector('.cell.open').dataset.cell")
            .await?;
        plies += 2;
        state = play(b, cell.as_str().ok_or("an open cell")?, plies.min(9)).await?;
    }
    let status = text(b, "status").await?;
    check(
        status.contains("Game over.") && (status.contains("wins") || status.contains("draw")),
        format!("the result is shown: {status:?}"),
    )?;
    if status.contains("wins") {
        check(
            count(b, ".win-line").await? == 1,
            "a won game draws its winning line",
        )?;
        // Perfect play never loses: a win can only be the AI's.
        check(status.contains("The AI wins"), format!("{status:?}"))?;
    }
    check(
        count(b, ".cell.open").await? == 0,
        "a finished game takes no more clicks",
    )?;
    let score = text(b, "s-score").await?;
    check(
        score.contains("wins in") || score == "draw",
        format!("the AI's proven result is in words: {score:?}"),
    )?;
    let curl = text(b, "curl").await?;
    check(
        curl.starts_with("curl -s") && curl.contains("/v1/sessions/") && curl.contains("\"move\""),
        format!("the curl panel shows the last call: {curl:?}"),
    )?;
    shot(b, &shots.join("tictactoe-over.png")).await
}

/// A hint marks a move without playing it; undo takes back the player's
/// move and the AI's reply.
async fn hint_and_undo(p: &Page<'_>) -> Result<()> {
    let b = p.browser;
    new_game(b, "tictactoe", &[("side", "X"), ("depth", "9")]).await?;
    play(b, "a1", 2).await?;
    b.click("#hint").await?;
    b.wait_for(
        "the hint",
        "return document.querySelector('.hint-ring') && document.getElementById('status').dataset.state === 'your-turn'",
        WAIT,
    )
    .await?;
    let who = text(b, "search-who").await?;
    check(who.starts_with("Hint for X"), format!("{who:?}"))?;
    check(move_count(b).await? == 2, "a hint plays nothing")?;
    b.click("#undo").await?;
    b.wait_for(
        "the undo",
        "return document.querySelectorAll('#moves li').length === 0 && document.getElementById('status').dataset.state === 'your-turn'",
        WAIT,
    )
    .await
    .map(drop)
}

/// AI against AI: it pauses on request, resumes, and perfect play on both
/// sides ends in a draw.
async fn ai_against_ai_with_a_pause(p: &Page<'_>) -> Result<()> {
    let b = p.browser;
    new_game(b, "tictactoe", &[("side", "ai"), ("depth", "9")]).await?;
    b.wait_for(
        "a few AI moves",
        "return document.querySelectorAll('#moves li').length >= 2",
        WAIT,
    )
    .await?;
    b.click("#pause").await?;
    b.wait_for(
        "the pause",
        "return document.getElementById('status').dataset.state === 'paused'",
        WAIT,
    )
    .await?;
    let held = move_count(b).await?;
    tokio::time::sleep(Duration::from_millis(900)).await;
    check(move_count(b).await? == held, "no move is made while paused")?;
    b.click("#pause").await?; // now "Resume"
    b.wait_for(
        "the end of the AI's game",
        "return document.getElementById('status').dataset.state === 'over'",
        WAIT,
    )
    .await?;
    let status = text(b, "status").await?;
    check(
        status.contains("draw") && move_count(b).await? == 9,
        format!("perfect play draws: {status:?}"),
    )
}

async fn gomoku_moves(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    new_game(
        b,
        "gomoku",
        &[
            ("size", "15"),
            ("rules", "freestyle"),
            ("side", "X"),
            ("time-ms", "1000"),
        ],
    )
    .await?;
    check(count(b, "[data-cell]").await? == 225, "225 points on 15×15")?;
    // While the AI thinks the page says so and the board is busy.
    b.click("[data-cell='h8']").await?;
    b.wait_for(
        "the thinking state",
        "return document.getElementById('status').dataset.state === 'thinking' && document.getElementById('board').getAttribute('aria-busy') === 'true'",
        WAIT,
    )
    .await?;
    let thinking = text(b, "status").await?;
    check(
        thinking.contains("The AI is thinking for O (white)"),
        format!("thinking is shown: {thinking:?}"),
    )?;
    b.screenshot(&shots.join("gomoku-thinking.png")).await?;
    b.wait_for(
        "the AI's reply",
        "return document.getElementById('status').dataset.state === 'your-turn' && document.querySelectorAll('#moves li').length === 2",
        WAIT,
    )
    .await?;
    let reply = b
        .js("const m = document.querySelectorAll('#moves li'); return m[1].textContent")
        .await?;
    let nodes = text(b, "s-nodes").await?;
    check(
        nodes != "–" && count(b, ".last-dot").await? == 1,
        format!("the AI's search is shown: nodes {nodes:?}, reply {reply}"),
    )?;
    // Play next to the centre wherever the AI left room.
    let next = b
        .js("for (const c of ['i8','g8','h7','h9','i9']) { const b = document.querySelector(`[data-cell=${c}]`); if (b.classList.contains('open')) return c; } return null")
        .await?;
    play(b, next.as_str().ok_or("a free point by h8")?, 4).await?;
    check(count(b, ".piece").await? == 4, "four stones on the board")?;
    shot(b, &shots.join("gomoku.png")).await
}

/// While the AI thinks, each completed depth shows up (from the event
/// stream), and Stop ends the search at once with the best move so far.
async fn live_search_and_stop(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    new_game(
        b,
        "gomoku",
        &[("size", "15"), ("side", "X"), ("time-ms", "9000")],
    )
    .await?;
    b.click("[data-cell='h8']").await?;
    let first = b
        .wait_for(
            "a depth while thinking",
            "const s = document.getElementById('status').dataset.state;
             const stop = document.getElementById('stop');
             const d = document.getElementById('s-depth').textContent;
             return s === 'thinking' && !stop.hidden && !stop.disabled && d !== '–' ? d : null",
            WAIT,
        )
        .await?;
    let who = text(b, "search-who").await?;
    check(
        who.contains("is searching for O")
            && text(b, "s-stopped").await?.contains("still searching"),
        format!("the live search is labelled: {who:?}"),
    )?;
    check(
        text(b, "curl")
            .await?
            .contains("/v1/search/stream?game=gomoku"),
        "the panel shows the stream's URL",
    )?;
    check(
        !text(b, "pv").await?.is_empty() && text(b, "s-score").await? != "–",
        "the line and score show while thinking",
    )?;
    b.screenshot(&shots.join("live-search.png")).await?;
    let stopped_at = Instant::now();
    b.click("#stop").await?;
    b.wait_for(
        "the AI's move after Stop",
        "return document.getElementById('status').dataset.state === 'your-turn' && document.querySelectorAll('#moves li').length === 2",
        WAIT,
    )
    .await?;
    let waited = stopped_at.elapsed();
    check(
        waited < Duration::from_secs(3),
        format!("Stop plays at once, not after the 9 s budget: {waited:?} (first depth {first})"),
    )?;
    let who = text(b, "search-who").await?;
    check(
        who.contains("stopped after depth") && count(b, "#stop:not([hidden])").await? == 0,
        format!("the stopped search is labelled and Stop is gone: {who:?}"),
    )?;
    shot(b, &shots.join("live-search-stopped.png")).await
}

/// Renju, from a link's moves: black's double-three point is marked and
/// refused by the server.
async fn renju_forbidden_point(p: &Page<'_>) -> Result<()> {
    let (b, server, shots) = (p.browser, &p.server, &p.shots);
    // Black h8 i8 (a row) and j9 j10 (a column): j8 would make two open threes.
    b.goto(&server.url("/?game=gomoku&rules=renju&side=X&moves=h8,a1,i8,a15,j9,o1,j10,o15"))
        .await?;
    b.wait_for(
        "the renju position",
        "return document.getElementById('status').dataset.state === 'your-turn' && document.querySelectorAll('.piece').length === 8",
        WAIT,
    )
    .await?;
    let forbidden = b
        .wait_for(
            "the forbidden point",
            "const f = document.querySelectorAll('.forbidden'); return f.length ? document.querySelector('[data-cell=j8]').getAttribute('aria-label') + ' / ' + f.length : null",
            WAIT,
        )
        .await?;
    check(
        forbidden == "j8, empty, forbidden for black / 1",
        format!("j8 alone is marked: {forbidden}"),
    )?;
    b.click("[data-cell='j8']").await?;
    let error = b
        .wait_for(
            "the refusal",
            "const e = document.getElementById('error'); return !e.hidden && document.getElementById('status').dataset.state === 'your-turn' ? document.getElementById('error-text').textContent : null",
            WAIT,
        )
        .await?;
    check(
        error.as_str().unwrap_or_default().contains("422"),
        format!("the server refuses j8: {error}"),
    )?;
    shot(b, &shots.join("renju-forbidden.png")).await
}

async fn othello_illegal_then_legal(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    new_game(b, "othello", &[("side", "X"), ("depth", "4")]).await?;
    check(
        count(b, ".legal-dot").await? == 4,
        "four legal moves marked at the start",
    )?;
    // An empty square where X flips nothing: the server refuses it.
    b.click("[data-cell='a1']").await?;
    let error = b
        .wait_for(
            "the illegal move's message",
            "const e = document.getElementById('error'); return !e.hidden && document.getElementById('status').dataset.state === 'your-turn' ? document.getElementById('error-text').textContent : null",
            WAIT,
        )
        .await?;
    let error = error.as_str().unwrap_or_default().to_owned();
    check(
        error.contains("422") && error.contains("a1"),
        format!("the server's detail is shown: {error:?}"),
    )?;
    check(
        count(b, ".piece").await? == 4,
        "the refused move left the board alone",
    )?;
    shot(b, &shots.join("othello-illegal.png")).await?;
    play(b, "d3", 2).await?;
    check(
        b.js("return document.getElementById('error').hidden")
            .await?
            == Value::Bool(true),
        "the message goes once a move succeeds",
    )?;
    check(
        count(b, ".flip-mark").await? >= 1,
        "the AI's flips are marked",
    )?;
    let status = text(b, "status").await?;
    check(
        status.contains("Discs: X"),
        format!("disc count: {status:?}"),
    )?;
    shot(b, &shots.join("othello.png")).await
}

/// Pastes `record` into the load form and waits for the game it starts,
/// with `moves` moves listed and the player to move.
async fn load_record(b: &Browser, record: &str, game: &str, moves: usize) -> Result<()> {
    b.click("#load-record").await?;
    let text = serde_json::to_string(record).map_err(|e| e.to_string())?;
    b.js(&format!(
        "document.getElementById('record-text').value = {text}; return null"
    ))
    .await?;
    b.click("[data-testid='record-submit']").await?;
    b.wait_for(
        "the game from the record",
        &format!(
            "const s = document.getElementById('status').dataset.state;
             const n = document.querySelectorAll('#moves li').length;
             const sent = document.getElementById('curl').textContent.includes('\"record\"');
             return sent && document.querySelector('.board-{game}') && s === 'your-turn' && n === {moves} ? s : null"
        ),
        WAIT,
    )
    .await
    .map(drop)
}

/// "Copy record" gives the game as SGF; "Load record" starts the same
/// game again from it, and an othello GGF record switches the game.
async fn records_copy_and_load(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    new_game(b, "gomoku", &[("side", "X"), ("depth", "2")]).await?;
    play(b, "h8", 2).await?;
    let moves = text(b, "moves").await?;
    b.click("#copy-record").await?;
    let record = b
        .wait_for(
            "the copied record",
            "const o = document.getElementById('record-out'); return !o.hidden && o.textContent ? o.textContent : null",
            WAIT,
        )
        .await?;
    let record = record.as_str().unwrap_or_default().to_owned();
    check(
        record.starts_with("(;FF[4]GM[4]SZ[15]") && record.contains(";B[hh]"),
        format!("an SGF record: {record:?}"),
    )?;
    check(
        record.contains("C[gameai: score "),
        format!("the AI's move carries its evaluation: {record:?}"),
    )?;
    load_record(b, &record, "gomoku", 2).await?;
    let again = text(b, "moves").await?;
    check(
        again == moves,
        format!("the same moves: {again:?} vs {moves:?}"),
    )?;
    let ggf = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";
    load_record(b, ggf, "othello", 4).await?;
    shot(b, &shots.join("record-loaded.png")).await
}

async fn connect4_move(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    // Playing O: the AI opens as soon as the game starts.
    new_game(b, "connect4", &[("side", "O"), ("time-ms", "300")]).await?;
    b.wait_for(
        "the AI's opening",
        "return document.getElementById('status').dataset.state === 'your-turn' && document.querySelectorAll('#moves li').length === 1",
        WAIT,
    )
    .await?;
    let status = text(b, "status").await?;
    check(
        status.contains("The AI played in column")
            && status.contains("as X (red)")
            && status.contains("you play O (yellow)"),
        format!("the AI opened for X: {status:?}"),
    )?;

    // At a strength level: the session's AI plays at level 3.
    new_game(b, "connect4", &[("side", "X"), ("level", "3")]).await?;
    check(count(b, "[data-cell]").await? == 7, "seven column buttons")?;
    play(b, "4", 2).await?;
    check(count(b, ".piece").await? == 2, "two discs")?;
    let depth = text(b, "s-depth").await?;
    check(
        depth == "3 plies",
        format!("level 3 searched 3 plies: {depth:?}"),
    )?;
    shot(b, &shots.join("connect4.png")).await
}

/// With the only worker held by a long search and no queue, the AI cannot
/// answer: the page says so, takes the move back, and plays once the
/// worker is free.
async fn queue_full_then_recovery(p: &Page<'_>) -> Result<()> {
    let (b, server, shots) = (p.browser, &p.server, &p.shots);
    new_game(b, "tictactoe", &[("side", "X"), ("depth", "9")]).await?;
    let http = reqwest::Client::new();
    let hold = tokio::spawn({
        let (http, url) = (http.clone(), server.url("/v1/search"));
        async move {
            // Connect Four two plies in, off the opening book, does not
            // solve in 2.5 s.
            http.post(url)
                .json(&json!({"game": "connect4", "moves": "11", "depth": 42, "time_ms": 2500}))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .map_err(|e| e.to_string())
        }
    });
    let deadline = Instant::now() + WAIT;
    loop {
        let metrics = http
            .get(server.url("/metrics"))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .text()
            .await
            .map_err(|e| e.to_string())?;
        if metrics
            .lines()
            .any(|l| l.trim() == "gameai_pool_workers_busy 1")
        {
            break;
        }
        check(
            Instant::now() < deadline,
            "the long search holds the worker",
        )?;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    b.click("[data-cell='b2']").await?;
    let error = b
        .wait_for(
            "the busy message",
            "const e = document.getElementById('error'); return !e.hidden && document.getElementById('status').dataset.state === 'your-turn' ? document.getElementById('error-text').textContent : null",
            WAIT,
        )
        .await?;
    let error = error.as_str().unwrap_or_default().to_owned();
    check(
        error.contains("503") && error.contains("busy") && error.contains("Try again"),
        format!("the overload is explained: {error:?}"),
    )?;
    check(
        count(b, ".piece").await? == 0 && move_count(b).await? == 0,
        "the refused move is not shown as played",
    )?;
    shot(b, &shots.join("busy.png")).await?;
    let held = hold.await.map_err(|e| e.to_string())?;
    check(
        held == Ok(200),
        format!("the holding search ends: {held:?}"),
    )?;
    play(b, "b2", 2).await?;
    check(
        count(b, ".piece").await? == 2,
        "the same move plays once the worker is free",
    )
}

/// Tab reaches the board, arrows move, Enter plays.
async fn keyboard_play(p: &Page<'_>) -> Result<()> {
    let b = p.browser;
    new_game(b, "tictactoe", &[("side", "X"), ("depth", "9")]).await?;
    b.js("document.querySelector('[data-cell=b2]').focus(); return null")
        .await?;
    // Right arrow, then Enter: from the centre b2 to c2.
    b.press("\u{E014}\u{E007}").await?;
    b.wait_for(
        "the keyboard move",
        "return document.querySelectorAll('#moves li').length >= 2 && document.getElementById('status').dataset.state === 'your-turn'",
        WAIT,
    )
    .await?;
    let first = b
        .js("return document.querySelector('#moves li').textContent")
        .await?;
    check(first == "X c2", format!("the keyboard played c2: {first}"))?;
    let focused = b
        .js("return document.activeElement && document.activeElement.dataset.cell")
        .await?;
    check(
        focused == "c2",
        format!("focus stays on the board: {focused}"),
    )
}

async fn phone_width(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    b.set_window_size(390, 844).await?;
    new_game(b, "gomoku", &[("side", "X"), ("time-ms", "200")]).await?;
    play(b, "h8", 2).await?;
    let fits = b
        .js("return document.documentElement.scrollWidth <= window.innerWidth")
        .await?;
    check(
        fits == Value::Bool(true),
        "nothing overflows sideways at phone width",
    )?;
    let cell = b
        .js("return document.querySelector('[data-cell=h8]').getBoundingClientRect().width")
        .await?;
    check(
        cell.as_f64().unwrap_or(0.0) >= 18.0,
        format!("gomoku points stay tappable: {cell} px"),
    )?;
    b.js("window.scrollTo(0, document.getElementById('status').getBoundingClientRect().top + window.scrollY - 8); return null")
        .await?;
    shot(b, &shots.join("phone-gomoku.png")).await?;
    b.set_window_size(1280, 900).await
}

/// A server with an API key: the page loads, asks for the key, keeps it
/// and plays.
async fn api_key_prompt(p: &Page<'_>) -> Result<()> {
    let (b, shots) = (p.browser, &p.shots);
    let guarded = Server::start(&[("GAMEAI_API_KEY", "s3cret")]);
    b.goto(&guarded.url("/")).await?;
    b.wait_for(
        "the key prompt",
        "return !document.getElementById('auth').hidden",
        WAIT,
    )
    .await?;
    let error = text(b, "error-text").await?;
    check(error.contains("API key"), format!("{error:?}"))?;
    shot(b, &shots.join("api-key.png")).await?;
    b.type_into("#api-key", "s3cret").await?;
    b.click("[data-testid='api-key-save']").await?;
    b.wait_for(
        "a game with the key",
        "return document.getElementById('status').dataset.state === 'your-turn'",
        WAIT,
    )
    .await?;
    let stored = b.js("return localStorage.getItem('gameai.apiKey')").await?;
    check(stored == "s3cret", "the key is kept in localStorage")?;
    let first = b
        .js("return document.querySelector('[data-cell]').dataset.cell")
        .await?;
    let first = first.as_str().ok_or("a cell")?.to_owned();
    play(b, &first, 2).await?;
    let curl = text(b, "curl").await?;
    check(
        curl.contains("Bearer $GAMEAI_API_KEY") && !curl.contains("s3cret"),
        format!("curl names the key without showing it: {curl:?}"),
    )
}

/// The console holds no script error and no refusal by the page's content
/// security policy (checked after every scenario); the service's refusals (4xx, 503) are logged by the
/// browser as failed loads, and those are expected here.
async fn no_script_errors(b: &Browser) -> Result<()> {
    let unexpected: Vec<String> = b
        .console()
        .await?
        .into_iter()
        .filter(|m| m.starts_with("SEVERE") || m.starts_with("WARNING"))
        .filter(|m| !m.contains("Failed to load resource"))
        .collect();
    check(
        unexpected.is_empty(),
        format!("console errors: {unexpected:#?}"),
    )
}

/// `target/browser-screenshots/`, beside the tests' own temporary folder.
fn screenshot_dir() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .to_path_buf();
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// A folder under the tests' temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(prefix: &str) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{prefix}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Self(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
