//! What an example shows against what its command printed.
//!
//! Shown output is read three ways, by its first line:
//! - `HTTP/…`: the output of `curl -i`. The status line is compared; shown
//!   `name: value` lines must be among the answer's headers (any order,
//!   names in any case); the rest is the body, read as below.
//! - `{` or `[`: JSON, which the answer must contain: every shown field of
//!   an object must be there with a matching value (fields not shown are
//!   not checked), arrays match element for element.
//! - anything else: text, line for line (blank lines aside), where a line
//!   whose text continues with JSON (`data: {…}`) has that JSON read as
//!   above.
//!
//! Everywhere `…` (or `...`) stands for anything: a value, any fields of an
//! object, any run of array elements or of lines, any part of a string or
//! of a line.

use serde_json::Value;

/// What a wildcard becomes once the shown JSON is read: a string no
/// answer contains.
const ANY: &str = "\u{0}any";

/// Checks `actual` (a command's standard output) against `shown` (the
/// comment lines after it, without their `# `).
pub fn check(shown: &[String], actual: &str) -> Result<(), String> {
    let shown: Vec<&str> = shown
        .iter()
        .map(|l| l.trim_end())
        .skip_while(|l| l.is_empty())
        .collect();
    let Some(first) = shown.first() else {
        return Ok(());
    };
    if first.starts_with("HTTP/") {
        check_http(&shown, actual)
    } else {
        check_body(&shown, actual)
    }
}

/// The error status of an answer: the status line of `curl -i` output, or
/// a problem+json body's `status`.
pub fn problem_status(actual: &str) -> Option<u64> {
    if let Some(answer) = split_http(actual) {
        let code = answer
            .status_line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse::<u64>().ok());
        return code
            .filter(|&c| c >= 400)
            .or_else(|| problem_in(answer.body));
    }
    problem_in(actual)
}

fn problem_in(body: &str) -> Option<u64> {
    let value: Value = serde_json::from_str(body.trim()).ok()?;
    let status = value.get("status")?.as_u64()?;
    (status >= 400 && value.get("title").is_some_and(Value::is_string)).then_some(status)
}

/// Whether the shown output names `status`: as an HTTP status line or as
/// a problem's `"status"`.
pub fn names_status(shown: &[String], status: u64) -> bool {
    let status_line = shown.iter().any(|l| {
        l.starts_with("HTTP/") && l.split_whitespace().nth(1) == Some(&status.to_string())
    });
    let joined: String = shown.concat().split_whitespace().collect();
    status_line || joined.contains(&format!("\"status\":{status}"))
}

fn check_http(shown: &[&str], actual: &str) -> Result<(), String> {
    let HttpAnswer {
        status_line,
        headers,
        body,
    } = split_http(actual).ok_or("the shown output is an HTTP answer; the command printed none")?;
    if !glob(shown[0], status_line) {
        return Err(format!(
            "status line: shown `{}`, got `{status_line}`",
            shown[0]
        ));
    }
    let mut rest = &shown[1..];
    while let Some((line, tail)) = rest.split_first() {
        if is_wildcard(line) || line.is_empty() {
            rest = tail;
            continue;
        }
        let Some((name, value)) = header_line(line) else {
            break;
        };
        let found = headers
            .iter()
            .any(|(n, v)| n.eq_ignore_ascii_case(name) && glob(value, v));
        if !found {
            return Err(format!(
                "no header `{line}` in the answer:\n{}",
                headers_text(&headers)
            ));
        }
        rest = tail;
    }
    check_body(rest, body)
}

fn headers_text(headers: &[(&str, &str)]) -> String {
    headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A shown `name: value` header line (a token, then `: `).
fn header_line(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once(": ")?;
    let token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    token.then_some((name, value.trim()))
}

/// `curl -i` output, read.
struct HttpAnswer<'a> {
    status_line: &'a str,
    headers: Vec<(&'a str, &'a str)>,
    body: &'a str,
}

/// `curl -i` output as its (last) status line, headers and body.
fn split_http(actual: &str) -> Option<HttpAnswer<'_>> {
    let mut text = actual;
    // An interim answer (100 Continue) comes before the real one.
    loop {
        if !text.starts_with("HTTP/") {
            return None;
        }
        let (head, body) = match text.find("\r\n\r\n") {
            Some(i) => (&text[..i], &text[i + 4..]),
            None => match text.find("\n\n") {
                Some(i) => (&text[..i], &text[i + 2..]),
                None => (text, ""),
            },
        };
        if body.starts_with("HTTP/") {
            text = body;
            continue;
        }
        let mut lines = head.lines().map(|l| l.trim_end_matches('\r'));
        let status = lines.next()?;
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim(), v.trim()))
            .collect();
        return Some(HttpAnswer {
            status_line: status,
            headers,
            body,
        });
    }
}

