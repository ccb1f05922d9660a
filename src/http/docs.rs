//! The reference at `GET /docs`, and what the OpenAPI document carries
//! beyond what the handlers' annotations say: the bearer scheme, the
//! quota's 429 on every `/v1/*` route, and a worked example for every
//! route.
//!
//! The page is rendered here, once, from the same document
//! `GET /openapi.yaml` serves, as plain HTML with one style sheet: nothing
//! is fetched from elsewhere, no script runs, and it fits a content
//! security policy as strict as the play page's.

use std::fmt::Write;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{Value, json};
use utoipa::openapi::OpenApi;

use super::AppState;

const STYLE: &str = include_str!("docs/docs.css");

/// Only the page's own style sheet; no script at all.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/docs", get(serve_docs))
        .route("/docs.css", get(serve_style))
}

async fn serve_docs(State(state): State<AppState>) -> impl IntoResponse {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CONTENT_SECURITY_POLICY),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        state.docs_html.to_string(),
    )
}

async fn serve_style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        STYLE,
    )
}

/// Adds to the generated document what no handler annotation holds.
pub fn complete(api: OpenApi) -> OpenApi {
    let mut doc = serde_json::to_value(&api).expect("the OpenAPI document serialises");
    doc["components"]["securitySchemes"] = json!({
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key (`GAMEAI_API_KEY` or one of `GAMEAI_API_KEYS`) as `Authorization: Bearer <key>`. Only needed when the server sets keys; health, readiness, metrics and this document never need one."
        }
    });
    if let Some(paths) = doc["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for (method, operation) in item.iter_mut() {
                if path.starts_with("/v1/") {
                    // `{}` as well: the key is optional unless the server sets one.
                    operation["security"] = json!([{"bearer": []}, {}]);
                    operation["responses"]["429"] = too_many_requests();
                }
                add_example(method, path, operation);
            }
        }
    }
    serde_json::from_value(doc).expect("the completed document reads back")
}

fn too_many_requests() -> Value {
    json!({
        "description": "This client is over its quota (`GAMEAI_RATE_LIMIT`); retry after `Retry-After` seconds",
        "headers": {
            "Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}},
            "RateLimit": {"description": "`\"default\";r=<requests left>;t=<seconds>`", "schema": {"type": "string"}},
            "RateLimit-Policy": {"description": "`\"default\";q=<burst>;w=<seconds to refill it>`", "schema": {"type": "string"}}
        },
        "content": {"application/problem+json": {
            "schema": {"$ref": "#/components/schemas/Problem"},
            "example": {"type": "about:blank", "title": "Too Many Requests", "status": 429,
                "detail": "this client is over its quota of 5 requests a second (bursts of 5); retry after 1 s"}
        }}
    })
}

/// Puts a request and an answer example on `operation` (the `GET` and
/// `POST` of one path share nothing but the answer).
fn add_example(method: &str, path: &str, operation: &mut Value) {
    let Some((request, answer)) = example(method, path) else {
        return;
    };
    if let Some(request) = request
        && let Some(content) = operation["requestBody"]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["example"] = request;
    }
    let ok = ["200", "201", "204"]
        .into_iter()
        .find(|s| operation["responses"].get(*s).is_some());
    if let Some(ok) = ok
        && let Some(content) = operation["responses"][ok]["content"].as_object_mut()
        && let Some(media) = content.values_mut().next()
    {
        media["example"] = answer;
    }
}

