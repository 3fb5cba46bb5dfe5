//! Exact mode at every size: the mean and variance of the turns as
//! certified fractions, by modular arithmetic over the chain's sparse
//! structure (docs/exact-modular.md).
//!
//! `(I − Q)·x = 1` is scaled row by row to integers (`system`), factored
//! once modulo a prime below 2⁶² in the sparse float solver's order (a back
//! sweep over the states nothing jumps back to, then the dense Schur
//! complement of those something does, `factor`), and its solution lifted
//! p-adically digit by digit from that one factorisation (Dixon's method,
//! `lift`). At checkpoints the fractions on the Schur complement's states
//! are reconstructed with one common denominator; back substitution over
//! the other states in exact integers then gives every fraction, and
//! substitution into the remaining rows checks the whole system exactly:
//! an answer is returned only when every row holds over the integers.
//!
//! The Bareiss elimination of [`crate::markov::exact`] stays as the
//! independent reference the tests compare with.

mod factor;
mod field;
mod lift;
mod system;

use crate::Board;
use crate::markov::analysis::AnalysisError;
use crate::markov::chain::{Chain, StateIndex};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::sync::atomic::AtomicBool;

/// How a [`Solution`] was certified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The prime of the p-adic lifting, or 0 when the system was
    /// triangular and back substitution alone solved it.
    pub prime: u64,
    /// The p-adic digits lifted.
    pub digits: usize,
    /// The states of the dense Schur complement (those that a jump or
    /// bounce sends a token back to).
    pub back_states: usize,
}

/// How every fraction of this module is checked, in words.
pub const CERTIFIED: &str = "by exact substitution into the integer system";

impl Certificate {
    /// How the fractions were checked, in words ([`CERTIFIED`]).
    pub fn describe(&self) -> &'static str {
        CERTIFIED
    }
}

/// The certified exact figures of a chain.
#[derive(Clone, Debug)]
pub struct Solution {
    mean: BigRational,
    variance: Option<BigRational>,
    numerators: Vec<BigInt>,
    denominator: BigInt,
    certificate: Certificate,
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
        BigRational::new(
            self.numerators[state.get()].clone(),
            self.denominator.clone(),
        )
    }

    /// How it was certified.
    pub fn certificate(&self) -> &Certificate {
        &self.certificate
    }
}

/// The size of a modular solve, known before it starts
/// (docs/exact-modular.md §6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// States of the chain.
    pub states: usize,
    /// States of the dense Schur complement.
    pub back_states: usize,
    /// Most p-adic digits the answer can need (the Hadamard bound).
    pub digits: usize,
    /// Estimated 64-bit word operations, at most.
    pub work: f64,
    /// Estimated bytes held, at most.
    pub bytes: u64,
}

/// Bits of one p-adic digit: the primes are just below 2⁶².
const DIGIT_BITS: f64 = 61.99;

/// A scaled system with its shape and its size.
struct Prepared {
    system: system::System,
    shape: factor::Shape,
    max_digits: (usize, usize),
    estimate: Estimate,
}

fn prepare(board: &Board, chain: &Chain, moments: bool) -> Result<Prepared, AnalysisError> {
    let system = system::System::new(board, chain)?;
    let shape = factor::Shape::new(&system);
    // Words of the system's numbers (1 unless a loaded die's weights make
    // them wide).
    let entry_words = match &system.values {
        system::Values::Small { .. } => 1.0,
        system::Values::Big { scale, .. } => {
            scale.iter().map(|s| s.bits()).max().unwrap_or(64) as f64 / 64.0 + 1.0
        }
    };
    let sizes = system::Sizes {
        states: system.len(),
        back_states: shape.back.len(),
        entries: system.entries(),
        hadamard: system.hadamard_log2(),
    };
    let (estimate, max_digits) = estimate_of(&sizes, entry_words, moments);
    Ok(Prepared {
        estimate,
        system,
        shape,
        max_digits,
    })
}

