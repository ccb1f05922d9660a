//! API keys: with any configured (`GAMEAI_API_KEY`, `GAMEAI_API_KEYS`),
//! `/v1/*` needs one as a bearer token. The key that matched names the
//! client for its quota.

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use crate::config::Config;

/// The keys that open `/v1/*`; empty when the API is open to all.
#[derive(Debug, Default)]
pub struct Keyring(Vec<String>);

/// The key a request presented, by its place in the [`Keyring`]: the
/// client's name for quotas, without carrying the secret around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(pub usize);

impl Keyring {
    pub fn from_config(config: &Config) -> Self {
        let mut keys: Vec<String> = config.api_key.iter().cloned().collect();
        if let Some(more) = &config.api_keys {
            keys.extend(more.0.iter().cloned());
        }
        Self(keys)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The key equal to `token`. Every key is compared, each in time that
    /// depends only on the lengths, so timing tells nothing of a key.
    fn find(&self, token: &str) -> Option<ClientKey> {
        self.0.iter().enumerate().fold(None, |found, (i, key)| {
            if same_secret(token.as_bytes(), key.as_bytes()) {
                found.or(Some(ClientKey(i)))
            } else {
                found
            }
        })
    }
}

/// Compares two secrets in time that depends only on their lengths.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// With keys set, `/v1/*` needs one as a bearer token; health, readiness,
/// metrics, the document and the pages stay open.
pub async fn require_api_key(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    if state.keys.is_empty() || !request.uri().path().starts_with("/v1/") {
        return next.run(request).await;
    }
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match presented.map(|token| state.keys.find(token)) {
        Some(Some(client)) => {
            request.extensions_mut().insert(client);
            next.run(request).await
        }
        Some(None) => {
            ApiError::Unauthorized("the bearer token is not valid".to_owned()).into_response()
        }
        None => ApiError::Unauthorized(
            "send `Authorization: Bearer <key>`; this server requires an API key".to_owned(),
        )
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_names_its_client() {
        let ring = Keyring(vec!["alpha".to_owned(), "beta".to_owned()]);
        assert_eq!(ring.find("alpha"), Some(ClientKey(0)));
        assert_eq!(ring.find("beta"), Some(ClientKey(1)));
        assert_eq!(ring.find("bet"), None);
        assert_eq!(ring.find(""), None);
    }
}
