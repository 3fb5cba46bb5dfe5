//! Exact mode at every size: the mean and variance of the turns as
//! certified fractions, from the solver crate's modular solve
//! (`absorbing::exact`, docs/exact-modular.md) of the board's scaled
//! integer system (`system`).
//!
//! The Bareiss elimination of [`crate::markov::exact`] stays as the
//! independent reference the tests compare with.

mod system;

use crate::Board;
use crate::markov::analysis::AnalysisError;
use crate::markov::chain::{Chain, StateIndex};
use absorbing::exact::{self as certified, ExactError};
pub use absorbing::exact::{CERTIFIED, Certificate, Estimate};
use num_rational::BigRational;
use std::sync::atomic::AtomicBool;

/// The certified exact figures of a chain.
#[derive(Clone, Debug)]
pub struct Solution {
    mean: BigRational,
    variance: Option<BigRational>,
    solution: certified::Solution,
}

impl Solution {
    /// The mean number of turns from the start, reduced.
    pub fn mean(&self) -> &BigRational {
        &self.mean
    }

    /// The variance of the turns from the start, when it was asked for.
    pub fn variance(&self) -> Option<&BigRational> {
        self.variance.as_ref()
    }

    /// The exact expected turns left from `state`, reduced.
    ///
    /// # Panics
    /// If `state` is not a state of the chain solved.
    pub fn turns_left(&self, state: StateIndex) -> BigRational {
        self.solution.value(state.get())
    }

    /// How it was certified.
    pub fn certificate(&self) -> &Certificate {
        self.solution.certificate()
    }
}

impl From<ExactError> for AnalysisError {
    fn from(e: ExactError) -> AnalysisError {
        match e {
            ExactError::Singular => AnalysisError::ExactSingular,
            ExactError::Uncertified { digits } => AnalysisError::ExactUncertified { digits },
            ExactError::Stopped => AnalysisError::Stopped,
            ExactError::TooMuchWork { needed, limit } => {
                AnalysisError::ExactTooMuchWork { needed, limit }
            }
            ExactError::TooMuchMemory { needed, limit } => {
                AnalysisError::ExactTooMuchMemory { needed, limit }
            }
        }
    }
}

/// The estimate of a solve, from the rows one at a time when the chain
/// is large and its board allows ([`system::one_roll_sizes`]); `None`
/// when the system must be built to know it.
fn estimate_by_rows(
    board: &Board,
    chain: &Chain,
    moments: bool,
) -> Result<Option<Estimate>, AnalysisError> {
    if chain.len() < BY_ROWS_STATES {
        return Ok(None);
    }
    Ok(system::one_roll_sizes(board, chain)?.map(|sizes| Estimate::of_sizes(&sizes, 1.0, moments)))
}

/// States from which a solve is estimated row by row before its system is
/// built ([`estimate_by_rows`]): the system then takes over 6 MB, and a
/// solve refused on its estimate never builds it. Below, the one pass
/// that builds it also estimates it (the rows cost as much again).
const BY_ROWS_STATES: usize = 1 << 16;

/// The size of the modular solve of `chain` for the mean (and, with
/// `moments`, the variance), without solving.
///
/// # Errors
/// As the exact rows: [`AnalysisError::ExactTurnTooLong`], [`AnalysisError::ExactUnlisted`].
pub fn estimate(board: &Board, chain: &Chain, moments: bool) -> Result<Estimate, AnalysisError> {
    match estimate_by_rows(board, chain, moments)? {
        Some(estimate) => Ok(estimate),
        None => Ok(Estimate::of(&system::scaled(board, chain)?, moments)),
    }
}

