//! A number with a bound on its error, so that an update can say how far
//! its mean may be from the exact one and hand a variant whose bound is too
//! large back to a fresh solve ([`Update::Resolve`](super::Update::Resolve)).
//!
//! # The bound
//! The update's inputs are entries of `t = N·1`, `z = N·u` and columns of
//! `N`, each solved by the sparse solver from a non-negative right-hand
//! side `b`. Each carries an absolute error bound of its own
//! ([`InputError`]), a posteriori from its residual, or from the solver's
//! forward bound where that is smaller (docs/sparse-solver.md, "The
//! update's inputs"): for `x̂` solved from `(I − Q)·x = b`, with
//! `N = (I − Q)⁻¹ ≥ 0`, `x̂ − x = −N·r` for `r = b − (I − Q)·x̂`, so
//! `|x̂ − x| ≤ ‖r‖∞·t` entrywise. The target `x` is the solution for the
//! chain's own `f64` kernel and right-hand side, which the update and a
//! fresh solve of the changed board read alike; the probabilities of a
//! row of the board are exact inputs in the same sense.
//!
//! The error is then carried through the update's own arithmetic to first
//! order: `e(a ± b) = e(a) + e(b)`, `e(a·b) = |a|·e(b) + |b|·e(a)`,
//! `e(a / b) = (e(a) + |a/b|·e(b)) / |b|` (infinite once `e(b) ≥ |b|/2`,
//! where the first order no longer holds), plus one rounding `ε·|result|`
//! per operation. So the bound grows exactly where the update cancels: a
//! denominator `1 − vᵀz` near 0, or a difference of two large means.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// The error bound of every entry of one solved input vector `x̂`
/// (module docs): entry `p` is within `min(residual·t̂ₚ, relative·|x̂ₚ|)`
/// of the solution for the chain's kernel, `t̂` the computed `N·1`.
#[derive(Copy, Clone, Debug)]
pub(super) struct InputError {
    /// `‖r‖∞ / (1 − ρₜ)`: the residual of `x̂` against its right-hand side,
    /// scaled by the bound `tₚ ≤ t̂ₚ/(1 − ρₜ)` (`ρₜ` the residual of `t̂`).
    pub residual: f64,
    /// `τ/(1 − τ)` for the solver's forward bound `τ` relative to the
    /// solution (docs/figures.md §2b, with the kernel taken as exact), or
    /// infinite where that bound does not apply.
    pub relative: f64,
}

impl InputError {
    /// Entry `x` of the vector, at a state whose `t̂` is `t`.
    pub fn at(&self, x: f64, t: f64) -> Bounded {
        let by_residual = self.residual * t;
        let by_forward = self.relative * x.abs();
        let e = if x == 0.0 && self.relative.is_finite() {
            // The forward bound is a factor within exp(±E): an entry
            // computed as 0 is exactly 0.
            0.0
        } else {
            by_residual.min(by_forward)
        };
        Bounded {
            v: x,
            e: if e.is_nan() { f64::INFINITY } else { e },
        }
    }
}

/// A value and a bound on its distance from the exact value.
#[derive(Copy, Clone, Debug)]
pub(super) struct Bounded {
    /// The value, computed exactly as without the bound.
    pub v: f64,
    /// The bound on `|v − exact|`.
    pub e: f64,
}

impl Bounded {
    /// An exact number.
    pub fn exact(v: f64) -> Bounded {
        Bounded { v, e: 0.0 }
    }

    /// A solved input with relative error `rel`.
    #[cfg(test)]
    pub fn solved(v: f64, rel: f64) -> Bounded {
        Bounded {
            v,
            e: rel * v.abs(),
        }
    }

    /// The bound relative to the value (infinite for a zero value with an
    /// error).
    pub fn relative(&self) -> f64 {
        if self.e == 0.0 {
            0.0
        } else if self.e.is_nan() {
            f64::INFINITY
        } else {
            self.e / self.v.abs()
        }
    }

    /// Whether this is exactly 0.
    fn is_exact_zero(&self) -> bool {
        self.v == 0.0 && self.e == 0.0
    }

    /// `v` with the error `e` and its own rounding; a bound that is not a
    /// number (an infinite error times a zero value, an infinite value) is
    /// infinite.
    fn rounded(v: f64, e: f64) -> Bounded {
        let e = e + f64::EPSILON * v.abs();
        Bounded {
            v,
            e: if e.is_nan() { f64::INFINITY } else { e },
        }
    }
}

impl Add for Bounded {
    type Output = Bounded;
    fn add(self, o: Bounded) -> Bounded {
        Bounded::rounded(self.v + o.v, self.e + o.e)
    }
}

impl Sub for Bounded {
    type Output = Bounded;
    fn sub(self, o: Bounded) -> Bounded {
        Bounded::rounded(self.v - o.v, self.e + o.e)
    }
}

impl Neg for Bounded {
    type Output = Bounded;
    fn neg(self) -> Bounded {
        Bounded {
            v: -self.v,
            e: self.e,
        }
    }
}

impl Mul for Bounded {
    type Output = Bounded;
    fn mul(self, o: Bounded) -> Bounded {
        // An exact 0 makes the product exactly 0, whatever the other
        // factor's error (`0·∞` would be NaN).
        if self.is_exact_zero() || o.is_exact_zero() {
            return Bounded::exact(0.0);
        }
        Bounded::rounded(self.v * o.v, self.v.abs() * o.e + o.v.abs() * self.e)
    }
}

impl Div for Bounded {
    type Output = Bounded;
    fn div(self, o: Bounded) -> Bounded {
        let v = self.v / o.v;
        let e = if o.e * 2.0 >= o.v.abs() {
            f64::INFINITY
        } else {
            (self.e + v.abs() * o.e) / o.v.abs()
        };
        Bounded::rounded(v, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancellation_shows_in_the_bound() {
        let a = Bounded::solved(1.0, 1e-12);
        let b = Bounded::solved(1.0 - 1e-6, 1e-12);
        let d = a - b;
        // Two errors of 1e-12 on a difference of 1e-6.
        assert!(d.relative() > 1e-6 && d.relative() < 3e-6, "{d:?}");
        let q = Bounded::exact(1.0) / d;
        assert!(q.relative() > 1e-6, "{q:?}");
        // A denominator lost in its error has no first-order bound.
        let lost = Bounded::exact(1.0) / Bounded { v: 1e-3, e: 1e-3 };
        assert!(lost.e.is_infinite());
        let p = Bounded::solved(3.0, 1e-12) * Bounded::exact(2.0);
        assert_eq!(p.v, 6.0);
        assert!(p.relative() < 2e-12);
    }
}
