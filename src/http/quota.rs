//! Per-client quotas on `/v1/*`: a token bucket per client (its API key
//! when keys are set, else its address), from `GAMEAI_RATE_LIMIT` and
//! `GAMEAI_RATE_BURST`. Over the quota a client gets 429 as problem+json
//! with `Retry-After`; every answer carries the IETF `RateLimit` and
//! `RateLimit-Policy` headers (draft-ietf-httpapi-ratelimit-headers), so a
//! client can pace itself before it is refused.
//!
//! Health, readiness, metrics, the document and the pages are never
//! limited: probes and scrapes must answer whatever clients do.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{NotUntil, Quota as Bucket, RateLimiter};

use super::AppState;
use super::error::problem_response;
use super::keys::ClientKey;
use crate::config::Config;

const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");

/// Checks between two sweeps of idle clients' buckets: the table of
/// clients stays as small as the recently active ones.
const SWEEP_EVERY: u64 = 4096;

/// Who a quota belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Client {
    Key(ClientKey),
    Address(IpAddr),
    /// No key and no address (a request handed to the router in process).
    Unknown,
}

/// The per-client buckets, and the policy they follow.
pub struct Quotas {
    limiter: RateLimiter<
        Client,
        DefaultKeyedStateStore<Client>,
        DefaultClock,
        StateInformationMiddleware,
    >,
    clock: DefaultClock,
    rate: f64,
    burst: u32,
    trust_forwarded: bool,
    checks: AtomicU64,
}

impl Quotas {
    /// The quotas `config` asks for, or `None` when it sets no rate.
    pub fn from_config(config: &Config) -> Option<Self> {
        let rate = config.rate_limit?;
        let burst = config
            .rate_burst
            .unwrap_or_else(|| rate.ceil().clamp(1.0, f64::from(u32::MAX)) as u32);
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        // The config refuses rates outside 0.001..=1e6, so the period is
        // between a microsecond and 1000 s.
        let period = Duration::from_secs_f64(1.0 / rate);
        let bucket = Bucket::with_period(period)?.allow_burst(burst);
        Some(Self {
            limiter: RateLimiter::keyed(bucket).with_middleware::<StateInformationMiddleware>(),
            clock: DefaultClock::default(),
            rate,
            burst: burst.get(),
            trust_forwarded: config.trust_forwarded,
            checks: AtomicU64::new(0),
        })
    }

    /// `RateLimit-Policy`: `burst` requests, refilled within `w` seconds.
    fn policy(&self) -> HeaderValue {
        let window = (f64::from(self.burst) / self.rate).ceil().max(1.0) as u64;
        HeaderValue::from_str(&format!("\"default\";q={};w={window}", self.burst))
            .unwrap_or_else(|_| HeaderValue::from_static("\"default\""))
    }

    fn client(&self, request: &Request) -> Client {
        match request.extensions().get::<ClientKey>() {
            Some(key) => Client::Key(*key),
            None => self.address(request),
        }
    }

    /// The client as its address: the nearest proxy's word when trusted,
    /// else the peer's.
    fn address(&self, request: &Request) -> Client {
        if self.trust_forwarded
            && let Some(ip) = forwarded_for(request.headers())
        {
            return Client::Address(ip);
        }
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(Client::Unknown, |c| Client::Address(c.0.ip()))
    }

    /// Charges a request that brought no valid key to its address's
    /// bucket: the 429 to send when the bucket is empty.
    pub fn charge_address(&self, request: &Request) -> Option<Response> {
        self.sweep_now_and_then();
        self.limiter
            .check_key(&self.address(request))
            .err()
            .map(|not_until| self.refusal(not_until))
    }

    /// The 429 for a client whose bucket is empty until `not_until`.
    fn refusal(&self, not_until: NotUntil<<DefaultClock as Clock>::Instant>) -> Response {
        metrics::counter!("gameai_rate_limit_total", "outcome" => "limited").increment(1);
        let wait = not_until.wait_time_from(self.clock.now());
        // Whole seconds, rounded up: a client that waits that long is served.
        let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        let retry_after = retry_after.max(1);
        let mut response = problem_response(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this client is over its quota of {} requests a second (bursts of {}); retry after {retry_after} s",
                self.rate, self.burst
            ),
            Vec::new(),
        );
        let headers = response.headers_mut();
        headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
        headers.insert(RATELIMIT_POLICY, self.policy());
        headers.insert(RATELIMIT, ratelimit(0, retry_after));
        response
    }

    fn sweep_now_and_then(&self) {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }
}