/// A worked example per route: the request body (if any) and the answer,
/// as the server gives them.
fn example(method: &str, path: &str) -> Option<(Option<Value>, Value)> {
    let search = json!({
        "best_move": {"row": 2, "col": 0, "notation": "a3"}, "score": 99995,
        "proven": {"result": "win", "plies": 5}, "depth": 7, "nodes": 98, "time_ms": 0,
        "nps": 98000, "pv": ["a3", "a2", "c3", "b3", "b2"], "stopped": "proven",
        "to_move": "X", "source": "search"
    });
    let session = |moves: Value, board: Value, version: u64| {
        json!({
            "id": "a126322e-9403-4374-a5f4-56f33659a6da", "game": "tictactoe", "size": 3,
            "rules": null, "board": board, "to_move": "X", "status": "ongoing", "winner": null,
            "winning_line": [], "legal_moves": ["b1", "c1", "a2", "c2", "a3", "b3", "c3"],
            "moves": moves, "ai": {"plays": "O", "depth": 9, "time_ms": 1000}, "version": version,
            "created_at": "2026-11-30T23:32:35.473Z", "updated_at": "2026-11-30T23:32:35.768Z"
        })
    };
    let after_reply = || {
        let mut s = session(json!(["b2", "a1"]), json!(["O..", ".X.", "..."]), 2);
        s["ai_search"] = json!({
            "best_move": {"row": 0, "col": 0, "notation": "a1"}, "score": 0,
            "proven": {"result": "draw", "plies": 8}, "depth": 8, "nodes": 101, "time_ms": 0,
            "nps": 101000, "pv": ["a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
            "stopped": "proven", "to_move": "O", "source": "search"
        });
        s
    };
    Some(match (method, path) {
        ("post", "/v1/search") => (
            Some(json!({"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9})),
            search,
        ),
        ("post", "/v1/search/stream") => (
            Some(json!({"game": "tictactoe", "moves": "b2 a1", "depth": 3})),
            json!({"event": "depth", "data": "{\"depth\":3,\"score\":4,\"pv\":[\"c2\",\"a2\",\"a3\"],\"nodes\":52,\"time_ms\":0}"}),
        ),
        ("get", "/v1/search/stream") => (
            None,
            json!({"event": "result", "data": "{\"best_move\":{\"row\":3,\"col\":2,\"notation\":\"c4\"},\"score\":43,\"proven\":null,\"depth\":12,\"nodes\":758843,\"time_ms\":186,\"nps\":4079801,\"pv\":[\"c4\",\"d3\",\"c3\"],\"stopped\":\"time\",\"to_move\":\"X\",\"source\":\"search\"}"}),
        ),
        ("post", "/v1/search/batch") => (
            Some(
                json!({"items": [{"game": "tictactoe", "board": ["X.O", "...", "..."], "depth": 9}]}),
            ),
            json!({"results": [{"status": 200, "result": search}]}),
        ),
        ("post", "/v1/position") => (
            Some(json!({"game": "connect4", "moves": "4453"})),
            json!({"to_move": "X", "status": "ongoing", "winner": null, "winning_line": [],
                "legal_moves": ["1", "2", "3", "4", "5", "6", "7"], "forbidden": [],
                "board": [".......", ".......", ".......", ".......", "...O...", "..OXX.."]}),
        ),
        ("post", "/v1/analyze") => (
            Some(json!({"game": "tictactoe", "moves": ["b2", "a1"], "depth": 9})),
            json!({"moves": [
                {"ply": 1, "side": "X", "move": "b2", "best_move": "b2",
                 "best_pv": ["b2", "a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
                 "score_before": 0, "score_after": 0, "loss": 0,
                 "proven_before": {"result": "draw", "plies": 9},
                 "proven_after": {"result": "draw", "plies": 9}, "mark": "best"},
                {"ply": 2, "side": "O", "move": "a1", "best_move": "a1",
                 "best_pv": ["a1", "c1", "a3", "a2", "c2", "c3", "b1", "b3"],
                 "score_before": 0, "score_after": 0, "loss": 0,
                 "proven_before": {"result": "draw", "plies": 8},
                 "proven_after": {"result": "draw", "plies": 8}, "mark": "best"}],
                "X": {"moves": 1, "mistakes": 0, "blunders": 0, "average_loss": 0.0},
                "O": {"moves": 1, "mistakes": 0, "blunders": 0, "average_loss": 0.0},
                "threshold": 2, "time_ms_per_position": 200, "time_ms": 0}),
        ),
        ("get", "/v1/games") => (
            None,
            json!({"games": [{"name": "tictactoe", "title": "Tic-tac-toe", "sizes": [3],
                "default_size": 3, "rules": [], "default_rules": null, "default_depth": 9,
                "max_depth": 9, "default_time_ms": 1000,
                "notation": "cell: column letter a-c, then row 1-3 from the top (a1 top-left)",
                "start": ["...", "...", "..."], "gravity": false, "column_notation": false,
                "passes": false, "flips": false, "forbidden_points": false}]}),
        ),
        ("get", "/v1/limits") => (
            None,
            json!({"max_time_ms": 10000, "max_nodes": 100_000_000_000_u64, "max_multi_pv": 400,
                "max_level": 10, "max_batch_items": 64, "max_analyze_moves": 400,
                "max_body_bytes": 65536, "workers": 2, "queue": 64, "tt_mb": 128,
                "games": [{"name": "tictactoe", "max_depth": 9, "default_depth": 9,
                    "default_time_ms": 1000, "default_margin": 1, "default_mistake_threshold": 2}]}),
        ),
        ("post", "/v1/sessions") => (
            Some(json!({"game": "tictactoe", "ai": {"plays": "O", "depth": 9}})),
            {
                let mut s = session(json!([]), json!(["...", "...", "..."]), 1);
                s["legal_moves"] = json!(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]);
                s
            },
        ),
        ("get", "/v1/sessions/{id}") => (
            None,
            session(json!(["b2", "a1"]), json!(["O..", ".X.", "..."]), 2),
        ),
        ("delete", "/v1/sessions/{id}") => return None,
        ("post", "/v1/sessions/{id}/moves") => (
            Some(json!({"move": "b2", "expected_version": 1})),
            after_reply(),
        ),
        ("post", "/v1/sessions/{id}/ai-move") => {
            (Some(json!({"expected_version": 1})), after_reply())
        }
        ("post", "/v1/sessions/{id}/undo") => (
            Some(json!({"expected_version": 2})),
            session(json!([]), json!(["...", "...", "..."]), 3),
        ),
        ("get", "/v1/sessions/{id}/record") => (None, json!("b2 a1")),
        ("get", "/healthz") => (None, json!({"status": "ok"})),
        ("get", "/readyz") => (None, json!({"status": "ok"})),
        ("get", "/metrics") => (
            None,
            json!(
                "# TYPE gameai_searches_total counter\ngameai_searches_total{game=\"tictactoe\",stopped=\"proven\"} 3\n"
            ),
        ),
        ("get", "/openapi.yaml") => (None, json!("openapi: 3.1.0\ninfo:\n  title: gameai\n...")),
        _ => return None,
    })
}

/// The reference page for `doc`, rendered once at start.
pub fn render(doc: &OpenApi) -> String {
    let doc = serde_json::to_value(doc).expect("the OpenAPI document serialises");
    let mut html = String::with_capacity(128 * 1024);
    let title = text(&doc["info"]["title"]);
    let version = text(&doc["info"]["version"]);
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t} {v} — API reference</title>\n<link rel=\"icon\" href=\"data:,\">\n\
         <link rel=\"stylesheet\" href=\"/docs.css\">\n</head>\n<body>\n<header>\n\
         <h1>{t} <small>{v}</small></h1>\n{d}\
         <p>The contract as YAML: <a href=\"/openapi.yaml\">/openapi.yaml</a>. Play against the AI: <a href=\"/\">/</a>.</p>\n\
         <p>Authentication: when the server sets API keys, every <code>/v1/*</code> route needs \
         <code>Authorization: Bearer &lt;key&gt;</code>. Quotas: over <code>GAMEAI_RATE_LIMIT</code>, \
         429 with <code>Retry-After</code>, <code>RateLimit</code> and <code>RateLimit-Policy</code>.</p>\n</header>\n",
        t = escape(&title),
        v = escape(&version),
        d = prose(&text(&doc["info"]["description"])),
    );

    let paths = doc["paths"].as_object().cloned().unwrap_or_default();
    html.push_str("<nav>\n<h2>Routes</h2>\n<ul>\n");
    for (path, item) in &paths {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let _ = writeln!(
                html,
                "<li><a href=\"#{id}\"><span class=\"method {m}\">{M}</span> <code>{p}</code></a> {s}</li>",
                id = anchor(method, path),
                m = escape(method),
                M = escape(&method.to_uppercase()),
                p = escape(path),
                s = prose_inline(&text(&operation["summary"])),
            );
        }
    }
    html.push_str("</ul>\n</nav>\n<main>\n");

    for (path, item) in &paths {
        for (method, operation) in item.as_object().into_iter().flatten() {
            operation_html(&mut html, method, path, operation);
        }
    }

    html.push_str("<section id=\"schemas\">\n<h2>Schemas</h2>\n");
    for (name, schema) in doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        schema_html(&mut html, name, schema);
    }
    html.push_str("</section>\n</main>\n</body>\n</html>\n");
    html
}

