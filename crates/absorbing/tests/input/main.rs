//! Turning input into a checked `Chain`: the builder, the explicit-format
//! and JSON readers, and the fuzz target's checks over random inputs. One
//! test binary, so the suite links once.

mod builder;
mod explicit;
mod fuzz_chain_files;
mod json;

use absorbing::{Error, ProblemKind};

/// The kinds of an error's problems.
pub fn kinds(e: &Error) -> Vec<ProblemKind> {
    e.problems().iter().map(|p| p.kind().clone()).collect()
}

/// The problems as displayed, one string each.
pub fn lines(e: &Error) -> Vec<String> {
    e.problems().iter().map(ToString::to_string).collect()
}
