//! Monte Carlo simulation: millions of games per second with exactly the
//! rules of [`Board::play_roll`].
//!
//! The simulator samples the dice and looks each roll up in a move table
//! built by calling [`Board::play_roll`]; it never re-implements a rule.
//!
//! # What is counted
//! The same quantities as the exact analysis (docs/cross-check.md §1): for one token
//! playing alone from the start square, **turns** `T` until it finishes
//! (the finishing turn included; a turn is the player's rolls until a roll
//! grants no further roll), **rolls**, the **uses** of each jump (a chained
//! move uses every jump of its chain), and the **rests** on each square (the
//! rolls that end there, whether or not the token moved: a blocked or
//! forfeited roll rests again where it stands).
//!
//! With `k` players the seats play in order and the first token to finish
//! wins. Tokens never interact and every roll is independent, so a game is
//! simulated as `k` independent tokens, each played to the finish: seat `i`
//! wins when its `T` is the smallest, ties going to the earlier seat, and
//! the game lasted `(T_min − 1)·k + i + 1` turns over all players in
//! `T_min` rounds (docs/figures.md §8). The per-token statistics then pool all
//! `k × games` tokens, which are independent samples of the same `T`.
//!
//! # Reproducibility
//! Games are played in fixed batches of [`SimulationConfig::BATCH_GAMES`]; batch `b` uses a
//! [`Xoshiro256PlusPlus`] seeded (with `seed_from_u64`) by the `(b + 1)`-th
//! output of a SplitMix64 generator started at the master seed (see
//! `batch_seed`). Every statistic is an exact integer sum, so merging
//! batches in any order gives the same bits: the same seed gives the same
//! report on 1, 2 or 64 threads.
//!
//! # Example
//! ```
//! use snakeladder::{Board, Seed};
//! use snakeladder::simulate::{simulate, SimulationConfig};
//!
//! let board = Board::builtin_default();
//! let config = SimulationConfig::new(20_000, Seed::new(7))?;
//! let report = simulate(&board, &config)?;
//! // The exact mean is 39.5984… turns; four standard errors either side.
//! assert!((report.turns.mean - 39.5984).abs() < 4.0 * report.turns.std_error);
//! # Ok::<(), snakeladder::simulate::SimulateError>(())
//! ```

mod engine;
mod marks;
mod sampler;
mod six;
mod stats;
mod table;

use crate::markov::analysis::limits::DEFAULT_MAX_MEMORY;
use crate::markov::analysis::{Figure, Skipped, cap_list};
use crate::markov::sparse::memory::Bytes;
pub(crate) use stats::Histogram;
pub use stats::{Quantile, SampleSummary};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
pub(crate) use table::MoveTable;

use crate::model::limits::MAX_PLAYERS;
use crate::model::seed::Seed;
use crate::{Board, JumpKind, Square};
use engine::{Accumulator, Engine};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use sampler::{DiceStream, Sampler};
use serde::Serialize;

/// Games per batch. Fixed (never derived from the thread count) so the
/// split of games into seeded batches, and hence every number, is the same
/// on any machine.
pub(crate) const BATCH_GAMES: u64 = 1 << 16;
/// Most games one simulation may play: 10^12, a week of one core.
pub(crate) const MAX_GAMES: u64 = 1_000_000_000_000;
/// Most worker threads.
pub(crate) const MAX_THREADS: usize = 1_024;
/// Most rolls one token may make before the simulation gives up. A valid
/// board always finishes with probability 1, but one whose expected length
/// is astronomical would otherwise run for ever; 2^32 rolls is minutes of
/// one core for one token.
pub(crate) const MAX_ROLLS_PER_TOKEN: u64 = 1 << 32;

