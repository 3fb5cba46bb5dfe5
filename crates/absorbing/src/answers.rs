//! The questions asked of a chain, answered in floats with certified error
//! bounds and, on request, as certified fractions (docs/chain-questions.md).
//!
//! Every answer comes from one linear system over the *live* states: those
//! that are not targets and can reach one ([`Reach::Surely`] and
//! [`Reach::Maybe`]). Leaving them means reaching a target or a state that
//! never reaches one, so `I − Q` over them is non-singular, and one
//! factorisation serves every right-hand side: the chance of reaching a
//! target in one step (reach probabilities), ones (expected steps), the
//! rewards (expected reward), `2t − 1` (second moment), and the initial
//! distribution, transposed (expected visits). A sure state only leads to
//! sure states and targets, so on sure states the steps and rewards are
//! those until the target.

use crate::exact::{self, ExactError, System};
use crate::reach::{Reach, classify};
use crate::sparse::Csr;
use crate::{Chain, Solver, SolverError};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::sync::atomic::AtomicBool;

/// Unit roundoff of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// The distribution of the steps is followed until the chance that the
/// chain is still among the live states is below this; the remainder is
/// reported as its tail.
pub const TAIL: f64 = 1e-12;

/// `γₖ = k·u / (1 − k·u)`: the relative error bound of a sum of `k`
/// rounded terms (Higham, *Accuracy and Stability*, §3.1).
fn gamma(k: usize) -> f64 {
    let ku = k as f64 * UNIT;
    if ku >= 1.0 {
        f64::INFINITY
    } else {
        ku / (1.0 - ku)
    }
}

/// What to answer, and within which limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Certified fractions beside the floats.
    pub exact: bool,
    /// The distribution of the steps.
    pub distribution: bool,
    /// Most estimated multiply-adds (floats) or 64-bit word operations
    /// (fractions) the answers may take; refused before the work when the
    /// estimate passes it.
    pub max_work: f64,
    /// Most estimated bytes the answers may hold, beside the chain itself.
    pub max_memory: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            exact: false,
            distribution: true,
            max_work: 1e12,
            max_memory: 4 << 30,
        }
    }
}

/// Why a chain's questions were not answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnswerError {
    /// The estimated work passes [`Options::max_work`].
    #[error("answering needs about {needed:.2e} operations, over the limit of {limit:.2e}")]
    TooMuchWork {
        /// The estimate.
        needed: f64,
        /// The limit.
        limit: f64,
    },
    /// The estimated memory passes [`Options::max_memory`].
    #[error("answering needs about {needed} bytes, over the limit of {limit} bytes")]
    TooMuchMemory {
        /// The estimate.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// `I − Q` over the live states could not be factored in floats.
    #[error(transparent)]
    Solver(#[from] SolverError),
    /// The exact solve failed or was refused.
    #[error(transparent)]
    Exact(#[from] ExactError),
    /// Fractions were asked of a chain some of whose entries were given as
    /// floats, or whose rows do not sum to one exactly.
    #[error(
        "certified fractions need every transition, initial probability and reward given exactly (as p/q or a decimal), and each row summing to exactly 1: {why}"
    )]
    NotExact {
        /// What is not exact.
        why: String,
    },
    /// The caller's stop flag was set.
    #[error("stopped")]
    Stopped,
}

/// A float with a certified bound on its absolute error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded {
    /// The value computed.
    pub value: f64,
    /// `|value − exact| ≤ error_bound`.
    pub error_bound: f64,
}

/// An expectation that is finite, or infinite because the target is missed
/// with positive probability.
#[derive(Clone, Debug, PartialEq)]
pub enum Expectation {
    /// Finite, with its bound.
    Finite(Bounded),
    /// Infinite: the initial distribution reaches the target with
    /// probability below 1.
    Infinite,
}

impl Expectation {
    /// The value, when finite.
    pub fn finite(&self) -> Option<Bounded> {
        match self {
            Expectation::Finite(b) => Some(*b),
            Expectation::Infinite => None,
        }
    }
}

