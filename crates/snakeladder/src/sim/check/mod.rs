//! The cross-check: exact figures against a simulation of the same board.
//!
//! The exact side and the simulated side are computed by different code
//! from the same move function (a Markov chain solved by linear algebra
//! against a seeded Monte Carlo engine); agreement within sampling error on
//! every figure is evidence that both are right.
//!
//! # Comparisons and thresholds
//! - mean turns and mean rolls: z-score with the exact variance;
//! - the distribution of turns: Kolmogorov–Smirnov distance against the
//!   exact CDF, held to the Dvoretzky–Kiefer–Wolfowitz bound;
//! - per jump, expected uses (t-score on the cluster standard error) and the
//!   probability of using it (binomial z);
//! - per square, expected rests (t-score) and, without extra rolls, the
//!   probability of resting there (binomial z; with extra rolls the
//!   simulation also counts mid-turn rests, which the exact figure does
//!   not);
//! - with several players, each seat's win probability (binomial z) and the
//!   expected turns and rounds of the game (t-scores).
//!
//! The family-wise error rate [`CheckReport::FAMILY_ERROR_RATE`] = 10⁻⁴ is split evenly
//! over the comparisons made (Bonferroni), so a correct engine fails the
//! whole check less than once in 10,000 runs. Figures the simulation sees
//! too rarely for the normal approximation (fewer than
//! [`CheckReport::MIN_EXPECTED_COUNT`] expected tokens) are not compared and are
//! counted in `skipped`, as are t-tests with no information (a standard
//! error estimated from fewer than two clusters or games).
//!
//! Thresholds are the normal and Student-t quantiles of `statrs`; a t-test
//! uses the quantile for its own degrees of freedom (clusters − 1), which
//! on short runs of large boards is small and far above the normal value.

mod compare;
#[cfg(test)]
mod tests;

#[cfg(test)]
use compare::student_threshold;
pub use compare::{Comparison, Test};
pub(crate) use compare::{binomial_z, bonferroni, kolmogorov_smirnov, t_mean, z_mean};

use crate::markov::analysis::{Analysis, Options};
use crate::sim::simulate::{self, SimulateError, SimulationConfig, SimulationReport};
use crate::{Board, Square};
use serde::Serialize;

/// The family-wise error rate of one check: a correct engine fails it less
/// than once in 10⁴ runs (docs/cross-check.md §6).
pub(crate) const FAMILY_ERROR_RATE: f64 = 1e-4;

/// Fewest expected tokens (n·p) behind a compared proportion or count. At
/// 10⁴ the skewness of a binomial count is at most 0.01, which moves a
/// 5-standard-error tail probability by under 20% — well inside the
/// Bonferroni budget; rarer figures are skipped, not compared loosely.
pub(crate) const MIN_EXPECTED_COUNT: f64 = 1e4;

/// The exact figures the check needs, as plain numbers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ExactFigures {
    /// `E[T]`, the mean turns.
    pub mean_turns: f64,
    /// `Var[T]`.
    pub variance_turns: f64,
    /// `E[rolls]`.
    pub mean_rolls: f64,
    /// `Var[rolls]`.
    pub variance_rolls: f64,
    /// `cdf[t − 1] = P(T ≤ t)`; `P(T ≤ t)` past its end is taken as its last
    /// value.
    pub turns_cdf: Vec<f64>,
    /// Per rest square: expected rests and, when known, the probability of
    /// resting there.
    pub squares: Vec<ExactSquare>,
    /// Per jump, in board order.
    pub jumps: Vec<ExactJump>,
    /// The k-player figures, for the simulated player count.
    pub players: Option<ExactPlayers>,
}

impl ExactFigures {
    /// The figures of an exact analysis; `players` picks the entry of
    /// `analysis.players` with that count (none for one player).
    pub(crate) fn from_analysis(analysis: &Analysis, players: u32) -> ExactFigures {
        ExactFigures {
            mean_turns: analysis.turns.mean,
            variance_turns: analysis.turns.variance,
            mean_rolls: analysis.rolls.mean,
            variance_rolls: analysis.rolls.variance,
            turns_cdf: analysis.turns.cdf.clone(),
            squares: analysis
                .squares
                .iter()
                .map(|s| ExactSquare {
                    square: s.square,
                    expected_rests: s.expected_rests,
                    rest_probability: s.rest_probability,
                })
                .collect(),
            jumps: analysis
                .jumps
                .iter()
                .map(|j| ExactJump {
                    from: j.from,
                    expected_uses: j.expected_uses,
                    use_probability: j.use_probability,
                })
                .collect(),
            players: analysis
                .players
                .iter()
                .find(|p| p.count == players && players > 1)
                .map(|p| ExactPlayers {
                    count: p.count,
                    win_probability: p.win_probability.clone(),
                    expected_total_turns: p.expected_total_turns,
                    expected_rounds: p.expected_rounds,
                }),
        }
    }
}

