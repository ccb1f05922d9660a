//! One error type at the HTTP boundary, rendered as `application/problem+json`
//! (RFC 9457). Axum's own rejections are converted into it, so every 4xx and
//! 5xx a client sees has the same shape.
//!
//! An error keeps what caused it (the pool's, the store's or the position's
//! error) and is logged once, by the request's layer ([`Reported::log`]): the
//! response it renders carries it in an extension (axum's error-handling
//! pattern), so conversions stay free of side effects and an internal
//! error's cause reaches the log but never the client.

use std::error::Error as StdError;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::games::{Part, PositionError};
use crate::pool::PoolError;
use crate::sessions::{SessionError, StoreError};

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// Any error, as the cause of an internal one.
pub type BoxError = Box<dyn StdError + Send + Sync>;

/// Seconds a client should wait before retrying an overloaded service.
const RETRY_AFTER_SECS: u32 = 1;

/// What the client sees of an internal error.
const INTERNAL_DETAIL: &str = "the server failed unexpectedly; the error has been logged";

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
    /// A request field whose value cannot be used (out of range, an
    /// unknown game, an illegal move).
    #[error("{detail}")]
    InvalidField { field: &'static str, detail: String },
    /// A position that cannot exist, or a finished game to search.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// Work the server will not start now (a batch's budget ran out).
    #[error("{0}")]
    Overloaded(String),
    /// The search pool turned the search away or lost it.
    #[error("search pool")]
    Pool(#[from] PoolError),
    /// The session store refused or failed.
    #[error("session store")]
    Store(#[from] StoreError),
    /// A session change the store did not confirm: it may have applied.
    #[error("{0}")]
    Unconfirmed(String),
    /// Never caused by client input: logged, its detail kept private.
    #[error("{context}")]
    Internal {
        context: String,
        #[source]
        source: BoxError,
    },
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::Conflict(detail) => Self::Conflict(detail),
            SessionError::Invalid { field, detail } => Self::InvalidField { field, detail },
            SessionError::Position(e) => Self::Position(e),
            SessionError::Store(e) => Self::Store(e),
            SessionError::Pool(e) => Self::Pool(e),
            SessionError::Unconfirmed(detail) => Self::Unconfirmed(detail),
            SessionError::Internal { context, source } => Self::Internal { context, source },
        }
    }
}

impl ApiError {
    /// A field's value the server cannot use.
    pub fn invalid(field: &'static str, detail: impl Into<String>) -> Self {
        Self::InvalidField {
            field,
            detail: detail.into(),
        }
    }

    /// A failure that is the server's fault, caused by `source`.
    pub fn internal(context: impl Into<String>, source: impl Into<BoxError>) -> Self {
        Self::Internal {
            context: context.into(),
            source: source.into(),
        }
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::NotFound(_) | Self::Store(StoreError::NotFound) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) | Self::Store(StoreError::Conflict { .. }) => StatusCode::CONFLICT,
            Self::InvalidField { .. } | Self::Position(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Overloaded(_)
            | Self::Pool(PoolError::Overloaded | PoolError::ShuttingDown | PoolError::TimedOut)
            | Self::Store(StoreError::Unavailable(_) | StoreError::Refused(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            // The store may still apply the change: not a refusal.
            Self::Unconfirmed(_) | Self::Store(StoreError::Unknown(_)) => {
                StatusCode::GATEWAY_TIMEOUT
            }
            Self::Internal { .. }
            | Self::Pool(PoolError::Failed)
            | Self::Store(StoreError::Corrupt(_)) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The problem document this error renders as, its texts bounded
    /// (see [`bounded`]) whatever the client sent.
    pub fn problem(&self) -> Problem {
        let status = self.status_code();
        let mut errors = self.field_problems();
        for e in &mut errors {
            e.message = bounded(&e.message);
        }
        Problem {
            kind: "about:blank".to_owned(),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail: bounded(&self.detail()),
            errors,
        }
    }

    /// What the client reads: the error itself, or for the server's own
    /// failures only that one happened.
    fn detail(&self) -> String {
        match self {
            Self::Pool(PoolError::Overloaded) => {
                "every search worker is busy and the queue is full; retry shortly".to_owned()
            }
            Self::Pool(PoolError::ShuttingDown) => "the service is shutting down".to_owned(),
            Self::Pool(PoolError::TimedOut) => {
                "the search waited too long for a worker; retry shortly".to_owned()
            }
            Self::Store(StoreError::NotFound) => {
                "no session with this id: it never existed, was deleted or expired".to_owned()
            }
            Self::Store(StoreError::Conflict { current }) => format!(
                "the session changed while this request ran (it is now at version {current}); read it again and retry"
            ),
            Self::Store(StoreError::Unavailable(_)) => {
                "the session store is unreachable; sessions are unavailable for now (nothing changed), stateless search still works".to_owned()
            }
            Self::Store(StoreError::Refused(_)) => {
                "the session store refused the change; nothing changed: retry shortly".to_owned()
            }
            Self::Store(StoreError::Unknown(_)) => {
                "the session store did not confirm the change in time: it may have been applied; read the session back".to_owned()
            }
            Self::Position(e) => e.detail.clone(),
            _ if self.status_code() == StatusCode::INTERNAL_SERVER_ERROR => {
                INTERNAL_DETAIL.to_owned()
            }
            other => other.to_string(),
        }
    }

    fn field_problems(&self) -> Vec<FieldProblem> {
        let (field, detail) = match self {
            Self::InvalidField { field, detail } => (*field, detail),
            Self::Position(e) => (position_field(e), &e.detail),
            _ => return Vec::new(),
        };
        vec![FieldProblem {
            field: field.to_owned(),
            message: detail.clone(),
        }]
    }

    /// Writes this error to the log: the server's failures with their whole
    /// cause, an unreachable store as a warning, the client's mistakes
    /// only at debug level.
    pub fn log(&self) {
        if let Self::Store(
            StoreError::Unavailable(cause)
            | StoreError::Refused(cause)
            | StoreError::Unknown(cause),
        ) = self
        {
            tracing::warn!(%cause, "session store unavailable");
        } else if self.status_code() == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!(cause = %Chain(self), "internal error");
        } else {
            tracing::debug!(status = self.status_code().as_u16(), error = %Chain(self), "request refused");
        }
    }
}

/// The longest quoted value an error repeats, in characters.
const QUOTE_CHARS: usize = 48;
/// The longest message an error carries, in characters.
const MESSAGE_CHARS: usize = 1000;

/// A message as an answer may carry it: each quoted value (`"..."`, as
/// `{value:?}` and serde write them) cut to a short prefix, and the whole
/// cut to a bound, so an error answer stays small whatever the client sent.
pub fn bounded(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MESSAGE_CHARS + 8));
    let mut quoted = None::<usize>;
    let mut escaped = false;
    for ch in message.chars() {
        match quoted {
            None => {
                if ch == '"' {
                    quoted = Some(0);
                }
                out.push(ch);
            }
            Some(n) => {
                let closes = ch == '"' && !escaped;
                escaped = ch == '\\' && !escaped;
                if closes {
                    quoted = None;
                    out.push(ch);
                } else if n < QUOTE_CHARS {
                    out.push(ch);
                    quoted = Some(n + 1);
                } else if n == QUOTE_CHARS {
                    out.push('…');
                    quoted = Some(n + 1);
                }
            }
        }
    }
    match out.char_indices().nth(MESSAGE_CHARS) {
        Some((cut, _)) => {
            out.truncate(cut);
            out.push('…');
            out
        }
        None => out,
    }
}

