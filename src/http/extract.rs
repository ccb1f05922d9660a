//! Extractors for request bodies: JSON whose rejections render as our
//! problem+json, that must be an object, and that some routes let the
//! client leave out.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

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
        // A well-formed body is read straight into `T`, once. Only one that
        // fails is read again as a value, so that its problem is the one
        // described for the body as a whole (and duplicate keys keep the
        // last-one-wins reading of a JSON value).
        if bytes.trim_ascii_start().first() == Some(&b'{')
            && let Ok(body) = serde_json::from_slice(&bytes)
        {
            return Ok(Json(body));
        }
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_bytes(&bytes)?;
        from_object(value).map(Json)
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
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_bytes(&bytes)?;
        from_object(value).map(Self)
    }
}

/// Reads `T` from a JSON value that must be an object.
pub fn from_object<T: DeserializeOwned>(value: serde_json::Value) -> Result<T> {
    if !value.is_object() {
        return Err(ApiError::BadRequest(
            "the body must be a JSON object".to_owned(),
        ));
    }
    serde_json::from_value(value).map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// For a nested object field: `null` or an object, never an array.
pub fn optional_object<'de, D, T>(deserializer: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    use serde::Deserialize;
    use serde::de::Error;
    match Option::<serde_json::Value>::deserialize(deserializer)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(value @ serde_json::Value::Object(_)) => serde_json::from_value(value)
            .map(Some)
            .map_err(D::Error::custom),
        Some(other) => Err(D::Error::custom(format!("expected an object, got {other}"))),
    }
}