/// The distribution of the steps until the target.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// `P(T = k)` for `k = 0, 1, …`.
    pub pmf: Vec<f64>,
    /// `P(T ≤ k)`.
    pub cdf: Vec<f64>,
    /// The chance still among the live states after the last step
    /// computed: `P(T > last)` less the chance of never reaching.
    pub tail: f64,
    /// The chance of having left for a state that never reaches the
    /// target by the last step computed.
    pub never: f64,
    /// Bound on the absolute error of every `pmf` and `cdf` entry.
    pub error_bound: f64,
}

impl Distribution {
    /// The smallest `k` with `P(T ≤ k) ≥ q`, when the steps computed
    /// reach it.
    pub fn quantile(&self, q: f64) -> Option<usize> {
        self.cdf.iter().position(|&c| c >= q)
    }
}

/// The certified fractions of [`Answers`]: from the initial distribution
/// in its fields, and from each state by its methods.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactAnswers {
    /// The probability of reaching the target.
    pub reach_probability: BigRational,
    /// The expected steps, when finite.
    pub expected_steps: Option<BigRational>,
    /// The variance of the steps, when finite.
    pub variance: Option<BigRational>,
    /// The expected accumulated reward, when rewards were given and it is
    /// finite.
    pub expected_reward: Option<BigRational>,
    /// Each state's reach probability.
    reach_from: Vec<BigRational>,
    /// Each state's expected steps, when the initial distribution reaches
    /// the target surely (`None` on the states that may miss it).
    steps_from: Option<Vec<Option<BigRational>>>,
    /// Each state's expected reward, likewise.
    reward_from: Option<Vec<Option<BigRational>>>,
}

impl ExactAnswers {
    /// The probability of reaching the target from `state`.
    ///
    /// # Panics
    /// If `state` is not a state of the chain.
    pub fn reach_probability_from(&self, state: usize) -> &BigRational {
        &self.reach_from[state]
    }

    /// The expected steps from `state`: `None` when infinite, or when the
    /// initial distribution itself may miss the target (then no steps were
    /// solved for).
    ///
    /// # Panics
    /// If `state` is not a state of the chain.
    pub fn expected_steps_from(&self, state: usize) -> Option<&BigRational> {
        self.steps_from.as_ref()?[state].as_ref()
    }

    /// The expected reward from `state`, as
    /// [`ExactAnswers::expected_steps_from`].
    ///
    /// # Panics
    /// If `state` is not a state of the chain.
    pub fn expected_reward_from(&self, state: usize) -> Option<&BigRational> {
        self.reward_from.as_ref()?[state].as_ref()
    }
}

/// Everything asked of a chain.
#[derive(Clone, Debug)]
pub struct Answers {
    reach: Vec<Reach>,
    reach_probabilities: Vec<f64>,
    reach_bounds: Vec<f64>,
    steps: Vec<f64>,
    steps_bounds: Vec<f64>,
    visits: Vec<f64>,
    visits_bounds: Vec<f64>,
    reach_probability: Bounded,
    expected_steps: Expectation,
    variance: Expectation,
    expected_reward: Option<Expectation>,
    never_reached_from_initial: Vec<usize>,
    distribution: Option<Distribution>,
    exact: Option<ExactAnswers>,
}

impl Answers {
    /// How each state reaches the target.
    pub fn reach(&self) -> &[Reach] {
        &self.reach
    }

    /// The probability of reaching the target from the initial
    /// distribution.
    pub fn reach_probability(&self) -> Bounded {
        self.reach_probability
    }

    /// The probability of reaching the target from `state`.
    ///
    /// # Panics
    /// If `state` is not a state of the chain.
    pub fn reach_probability_from(&self, state: usize) -> Bounded {
        Bounded {
            value: self.reach_probabilities[state],
            error_bound: self.reach_bounds[state],
        }
    }

    /// The expected steps until the target from the initial distribution.
    pub fn expected_steps(&self) -> &Expectation {
        &self.expected_steps
    }

    /// The expected steps until the target from `state`: infinite unless
    /// the state reaches it surely.
    ///
    /// # Panics
    /// If `state` is not a state of the chain.
    pub fn expected_steps_from(&self, state: usize) -> Expectation {
        match self.reach[state] {
            Reach::Target | Reach::Surely => Expectation::Finite(Bounded {
                value: self.steps[state],
                error_bound: self.steps_bounds[state],
            }),
            Reach::Maybe | Reach::Never => Expectation::Infinite,
        }
    }

