//! The middleware and fallbacks around the routes: request ids, CORS (with
//! preflights cached), answers for unknown routes and methods, and
//! problem+json for error statuses that lower layers answer with a bare
//! status.

use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::response::Response;
use futures_util::TryFutureExt;
use futures_util::future::{Either, MapOk};
use tower::{Layer, Service};
use tower_http::compression::predicate::Predicate;
use tower_http::compression::{CompressionBody, CompressionLayer, ResponseFuture};
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::error::{self, ApiError};

/// Request ids in the UUID text form, without a system call per request
/// (a random UUID per request asks the kernel for randomness every time):
/// the first half is drawn once per process, the second is a counter put
/// through a bijective mix keyed once per process, so ids never repeat
/// within a process and do not reveal how many requests it has served.
#[derive(Clone, Copy, Debug)]
pub struct RequestIds {
    process: u64,
    key: u64,
}

impl RequestIds {
    pub fn new() -> Self {
        let (process, key) = uuid::Uuid::new_v4().as_u64_pair();
        Self { process, key }
    }
}

/// SplitMix64's finaliser: a bijection on `u64` that scatters neighbours.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

static REQUESTS: AtomicU64 = AtomicU64::new(0);

impl RequestIds {
    /// The next id.
    pub fn make(&self) -> HeaderValue {
        let n = REQUESTS.fetch_add(1, Ordering::Relaxed);
        let id = uuid::Uuid::from_u64_pair(self.process, mix(n ^ self.key));
        let mut buffer = uuid::Uuid::encode_buffer();
        let text = id.hyphenated().encode_lower(&mut buffer);
        HeaderValue::from_str(text).expect("a UUID is a header value")
    }
}

/// Compression (as the client accepts) for the requests that ask for an
/// encoding. tower-http's compressed body keeps every encoder's state
/// inline, nearly 6 KB, and moving it through the layers above cost more
/// than the rest of a short request: a request without `accept-encoding`
/// goes past compression, and a compressed answer's body is boxed as soon
/// as it is made, so the layers above move a pointer.
#[derive(Clone)]
pub struct CompressLayer<P> {
    layer: CompressionLayer<P>,
}

impl<P> CompressLayer<P> {
    pub fn new(layer: CompressionLayer<P>) -> Self {
        Self { layer }
    }
}

impl<S, P: Clone> Layer<S> for CompressLayer<P> {
    type Service = Compress<S, P>;
    fn layer(&self, inner: S) -> Compress<S, P> {
        Compress {
            inner,
            layer: self.layer.clone(),
        }
    }
}

#[derive(Clone)]
pub struct Compress<S, P> {
    inner: S,
    layer: CompressionLayer<P>,
}

type ToBody<B> = fn(Response<B>) -> Response;

fn boxed<B>(response: Response<B>) -> Response
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    response.map(Body::new)
}

impl<S, P, B> Service<Request> for Compress<S, P>
where
    S: Service<Request, Response = Response<B>> + Clone,
    P: Predicate,
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError> + Send,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Either<
        MapOk<S::Future, ToBody<B>>,
        MapOk<ResponseFuture<S::Future, P>, ToBody<CompressionBody<B>>>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if !request.headers().contains_key(header::ACCEPT_ENCODING) {
            return Either::Left(self.inner.call(request).map_ok(boxed as ToBody<B>));
        }
        // The ready service answers this request; its clone waits for the next.
        let clone = self.inner.clone();
        let ready = std::mem::replace(&mut self.inner, clone);
        Either::Right(
            self.layer
                .layer(ready)
                .call(request)
                .map_ok(boxed as ToBody<CompressionBody<B>>),
        )
    }
}

/// How long a browser may reuse a preflight's answer: an hour, so a page
/// that calls the API does not pay a second round trip before every
/// request (browsers cap it lower: Chromium at two hours, Firefox at a
/// day; the allowed origins, methods and headers only change on restart).
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(3600);

pub fn cors(origins: &[String]) -> CorsLayer {
    let allow = if origins.iter().any(|o| o.trim() == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o.trim()).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION])
        .expose_headers([
            header::RETRY_AFTER,
            header::LOCATION,
            HeaderName::from_static("ratelimit"),
            HeaderName::from_static("ratelimit-policy"),
        ])
        .max_age(PREFLIGHT_MAX_AGE)
}

pub async fn route_not_found(request: Request) -> ApiError {
    ApiError::NotFound(format!(
        "no route for {} {}",
        request.method(),
        request.uri().path()
    ))
}

pub async fn method_not_allowed(request: Request) -> ApiError {
    ApiError::MethodNotAllowed(format!(
        "{} is not allowed on {}",
        request.method(),
        request.uri().path()
    ))
}

/// Gives error responses that carry no body of ours (a status from a
/// layer, say) a problem+json body, so clients see one error shape.
pub fn problem_for_bare_errors(response: Response) -> Response {
    let status = response.status();
    // Our handlers answer JSON (problem+json, or `/readyz`'s own body).
    let is_ours = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| {
            v.as_bytes().starts_with(b"application/problem+json")
                || v.as_bytes().starts_with(b"application/json")
        });
    if !(status.is_client_error() || status.is_server_error()) || is_ours {
        return response;
    }
    let detail = status.canonical_reason().unwrap_or("error").to_lowercase();
    let mut problem = error::problem_response(status, detail, Vec::new());
    if let Some(retry) = response.headers().get(header::RETRY_AFTER) {
        problem
            .headers_mut()
            .insert(header::RETRY_AFTER, retry.clone());
    }
    problem
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn request_ids_do_not_repeat() {
        let ids = RequestIds::new();
        let seen: HashSet<String> = (0..10_000)
            .map(|_| ids.make().to_str().unwrap().to_owned())
            .collect();
        assert_eq!(seen.len(), 10_000);
        assert!(seen.iter().all(|id| uuid::Uuid::parse_str(id).is_ok()));
    }
}
