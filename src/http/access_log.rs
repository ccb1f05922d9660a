//! The access log: which requests get an info-level span and line
//! (`GAMEAI_ACCESS_LOG`), and the line written when the response goes out.
//!
//! Under load one line per request is most of what the service writes, and
//! formatting it costs more than answering a cached search; so probes are
//! always at debug, and the rest can be sampled or turned off.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::http::{Request, Response};
use tower_http::LatencyUnit;
use tower_http::trace::{DefaultOnResponse, MakeSpan, OnResponse};

use crate::config::AccessLog;

/// Makes each request's span: `request` (at info) when it is to be
/// logged, otherwise `probe` or `quiet` (at debug, so disabled unless
/// `RUST_LOG` asks for debug, and then nearly free).
#[derive(Clone, Debug)]
pub struct AccessSpans {
    setting: AccessLog,
    seen: Arc<AtomicU64>,
}

impl AccessSpans {
    pub fn new(setting: AccessLog) -> Self {
        Self {
            setting,
            seen: Arc::default(),
        }
    }

    /// Whether the next ordinary request gets an info line.
    fn logs_next(&self) -> bool {
        match self.setting {
            AccessLog::On => true,
            AccessLog::Off => false,
            // A counter, not a random draw: one in N exactly, and cheap.
            AccessLog::Sample(n) => self.seen.fetch_add(1, Ordering::Relaxed) % u64::from(n) == 0,
        }
    }
}

impl<B> MakeSpan<B> for AccessSpans {
    fn make_span(&mut self, request: &Request<B>) -> tracing::Span {
        let id = request
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-");
        let path = loggable(request.uri().path());
        let method = request.method();
        // Probes come every few seconds from every orchestrator and
        // balancer: their lines would drown the log at info.
        if is_probe(&path) {
            tracing::debug_span!("probe", method = %method, path = %path, request_id = %id)
        } else if self.logs_next() {
            tracing::info_span!("request", method = %method, path = %path, request_id = %id)
        } else {
            tracing::debug_span!("quiet", method = %method, path = %path, request_id = %id)
        }
    }
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

/// The access log line: at info for logged requests, at debug for the
/// others (whose span is at debug too).
pub fn log_response<B>(response: &Response<B>, latency: Duration, span: &tracing::Span) {
    let level = match span.metadata().map(|m| m.name()) {
        Some("request") => tracing::Level::INFO,
        Some(_) => tracing::Level::DEBUG,
        None => return,
    };
    DefaultOnResponse::new()
        .level(level)
        .latency_unit(LatencyUnit::Millis)
        .on_response(response, latency, span);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged_of(setting: AccessLog, requests: usize) -> usize {
        let spans = AccessSpans::new(setting);
        (0..requests).filter(|_| spans.logs_next()).count()
    }

    #[test]
    fn sampling_logs_one_request_in_n() {
        assert_eq!(logged_of(AccessLog::On, 50), 50);
        assert_eq!(logged_of(AccessLog::Off, 50), 0);
        assert_eq!(logged_of(AccessLog::Sample(10), 100), 10);
        assert_eq!(logged_of(AccessLog::Sample(7), 8), 2);
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

    #[test]
    fn clones_share_one_count() {
        // The trace layer clones its span maker per connection.
        let spans = AccessSpans::new(AccessLog::Sample(4));
        let other = spans.clone();
        let logged = (0..8)
            .filter(|i| if i % 2 == 0 { &spans } else { &other }.logs_next())
            .count();
        assert_eq!(logged, 2);
    }
}