    /// The variance of the steps from the initial distribution.
    pub fn variance(&self) -> &Expectation {
        &self.variance
    }

    /// The expected accumulated reward until the target, when rewards were
    /// given: each step spent in a state earns its reward; the target's
    /// own is not earned.
    pub fn expected_reward(&self) -> Option<&Expectation> {
        self.expected_reward.as_ref()
    }

    /// The expected visits to each state before the target is reached or
    /// left for good (zero on targets and on states that never reach it),
    /// from the initial distribution: the initial row of the fundamental
    /// matrix over the live states.
    pub fn visits(&self) -> &[f64] {
        &self.visits
    }

    /// Bounds on the absolute error of [`Answers::visits`].
    pub fn visits_error_bounds(&self) -> &[f64] {
        &self.visits_bounds
    }

    /// The states that never reach the target and that the initial
    /// distribution can reach: why an expectation is infinite.
    pub fn never_reached_from_initial(&self) -> &[usize] {
        &self.never_reached_from_initial
    }

    /// The distribution of the steps, when asked for.
    pub fn distribution(&self) -> Option<&Distribution> {
        self.distribution.as_ref()
    }

    /// The certified fractions, when asked for.
    pub fn exact(&self) -> Option<&ExactAnswers> {
        self.exact.as_ref()
    }
}

/// The live states and the system over them.
struct Live {
    /// The chain's state of each live index.
    states: Vec<usize>,
    /// Each chain state's live index, `u32::MAX` when not live.
    index: Vec<u32>,
    /// `Q` over the live states.
    q: Csr,
    /// Each live state's chance of reaching a target in one step.
    to_target: Vec<f64>,
}

impl Live {
    fn new(chain: &Chain, reach: &[Reach]) -> Live {
        let states: Vec<usize> = (0..chain.len())
            .filter(|&s| matches!(reach[s], Reach::Surely | Reach::Maybe))
            .collect();
        let mut index = vec![u32::MAX; chain.len()];
        for (k, &s) in states.iter().enumerate() {
            index[s] = k as u32;
        }
        let mut row_ptr = Vec::with_capacity(states.len() + 1);
        row_ptr.push(0);
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        let mut to_target = Vec::with_capacity(states.len());
        for &s in &states {
            let mut hit = 0.0;
            for (t, p) in chain.row(s) {
                if index[t] != u32::MAX {
                    cols.push(index[t]);
                    vals.push(p);
                } else if chain.target[t] {
                    hit += p;
                }
            }
            row_ptr.push(cols.len());
            to_target.push(hit);
        }
        let q = Csr::from_valid_parts(states.len(), row_ptr, cols, vals);
        Live {
            states,
            index,
            q,
            to_target,
        }
    }

    fn len(&self) -> usize {
        self.states.len()
    }

    /// Bounds on `|x − N·b|` for a computed `x`, given the expected steps
    /// `t` (computed) and the worst relative residual `delta` of `t`
    /// (docs/chain-questions.md §3): `‖ρ‖∞ · tᵢ / (1 − δ)`, where `ρ`
    /// bounds the residual `b − (I − Q)·x` with its own rounding.
    fn bounds(&self, b: &[f64], x: &[f64], t: &[f64], delta: f64) -> Vec<f64> {
        let rho = self.residual(b, x);
        if delta >= 1.0 || !rho.is_finite() {
            return vec![f64::INFINITY; x.len()];
        }
        t.iter()
            .map(|&ti| rho * ti / (1.0 - delta) * (1.0 + 2.0 * UNIT))
            .collect()
    }

    /// `max |bᵢ − xᵢ + Σ Qᵢⱼ xⱼ|` plus the rounding of computing it and of
    /// `Q`'s entries (each within half an ulp of the exact transition).
    fn residual(&self, b: &[f64], x: &[f64]) -> f64 {
        let mut worst: f64 = 0.0;
        for i in 0..self.len() {
            let (mut r, mut size, mut k) = (b[i] - x[i], b[i].abs() + x[i].abs(), 2);
            for (j, p) in self.q.row(i) {
                r += p * x[j];
                size += p * x[j].abs();
                k += 1;
            }
            worst = worst.max(r.abs() + gamma(k + 2) * size);
        }
        worst
    }
}