/// The address the nearest proxy saw: the last `for=` of `Forwarded`, or
/// the last entry of `X-Forwarded-For` (earlier entries are whatever the
/// client wrote, and cannot be trusted).
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = |name: &HeaderName, split: &dyn Fn(&str) -> Option<String>| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .next_back()
            .and_then(split)
    };
    let from_forwarded = last(&header::FORWARDED, &|v: &str| {
        v.split(',').next_back()?.split(';').find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            k.eq_ignore_ascii_case("for")
                .then(|| v.trim_matches('"').to_owned())
        })
    });
    let from_xff = || {
        last(&HeaderName::from_static("x-forwarded-for"), &|v: &str| {
            Some(v.split(',').next_back()?.trim().to_owned())
        })
    };
    from_forwarded
        .or_else(from_xff)
        .and_then(|a| parse_node(&a))
}

/// An address as proxies write it: `192.0.2.1`, `192.0.2.1:4711`,
/// `[2001:db8::1]:4711` or `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse() {
        return Some(ip);
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    text.strip_prefix('[')
        .and_then(|t| t.split(']').next())
        .and_then(|t| t.parse().ok())
}

/// Charges a `/v1/*` request to its client's bucket: through with the
/// `RateLimit` headers, or 429 when the bucket is empty.
pub async fn enforce(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(quotas) = state.quotas.as_deref() else {
        return next.run(request).await;
    };
    if !request.uri().path().starts_with("/v1/") {
        return next.run(request).await;
    }
    quotas.sweep_now_and_then();
    let client = quotas.client(&request);
    match quotas.limiter.check_key(&client) {
        Ok(snapshot) => {
            metrics::counter!("gameai_rate_limit_total", "outcome" => "allowed").increment(1);
            let remaining = snapshot.remaining_burst_capacity();
            let refill = f64::from(quotas.burst - remaining.min(quotas.burst)) / quotas.rate;
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            headers.insert(RATELIMIT_POLICY, quotas.policy());
            headers.insert(RATELIMIT, ratelimit(remaining, refill.ceil() as u64));
            response
        }
        Err(not_until) => quotas.refusal(not_until),
    }
}

/// `RateLimit`: requests left now, and seconds until the bucket is full
/// (or, when refused, until the next request is let through).
fn ratelimit(remaining: u32, reset_secs: u64) -> HeaderValue {
    HeaderValue::from_str(&format!("\"default\";r={remaining};t={reset_secs}"))
        .unwrap_or_else(|_| HeaderValue::from_static("\"default\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        map
    }

    #[test]
    fn the_nearest_proxys_entry_names_the_client() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        assert_eq!(
            forwarded_for(&headers(&[("x-forwarded-for", "6.6.6.6, 192.0.2.7")])),
            ip("192.0.2.7")
        );
        assert_eq!(
            forwarded_for(&headers(&[(
                "forwarded",
                "for=6.6.6.6, for=\"[2001:db8::1]:4711\";proto=https"
            )])),
            ip("2001:db8::1")
        );
        assert_eq!(
            forwarded_for(&headers(&[("forwarded", "for=192.0.2.1:80")])),
            ip("192.0.2.1")
        );
        assert_eq!(
            forwarded_for(&headers(&[("x-forwarded-for", "unknown")])),
            None
        );
        assert_eq!(forwarded_for(&headers(&[])), None);
    }

    #[test]
    fn a_burst_then_refusals_with_a_wait() {
        let mut config = Config::defaults();
        config.rate_limit = Some(2.0);
        config.rate_burst = Some(3);
        let quotas = Quotas::from_config(&config).unwrap();
        assert_eq!(quotas.policy(), "\"default\";q=3;w=2");
        let client = Client::Unknown;
        for _ in 0..3 {
            assert!(quotas.limiter.check_key(&client).is_ok());
        }
        let refused = quotas.limiter.check_key(&client).unwrap_err();
        let wait = refused.wait_time_from(quotas.clock.now());
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(500),
            "{wait:?}"
        );
        // Another client has its own bucket.
        assert!(quotas.limiter.check_key(&Client::Key(ClientKey(1))).is_ok());
        assert!(Quotas::from_config(&Config::defaults()).is_none());
    }
}
