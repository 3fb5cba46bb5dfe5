//! The figures of an analysis, computed as its [`Plan`] decided: the
//! length distribution side, the per-square and per-jump side, and the
//! mean and variance, recomputed exactly when the `f64` ones cannot be
//! trusted.

use super::distribution::{self, Distribution};
use super::plan::{DistributionPlan, Plan};
use super::solve::Solver;
use super::ties::{self, Decided};
use super::{
    AnalysisError, Exact, JumpFigures, Options, PlayersFigures, Skipped, Warning, accuracy, jumps,
    limits, players,
};
use crate::Board;
use crate::markov::chain::Chain;

/// The length distribution and what is drawn from it.
pub(super) struct LengthSide {
    /// The distribution (empty when skipped).
    pub dist: Distribution,
    /// Set when the distribution was cut short of its tail.
    pub truncated: Option<Warning>,
    /// The seat odds of each player count asked for.
    pub players: Vec<PlayersFigures>,
    /// Mode and quantiles, exact where the `f64` ones could be wrong.
    pub decided: Decided,
    /// Figures of this side left out.
    pub skipped: Vec<Skipped>,
}

/// The length distribution of `chain` as `plan` decided, with the seat
/// odds, mode and quantiles drawn from it.
///
/// # Errors
/// [`AnalysisError::Stopped`] once `options`' stop flag is set.
pub(super) fn length_side(
    board: &Board,
    chain: &Chain,
    options: &Options,
    plan: &DistributionPlan,
) -> Result<LengthSide, AnalysisError> {
    let limits = &options.limits;
    let entries = chain.entries().max(1) as f64;
    // Cut short when the stop flag is set: then dropped just below.
    let within = |work: f64| {
        let turns = (work / entries) as usize + 1;
        distribution::stepped_until(chain, chain.start(), turns, true, options.stop_flag())
    };
    let mut skipped = Vec::new();
    let dist = match plan {
        // The estimate is a guess at when the tail turns geometric
        // ([`limits::GEOMETRIC_AFTER`]); a long game whose slower modes
        // die out early is computed far sooner. So a board refused on
        // work alone gets a share of the budget, and keeps the
        // distribution only if it was finished within it.
        DistributionPlan::Probe(skip) => {
            let probe = within(limits.max_work * limits::PROBE_SHARE);
            if probe.tail() <= crate::markov::tolerance::TAIL {
                Some(probe)
            } else {
                skipped.push(*skip);
                None
            }
        }
        DistributionPlan::Skip(skip) => {
            skipped.push(*skip);
            None
        }
        DistributionPlan::Full => Some(within(limits.max_work)),
    };
    options.check_stop()?;
    let truncated = dist
        .as_ref()
        .filter(|d| d.tail() > crate::markov::tolerance::TRUNCATED)
        .map(|d| Warning::Truncated {
            turns: d.pmf.len(),
            tail: d.tail(),
        });
    let mut players = Vec::new();
    if let (Some(dist), None) = (&dist, &truncated) {
        players = players::figures_each(dist, &options.players);
    }
    if let Some(d) = dist.as_ref().filter(|_| truncated.is_some())
        && !options.players.is_empty()
    {
        skipped.push(Skipped {
            figure: limits::Figure::Players,
            cost: limits::Cost::Truncated { tail: d.tail() },
        });
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
        decay: None,
    });
    let (mut decided, tie_skip) = ties::decide(board, chain, &dist, limits);
    skipped.extend(tie_skip);
    options.check_stop()?;
    if dist.tail() > crate::markov::tolerance::TRUNCATED {
        // A term past the computed ones could be the largest.
        let top = dist.pmf.iter().copied().fold(0.0, f64::max);
        if top <= dist.tail() {
            decided.mode = None;
        }
    }
    Ok(LengthSide {
        dist,
        truncated,
        players,
        decided,
        skipped,
    })
}

/// The per-square and per-jump figures' inputs.
pub(super) struct SquaresSide {
    /// Expected visits to each state from the start.
    pub visits: Vec<f64>,
    /// The diagonal of `(I − Q)⁻¹`, when it fit the limits.
    pub diagonal: Option<Vec<f64>>,
    /// The per-jump figures (empty when skipped).
    pub jumps: Vec<JumpFigures>,
    /// Figures of this side left out.
    pub skipped: Vec<Skipped>,
}

/// The expected visits from the start, and the rest probabilities and
/// per-jump figures that `plan` found within the limits (`turns` the
/// expected turns from each state).
///
/// # Errors
/// [`AnalysisError::Stopped`] once `options`' stop flag is set.
pub(super) fn squares_side(
    board: &Board,
    chain: &Chain,
    solver: &Solver,
    turns: &[f64],
    (plan, options): (&Plan, &Options),
) -> Result<SquaresSide, AnalysisError> {
    let mut skipped = Vec::new();
    let mut e = vec![0.0; chain.len()];
    e[chain.start().get()] = 1.0;
    let visits = solver.solve_transpose(&e);
    options.check_stop()?;
    let diagonal = match &plan.diagonal {
        Some(skip) => {
            skipped.push(*skip);
            None
        }
        None => Some(solver.inverse_diagonal()),
    };
    options.check_stop()?;
    let jumps = match &plan.jumps {
        Some(skip) => {
            skipped.push(*skip);
            Vec::new()
        }
        None => jumps::figures(board, chain, solver, &visits, turns),
    };
    options.check_stop()?;
    Ok(SquaresSide {
        visits,
        diagonal,
        jumps,
        skipped,
    })
}

