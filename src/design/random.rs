//! Seeded random boards, for benchmarks and for trying big grids without
//! checking huge files in.

use crate::model::error::BoardError;
use crate::model::limits::MAX_SQUARES;
use crate::model::rules::RulesSpec;
use crate::model::seed::Seed;
use crate::{Board, BoardSpec};
use rand::Rng;

/// What board to generate.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::{generate, Layout};
/// let board = generate(&Layout::new(10_000, 200, 200, Seed::new(7)))?;
/// assert_eq!(board.last().get(), 10_000);
/// assert_eq!(board.snakes().count(), 200);
/// // The same seed gives the same board.
/// assert_eq!(generate(&Layout::new(10_000, 200, 200, Seed::new(7)))?, board);
/// # Ok::<(), snakeladder::design::GenerateError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The last square N.
    pub squares: u32,
    /// Number of snakes.
    pub snakes: u32,
    /// Number of ladders.
    pub ladders: u32,
    /// Longest jump, in squares (default: a quarter of the board, about the
    /// average of the classic 100-square board's longest jumps).
    pub max_length: Option<u32>,
    /// The seed of the generator.
    pub seed: Seed,
    /// The rules, every field defaulted when `None`.
    pub rules: Option<RulesSpec>,
    /// A name for the board.
    pub name: Option<String>,
}

impl Layout {
    /// `squares` squares, that many snakes and ladders, default length and
    /// rules.
    pub fn new(squares: u32, snakes: u32, ladders: u32, seed: Seed) -> Layout {
        Layout {
            squares,
            snakes,
            ladders,
            max_length: None,
            seed,
            rules: None,
            name: None,
        }
    }
}

/// Why a board could not be generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The squares are outside 3..=[`MAX_SQUARES`].
    #[error("squares: {squares} is out of range (3..={MAX_SQUARES})")]
    Squares {
        /// The squares asked for.
        squares: u32,
    },
    /// More jumps than the board has room for: each needs its own start
    /// square and an end that starts no other jump.
    #[error("{jumps} jumps do not fit on {squares} squares (at most {room})")]
    TooManyJumps {
        /// Jumps asked for.
        jumps: u64,
        /// The board's squares.
        squares: u32,
        /// The most that fit.
        room: u64,
    },
    /// A maximum jump length of 0.
    #[error("the longest jump must be at least 1 square")]
    MaxLength,
    /// The generated layout broke a rule of the chosen rule set (for example
    /// dice that cannot finish from some square).
    #[error(transparent)]
    Invalid(#[from] BoardError),
}

/// Generates a valid board: jumps placed uniformly at random, each with a
/// length uniform in `1..=max_length`, no two starting on one square and no
/// jump ending where another starts (so it is valid under `chains: forbid`).
///
/// # Errors
/// [`GenerateError`] for a size out of range, too many jumps, or a layout the
/// rules refuse (then try another seed).
pub fn generate(layout: &Layout) -> Result<Board, GenerateError> {
    Ok(Board::from_spec(&generate_spec(layout)?)?)
}

/// The spec [`generate`] validates, for writing to a file.
///
/// # Errors
/// As [`generate`], except that the spec is not validated.
pub fn generate_spec(layout: &Layout) -> Result<BoardSpec, GenerateError> {
    let n = layout.squares;
    if !(3..=MAX_SQUARES).contains(&n) {
        return Err(GenerateError::Squares { squares: n });
    }
    let jumps = u64::from(layout.snakes) + u64::from(layout.ladders);
    // Starts and ends are all distinct squares in 1..N−1 except that an end
    // may repeat; a third of the squares is a comfortable bound for
    // rejection sampling.
    let room = u64::from(n - 2) / 3;
    if jumps > room {
        return Err(GenerateError::TooManyJumps {
            jumps,
            squares: n,
            room,
        });
    }
    let max_length = layout.max_length.unwrap_or((n / 4).max(1));
    if max_length == 0 {
        return Err(GenerateError::MaxLength);
    }
    let start = match layout.rules.as_ref().and_then(|r| r.start) {
        Some(1) => 1,
        _ => 0,
    };
    let mut rng = layout.seed.generator();
    // 0: free, 1: a jump starts here, 2: a jump ends here.
    let mut used = vec![0u8; n as usize + 1];
    let mut ladders = Vec::with_capacity(layout.ladders as usize);
    let mut snakes = Vec::with_capacity(layout.snakes as usize);
    let wanted = [(layout.ladders, true), (layout.snakes, false)];
    for (count, up) in wanted {
        let mut placed = 0;
        while placed < count {
            let from = rng.random_range(start.max(1)..n);
            let length = rng.random_range(1..=max_length);
            let to = if up {
                from.saturating_add(length).min(n)
            } else {
                from.saturating_sub(length).max(1)
            };
            if from == start || to == from || used[from as usize] != 0 || used[to as usize] == 1 {
                continue;
            }
            used[from as usize] = 1;
            used[to as usize] = 2;
            let pair = [i64::from(from), i64::from(to)];
            if up {
                ladders.push(pair);
            } else {
                snakes.push(pair);
            }
            placed += 1;
        }
    }
    ladders.sort_unstable();
    snakes.sort_unstable();
    Ok(BoardSpec {
        name: layout.name.clone(),
        squares: i64::from(n),
        width: None,
        ladders,
        snakes,
        rules: layout.rules.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_boards_are_valid_and_seeded() {
        for seed in 0..20 {
            let layout = Layout {
                max_length: Some(30),
                ..Layout::new(200, 20, 20, Seed::new(seed))
            };
            let board = generate(&layout).unwrap();
            assert_eq!(board.jumps().len(), 40);
            assert!(board.jumps().iter().all(|j| j.length().abs() <= 30));
            assert_eq!(generate(&layout).unwrap(), board);
        }
        let a = generate(&Layout::new(1000, 10, 10, Seed::new(1))).unwrap();
        let b = generate(&Layout::new(1000, 10, 10, Seed::new(2))).unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn refuses_what_does_not_fit() {
        assert!(matches!(
            generate(&Layout::new(30, 10, 10, Seed::new(0))),
            Err(GenerateError::TooManyJumps { room: 9, .. })
        ));
        assert!(matches!(
            generate(&Layout::new(2, 0, 0, Seed::new(0))),
            Err(GenerateError::Squares { squares: 2 })
        ));
    }
}
