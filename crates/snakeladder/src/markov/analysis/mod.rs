//! The exact analysis of a board: every figure of `snakeladder analyze`,
//! computed from the compiled [`Chain`].
//!
//! [`Analysis::new`] compiles the board, factors `I − Q` once
//! ([`solve::Solver`]) and derives every figure from it; the modules hold
//! one family of figures each. Figures are exact up to `f64` rounding (and
//! the length distribution up to its reported tail); [`Analysis::exact`]
//! adds the mean as a fraction on request.

pub(crate) mod accuracy;
mod compute;
pub(crate) mod distribution;
pub(crate) mod jumps;
pub(crate) mod limits;
pub(crate) mod moments;
pub(crate) mod odds;
mod plan;
pub(crate) mod players;
pub(crate) mod shortest;
pub(crate) mod solve;
pub(crate) mod squares;
pub(crate) mod ties;

use crate::markov::chain::Chain;
use crate::model::numbers::{quantity, tiny};
use crate::model::rules::RulesSpec;
use crate::{Board, model::fingerprint};
use num_rational::BigRational;
use plan::Plan;
use serde::Serialize;
use solve::{Estimate, Solver};
use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use distribution::Decay;
pub use jumps::JumpFigures;
pub use limits::{Figure, Limits, Skipped};
pub use moments::Summary;
pub use odds::{BoundedOdds, LiveOdds};
pub use players::PlayersFigures;
pub use shortest::{Shortest, probability_text};
pub use solve::Method;
pub use squares::SquareFigures;

mod error;
pub use error::{AnalysisError, Stage};

/// Multiply-adds of the length distribution from which [`Analysis::new`]
/// computes it on one core while the per-square and per-jump figures are
/// computed on another: about 10 ms of stepping, where waking a second
/// thread costs microseconds.
const PARALLEL_WORK: f64 = 1e7;

/// What to compute beyond the figures every analysis has, and the memory
/// and work it may take: the one way to configure an [`Analysis`].
///
/// # Example
/// ```
/// use snakeladder::{Analysis, Board, Options};
///
/// let options = Options::default()
///     .players([2, 4])
///     .exact(true)
///     .max_memory(1 << 30)
///     .max_work(1e9);
/// let a = Analysis::new(&Board::builtin_default(), &options)?;
/// assert_eq!(a.players.len(), 2);
/// assert!(a.exact.is_some());
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Player counts for seat win probabilities (default 2..=6).
    pub(crate) players: Vec<u32>,
    /// Whether to compute the mean as an exact fraction.
    pub(crate) exact: bool,
    /// Memory and work allowed.
    pub(crate) limits: Limits,
    /// A front end's stop flag (Ctrl-C), see `with_stop`.
    pub(crate) stop: crate::progress::Callback<AtomicBool>,
}

impl Default for Options {
    /// Seat odds for 2 to 6 players, no exact fraction, and the default
    /// [`Limits`].
    fn default() -> Options {
        Options {
            players: (2..=6).collect(),
            exact: false,
            limits: Limits::default(),
            stop: Default::default(),
        }
    }
}

impl Options {
    /// The player counts to give seat odds for (none for an empty list),
    /// each once, in the order first given: `--players 2,2` asks for the
    /// odds of two players, not for the same table twice.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Analysis, Board, Options};
    ///
    /// let options = Options::default().players([3, 2, 3]);
    /// let a = Analysis::new(&Board::builtin_default(), &options)?;
    /// let counts: Vec<u32> = a.players.iter().map(|p| p.count).collect();
    /// assert_eq!(counts, [3, 2]);
    /// # Ok::<(), snakeladder::AnalysisError>(())
    /// ```
    pub fn players(mut self, counts: impl IntoIterator<Item = u32>) -> Options {
        self.players = Vec::new();
        for count in counts {
            if !self.players.contains(&count) {
                self.players.push(count);
            }
        }
        self
    }

    /// Whether to compute the mean as an exact fraction as well
    /// ([`Analysis::exact`]).
    pub fn exact(mut self, exact: bool) -> Options {
        self.exact = exact;
        self
    }

    /// Bytes the analysis may allocate (estimated before allocating):
    /// compiling or factoring past it is refused with
    /// [`AnalysisError::Memory`], optional figures past it are skipped.
    pub fn max_memory(mut self, bytes: u64) -> Options {
        self.limits.max_memory = bytes;
        self
    }

