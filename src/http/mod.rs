//! The HTTP layer: routes, request and response bodies, problem+json errors
//! and the middleware around them. It turns JSON into typed positions at the
//! edge and never sees a bitboard.
//!
//! # Module map
//!
//! Imports point one way: from route modules down to the shared ones,
//! never from one route module to another.
//!
//! Route modules, each owning its `router()` and the bodies only it uses:
//! - `positions`: `POST /v1/search`, `POST /v1/position`, `GET /v1/games`,
//!   `GET /v1/limits`.
//! - `stream`: `POST /v1/search/stream`, a search as Server-Sent Events.
//! - `batch`: `POST /v1/search/batch`, many searches in one request.
//! - `analyze`: `POST /v1/analyze`, a whole game reviewed move by move.
//! - `sessions`: `/v1/sessions/...`, whole games kept on the server (the
//!   operations themselves are in `crate::sessions`; this maps bodies and
//!   answers).
//! - `health`: `GET /healthz`, `GET /readyz`, `GET /openapi.yaml`.
//! - `metrics`: `GET /metrics`, and the recorder and request counter
//!   behind it.
//! - `page`: `GET /`, the play page (outside the OpenAPI document).
//! - `docs`: `GET /docs`, the reference rendered from the document, and
//!   what the document says beyond the annotations (the bearer scheme,
//!   429s, examples).
//!
//! Shared modules, which import no route module:
//! - `bodies`: body parts several routes use (`Side`, `Moves`, a position
//!   request, `SearchRequest`, `SearchResponse`, `Proven`).
//! - `plan`: a search request's fields checked once into a
//!   [`crate::plan::Plan`], which `crate::runner` answers, counts and logs.
//! - `validate`: checks every route words the same way (a game's name, a
//!   value in range, a search's depth and time budget).
//! - `caps`: the server's fixed caps, as `GET /v1/limits` reports them.
//! - `extract`: JSON extractors whose rejections are problem+json.
//! - `error`: `ApiError`, the one error type, its problem+json rendering
//!   and the middleware that logs it once.
//! - `middleware`: CORS, fallbacks and problem+json for bare error
//!   statuses.
//! - `access_log`: the request's outer layer: its id, span and access
//!   line, and the errors it carries, logged once.
//! - `keys`: the API key check, which names the client.
//! - `quota`: per-client quotas, 429 and the `RateLimit` headers.
//! - `server`: the socket side: connection bounds (header timeout and
//!   size, open connections) and problem+json for hyper's own errors.
//!
//! This file holds what ties them together: the state every handler
//! shares, the OpenAPI document and `app`.

mod access_log;
mod analyze;
mod batch;
mod bodies;
mod caps;
mod docs;
mod error;
mod extract;
mod health;
mod keys;
pub mod metrics;
mod middleware;
mod page;
mod plan;
mod positions;
mod quota;
pub mod server;
mod sessions;
mod stream;
mod validate;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware::from_fn_with_state;
use axum::response::IntoResponse;
use tower::ServiceBuilder;
use tower::util::MapResponseLayer;
use tower_http::CompressionLevel;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use error::{ApiError, FieldProblem, Problem};

use crate::cache::{Cache, Ponder};
use crate::config::Config;
use crate::games::GameKind;
use crate::pool::Pool;
use crate::runner::Runner;
use crate::sessions::{SessionStore, Sessions};

/// Handles shared by every request, behind one `Arc`: routes and layers
/// clone the state for every request, and one count is all that costs.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] shares.
pub struct Shared {
    pub config: Arc<Config>,
    pub pool: Pool,
    /// Earlier searches, answering later requests for the same position.
    pub cache: Cache,
    /// Answers search plans from the book, the cache or the pool.
    pub runner: Runner,
    /// The session operations over the configured store.
    pub sessions: Sessions,
    /// Raised on SIGTERM: readiness turns false.
    pub shutting_down: Arc<AtomicBool>,
    keys: Arc<keys::Keyring>,
    quotas: Option<Arc<quota::Quotas>>,
    openapi_yaml: Arc<str>,
    docs_html: Arc<str>,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        let pool = Pool::with_prepare(
            config.worker_count(),
            config.queue,
            (config.tt_mb as usize) << 20,
            GameKind::prepare_all,
        );
        Self::with_pool(config, pool)
    }

    /// State around an existing pool (tests hold its workers).
    ///
    /// # Panics
    /// If the session or cache store's URL cannot be read (the config
    /// parser refuses such URLs before this).
    pub fn with_pool(config: Config, pool: Pool) -> Self {
        let store = SessionStore::open(
            config.session_store.as_deref(),
            config.session_ttl,
            config.max_sessions,
        )
        .expect("the session store URL is valid");
        let cache = Cache::open(
            config.cache_mb << 20,
            config.cache_store.as_deref(),
            config.cache_ttl,
        )
        .expect("the cache store URL is valid");
        let ponder = Ponder::new(cache.clone(), pool.clone(), config.ponder);
        let runner = Runner {
            pool: pool.clone(),
            cache: cache.clone(),
        };
        let sessions = Sessions::new(store, runner.clone(), ponder, config.max_time_ms);
        Self(Arc::new(Shared {
            cache,
            runner,
            keys: Arc::new(keys::Keyring::from_config(&config)),
            quotas: quota::Quotas::from_config(&config).map(Arc::new),
            config: Arc::new(config),
            pool,
            sessions,
            shutting_down: Arc::default(),
            openapi_yaml: openapi_yaml().into(),
            docs_html: docs_html().into(),
        }))
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gameai",
        description = "A game-AI service: send a position, get the best move. Tic-tac-toe, Connect Four, gomoku and othello.",
        license(name = "MIT", identifier = "MIT")
    ),
    components(schemas(stream::DepthEvent)),
    tags(
        (name = "search", description = "Positions, searches and games"),
        (name = "sessions", description = "Whole games kept on the server"),
        (name = "operations", description = "Health, readiness and this document"),
    )
)]
struct ApiDoc;

fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(positions::router())
        .merge(stream::router())
        .merge(batch::router())
        .merge(analyze::router())
        .merge(sessions::router())
        .merge(health::router())
        .merge(metrics::router())
}

/// The OpenAPI document the server serves.
fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut api) = api_router().split_for_parts();
    api.info.version = env!("CARGO_PKG_VERSION").to_owned();
    docs::complete(api)
}

/// The OpenAPI document the server serves, as YAML.
pub fn openapi_yaml() -> String {
    openapi()
        .to_yaml()
        .expect("the OpenAPI document serialises")
}

/// The reference page at `GET /docs`.
fn docs_html() -> String {
    docs::render(&openapi())
}

/// The whole application: routes, state and middleware.
pub fn app(state: AppState) -> Router {
    let config = Arc::clone(&state.config);
    let (routes, _) = api_router().split_for_parts();
    // The play page is not an API route: it stays out of the document.
    let routes = routes.merge(page::router()).merge(docs::router());
    // The one wait without a bound of its own is a search's wait for a
    // worker (the stores' calls have short timeouts): it is bounded where
    // it happens, so the requests answered at once pay for no timer.
    state.pool.limit_waits(Duration::from_millis(
        config.max_time_ms.saturating_mul(2).saturating_add(30_000),
    ));

    // Outermost first: one layer gives every request its id (a client's
    // only if plain), its span and access line, and logs the errors its
    // response carries once (outside the panic catcher, so a panic is
    // logged too); panics become 500s, bare error statuses from lower
    // layers become problem+json, then CORS. Compression sits just inside
    // the first, so the logged response and its errors are the
    // uncompressed ones.
    let middleware = ServiceBuilder::new()
        .layer(access_log::RequestLogLayer::new(config.access_log))
        .layer(middleware::CompressLayer::new(
            CompressionLayer::new()
                .gzip(true)
                .br(true)
                .quality(CompressionLevel::Fastest)
                .compress_when(
                    SizeAbove::new(2048)
                        .and(NotForContentType::SSE)
                        .and(NotForContentType::GRPC)
                        .and(NotForContentType::IMAGES),
                ),
        ))
        .layer(CatchPanicLayer::custom(
            |panic: Box<dyn std::any::Any + Send>| {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".to_owned());
                ApiError::internal("a handler panicked", message).into_response()
            },
        ))
        .layer(MapResponseLayer::new(middleware::problem_for_bare_errors))
        .layer(middleware::cors(&config.cors_origins));

    // Installed before the first request so even the first is counted.
    metrics::handle();
    metrics::start_upkeep();
    // The key check runs before the quota, which charges the key. Each is
    // layered only when configured: a layer that only passes the request
    // on still moves it, and clones the state, on every request.
    let mut routes = routes;
    if state.quotas.is_some() {
        routes = routes.route_layer(from_fn_with_state(state.clone(), quota::enforce));
    }
    if !state.keys.is_empty() {
        routes = routes.route_layer(from_fn_with_state(state.clone(), keys::require_api_key));
    }
    routes
        .route_layer(metrics::TrackRequests)
        .fallback(middleware::route_not_found)
        .method_not_allowed_fallback(middleware::method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(middleware)
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;
    use tracing_subscriber::fmt::MakeWriter;

    use super::*;
    use crate::plan::Strength;
    use crate::sessions::{AiPlays, AiSettings, Session, SessionId, Store, now_rfc3339};

    /// Log output gathered in memory.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        /// Sends this thread's events up to `level` here while the guard
        /// lives. Whether a callsite is wanted at all is decided once and
        /// kept process-wide; while a single subscriber is registered, it
        /// is decided by the subscriber of whichever thread reaches the
        /// callsite first, so a test that sends requests without one would
        /// turn the access log off for the others. An inert subscriber kept
        /// registered for the whole run makes every callsite ask all the
        /// registered ones instead; registering this one then decides anew
        /// for the callsites already seen.
        fn capture(&self, level: tracing::Level) -> tracing::subscriber::DefaultGuard {
            static ANCHOR: std::sync::OnceLock<tracing::Dispatch> = std::sync::OnceLock::new();
            ANCHOR.get_or_init(|| tracing::Dispatch::new(tracing_subscriber::registry()));
            let subscriber = tracing_subscriber::fmt()
                .with_writer(self.clone())
                .with_ansi(false)
                .with_max_level(level)
                .finish();
            tracing::subscriber::set_default(subscriber)
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    async fn send(app: &Router, request: Request<Body>) -> (StatusCode, String) {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[test]
    fn an_internal_error_is_logged_once_with_its_cause_and_never_sent() {
        let log = Captured::default();
        let _default = log.capture(tracing::Level::INFO);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let state = AppState::new(Config::defaults());
            // A stored session whose moves no longer replay: only the
            // server can be at fault.
            let session = Session {
                id: SessionId::new(),
                owner: None,
                game: GameKind::TicTacToe,
                size: None,
                rules: None,
                start_board: Some(vec!["...".to_owned(); 3]),
                start_to_move: None,
                moves: vec!["z9".to_owned()],
                ai_evals: Vec::new(),
                ai: AiSettings {
                    plays: AiPlays::O,
                    strength: Strength {
                        depth: 1,
                        time_ms: 100,
                        level: None,
                        clock: None,
                        threads: 1,
                    },
                },
                version: 1,
                created_at: now_rfc3339(),
                updated_at: now_rfc3339(),
            };
            state.sessions.store().create(&session).await.unwrap();
            let app = app(state);
            let request = Request::get(format!("/v1/sessions/{}", session.id))
                .body(Body::empty())
                .unwrap();
            let (status, body) = send(&app, request).await;
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
            assert!(!body.contains("replay") && !body.contains("z9"), "{body}");

            let request = Request::post("/v1/search")
                .header("content-type", "application/json")
                .body(Body::from(r#"{"game": "tictactoe", "depth": 0}"#))
                .unwrap();
            assert_eq!(
                send(&app, request).await.0,
                StatusCode::UNPROCESSABLE_ENTITY
            );
        });
        let log = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        assert_eq!(log.matches("internal error").count(), 1, "{log}");
        assert_eq!(log.matches("ERROR").count(), 1, "{log}");
        assert!(
            log.contains("status=500") && log.contains("status=422"),
            "{log}"
        );
        let line = log.lines().find(|l| l.contains("internal error")).unwrap();
        assert!(
            line.contains("does not replay") && line.contains("z9"),
            "{line}"
        );
        assert!(line.contains("request_id="), "{line}");
    }

    /// Runs `paths` through the app with a subscriber at `level` and
    /// returns what it logged.
    fn logged_at(level: tracing::Level, paths: &[&str]) -> String {
        logged_with(Config::defaults(), level, paths)
    }

    fn logged_with(config: Config, level: tracing::Level, paths: &[&str]) -> String {
        let log = Captured::default();
        let _default = log.capture(level);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let state = AppState::new(config);
            state.pool.wait_prepared();
            let app = app(state);
            for path in paths {
                let request = Request::get(*path).body(Body::empty()).unwrap();
                assert_eq!(send(&app, request).await.0, StatusCode::OK, "{path}");
            }
        });
        String::from_utf8(log.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn probes_are_access_logged_only_at_debug() {
        let paths = ["/healthz", "/readyz", "/metrics", "/v1/games"];
        let info = logged_at(tracing::Level::INFO, &paths);
        let lines: Vec<_> = info
            .lines()
            .filter(|l| l.contains("finished processing request"))
            .collect();
        assert_eq!(lines.len(), 1, "{info}");
        assert!(lines[0].contains("/v1/games"), "{info}");

        let debug = logged_at(tracing::Level::DEBUG, &paths);
        for path in paths {
            assert!(
                debug
                    .lines()
                    .any(|l| l.contains("finished processing request") && l.contains(path)),
                "{path} at debug: {debug}"
            );
        }
    }

    #[test]
    fn the_access_log_can_be_sampled_or_turned_off() {
        let paths = ["/v1/games"; 6];
        let count = |config: Config| {
            logged_with(config, tracing::Level::INFO, &paths)
                .matches("finished processing request")
                .count()
        };
        let with = |setting| Config {
            access_log: setting,
            ..Config::defaults()
        };
        assert_eq!(count(with(crate::config::AccessLog::On)), 6);
        assert_eq!(count(with(crate::config::AccessLog::Sample(3))), 2);
        assert_eq!(count(with(crate::config::AccessLog::Off)), 0);
    }
}