/// The estimate of a solve of a system of `sizes` whose numbers take
/// `entry_words` words each, and the most digits of the mean and of the
/// second moment.
fn estimate_of(
    sizes: &system::Sizes,
    entry_words: f64,
    moments: bool,
) -> (Estimate, (usize, usize)) {
    let h = sizes.hadamard;
    // Symmetric reconstruction is certain once p^K > 2·max(N, D)².
    let digits = |log2: f64| (((2.0 * log2 + 1.0) / DIGIT_BITS).ceil() as usize).max(1) + 1;
    let max_digits = (
        digits(h.cramer.max(h.det)),
        digits((h.cramer + h.second).max(2.0 * h.det)),
    );
    let k = if moments { max_digits.1 } else { max_digits.0 };
    let n = sizes.states as f64;
    let j = sizes.back_states as f64;
    let nnz = sizes.entries as f64 + n;
    let blocks = if moments { 2.0 } else { 1.0 };
    let kf = k as f64;
    let factor_work = j * nnz + j * j * j / 3.0 + n;
    let digit_work = blocks * (2.0 * nnz + j * j + 2.0 * nnz * entry_words);
    // Reconstruction at checkpoints growing by a quarter (about five times
    // the last): one Euclid on K words, then every entry of J assembled and
    // multiplied; substitution: every entry times a K-word number.
    let reconstruct = 5.0 * blocks * (20.0 * kf * kf + j * 8.0 * kf.powf(1.585));
    let substitute = 3.0 * blocks * nnz * kf * entry_words;
    let work = factor_work + kf * digit_work + reconstruct + substitute;
    let bytes = 8.0 * (j * j + 10.0 * n + blocks * j * kf + (blocks + 1.0) * n * kf)
        + 16.0 * nnz * entry_words;
    let estimate = Estimate {
        states: sizes.states,
        back_states: sizes.back_states,
        digits: k,
        work,
        bytes: bytes as u64,
    };
    (estimate, max_digits)
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
    Ok(system::one_roll_sizes(board, chain)?.map(|sizes| estimate_of(&sizes, 1.0, moments).0))
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
        None => Ok(prepare(board, chain, moments)?.estimate),
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
    let (max_work, max_memory) = (limits.max_work, limits.max_memory);
    // Refused, when it can be, before the system is built.
    if let Some(e) = estimate_by_rows(board, chain, moments)? {
        check_limits(&e, max_work, max_memory)?;
    }
    let prepared = prepare(board, chain, moments)?;
    let e = prepared.estimate;
    check_limits(&e, max_work, max_memory)?;
    crate::markov::analysis::stop_check(stop)?;
    let lifted = lift::solve(
        &prepared.system,
        &prepared.shape,
        moments,
        prepared.max_digits,
        stop,
    )?;
    let start = prepared.system.start;
    let mean = BigRational::new(
        lifted.mean.numerators[start].clone(),
        lifted.mean.denominator.clone(),
    );
    let variance = lifted.second.as_ref().map(|second| {
        let m2 = BigRational::new(second.numerators[start].clone(), second.denominator.clone());
        m2 - &mean * &mean
    });
    Ok(Solution {
        mean,
        variance,
        numerators: lifted.mean.numerators,
        denominator: lifted.mean.denominator,
        certificate: Certificate {
            prime: lifted.prime,
            digits: lifted.digits,
            back_states: e.back_states,
        },
    })
}

/// [`AnalysisError::ExactTooMuchWork`] or [`AnalysisError::ExactTooMuchMemory`]
/// when `e` passes `max_work` or `max_memory`.
fn check_limits(e: &Estimate, max_work: f64, max_memory: u64) -> Result<(), AnalysisError> {
    if e.work > max_work {
        return Err(AnalysisError::ExactTooMuchWork {
            needed: e.work,
            limit: max_work,
        });
    }
    if e.bytes > max_memory {
        return Err(AnalysisError::ExactTooMuchMemory {
            needed: e.bytes,
            limit: max_memory,
        });
    }
    Ok(())
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
    system::System::new(board, chain).is_ok()
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
        let t = crate::markov::analysis::solve::Solver::new(&c)
            .unwrap()
            .expected_turns()
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
                    .map(|sizes| estimate_of(&sizes, 1.0, moments).0);
                let built = prepare(b, &c, moments).unwrap().estimate;
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
