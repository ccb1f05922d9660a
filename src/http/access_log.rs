//! The request's outer layer, paid once per request: its id (the
//! client's when short and plain, else one of ours, echoed in
//! `x-request-id`), its span, the access log line and the errors the
//! response carries, each logged once.
//!
//! Under load one line per request is most of what the service writes, and
//! formatting it costs more than answering a cached search; so which
//! requests get an info line is a setting (`GAMEAI_ACCESS_LOG`: every one,
//! at most so many a second, one in N, or none), probes are only ever at
//! debug, and an error always gets its line. A request that is not logged
//! gets no span at all (a disabled one when debug is off): its id and path
//! are kept by reference, and only turned into a line if it fails.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Instant;

use axum::http::{HeaderName, HeaderValue, Method, Request, Response, Uri};
use pin_project_lite::pin_project;
use tower::{Layer, Service};
use tracing::Span;

use super::error::Reported;
use super::middleware::RequestIds;
use crate::config::AccessLog;

const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id a client may choose.
const MAX_REQUEST_ID: usize = 64;

/// Which requests get an info line: shared by every connection.
#[derive(Debug)]
struct Sampler {
    setting: AccessLog,
    /// Requests seen (`sample:N`), or this second's lines (`limit:N`).
    seen: AtomicU64,
    /// The second `seen` counts, for `limit:N`, since `started`.
    second: AtomicU64,
    started: Instant,
}

impl Sampler {
    /// Whether the next ordinary request gets an info line.
    fn logs_next(&self) -> bool {
        match self.setting {
            AccessLog::On => true,
            AccessLog::Off => false,
            // A counter, not a random draw: one in N exactly, and cheap.
            AccessLog::Sample(n) => self.seen.fetch_add(1, Ordering::Relaxed) % u64::from(n) == 0,
            AccessLog::Limit(n) => {
                let now = self.started.elapsed().as_secs();
                if self.second.load(Ordering::Relaxed) != now
                    && self.second.swap(now, Ordering::Relaxed) != now
                {
                    self.seen.store(0, Ordering::Relaxed);
                }
                self.seen.fetch_add(1, Ordering::Relaxed) < u64::from(n)
            }
        }
    }
}

/// The layer: request ids, spans, the access log and error logging.
#[derive(Clone, Debug)]
pub struct RequestLogLayer {
    sampler: Arc<Sampler>,
    ids: RequestIds,
}

impl RequestLogLayer {
    pub fn new(setting: AccessLog) -> Self {
        Self {
            sampler: Arc::new(Sampler {
                setting,
                seen: AtomicU64::new(0),
                second: AtomicU64::new(0),
                started: Instant::now(),
            }),
            ids: RequestIds::new(),
        }
    }
}

impl<S> Layer<S> for RequestLogLayer {
    type Service = RequestLog<S>;