fn check_body(shown: &[&str], actual: &str) -> Result<(), String> {
    let Some(first) = shown.iter().find(|l| !l.is_empty()) else {
        return Ok(());
    };
    if first.starts_with('{') || first.starts_with('[') {
        let pattern = read_pattern(&shown.join("\n"))?;
        let value: Value = serde_json::from_str(actual.trim())
            .map_err(|e| format!("the shown output is JSON; the answer is not ({e})"))?;
        return matches(&pattern, &value, "");
    }
    let wanted: Vec<&str> = shown.iter().copied().filter(|l| !l.is_empty()).collect();
    let got: Vec<&str> = actual
        .lines()
        .map(|l| l.trim_end_matches('\r').trim_end())
        .filter(|l| !l.is_empty())
        .collect();
    if lines_match(&wanted, &got) {
        Ok(())
    } else {
        Err("the output's lines differ from the shown ones".to_owned())
    }
}

fn is_wildcard(text: &str) -> bool {
    matches!(text.trim(), "…" | "...")
}

/// Shown lines against printed ones: a wildcard line stands for any run.
fn lines_match(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((line, rest)) if is_wildcard(line) => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((line, rest)) => actual
            .split_first()
            .is_some_and(|(got, tail)| line_matches(line, got) && lines_match(rest, tail)),
    }
}

/// One shown line against one printed: as text with wildcards, or, where
/// both continue with JSON after the same text, as JSON.
fn line_matches(shown: &str, actual: &str) -> bool {
    if glob(shown, actual) {
        return true;
    }
    let Some(at) = shown.find(['{', '[']) else {
        return false;
    };
    let (prefix, json) = shown.split_at(at);
    let Some(rest) = actual.strip_prefix(prefix) else {
        return false;
    };
    let (Ok(pattern), Ok(value)) = (read_pattern(json), serde_json::from_str::<Value>(rest)) else {
        return false;
    };
    matches(&pattern, &value, "").is_ok()
}

/// Reads shown JSON, its wildcards turned into [`ANY`]: as a value, or as
/// a field named [`ANY`] where a field's name would come.
fn read_pattern(text: &str) -> Result<Value, String> {
    let mut json = String::with_capacity(text.len());
    let mut open = Vec::new();
    let (mut in_string, mut escaped, mut key_next) = (false, false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            json.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let wildcard = ["…", "..."].into_iter().find(|w| rest.starts_with(w));
        if let Some(w) = wildcard {
            let any = serde_json::to_string(ANY).expect("a string serialises");
            if open.last() == Some(&'{') && key_next {
                json.push_str(&format!("{any}:null"));
                key_next = false;
            } else {
                json.push_str(&any);
            }
            rest = &rest[w.len()..];
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                key_next = false;
            }
            '{' => {
                open.push('{');
                key_next = true;
            }
            '[' => open.push('['),
            '}' | ']' => {
                open.pop();
            }
            ',' => key_next = open.last() == Some(&'{'),
            _ => {}
        }
        json.push(c);
        rest = &rest[c.len_utf8()..];
    }
    serde_json::from_str(&json).map_err(|e| format!("the shown JSON does not read ({e}): {text}"))
}

/// Whether `actual` holds what `shown` shows; the error names the place.
fn matches(shown: &Value, actual: &Value, path: &str) -> Result<(), String> {
    let differs = || {
        Err(format!(
            "{}: shown {}, got {}",
            if path.is_empty() { "the answer" } else { path },
            show(shown),
            show(actual)
        ))
    };
    match (shown, actual) {
        (Value::String(s), _) if s == ANY => Ok(()),
        (Value::Object(fields), Value::Object(got)) => {
            for (name, value) in fields {
                if name == ANY {
                    continue;
                }
                let place = format!("{path}.{name}");
                match got.get(name) {
                    Some(v) => matches(value, v, &place)?,
                    None => return Err(format!("{place}: shown, but not in the answer")),
                }
            }
            Ok(())
        }
        (Value::Array(items), Value::Array(got)) => {
            if items.iter().any(|i| i.as_str() == Some(ANY)) {
                if elements_match(items, got) {
                    Ok(())
                } else {
                    differs()
                }
            } else if items.len() != got.len() {
                differs()
            } else {
                for (i, (item, value)) in items.iter().zip(got).enumerate() {
                    matches(item, value, &format!("{path}[{i}]"))?;
                }
                Ok(())
            }
        }
        (Value::String(s), Value::String(a)) if glob(s, a) => Ok(()),
        (Value::Number(s), Value::Number(a)) if s.as_f64() == a.as_f64() => Ok(()),
        (s, a) if s == a => Ok(()),
        _ => differs(),
    }
}

fn elements_match(shown: &[Value], actual: &[Value]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((item, rest)) if item.as_str() == Some(ANY) => {
            (0..=actual.len()).any(|skip| elements_match(rest, &actual[skip..]))
        }
        Some((item, rest)) => actual.split_first().is_some_and(|(got, tail)| {
            matches(item, got, "").is_ok() && elements_match(rest, tail)
        }),
    }
}