    /// Multiply-adds any one optional figure may take; past it the figure
    /// is skipped and listed in [`Analysis::skipped`].
    pub fn max_work(mut self, multiply_adds: f64) -> Options {
        self.limits.max_work = multiply_adds;
        self
    }

    /// Both limits at once.
    pub fn limits(mut self, limits: Limits) -> Options {
        self.limits = limits;
        self
    }

    /// Stops the analysis with [`AnalysisError::Stopped`], and no figures,
    /// at its next look at `stop` once it is set: for a front end's Ctrl-C.
    /// It looks between figures, every 256 turns of the length distribution
    /// and every p-adic digit of exact mode; not inside one factorisation
    /// or one solve.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Analysis, AnalysisError, Board, Options};
    /// use std::sync::Arc;
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let stop = Arc::new(AtomicBool::new(true));
    /// let got = Analysis::new(&Board::builtin_default(), &Options::default().with_stop(stop));
    /// assert_eq!(got.unwrap_err(), AnalysisError::Stopped);
    /// ```
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Options {
        self.stop = crate::progress::Callback::new(stop);
        self
    }

    /// The stop flag, if one was given.
    pub(crate) fn stop_flag(&self) -> Option<&AtomicBool> {
        self.stop.get()
    }

    /// [`AnalysisError::Stopped`] once the stop flag is set.
    pub(crate) fn check_stop(&self) -> Result<(), AnalysisError> {
        stop_check(self.stop_flag())
    }
}

/// Turns of the length distribution between two looks at the stop flag
/// ([`Options::with_stop`]): a turn costs a pass over the chain's entries,
/// so on a large board a look comes well within a second, and on a small
/// one (a few hundred turns in all) it costs nothing measurable.
pub(crate) const STOP_EVERY_TURNS: usize = 256;

/// [`AnalysisError::Stopped`] when `stop` is given and set.
pub(crate) fn stop_check(stop: Option<&AtomicBool>) -> Result<(), AnalysisError> {
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(AnalysisError::Stopped);
    }
    Ok(())
}

/// The board as the analysis names it.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default())?;
let summary = &analysis.board;
assert_eq!((summary.squares, summary.snakes, summary.ladders), (20, 1, 1));
assert_eq!(summary.name, None);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct BoardSummary {
    /// The board's name, if its file gave one.
    pub name: Option<String>,
    /// The last square.
    pub squares: u32,
    /// Number of snakes.
    pub snakes: usize,
    /// Number of ladders.
    pub ladders: usize,
    /// Transient states of the chain (squares a turn can end on).
    pub states: usize,
}

/// The number of turns of one player: moments and distribution.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let turns = Analysis::new(&board, &Options::default())?.turns;
assert_eq!(format!("{:.4}", turns.mean), "11.6183");
assert_eq!((turns.min, turns.mode, turns.median), (Some(3), Some(6), Some(10)));
let total: f64 = turns.pmf.iter().sum();
assert!((total + turns.tail - 1.0).abs() < 1e-9);
assert!((turns.std_dev * turns.std_dev - turns.variance).abs() < 1e-9);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turns {
    /// Expected turns.
    pub mean: f64,
    /// An upper bound on the relative error of `mean` (from its residual; the
    /// rounding of the exact fraction when it was recomputed exactly).
    /// (JSON: `null` for infinity: the solve gives no bound.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub mean_error_bound: f64,
    /// Variance of the turns.
    /// (JSON: `null` for infinity: a variance past the range of `f64`.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub variance: f64,
    /// An upper bound on the relative error of `variance` (from the
    /// residuals of its solves and the mean's bound; the rounding of the
    /// exact fraction when it was recomputed exactly).
    /// (JSON: `null` for infinity: the solve gives no bound.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub variance_error_bound: f64,
    /// Standard deviation.
    /// (JSON: `null` for infinity: a variance past the range of `f64`.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub std_dev: f64,
    /// The fewest turns with positive probability, found from the moves
    /// (a search over turns), so a game whose probability is below the kernel's
    /// cutoff or the range of `f64` still counts.
    pub min: Option<usize>,
    /// The smallest most likely number of turns (near-ties decided
    /// exactly).
    pub mode: Option<usize>,
    /// The smallest t with `P(T ≤ t) ≥ 1/2`.
    pub median: Option<usize>,
    /// The smallest t with `P(T ≤ t) ≥ 0.9`.
    pub p90: Option<usize>,
    /// The smallest t with `P(T ≤ t) ≥ 0.99`.
    pub p99: Option<usize>,
    /// `pmf[t − 1] = P(T = t)`.
    pub pmf: Vec<f64>,
    /// `cdf[t − 1] = P(T ≤ t)`.
    pub cdf: Vec<f64>,
    /// `P(T > pmf.len())`: the probability the distribution leaves out
    /// (below 1e-12 unless a game is extremely long).
    pub tail: f64,
    /// How the tail decays: ρ, the probability that a long game survives one
    /// more turn, with its bracket, and the turn after which the
    /// distribution was computed in closed form rather than stepped
    /// (docs/figures.md §4a). `None` when the distribution was stepped to
    /// its end and its decay could not be bracketed to within
    /// [`DECAY_PRINTED`]; given whenever the tail was computed from it.
    pub decay: Option<Decay>,
}