/// Why a simulation, or a check of an analysis against one, could not run.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::simulate::{SimulateError, SimulationConfig};
///
/// let err = SimulationConfig::new(0, Seed::new(1)).unwrap_err();
/// assert_eq!(err, SimulateError::Games { games: 0 });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulateError {
    /// `games` is 0 or more than [`SimulationConfig::MAX_GAMES`].
    #[error("games must be between 1 and {MAX_GAMES}, not {games}")]
    Games {
        /// The value asked for.
        games: u64,
    },
    /// `players` is 0 or more than [`Board::MAX_PLAYERS`](crate::Board::MAX_PLAYERS).
    #[error(
        "players must be a whole number from 1 to {}, not {players}",
        MAX_PLAYERS
    )]
    Players {
        /// The value asked for.
        players: u32,
    },
    /// `threads` is 0 or more than [`SimulationConfig::MAX_THREADS`].
    #[error("threads must be between 1 and {MAX_THREADS}, not {threads}")]
    Threads {
        /// The value asked for.
        threads: usize,
    },
    /// The board is too large for a move table of every square, roll and
    /// phase.
    #[error(
        "a move table of {squares} squares × {rolls} rolls × {phases} phases has {entries} entries, more than the {limit} allowed"
    )]
    TooLarge {
        /// Squares 0..=N.
        squares: u64,
        /// Distinct dice totals.
        rolls: u64,
        /// Layers for the extra-roll rule.
        phases: u64,
        /// Their product.
        entries: u64,
        /// The most a table holds, 2³² − 1 entries.
        limit: u64,
    },
    /// The simulation would need more memory than allowed.
    #[error(
        "simulating this board would need about {} of memory (move table {}, {} per worker), over the limit of {} (see --max-memory)",
        crate::over::memory(*needed, *limit).0, Bytes(*table), Bytes(*per_worker), crate::over::memory(*needed, *limit).1
    )]
    Memory {
        /// The whole estimate in bytes.
        needed: u64,
        /// Of which the move table, its chains and the list of entries
        /// that take a jump.
        table: u64,
        /// And one worker's tallies (there are two per thread and one
        /// more).
        per_worker: u64,
        /// The limit.
        limit: u64,
    },
    /// A token made more than [`SimulationConfig::MAX_ROLLS_PER_TOKEN`] rolls without finishing.
    #[error(
        "a token made {rolls} rolls without finishing (batch {batch}); the board's games are too long to simulate"
    )]
    GameTooLong {
        /// Rolls made.
        rolls: u64,
        /// The batch it happened in.
        batch: u64,
    },
    /// No roll from any square finishes a game with a chance above
    /// `chance`, so a token needs more than
    /// [`SimulationConfig::MAX_ROLLS_PER_TOKEN`] rolls with a chance of at
    /// least 99% (`(1 − chance)ⁿ ≥ 1 − n·chance`): refused before the
    /// minutes of rolls that would end in [`SimulateError::GameTooLong`].
    #[error(
        "no roll finishes a game with a chance above {chance:.2e} from any square, so a token would need more than {max_rolls} rolls (with a chance of at least 99%); the board's games are too long to simulate"
    )]
    Endless {
        /// The largest chance that one roll finishes, over every square.
        chance: f64,
        /// [`SimulationConfig::MAX_ROLLS_PER_TOKEN`].
        max_rolls: u64,
    },
    /// The flag of [`SimulationConfig::with_stop`] was set (a front end's
    /// Ctrl-C): the games played so far are dropped, no report is made.
    #[error("the simulation was stopped (at batch {batch})")]
    Stopped {
        /// The first batch that found it stopped.
        batch: u64,
    },
    /// A check's exact analysis failed.
    #[error(transparent)]
    Analysis(#[from] crate::AnalysisError),
    /// A check's exact analysis skipped figures past its limits, so they
    /// cannot be compared; refused before simulating rather than compared
    /// in part.
    #[error(
        "the exact analysis skipped figures a check compares, so nothing was simulated: {}",
        skipped.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Skipped {
        /// What was skipped and why.
        skipped: Vec<Skipped>,
    },
    /// The worker pool could not be started.
    #[error("cannot start {threads} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Rayon's reason.
        message: String,
    },
}

/// What to simulate: how many games, the master seed, players and threads.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// use snakeladder::simulate::SimulationConfig;
/// let config = SimulationConfig::new(1_000_000, Seed::new(42))?.with_players(4)?.with_threads(2)?;
/// assert_eq!(config.players(), 4);
/// assert!(SimulationConfig::new(0, Seed::new(42)).is_err());
/// # Ok::<(), snakeladder::simulate::SimulateError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SimulationConfig {
    games: u64,
    seed: Seed,
    players: u32,
    threads: Option<usize>,
    max_memory: Option<u64>,
    progress: crate::progress::Evaluated,
    /// A front end's stop flag (Ctrl-C), see `with_stop`; `check` hands it
    /// to its analysis too.
    pub(crate) stop: crate::progress::Callback<AtomicBool>,
}

impl SimulationConfig {
    /// Games per seeded batch: fixed, never derived from the thread count,
    /// so every number is the same on any machine.
    pub const BATCH_GAMES: u64 = BATCH_GAMES;

