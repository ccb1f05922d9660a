//! gameai: a game-AI service. Clients send a position; a bounded pool of
//! workers searches it with alpha-beta and the best move comes back.

pub mod games;
pub mod search;
