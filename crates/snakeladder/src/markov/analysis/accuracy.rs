//! How far the `f64` mean can be from the exact one, from the computed
//! solution alone.
//!
//! # Formula
//! The mean turns solve `A·x = 1` with `A = I − Q`, an M-matrix: `A⁻¹ ≥ 0`
//! and `A⁻¹·1 = x` itself. Two sources of error are bounded, each
//! componentwise and relative to `x`:
//! - **the solve.** For a computed `x̂` with residual `r = 1 − A·x̂`, the
//!   error is `A⁻¹r`, so `|x − x̂| ≤ ‖r‖∞·A⁻¹·1 = ‖r‖∞·x`: the largest
//!   residual *is* the relative error bound (`‖r‖/(1 − ‖r‖)` relative to
//!   `x̂`). The residual is computed in double-double arithmetic (error-free
//!   products and sums), so it is accurate even when `x̂` is 10¹⁶.
//! - **the kernel.** Every entry of the `f64` kernel is the exact one times
//!   `(1 + δ)` with `|δ| ≤ ε` ([`Chain::entry_rounding`] plus
//!   [`Chain::dropped`]). Then `x′ − x = A⁻¹·δQ·x′` and `A⁻¹Q = A⁻¹ − I`,
//!   so `|x′ − x| ≤ ε·‖x′‖∞·x`: a relative error of `ε·max x`, which is
//!   what makes a board whose games last 10¹³ turns ill-conditioned.
//!
//! The bound is the sum of the two; it is rigorous up to the rounding of
//! the residual itself and of `ε`.

use crate::markov::chain::{Chain, Target};

/// The least a computed number of turns may be and still be a solution:
/// one turn, less far more than any rounding of a solve.
const AT_LEAST_ONE: f64 = 1.0 - 1e-9;

/// `a·b` as an unevaluated sum `hi + lo`, exactly.
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let hi = a * b;
    (hi, a.mul_add(b, -hi))
}

/// `a + b` as `hi + lo`, exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// A double-double accumulator.
#[derive(Copy, Clone, Default)]
struct Acc {
    hi: f64,
    lo: f64,
}

impl Acc {
    fn add(&mut self, x: f64) {
        let (s, e) = two_sum(self.hi, x);
        self.hi = s;
        self.lo += e;
    }

    fn add_product(&mut self, a: f64, b: f64) {
        let (p, e) = two_product(a, b);
        self.add(p);
        self.lo += e;
    }

    fn value(self) -> f64 {
        self.hi + self.lo
    }
}

/// The largest residual `|1 − x̂ₛ + Σₑ Q(s, e)·x̂ₑ|` over the states,
/// computed in double-double.
pub fn residual(chain: &Chain, x: &[f64]) -> f64 {
    relative_residual(chain, x, None)
}

/// The largest `|bₛ − x̂ₛ + Σₑ Q(s, e)·x̂ₑ| / bₛ` over the states (b = 1 when
/// `None`), computed in double-double.
fn relative_residual(chain: &Chain, x: &[f64], b: Option<&[f64]>) -> f64 {
    let offsets = chain.row_offsets();
    let targets = chain.targets();
    let probabilities = chain.probabilities();
    let mut worst = 0.0_f64;
    for s in 0..chain.len() {
        let mut acc = Acc::default();
        let bs = b.map_or(1.0, |b| b[s]);
        acc.add(bs);
        acc.add(-x[s]);
        for k in offsets[s]..offsets[s + 1] {
            if let Target::State(e) = targets[k] {
                acc.add_product(probabilities[k], x[e.get()]);
            }
        }
        worst = worst.max(acc.value().abs() / bs);
    }
    if worst.is_nan() { f64::INFINITY } else { worst }
}

/// An upper bound on the relative error of every component of the mean
/// turns `x` (module docs); infinite when `x` is not a positive finite
/// solution at all.
pub fn mean_error_bound(chain: &Chain, x: &[f64]) -> f64 {
    if x.iter().any(|v| !v.is_finite() || *v < AT_LEAST_ONE) {
        // Every state needs at least one turn (less a rounding: a pivot
        // summed from its row may exceed 1 by an ulp).
        return f64::INFINITY;
    }
    let r = residual(chain, x);
    if r >= 0.5 {
        return f64::INFINITY;
    }
    let solve = r / (1.0 - r);
    let largest = x.iter().copied().fold(0.0, f64::max) * (1.0 + solve);
    let eps = chain.entry_rounding() + chain.dropped();
    let kernel = eps * largest;
    if kernel >= 0.5 {
        return f64::INFINITY;
    }
    solve + kernel / (1.0 - kernel)
}

