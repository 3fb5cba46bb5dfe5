//! Certified exact solutions of `(I − Q)·x = b` by modular arithmetic over
//! the chain's sparse structure (docs/exact-modular.md).
//!
//! The system is scaled row by row to integers ([`System`]), factored once
//! modulo a prime below 2⁶² in the sparse float solver's order (a back
//! sweep over the states nothing goes back to, then the dense Schur
//! complement of those something does), and its solution lifted p-adically
//! digit by digit from that one factorisation (Dixon's method). At
//! checkpoints the fractions on the Schur complement's states are
//! reconstructed with one common denominator; back substitution over the
//! other states in exact integers then gives every fraction, and
//! substitution into the remaining rows checks the whole system exactly: an
//! answer is returned only when every row holds over the integers.
//!
//! # Example
//! ```
//! use absorbing::exact::{self, System};
//! use num_rational::BigRational;
//!
//! // A fair coin flipped until heads: one state that stays with 1/2.
//! let half = BigRational::new(1.into(), 2.into());
//! let system = System::from_rows(1, 0, |_| [(0, &half)], None);
//! let solution = exact::solve(&system, true, &exact::Limits::none(), None)?;
//! assert_eq!(solution.value(0).to_string(), "2");
//! assert_eq!(solution.variance().unwrap().to_string(), "2");
//! # Ok::<(), absorbing::exact::ExactError>(())
//! ```

mod factor;
mod field;
mod lift;
mod system;

pub use system::{Hadamard, Sizes, System};

use num_bigint::BigInt;
use num_rational::BigRational;
use std::sync::atomic::AtomicBool;

/// Why an exact solve gave no answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ExactError {
    /// Every prime tried left the matrix singular.
    #[error("the system is singular modulo every prime tried")]
    Singular,
    /// The digits the Hadamard bound allows passed without a certificate
    /// (the bound says this cannot happen: a bug).
    #[error("no certificate after {digits} p-adic digits")]
    Uncertified {
        /// The digits lifted.
        digits: usize,
    },
    /// The caller's stop flag was set.
    #[error("stopped")]
    Stopped,
    /// The estimated word operations pass the limit.
    #[error(
        "the exact solve needs about {needed:.1e} word operations, over the limit of {limit:.1e}"
    )]
    TooMuchWork {
        /// Estimated word operations.
        needed: f64,
        /// The limit.
        limit: f64,
    },
    /// The estimated bytes pass the limit.
    #[error("the exact solve needs about {needed} bytes, over the limit of {limit}")]
    TooMuchMemory {
        /// Estimated bytes.
        needed: u64,
        /// The limit.
        limit: u64,
    },
}

/// How a [`Solution`] was certified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The prime of the p-adic lifting, or 0 when the system was
    /// triangular and back substitution alone solved it.
    pub prime: u64,
    /// The p-adic digits lifted.
    pub digits: usize,
    /// The states of the dense Schur complement (those that some later
    /// state goes back to).
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

/// The certified solution of a [`System`]: `x` from every state and, when
/// asked for, the second moment.
#[derive(Clone, Debug)]
pub struct Solution {
    numerators: Vec<BigInt>,
    denominator: BigInt,
    second: Option<(Vec<BigInt>, BigInt)>,
    start: usize,
    certificate: Certificate,
}

impl Solution {
    /// `xᵢ`, reduced.
    ///
    /// # Panics
    /// If `state` is not a state of the system solved.
    pub fn value(&self, state: usize) -> BigRational {
        BigRational::new(self.numerators[state].clone(), self.denominator.clone())
    }

    /// `x` at the system's start state, reduced.
    pub fn at_start(&self) -> BigRational {
        self.value(self.start)
    }

    /// The second moment `E[T²]` from `state`, when it was asked for.
    pub fn second_moment(&self, state: usize) -> Option<BigRational> {
        let (n, d) = self.second.as_ref()?;
        Some(BigRational::new(n[state].clone(), d.clone()))
    }

    /// The variance of the steps from the start, when the second moment
    /// was asked for.
    pub fn variance(&self) -> Option<BigRational> {
        let mean = self.at_start();
        Some(self.second_moment(self.start)? - &mean * &mean)
    }

    /// How it was certified.
    pub fn certificate(&self) -> &Certificate {
        &self.certificate
    }
}

/// The size of a solve, known before it starts (docs/exact-modular.md §6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// States of the system.
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