impl Turns {
    /// Keeps the first `terms` turns of `pmf` and `cdf` and adds what is
    /// cut off to `tail`, which stays `P(T > pmf.len())`: the rule of the
    /// JSON outputs, with `terms` = `MAX_JSON_TERMS` of `snakeladder_render::json`. Every other figure
    /// (mean, quantiles, mode) was computed from the whole distribution and
    /// is unchanged.
    pub fn cap_terms(&mut self, terms: usize) {
        if self.pmf.len() <= terms {
            return;
        }
        let cut: f64 = self.pmf[terms..].iter().sum();
        self.tail += cut;
        self.pmf.truncate(terms);
        self.cdf.truncate(terms);
    }
}

/// Leaves out a list longer than `limit` entries, clearing it and naming
/// it in `skipped` with its length: the rule of the JSON outputs for the
/// per-square and per-jump lists (`MAX_JSON_ENTRIES` of `snakeladder_render::json`). A list is given
/// whole or not at all, so that no one reads a prefix as the board.
pub fn cap_list<T>(list: &mut Vec<T>, figure: Figure, limit: usize, skipped: &mut Vec<Skipped>) {
    if list.len() > limit {
        skipped.push(Skipped {
            figure,
            cost: limits::Cost::Output {
                entries: list.len() as u64,
                limit: limit as u64,
            },
        });
        *list = Vec::new();
    }
}

/// Widest bracket `high − low` of ρ for which [`Turns::decay`] is given:
/// ρ is printed to ten decimals, and a bracket this narrow settles them up
/// to the rounding of the last one.
pub const DECAY_PRINTED: f64 = 1e-11;

/// Something a reader of the figures must know: they are less exact than
/// the rest of the analysis promises.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
use snakeladder::analysis::Warning;

