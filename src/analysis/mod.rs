//! The exact analysis of a board: every figure of `snakeladder analyze`,
//! computed from the compiled [`Chain`].
//!
//! [`Analysis::new`] compiles the board, factors `I − Q` once
//! ([`solve::Solver`]) and derives every figure from it; the modules hold
//! one family of figures each. Figures are exact up to `f64` rounding (and
//! the length distribution up to its reported tail); [`Analysis::exact`]
//! adds the mean as a fraction on request.

pub mod distribution;
pub mod jumps;
pub mod limits;
pub mod moments;
pub mod odds;
pub mod players;
pub mod shortest;
pub mod solve;
pub mod squares;
pub mod ties;

use crate::chain::{Chain, ChainError};
use crate::exact::ExactError;
use crate::rules::RulesSpec;
use crate::{Board, fingerprint};
use serde::Serialize;
use solve::{Method, SolveError, Solver};

pub use distribution::Distribution;
pub use jumps::JumpFigures;
pub use limits::{Limits, Skipped};
pub use moments::Summary;
pub use players::PlayersFigures;
pub use shortest::Shortest;
pub use squares::SquareFigures;

/// Why a board could not be analysed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The board could not be compiled.
    #[error(transparent)]
    Chain(#[from] ChainError),
    /// `I − Q` could not be solved (a game that may never end).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Exact mode failed.
    #[error(transparent)]
    Exact(#[from] ExactError),
    /// A player count below 1.
    #[error("a game needs at least one player, not {count}")]
    Players {
        /// The count asked for.
        count: u32,
    },
    /// An essential step would need more memory than [`Limits::max_memory`].
    #[error(
        "{stage} would need about {} of memory, over the limit of {} (see --max-memory)",
        crate::sparse::memory::Bytes(*needed),
        crate::sparse::memory::Bytes(*limit)
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

/// An essential step of an analysis, as named in [`AnalysisError::Memory`].
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

/// What to compute beyond the figures every analysis has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Player counts for seat win probabilities (default 2..=6).
    pub players: Vec<u32>,
    /// Whether to compute the mean as an exact fraction.
    pub exact: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            players: (2..=6).collect(),
            exact: false,
        }
    }
}

/// The board as the analysis names it.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turns {
    /// Expected turns.
    pub mean: f64,
    /// Variance of the turns.
    pub variance: f64,
    /// Standard deviation.
    pub std_dev: f64,
    /// The fewest turns with positive probability, found from the moves
    /// ([`shortest`]), so a game whose probability is below the kernel's
    /// cutoff or the range of `f64` still counts.
    pub min: Option<usize>,
    /// The smallest most likely number of turns (near-ties decided
    /// exactly, [`ties`]).
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
}

/// The exact figures of exact mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exact {
    /// The mean turns as a reduced fraction `numerator/denominator`.
    pub mean_turns: String,
    /// Relative difference from the `f64` mean (checked below 1e-12).
    pub relative_difference: f64,
}

/// Every figure of one board. Serialises as `analyze --format json`.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::analysis::{Analysis, Options};
///
/// let a = Analysis::new(&Board::builtin_default(), &Options::default())?;
/// assert!((a.turns.mean - 39.5984).abs() < 1e-4);
/// assert_eq!(a.turns.median, Some(33));
/// assert_eq!(a.turns.mode, Some(22));
/// let two = &a.players[0];
/// assert!((two.win_probability[0] - 0.507803).abs() < 1e-6);
/// # Ok::<(), snakeladder::analysis::AnalysisError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The board.
    pub board: BoardSummary,
    /// The fingerprint of the layout and effective rules
    /// ([`fingerprint`]).
    pub fingerprint: String,
    /// The effective rules, every default filled in.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
    /// How `I − Q` was solved: `dense` or `sparse` (large chains).
    pub solver: Method,
    /// Figures left out because they would pass a limit (large boards),
    /// each with its estimated cost; empty when everything was computed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
}

impl Analysis {
    /// Analyses a board.
    ///
    /// # Errors
    /// [`AnalysisError`] when the game may never end (the trapped squares are
    /// named), a player count is 0, or exact mode fails.
    pub fn new(board: &Board, options: &Options) -> Result<Analysis, AnalysisError> {
        Self::with_limits(board, options, &Limits::default())
    }