/// The certified exact mean (and, with `moments`, the variance) of the
/// turns, refused before any solving when its [`Estimate`] passes
/// `max_work` word operations or `max_memory` bytes.
///
/// # Errors
/// [`AnalysisError::ExactTooMuchWork`], [`AnalysisError::ExactTooMuchMemory`], as the
/// exact rows ([`AnalysisError::ExactTurnTooLong`], [`AnalysisError::ExactUnlisted`]),
/// [`AnalysisError::ExactSingular`], and [`AnalysisError::ExactUncertified`] (a bug).
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::internals::{Chain, modular};
///
/// // Squares 2, one d6: only a 1 finishes from square 1 and only a 2
/// // from the start, so T is geometric with p = 1/6.
/// let board = Board::from_json_str(r#"{"squares": 2}"#)?;
/// let chain = Chain::compile(&board)?;
/// let s = modular::solve_within(&board, &chain, true, f64::INFINITY, u64::MAX)?;
/// assert_eq!(s.mean().to_string(), "6");
/// assert_eq!(s.variance().unwrap().to_string(), "30");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_within(
    board: &Board,
    chain: &Chain,
    moments: bool,
    max_work: f64,
    max_memory: u64,
) -> Result<Solution, AnalysisError> {
    let limits = crate::Limits {
        max_work,
        max_memory,
    };
    solve_until(board, chain, moments, &limits, None)
}

/// [`solve_within`] `limits`, ended with [`AnalysisError::Stopped`] at the
/// next p-adic digit once `stop` is set (an analysis's stop flag).
///
/// # Errors
/// As [`solve_within`], and [`AnalysisError::Stopped`].
pub(crate) fn solve_until(
    board: &Board,
    chain: &Chain,
    moments: bool,
    limits: &crate::Limits,
    stop: Option<&AtomicBool>,
) -> Result<Solution, AnalysisError> {
    let limits = certified::Limits {
        max_work: limits.max_work,
        max_memory: limits.max_memory,
    };
    // Refused, when it can be, before the system is built.
    if let Some(e) = estimate_by_rows(board, chain, moments)? {
        limits.check(&e)?;
    }
    let system = system::scaled(board, chain)?;
    let solution = certified::solve(&system, moments, &limits, stop)?;
    let mean = solution.at_start();
    let variance = solution.variance();
    Ok(Solution {
        mean,
        variance,
        solution,
    })
}

/// The certified exact mean number of turns, refused past `max_work`
/// ([`solve_within`] without a memory limit of its own).
///
/// # Errors
/// As [`solve_within`].
pub fn mean_turns_within(
    board: &Board,
    chain: &Chain,
    max_work: f64,
) -> Result<BigRational, AnalysisError> {
    Ok(solve_within(board, chain, false, max_work, u64::MAX)?.mean)
}

/// The certified exact mean and variance of the turns, refused past
/// `max_work` ([`solve_within`]).
///
/// # Errors
/// As [`solve_within`].
pub fn moments_within(
    board: &Board,
    chain: &Chain,
    max_work: f64,
) -> Result<(BigRational, BigRational), AnalysisError> {
    let s = solve_within(board, chain, true, max_work, u64::MAX)?;
    let variance = s
        .variance
        .clone()
        .ok_or(AnalysisError::ExactUncertified { digits: 0 })?;
    Ok((s.mean, variance))
}