// A small board's figures are all trusted.
assert!(Analysis::new(&board, &Options::default())?.warnings.is_empty());
let cut = Warning::Truncated { turns: 1000, tail: 0.25 };
assert!(cut.to_string().contains("1000"));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Warning {
    /// The `f64` mean's relative error bound (docs/figures.md §2b) passed
    /// [`tolerance::MEAN_TRUST`](crate::markov::tolerance::MEAN_TRUST), and the
    /// mean was recomputed exactly.
    MeanRecomputed {
        /// The `f64` mean.
        float: f64,
        /// Its error bound, relative.
        /// (JSON: `null` for infinity.)
        #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
        bound: f64,
        /// Its measured error against the exact mean, relative.
        error: f64,
    },
    /// The length distribution was cut off before its tail fell below
    /// [`tolerance::TAIL`](crate::markov::tolerance::TAIL) (a game that lasts past
    /// the turn cap or the work limit): seat odds are skipped, the mode is
    /// given only when no later term can pass it, and quantiles only when
    /// the computed terms reach them.
    Truncated {
        /// Turns followed.
        turns: usize,
        /// The probability left out, `P(T > turns)`.
        tail: f64,
    },
    /// The `f64` mean's error bound passed the trust level and exact
    /// arithmetic was not affordable: the mean is printed with its bound.
    MeanUncertain {
        /// The bound, relative (infinite: the solve failed outright).
        /// (JSON: `null` for infinity.)
        #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
        bound: f64,
        /// Why the exact mean was not computed.
        reason: String,
    },
    /// The `f64` variance's relative error bound passed
    /// [`tolerance::MEAN_TRUST`](crate::markov::tolerance::MEAN_TRUST) (a
    /// nearly certain game, whose variance is a small difference of large
    /// terms, or an ill-conditioned chain), and it was recomputed exactly.
    VarianceRecomputed {
        /// The `f64` variance (JSON: `null` for infinity).
        #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
        float: f64,
        /// Its error bound, relative.
        /// (JSON: `null` for infinity.)
        #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
        bound: f64,
    },
    /// The `f64` variance's error bound passed the trust level and exact
    /// arithmetic was not affordable: the variance is printed with its
    /// bound.
    VarianceUncertain {
        /// The bound, relative (infinite: no positive variance to bound).
        /// (JSON: `null` for infinity.)
        #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
        bound: f64,
        /// Why the exact variance was not computed.
        reason: String,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::MeanRecomputed {
                float,
                bound,
                error,
            } => write!(
                f,
                "the floating-point mean {} could be off by {} relative (an ill-conditioned chain) \
                 and was off by {}; the mean shown is the exact one. The variance, distribution \
                 and odds come from the same floating-point solve and may be off by as much",
                quantity(*float, 4),
                bound_text(*bound),
                tiny(*error)
            ),
            Warning::Truncated { turns, tail } => write!(
                f,
                "the length distribution was followed for {turns} turns and leaves out {tail:.2e} \
                 of the probability: seat odds are skipped, and the mode and quantiles are given \
                 only where the computed terms settle them"
            ),
            Warning::MeanUncertain { bound, reason } => write!(
                f,
                "the floating-point mean could be off by {} relative (an ill-conditioned chain), \
                 and the exact mean was not computed: {reason}",
                bound_text(*bound)
            ),
            Warning::VarianceRecomputed { float, bound } => write!(
                f,
                "the floating-point variance {} could be off by {} relative; the variance \
                 and standard deviation shown are the exact ones",
                quantity(*float, 4),
                bound_text(*bound)
            ),
            Warning::VarianceUncertain { bound, reason } => write!(
                f,
                "the floating-point variance could be off by {} relative, and the exact variance \
                 was not computed: {reason}",
                bound_text(*bound)
            ),
        }
    }
}

/// A relative error bound as text: infinite means the solve is no answer.
fn bound_text(bound: f64) -> String {
    if bound.is_finite() {
        tiny(bound)
    } else {
        "any amount".to_string()
    }
}

/// The exact figures of exact mode.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default().exact(true))?;
let exact = analysis.exact.unwrap();
assert_eq!(exact.mean_turns, "11537154283/993013626");
assert_eq!(exact.mean.to_string(), exact.mean_turns);
assert!(exact.relative_difference < 1e-12);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Exact {
    /// The mean turns as a reduced fraction.
    #[serde(skip)]
    pub mean: BigRational,
    /// The same fraction written `numerator/denominator`.
    pub mean_turns: String,
    /// Relative difference of the `f64` solve's mean from it.
    pub relative_difference: f64,
    /// How the fraction was checked: by exact substitution into the
    /// scaled integer system (docs/exact-modular.md §6).
    pub certified: String,
}

impl Exact {
    /// Whether the `f64` solve's mean agrees with the exact one to the
    /// trust level of every printed mean (1e-9 relative).
    pub fn agrees(&self) -> bool {
        self.relative_difference <= crate::markov::tolerance::MEAN_TRUST
    }
}

