//! # snakeladder
//!
//! Exact answers to every question people ask about a Snakes and Ladders
//! (Chutes and Ladders) board: is this layout legal, how long will a game
//! last, how often is each snake and ladder used, how unfair is the first
//! seat.
//!
//! The expected length of a game, in three lines:
//!
//! ```
//! use snakeladder::{Analysis, Board, Options};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/althoen-1993.json");
//! let board = Board::from_path(path)?;
//! let analysis = Analysis::new(&board, &Options::default().exact(true))?;
//! assert_eq!(format!("{:.4}", analysis.turns.mean), "39.2251");
//! // The exact mean is a fraction (`BigRational`), not a rounded float.
//! let exact = &analysis.exact.as_ref().unwrap().mean;
//! assert!(exact.denom() > &1.into());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The pieces
//!
//! A [`Board`] (squares 1..=N, tokens start on 0 off the board, snakes and
//! ladders as one kind of [`Jump`]) and its [`Rules`] are read from JSON and
//! validated once at construction: a `Board` that exists is valid and never
//! changes, and an invalid file is refused with every [`Problem`] named.
//! One move function, [`Board::move_token`], is the only place the rules of
//! movement live; [`Board::play_roll`] adds the extra-roll rule on top of it.
//!
//! - [`Analysis`] compiles the board into an absorbing Markov chain and
//!   derives every figure from it exactly (module [`analysis`]).
//! - [`simulate`] plays millions of seeded games on every core, and
//!   [`check`] compares every exact figure with them.
//! - [`design`] makes seeded random layouts, ranks each jump's effect and
//!   tunes a layout toward a target; [`review`] holds layout review as data
//!   (every problem at its position, policy checks). Rendering any of it
//!   for a person (reports, charts, SARIF), and the diff of two boards for
//!   a reviewer, is the `snakeladder-render` crate's.
//! - A [`Game`] plays real games: dice are injected through the [`Roller`]
//!   trait ([`SeededDice`], fair or loaded, or [`ScriptedDice`] for
//!   tests), every roll yields a [`RollResult`], and a [`GameRecord`]
//!   replays the game exactly.
//!
//! ```
//! use snakeladder::{Board, Square};
//!
//! let board = Board::builtin_default();
//! assert_eq!(board.last(), Square::new(100));
//! // From the start, a roll of 1 lands on the ladder 1→38.
//! let mv = board.move_token(Square::OFF_BOARD, 1);
//! assert_eq!(mv.end, Square::new(38));
//!
//! // Invalid layouts are refused with every problem named.
//! let err = Board::from_json_str(r#"{"squares": 10, "ladders": [[5, 3]], "snakes": [[4, 8]]}"#)
//!     .unwrap_err();
//! assert_eq!(err.problems().len(), 2);
//! ```
//!
//! # Features
//! - `parallel` (on by default): searches, sweeps, solves and simulations
//!   spread over every core with rayon. Without it they run on the calling
//!   thread and give the same results.
//!
//! Off by default, so a library user compiles no schema generator and no
//! TOML reader:
//! - `schema`: JSON Schemas (`schemars::JsonSchema`) of the input and
//!   output types;
//! - `toml`: reading a layout policy from a `snakeladder.toml` file
//!   (`policy::parse_policy`, `policy::read_policy`, and their error
//!   `policy::PolicyError`).

// The layers, lowest first, are model; play and markov; sim; design and
// review: a module uses only its own layer and those before it (rustfmt
// keeps this list alphabetical, so it does not show the order).
pub mod design;
mod markov;
mod model;
mod over;
mod play;
mod progress;
pub mod review;
mod sim;

// Data parallelism as the solver crate has it, so both agree on one
// `parallel` feature.
use absorbing::par;
pub use model::policy;
pub use sim::{check, simulate};

/// The figures of an [`Analysis`]: the types of its fields, the parts a
/// JSON output leaves out ([`Skipped`](analysis::Skipped)), and why an
/// analysis can fail. [`Analysis`] itself, its [`Options`] and
/// [`Limits`] and its error [`AnalysisError`] live at the crate root.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, Board, Options};
///
/// let analysis = Analysis::new(&Board::builtin_default(), &Options::default())?;
/// let ladder: &snakeladder::analysis::JumpFigures = &analysis.jumps[0];
/// assert!(ladder.use_probability > 0.0);
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
pub mod analysis {
    pub use crate::markov::analysis::{
        BoardSummary, BoundedOdds, Decay, Exact, Figure, JumpFigures, LiveOdds, PlayersFigures,
        Shortest, Skipped, SquareFigures, Stage, Summary, Turns, Warning,
    };
}

