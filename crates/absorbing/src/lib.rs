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
//!
//! A chain is made with a [`ChainBuilder`], or read from PRISM's and
//! Storm's explicit files or a JSON file ([`read`]); either way it is
//! checked whole and every problem is named at once ([`Error`]).

pub mod builder;
pub mod chain;
pub mod error;
pub mod read;

pub use builder::{
    ChainBuilder, MAX_EXACT_BITS, MAX_STATES, ROW_SUM_ULPS_PER_ENTRY, row_sum_tolerance,
};
pub use chain::{Chain, Value};
pub use error::{
    Error, ErrorKind, Location, MAX_PROBLEMS, MAX_QUOTE_CHARS, Part, Place, Problem, ProblemKind,
    Role,
};
pub use read::ParseValueError;