/// The mean turns from the start with its error bound, and the exact mean
/// when asked for or needed.
pub(super) struct MeanFigure {
    /// The mean: the `f64` one, or the exact one when that was not
    /// trusted.
    pub mean: f64,
    /// A bound on its relative error.
    pub error_bound: f64,
    /// The exact mean, in exact mode or when the `f64` one was untrusted.
    pub exact: Option<Exact>,
    /// The bound on the relative error of every component of the `f64`
    /// mean turns ([`accuracy::mean_error_bound`]), which the variance's
    /// bound builds on.
    pub float_bound: f64,
}

/// The mean turns from the start (`turns` from each state), bounded, and
/// recomputed exactly by certified modular solving (docs/exact-modular.md)
/// in exact mode or when its bound passes
/// [`MEAN_TRUST`](crate::markov::tolerance::MEAN_TRUST); a recomputed or
/// uncertain mean adds its warning.
///
/// # Errors
/// In exact mode, when the exact mean cannot be computed;
/// [`AnalysisError::Stopped`] once `options`' stop flag is set.
pub(super) fn certified_mean(
    board: &Board,
    chain: &Chain,
    solver: &Solver,
    options: &Options,
    turns: &[f64],
    warnings: &mut Vec<Warning>,
) -> Result<MeanFigure, AnalysisError> {
    let limits = &options.limits;
    let mut mean = turns[chain.start().get()];
    options.check_stop()?;
    let float_bound = accuracy::mean_error_bound(chain, solver, turns);
    options.check_stop()?;
    let mut mean_error_bound = float_bound;
    if mean_error_bound > crate::markov::tolerance::MEAN_TRUST
        && chain.cut_paths()
        && crate::markov::modular::lists_every_square(board, chain)
    {
        // A turn's path was cut below f64's range, but the exact rows
        // end only on the chain's squares: the bounds that need a
        // complete chain hold (docs/figures.md §2b).
        mean_error_bound = accuracy::mean_error_bound_listed(chain, solver, turns, true);
    }
    let untrusted = mean_error_bound > crate::markov::tolerance::MEAN_TRUST;
    let exact = if options.exact || untrusted {
        // Certified modular solving (docs/exact-modular.md).
        match crate::markov::modular::solve_until(board, chain, false, limits, options.stop_flag())
            .map(|s| s.mean().clone())
        {
            Ok(fraction) => {
                let value = num_traits::ToPrimitive::to_f64(&fraction).unwrap_or(f64::NAN);
                let error = ((value - mean) / value).abs();
                if untrusted || error > crate::markov::tolerance::MEAN_TRUST {
                    warnings.push(Warning::MeanRecomputed {
                        float: mean,
                        bound: mean_error_bound,
                        error,
                    });
                    mean = value;
                    mean_error_bound = f64::EPSILON / 2.0;
                }
                Some(Exact {
                    mean_turns: format!("{}/{}", fraction.numer(), fraction.denom()),
                    relative_difference: error,
                    certified: crate::markov::modular::CERTIFIED.to_string(),
                    mean: fraction,
                })
            }
            Err(e) if options.exact || e == AnalysisError::Stopped => return Err(e),
            Err(e) => {
                warnings.push(Warning::MeanUncertain {
                    bound: mean_error_bound,
                    reason: e.to_string(),
                });
                None
            }
        }
    } else {
        None
    };
    Ok(MeanFigure {
        mean,
        error_bound: mean_error_bound,
        exact,
        float_bound,
    })
}

/// The variance of the turns from the start, `variance`, and the bound on
/// its relative error, `bound` ([`accuracy::variance_error_bound`]);
/// recomputed exactly when the bound passes
/// [`MEAN_TRUST`](crate::markov::tolerance::MEAN_TRUST), with a warning
/// either way.
///
/// # Errors
/// [`AnalysisError::Stopped`] once `options`' stop flag is set.
pub(super) fn certified_variance(
    board: &Board,
    chain: &Chain,
    options: &Options,
    (variance, bound): (f64, f64),
    warnings: &mut Vec<Warning>,
) -> Result<(f64, f64), AnalysisError> {
    let (mut variance, mut variance_error_bound) = (variance, bound);
    if variance_error_bound > crate::markov::tolerance::MEAN_TRUST {
        match crate::markov::modular::solve_until(
            board,
            chain,
            true,
            &options.limits,
            options.stop_flag(),
        )
        .and_then(|s| {
            s.variance()
                .cloned()
                .ok_or(AnalysisError::ExactUncertified { digits: 0 })
        }) {
            Ok(fraction) => {
                let value = num_traits::ToPrimitive::to_f64(&fraction).unwrap_or(f64::NAN);
                warnings.push(Warning::VarianceRecomputed {
                    float: variance,
                    bound: variance_error_bound,
                });
                variance = value;
                variance_error_bound = f64::EPSILON / 2.0;
            }
            Err(AnalysisError::Stopped) => return Err(AnalysisError::Stopped),
            Err(e) => warnings.push(Warning::VarianceUncertain {
                bound: variance_error_bound,
                reason: e.to_string(),
            }),
        }
    }
    Ok((variance, variance_error_bound))
}