pub use model::board::Board;
// The board file's type, behind `internals`, by its old path for the
// crate's own modules.
pub(crate) use model::board::BoardSpec;
pub use model::dice::Dice;
pub use model::error::BoardError;
pub use model::jump::{Jump, JumpKind};
pub use model::movement::{Blocked, Move};
pub use model::problem::{HiddenAt, HiddenCharacters, JumpRef, Problem};
pub use model::rules::{Chains, Entry, ExtraTurn, Overshoot, Rules};
pub use model::seed::Seed;
pub use model::square::Square;

pub use play::error::GameError;
pub use play::game::{Event, Finish, Game, Observer, Placing, RollResult, Standing, Status};
pub use play::record::GameRecord;
pub use play::roller::{Roller, ScriptedDice, SeededDice};

pub use markov::analysis::{Analysis, AnalysisError, Limits, Options};

/// Exact fractions, as the rational mode gives them
/// ([`Analysis::exact`]): `num_rational::BigRational`.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, BigRational, Board, Options};
///
/// // Two squares: from the start a roll of 2 wins (1/6), a roll of 1 goes
/// // to square 1, from which only a 1 wins; six turns on average.
/// let board = Board::from_json_str(r#"{"squares": 2}"#)?;
/// let analysis = Analysis::new(&board, &Options::default().exact(true))?;
/// assert_eq!(analysis.exact.unwrap().mean, BigRational::from_integer(6.into()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use num_rational::BigRational;

/// The pieces the crate's own front ends (the command, the rendering
/// crate, the server, the Python package), benchmarks, fuzz target and
/// white-box tests reach into: the compiled chain, the solver, the rational
/// mode, the tolerances, the wording the core's own messages share
/// with the renderers, and the board file's plain-data input types (which
/// the schema, the formatter and the tests' board strategies need). Not part of the public API and under no semver
/// promise.
#[doc(hidden)]
pub mod internals {
    pub use crate::markov::analysis::distribution::from_state_within as length_distribution;
    /// The memory compiling a board takes, as [`Analysis::new`](crate::Analysis::new)
    /// estimates it before compiling: a front end that compiles a board
    /// itself checks it first.
    pub use crate::markov::analysis::limits::chain_bytes;
    pub use crate::markov::analysis::solve::{
        DENSE_MAX_STATES, Method, Solver, estimate as solver_estimate, factor, factor_with,
    };
    pub use crate::markov::analysis::{DECAY_PRINTED, probability_text};
    pub use crate::markov::chain::{Chain, StateIndex, Target};
    pub use crate::markov::exact;
    pub use crate::markov::modular;
    pub use crate::markov::tolerance;
    /// The board file as written, plain data not yet validated; users read
    /// and write boards as JSON ([`Board::from_json_str`](crate::Board::from_json_str),
    /// [`Board::to_json`](crate::Board::to_json)).
    pub use crate::model::board::BoardSpec;
    pub use crate::model::dice::DiceSpec;
    pub use crate::model::fingerprint::fingerprint;
    /// How the command finds a board's `snakeladder.toml`.
    #[cfg(feature = "toml")]
    pub use crate::model::policy::find_policy_file;
    pub use crate::model::read::{FileReadError, read_regular_file};
    pub use crate::model::rules::{ExtraTurnSpec, RulesSpec};
    pub use crate::model::{numbers, vocabulary};
    /// How a figure and the limit it passed are written.
    pub use crate::over::{count as over_count, memory as over_memory, seconds as over_seconds};
    pub use crate::play::error::check_players;

    /// The design search's pieces its benchmark times one by one, the
    /// unvalidated board `generate` writes, and how a sensitivity variant
    /// was evaluated.
    pub mod design {
        pub use crate::design::budget::Budget;
        pub use crate::design::eval::{Base, Update, admissible};
        pub use crate::design::random::generate_spec;
        pub use crate::design::sensitivity::{Evaluation, sensitivity_until, sensitivity_within};
        use crate::{Board, Jump};

        /// Every move of jump `a` the search tries.
        pub fn moves_of(board: &Board, a: usize) -> Vec<Jump> {
            crate::design::moves_of(board, a)
        }
    }

    use crate::{Analysis, AnalysisError, Board, Options};

    /// [`Analysis::new`] on a chain already compiled and factored.
    pub fn analysis_with_chain(
        board: &Board,
        chain: &Chain,
        solver: &Solver,
        options: &Options,
    ) -> Result<Analysis, AnalysisError> {
        Analysis::with_chain(board, chain, solver, options)
    }
}