/// Analyses `board` exactly, simulates it as `config` says, and compares
/// every figure ([`CheckReport::compare`]).
///
/// # Errors
/// [`SimulateError::Analysis`] when the exact analysis cannot be done (a
/// board too large for it), [`SimulateError::Skipped`] when it skipped
/// figures the check compares, and the simulation's own errors. (A check
/// that runs and disagrees is a [`CheckReport`] with `passed: false`, not
/// an error.)
///
/// # Example
/// ```
/// use snakeladder::{Board, Seed};
/// use snakeladder::check::check;
/// use snakeladder::simulate::SimulationConfig;
///
/// let report = check(&Board::builtin_default(), &SimulationConfig::new(100_000, Seed::new(1))?)?;
/// assert!(report.passed);
/// assert!(report.comparisons.len() > 50);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(board: &Board, config: &SimulationConfig) -> Result<CheckReport, SimulateError> {
    // The simulation's limits are checked before the exact side runs, so a
    // board the simulation refuses fails at once.
    simulate::check_memory(board, config)?;
    let k = config.players();
    let mut options = Options::default()
        .players(if k > 1 { vec![k] } else { Vec::new() })
        .max_memory(config.max_memory());
    // The simulation's stop flag stops the exact side too, as a stopped
    // simulation (no batch played yet).
    options.stop = config.stop.clone();
    let analysis = match Analysis::new(board, &options) {
        Err(crate::AnalysisError::Stopped) => return Err(SimulateError::Stopped { batch: 0 }),
        other => other?,
    };
    if !analysis.skipped.is_empty() {
        return Err(SimulateError::Skipped {
            skipped: analysis.skipped.clone(),
        });
    }
    let exact = ExactFigures::from_analysis(&analysis, k);
    let sim = simulate::simulate(board, config)?;
    Ok(compare_figures(&exact, &sim))
}

/// One square's exact figures.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub(crate) struct ExactSquare {
    /// The square.
    pub square: Square,
    /// Expected rolls ending on it.
    pub expected_rests: f64,
    /// Probability some turn ends on it (`None` when unknown).
    pub rest_probability: Option<f64>,
}

/// One jump's exact figures.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub(crate) struct ExactJump {
    /// Its start square.
    pub from: Square,
    /// Expected uses.
    pub expected_uses: f64,
    /// Probability of at least one use.
    pub use_probability: f64,
}

/// The exact k-player figures.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub(crate) struct ExactPlayers {
    /// Number of players.
    pub count: u32,
    /// Each seat's win probability.
    pub win_probability: Vec<f64>,
    /// Expected turns of the game over all players.
    pub expected_total_turns: f64,
    /// Expected rounds.
    pub expected_rounds: f64,
}

/// The names of the comparisons [`CheckReport::compare`] makes: the one place they are
/// spelled, so that a reader of a [`CheckReport`] (the report's
/// cross-check section) finds each row's comparison by the name `check`
/// gives it.
pub(crate) mod names {
    /// The mean number of turns of one player's game.
    pub const MEAN_TURNS: &str = "turns: mean";
    /// The mean number of rolls of one player's game.
    pub const MEAN_ROLLS: &str = "rolls: mean";
    /// The mean number of rounds of a game of several players.
    pub const MEAN_ROUNDS: &str = "rounds: mean";

    /// A seat's win probability; `seat` counts from 1.
    pub fn seat_wins(seat: usize) -> String {
        format!("seat {seat}: wins")
    }

    /// A jump's expected uses in one game; `jump` as `ladder 1→38`.
    pub fn jump_uses(jump: &str) -> String {
        format!("{jump}: uses a game")
    }
}

impl CheckReport {
    /// The name of the comparison of the mean number of turns of one
    /// player's game: the one place the names of the comparisons
    /// [`CheckReport::compare`] makes are spelled, so that a reader of a report finds
    /// each row with [`CheckReport::verdict`].
    pub const MEAN_TURNS: &'static str = names::MEAN_TURNS;