/// Every figure of one board. Serialises as `analyze --format json`.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::{Analysis, Options};
///
/// let a = Analysis::new(&Board::builtin_default(), &Options::default())?;
/// assert!((a.turns.mean - 39.5984).abs() < 1e-4);
/// assert_eq!(a.turns.median, Some(33));
/// assert_eq!(a.turns.mode, Some(22));
/// let two = &a.players[0];
/// assert!((two.win_probability[0] - 0.507803).abs() < 1e-6);
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Analysis {
    /// The board.
    pub board: BoardSummary,
    /// The fingerprint of the layout and effective rules
    /// ([`Board::fingerprint`](crate::Board::fingerprint)).
    pub fingerprint: String,
    /// The effective rules, every default filled in.
    // In the API, the analysed board's `Board::rules`.
    #[doc(hidden)]
    pub rules: RulesSpec,
    /// Turns of one player.
    pub turns: Turns,
    /// Rolls of one player (equal to turns without extra rolls).
    pub rolls: Summary,
    /// Every square a token can rest on.
    pub squares: Vec<SquareFigures>,
    /// Every jump, sorted by start square.
    pub jumps: Vec<JumpFigures>,
    /// The shortest game.
    pub shortest: Option<Shortest>,
    /// Seat odds for each player count asked for.
    pub players: Vec<PlayersFigures>,
    /// The exact mean, in exact mode.
    pub exact: Option<Exact>,
    /// How `I − Q` was solved: `dense` or `sparse` (large chains).
    // The same figures either way: a detail of the JSON output only.
    #[doc(hidden)]
    pub solver: Method,
    /// Figures left out because they would pass a limit (large boards),
    /// each with its estimated cost; empty when everything was computed.
    pub skipped: Vec<Skipped>,
    /// What makes some figures less exact than promised; empty normally.
    pub warnings: Vec<Warning>,
}

impl Analysis {
    /// Makes the analysis fit a JSON output: at most `terms` turns of the
    /// distribution ([`Turns::cap_terms`]), and the per-square and per-jump
    /// lists whole when they have at most `entries` entries, else left out
    /// and named in [`Analysis::skipped`] (`cap_list`). Every other
    /// figure is unchanged.
    pub fn cap_lists(&mut self, terms: usize, entries: usize) {
        self.turns.cap_terms(terms);
        cap_list(
            &mut self.squares,
            Figure::Squares,
            entries,
            &mut self.skipped,
        );
        cap_list(&mut self.jumps, Figure::Jumps, entries, &mut self.skipped);
    }

