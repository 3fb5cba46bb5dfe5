//! The Monte Carlo side: a seeded, parallel simulator that plays games with
//! the move function's own table, and the statistical cross-check of every
//! exact figure against it.

pub mod check;
pub mod simulate;