impl Chain {
    /// Every question of [`Answers`], within `options`' limits.
    ///
    /// # Errors
    /// [`AnswerError::TooMuchWork`] or [`AnswerError::TooMuchMemory`]
    /// before the work; [`AnswerError::Solver`] when `I − Q` cannot be
    /// factored in floats; with [`Options::exact`], [`AnswerError::NotExact`]
    /// and [`AnswerError::Exact`].
    ///
    /// # Example
    /// ```
    /// use absorbing::{ChainBuilder, Value};
    /// use absorbing::answers::Options;
    ///
    /// // Gambler's ruin on 0..=3 with a fair coin, from 1, target 3.
    /// let half: Value = "1/2".parse()?;
    /// let one: Value = "1".parse()?;
    /// let mut b = ChainBuilder::new(4);
    /// b.transition(0, 0, one.clone());
    /// b.transition(3, 3, one);
    /// for s in 1..3 {
    ///     b.transition(s, s - 1, half.clone());
    ///     b.transition(s, s + 1, half.clone());
    /// }
    /// b.initial_state(1);
    /// b.targets([3]);
    /// let chain = b.build()?;
    /// let answers = chain.answer(&Options { exact: true, ..Options::default() }, None)?;
    /// assert_eq!(answers.exact().unwrap().reach_probability.to_string(), "1/3");
    /// assert!(answers.expected_steps().finite().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn answer(
        &self,
        options: &Options,
        stop: Option<&AtomicBool>,
    ) -> Result<Answers, AnswerError> {
        let stopped = || crate::stop::check(stop).map_err(|_| AnswerError::Stopped);
        let reach = classify(self);
        let live = Live::new(self, &reach);
        let n = live.len();
        // What the float answers cost: the live system's copy, its
        // factorisation, a handful of solves, and the distribution's steps
        // (counted by their own estimate below).
        let estimate = crate::Estimate::of_csr(&live.q);
        let vectors = 16 * (n as u64 + 1) * 8;
        let bytes = Csr::bytes_for(n, live.q.nnz()) + estimate.bytes + vectors;
        let work = estimate.factor_work + 8.0 * estimate.solve_work;
        check(work, bytes, options)?;
        stopped()?;
        let solver = Solver::from_csr(&live.q)?;
        stopped()?;
        let t_live = solver.expected_steps();
        let delta = live.residual(&vec![1.0; n], &t_live);
        let x_live = solver.solve(&live.to_target);
        let x_bounds = live.bounds(&live.to_target, &x_live, &t_live, delta);
        let t_bounds = live.bounds(&vec![1.0; n], &t_live, &t_live, delta);
        let scatter = |live_values: &[f64], on_target: f64| -> Vec<f64> {
            (0..self.len())
                .map(|s| match live.index[s] {
                    u32::MAX if self.target[s] => on_target,
                    u32::MAX => 0.0,
                    k => live_values[k as usize],
                })
                .collect()
        };
        let reach_probabilities = scatter(&x_live, 1.0);
        let reach_bounds = scatter(&x_bounds, 0.0);
        let steps = scatter(&t_live, 0.0);
        let steps_bounds = scatter(&t_bounds, 0.0);
        let reach_probability = weigh(&self.initial, &reach_probabilities, &reach_bounds);
        let sure_start = self
            .initial
            .iter()
            .all(|&(s, _)| matches!(reach[s as usize], Reach::Surely | Reach::Target));
        let expected_steps = if sure_start {
            Expectation::Finite(weigh(&self.initial, &steps, &steps_bounds))
        } else {
            Expectation::Infinite
        };
        stopped()?;
        // E[T²] = N·(2t − 1) on sure states; its right-hand side carries
        // t's error twice over.
        let variance = if sure_start {
            let b: Vec<f64> = t_live.iter().map(|t| 2.0 * t - 1.0).collect();
            let m2 = solver.solve(&b);
            let t_worst = t_bounds.iter().copied().fold(0.0, f64::max);
            let m2_bounds: Vec<f64> = live
                .bounds(&b, &m2, &t_live, delta)
                .iter()
                .zip(&t_live)
                .map(|(r, t)| r + 2.0 * t_worst * t / (1.0 - delta))
                .collect();
            let m2 = weigh(&self.initial, &scatter(&m2, 0.0), &scatter(&m2_bounds, 0.0));
            let mean = expected_steps.finite().expect("finite on a sure start");
            let value = m2.value - mean.value * mean.value;
            let error_bound = m2.error_bound
                + 2.0 * mean.value * mean.error_bound
                + mean.error_bound * mean.error_bound
                + gamma(2) * (m2.value.abs() + mean.value * mean.value);
            Expectation::Finite(Bounded { value, error_bound })
        } else {
            Expectation::Infinite
        };
        let expected_reward = self.rewards.as_ref().map(|rewards| {
            if !sure_start {
                return Expectation::Infinite;
            }
            let b: Vec<f64> = live.states.iter().map(|&s| rewards[s]).collect();
            let x = solver.solve(&b);
            let bounds = live.bounds(&b, &x, &t_live, delta);
            Expectation::Finite(weigh(
                &self.initial,
                &scatter(&x, 0.0),
                &scatter(&bounds, 0.0),
            ))
        });
        stopped()?;
        let (visits, visits_bounds) = self.visits(&live, &solver, &t_live, delta);
        let never_reached_from_initial = self.never_reached(&reach);
        let distribution = if options.distribution {
            Some(self.distribution(&live, options, stop)?)
        } else {
            None
        };
        let exact = if options.exact {
            Some(self.exact_answers(&live, &reach, sure_start, options, stop)?)
        } else {
            None
        };
        Ok(Answers {
            reach,
            reach_probabilities,
            reach_bounds,
            steps,
            steps_bounds,
            visits,
            visits_bounds,
            reach_probability,
            expected_steps,
            variance,
            expected_reward,
            never_reached_from_initial,
            distribution,
            exact,
        })
    }

    /// The initial row of the fundamental matrix over the live states,
    /// `(I − Q)ᵀ·v = π`, with bounds: `|v − v̂|ⱼ ≤ ‖ρ‖₁ · max_i Nᵢⱼ` and
    /// `Nᵢⱼ ≤ Nⱼⱼ ≤ tⱼ / (1 − δ)`.
    fn visits(&self, live: &Live, solver: &Solver, t: &[f64], delta: f64) -> (Vec<f64>, Vec<f64>) {
        let n = live.len();
        let mut pi = vec![0.0; n];
        for &(s, p) in &self.initial {
            if live.index[s as usize] != u32::MAX {
                pi[live.index[s as usize] as usize] = p;
            }
        }
        let v = solver.solve_transpose(&pi);
        // ρ = π − (I − Q)ᵀ·v, in one pass over Q's rows.
        let mut r: Vec<f64> = pi.iter().zip(&v).map(|(p, x)| p - x).collect();
        let mut size: Vec<f64> = pi.iter().zip(&v).map(|(p, x)| p.abs() + x.abs()).collect();
        let mut terms = vec![2usize; n];
        for (i, &vi) in v.iter().enumerate() {
            for (j, q) in live.q.row(i) {
                r[j] += q * vi;
                size[j] += q * vi.abs();
                terms[j] += 1;
            }
        }
        let rho: f64 = (0..n)
            .map(|j| r[j].abs() + gamma(terms[j] + 2) * size[j])
            .sum();
        let bound = |j: usize| {
            if delta >= 1.0 {
                f64::INFINITY
            } else {
                rho * t[j] / (1.0 - delta) * (1.0 + 2.0 * UNIT)
            }
        };
        let mut visits = vec![0.0; self.len()];
        let mut bounds = vec![0.0; self.len()];
        for (k, &s) in live.states.iter().enumerate() {
            visits[s] = v[k];
            bounds[s] = bound(k);
        }
        (visits, bounds)
    }

    /// The states that never reach the target and that the initial
    /// distribution can reach, in increasing order.
    fn never_reached(&self, reach: &[Reach]) -> Vec<usize> {
        let mut seen = vec![false; self.len()];
        let mut stack: Vec<usize> = self.initial.iter().map(|&(s, _)| s as usize).collect();
        for &s in &stack {
            seen[s] = true;
        }
        while let Some(s) = stack.pop() {
            if self.target[s] {
                continue;
            }
            for (t, _) in self.row(s) {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        (0..self.len())
            .filter(|&s| seen[s] && reach[s] == Reach::Never)
            .collect()
    }

    /// The steps' distribution, stepped until the live chance is below
    /// [`TAIL`] or the work limit would pass.
    fn distribution(
        &self,
        live: &Live,
        options: &Options,
        stop: Option<&AtomicBool>,
    ) -> Result<Distribution, AnswerError> {
        let n = live.len();
        let step_work = (live.q.nnz() + 2 * n) as f64;
        let max_steps = (options.max_work / step_work.max(1.0)).min(1e7) as usize;
        let mut mass = vec![0.0; n];
        let mut start_hit = 0.0;
        let mut never = 0.0;
        for &(s, p) in &self.initial {
            match live.index[s as usize] {
                u32::MAX if self.target[s as usize] => start_hit += p,
                u32::MAX => never += p,
                k => mass[k as usize] = p,
            }
        }
        // Each live state's chance of leaving for a state that never
        // reaches the target, in one step.
        let to_never: Vec<f64> = live
            .states
            .iter()
            .enumerate()
            .map(|(k, _)| {
                (1.0 - live.to_target[k] - live.q.row(k).map(|(_, p)| p).sum::<f64>()).max(0.0)
            })
            .collect();
        let mut pmf = vec![start_hit];
        let mut cdf = vec![start_hit];
        let mut next = vec![0.0; n];
        let mut alive: f64 = mass.iter().sum();
        let widest = (0..n).map(|i| live.q.row(i).count()).max().unwrap_or(0);
        while alive >= TAIL && pmf.len() <= max_steps {
            if pmf.len() % 256 == 0 {
                crate::stop::check(stop).map_err(|_| AnswerError::Stopped)?;
            }
            let hit = crate::sparse::dot(&mass, &live.to_target);
            never += crate::sparse::dot(&mass, &to_never);
            live.q.vec_mul_into(&mass, &mut next);
            std::mem::swap(&mut mass, &mut next);
            alive = crate::sparse::sum(&mass);
            pmf.push(hit);
            let last = *cdf.last().expect("one entry");
            cdf.push((last + hit).min(1.0));
        }
        // Each step rounds every entry of the mass vector by at most a
        // relative γ of its row's width; the errors of all steps add up.
        let error_bound = pmf.len() as f64 * gamma(widest + 2);
        Ok(Distribution {
            pmf,
            cdf,
            tail: alive,
            never,
            error_bound,
        })
    }

    /// The certified fractions: one exact solve over the live states per
    /// right-hand side.
    fn exact_answers(
        &self,
        live: &Live,
        reach: &[Reach],
        sure_start: bool,
        options: &Options,
        stop: Option<&AtomicBool>,
    ) -> Result<ExactAnswers, AnswerError> {
        let not_exact = |why: &str| AnswerError::NotExact {
            why: why.to_string(),
        };
        let values = self
            .exact
            .as_ref()
            .ok_or_else(|| not_exact("some transition is a float"))?;
        let initial = self
            .initial_exact
            .as_ref()
            .ok_or_else(|| not_exact("some initial probability is a float"))?;
        for s in 0..self.len() {
            let sum: BigRational = values[self.offsets[s]..self.offsets[s + 1]].iter().sum();
            if !sum.is_one() {
                return Err(not_exact(&format!("row {s} sums to {sum}")));
            }
        }
        let n = live.len();
        let rows = |k: usize| {
            let s = live.states[k];
            (self.offsets[s]..self.offsets[s + 1]).filter_map(move |e| {
                let t = live.index[self.cols[e] as usize];
                (t != u32::MAX).then(|| (t as usize, &values[e]))
            })
        };
        let limits = exact::Limits {
            max_work: options.max_work,
            max_memory: options.max_memory,
        };
        let to_target: Vec<BigRational> = live
            .states
            .iter()
            .map(|&s| {
                (self.offsets[s]..self.offsets[s + 1])
                    .filter(|&e| self.target[self.cols[e] as usize])
                    .map(|e| values[e].clone())
                    .sum()
            })
            .collect();
        // A figure on every chain state: `on_target` on targets, zero on
        // states that never reach one, the solution on live ones; `sure`
        // keeps only the states that reach a target surely.
        let spread = |value: &dyn Fn(usize) -> BigRational, on_target: &BigRational, sure: bool| {
            (0..self.len())
                .map(|s| match live.index[s] {
                    u32::MAX if self.target[s] => Some(on_target.clone()),
                    u32::MAX => (!sure).then(BigRational::zero),
                    k => (!sure || reach[s] == Reach::Surely).then(|| value(k as usize)),
                })
                .collect::<Vec<_>>()
        };
        let weigh_exact = |per_state: &[Option<BigRational>]| {
            initial
                .iter()
                .map(|(s, p)| {
                    p * per_state[*s as usize]
                        .clone()
                        .unwrap_or_else(BigRational::zero)
                })
                .sum::<BigRational>()
        };
        let one = BigRational::one();
        let zero = BigRational::zero();
        let reach_from: Vec<BigRational> = if n == 0 {
            spread(&|_| BigRational::zero(), &one, false)
        } else {
            let system = System::from_rows(n, 0, rows, Some(&to_target));
            let x = exact::solve(&system, false, &limits, stop)?;
            spread(&|k| x.value(k), &one, false)
        }
        .into_iter()
        .map(|v| v.unwrap_or_else(BigRational::zero))
        .collect();
        let reach_probability = initial
            .iter()
            .map(|(s, p)| p * &reach_from[*s as usize])
            .sum::<BigRational>();
        let (mut expected_steps, mut variance, mut expected_reward) = (None, None, None);
        let (mut steps_from, mut reward_from) = (None, None);
        if sure_start {
            let (steps, second) = if n == 0 {
                (
                    spread(&|_| zero.clone(), &zero, true),
                    spread(&|_| zero.clone(), &zero, true),
                )
            } else {
                let system = System::from_rows(n, 0, rows, None);
                let t = exact::solve(&system, true, &limits, stop)?;
                (
                    spread(&|k| t.value(k), &zero, true),
                    spread(&|k| t.second_moment(k).expect("asked for"), &zero, true),
                )
            };
            let mean = weigh_exact(&steps);
            variance = Some(weigh_exact(&second) - &mean * &mean);
            expected_steps = Some(mean);
            steps_from = Some(steps);
            if self.rewards.is_some() {
                let rewards = self
                    .rewards_exact
                    .as_ref()
                    .ok_or_else(|| not_exact("some reward is a float"))?;
                let b: Vec<BigRational> = live.states.iter().map(|&s| rewards[s].clone()).collect();
                let per_state = if n == 0 {
                    spread(&|_| zero.clone(), &zero, true)
                } else {
                    let system = System::from_rows(n, 0, rows, Some(&b));
                    let x = exact::solve(&system, false, &limits, stop)?;
                    spread(&|k| x.value(k), &zero, true)
                };
                expected_reward = Some(weigh_exact(&per_state));
                reward_from = Some(per_state);
            }
        }
        Ok(ExactAnswers {
            reach_probability,
            expected_steps,
            variance,
            expected_reward,
            reach_from,
            steps_from,
            reward_from,
        })
    }
}

/// `Σ πᵢ·xᵢ` with its bound: the values' bounds weighed alike, and the
/// rounding of the sum.
fn weigh(initial: &[(u32, f64)], x: &[f64], bounds: &[f64]) -> Bounded {
    let (mut value, mut size, mut error) = (0.0, 0.0, 0.0);
    for &(s, p) in initial {
        value += p * x[s as usize];
        size += p * x[s as usize].abs();
        error += p * bounds[s as usize];
    }
    Bounded {
        value,
        error_bound: error * (1.0 + gamma(initial.len() + 1)) + gamma(initial.len() + 1) * size,
    }
}

fn check(work: f64, bytes: u64, options: &Options) -> Result<(), AnswerError> {
    if work > options.max_work {
        return Err(AnswerError::TooMuchWork {
            needed: work,
            limit: options.max_work,
        });
    }
    if bytes > options.max_memory {
        return Err(AnswerError::TooMuchMemory {
            needed: bytes,
            limit: options.max_memory,
        });
    }
    Ok(())
}
