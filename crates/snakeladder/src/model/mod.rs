//! The model: squares, jumps, dice, rules and the board, validated once at
//! construction, and the one move function that is the only place the rules
//! of movement live. Every other layer builds on this one and nothing here
//! imports from above.

pub(crate) mod board;
pub(crate) mod chains;
pub(crate) mod dice;
pub(crate) mod error;
pub mod fingerprint;
pub(crate) mod jump;
pub(crate) mod limits;
pub(crate) mod movement;
pub mod numbers;
pub mod policy;
pub(crate) mod problem;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod seed;
pub(crate) mod square;
pub(crate) mod turn;
pub(crate) mod validate;
pub mod vocabulary;
pub(crate) mod write;
