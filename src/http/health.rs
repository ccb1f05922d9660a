//! Liveness, readiness and the OpenAPI document.

use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::extract::Json;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(check_health))
        .routes(routes!(check_ready))
        .routes(routes!(serve_openapi))
}

/// Liveness or readiness.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HealthResponse {
    /// `ok`, or `not ready`.
    pub status: String,
    /// Why the service is not ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Liveness: the process answers.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses((status = 200, description = "The process is alive", body = HealthResponse))
)]
async fn check_health() -> Json<HealthResponse> {
    Json(HealthResponse {
        status: "ok".to_owned(),
        detail: None,
    })
}

/// Readiness: the service takes work (false once shutting down, or while
/// the session store is unreachable).
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "Ready for traffic", body = HealthResponse),
        (status = 503, description = "Starting (the workers are building their tables), shutting down, or the session store is unreachable; send traffic elsewhere", body = HealthResponse),
    )
)]
async fn check_ready(State(state): State<AppState>) -> (StatusCode, Json<HealthResponse>) {
    let not_ready = |detail: &str| {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(HealthResponse {
                status: "not ready".to_owned(),
                detail: Some(detail.to_owned()),
            }),
        )
    };
    if state.shutting_down.load(Ordering::Relaxed) {
        return not_ready("shutting down");
    }
    if !state.pool.prepared() {
        return not_ready("the workers are still building their tables");
    }
    if let Err(e) = state.sessions.check().await {
        return not_ready(&e.to_string());
    }
    (
        StatusCode::OK,
        Json(HealthResponse {
            status: "ok".to_owned(),
            detail: None,
        }),
    )
}

/// This API's OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/openapi.yaml",
    tag = "operations",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/yaml", body = String))
)]
async fn serve_openapi(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/yaml")],
        state.openapi_yaml.to_string(),
    )
}
