//! The exact side: a board and its rules compiled into an absorbing Markov
//! chain, solved densely or with the sparse sweep, every figure of the
//! analysis derived from it, and the rational mode.

pub mod analysis;
pub mod chain;
pub mod exact;
pub mod modular;
pub mod tolerance;

// The solver crate's sparse matrices and factorisation, by the path the
// board modules name them.
pub(crate) use absorbing::sparse;
