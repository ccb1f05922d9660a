//! The play page at `GET /`: one HTML page, its script (ES modules, `app.js`
//! the entry) and its style sheet, embedded in the binary so the service
//! needs nothing else to serve it (no build step, no CDN, works offline).
//! The page talks to the public API — the session routes, `/v1/search`,
//! `/v1/position`, `/v1/games` — exactly as any other client would.
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
    ($file:literal, $content_type:expr) => {{
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

/// Every file of the page, by the path it is served at. The modules import
/// each other by these paths (`./api.js` from `/app.js` is `/api.js`), and the
/// page preloads them all, so a new module is added here and in
/// `index.html`'s `modulepreload` list (a test checks both).
static ASSETS: [(&str, Asset); 10] = [
    ("/", asset!("page/index.html", HTML)),
    ("/app.css", asset!("page/app.css", CSS)),
    ("/app.js", asset!("page/app.js", JAVASCRIPT)),
    ("/api.js", asset!("page/api.js", JAVASCRIPT)),
    ("/state.js", asset!("page/state.js", JAVASCRIPT)),
    ("/setup.js", asset!("page/setup.js", JAVASCRIPT)),
    ("/session.js", asset!("page/session.js", JAVASCRIPT)),
    ("/board.js", asset!("page/board.js", JAVASCRIPT)),
    ("/panels.js", asset!("page/panels.js", JAVASCRIPT)),
    ("/records.js", asset!("page/records.js", JAVASCRIPT)),
];

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
/// Browsers run module scripts served as JavaScript only.
const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

/// The page allows only itself: its own script, style and API, nothing
/// inline and nothing from elsewhere.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

pub fn router() -> Router<AppState> {
    ASSETS.iter().fold(Router::new(), |router, (path, asset)| {
        router.route(
            path,
            get(move |headers: HeaderMap| async move { serve(asset, &headers) }),
        )
    })
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

    fn asset(path: &str) -> &'static Asset {
        &ASSETS.iter().find(|(p, _)| *p == path).expect(path).1
    }

    #[test]
    fn etags_are_quoted_hex_and_differ_by_content() {
        for (path, asset) in &ASSETS {
            assert_eq!(asset.etag.len(), 18, "{path}");
            assert!(asset.etag.starts_with('"') && asset.etag.ends_with('"'));
            assert!(asset.etag[1..17].bytes().all(|b| b.is_ascii_hexdigit()));
        }
        let mut etags: Vec<_> = ASSETS.iter().map(|(_, asset)| asset.etag).collect();
        etags.sort_unstable();
        etags.dedup();
        assert_eq!(etags.len(), ASSETS.len());
    }

    #[test]
    fn the_page_names_its_script_and_style() {
        let index = asset("/").body;
        assert!(index.contains(r#"<script type="module" src="/app.js">"#));
        assert!(index.contains(r#"href="/app.css""#));
    }

    /// Every module a script imports is served, every module but the entry
    /// is preloaded by the page, and every module served is imported (or is
    /// the entry): a module left out of [`ASSETS`] would fail in a browser
    /// only.
    #[test]
    fn every_module_is_served_preloaded_and_used() {
        let index = asset("/").body;
        let modules: Vec<(&str, &Asset)> = ASSETS
            .iter()
            .filter(|(path, _)| path.ends_with(".js"))
            .map(|(path, asset)| (*path, asset))
            .collect();
        let mut imported = vec!["/app.js".to_owned()];
        for (path, asset) in &modules {
            for line in asset.body.lines().filter(|l| l.starts_with("import ")) {
                let from = line.split(" from './").nth(1).expect(line);
                let target = format!("/{}", from.trim_end_matches("';"));
                assert!(
                    modules.iter().any(|(p, _)| *p == target),
                    "{path} imports {target}, which is not served"
                );
                imported.push(target);
            }
            if *path != "/app.js" {
                let preload = format!(r#"<link rel="modulepreload" href="{path}">"#);
                assert!(index.contains(&preload), "the page does not preload {path}");
            }
        }
        for (path, _) in &modules {
            assert!(
                imported.iter().any(|i| i == path),
                "{path} is never imported"
            );
        }
    }
}