/// The request field that holds the part of a position at fault: the
/// games name parts, only http knows the JSON.
fn position_field(e: &PositionError) -> &'static str {
    match e.part {
        Part::Board => "board",
        Part::Moves => "moves",
        Part::ToMove => "to_move",
        Part::Size => "size",
        Part::Rules => "rules",
    }
}

/// An error and its sources, `: `-separated.
struct Chain<'a>(&'a (dyn StdError + 'static));

impl std::fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(e) = source {
            write!(f, ": {e}")?;
            source = e.source();
        }
        Ok(())
    }
}

/// The errors a response carries to the request's layer: the one it renders, or
/// a batch's failed items.
#[derive(Clone, Debug)]
pub struct Reported(Arc<[ApiError]>);

impl Reported {
    pub fn new(errors: Vec<ApiError>) -> Self {
        Self(errors.into())
    }
}

impl Reported {
    /// Logs each error, once (the request's layer does, in its span).
    pub fn log(&self) {
        self.0.iter().for_each(ApiError::log);
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status_code();
        let problem = self.problem();
        let mut response = problem_response(status, problem.detail, problem.errors);
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
        response.extensions_mut().insert(Reported::new(vec![self]));
        response
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge(
                "the request body is larger than the server accepts".to_owned(),
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType(
                "send the body as JSON with `content-type: application/json`".to_owned(),
            ),
            _ => ApiError::BadRequest(rejection.body_text()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_causes_stay_out_of_the_problem() {
        let e = ApiError::internal("session abc does not replay", "secret cause");
        let problem = e.problem();
        assert_eq!(problem.status, 500);
        assert_eq!(problem.detail, INTERNAL_DETAIL);
        assert_eq!(
            Chain(&e).to_string(),
            "session abc does not replay: secret cause"
        );
        let corrupt = ApiError::from(StoreError::Corrupt("bad json".to_owned()));
        assert_eq!(corrupt.problem().detail, INTERNAL_DETAIL);
        assert_eq!(
            Chain(&corrupt).to_string(),
            "session store: a stored session is corrupt: bad json"
        );
    }

    #[test]
    fn an_error_response_carries_the_error_for_the_log() {
        let response = ApiError::from(PoolError::Failed).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let Reported(errors) = response.extensions().get::<Reported>().unwrap();
        assert!(matches!(errors[..], [ApiError::Pool(PoolError::Failed)]));
    }

    #[test]
    fn field_errors_name_their_field() {
        let problem = ApiError::invalid("depth", "depth must be between 1 and 9, got 0").problem();
        assert_eq!(problem.status, 422);
        assert_eq!(problem.errors[0].field, "depth");
        assert_eq!(problem.errors[0].message, problem.detail);
    }

    #[test]
    fn errors_quote_a_short_prefix_of_a_value_whatever_its_length() {
        let long = "x".repeat(65_000);
        let problem = ApiError::invalid(
            "game",
            format!("unknown game {long:?}; this server plays tictactoe"),
        )
        .problem();
        assert!(problem.detail.len() < 200, "{}", problem.detail);
        assert!(
            problem.detail.ends_with("…\"; this server plays tictactoe"),
            "{}",
            problem.detail
        );
        assert_eq!(problem.errors[0].message, problem.detail);
        let unquoted = ApiError::invalid("moves", format!("move 1 ({long}): not a cell")).problem();
        assert!(unquoted.detail.chars().count() <= MESSAGE_CHARS + 1);
        // Escaped quotes stay inside their value; short values are whole.
        assert_eq!(bounded(r#"got "a\"b" and "c""#), r#"got "a\"b" and "c""#);
    }
}
