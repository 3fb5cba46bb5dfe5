//! One jump of a board changed, as every design tool reports it.

use crate::Jump;
use serde::Serialize;
use std::fmt;

/// One jump of a board changed: moved (start, end or both) or removed.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::Board;
use snakeladder::design::sensitivity;

let s = sensitivity(&Board::from_json_str(SMALL)?, false)?;
// The biggest lever: the snake's head moved from 17 to 19.
let change = &s.variants[0].change;
assert_eq!((change.before.from().get(), change.before.to().get()), (17, 4));
assert_eq!(change.after.map(|j| j.from().get()), Some(19));
assert_eq!(change.displacement(), 2);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct JumpChange {
    /// The jump as it was.
    pub before: Jump,
    /// The jump as it becomes; `None` when it is removed.
    pub after: Option<Jump>,
}

impl JumpChange {
    /// Squares moved, start and end together (removal counts the jump's
    /// length): a measure of how large an edit is.
    pub fn displacement(&self) -> u64 {
        match self.after {
            Some(a) => {
                u64::from(self.before.from().get().abs_diff(a.from().get()))
                    + u64::from(self.before.to().get().abs_diff(a.to().get()))
            }
            None => self.before.length().unsigned_abs(),
        }
    }
}

impl fmt::Display for JumpChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.after {
            Some(a) => write!(f, "{} → {}→{}", self.before, a.from(), a.to()),
            None => write!(f, "{} removed", self.before),
        }
    }
}
