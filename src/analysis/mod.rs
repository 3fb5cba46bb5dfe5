//! The exact analysis of a board: every figure of `snakeladder analyze`,
//! computed from the compiled [`Chain`](crate::chain::Chain).

pub mod solve;