    /// Most games one simulation may play: 10^12, a week of one core.
    pub const MAX_GAMES: u64 = MAX_GAMES;

    /// Most worker threads.
    pub const MAX_THREADS: usize = MAX_THREADS;

    /// Most rolls one token may make before the simulation gives up
    /// ([`SimulateError::GameTooLong`]): 2^32 rolls, minutes of one core.
    pub const MAX_ROLLS_PER_TOKEN: u64 = MAX_ROLLS_PER_TOKEN;

    /// `games` one-player games from master seed `seed`, on every core.
    ///
    /// # Errors
    /// [`SimulateError::Games`] unless `1 ≤ games ≤ MAX_GAMES`.
    pub fn new(games: u64, seed: Seed) -> Result<SimulationConfig, SimulateError> {
        if games == 0 || games > MAX_GAMES {
            return Err(SimulateError::Games { games });
        }
        Ok(SimulationConfig {
            games,
            seed,
            players: 1,
            threads: None,
            max_memory: None,
            progress: Default::default(),
            stop: Default::default(),
        })
    }

    /// The same, refusing ([`SimulateError::Memory`]) a board whose
    /// simulation is estimated to need more than `bytes` (default
    /// [`Limits::DEFAULT_MAX_MEMORY`](crate::Limits::DEFAULT_MAX_MEMORY), as the analysis).
    pub fn with_max_memory(self, bytes: u64) -> SimulationConfig {
        SimulationConfig {
            max_memory: Some(bytes),
            ..self
        }
    }

    /// The memory limit: the one given, else [`Limits::DEFAULT_MAX_MEMORY`](crate::Limits::DEFAULT_MAX_MEMORY).
    pub fn max_memory(&self) -> u64 {
        self.max_memory.unwrap_or(DEFAULT_MAX_MEMORY)
    }

    /// The worker threads the simulation will use.
    fn worker_threads(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// The same with `players` seats per game.
    ///
    /// # Errors
    /// [`SimulateError::Players`] unless `1 ≤ players ≤ Board::MAX_PLAYERS`.
    pub fn with_players(self, players: u32) -> Result<SimulationConfig, SimulateError> {
        if players == 0 || players as usize > MAX_PLAYERS {
            return Err(SimulateError::Players { players });
        }
        Ok(SimulationConfig { players, ..self })
    }

    /// The same on exactly `threads` worker threads (the numbers do not
    /// change, only the time).
    ///
    /// # Errors
    /// [`SimulateError::Threads`] unless `1 ≤ threads ≤ MAX_THREADS`.
    pub fn with_threads(self, threads: usize) -> Result<SimulationConfig, SimulateError> {
        if threads == 0 || threads > MAX_THREADS {
            return Err(SimulateError::Threads { threads });
        }
        Ok(SimulationConfig {
            threads: Some(threads),
            ..self
        })
    }

    /// The same, calling `progress` with the number of games played so far
    /// after each batch of [`SimulationConfig::BATCH_GAMES`] games (from any
    /// worker thread), for a front end's progress bar.
    ///
    /// # Example
    /// ```
    /// use snakeladder::simulate::{SimulationConfig, simulate};
    /// use snakeladder::{Board, Seed};
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// let done = Arc::new(AtomicU64::new(0));
    /// let seen = done.clone();
    /// let config = SimulationConfig::new(20_000, Seed::new(1))?
    ///     .with_progress(move |games| {
    ///         seen.fetch_max(games, Ordering::Relaxed);
    ///     });
    /// simulate(&Board::builtin_default(), &config)?;
    /// assert_eq!(done.load(Ordering::Relaxed), 20_000);
    /// # Ok::<(), snakeladder::simulate::SimulateError>(())
    /// ```
    pub fn with_progress(self, progress: impl Fn(u64) + Send + Sync + 'static) -> SimulationConfig {
        SimulationConfig {
            progress: crate::progress::Callback::new(Arc::new(progress)),
            ..self
        }
    }

    /// The same, stopping with [`SimulateError::Stopped`] (and no report)
    /// once `stop` is set, looked at before each batch and every 64 games
    /// within one: for a front end's Ctrl-C.
    ///
    /// # Example
    /// ```
    /// use snakeladder::simulate::{SimulateError, SimulationConfig, simulate};
    /// use snakeladder::{Board, Seed};
    /// use std::sync::Arc;
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let stop = Arc::new(AtomicBool::new(true));
    /// let config = SimulationConfig::new(20_000, Seed::new(1))?.with_stop(stop);
    /// let got = simulate(&Board::builtin_default(), &config);
    /// assert!(matches!(got, Err(SimulateError::Stopped { .. })));
    /// # Ok::<(), snakeladder::simulate::SimulateError>(())
    /// ```
    pub fn with_stop(self, stop: Arc<AtomicBool>) -> SimulationConfig {
        SimulationConfig {
            stop: crate::progress::Callback::new(stop),
            ..self
        }
    }

    /// Games to play.
    pub fn games(&self) -> u64 {
        self.games
    }
    /// The master seed.
    pub fn seed(&self) -> Seed {
        self.seed
    }
    /// Seats per game.
    pub fn players(&self) -> u32 {
        self.players
    }
    /// Worker threads, `None` for one per core.
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }
}