fn operation_html(html: &mut String, method: &str, path: &str, operation: &Value) {
    let _ = write!(
        html,
        "<section class=\"operation\" id=\"{id}\">\n<h2><span class=\"method {m}\">{M}</span> <code>{p}</code></h2>\n\
         <p class=\"summary\">{s}</p>\n{d}",
        id = anchor(method, path),
        m = escape(method),
        M = escape(&method.to_uppercase()),
        p = escape(path),
        s = prose_inline(&text(&operation["summary"])),
        d = prose(&text(&operation["description"])),
    );
    if operation.get("security").is_some() {
        html.push_str("<p class=\"auth\">Bearer key when the server sets keys; counted against the client's quota.</p>\n");
    }
    if let Some(params) = operation["parameters"].as_array().filter(|p| !p.is_empty()) {
        html.push_str("<h3>Parameters</h3>\n<table>\n<tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr>\n");
        for p in params {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&text(&p["name"])),
                if p["required"] == json!(true) {
                    " <em>required</em>"
                } else {
                    ""
                },
                escape(&text(&p["in"])),
                type_html(&p["schema"]),
                prose_inline(&text(&p["description"])),
            );
        }
        html.push_str("</table>\n");
    }
    if let Some(content) = operation["requestBody"]["content"].as_object() {
        html.push_str("<h3>Request body</h3>\n");
        for (media, body) in content {
            let _ = writeln!(
                html,
                "<p><code>{}</code>: {}</p>",
                escape(media),
                type_html(&body["schema"])
            );
            example_html(html, &body["example"]);
        }
    }
    html.push_str(
        "<h3>Responses</h3>\n<table>\n<tr><th>Status</th><th>Body</th><th>Meaning</th></tr>\n",
    );
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        let bodies: Vec<String> = response["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(media, c)| format!("<code>{}</code> {}", escape(media), type_html(&c["schema"])))
            .collect();
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(status),
            bodies.join("<br>"),
            prose_inline(&text(&response["description"])),
        );
    }
    html.push_str("</table>\n");
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        if !status.starts_with('2') {
            continue;
        }
        for body in response["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(_, c)| c)
        {
            if !body["example"].is_null() {
                let _ = writeln!(html, "<h3>Example answer ({})</h3>", escape(status));
                example_html(html, &body["example"]);
            }
        }
    }
    html.push_str("</section>\n");
}

