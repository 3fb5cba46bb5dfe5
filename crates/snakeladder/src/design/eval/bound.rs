//! A number with a bound on its error, so that an update can say how far
//! its mean may be from the exact one and hand a variant whose bound is too
//! large back to a fresh solve ([`Update::Resolve`](super::Update::Resolve)).
//!
//! # The bound
//! The update's inputs are entries of `t = N·1`, `z = N·u` and columns of
//! `N`, each solved from non-negative right-hand sides by the sparse solver,
//! which never subtracts (module docs of `markov::sparse::sweep`): every
//! entry is a sum of non-negative products reached through at most one
//! backward sweep over the `n` states and the subtraction-free elimination
//! of the Schur complement, so it carries a relative error of at most a
//! few roundings per state it depends on. An input `x` is given the error
//! [`input_error`]`(n)·|x|`. The probabilities of a row of the board are
//! exact inputs (they are the chain's own numbers; the fresh solve reads
//! the same ones).
//!
//! The error is then carried through the update's own arithmetic to first
//! order: `e(a ± b) = e(a) + e(b)`, `e(a·b) = |a|·e(b) + |b|·e(a)`,
//! `e(a / b) = (e(a) + |a/b|·e(b)) / |b|` (infinite once `e(b) ≥ |b|/2`,
//! where the first order no longer holds), plus one rounding `ε·|result|`
//! per operation. So the bound grows exactly where the update cancels: a
//! denominator `1 − vᵀz` near 0, or a difference of two large means.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// The relative error given to each solved input on a chain of `n`
/// states: sixteen roundings per state (a backward sweep is, per state, a
/// row of at most a few multiply-adds and one division; the Schur
/// complement adds as many again).
pub(super) fn input_error(n: usize) -> f64 {
    16.0 * n.max(1) as f64 * f64::EPSILON
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
        } else {
            self.e / self.v.abs()
        }
    }

    fn rounded(v: f64, e: f64) -> Bounded {
        Bounded {
            v,
            e: e + f64::EPSILON * v.abs(),
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