/// The seed of batch `b`: the `(b + 1)`-th output of SplitMix64 started at
/// `master` (Steele, Lea and Flood 2014; the same generator
/// `seed_from_u64` uses to expand a seed).
pub(crate) fn batch_seed(master: u64, b: u64) -> u64 {
    let mut z = master.wrapping_add(b.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A simulated jump's uses; the fields of the exact analysis's
/// `JumpFigures` with a standard error beside each.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
let ladder = &report.jumps[0]; // 3→11, used with probability 49/216
assert_eq!(ladder.kind, snakeladder::JumpKind::Ladder);
assert!((ladder.use_probability - 49.0 / 216.0).abs() < 4.0 * ladder.use_probability_std_error);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct JumpEstimate {
    /// Where it starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// Ladder or snake.
    pub kind: JumpKind,
    /// Mean uses per token.
    pub expected_uses: f64,
    /// Its standard error (cluster estimator; see the engine docs).
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub expected_uses_std_error: f64,
    /// Share of tokens that used it at least once.
    pub use_probability: f64,
    /// Its binomial standard error.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub use_probability_std_error: f64,
    /// Tokens that used it at least once.
    pub tokens_using: u64,
}

/// A simulated square's rests; the fields of the exact analysis's
/// `SquareFigures` with a standard error beside each.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
let one = &report.squares[1];
assert_eq!(one.square.get(), 1);
// Exactly 1/6 of tokens rest there.
assert!((one.rest_probability - 1.0 / 6.0).abs() < 4.0 * one.rest_probability_std_error);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SquareEstimate {
    /// The square.
    pub square: Square,
    /// Mean rolls per token that end on it (a blocked or forfeited roll
    /// rests again where it stands).
    pub expected_rests: f64,
    /// Its standard error (cluster estimator).
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub expected_rests_std_error: f64,
    /// Share of tokens that rested on it after at least one roll (for the
    /// start square: came back to it). With extra rolls this counts
    /// mid-turn rests too.
    pub rest_probability: f64,
    /// Its binomial standard error.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub rest_probability_std_error: f64,
    /// Tokens that rested on it at least once.
    pub tokens_resting: u64,
}

/// The simulated k-player game; the fields of the exact analysis's
/// `PlayersFigures` with standard errors.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
let two = report.game();
assert_eq!(two.count, 2);
assert_eq!(two.wins.iter().sum::<u64>(), 2_000);
assert!((two.win_probability[0] + two.win_probability[1] - 1.0).abs() < 1e-12);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PlayersEstimate {
    /// Number of players.
    pub count: u32,
    /// Games each seat won, first seat first.
    pub wins: Vec<u64>,
    /// Each seat's share of wins.
    pub win_probability: Vec<f64>,
    /// Their binomial standard errors.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Option<f64>>"))]
    pub win_probability_std_error: Vec<f64>,
    /// Mean turns of the whole game, counted over all players.
    pub expected_total_turns: f64,
    /// Its standard error.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub expected_total_turns_std_error: f64,
    /// Mean rounds (the winner's turns).
    pub expected_rounds: f64,
    /// Its standard error.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub expected_rounds_std_error: f64,
    /// Turns of the whole game: spread and quantiles.
    pub total_turns: SampleSummary,
}

/// Everything a simulation measured, each estimate with its standard error.
/// Serialises as `simulate --format json`, in the shape of `analyze`'s JSON
/// where the figure is the same.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
assert_eq!((report.games, report.seed), (2_000, 1));
// The exact mean is 11.618… turns.
assert!((report.turns.mean - 11.618).abs() < 4.0 * report.turns.std_error);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SimulationReport {
    /// Games played.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// Tokens played to the finish: `games × players`; the sample size of
    /// `turns`, `rolls`, `squares` and `jumps`.
    pub tokens: u64,
    /// Games per seeded batch ([`SimulationConfig::BATCH_GAMES`]).
    pub batch_games: u64,
    /// Whether the rules grant extra rolls on this board (then rolls and
    /// turns differ, and rests count mid-turn rests).
    pub has_extra_rolls: bool,
    /// Clusters of games behind the standard errors of rests and uses
    /// (their degrees of freedom are one fewer).
    pub clusters: u64,
    /// Turns of one token until it finishes.
    pub turns: SampleSummary,
    /// Rolls of one token until it finishes.
    pub rolls: SampleSummary,
    /// Every square a token can rest on (jump starts left out).
    pub squares: Vec<SquareEstimate>,
    /// Every jump, in board order.
    pub jumps: Vec<JumpEstimate>,
    /// The game of `players` seats: one entry, like the analysis's list
    /// of player counts.
    pub players: Vec<PlayersEstimate>,
    /// Lists left out of a JSON output ([`SimulationReport::cap_lists`]);
    /// empty otherwise.
    pub skipped: Vec<Skipped>,
    /// The distribution of `T`, exact counts.
    #[serde(skip)]
    pub(crate) turns_histogram: Histogram,
    /// The distribution of rolls, exact counts.
    #[serde(skip)]
    pub(crate) rolls_histogram: Histogram,
}

impl SimulationReport {
    /// The k-player figures (the one entry of [`SimulationReport::players`]).
    pub fn game(&self) -> &PlayersEstimate {
        &self.players[0]
    }

    /// Makes the report fit a JSON output: the per-square and per-jump
    /// lists whole when they have at most `entries` entries
    /// (`MAX_JSON_ENTRIES` of `snakeladder_render::json`), else left
    /// out and named in [`SimulationReport::skipped`], as in `analyze`.
    pub fn cap_lists(&mut self, entries: usize) {
        cap_list(
            &mut self.squares,
            Figure::Squares,
            entries,
            &mut self.skipped,
        );
        cap_list(&mut self.jumps, Figure::Jumps, entries, &mut self.skipped);
    }
}

/// Simulates `config.games()` games of `board`.
///
/// # Errors
/// [`SimulateError::TooLarge`] for a board too large for a move table,
/// [`SimulateError::GameTooLong`] when a token does not finish within
/// [`SimulationConfig::MAX_ROLLS_PER_TOKEN`] rolls, [`SimulateError::Pool`] when the threads
/// cannot start.
///
/// # Example
/// ```
/// use snakeladder::simulate::{SimulationConfig, simulate};
/// use snakeladder::{Board, Seed};
///
/// let report = simulate(&Board::builtin_default(), &SimulationConfig::new(100_000, Seed::new(1))?)?;
/// assert_eq!(report.games, 100_000);
/// // The exact mean is 39.2251 turns; the estimate is within a few standard errors.
/// assert!((report.turns.mean - 39.2251).abs() < 5.0 * report.turns.std_error);
/// # Ok::<(), snakeladder::simulate::SimulateError>(())
/// ```
pub fn simulate(
    board: &Board,
    config: &SimulationConfig,
) -> Result<SimulationReport, SimulateError> {
    check_memory(board, config)?;
    let table = MoveTable::new(board)?;
    let chance = table.best_finishing_chance(board.rules().dice());
    if (MAX_ROLLS_PER_TOKEN as f64) * chance <= ENDLESS_SHARE {
        return Err(SimulateError::Endless {
            chance,
            max_rolls: MAX_ROLLS_PER_TOKEN,
        });
    }
    simulate_table(board, &table, config)
}

/// The bound on `n·p` (n = [`MAX_ROLLS_PER_TOKEN`], p the best chance that
/// one roll finishes) below which a simulation is refused: each token then
/// outlasts n rolls with a chance of at least `1 − n·p ≥ 99%`.
const ENDLESS_SHARE: f64 = 0.01;

/// What a simulation of a board is estimated to hold in memory at most.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoryEstimate {
    /// The move table, its chains and the list of entries that take a jump.
    pub table: u64,
    /// One worker's tallies (a count per table entry, sums per square and
    /// per jump).
    pub per_worker: u64,
    /// Tallies alive at once: two per thread (rayon's fold and reduce) and
    /// one more.
    pub workers: u64,
}

impl MemoryEstimate {
    /// The whole estimate in bytes.
    pub(crate) fn total(&self) -> u64 {
        self.table
            .saturating_add(self.per_worker.saturating_mul(self.workers))
    }
}

/// Estimates the memory a simulation of `board` under `config` holds at
/// most, from the board alone and in time linear in its size: nothing is
/// allocated for it.
pub(crate) fn estimate_memory(board: &Board, config: &SimulationConfig) -> MemoryEstimate {
    let squares = board.last().index() as u64 + 1;
    let entries = MoveTable::entries_needed(board);
    let jumps = board.jumps().len() as u64;
    let rolls = board.rules().dice().rolls().len() as u64;
    let phases = entries / squares;
    // Per entry: the packed entry (8) and its end square (4). Per jump: the
    // jump its chain takes next and its place in the order of chains (4 +
    // 4; docs/chains.md). The engine's list of entries that take a jump
    // (16 each): a jump start is landed on by at most two squares per roll
    // and phase (one moving forward, one bouncing back). And 16 MiB for the
    // process itself.
    let jumping = (2 * rolls * phases * jumps).min(entries);
    let table = entries * 12 + jumps * 8 + jumping * 16 + (16 << 20);
    // Per entry a count (8); per square seen-stamps (16), cluster sums
    // (8 + 16 + 16) and scratch (8); the same per jump and per path.
    let per_worker = entries * 8 + squares * 64 + jumps * (64 + 16) + 16;
    MemoryEstimate {
        table,
        per_worker,
        workers: 2 * config.worker_threads() as u64 + 1,
    }
}

/// Refuses a board whose simulation would pass `config`'s memory limit.
///
/// # Errors
/// [`SimulateError::Memory`] with the estimate.
pub(crate) fn check_memory(board: &Board, config: &SimulationConfig) -> Result<(), SimulateError> {
    let estimate = estimate_memory(board, config);
    let limit = config.max_memory();
    if estimate.total() > limit {
        return Err(SimulateError::Memory {
            needed: estimate.total(),
            table: estimate.table,
            per_worker: estimate.per_worker,
            limit,
        });
    }
    Ok(())
}

/// [`simulate`] over a given table: the tests hand it a
/// deliberately wrong one to show the cross-check catches it.
pub(crate) fn simulate_table(
    board: &Board,
    table: &MoveTable,
    config: &SimulationConfig,
) -> Result<SimulationReport, SimulateError> {
    let engine = Engine::new(table, board.jumps().len(), board.rules().dice(), config);
    run_engine(board, &engine, config)
}

/// Plays `config`'s games on `engine`.
fn run_engine(
    board: &Board,
    engine: &Engine<'_>,
    config: &SimulationConfig,
) -> Result<SimulationReport, SimulateError> {
    let stopped = || config.stop.get().is_some_and(|s| s.load(Ordering::Relaxed));
    let played = AtomicU64::new(0);
    let sampler = Sampler::new(board.rules().dice());
    let threads = config.worker_threads();
    let batches = config.games.div_ceil(BATCH_GAMES);
    let fold = |mut acc: Accumulator, b: u64| {
        if stopped() {
            return Err(SimulateError::Stopped { batch: b });
        }
        let games = BATCH_GAMES.min(config.games - b * BATCH_GAMES);
        let rng = Xoshiro256PlusPlus::seed_from_u64(batch_seed(config.seed.get(), b));
        match &sampler {
            Sampler::Six(s) => engine.six_batch(&mut acc, &mut DiceStream::new(rng, *s), games),
            Sampler::Uniform(s) => engine.batch(&mut acc, &mut DiceStream::new(rng, *s), games),
            Sampler::Alias(a) => engine.batch(&mut acc, &mut DiceStream::new(rng, a.view()), games),
        }
        .map_err(|rolls| SimulateError::GameTooLong { rolls, batch: b })?;
        // A batch the flag cut short is dropped.
        if stopped() {
            return Err(SimulateError::Stopped { batch: b });
        }
        if let Some(progress) = config.progress.get() {
            progress(played.fetch_add(games, Ordering::Relaxed) + games);
        }
        Ok::<_, SimulateError>(acc)
    };
    let merge = |mut a: Accumulator, b: Accumulator| {
        a.merge(&b);
        Ok(a)
    };
    // Every sum merged is of integers, so the result does not depend on how
    // the batches are split between threads.
    let acc = crate::par::with_threads(threads, || {
        crate::par::try_fold_merge(batches, || engine.accumulator(), fold, merge)
    })
    .map_err(|message| SimulateError::Pool { threads, message })??;
    Ok(engine.report(acc, board, config))
}

#[cfg(test)]
mod tests;