    /// The name of the comparison of the mean number of rolls of one
    /// player's game.
    pub const MEAN_ROLLS: &'static str = names::MEAN_ROLLS;

    /// The name of the comparison of the mean number of rounds of a game
    /// of several players.
    pub const MEAN_ROUNDS: &'static str = names::MEAN_ROUNDS;

    /// The name of the comparison of a seat's win probability; `seat`
    /// counts from 1.
    pub fn seat_wins(seat: usize) -> String {
        names::seat_wins(seat)
    }

    /// The name of the comparison of a jump's expected uses in one game;
    /// `jump` as `ladder 1→38`.
    pub fn jump_uses(jump: &str) -> String {
        names::jump_uses(jump)
    }

    /// The family-wise error rate of one check: a correct engine fails it
    /// less than once in 10⁴ runs (docs/cross-check.md §6).
    pub const FAMILY_ERROR_RATE: f64 = FAMILY_ERROR_RATE;

    /// Fewest expected tokens (n·p) behind a compared proportion or count;
    /// rarer figures are skipped, not compared loosely.
    pub const MIN_EXPECTED_COUNT: f64 = MIN_EXPECTED_COUNT;

    /// The verdict of the comparison named `name`: `Ok` with it when it was
    /// made, `Err` with why not (too rare at this number of games, no
    /// finite standard error, …) when it was skipped or never made.
    pub fn verdict(&self, name: &str) -> Result<&Comparison, String> {
        if let Some(c) = self.comparisons.iter().find(|c| c.name == name) {
            return Ok(c);
        }
        let skipped = self.skipped.iter().find(|s| {
            s.as_str() == name
                || s.strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with(": "))
        });
        Err(match skipped {
            Some(s) if s.as_str() == name => "too rare at this number of games".to_string(),
            Some(s) => s[name.len() + 2..].to_string(),
            None => "not compared".to_string(),
        })
    }
}

/// Every comparison of one check and the overall verdict.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::SimulationConfig;
use snakeladder::{Board, Seed, check};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = check::check(&board, &config)?;
assert!(report.passed);
assert_eq!(report.failures().count(), 0);
assert_eq!((report.games, report.seed), (2_000, 1));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct CheckReport {
    /// Games simulated.
    pub games: u64,
    /// The simulation's master seed.
    pub seed: u64,
    /// [`CheckReport::FAMILY_ERROR_RATE`].
    pub family_error_rate: f64,
    /// The rate each comparison is held to: the family rate over the number
    /// of comparisons.
    pub comparison_error_rate: f64,
    /// Every comparison made.
    pub comparisons: Vec<Comparison>,
    /// Figures not compared, each with why: too rare at this number of
    /// games, or no information to compare with (fewer than two clusters).
    pub skipped: Vec<String>,
    /// Whether every comparison agrees.
    pub passed: bool,
}

impl CheckReport {
    /// The comparisons that disagree.
    pub fn failures(&self) -> impl Iterator<Item = &Comparison> {
        self.comparisons.iter().filter(|c| !c.agrees)
    }

    /// Compares the figures of an exact analysis with a simulation of the same
    /// board and rules; the analysis's entry for the simulated player count (if
    /// it has one) gives the seats' figures.
    ///
    /// # Panics
    /// If `sim` has a different number of jumps than `analysis` (a programming
    /// error: the two describe different games).
    ///
    /// # Example
    /// ```
    /// use snakeladder::check::CheckReport;
    /// use snakeladder::simulate::{simulate, SimulationConfig};
    /// use snakeladder::{Analysis, Board, Options, Seed};
    ///
    /// // Squares 0..2, a coin, overshoot wins: T = 1 or 2, each with probability 1/2.
    /// let board = Board::from_json_str(
    ///     r#"{"squares": 2, "rules": {"dice": {"faces": 2}, "overshoot": "win"}}"#)?;
    /// let sim = simulate(&board, &SimulationConfig::new(50_000, Seed::new(1))?)?;
    /// let mut analysis = Analysis::new(&board, &Options::default())?;
    /// assert!((analysis.turns.mean - 1.5).abs() < 1e-12);
    /// assert!(CheckReport::compare(&analysis, &sim).passed);
    /// // A wrong figure fails the check.
    /// analysis.turns.mean = 1.6;
    /// assert!(!CheckReport::compare(&analysis, &sim).passed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compare(analysis: &Analysis, sim: &SimulationReport) -> CheckReport {
        compare_figures(
            &ExactFigures::from_analysis(analysis, sim.game().count),
            sim,
        )
    }
}