/// The most work and memory a solve may take: refused on its [`Estimate`]
/// before any solving when it would pass either.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Most estimated 64-bit word operations.
    pub max_work: f64,
    /// Most estimated bytes.
    pub max_memory: u64,
}

impl Limits {
    /// No limit.
    pub fn none() -> Limits {
        Limits {
            max_work: f64::INFINITY,
            max_memory: u64::MAX,
        }
    }

    /// [`ExactError::TooMuchWork`] or [`ExactError::TooMuchMemory`] when
    /// `e` passes these limits.
    ///
    /// # Errors
    /// As said.
    pub fn check(&self, e: &Estimate) -> Result<(), ExactError> {
        if e.work > self.max_work {
            return Err(ExactError::TooMuchWork {
                needed: e.work,
                limit: self.max_work,
            });
        }
        if e.bytes > self.max_memory {
            return Err(ExactError::TooMuchMemory {
                needed: e.bytes,
                limit: self.max_memory,
            });
        }
        Ok(())
    }
}

/// Bits of one p-adic digit: the primes are just below 2⁶².
const DIGIT_BITS: f64 = 61.99;

impl Estimate {
    /// The estimate of a solve of a system of `sizes` whose numbers take
    /// `entry_words` words each (1 for a system of machine words), with the
    /// second moment when `moments`.
    pub fn of_sizes(sizes: &Sizes, entry_words: f64, moments: bool) -> Estimate {
        estimate_of(sizes, entry_words, moments).0
    }

    /// The estimate of a solve of `system`, with the second moment when
    /// `moments`.
    pub fn of(system: &System, moments: bool) -> Estimate {
        Prepared::new(system, moments).estimate
    }
}

/// The estimate of a solve of a system of `sizes` whose numbers take
/// `entry_words` words each, and the most digits of the solution and of the
/// second moment.
fn estimate_of(sizes: &Sizes, entry_words: f64, moments: bool) -> (Estimate, (usize, usize)) {
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

/// A system's shape and size.
struct Prepared {
    shape: factor::Shape,
    max_digits: (usize, usize),
    estimate: Estimate,
}

impl Prepared {
    fn new(system: &System, moments: bool) -> Prepared {
        let shape = factor::Shape::new(system);
        // Words of the system's numbers (1 unless they are wide).
        let entry_words = match &system.values {
            system::Values::Small { .. } => 1.0,
            system::Values::Big { scale, .. } => {
                scale.iter().map(|s| s.bits()).max().unwrap_or(64) as f64 / 64.0 + 1.0
            }
        };
        let sizes = Sizes {
            states: system.len(),
            back_states: shape.back.len(),
            entries: system.entries(),
            hadamard: system.hadamard_log2(),
        };
        let (estimate, max_digits) = estimate_of(&sizes, entry_words, moments);
        Prepared {
            shape,
            max_digits,
            estimate,
        }
    }
}

/// The certified solution of `system` (and, with `moments`, the second
/// moment of the steps), refused before any solving when its [`Estimate`]
/// passes `limits`, and ended at the next p-adic digit once `stop` is set.
///
/// # Errors
/// [`ExactError::TooMuchWork`], [`ExactError::TooMuchMemory`],
/// [`ExactError::Singular`], [`ExactError::Stopped`], and
/// [`ExactError::Uncertified`] (a bug).
///
/// # Panics
/// If `moments` is asked of a system whose right-hand side is not `b = 1`:
/// the second moment is that of the steps.
pub fn solve(
    system: &System,
    moments: bool,
    limits: &Limits,
    stop: Option<&AtomicBool>,
) -> Result<Solution, ExactError> {
    assert!(
        !moments || system.counts_steps(),
        "the second moment is that of the steps (b = 1)"
    );
    let prepared = Prepared::new(system, moments);
    limits.check(&prepared.estimate)?;
    crate::stop::check(stop).map_err(|_| ExactError::Stopped)?;
    let lifted = lift::solve(system, &prepared.shape, moments, prepared.max_digits, stop)?;
    Ok(Solution {
        numerators: lifted.mean.numerators,
        denominator: lifted.mean.denominator,
        second: lifted.second.map(|s| (s.numerators, s.denominator)),
        start: system.start,
        certificate: Certificate {
            prime: lifted.prime,
            digits: lifted.digits,
            back_states: prepared.estimate.back_states,
        },
    })
}
