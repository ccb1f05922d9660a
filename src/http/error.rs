//! One error type at the HTTP boundary, rendered as `application/problem+json`
//! (RFC 9457). Axum's own rejections are converted into it, so every 4xx and
//! 5xx a client sees has the same shape.

use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::games::{Part, PositionError};
use crate::pool::PoolError;
use crate::sessions::StoreError;

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// Seconds a client should wait before retrying an overloaded service.
const RETRY_AFTER_SECS: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed JSON, wrong types, unknown fields.
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// Out of turn, on a finished game, or racing another change.
    #[error("{0}")]
    Conflict(String),
    /// Well-formed JSON whose values cannot be used.
    #[error("{detail}")]
    Invalid { field: &'static str, detail: String },
    #[error("{0}")]
    Overloaded(String),
    #[error("{0}")]
    Unavailable(String),
    /// Never caused by client input; logged, and its detail kept private.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn invalid(field: &'static str, detail: impl Into<String>) -> Self {
        Self::Invalid {
            field,
            detail: detail.into(),
        }
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Overloaded(_) | Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// An RFC 9457 problem document.
#[derive(Debug, Serialize, ToSchema)]
pub struct Problem {
    /// Always `about:blank`: the status and title say what kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// The HTTP status phrase.
    pub title: String,
    pub status: u16,
    /// What went wrong, for a person.
    pub detail: String,
    /// The request fields at fault, for validation problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldProblem>,
}

/// One request field at fault.
#[derive(Debug, Serialize, ToSchema)]
pub struct FieldProblem {
    /// The field's name in the request body.
    pub field: String,
    pub message: String,
}

/// Renders a problem document with the right content type.
pub fn problem_response(status: StatusCode, detail: String, errors: Vec<FieldProblem>) -> Response {
    let body = Problem {
        kind: "about:blank".to_owned(),
        title: status.canonical_reason().unwrap_or("Error").to_owned(),
        status: status.as_u16(),
        detail,
        errors,
    };
    let mut response = (status, axum::Json(body)).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    response
}

impl ApiError {
    /// The problem document this error renders as.
    pub fn into_problem(self) -> Problem {
        let status = self.status_code();
        let (detail, errors) = self.into_parts();
        Problem {
            kind: "about:blank".to_owned(),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail,
            errors,
        }
    }

    fn into_parts(self) -> (String, Vec<FieldProblem>) {
        match self {
            ApiError::Invalid { field, detail } => {
                let errors = vec![FieldProblem {
                    field: field.to_owned(),
                    message: detail.clone(),
                }];
                (detail, errors)
            }
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                (
                    "the server failed unexpectedly; the error has been logged".to_owned(),
                    Vec::new(),
                )
            }
            other => (other.to_string(), Vec::new()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let (detail, errors) = self.into_parts();
        let mut response = problem_response(status, detail, errors);
        if status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}

impl From<PositionError> for ApiError {
    fn from(e: PositionError) -> Self {
        ApiError::invalid(field_of(e.part), e.detail)
    }
}

/// The request field that holds a part of a position.
fn field_of(part: Part) -> &'static str {
    match part {
        Part::Board => "board",
        Part::Moves => "moves",
        Part::ToMove => "to_move",
        Part::Size => "size",
        Part::Rules => "rules",
    }
}

impl From<PoolError> for ApiError {
    fn from(e: PoolError) -> Self {
        match e {
            PoolError::Overloaded => ApiError::Overloaded(
                "every search worker is busy and the queue is full; retry shortly".to_owned(),
            ),
            PoolError::ShuttingDown => {
                ApiError::Unavailable("the service is shutting down".to_owned())
            }
            PoolError::Failed => ApiError::Internal("a search failed on its worker".to_owned()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let text = rejection.body_text();
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(
                "the request body is larger than the server accepts".to_owned(),
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(
                "send the body as JSON with `content-type: application/json`".to_owned(),
            ),
            _ => ApiError::BadRequest(text),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ApiError::NotFound(
                "no session with this id: it never existed, was deleted or expired".to_owned(),
            ),
            StoreError::Conflict { current } => ApiError::Conflict(format!(
                "the session changed while this request ran (it is now at version {current}); read it again and retry"
            )),
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "session store unavailable");
                ApiError::Unavailable(
                    "the session store is unreachable; sessions are unavailable for now, stateless search still works".to_owned(),
                )
            }
            StoreError::Corrupt(cause) => ApiError::Internal(format!("corrupt session: {cause}")),
        }
    }
}