/// One comparison still to be held to its threshold, once the number of
/// comparisons (and so the per-comparison rate) is known.
enum Pending {
    Z {
        name: String,
        exact: f64,
        mean: f64,
        se: f64,
    },
    T {
        name: String,
        exact: f64,
        mean: f64,
        se: f64,
        df: u64,
    },
    Binomial {
        name: String,
        p: f64,
        hits: u64,
        n: u64,
    },
}

/// [`CheckReport::compare`] of the figures it takes from an analysis.
pub(crate) fn compare_figures(exact: &ExactFigures, sim: &SimulationReport) -> CheckReport {
    let n = sim.tokens;
    let nf = n as f64;
    let mut pending = Vec::new();
    let skipped = Vec::new();
    pending.push(Pending::Z {
        name: names::MEAN_TURNS.into(),
        exact: exact.mean_turns,
        mean: sim.turns.mean,
        se: (exact.variance_turns / nf).sqrt(),
    });
    pending.push(Pending::Z {
        name: names::MEAN_ROLLS.into(),
        exact: exact.mean_rolls,
        mean: sim.rolls.mean,
        se: (exact.variance_rolls / nf).sqrt(),
    });
    let df = sim.clusters.saturating_sub(1);
    let mut plan = Plan { pending, skipped };
    plan.jumps(exact, sim, df);
    plan.squares(exact, sim, df);
    if let Some(p) = &exact.players {
        plan.players(p, sim);
    }
    let Plan {
        mut pending,
        mut skipped,
    } = plan;
    // A t-test on fewer than two clusters has no estimate of its spread:
    // its statistic and threshold would both be infinite. It carries no
    // information, so it is skipped, not passed (nor counted in the
    // Bonferroni split).
    pending.retain(|p| match p {
        Pending::T { name, df: 0, .. } => {
            skipped.push(format!("{name}: fewer than two independent clusters"));
            false
        }
        Pending::T { name, se, .. } | Pending::Z { name, se, .. } if !se.is_finite() => {
            skipped.push(format!("{name}: no finite standard error"));
            false
        }
        _ => true,
    });
    // One more for the distribution.
    let alpha = bonferroni(FAMILY_ERROR_RATE, pending.len() + 1);
    let counts: Vec<(u64, u64)> = sim.turns_histogram.iter().collect();
    let cdf = &exact.turns_cdf;
    let mut comparisons = vec![kolmogorov_smirnov(
        "turns: distribution",
        &counts,
        |t| match t {
            0 => 0.0,
            t => cdf
                .get(t as usize - 1)
                .or(cdf.last())
                .copied()
                .unwrap_or(1.0),
        },
        alpha,
    )];
    comparisons.extend(pending.into_iter().map(|p| match p {
        Pending::Z {
            name,
            exact,
            mean,
            se,
        } => z_mean(&name, exact, mean, se, alpha),
        Pending::T {
            name,
            exact,
            mean,
            se,
            df,
        } => t_mean(&name, exact, mean, se, df, alpha),
        Pending::Binomial { name, p, hits, n } => binomial_z(&name, p, hits, n, alpha),
    }));
    let passed = comparisons.iter().all(|c| c.agrees);
    CheckReport {
        games: sim.games,
        seed: sim.seed,
        family_error_rate: FAMILY_ERROR_RATE,
        comparison_error_rate: alpha,
        comparisons,
        skipped,
        passed,
    }
}

/// Whether `p` is neither too rare nor too certain, over `n` tokens, for a
/// binomial comparison.
fn frequent(n: f64, p: f64) -> bool {
    n * p >= MIN_EXPECTED_COUNT && n * (1.0 - p) >= MIN_EXPECTED_COUNT
}

/// `name` skipped as too rare, with how many games would compare it: an
/// outcome of chance `rare`, seen or not `per_game` times a game, needs
/// [`MIN_EXPECTED_COUNT`] expected sightings (for a proportion, `rare` is
/// the rarer of its two outcomes, as [`frequent`] asks).
fn too_rare(name: &str, rare: f64, per_game: f64) -> String {
    let games = MIN_EXPECTED_COUNT / (rare * per_game);
    if games.is_finite() && games < 1e15 {
        format!(
            "{name}: too rare (needs {} games)",
            crate::model::error::grouped(games.ceil() as u64)
        )
    } else {
        format!("{name}: too rare at this number of games")
    }
}

/// The comparisons a check will make, and the names of those it skips.
struct Plan {
    pending: Vec<Pending>,
    skipped: Vec<String>,
}

