//! Prometheus metrics: what the service does, for operators.
//!
//! The `metrics` facade records from anywhere (handlers, the pool); one
//! process-wide Prometheus recorder renders them at `GET /metrics`.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{LazyLock, OnceLock, PoisonError, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use pin_project_lite::pin_project;
use tower::{Layer, Service};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;

const SECONDS_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
const NODES_BUCKETS: [f64; 10] = [1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The process's recorder, installed on first use (tests build many apps).
pub fn handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &SECONDS_BUCKETS)
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Suffix("_nodes".to_owned()), &NODES_BUCKETS)
                })
                .expect("bucket lists are not empty");
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            // Another recorder may already be installed (an embedding
            // program's); then this handle renders nothing, which is harmless.
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}

/// Folds the histograms' samples into their buckets every second from a
/// task of its own, started once with the first app inside a runtime. The
/// exporter keeps every recorded value until then; folded only when
/// `/metrics` is scraped, a busy server that nobody scrapes would grow by
/// each request's samples.
pub fn start_upkeep() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        STARTED.call_once(|| {
            let handle = handle();
            runtime.spawn(async move {
                let mut every = tokio::time::interval(Duration::from_secs(1));
                every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    every.tick().await;
                    handle.run_upkeep();
                }
            });
        });
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(render_metrics))
}

/// Counts every request by route, method and status, and times it: a
/// layer around each route (`Router::route_layer`, where the matched path
/// is known). Written as a service rather than with `from_fn`, which boxes
/// the route once more and clones it for every request.
#[derive(Clone, Copy, Default)]
pub struct TrackRequests;

impl<S> Layer<S> for TrackRequests {
    type Service = Tracked<S>;

    fn layer(&self, inner: S) -> Tracked<S> {
        Tracked { inner }
    }
}

#[derive(Clone)]
pub struct Tracked<S> {
    inner: S,
}

impl<S> Service<Request> for Tracked<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = TrackedFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        TrackedFuture {
            started: Instant::now(),
            route: request.extensions().get::<MatchedPath>().cloned(),
            method: request.method().clone(),
            inner: self.inner.call(request),
        }
    }
}

pin_project! {
    pub struct TrackedFuture<F> {
        #[pin]
        inner: F,
        started: Instant,
        route: Option<MatchedPath>,
        method: Method,
    }
}

impl<F, E> Future for TrackedFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = std::task::ready!(this.inner.poll(cx));
        if let Ok(response) = &result {
            let route = this.route.as_ref().map_or("unmatched", MatchedPath::as_str);
            let method = std::mem::replace(this.method, Method::GET);
            RequestMetrics::record(route, method, response.status(), this.started.elapsed());
        }
        Poll::Ready(result)
    }
}

/// The request counter and timer of each route, method and status,
/// registered once: looking a metric up by its labels costs more than the
/// work of the quickest requests.
#[derive(Default)]
struct RequestMetrics {
    routes: HashMap<String, RouteMetrics>,
}

struct RouteMetrics {
    duration: Histogram,
    requests: Vec<(Method, StatusCode, Counter)>,
}

impl RequestMetrics {
    fn record(route: &str, method: Method, status: StatusCode, elapsed: Duration) {
        static METRICS: LazyLock<RwLock<RequestMetrics>> = LazyLock::new(RwLock::default);
        let seconds = elapsed.as_secs_f64();
        {
            let metrics = METRICS.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(route) = metrics.routes.get(route)
                && let Some((_, _, counter)) = route
                    .requests
                    .iter()
                    .find(|(m, s, _)| *m == method && *s == status)
            {
                counter.increment(1);
                route.duration.record(seconds);
                return;
            }
        }
        let mut metrics = METRICS.write().unwrap_or_else(PoisonError::into_inner);
        let entry = metrics
            .routes
            .entry(route.to_owned())
            .or_insert_with(|| RouteMetrics {
                duration: metrics::histogram!(
                    "gameai_http_request_duration_seconds",
                    "route" => route.to_owned()
                ),
                requests: Vec::new(),
            });
        let counter = metrics::counter!(
            "gameai_http_requests_total",
            "route" => route.to_owned(),
            "method" => method.to_string(),
            "status" => status.as_str().to_owned()
        );
        counter.increment(1);
        entry.duration.record(seconds);
        entry.requests.push((method, status, counter));
    }
}

/// Metrics in the Prometheus text format.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain", body = String))
)]
async fn render_metrics(State(state): State<AppState>) -> impl IntoResponse {
    metrics::gauge!("gameai_pool_workers").set(state.pool.workers() as f64);
    metrics::gauge!("gameai_pool_workers_busy").set(state.pool.busy() as f64);
    metrics::gauge!("gameai_pool_queue_length").set(state.pool.queued() as f64);
    let stats = state.sessions.stats().await;
    if let Some(live) = stats.live {
        metrics::gauge!("gameai_sessions_live").set(live as f64);
    }
    metrics::gauge!("gameai_sessions_created").set(stats.created as f64);
    if let Some(expired) = stats.expired {
        metrics::gauge!("gameai_sessions_expired").set(expired as f64);
    }
    if let Some(evicted) = stats.evicted {
        metrics::gauge!("gameai_sessions_evicted").set(evicted as f64);
    }
    let handle = handle();
    handle.run_upkeep();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
}
