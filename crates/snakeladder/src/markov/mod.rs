//! The exact side: a board and its rules compiled into an absorbing Markov
//! chain, solved densely or with the sparse sweep, every figure of the
//! analysis derived from it, and the rational mode.

pub mod analysis;
pub mod chain;
pub mod exact;
pub(crate) mod gth;
pub mod modular;
pub(crate) mod sparse;
pub mod tolerance;