    /// Analyses a board: every figure, within the memory and work limits of
    /// `options`. Essential steps past the memory limit are refused;
    /// optional figures past either limit are skipped and listed in
    /// [`Analysis::skipped`].
    ///
    /// # Errors
    /// [`AnalysisError`] when the game may never end (the trapped squares are
    /// named), a player count is 0, exact mode fails, or compiling or
    /// factoring would pass the memory limit ([`AnalysisError::Memory`]).
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Analysis, AnalysisError, Options, Seed};
    /// use snakeladder::design::Layout;
    ///
    /// let board = Layout::new(5_000, 100, 100, Seed::new(1)).generate().unwrap();
    /// let refused = Analysis::new(&board, &Options::default().max_memory(1 << 20));
    /// assert!(matches!(refused, Err(AnalysisError::Memory { .. })));
    /// ```
    pub fn new(board: &Board, options: &Options) -> Result<Analysis, AnalysisError> {
        let limits = &options.limits;
        if let Some(&count) = options
            .players
            .iter()
            .find(|&&c| c == 0 || c as usize > crate::model::limits::MAX_PLAYERS)
        {
            return Err(AnalysisError::Players { count });
        }
        let needed = limits::chain_bytes(board);
        if needed > limits.max_memory {
            return Err(AnalysisError::Memory {
                stage: Stage::Compile,
                needed,
                limit: limits.max_memory,
            });
        }
        options.check_stop()?;
        let chain = Chain::compile(board)?;
        options.check_stop()?;
        let estimate = crate::markov::analysis::solve::estimate(&chain);
        // The factorisation's peak, or what the solver keeps after it with
        // the figures every analysis computes, whichever is larger.
        let needed = limits::held_bytes(&chain)
            + estimate
                .bytes
                .max(estimate.held_bytes + limits::figure_bytes(&chain));
        if needed > limits.max_memory {
            return Err(AnalysisError::Memory {
                stage: Stage::Factor,
                needed,
                limit: limits.max_memory,
            });
        }
        // Validation found a way to the finish from every square; a trap in
        // the f64 chain is then a way whose chance fell below f64.
        let solved = match crate::markov::analysis::solve::factor(&chain) {
            Err(AnalysisError::Trapped { trapped }) if chain.cut_paths() => {
                Err(AnalysisError::BelowFloat { squares: trapped })
            }
            other => other,
        };
        options.check_stop()?;
        let solver = match solved {
            Ok(solver) => solver,
            Err(
                source @ (AnalysisError::IllConditioned { .. }
                | AnalysisError::SparseIllConditioned { .. }
                | AnalysisError::BelowFloat { .. }),
            ) => {
                let exact = crate::markov::modular::solve_until(
                    board,
                    &chain,
                    false,
                    limits,
                    options.stop_flag(),
                )
                .map(|s| s.mean().clone())
                .map(|f| {
                    let value = num_traits::ToPrimitive::to_f64(&f).unwrap_or(f64::NAN);
                    (format!("{}/{}", f.numer(), f.denom()), value)
                })
                .map_err(|e| e.to_string());
                // Stopped part way, the exact mean is not a reason to give.
                options.check_stop()?;
                return Err(AnalysisError::Numerical {
                    source: Box::new(source),
                    exact,
                });
            }
            Err(e) => return Err(e),
        };
        // The solver is handed over, so that it is freed before the
        // per-square figures are gathered.
        Self::with_estimate(board, &chain, Cow::Owned(solver), options, estimate)
    }

    /// Analyses a board already compiled and factored, within the limits of
    /// `options`.
    ///
    /// # Errors
    /// As [`Analysis::new`].
    pub(crate) fn with_chain(
        board: &Board,
        chain: &Chain,
        solver: &Solver,
        options: &Options,
    ) -> Result<Analysis, AnalysisError> {
        Self::with_estimate(
            board,
            chain,
            Cow::Borrowed(solver),
            options,
            crate::markov::analysis::solve::estimate(chain),
        )
    }

    /// [`Analysis::with_chain`] given the solver's [`Solver::estimate`] for
    /// the chain (a pass over it, made once).
    fn with_estimate(
        board: &Board,
        chain: &Chain,
        solver: Cow<'_, Solver>,
        options: &Options,
        estimate: Estimate,
    ) -> Result<Analysis, AnalysisError> {
        let start = chain.start().get();
        options.check_stop()?;
        let (turns, turns_left) = moments::turns_and_visits(&solver);
        let rolls = moments::rolls_from_start(board, chain, &solver);
        options.check_stop()?;
        for &count in &options.players {
            if count == 0 {
                return Err(AnalysisError::Players { count });
            }
        }
        // First what fits the limits, then the figures that do.
        let plan = Plan::new(board, chain, &options.limits, &estimate, &turns);
        // The length distribution (with the seat odds and quantiles drawn
        // from it) and the per-square and per-jump figures need nothing of
        // each other: each side is computed by the same sequential code on
        // its own core, so every digit is the same on any number of threads.
        let length_side = || compute::length_side(board, chain, options, &plan.distribution);
        let squares_side =
            || compute::squares_side(board, chain, &solver, &turns.mean, (&plan, options));
        let (length, squares) = if plan.parallel {
            crate::par::join(length_side, squares_side)
        } else {
            (length_side(), squares_side())
        };
        let compute::LengthSide {
            dist,
            truncated,
            players,
            decided,
            mut skipped,
        } = length?;
        let squares = squares?;
        skipped.extend(squares.skipped);
        let mut warnings: Vec<Warning> = truncated.into_iter().collect();
        let mean =
            compute::certified_mean(board, chain, &solver, options, &turns.mean, &mut warnings)?;
        let variance_bound = accuracy::variance_error_bound(
            chain,
            &solver,
            &turns.mean,
            &turns_left,
            mean.float_bound,
            start,
        );
        options.check_stop()?;
        let (variance, variance_error_bound) = compute::certified_variance(
            board,
            chain,
            options,
            (turns.variance[start], variance_bound),
            &mut warnings,
        )?;
        // Every solve is done: an analysis that owns its solver frees it
        // here (1.7 GB on ten million states), before the per-square
        // figures are gathered.
        let method = solver.method();
        drop(solver);
        drop(turns_left);
        drop(turns.variance);
        let shortest = shortest::shortest(board);
        options.check_stop()?;
        Ok(Analysis {
            board: BoardSummary {
                name: board.name().map(str::to_string),
                squares: board.last().get(),
                snakes: board.snakes().count(),
                ladders: board.ladders().count(),
                states: chain.len(),
            },
            fingerprint: fingerprint::fingerprint(board),
            rules: board.rules().spec(),
            turns: Turns {
                mean: mean.mean,
                mean_error_bound: mean.error_bound,
                variance,
                variance_error_bound,
                std_dev: variance.sqrt(),
                min: shortest.as_ref().map(|s| s.turns),
                mode: decided.mode,
                median: decided.median,
                p90: decided.p90,
                p99: decided.p99,
                cdf: dist.cdf(),
                tail: dist.tail(),
                // Kept when the tail was computed from it, however wide its
                // bracket: the terms past `from_turn` carry its error bound.
                decay: dist
                    .decay
                    .filter(|d| d.from_turn.is_some() || d.high - d.low <= DECAY_PRINTED),
                pmf: dist.pmf,
            },
            // Without extra rolls a turn is one roll (`rolls_from_start`).
            rolls: rolls.unwrap_or(Summary {
                mean: mean.mean,
                variance,
            }),
            squares: squares::figures_with_diagonal(
                chain,
                &squares.visits,
                &turns.mean,
                squares.diagonal.as_deref(),
            ),
            jumps: squares.jumps,
            shortest,
            players,
            exact: mean.exact,
            solver: method,
            skipped,
            warnings,
        })
    }
}

