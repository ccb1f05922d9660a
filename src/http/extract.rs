//! Extractors for request bodies: JSON whose rejections render as our
//! problem+json, that must be an object, and that some routes let the
//! client leave out.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;

use serde::de::{DeserializeOwned, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::error::{ApiError, Result};

/// JSON in and out, with rejections rendered as problem+json. A body must
/// be a JSON object (serde would otherwise read a struct from an array).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self> {
        if !is_json(request.headers()) {
            return Err(ApiError::UnsupportedMediaType(
                "send the body as JSON with `content-type: application/json`".to_owned(),
            ));
        }
        let bytes = body(request, state).await?;
        read_object(&bytes).map(Json)
    }
}

/// Reads `T` from a body that must be a JSON object without duplicate
/// keys. A well-formed body is read straight into `T`, once; only one that
/// fails is read again, so that its problem is the one described for the
/// body as a whole, with the path of the field at fault.
fn read_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    no_duplicate_keys(bytes)?;
    if bytes.trim_ascii_start().first() == Some(&b'{')
        && let Ok(body) = serde_json::from_slice(bytes)
    {
        return Ok(body);
    }
    let axum::Json(value) = axum::Json::<serde_json::Value>::from_bytes(bytes)?;
    from_object(value)
}

/// Refuses a body that gives a key twice in one object: a JSON reader
/// would keep the last, so `{"game":"tictactoe","game":"connect4"}` would
/// search Connect Four while looking like tic-tac-toe.
fn no_duplicate_keys(bytes: &[u8]) -> Result<()> {
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    match NoDuplicates::deserialize(&mut reader) {
        Err(e) if e.is_data() => Err(ApiError::BadRequest(e.to_string())),
        // Syntax errors are described when the body is read.
        _ => Ok(()),
    }
}

/// Any JSON value, read only to check that no object repeats a key.
struct NoDuplicates;

impl<'de> Deserialize<'de> for NoDuplicates {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_any(NoDuplicatesVisitor)
    }
}

struct NoDuplicatesVisitor;

impl<'de> Visitor<'de> for NoDuplicatesVisitor {
    type Value = NoDuplicates;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<NoDuplicates, A::Error> {
        let mut keys: Vec<Cow<'de, str>> = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if keys.contains(&key) {
                return Err(A::Error::custom(format!(
                    "the key {key:?} is given twice in one object; give each key once"
                )));
            }
            keys.push(key);
            map.next_value::<NoDuplicates>()?;
        }
        Ok(NoDuplicates)
    }

    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<NoDuplicates, A::Error> {
        while seq.next_element::<NoDuplicates>()?.is_some() {}
        Ok(NoDuplicates)
    }

    fn visit_bool<E>(self, _: bool) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }

    fn visit_i64<E>(self, _: i64) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }

    fn visit_u64<E>(self, _: u64) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }

    fn visit_f64<E>(self, _: f64) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }

    fn visit_str<E>(self, _: &str) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }

    fn visit_unit<E>(self) -> std::result::Result<NoDuplicates, E> {
        Ok(NoDuplicates)
    }
}

/// Whether the request says its body is JSON: `application/json` or an
/// `application/…+json` type, in any case, with any parameters.
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| {
            let v = v.trim().to_ascii_lowercase();
            v == "application/json" || (v.starts_with("application/") && v.ends_with("+json"))
        })
}

/// The whole body, within the body limit.
async fn body<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes> {
    Bytes::from_request(request, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge(
                "the request body is larger than the server accepts".to_owned(),
            )
        } else {
            ApiError::BadRequest(e.body_text())
        }
    })
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// A JSON body that may be left out entirely (then `T::default()`).
pub struct OptionalJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self> {
        let is_json = is_json(request.headers());
        let bytes = body(request, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(T::default()));
        }
        if !is_json {
            return Err(ApiError::UnsupportedMediaType(
                "send the body as JSON with `content-type: application/json`, or send no body"
                    .to_owned(),
            ));
        }
        read_object(&bytes).map(Self)
    }
}

/// Reads `T` from a JSON value that must be an object; a field of the
/// wrong type is named by its path (`ai.depth: invalid type ...`).
pub fn from_object<T: DeserializeOwned>(value: serde_json::Value) -> Result<T> {
    if !value.is_object() {
        return Err(ApiError::BadRequest(
            "the body must be a JSON object".to_owned(),
        ));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let mut path = e.path().to_string();
        let inner = e.into_inner().to_string();
        // An unknown field's path ends with the field, which the message
        // names already: the path is where it was given.
        if inner.starts_with("unknown field") {
            path.truncate(path.rfind(['.', '[']).unwrap_or(0));
        }
        ApiError::BadRequest(if path.is_empty() || path == "." {
            inner
        } else {
            format!("{path}: {inner}")
        })
    })
}

/// For a nested object field: `null` or an object, never an array.
pub fn optional_object<'de, D, T>(deserializer: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    use serde::de::Error;
    match Option::<serde_json::Value>::deserialize(deserializer)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(value @ serde_json::Value::Object(_)) => serde_json::from_value(value)
            .map(Some)
            .map_err(D::Error::custom),
        Some(other) => Err(D::Error::custom(format!("expected an object, got {other}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        depth: Option<i64>,
        inner: Option<Inner>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        level: Option<i64>,
    }

    fn refusal(body: &str) -> String {
        match read_object::<Outer>(body.as_bytes()) {
            Err(ApiError::BadRequest(detail)) => detail,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_refusal_names_where_the_field_is() {
        assert!(refusal(r#"{"depth":"9"}"#).starts_with("depth: invalid type"));
        assert!(refusal(r#"{"inner":{"level":"x"}}"#).starts_with("inner.level: invalid type"));
        assert!(refusal(r#"{"dpth":9}"#).starts_with("unknown field `dpth`"));
        assert!(refusal(r#"{"inner":{"lvl":1}}"#).starts_with("inner: unknown field `lvl`"));
        assert!(refusal(r#"{"depth":1,"depth":2}"#).contains("\"depth\" is given twice"));
        assert!(refusal(r#"{"inner":{"level":1,"level":1}}"#).contains("given twice"));
        assert!(read_object::<Outer>(br#"{"depth":1,"inner":{"level":2}}"#).is_ok());
    }
}