fn schema_html(html: &mut String, name: &str, schema: &Value) {
    let _ = write!(
        html,
        "<section class=\"schema\" id=\"schema-{id}\">\n<h3>{n}</h3>\n{d}",
        id = escape(name),
        n = escape(name),
        d = prose(&text(&schema["description"])),
    );
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if let Some(properties) = schema["properties"].as_object() {
        html.push_str("<table>\n<tr><th>Field</th><th>Type</th><th>Description</th></tr>\n");
        for (field, property) in properties {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code>{}</td><td>{}</td><td>{}</td></tr>",
                escape(field),
                if required.contains(&field.as_str()) {
                    " <em>required</em>"
                } else {
                    ""
                },
                type_html(property),
                prose_inline(&text(&property["description"])),
            );
        }
        html.push_str("</table>\n");
    } else {
        let _ = writeln!(html, "<p>{}</p>", type_html(schema));
    }
    html.push_str("</section>\n");
}

fn example_html(html: &mut String, example: &Value) {
    let shown = match example {
        Value::Null => return,
        Value::String(s) => s.clone(),
        other => serde_json::to_string_pretty(other).unwrap_or_default(),
    };
    let _ = writeln!(html, "<pre class=\"example\">{}</pre>", escape(&shown));
}

/// A schema's type, in a few words, with links to named schemas.
fn type_html(schema: &Value) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return format!("<a href=\"#schema-{0}\">{0}</a>", escape(name));
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(options) = schema[key].as_array() {
            let parts: Vec<String> = options.iter().map(type_html).collect();
            return parts.join(if key == "allOf" { " &amp; " } else { " | " });
        }
    }
    let kinds: Vec<String> = match &schema["type"] {
        Value::String(t) => vec![t.clone()],
        Value::Array(ts) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<String> = kinds
        .iter()
        .map(|k| match k.as_str() {
            "array" => format!("array of {}", type_html(&schema["items"])),
            other => escape(other),
        })
        .collect();
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("<code>{}</code>", escape(&v.to_string())))
            .collect();
        out.push(format!("one of {}", values.join(", ")));
    }
    if out.is_empty() {
        "any".to_owned()
    } else {
        out.join(" | ")
    }
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

fn anchor(method: &str, path: &str) -> String {
    let mut id = format!("{method}-");
    id.extend(
        path.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }),
    );
    id
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Paragraphs of a description, with its `code` spans kept as code.
fn prose(text: &str) -> String {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| format!("<p>{}</p>\n", prose_inline(p)))
        .collect()
}

fn prose_inline(text: &str) -> String {
    escape(text)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_code_kept() {
        assert_eq!(
            prose_inline("a <b> `c&d`"),
            "a &lt;b&gt; <code>c&amp;d</code>"
        );
        assert_eq!(anchor("get", "/v1/sessions/{id}"), "get--v1-sessions--id-");
    }

    #[test]
    fn the_page_names_every_route_and_fetches_nothing_from_elsewhere() {
        let html = super::super::docs_html();
        for route in [
            "/v1/search",
            "/v1/search/stream",
            "/v1/sessions/{id}/ai-move",
            "/healthz",
        ] {
            assert!(
                html.contains(&format!("<code>{}</code>", escape(route))),
                "{route}"
            );
        }
        assert!(html.contains("id=\"schema-SearchRequest\""));
        assert!(!html.contains("http://") && !html.contains("https://"));
        assert!(!html.contains("<script"));
    }
}