    /// Analyses a board within limits of memory and work: essential steps
    /// past the memory limit are refused, optional figures past either
    /// limit are skipped and listed in [`Analysis::skipped`] (see
    /// [`limits`]).
    ///
    /// # Errors
    /// As [`Analysis::new`], and [`AnalysisError::Memory`] when compiling or
    /// factoring would pass [`Limits::max_memory`].
    ///
    /// # Example
    /// ```
    /// use snakeladder::analysis::{Analysis, AnalysisError, Limits, Options};
    /// use snakeladder::generate::{generate, Layout};
    ///
    /// let board = generate(&Layout::new(5_000, 100, 100, 1)).unwrap();
    /// let tight = Limits { max_memory: 1 << 20, ..Limits::default() };
    /// let refused = Analysis::with_limits(&board, &Options::default(), &tight);
    /// assert!(matches!(refused, Err(AnalysisError::Memory { .. })));
    /// # Ok::<(), AnalysisError>(())
    /// ```
    pub fn with_limits(
        board: &Board,
        options: &Options,
        limits: &Limits,
    ) -> Result<Analysis, AnalysisError> {
        if let Some(&count) = options.players.iter().find(|&&c| c == 0) {
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
        let chain = Chain::compile(board)?;
        let needed = limits::held_bytes(&chain) + Solver::estimate(&chain).bytes;
        if needed > limits.max_memory {
            return Err(AnalysisError::Memory {
                stage: Stage::Factor,
                needed,
                limit: limits.max_memory,
            });
        }
        let solver = Solver::new(&chain)?;
        Self::with_chain_limits(board, &chain, &solver, options, limits)
    }

    /// Analyses a board already compiled and factored.
    ///
    /// # Errors
    /// As [`Analysis::new`].
    pub fn with_chain(
        board: &Board,
        chain: &Chain,
        solver: &Solver,
        options: &Options,
    ) -> Result<Analysis, AnalysisError> {
        Self::with_chain_limits(board, chain, solver, options, &Limits::default())
    }

    /// Analyses a board already compiled and factored, within limits.
    ///
    /// # Errors
    /// As [`Analysis::new`].
    pub fn with_chain_limits(
        board: &Board,
        chain: &Chain,
        solver: &Solver,
        options: &Options,
        limits: &Limits,
    ) -> Result<Analysis, AnalysisError> {
        let start = chain.start().get();
        let turns = moments::turns(solver);
        let rolls = moments::rolls(chain, solver);
        let mut skipped = Vec::new();
        let n = chain.len() as u64;
        let entries = chain.entries().max(1) as f64;
        let spread = turns.mean[start] + limits::TAIL_STD_DEVS * turns.variance[start].sqrt();
        let dist = match limits.check(
            limits::Figure::Distribution,
            n * 16,
            entries * (spread + 1.0),
        ) {
            Some(skip) => {
                skipped.push(skip);
                None
            }
            None if solver.method() == Method::Sparse => Some(limits::distribution(
                chain,
                (limits.max_work / entries) as usize + 1,
            )),
            None => Some(distribution::from_state(chain, chain.start())),
        };
        let mut e = vec![0.0; chain.len()];
        e[start] = 1.0;
        let visits = solver.solve_transpose(&e);
        let mut players = Vec::with_capacity(options.players.len());
        for &count in &options.players {
            if count == 0 {
                return Err(AnalysisError::Players { count });
            }
            if let Some(dist) = &dist {
                players.push(players::figures(dist, count));
            }
        }
        if dist.is_none() && !options.players.is_empty() {
            skipped.push(Skipped {
                figure: limits::Figure::Players,
                cost: limits::Cost::Needs {
                    figure: limits::Figure::Distribution,
                },
            });
        }
        let dist = dist.unwrap_or_else(|| Distribution {
            pmf: Vec::new(),
            survival: vec![1.0],
        });
        let (decided, tie_skip) = ties::decide(board, chain, &dist, limits);
        skipped.extend(tie_skip);
        let estimate = Solver::estimate(chain);
        let held = limits::held_bytes(chain) + estimate.bytes;
        let diagonal = match limits.check(
            limits::Figure::RestProbabilities,
            held + estimate.diagonal_bytes,
            estimate.diagonal_work,
        ) {
            Some(skip) => {
                skipped.push(skip);
                None
            }
            None => solver.inverse_diagonal(),
        };
        let jump_count = board.jumps().len() as f64;
        let (jump_bytes, jump_work) = if board.rules().extra_turn().is_none() {
            // One solve per jump, and a per-state vector of uses per jump.
            (
                held + (jump_count as u64 + 4) * n * 8,
                jump_count * (estimate.solve_work + entries),
            )
        } else {
            // A modified chain factored per jump, and the board recompiled.
            (
                2 * held + limits::chain_bytes(board) + n * 8 * (jump_count as u64 + 4),
                jump_count
                    * (2.0 * (estimate.factor_work + estimate.solve_work)
                        + limits::chain_bytes(board) as f64),
            )
        };
        let jumps = match limits.check(limits::Figure::Jumps, jump_bytes, jump_work) {
            Some(skip) => {
                skipped.push(skip);
                Vec::new()
            }
            None => jumps::figures(board, chain, solver, &visits, &turns.mean),
        };
        let mean = turns.mean[start];
        let exact = if options.exact {
            let fraction = crate::exact::checked_mean_turns(board, chain, mean)?;
            let value = num_traits::ToPrimitive::to_f64(&fraction).unwrap_or(f64::NAN);
            Some(Exact {
                mean_turns: format!("{}/{}", fraction.numer(), fraction.denom()),
                relative_difference: ((value - mean) / value).abs(),
            })
        } else {
            None
        };
        let variance = turns.variance[start];
        let shortest = shortest::shortest(board);
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
                mean,
                variance,
                std_dev: variance.sqrt(),
                min: shortest.as_ref().map(|s| s.turns),
                mode: decided.mode,
                median: decided.median,
                p90: decided.p90,
                p99: decided.p99,
                cdf: dist.cdf(),
                tail: dist.tail(),
                pmf: dist.pmf.clone(),
            },
            rolls: Summary {
                mean: rolls.mean[start],
                variance: rolls.variance[start],
            },
            squares: squares::figures_with_diagonal(
                chain,
                &visits,
                &turns.mean,
                diagonal.as_deref(),
            ),
            jumps,
            shortest,
            players,
            exact,
            solver: solver.method(),
            skipped,
        })
    }
}

/// The mean number of turns from the start, and nothing else: the fastest
/// figure.
///
/// # Errors
/// As [`Analysis::new`].
///
/// # Example
/// ```
/// use snakeladder::Board;
/// let mean = snakeladder::analysis::mean_turns(&Board::builtin_default())?;
/// assert!((mean - 39.5984).abs() < 1e-4);
/// # Ok::<(), snakeladder::analysis::AnalysisError>(())
/// ```
pub fn mean_turns(board: &Board) -> Result<f64, AnalysisError> {
    let chain = Chain::compile(board)?;
    let solver = Solver::new(&chain)?;
    Ok(solver.expected_turns()[chain.start().get()])
}
