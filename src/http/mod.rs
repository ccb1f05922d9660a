//! The HTTP layer: routes, request and response bodies, problem+json errors
//! and the middleware around them. It turns JSON into typed positions at the
//! edge and never sees a bitboard.

mod analyze;
mod batch;
mod controls;
mod error;
mod health;
pub mod metrics;
mod page;
mod positions;
mod sessions;
mod stream;
pub mod types;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, FromRequest};
use axum::http::{HeaderValue, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Router, middleware};
use serde::de::DeserializeOwned;
use tower::ServiceBuilder;
use tower_http::LatencyUnit;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use error::{ApiError, FieldProblem, Problem};

use crate::config::Config;
use crate::pool::Pool;
use crate::sessions::Sessions;

/// JSON in and out, with rejections rendered as problem+json. A body must
/// be a JSON object (serde would otherwise read a struct from an array).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request<axum::body::Body>, state: &S) -> Result<Self, ApiError> {
        let axum::Json(value) =
            axum::Json::<serde_json::Value>::from_request(request, state).await?;
        from_object(value).map(Json)
    }
}

/// Reads `T` from a JSON value that must be an object.
pub fn from_object<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    if !value.is_object() {
        return Err(ApiError::BadRequest(
            "the body must be a JSON object".to_owned(),
        ));
    }
    serde_json::from_value(value).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// For a nested object field: `null` or an object, never an array.
pub fn optional_object<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    use serde::Deserialize;
    use serde::de::Error;
    match Option::<serde_json::Value>::deserialize(deserializer)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(value @ serde_json::Value::Object(_)) => serde_json::from_value(value)
            .map(Some)
            .map_err(D::Error::custom),
        Some(other) => Err(D::Error::custom(format!("expected an object, got {other}"))),
    }
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// Handles shared by every request.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub pool: Pool,
    pub sessions: Sessions,
    /// Raised on SIGTERM: readiness turns false.
    pub shutting_down: Arc<AtomicBool>,
    openapi_yaml: Arc<str>,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        let pool = Pool::new(
            config.worker_count(),
            config.queue,
            (config.tt_mb as usize) << 20,
        );
        Self::with_pool(config, pool)
    }

    /// State around an existing pool (tests hold its workers).
    ///
    /// # Panics
    /// If the session store's URL cannot be read (the config parser
    /// refuses such URLs before this).
    pub fn with_pool(config: Config, pool: Pool) -> Self {
        let sessions = Sessions::open(
            config.session_store.as_deref(),
            config.session_ttl,
            config.max_sessions,
        )
        .expect("the session store URL is valid");
        Self {
            config: Arc::new(config),
            pool,
            sessions,
            shutting_down: Arc::default(),
            openapi_yaml: openapi_yaml().into(),
        }
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

/// The OpenAPI document the server serves, as YAML.
pub fn openapi_yaml() -> String {
    let (_, mut api) = api_router().split_for_parts();
    api.info.version = env!("CARGO_PKG_VERSION").to_owned();
    api.to_yaml().expect("the OpenAPI document serialises")
}

/// The whole application: routes, state and middleware.
pub fn app(state: AppState) -> Router {
    let config = Arc::clone(&state.config);
    let (routes, _) = api_router().split_for_parts();
    // The play page is not an API route: it stays out of the document.
    let routes = routes.merge(page::router());
    // Requests may wait for a worker before searching for up to the cap.
    let request_timeout =
        Duration::from_millis(config.max_time_ms.saturating_mul(2).saturating_add(30_000));

    // Outermost first: every request gets an id, then a span that logs it,
    // the id is echoed back, panics become 500s, bare error statuses from
    // lower layers become problem+json, then CORS and the overall timeout.
    let middleware = ServiceBuilder::new()
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request
                    .headers()
                    .get("x-request-id")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                tracing::info_span!("request", method = %request.method(), path = %request.uri().path(), request_id = %id)
            })
            .on_response(DefaultOnResponse::new().level(tracing::Level::INFO).latency_unit(LatencyUnit::Millis)),
        )
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal("a handler panicked".to_owned()).into_response()
        }))
        .layer(middleware::map_response(problem_for_bare_errors))
        .layer(cors(&config.cors_origins))
        .layer(TimeoutLayer::with_status_code(StatusCode::SERVICE_UNAVAILABLE, request_timeout));

    // Installed before the first request so even the first is counted.
    metrics::handle();
    routes
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            require_api_key,
        ))
        .route_layer(middleware::from_fn(metrics::track_requests))
        .fallback(route_not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(middleware)
        .with_state(state)
}

/// With `GAMEAI_API_KEY` set, `/v1/*` needs the key as a bearer token;
/// health, readiness, metrics and the document stay open.
async fn require_api_key(
    axum::extract::State(state): axum::extract::State<AppState>,
    request: Request<axum::body::Body>,
    next: middleware::Next,
) -> Response {
    let Some(key) = state.config.api_key.as_deref() else {
        return next.run(request).await;
    };
    if !request.uri().path().starts_with("/v1/") {
        return next.run(request).await;
    }
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match presented {
        Some(token) if same_secret(token.as_bytes(), key.as_bytes()) => next.run(request).await,
        Some(_) => {
            ApiError::Unauthorized("the bearer token is not valid".to_owned()).into_response()
        }
        None => ApiError::Unauthorized(
            "send `Authorization: Bearer <key>`; this server requires an API key".to_owned(),
        )
        .into_response(),
    }
}

/// Compares two secrets in time that depends only on their lengths.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

fn cors(origins: &[String]) -> CorsLayer {
    let allow = if origins.iter().any(|o| o.trim() == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o.trim()).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION])
        .expose_headers([header::RETRY_AFTER, header::LOCATION])
}

async fn route_not_found(request: Request<axum::body::Body>) -> ApiError {
    ApiError::NotFound(format!(
        "no route for {} {}",
        request.method(),
        request.uri().path()
    ))
}

async fn method_not_allowed(request: Request<axum::body::Body>) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {}",
        request.method(),
        request.uri().path()
    ))
}

/// Gives error responses that carry no body of ours (a timeout from a
/// layer, say) a problem+json body, so clients see one error shape.
async fn problem_for_bare_errors(response: Response) -> Response {
    let status = response.status();
    // Our handlers answer JSON (problem+json, or `/readyz`'s own body).
    let is_ours = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| {
            v.as_bytes().starts_with(b"application/problem+json")
                || v.as_bytes().starts_with(b"application/json")
        });
    if !(status.is_client_error() || status.is_server_error()) || is_ours {
        return response;
    }
    let detail = match status {
        StatusCode::SERVICE_UNAVAILABLE => {
            "the request took too long waiting for a search worker".to_owned()
        }
        _ => status.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let mut problem = error::problem_response(status, detail, Vec::new());
    if let Some(retry) = response.headers().get(header::RETRY_AFTER) {
        problem
            .headers_mut()
            .insert(header::RETRY_AFTER, retry.clone());
    }
    problem
}
