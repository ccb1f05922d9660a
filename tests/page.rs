//! The play page's routes: the page, its script and style, with their
//! content types, caching and security headers. (`tests/browser.rs` plays
//! the page in a real browser.)

mod common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::*;
use gameai::{AppState, Config, app};
use tower::ServiceExt;

#[tokio::test]
async fn the_page_its_script_and_style_are_served_with_their_types() {
    let app = test_app();
    for (path, content_type, needle) in [
        ("/", "text/html; charset=utf-8", "<title>gameai"),
        ("/app.js", "text/javascript; charset=utf-8", "/v1/sessions"),
        ("/app.css", "text/css; charset=utf-8", ".board"),
    ] {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(reply.headers["content-type"], content_type, "{path}");
        assert_eq!(reply.headers["cache-control"], "no-cache", "{path}");
        assert_eq!(reply.headers["x-content-type-options"], "nosniff");
        let csp = reply.headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && csp.contains("connect-src 'self'"));
        assert!(reply.text.contains(needle), "{path} holds {needle}");
    }
}

#[tokio::test]
async fn a_cached_copy_is_revalidated_with_its_etag() {
    let app = test_app();
    let first = get(&app, "/app.js").await;
    let etag = first.headers["etag"].to_str().unwrap().to_owned();
    let request = |tag: &str| {
        Request::builder()
            .uri("/app.js")
            .header("if-none-match", tag)
            .body(Body::empty())
            .unwrap()
    };
    let same = app.clone().oneshot(request(&etag)).await.unwrap();
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(same.headers()["etag"], etag.as_str());
    let other = app.clone().oneshot(request("\"0\"")).await.unwrap();
    assert_eq!(other.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_page_needs_no_api_key_and_stays_out_of_the_document() {
    let mut config = Config::defaults();
    config.api_key = Some("s3cret".to_owned());
    let app = app(AppState::new(config));
    for path in ["/", "/app.js", "/app.css"] {
        assert_eq!(get(&app, path).await.status, StatusCode::OK, "{path}");
    }
    let head = send(&app, Method::HEAD, "/", None, Body::empty()).await;
    assert_eq!(head.status, StatusCode::OK);
    assert!(head.text.is_empty());
    // Not an API route, so not in openapi.yaml (schemathesis fuzzes only that).
    assert!(!gameai::openapi_yaml().contains("\n  /:\n"));
    // Other methods are problems like anywhere else.
    let post = send(&app, Method::POST, "/", None, Body::empty()).await;
    assert_problem(&post, StatusCode::METHOD_NOT_ALLOWED);
}
