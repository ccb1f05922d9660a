//! Serving the app on a socket, set up for the open internet: hyper's
//! HTTP/1.1 under axum, with its own bounds. A client must send a request's headers within
//! the header timeout (counted from the moment a connection may send one,
//! so a new connection that sends nothing, and a kept-alive one left idle,
//! are closed by the same clock); the headers must fit in the header
//! buffer (431 beyond it); and at most so many connections are open at
//! once (past that the listener waits: new connections queue in the
//! kernel's backlog until one closes).
//!
//! hyper answers a request it cannot read (400), whose URI is too long
//! (414) or whose headers are too large (431) itself, with an empty body;
//! [`ProblemIo`] rewrites those few answers as problem+json on their way
//! out, so that every error a client sees has one shape.

use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// The bounds every connection is held to.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// How long a connection may take to send a request's headers, from
    /// the moment it may send one; also how long a kept-alive connection
    /// may sit idle.
    pub header_timeout: Duration,
    /// The most bytes a request's line and headers may take.
    pub max_header_bytes: usize,
    /// Connections open at once, at most.
    pub max_connections: usize,
}

impl From<&crate::Config> for ConnectionLimits {
    fn from(config: &crate::Config) -> Self {
        Self {
            header_timeout: Duration::from_millis(config.header_timeout_ms),
            max_header_bytes: usize::try_from(config.max_header_bytes).unwrap_or(usize::MAX),
            max_connections: usize::try_from(config.max_connections).unwrap_or(usize::MAX),
        }
    }
}

/// hyper's smallest read buffer: a header bound below it is raised to it.
const MIN_HEADER_BUFFER: usize = 8192;

/// Serves `app` on `listener` within `limits` until `shutdown` completes;
/// then stops accepting, lets each connection finish its requests in
/// flight and close, and returns once all have.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    // HTTP/1.1 only: a client speaking HTTP/2 does so to a proxy in front.
    // (Detecting the version first would read before any timer runs, so a
    // connection that sent nothing would never be closed.)
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.max_header_bytes.max(MIN_HEADER_BUFFER));
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&open).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = app
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                // The peer's address keys per-client quotas when no API
                // keys are set.
                request.extensions_mut().insert(ConnectInfo(peer));
                request.map(Body::new)
            });
        let io = TokioIo::new(ProblemIo::new(stream, permit));
        let connection = builder.serve_connection(io, TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::trace!(error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// A failed accept: out of file descriptors or the like. Waiting a moment
/// keeps the loop from spinning while it lasts.
async fn accept_failed(e: io::Error) {
    if !matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    ) {
        tracing::warn!(error = %e, "accepting a connection failed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A connection's socket, holding its place among the open connections,
/// that rewrites hyper's own bare error answers as problem+json.
pub struct ProblemIo {
    stream: TcpStream,
    /// Released when the connection closes.
    _open: OwnedSemaphorePermit,
    /// A rewritten answer still to send, and how much of it went.
    pending: Option<(Vec<u8>, usize)>,
}

impl ProblemIo {
    fn new(stream: TcpStream, open: OwnedSemaphorePermit) -> Self {
        Self {
            stream,
            _open: open,
            pending: None,
        }
    }

    /// Sends what is left of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, sent)) = &mut self.pending {
            let n = ready!(Pin::new(&mut self.stream).poll_write(cx, &bytes[*sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *sent += n;
            if *sent == bytes.len() {
                self.pending = None;
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// hyper's answer to a request it could not read, as problem+json: `head`
/// is a whole answer hyper wrote, and only its bodiless 400, 414 and 431
/// are rewritten.
fn problem_for_bare_error(head: &[u8]) -> Option<Vec<u8>> {
    const LONGEST_BARE_HEAD: usize = 256;
    if head.len() > LONGEST_BARE_HEAD || !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let status = text.strip_prefix("HTTP/1.1 ")?.get(..3)?;
    let lower = text.to_ascii_lowercase();
    if !lower.contains("\r\ncontent-length: 0\r\n") {
        return None;
    }
    let (status, detail) = match status {
        "400" => (
            StatusCode::BAD_REQUEST,
            "the request could not be read as HTTP/1.1",
        ),
        "414" => (
            StatusCode::URI_TOO_LONG,
            "the request's URI is longer than this server accepts",
        ),
        "431" => (
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "the request's headers are larger than this server accepts (GAMEAI_MAX_HEADER_BYTES)",
        ),
        _ => return None,
    };
    let body = serde_json::json!({
        "type": "about:blank",
        "title": status.canonical_reason().unwrap_or("Error"),
        "status": status.as_u16(),
        "detail": detail,
    })
    .to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/problem+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl AsyncRead for ProblemIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for ProblemIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(rewritten) = problem_for_bare_error(buf) {
            self.pending = Some((rewritten, 0));
            // The original is taken as written; the rewrite goes out now
            // or on the flush that follows.
            let _ = self.poll_pending(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bodiless_parse_errors_are_rewritten() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Sat, 05 Dec 2026 00:00:00 GMT\r\n\r\n";
        let rewritten = String::from_utf8(problem_for_bare_error(head).unwrap()).unwrap();
        assert!(rewritten.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(rewritten.contains("content-type: application/problem+json\r\n"));
        let body = rewritten.split("\r\n\r\n").nth(1).unwrap();
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["status"], 431);
        assert!(rewritten.contains(&format!("content-length: {}\r\n", body.len())));

        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: 80\r\n\r\n";
        assert!(problem_for_bare_error(ours).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(problem_for_bare_error(ok).is_none());
    }
}
