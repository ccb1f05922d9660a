//! The play page at `GET /`: one HTML page, its script and its style sheet,
//! embedded in the binary so the service needs nothing else to serve it (no
//! build step, no CDN, works offline). The page talks to the public API —
//! the session routes, `/v1/search`, `/v1/position`, `/v1/games` — exactly
//! as any other client would.
//!
//! It is not an API route, so it stays out of the OpenAPI document.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::AppState;

/// One embedded file and how to serve it.
struct Asset {
    body: &'static str,
    content_type: &'static str,
    etag: &'static str,
}

/// Builds an [`Asset`], its `ETag` a hash of its contents computed at
/// compile time, so a new binary never serves a stale cached file.
macro_rules! asset {
    ($file:literal, $content_type:literal) => {{
        const BODY: &str = include_str!($file);
        const HASH: [u8; 18] = etag_of(BODY);
        Asset {
            body: BODY,
            content_type: $content_type,
            etag: match std::str::from_utf8(&HASH) {
                Ok(etag) => etag,
                Err(_) => panic!("an ETag is ASCII"),
            },
        }
    }};
}

const INDEX: Asset = asset!("page/index.html", "text/html; charset=utf-8");
const SCRIPT: Asset = asset!("page/app.js", "text/javascript; charset=utf-8");
const STYLE: Asset = asset!("page/app.css", "text/css; charset=utf-8");

/// The page allows only itself: its own script, style and API, nothing
/// inline and nothing from elsewhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| async move { serve(&INDEX, &headers) }),
        )
        .route(
            "/app.js",
            get(|headers: HeaderMap| async move { serve(&SCRIPT, &headers) }),
        )
        .route(
            "/app.css",
            get(|headers: HeaderMap| async move { serve(&STYLE, &headers) }),
        )
}

/// Serves `asset`, or 304 when the browser already holds this version.
/// `no-cache` makes browsers check each time (one cheap 304), so a new
/// binary's page shows at once.
fn serve(asset: &Asset, request: &HeaderMap) -> Response {
    let etag = HeaderValue::from_static(asset.etag);
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim() == asset.etag || t.trim() == "*")
        });
    let headers = [
        (header::ETAG, etag),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (
        headers,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        )],
        asset.body,
    )
        .into_response()
}

/// A quoted strong ETag: 64-bit FNV-1a of the contents in hex.
const fn etag_of(body: &str) -> [u8; 18] {
    let bytes = body.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    let digits = b"0123456789abcdef";
    let mut out = [b'"'; 18];
    let mut j = 0;
    while j < 16 {
        out[1 + j] = digits[((hash >> (60 - 4 * j)) & 0xf) as usize];
        j += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_are_quoted_hex_and_differ_by_content() {
        assert_eq!(INDEX.etag.len(), 18);
        assert!(INDEX.etag.starts_with('"') && INDEX.etag.ends_with('"'));
        assert!(INDEX.etag[1..17].bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(INDEX.etag, SCRIPT.etag);
        assert_ne!(SCRIPT.etag, STYLE.etag);
    }

    #[test]
    fn the_page_names_its_script_and_style() {
        assert!(INDEX.body.contains(r#"src="/app.js""#));
        assert!(INDEX.body.contains(r#"href="/app.css""#));
    }
}
