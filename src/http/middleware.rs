//! The middleware and fallbacks around the routes: CORS, answers for unknown routes and methods, and problem+json for
//! error statuses that lower layers answer with a bare status.

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::error::{self, ApiError};

pub fn cors(origins: &[String]) -> CorsLayer {
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
        .expose_headers([
            header::RETRY_AFTER,
            header::LOCATION,
            HeaderName::from_static("ratelimit"),
            HeaderName::from_static("ratelimit-policy"),
        ])
}

pub async fn route_not_found(request: Request) -> ApiError {
    ApiError::NotFound(format!(
        "no route for {} {}",
        request.method(),
        request.uri().path()
    ))
}

pub async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {}",
        request.method(),
        request.uri().path()
    ))
}

/// Gives error responses that carry no body of ours (a timeout from a
/// layer, say) a problem+json body, so clients see one error shape.
pub async fn problem_for_bare_errors(response: Response) -> Response {
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
