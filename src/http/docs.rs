//! The reference at `GET /docs`, and what the OpenAPI document carries
//! beyond what the handlers' annotations say: the server it is served by,
//! the bearer scheme, the quota's 429 on every `/v1/*` route, and a worked
//! example for every route (for the search and the position routes, one
//! per game).
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

mod examples;

use examples::add_example;

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
    // Relative: the routes are on whatever server serves this document, at
    // whatever address it was given.
    doc["servers"] = json!([{
        "url": "/",
        "description": "The server that serves this document (`cargo run --release` listens on port 8080)"
    }]);
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
         {servers}\
         <p>Authentication: when the server sets API keys, every <code>/v1/*</code> route needs \
         <code>Authorization: Bearer &lt;key&gt;</code>. Quotas: over <code>GAMEAI_RATE_LIMIT</code>, \
         429 with <code>Retry-After</code>, <code>RateLimit</code> and <code>RateLimit-Policy</code>.</p>\n</header>\n",
        t = escape(&title),
        v = escape(&version),
        d = prose(&text(&doc["info"]["description"])),
        servers = servers_html(&doc["servers"]),
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

/// Where the routes are: the document's `servers`.
fn servers_html(servers: &Value) -> String {
    servers
        .as_array()
        .into_iter()
        .flatten()
        .map(|server| {
            format!(
                "<p>Server: <code>{}</code>: {}</p>\n",
                escape(&text(&server["url"])),
                prose_inline(&text(&server["description"])),
            )
        })
        .collect()
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
            examples_html(html, body, "Example", &anchor(method, path));
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
            if !body["example"].is_null() || body["examples"].is_object() {
                let _ = writeln!(html, "<h3>Example answer ({})</h3>", escape(status));
                examples_html(html, body, "Answer", &anchor(method, path));
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

/// A media type's `example`, or each of its named `examples` under its
/// summary (`lead` begins the line: "Example", "Answer"; `operation` is
/// the operation's anchor, which the examples' own anchors extend).
fn examples_html(html: &mut String, media: &Value, lead: &str, operation: &str) {
    example_html(html, &media["example"]);
    for (name, example) in media["examples"].as_object().into_iter().flatten() {
        let _ = writeln!(
            html,
            "<p class=\"example-name\" id=\"{operation}-{kind}-{id}\">{lead} ({id}): {summary}</p>",
            kind = escape(&lead.to_lowercase()),
            id = escape(name),
            lead = escape(lead),
            summary = prose_inline(&text(&example["summary"])),
        );
        example_html(html, &example["value"]);
    }
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

    #[test]
    fn searches_and_positions_have_an_example_for_every_game() {
        let doc = serde_json::to_value(super::super::openapi()).unwrap();
        let html = super::super::docs_html();
        for path in ["/v1/search", "/v1/position"] {
            let operation = &doc["paths"][path]["post"];
            let requests = &operation["requestBody"]["content"]["application/json"]["examples"];
            let answers = &operation["responses"]["200"]["content"]["application/json"]["examples"];
            for kind in crate::games::GameKind::ALL {
                let game = kind.name();
                assert_eq!(requests[game]["value"]["game"], game, "{path} {game}");
                assert!(answers[game]["value"].is_object(), "{path} {game}");
                let anchor = anchor("post", path);
                assert!(html.contains(&format!("id=\"{anchor}-example-{game}\"")));
                assert!(html.contains(&format!("id=\"{anchor}-answer-{game}\"")));
            }
        }
        let games = doc["paths"]["/v1/games"]["get"]["responses"]["200"]["content"]
            ["application/json"]["example"]["games"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(games, crate::games::GameKind::ALL.len());
    }

    /// Whether `actual` holds every field `expected` shows, but for those
    /// that vary from run to run; arrays element for element.
    fn holds(expected: &Value, actual: &Value, place: &str) -> Result<(), String> {
        const VARYING: [&str; 6] = [
            "time_ms",
            "nps",
            "workers",
            "id",
            "created_at",
            "updated_at",
        ];
        match (expected, actual) {
            (Value::Object(fields), Value::Object(got)) => fields
                .iter()
                .filter(|(name, _)| !VARYING.contains(&name.as_str()))
                .try_for_each(|(name, value)| {
                    let place = format!("{place}.{name}");
                    holds(value, got.get(name).unwrap_or(&Value::Null), &place)
                }),
            (Value::Array(items), Value::Array(got)) if items.len() == got.len() => items
                .iter()
                .zip(got)
                .enumerate()
                .try_for_each(|(i, (item, value))| holds(item, value, &format!("{place}[{i}]"))),
            _ if expected == actual => Ok(()),
            _ => Err(format!(
                "{place}: the example says {expected}, the server {actual}"
            )),
        }
    }

    /// Every worked example a client can send as it is (no session id, no
    /// event stream) is sent to the app: its answer is the example's.
    #[tokio::test]
    async fn the_examples_are_what_the_server_answers() {
        use tower::ServiceExt;

        // Without the cache, each example is searched as if it came first.
        let mut config = crate::Config::defaults();
        config.cache_mb = 0;
        let state = crate::AppState::new(config);
        state.pool.wait_prepared();
        let app = crate::app(state);
        let doc = serde_json::to_value(super::super::openapi()).unwrap();
        let mut checked = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            if path.contains('{') || path.contains("stream") {
                continue;
            }
            for (method, operation) in item.as_object().unwrap() {
                let Some(ok) = ["200", "201"]
                    .into_iter()
                    .find(|s| operation["responses"].get(*s).is_some())
                else {
                    continue;
                };
                let answer = &operation["responses"][ok]["content"]["application/json"];
                let request = &operation["requestBody"]["content"]["application/json"];
                let mut cases = Vec::new();
                for (name, example) in answer["examples"].as_object().into_iter().flatten() {
                    cases.push((
                        request["examples"][name]["value"].clone(),
                        &example["value"],
                    ));
                }
                if !answer["example"].is_null() {
                    cases.push((request["example"].clone(), &answer["example"]));
                }
                for (body, expected) in cases {
                    let place = format!("{method} {path} {body}");
                    let builder = axum::http::Request::builder()
                        .method(method.to_uppercase().as_str())
                        .uri(path.as_str())
                        .header("content-type", "application/json");
                    let body = match body {
                        Value::Null => axum::body::Body::empty(),
                        body => axum::body::Body::from(body.to_string()),
                    };
                    let reply = app
                        .clone()
                        .oneshot(builder.body(body).unwrap())
                        .await
                        .unwrap();
                    assert_eq!(reply.status().as_str(), ok, "{place}");
                    let bytes = axum::body::to_bytes(reply.into_body(), usize::MAX)
                        .await
                        .unwrap();
                    let Ok(actual) = serde_json::from_slice::<Value>(&bytes) else {
                        continue;
                    };
                    holds(expected, &actual, &place).unwrap();
                    checked += 1;
                }
            }
        }
        assert!(checked >= 14, "{checked} examples checked");
    }

    #[test]
    fn the_document_names_its_server() {
        let doc = serde_json::to_value(super::super::openapi()).unwrap();
        assert_eq!(doc["servers"][0]["url"], "/");
        assert!(super::super::docs_html().contains("Server: <code>/</code>"));
    }
}
