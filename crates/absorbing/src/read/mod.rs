//! Chains from files: PRISM's and Storm's explicit format (`.tra`, `.lab`,
//! `.srew`) and a JSON form, both described in docs/chain-format.md.
//!
//! Every reader names every problem it finds at once, each with its file,
//! line and column (up to [`MAX_PROBLEMS`](crate::MAX_PROBLEMS)), together
//! with the problems of the chain itself (rows not summing to one,
//! deadlocks). Values are read exactly: `0.1` is the fraction 1/10.
//!
//! Memory is bounded by the input: nothing is allocated from a count a file
//! declares (a header claiming 10^12 transitions allocates nothing), a
//! number has at most [`MAX_NUMBER_CHARS`] characters and an exponent of at
//! most [`MAX_EXPONENT`].

mod explicit;
mod json;
mod lab;
pub(crate) mod number;
mod srew;
mod text;
mod tra;

pub use explicit::Explicit;
#[cfg(feature = "schema")]
pub use json::json_schema;
pub use json::{json, json_builder, json_file, to_json};
pub use lab::Labels;
pub use number::{MAX_EXPONENT, MAX_NUMBER_CHARS, ParseValueError};

use crate::builder::ChainBuilder;
use crate::error::Error;
use std::path::Path;

/// Reads a labels file (PRISM's form or Storm's), checking state numbers
/// against `states` when given; `path` names the file in problems.
///
/// ```
/// use absorbing::read::labels;
///
/// let prism = labels(b"# Labels\n0=\"init\" 1=\"done\"\n0: 0\n4: 1\n", None, Some(5))?;
/// let storm = labels(b"#DECLARATION\ninit done\n#END\n0 init\n4 done\n", None, Some(5))?;
/// assert_eq!(prism, storm);
///
/// let err = labels(b"0=\"init\"\n7: 0\n", None, Some(5)).unwrap_err();
/// assert_eq!(err.to_string(), "line 2, column 1: the labelled state 7 is out of range: the chain has 5 states, 0 to 4");
/// # Ok::<(), absorbing::Error>(())
/// ```
pub fn labels(text: &[u8], path: Option<&Path>, states: Option<usize>) -> Result<Labels, Error> {
    let mut b = ChainBuilder::uncounted();
    let file = b.add_file(path);
    let labels = lab::read_lab(&mut b, text, file, states.map(|n| n as u64));
    b.take_read_problems().into_result()?;
    Ok(labels)
}

/// Reads a transitions file into a [`ChainBuilder`], to give it an initial
/// state and targets before building; `path` names the file in problems.
/// Reading problems are named by [`build`](ChainBuilder::build), together
/// with the chain's.
///
/// ```
/// let chain = absorbing::read::transitions(b"3 3\n0 1 0.1\n0 2 0.9\n1 1 1\n", None)
///     .initial_state(0)
///     .targets([2])
///     .build()?;
/// assert_eq!(chain.row(0).collect::<Vec<_>>(), [(1, 0.1), (2, 0.9)]);
/// # Ok::<(), absorbing::Error>(())
/// ```
pub fn transitions(text: &[u8], path: Option<&Path>) -> ChainBuilder {
    let mut b = ChainBuilder::uncounted();
    let file = b.add_file(path);
    let extras = tra::read_tra(&mut b, text, file);
    for (s, pos) in extras.initial {
        b.push_initial(
            s,
            crate::chain::Value::Exact(num_rational::BigRational::from_integer(1.into())),
            pos,
        );
    }
    b
}
