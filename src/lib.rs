//! gameai: a game-AI service. Clients send a position; a bounded pool of
//! workers searches it with alpha-beta and the best move comes back.

pub mod cache;
pub mod config;
pub mod cpu;
pub mod games;
pub mod healthcheck;
pub mod http;
pub mod plan;
pub mod pool;
pub mod protocols;
pub mod records;
pub mod runner;
pub mod search;
pub mod sessions;
pub mod vocabulary;

pub use config::Config;
pub use http::{AppState, app, openapi_yaml};
#[doc(hidden)]
pub use pastey;
