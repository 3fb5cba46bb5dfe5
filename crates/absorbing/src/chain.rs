//! The validated chain: a sparse transition matrix with an initial
//! distribution, a target set and optional state rewards, fixed once built.

use num_rational::BigRational;
use num_traits::ToPrimitive;

/// A number as it was given: exactly (a fraction, or a decimal read as the
/// fraction it writes) or as a binary float.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An exact rational.
    Exact(BigRational),
    /// A float, checked within a tolerance.
    Float(f64),
}

impl Value {
    /// The nearest `f64`.
    pub fn to_f64(&self) -> f64 {
        match self {
            Value::Exact(r) => r.to_f64().unwrap_or(f64::NAN),
            Value::Float(x) => *x,
        }
    }
}

/// An absorbing discrete-time Markov chain over states `0..len()`.
///
/// Rows are stored compressed (CSR) over every state, target states
/// included; columns are increasing within a row with no duplicates, every
/// value is positive, and every row sums to one (exactly when every entry of
/// it was given exactly, within the builder's tolerance otherwise).
#[derive(Clone, Debug)]
pub struct Chain {
    pub(crate) offsets: Vec<usize>,
    pub(crate) cols: Vec<u32>,
    pub(crate) probs: Vec<f64>,
    /// Every entry's exact value, when every entry was given exactly.
    pub(crate) exact: Option<Vec<BigRational>>,
    /// The initial distribution, by state, increasing, positive, summing to one.
    pub(crate) initial: Vec<(u32, f64)>,
    pub(crate) initial_exact: Option<Vec<(u32, BigRational)>>,
    /// Whether each state is a target.
    pub(crate) target: Vec<bool>,
    /// A reward per state, when rewards were given.
    pub(crate) rewards: Option<Vec<f64>>,
    pub(crate) rewards_exact: Option<Vec<BigRational>>,
}

impl Chain {
    /// The number of states.
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// Whether the chain has no state (never true of a built chain).
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The transitions out of `state`, as `(to, probability)` with `to`
    /// increasing.
    ///
    /// # Panics
    /// If `state` is not below [`len`](Chain::len).
    pub fn row(&self, state: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = self.offsets[state]..self.offsets[state + 1];
        self.cols[range.clone()]
            .iter()
            .zip(&self.probs[range])
            .map(|(&c, &p)| (c as usize, p))
    }

    /// The exact transitions out of `state`, when every entry was given
    /// exactly.
    pub fn exact_row(
        &self,
        state: usize,
    ) -> Option<impl Iterator<Item = (usize, &BigRational)> + '_> {
        let exact = self.exact.as_ref()?;
        let range = self.offsets[state]..self.offsets[state + 1];
        Some(
            self.cols[range.clone()]
                .iter()
                .zip(&exact[range])
                .map(|(&c, p)| (c as usize, p)),
        )
    }

    /// The number of stored transitions.
    pub fn entries(&self) -> usize {
        self.cols.len()
    }

    /// Whether `state` is a target.
    pub fn is_target(&self, state: usize) -> bool {
        self.target[state]
    }

    /// The initial distribution, as `(state, probability)` with states
    /// increasing.
    pub fn initial(&self) -> &[(u32, f64)] {
        &self.initial
    }

    /// The reward of each state, when rewards were given.
    pub fn rewards(&self) -> Option<&[f64]> {
        self.rewards.as_deref()
    }
}