fn show(value: &Value) -> String {
    let text = match value {
        Value::String(s) if s == ANY => "…".to_owned(),
        other => other.to_string(),
    };
    let mut short: String = text.chars().take(300).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// Text with `…` or `...` standing for any run of characters.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('…').flat_map(|p| p.split("...")).collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn shown_json_is_a_subset_of_the_answer() {
        let answer = r#"{"best_move":{"row":2,"col":0,"notation":"a3"},"score":99995,"pv":["a3","a2","c3"],"time_ms":3}"#;
        assert!(
            check(
                &shown(r#"{"best_move":{"notation":"a3"},"score":99995}"#),
                answer
            )
            .is_ok()
        );
        assert!(
            check(
                &shown(r#"{"best_move":{"notation":"a3"},"pv":["a3",…]}"#),
                answer
            )
            .is_ok()
        );
        assert!(check(&shown("{\"pv\":[\"a3\",\n \"a2\",\"c3\"],…}"), answer).is_ok());
        assert!(check(&shown(r#"{"time_ms":…,"pv":[…,"c3"]}"#), answer).is_ok());
        let err = check(&shown(r#"{"score":99994}"#), answer).unwrap_err();
        assert!(err.contains(".score"), "{err}");
        assert!(check(&shown(r#"{"pv":["a3"]}"#), answer).is_err());
        assert!(check(&shown(r#"{"pv":["a3",…,"b2"]}"#), answer).is_err());
        assert!(check(&shown(r#"{"ponder":true}"#), answer).is_err());
        assert!(check(&shown(r#"{"score":99995"#), answer).is_err());
        assert!(check(&shown(r#"{"score":1}"#), "not json").is_err());
    }

    #[test]
    fn wildcards_stand_in_strings_values_and_fields() {
        let answer = r#"{"id":"4b0e7c2a-1","board":["O..",".X."],"x":{"y":1}}"#;
        assert!(check(&shown(r#"{"id":"4b0e…","x":{...},…}"#), answer).is_ok());
        assert!(check(&shown(r#"{"id":"…-1","board":[…]}"#), answer).is_ok());
        assert!(check(&shown(r#"{"id":"5…"}"#), answer).is_err());
        assert!(check(&shown(r#"{"x":{"y":…,"z":…}}"#), answer).is_err());
    }

    #[test]
    fn text_matches_line_for_line() {
        let out = "OK\n7,7\n";
        assert!(check(&shown("OK\n7,7"), out).is_ok());
        assert!(check(&shown("OK"), out).is_err());
        assert!(check(&shown("OK\n…"), out).is_ok());
        assert!(check(&shown("…\n7,…"), out).is_ok());
        assert!(check(&shown("OK\n8,8"), out).is_err());
        let events = "event: depth\ndata: {\"depth\":1,\"nodes\":5}\n\nevent: result\ndata: {\"best_move\":{\"notation\":\"f4\"}}\n\n";
        let stream = "event: depth\ndata: {\"depth\":1}\n…\nevent: result\ndata: {\"best_move\":{\"notation\":\"f4\"}}";
        assert!(check(&shown(stream), events).is_ok());
        let wrong = "event: depth\ndata: {\"depth\":2}\n…";
        assert!(check(&shown(wrong), events).is_err());
    }

    #[test]
    fn http_answers_check_status_headers_and_body() {
        let out = "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nLocation: /v1/sessions/ab12\r\n\r\n{\"id\":\"ab12\",\"version\":1}";
        let ok = "HTTP/1.1 201 Created\nlocation: /v1/sessions/…\n{\"id\":\"…\",\"version\":1}";
        assert!(check(&shown(ok), out).is_ok());
        assert!(check(&shown("HTTP/1.1 200 OK"), out).is_err());
        assert!(check(&shown("HTTP/1.1 201 Created\nretry-after: 1"), out).is_err());
        assert!(check(&shown("HTTP/1.1 201 Created\n{\"version\":2}"), out).is_err());
        assert_eq!(problem_status(out), None);
    }

    #[test]
    fn problems_are_found_and_must_be_shown() {
        let problem =
            r#"{"type":"about:blank","title":"Conflict","status":409,"detail":"the game is over"}"#;
        assert_eq!(problem_status(problem), Some(409));
        assert_eq!(problem_status("HTTP/1.1 404 Not Found\r\n\r\n"), Some(404));
        assert_eq!(problem_status(r#"{"results":[{"status":422}]}"#), None);
        assert!(names_status(&shown(r#"{"status": 409,…}"#), 409));
        assert!(names_status(&shown("HTTP/1.1 409 Conflict"), 409));
        assert!(!names_status(&shown(r#"{"status":422}"#), 409));
    }
}
