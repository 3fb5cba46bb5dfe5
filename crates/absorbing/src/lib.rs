//! Exact and certified answers for any absorbing discrete-time Markov chain.
//!
//! A [`Chain`] is a sparse transition matrix over states `0..n`, an initial
//! state or distribution, a set of target states and, optionally, a reward
//! earned in each state. The crate answers, from the initial distribution
//! and per state: the probability of reaching the target, the expected
//! steps and the expected accumulated reward until it, the variance of the
//! steps, their distribution, and the expected visits to each state. Every
//! float comes with a certified error bound; the exact mode gives certified
//! fractions.
//!
//! The crate knows states, transitions, targets and rewards, and nothing of
//! where a chain came from.

pub mod chain;

pub use chain::{Chain, Value};
