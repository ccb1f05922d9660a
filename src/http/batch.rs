//! `POST /v1/search/batch`: many searches in one request, run in parallel
//! on the pool within one overall time budget; one result or one problem
//! per item, in order.

use std::time::{Duration, Instant};

use axum::Extension;
use axum::extract::State;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::AppState;
use super::bodies::{SearchRequest, SearchResponse};
use super::caps::MAX_BATCH_ITEMS;
use super::error::{ApiError, Problem, Reported, Result};
use super::extract::{Json, from_object};
use super::plan::plan_of;
use super::validate::in_range;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(search_batch))
}

/// Searches to run together.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// Search requests, each a `SearchRequest` as `POST /v1/search` takes
    /// it (1 to `max_batch_items`). An item that is not an object, or has
    /// wrong types or unknown fields, refuses the whole batch with 400;
    /// otherwise each is checked on its own: an item the server cannot
    /// search (a value out of range, an impossible position) gets a problem
    /// and the others still run.
    #[schema(value_type = Vec<Object>)]
    pub items: Vec<serde_json::Value>,
    /// The whole batch's time budget in milliseconds, from 1 to the
    /// server's cap (default: the cap). No item searches past it.
    #[schema(minimum = 1)]
    pub time_ms: Option<i64>,
}

/// One item's outcome.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchItem {
    /// The status the item would have had on its own: 200, or the
    /// problem's status.
    pub status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<SearchResponse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<Problem>,
}

/// The outcomes, in the items' order.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResponse {
    pub results: Vec<BatchItem>,
}

/// Run several searches at once.
#[utoipa::path(
    post,
    path = "/v1/search/batch",
    tag = "search",
    request_body = BatchRequest,
    responses(
        (status = 200, description = "One result or one problem per item, in order", body = BatchResponse),
        (status = 400, description = "Malformed JSON, wrong types or unknown fields", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "An API key is required (`GAMEAI_API_KEY`) and was missing or wrong", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the server accepts", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No items, too many, or a budget out of range", body = Problem, content_type = "application/problem+json"),
    )
)]
async fn search_batch(
    State(state): State<AppState>,
    Json(request): Json<BatchRequest>,
) -> Result<(Extension<Reported>, Json<BatchResponse>)> {
    let n = request.items.len();
    if !(1..=MAX_BATCH_ITEMS).contains(&n) {
        return Err(ApiError::invalid(
            "items",
            format!("a batch holds 1 to {MAX_BATCH_ITEMS} items, got {n}"),
        ));
    }
    let budget = match request.time_ms {
        Some(t) => in_range("time_ms", t, state.config.max_time_ms)?,
        None => state.config.max_time_ms,
    };
    let items = request
        .items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            from_object::<SearchRequest>(item)
                .map_err(|e| ApiError::BadRequest(format!("item {}: {e}", i + 1)))
        })
        .collect::<Result<Vec<_>>>()?;
    let deadline = Instant::now() + Duration::from_millis(budget);
    // As many at once as there are workers: the batch never sheds itself.
    let outcomes: Vec<Result<SearchResponse>> = futures_util::stream::iter(items)
        .map(|item| {
            let state = state.clone();
            async move { run_item(&state, item, deadline).await }
        })
        .buffered(state.pool.workers())
        .collect()
        .await;
    let mut errors = Vec::new();
    let results = outcomes
        .into_iter()
        .map(|outcome| match outcome {
            Ok(result) => BatchItem {
                status: 200,
                result: Some(result),
                problem: None,
            },
            Err(e) => {
                let problem = e.problem();
                errors.push(e);
                BatchItem {
                    status: problem.status,
                    result: None,
                    problem: Some(problem),
                }
            }
        })
        .collect();
    // The answer is a 200, but each failed item's error still reaches the
    // log once, through the same middleware as an error response's.
    Ok((
        Extension(Reported::new(errors)),
        Json(BatchResponse { results }),
    ))
}

async fn run_item(
    state: &AppState,
    request: SearchRequest,
    deadline: Instant,
) -> Result<SearchResponse> {
    let mut plan = plan_of(state, &request)?;
    let left = deadline
        .saturating_duration_since(Instant::now())
        .as_millis() as u64;
    if left == 0 {
        return Err(ApiError::Overloaded(
            "the batch's time budget ran out before this item could run".to_owned(),
        ));
    }
    plan.time_ms = plan.time_ms.min(left);
    Ok(state.runner.run(plan).await?.into())
}
