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
//! where a chain came from. A chain is made with a [`ChainBuilder`], or
//! read from PRISM's and Storm's explicit files or a JSON file ([`read`]);
//! either way it is checked whole and every problem is named at once
//! ([`Error`]). [`Chain::answer`] then asks it every question
//! ([`answers`]).
//!
//! Beneath, lowest first: [`sparse`] and a dense subtraction-free
//! elimination factor `I − Q`, [`Solver`] picks between them, and
//! [`exact`] certifies fractions; any linear system of the same shape can
//! use them directly.
//!
//! # Example
//! ```
//! use absorbing::answers::Options;
//! use absorbing::read::Explicit;
//!
//! // The Knuth–Yao die: fair coin flips until a face of a six-sided die
//! // is settled; 11/3 flips on average.
//! let tra = "13 20
//! 0 1 1/2
//! 0 2 1/2
//! 1 3 1/2
//! 1 4 1/2
//! 2 5 1/2
//! 2 6 1/2
//! 3 1 1/2
//! 3 7 1/2
//! 4 8 1/2
//! 4 9 1/2
//! 5 10 1/2
//! 5 11 1/2
//! 6 12 1/2
//! 6 2 1/2
//! 7 7 1
//! 8 8 1
//! 9 9 1
//! 10 10 1
//! 11 11 1
//! 12 12 1
//! ";
//! let chain = Explicit::from_text(tra).initial_state(0).read()?;
//! let answers = chain.answer(&Options { exact: true, ..Options::default() }, None)?;
//! let exact = answers.exact().unwrap();
//! assert_eq!(exact.reach_probability.to_string(), "1");
//! assert_eq!(exact.expected_steps.as_ref().unwrap().to_string(), "11/3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod answers;
pub mod builder;
pub mod chain;
pub mod error;
pub mod exact;
mod gth;
pub mod par;
pub mod reach;
pub mod read;
mod solve;
pub mod sparse;
pub mod stop;

pub use answers::{Answers, Bounded, Expectation};
pub use builder::{
    ChainBuilder, MAX_EXACT_BITS, MAX_STATES, ROW_SUM_ULPS_PER_ENTRY, row_sum_tolerance,
};
pub use chain::{Chain, Value};
pub use error::{
    Error, ErrorKind, Location, MAX_PROBLEMS, MAX_QUOTE_CHARS, Part, Place, Problem, ProblemKind,
    Role,
};
pub use reach::Reach;
pub use read::ParseValueError;
pub use solve::{DENSE_MAX_STATES, Estimate, MAX_DENSE_STATES, Method, Solver, SolverError};
