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
//! where a chain came from. Its layers, lowest first: [`sparse`] and the
//! dense subtraction-free elimination factor `I − Q`; [`Solver`] picks between them;
//! [`exact`] certifies fractions; [`Chain`] asks the questions.

pub mod answers;
pub mod chain;
pub mod exact;
mod gth;
pub mod reach;
pub mod par;
mod solve;
pub mod sparse;
pub mod stop;

pub use answers::{Answers, Bounded, Expectation};
pub use chain::{Chain, Value};
pub use reach::Reach;
pub use solve::{DENSE_MAX_STATES, Estimate, MAX_DENSE_STATES, Method, Solver, SolverError};
