//! Why an analysis fails ([`AnalysisError`]) and the essential steps a
//! memory refusal names ([`Stage`]).

use crate::Square;
use crate::model::numbers::quantity;
use serde::Serialize;

/// Why a board could not be analysed.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, AnalysisError, Board, Options};
/// let err = Analysis::new(&Board::builtin_default(), &Options::default().players([0]));
/// assert_eq!(err.unwrap_err(), AnalysisError::Players { count: 0 });
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// A row of the kernel does not sum to 1 within `tolerance::ROW_SUM`:
    /// a bug, reported rather than analysed.
    #[error("the turn kernel row of square {square} sums to {sum}, not 1")]
    RowSum {
        /// The row's square.
        square: Square,
        /// What it sums to.
        sum: f64,
    },
    /// `I − Q` is singular: from these squares a token never finishes, so
    /// the expected length of a game is infinite.
    #[error("the game may never end: from {} a token can never finish", crate::markov::analysis::solve::show(.trapped))]
    Trapped {
        /// The squares from which the finish cannot be reached.
        trapped: Vec<Square>,
    },
    /// The chain is too large for the dense solver.
    #[error("the board has {states} states; the dense solver handles at most {limit}")]
    DenseTooLarge {
        /// The chain's states.
        states: usize,
        /// The limit, 4,000 states.
        limit: usize,
    },
    /// `I − Q` is numerically singular although every state can finish: the
    /// chance of finishing from some square is below what `f64` resolves.
    #[error("the linear system is numerically singular (a pivot of {pivot:e})")]
    IllConditioned {
        /// The smallest pivot met.
        pivot: f64,
    },
    /// From these squares the `f64` chain has no way to the finish, although
    /// the board has one: every way there has a chance per turn below the
    /// smallest normal `f64` (2.2e-308), so the chain left it out
    /// (`Chain::dropped`).
    #[error(
        "from {} every way to the finish has a chance per turn below 2.2e-308, which floating point cannot hold",
        crate::markov::analysis::solve::show(.squares)
    )]
    BelowFloat {
        /// The squares the `f64` chain traps.
        squares: Vec<Square>,
    },
    /// The sparse solver lost all accuracy although every state can finish.
    #[error(
        "the linear system is too badly conditioned to solve (the expected turns from state {state} came out meaningless)"
    )]
    SparseIllConditioned {
        /// The first state whose result is meaningless.
        state: usize,
    },
    /// The chain has more states than `MAX_EXACT_STATES`.
    #[error("exact mode handles at most {limit} states; this board has {states}")]
    ExactTooLarge {
        /// The chain's states.
        states: usize,
        /// The limit.
        limit: usize,
    },
    /// A turn from `square` makes more than `MAX_EXACT_ROLLS_PER_TURN`
    /// rolls along a path that does not repeat.
    #[error(
        "a turn from square {square} can make more than {limit} rolls; exact mode cannot sum it"
    )]
    ExactTurnTooLong {
        /// Where the turn starts.
        square: Square,
        /// The limit.
        limit: usize,
    },
    /// A turn from `from` can end on `to`, which the floating-point chain
    /// left out because every way there has a chance below the smallest
    /// normal `f64` (2.2e-308): exact mode works on the floating-point
    /// chain's squares and cannot add it.
    #[error(
        "a turn from square {from} can end on square {to} only with a chance below 2.2e-308, \
         which the floating-point chain leaves out; exact mode cannot add the square"
    )]
    ExactUnlisted {
        /// Where the turn starts.
        from: Square,
        /// The square left out.
        to: Square,
    },
    /// Eliminating the system would take more work than allowed.
    #[error(
        "exact mode would need about {needed:.1e} word operations, over the limit of {limit:.1e} (see --max-work)"
    )]
    ExactTooMuchWork {
        /// Estimated 64-bit word multiply-adds.
        needed: f64,
        /// The limit.
        limit: f64,
    },
    /// The system is singular: some square never finishes.
    #[error("the exact system is singular: some square never finishes")]
    ExactSingular,
    /// The modular solver would hold more memory than allowed
    /// (docs/exact-modular.md §6).
    #[error(
        "exact mode would need about {needed} bytes, over the limit of {limit} (see --max-memory)"
    )]
    ExactTooMuchMemory {
        /// Estimated bytes.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// The modular solver lifted as many digits as its bound allows
    /// without a certified answer: a bug, reported rather than hidden.
    #[error("the exact solution could not be certified after {digits} p-adic digits")]
    ExactUncertified {
        /// The p-adic digits lifted.
        digits: usize,
    },
    /// The fraction and the `f64` mean disagree past
    /// `tolerance::EXACT_AGREEMENT`: a bug, reported rather than hidden.
    #[error("the exact mean {exact} and the floating-point mean {float} disagree")]
    ExactDisagrees {
        /// The fraction, as `f64`.
        exact: f64,
        /// The `f64` figure.
        float: f64,
    },
    /// No players.
    #[error("no players")]
    NoPlayers,
    /// The player to move is not one of the players.
    #[error("player {to_move} is to move, but there are {players} players")]
    NoSuchPlayer {
        /// The player to move.
        to_move: usize,
        /// How many players there are.
        players: usize,
    },
    /// A token is on a square it cannot stand on between turns (a jump
    /// start, a square no turn ends on), or a token has finished and the
    /// game is over.
    #[error("player {player} stands on square {square}, where no turn can end a game still going")]
    NotARestSquare {
        /// The player.
        player: usize,
        /// The square.
        square: Square,
    },
    /// A player count below 1 or above [`Board::MAX_PLAYERS`](crate::Board::MAX_PLAYERS).
    #[error(
        "players must be a whole number from 1 to {}, not {count}",
        crate::model::limits::MAX_PLAYERS
    )]
    Players {
        /// The count asked for.
        count: u32,
    },
    /// The `f64` solve failed on a board whose every square can finish: the
    /// chain is too ill-conditioned for floating point (a chance of
    /// finishing per turn near or below what `f64` resolves). The exact
    /// mean is given when exact arithmetic could compute it.
    #[error("{source}: the chain is too ill-conditioned for floating point; {}", exact_text(.exact))]
    Numerical {
        /// The solver's failure (one of the solver's variants above).
        source: Box<AnalysisError>,
        /// The exact mean as `(fraction, value)`, or why it is missing.
        exact: Result<(String, f64), String>,
    },
    /// The stop flag of [`Options::with_stop`](super::Options::with_stop)
    /// was set (a front end's Ctrl-C): the analysis ended without figures.
    #[error("the analysis was stopped (its stop flag was set)")]
    Stopped,
    /// An essential step would need more memory than [`Limits::max_memory`](super::Limits::max_memory).
    #[error(
        "{stage} would need about {} of memory, over the limit of {} (see --max-memory)",
        crate::markov::sparse::memory::Bytes(*needed),
        crate::markov::sparse::memory::Bytes(*limit)
    )]
    Memory {
        /// The step.
        stage: Stage,
        /// Estimated bytes.
        needed: u64,
        /// The limit.
        limit: u64,
    },
}

fn exact_text(exact: &Result<(String, f64), String>) -> String {
    match exact {
        Ok((fraction, value)) => {
            format!(
                "the exact mean is {fraction} (≈ {}) turns",
                quantity(*value, 4)
            )
        }
        Err(reason) => format!("the exact mean could not be computed either: {reason}"),
    }
}

/// An essential step of an analysis, as named in [`AnalysisError::Memory`].
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::analysis::Stage;
use snakeladder::{Analysis, AnalysisError, Board, Options};

let err = Analysis::new(&Board::builtin_default(), &Options::default().max_memory(10));
assert!(matches!(err, Err(AnalysisError::Memory { stage: Stage::Compile, limit: 10, .. })));
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Compiling the board to a chain.
    Compile,
    /// Factoring `I − Q`.
    Factor,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Compile => "compiling the board to a Markov chain",
            Stage::Factor => "factoring the chain's linear system",
        })
    }
}