/// An upper bound on the relative error of the variance of the turns from
/// `start`, `v = 2y − t − t²` with `y = N·t` (`moments::turns_and_visits`), given the
/// computed `t` (with its bound `mean_bound`, [`mean_error_bound`]) and `y`;
/// infinite when there is no finite positive variance to bound.
///
/// # Formula
/// `y` solves `A·y = t`, with `t ≥ 1`. As for the mean, with `A⁻¹ ≥ 0`:
/// - its residual `r = t̂ − A·ŷ` gives `|A⁻¹r| ≤ ρ·y` for
///   `ρ = maxₛ |rₛ|/t̂ₛ`;
/// - an error of `t̂` (relative `e₁`, componentwise) moves `y` by at most
///   `e₁·y`;
/// - a kernel perturbed by `ε` entrywise moves it by `ε·A⁻¹·Q·y ≤
///   ε·A⁻¹·y ≤ ε·maxₛ(yₛ/tₛ)·y` (as `Q·y ≤ y`).
///
/// So `y` is within `e_y = ρ/(1 − ρ) + e₁ + ε·max(y/t)` relative, and
/// `|δv| ≤ 2e_y·y + e₁·t + (2e₁ + e₁²)·t² + 4u·(2y + t + t²)`, the last term
/// the rounding of the difference itself. Relative to `v` this is large
/// exactly when `v` is a small difference of large terms (a nearly certain
/// game) or the chain is ill-conditioned.
pub fn variance_error_bound(
    chain: &Chain,
    t: &[f64],
    y: &[f64],
    mean_bound: f64,
    start: usize,
) -> f64 {
    if !mean_bound.is_finite() || y.iter().any(|v| !v.is_finite() || *v < AT_LEAST_ONE) {
        return f64::INFINITY;
    }
    let r = relative_residual(chain, y, Some(t));
    if r >= 0.5 {
        return f64::INFINITY;
    }
    let eps = chain.entry_rounding() + chain.dropped();
    let ratio = y.iter().zip(t).map(|(y, t)| y / t).fold(0.0_f64, f64::max);
    let e1 = mean_bound;
    let ey = r / (1.0 - r) + e1 + eps * ratio * (1.0 + r);
    let (ts, ys) = (t[start], y[start]);
    let variance = 2.0 * ys - ts - ts * ts;
    if variance.is_nan() || variance <= 0.0 {
        return f64::INFINITY;
    }
    let u = f64::EPSILON / 2.0;
    let error = 2.0 * ey * ys
        + e1 * ts
        + (2.0 * e1 + e1 * e1) * ts * ts
        + 4.0 * u * (2.0 * ys + ts + ts * ts);
    error / variance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::markov::analysis::solve::Solver;

    #[test]
    fn the_default_board_is_well_conditioned() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let x = Solver::new(&chain).unwrap().expected_turns();
        let bound = mean_error_bound(&chain, &x);
        assert!(bound < 1e-12, "{bound:e}");
    }

    #[test]
    fn the_default_board_variance_is_well_conditioned() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let solver = Solver::new(&chain).unwrap();
        let t = solver.expected_turns();
        let y = solver.solve(&t);
        let start = chain.start().get();
        let bound = variance_error_bound(&chain, &t, &y, mean_error_bound(&chain, &t), start);
        assert!(bound < 1e-11, "{bound:e}");
        // A wrong y has a bound that covers its error.
        let mut wrong = y.clone();
        wrong[start] *= 1.0 + 1e-8;
        let v = 2.0 * y[start] - t[start] - t[start] * t[start];
        let off = 2.0 * y[start] * 1e-8 / v;
        let b = variance_error_bound(&chain, &t, &wrong, mean_error_bound(&chain, &t), start);
        assert!(b >= off, "{b:e} < {off:e}");
    }

    #[test]
    fn a_wrong_solution_has_a_large_bound() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let mut x = Solver::new(&chain).unwrap().expected_turns();
        x[0] *= 1.001;
        assert!(mean_error_bound(&chain, &x) > 1e-4);
    }

    #[test]
    fn the_bound_covers_the_true_error_of_a_slow_board() {
        // Squares 2, d6, exact finish: from 1 only a 1 finishes, 6 turns;
        // from 0, 6 turns. A perturbed solution's bound covers its error.
        let chain = Chain::compile(&Board::from_json_str(r#"{"squares": 2}"#).unwrap()).unwrap();
        let x = vec![6.0 * (1.0 + 1e-10), 6.0];
        let bound = mean_error_bound(&chain, &x);
        assert!((1e-10..1e-8).contains(&bound), "{bound:e}");
    }
}