impl Analysis {
    /// The mean number of turns from the start, and nothing else: the
    /// fastest figure.
    ///
    /// # Errors
    /// As [`Analysis::new`].
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Analysis, Board};
    /// let mean = Analysis::mean_turns(&Board::builtin_default())?;
    /// assert!((mean - 39.5984).abs() < 1e-4);
    /// # Ok::<(), snakeladder::AnalysisError>(())
    /// ```
    pub fn mean_turns(board: &Board) -> Result<f64, AnalysisError> {
        let chain = Chain::compile(board)?;
        let solver = crate::markov::analysis::solve::factor(&chain)?;
        Ok(solver.expected_steps()[chain.start().get()])
    }
}

#[cfg(test)]
mod stop_tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Sets `stop` after `after` on another thread, and gives how long
    /// `work` ran on past that.
    fn stopped_after<T>(
        after: Duration,
        stop: &Arc<AtomicBool>,
        work: impl FnOnce() -> T,
    ) -> (T, Duration) {
        let flag = Arc::clone(stop);
        let setter = std::thread::spawn(move || {
            std::thread::sleep(after);
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let got = work();
        let ended = Instant::now();
        let set = setter.join().unwrap();
        (got, ended.saturating_duration_since(set))
    }

    #[test]
    fn a_set_flag_stops_an_analysis_of_a_large_board_quickly() {
        // No jumps on 100,000 squares: some 28,000 turns a game, a length
        // distribution of about 10^11 multiply-adds (minutes), which a
        // work limit of 10^18 lets it step to its end.
        let board = Board::from_json_str(r#"{"squares": 100000}"#).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let options = Options::default()
            .players([2])
            .max_work(1e18)
            .with_stop(Arc::clone(&stop));
        let (got, late) = stopped_after(Duration::from_secs(1), &stop, || {
            Analysis::new(&board, &options)
        });
        assert_eq!(got.unwrap_err(), AnalysisError::Stopped);
        // 256 turns of 100,000 states: milliseconds, even in a debug build
        // on a busy machine.
        assert!(
            late < Duration::from_secs(3),
            "stopped {late:?} after the flag"
        );
        // Set before it starts, nothing is computed.
        let start = Instant::now();
        let got = Analysis::new(&board, &options);
        assert_eq!(got.unwrap_err(), AnalysisError::Stopped);
        assert!(start.elapsed() < Duration::from_millis(100));
    }

    #[test]
    fn a_flag_never_set_changes_no_figure() {
        let board = Board::builtin_default();
        let options = Options::default().exact(true);
        let flagged = options.clone().with_stop(Arc::new(AtomicBool::new(false)));
        assert_eq!(
            Analysis::new(&board, &flagged).unwrap(),
            Analysis::new(&board, &options).unwrap()
        );
    }

    #[test]
    fn a_set_flag_stops_exact_mode_between_digits() {
        let board = Board::builtin_default();
        let chain = Chain::compile(&board).unwrap();
        let stop = AtomicBool::new(true);
        let limits = Limits::default();
        let got = crate::markov::modular::solve_until(&board, &chain, true, &limits, Some(&stop));
        assert_eq!(got.unwrap_err(), AnalysisError::Stopped);
        stop.store(false, Ordering::Relaxed);
        let got = crate::markov::modular::solve_until(&board, &chain, true, &limits, Some(&stop));
        assert!(got.is_ok());
    }
}
