//! Snakes and ladders: one kind of [`Jump`].

use crate::Square;
use serde::Serialize;
use std::fmt;

/// Whether a jump climbs or descends. Derived from its direction, never stored.
#[cfg_attr(
    any(doc, doctest),
    doc = r#"
# Example
```
use snakeladder::{Board, JumpKind, Square};

let board = Board::builtin_default();
let ladder = board.jump_from(Square::new(1)).unwrap();
assert_eq!(ladder.kind(), JumpKind::Ladder);
assert_eq!(JumpKind::Snake.to_string(), "snake");
```
"#
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JumpKind {
    /// A jump that goes up (`from < to`).
    Ladder,
    /// A jump that goes down (`from > to`); called a chute on some boards.
    Snake,
}

impl JumpKind {
    /// `"ladder"` or `"snake"`.
    pub fn as_str(self) -> &'static str {
        match self {
            JumpKind::Ladder => "ladder",
            JumpKind::Snake => "snake",
        }
    }
}

impl fmt::Display for JumpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A snake or a ladder of a validated [`Board`](crate::Board): a token that
/// comes to rest on `from` moves on to `to`.
///
/// Jumps are made only by board validation, so a `Jump` you hold always goes
/// somewhere and both its ends are on the board.
///
/// # Example
/// ```
/// use snakeladder::{Board, JumpKind, Square};
/// let board = Board::from_json_str(r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#)?;
/// let snake = board.jump_from(Square::new(17)).unwrap();
/// assert_eq!(snake.kind(), JumpKind::Snake);
/// assert_eq!(snake.to(), Square::new(4));
/// assert_eq!(snake.to_string(), "snake 17→4");
/// # Ok::<(), snakeladder::BoardError>(())
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Jump {
    from: Square,
    to: Square,
}

impl Jump {
    /// Only validation makes jumps; see [`crate::Board`].
    pub(crate) fn new(from: Square, to: Square) -> Jump {
        debug_assert_ne!(from, to);
        Jump { from, to }
    }

    /// The square the jump starts on (a ladder's foot, a snake's head).
    pub fn from(self) -> Square {
        self.from
    }

    /// The square the jump ends on (a ladder's top, a snake's tail).
    pub fn to(self) -> Square {
        self.to
    }

    /// Ladder or snake, from the direction.
    pub fn kind(self) -> JumpKind {
        if self.to > self.from {
            JumpKind::Ladder
        } else {
            JumpKind::Snake
        }
    }

    /// How many squares the jump moves: positive for ladders, negative for snakes.
    pub fn length(self) -> i64 {
        i64::from(self.to.get()) - i64::from(self.from.get())
    }
}

impl fmt::Display for Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}→{}", self.kind(), self.from, self.to)
    }
}