    fn layer(&self, inner: S) -> RequestLog<S> {
        RequestLog {
            inner,
            sampler: Arc::clone(&self.sampler),
            ids: self.ids,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RequestLog<S> {
    inner: S,
    sampler: Arc<Sampler>,
    ids: RequestIds,
}

/// A client's request id is kept only when short and plain: letters,
/// digits, `-`, `_`, `.`, `:`, at most 64 bytes.
fn plain(id: &HeaderValue) -> bool {
    let id = id.as_bytes();
    !id.is_empty()
        && id.len() <= MAX_REQUEST_ID
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

impl<S, B, R> Service<Request<B>> for RequestLog<S>
where
    S: Service<Request<B>, Response = Response<R>>,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = ResponseFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let ids = request.headers().get_all(&X_REQUEST_ID);
        let mut given = ids.iter();
        let id = match (given.next(), given.next()) {
            (Some(id), None) if plain(id) => id.clone(),
            _ => {
                let id = self.ids.make();
                request.headers_mut().insert(X_REQUEST_ID, id.clone());
                id
            }
        };
        let probe = is_probe(request.uri().path());
        let logged = !probe && self.sampler.logs_next();
        let span = if logged {
            request_span(tracing::Level::INFO, request.method(), request.uri(), &id)
        } else {
            request_span(tracing::Level::DEBUG, request.method(), request.uri(), &id)
        };
        let seen = Seen {
            method: request.method().clone(),
            uri: request.uri().clone(),
            id,
            logged,
            probe,
            started: Instant::now(),
        };
        let inner = span.in_scope(|| self.inner.call(request));
        ResponseFuture {
            inner,
            span,
            seen: Some(seen),
        }
    }
}

/// What the line needs to know of a request, kept while it runs.
struct Seen {
    method: Method,
    uri: Uri,
    id: HeaderValue,
    logged: bool,
    probe: bool,
    started: Instant,
}

/// The request's span at `level` (`request` at info, `quiet` at debug):
/// disabled, and nearly free, when the level is off.
fn request_span(level: tracing::Level, method: &Method, uri: &Uri, id: &HeaderValue) -> Span {
    let id = id.to_str().unwrap_or("-");
    if level == tracing::Level::INFO {
        tracing::info_span!("request", method = %method, path = %loggable(uri.path()), request_id = %id)
    } else {
        tracing::debug_span!("quiet", method = %method, path = %loggable(uri.path()), request_id = %id)
    }
}

pin_project! {
    pub struct ResponseFuture<F> {
        #[pin]
        inner: F,
        span: Span,
        seen: Option<Seen>,
    }
}

impl<F, R, E> Future for ResponseFuture<F>
where
    F: Future<Output = Result<Response<R>, E>>,
{
    type Output = Result<Response<R>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = {
            let _entered = this.span.enter();
            ready!(this.inner.poll(cx))
        };
        let Some(seen) = this.seen.take() else {
            return Poll::Ready(result);
        };
        let mut response = match result {
            Ok(response) => response,
            Err(e) => return Poll::Ready(Err(e)),
        };
        response.headers_mut().insert(X_REQUEST_ID, seen.id.clone());
        finish(&seen, this.span, &response);
        Poll::Ready(Ok(response))
    }
}

/// The access line and the errors the response carries: in the request's
/// span when it has one; a failed request that was not to be logged gets
/// its span now, so that its line and its errors carry its id and path.
fn finish<R>(seen: &Seen, span: &Span, response: &Response<R>) {
    let status = response.status();
    let errors = response.extensions().get::<Reported>();
    let failed = (status.is_client_error() || status.is_server_error()) && !seen.probe;
    if !seen.logged && !failed && errors.is_none() && span.is_disabled() {
        return;
    }
    let latency_ms = seen.started.elapsed().as_secs_f64() * 1000.0;
    let line = |level| {
        let status = status.as_u16();
        if level == tracing::Level::INFO {
            tracing::info!(status, latency_ms, "finished processing request");
        } else {
            tracing::debug!(status, latency_ms, "finished processing request");
        }
    };
    let owned;
    let span = if seen.logged || !(failed || errors.is_some()) {
        span
    } else {
        owned = request_span(tracing::Level::INFO, &seen.method, &seen.uri, &seen.id);
        &owned
    };
    span.in_scope(|| {
        let level = if seen.logged || failed {
            tracing::Level::INFO
        } else {
            tracing::Level::DEBUG
        };
        line(level);
        if let Some(errors) = errors {
            errors.log();
        }
    });
}

/// A path as the log keeps it: a session's id is a bearer of access to
/// the session (with keys off, to anyone who has it), so only a short
/// prefix of it is written: enough to follow one game through the log.
fn loggable(path: &str) -> Cow<'_, str> {
    const KEPT: usize = 8;
    let Some(rest) = path.strip_prefix("/v1/sessions/") else {
        return Cow::Borrowed(path);
    };
    let (id, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match id.get(..KEPT) {
        Some(kept) if id.len() > KEPT => Cow::Owned(format!("/v1/sessions/{kept}…{tail}")),
        _ => Cow::Borrowed(path),
    }
}

/// Health, readiness and metrics: asked by machines, on a timer.
fn is_probe(path: &str) -> bool {
    matches!(path, "/healthz" | "/readyz" | "/metrics")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged_of(setting: AccessLog, requests: usize) -> usize {
        let layer = RequestLogLayer::new(setting);
        (0..requests).filter(|_| layer.sampler.logs_next()).count()
    }

    #[test]
    fn sampling_logs_one_request_in_n_or_so_many_a_second() {
        assert_eq!(logged_of(AccessLog::On, 50), 50);
        assert_eq!(logged_of(AccessLog::Off, 50), 0);
        assert_eq!(logged_of(AccessLog::Sample(10), 100), 10);
        assert_eq!(logged_of(AccessLog::Sample(7), 8), 2);
        // Well within one second: the first N only.
        assert_eq!(logged_of(AccessLog::Limit(5), 50), 5);
    }

    #[test]
    fn clones_share_one_count() {
        // A layer's services are cloned per connection.
        let layer = RequestLogLayer::new(AccessLog::Sample(4));
        let a = layer.layer(());
        let b = a.clone();
        let logged = (0..8)
            .filter(|i| if i % 2 == 0 { &a } else { &b }.sampler.logs_next())
            .count();
        assert_eq!(logged, 2);
    }

    #[test]
    fn request_ids_are_kept_only_when_plain() {
        assert!(plain(&HeaderValue::from_static("plain-id_1.2:3")));
        assert!(!plain(&HeaderValue::from_static("has space")));
        assert!(!plain(&HeaderValue::from_static("<script>")));
        assert!(!plain(&HeaderValue::from_str(&"x".repeat(65)).unwrap()));
    }

    #[test]
    fn session_ids_are_logged_by_a_short_prefix() {
        let id = "4b0e8c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
        assert_eq!(
            loggable(&format!("/v1/sessions/{id}/moves")),
            "/v1/sessions/4b0e8c1a…/moves"
        );
        assert_eq!(
            loggable(&format!("/v1/sessions/{id}")),
            "/v1/sessions/4b0e8c1a…"
        );
        assert_eq!(loggable("/v1/sessions"), "/v1/sessions");
        assert_eq!(loggable("/v1/search"), "/v1/search");
    }
}
