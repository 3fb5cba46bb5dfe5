//! Squares of the board.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A square of the track: `0` is the start position off the board, `1..=N` are
/// the printed squares, and `N` is the finish.
///
/// A `Square` is a position on the track, not an index into a matrix or a
/// table: code that needs an index asks for [`Square::index`] explicitly.
///
/// # Example
/// ```
/// use snakeladder::Square;
/// let s = Square::new(38);
/// assert_eq!(s.get(), 38);
/// assert_eq!(s.to_string(), "38");
/// assert!(Square::OFF_BOARD < s);
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Square(u32);

impl Square {
    /// The start position off the board (square 0).
    pub const OFF_BOARD: Square = Square(0);

    /// The square with the given number.
    pub const fn new(number: u32) -> Square {
        Square(number)
    }

    /// The square's number.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The square's number as a `usize`, for indexing per-square tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Square> for u32 {
    fn from(s: Square) -> u32 {
        s.0
    }
}