/// Whether every square a turn of `board` can end on, by exact
/// arithmetic, is one of `chain`'s states: false when the floating-point
/// chain left one out (a path whose chance is below `f64`'s range was its
/// only way there), or when the exact rows cannot be built at all.
pub(crate) fn lists_every_square(board: &Board, chain: &Chain) -> bool {
    system::scaled(board, chain).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markov::exact;

    #[track_caller]
    fn same_as_bareiss(json: &str) {
        let b = Board::from_json_str(json).unwrap();
        let c = Chain::compile(&b).unwrap();
        let s = solve_within(&b, &c, true, f64::INFINITY, u64::MAX).unwrap();
        let (mean, variance) = exact::moments_within(&b, &c, f64::INFINITY).unwrap();
        assert_eq!(s.mean(), &mean, "{json}");
        assert_eq!(s.variance(), Some(&variance), "{json}");
        // Every square's turns left solves its row of (I − Q)·t = 1.
        let rows = exact::moments(&b, &c).unwrap();
        assert_eq!(rows.0, mean);
    }

    #[test]
    fn small_boards_match_the_bareiss_fractions() {
        for json in [
            r#"{"squares": 2}"#,
            r#"{"squares": 3, "rules": {"dice": {"faces": 2}}}"#,
            r#"{"squares": 12, "snakes": [[4, 1], [10, 1]], "rules": {"dice": {"weights": [1, 0.001]}}}"#,
            r#"{"squares": 3, "rules": {"dice": {"faces": 2}, "extra_turn": {"on": 2}}}"#,
            r#"{"squares": 20, "snakes": [[13, 2]], "ladders": [[3, 11]],
                "rules": {"extra_turn": {"on": 6, "max_extra": 2}, "overshoot": "bounce"}}"#,
            r#"{"squares": 12, "rules": {"dice": {"weights": [1e-200, 0, 1]}, "overshoot": "bounce"}}"#,
            r#"{"squares": 30, "snakes": [[29, 3], [17, 4]], "rules": {"overshoot": "stay"}}"#,
        ] {
            same_as_bareiss(json);
        }
    }

    #[test]
    fn the_builtin_board_is_certified_with_its_schur_complement() {
        let b = Board::builtin_default();
        let c = Chain::compile(&b).unwrap();
        let s = solve_within(&b, &c, false, f64::INFINITY, u64::MAX).unwrap();
        assert_eq!(s.mean(), &exact::mean_turns(&b, &c).unwrap());
        assert!(s.certificate().prime > 0 && s.certificate().back_states > 0);
        // Turns left from every square against the float solve.
        let t = crate::markov::analysis::solve::factor(&c)
            .unwrap()
            .expected_steps()
            .to_vec();
        for state in c.states() {
            let exact = num_traits::ToPrimitive::to_f64(&s.turns_left(state)).unwrap();
            assert!((exact - t[state.get()]).abs() <= 1e-12 * exact, "{state}");
        }
    }

    /// The estimate found row by row, without the system, is the one of
    /// the system built (on boards with snakes, a stay, a bounce, a loaded
    /// die and two dice).
    #[test]
    fn rows_one_at_a_time_give_the_estimate_of_the_built_system() {
        let boards = [
            Board::builtin_default(),
            Board::from_json_str(r#"{"squares": 30, "snakes": [[29, 3], [17, 4]], "rules": {"overshoot": "stay"}}"#).unwrap(),
            Board::from_json_str(r#"{"squares": 40, "snakes": [[33, 2]], "ladders": [[3, 20]], "rules": {"overshoot": "bounce"}}"#).unwrap(),
            Board::from_json_str(r#"{"squares": 12, "snakes": [[4, 1], [10, 1]], "rules": {"dice": {"weights": [1, 0.001]}}}"#).unwrap(),
            Board::from_json_str(r#"{"squares": 50, "snakes": [[47, 5]], "rules": {"dice": {"count": 2}, "overshoot": "win"}}"#).unwrap(),
        ];
        for b in &boards {
            let c = Chain::compile(b).unwrap();
            for moments in [false, true] {
                let by_rows = system::one_roll_sizes(b, &c)
                    .unwrap()
                    .map(|sizes| Estimate::of_sizes(&sizes, 1.0, moments));
                let built = Estimate::of(&system::scaled(b, &c).unwrap(), moments);
                assert_eq!(by_rows, Some(built), "{:?}", b.name());
            }
        }
    }

    #[test]
    fn work_and_memory_limits_refuse_with_the_estimate() {
        let b = Board::builtin_default();
        let c = Chain::compile(&b).unwrap();
        let e = estimate(&b, &c, true).unwrap();
        assert!(e.work > 0.0 && e.bytes > 0 && e.digits > 0);
        assert!(matches!(
            solve_within(&b, &c, true, e.work / 2.0, u64::MAX),
            Err(AnalysisError::ExactTooMuchWork { needed, .. }) if needed == e.work
        ));
        assert!(matches!(
            solve_within(&b, &c, true, f64::INFINITY, e.bytes / 2),
            Err(AnalysisError::ExactTooMuchMemory { needed, .. }) if needed == e.bytes
        ));
    }
}