impl Plan {
    /// The comparisons of each jump's uses, and those skipped.
    fn jumps(&mut self, exact: &ExactFigures, sim: &SimulationReport, df: u64) {
        let (pending, skipped) = (&mut self.pending, &mut self.skipped);
        let n = sim.tokens;
        let nf = n as f64;
        assert_eq!(exact.jumps.len(), sim.jumps.len(), "different boards");
        for (e, s) in exact.jumps.iter().zip(&sim.jumps) {
            let name = format!("{} {}→{}", s.kind, s.from, s.to);
            if nf * e.use_probability >= MIN_EXPECTED_COUNT {
                pending.push(Pending::T {
                    name: names::jump_uses(&name),
                    exact: e.expected_uses,
                    mean: s.expected_uses,
                    se: s.expected_uses_std_error,
                    df,
                });
            } else {
                let per_game = nf / sim.games as f64;
                skipped.push(too_rare(
                    &names::jump_uses(&name),
                    e.use_probability,
                    per_game,
                ));
            }
            if frequent(nf, e.use_probability) {
                pending.push(Pending::Binomial {
                    name: format!("{name}: used at least once"),
                    p: e.use_probability,
                    hits: s.tokens_using,
                    n,
                });
            } else {
                let per_game = nf / sim.games as f64;
                let name = format!("{name}: used at least once");
                let rarer = e.use_probability.min(1.0 - e.use_probability);
                skipped.push(too_rare(&name, rarer, per_game));
            }
        }
    }

    /// The comparisons of each square's rests, and those skipped.
    fn squares(&mut self, exact: &ExactFigures, sim: &SimulationReport, df: u64) {
        let (pending, skipped) = (&mut self.pending, &mut self.skipped);
        let n = sim.tokens;
        let nf = n as f64;
        for e in &exact.squares {
            let Some(s) = sim.squares.iter().find(|s| s.square == e.square) else {
                skipped.push(format!("square {}: not simulated", e.square));
                continue;
            };
            // Compared when enough tokens reach the square.
            let reach = s.rest_probability.max(e.rest_probability.unwrap_or(0.0));
            if nf * reach >= MIN_EXPECTED_COUNT {
                pending.push(Pending::T {
                    name: format!("square {}: rests a game", e.square),
                    exact: e.expected_rests,
                    mean: s.expected_rests,
                    se: s.expected_rests_std_error,
                    df,
                });
            } else {
                let name = format!("square {}: rests a game", e.square);
                skipped.push(too_rare(&name, reach, nf / sim.games as f64));
            }
            match e.rest_probability {
                Some(p) if frequent(nf, p) && !sim.has_extra_rolls => {
                    pending.push(Pending::Binomial {
                        name: format!("square {}: P(ever rests there)", e.square),
                        p,
                        hits: s.tokens_resting,
                        n,
                    })
                }
                Some(_) if sim.has_extra_rolls => skipped.push(format!(
                    "square {}: P(ever rests there): not compared with extra rolls",
                    e.square
                )),
                Some(p) => {
                    let name = format!("square {}: P(ever rests there)", e.square);
                    skipped.push(too_rare(&name, p.min(1.0 - p), nf / sim.games as f64));
                }
                None => {}
            }
        }
    }

    /// The comparisons of the seats' odds and the game's totals, and those
    /// skipped.
    fn players(&mut self, p: &ExactPlayers, sim: &SimulationReport) {
        let (pending, skipped) = (&mut self.pending, &mut self.skipped);
        let game = sim.game();
        assert_eq!(p.count, game.count, "different player counts");
        for (seat, (&q, &hits)) in p.win_probability.iter().zip(&game.wins).enumerate() {
            let name = names::seat_wins(seat + 1);
            if frequent(sim.games as f64, q) {
                pending.push(Pending::Binomial {
                    name,
                    p: q,
                    hits,
                    n: sim.games,
                });
            } else {
                skipped.push(too_rare(&name, q.min(1.0 - q), 1.0));
            }
        }
        let df = sim.games.saturating_sub(1);
        pending.push(Pending::T {
            name: "total turns: mean".into(),
            exact: p.expected_total_turns,
            mean: game.expected_total_turns,
            se: game.expected_total_turns_std_error,
            df,
        });
        pending.push(Pending::T {
            name: names::MEAN_ROUNDS.into(),
            exact: p.expected_rounds,
            mean: game.expected_rounds,
            se: game.expected_rounds_std_error,
            df,
        });
    }
}
