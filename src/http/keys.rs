//! API keys: with any configured (`GAMEAI_API_KEY`, `GAMEAI_API_KEYS`),
//! `/v1/*` needs one as a bearer token. The key that matched names the
//! client for its quota, and owns the sessions it creates. A request with
//! a missing or wrong key is charged to its address's quota, so guessing
//! keys is limited as any other request is.

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use crate::config::Config;
use crate::sessions::Owner;

/// The keys that open `/v1/*`, each with the owner it names; empty when
/// the API is open to all.
#[derive(Debug, Default)]
pub struct Keyring(Vec<(String, Owner)>);

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
        Self(
            keys.into_iter()
                .map(|key| {
                    let owner = Owner::of_key(&key);
                    (key, owner)
                })
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The key equal to `token`. Every key is compared, each in time that
    /// depends only on the lengths, so timing tells nothing of a key.
    fn find(&self, token: &str) -> Option<ClientKey> {
        self.0
            .iter()
            .enumerate()
            .fold(None, |found, (i, (key, _))| {
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

/// The token of an `Authorization: Bearer <token>` header; the scheme's
/// name in any case, as RFC 9110 has it.
fn bearer_token(request: &Request) -> Option<&str> {
    let value = request
        .headers()
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.trim_start().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim_matches(' '))
}

/// With keys set, `/v1/*` needs one as a bearer token; health, readiness,
/// metrics, the document and the pages stay open. The key's owner goes
/// with the request for the session routes.
pub async fn require_api_key(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    if state.keys.is_empty() || !request.uri().path().starts_with("/v1/") {
        return next.run(request).await;
    }
    let found = bearer_token(&request).map(|token| state.keys.find(token));
    if let Some(Some(client)) = found {
        let owner = state.keys.0[client.0].1.clone();
        request.extensions_mut().insert(client);
        request.extensions_mut().insert(owner);
        return next.run(request).await;
    }
    // A wrong or missing key is charged to the address it came from.
    if let Some(refusal) = state
        .quotas
        .as_deref()
        .and_then(|quotas| quotas.charge_address(&request))
    {
        return refusal;
    }
    let detail = match found {
        Some(_) => "the bearer token is not valid",
        None => "send `Authorization: Bearer <key>`; this server requires an API key",
    };
    ApiError::Unauthorized(detail.to_owned()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_names_its_client() {
        let ring = Keyring(
            ["alpha", "beta"]
                .map(|k| (k.to_owned(), Owner::of_key(k)))
                .into(),
        );
        assert_eq!(ring.find("alpha"), Some(ClientKey(0)));
        assert_eq!(ring.find("beta"), Some(ClientKey(1)));
        assert_eq!(ring.find("bet"), None);
        assert_eq!(ring.find(""), None);
    }

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        let token = |value: &str| {
            let request = Request::builder()
                .header(header::AUTHORIZATION, value)
                .body(axum::body::Body::empty())
                .unwrap();
            bearer_token(&request).map(str::to_owned)
        };
        assert_eq!(token("Bearer k1").as_deref(), Some("k1"));
        assert_eq!(token("bearer k1").as_deref(), Some("k1"));
        assert_eq!(token("BEARER  k1").as_deref(), Some("k1"));
        assert_eq!(token("Basic k1"), None);
        assert_eq!(token("Bearer"), None);
    }
}
