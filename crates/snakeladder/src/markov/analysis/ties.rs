//! Near-ties of the mode and the quantiles, decided in exact arithmetic.
//!
//! The mode is the smallest most likely t and a quantile the smallest t
//! with `P(T ≤ t) ≥ p`: both are decisions on equalities, which `f64`
//! terms can get wrong by an ulp (`P(T = 9) = P(T = 10) = 8⁸/9⁹` on one
//! board; `P(T ≤ 1) = 0.8999999999999999` for an exact 9/10 on another).
//! Every decision whose `f64` margin is within [`tolerance::TIE`] is
//! recomputed from the exact integer kernel
//! ([`IntegerKernel`](crate::markov::exact::IntegerKernel)); outside it the `f64`
//! decision is provably the exact one, because no term is off by that much.
//! When the exact terms would pass the work limit, the `f64` decision
//! stands and the analysis lists the tie-break as skipped.

use super::distribution::Distribution;
use super::limits::{Cost, Figure, Limits, Skipped};
use crate::Board;
use crate::markov::chain::Chain;
use crate::markov::exact::IntegerKernel;
use crate::markov::tolerance;
use num_bigint::BigInt;
use num_traits::{One, Pow};

/// The mode and the quantiles of the turns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The smallest most likely t.
    pub mode: Option<usize>,
    /// The smallest t with `P(T ≤ t) ≥ 1/2`.
    pub median: Option<usize>,
    /// … `≥ 9/10`.
    pub p90: Option<usize>,
    /// … `≥ 99/100`.
    pub p99: Option<usize>,
}

/// The quantile levels, as exact fractions and as `f64`.
const LEVELS: [(u32, u32); 3] = [(1, 2), (9, 10), (99, 100)];

/// What the `f64` terms leave open for one quantile: the answer is the
/// first t in `from..=to` whose exact `P(T ≤ t)` reaches the level, or
/// `to + 1` if none does.
#[derive(Copy, Clone, Debug)]
struct Open {
    from: usize,
    to: usize,
}

/// Decides the mode and quantiles of `dist`, exactly where the `f64` terms
/// are too close to call.
pub fn decide(
    board: &Board,
    chain: &Chain,
    dist: &Distribution,
    limits: &Limits,
) -> (Decided, Option<Skipped>) {
    let float = Decided {
        mode: dist.mode(),
        median: dist.quantile(0.5),
        p90: dist.quantile(0.9),
        p99: dist.quantile(0.99),
    };
    let pmf = &dist.pmf;
    let top = pmf.iter().copied().fold(0.0, f64::max);
    let mode_candidates: Vec<usize> = if top > 0.0 {
        (1..=pmf.len())
            .filter(|&t| pmf[t - 1] >= top * (1.0 - tolerance::TIE))
            .collect()
    } else {
        Vec::new()
    };
    let cdf = dist.cdf();
    let open: Vec<Option<Open>> = LEVELS
        .iter()
        .map(|&(a, b)| {
            let p = f64::from(a) / f64::from(b);
            let close: Vec<usize> = (1..=cdf.len())
                .filter(|&t| (cdf[t - 1] - p).abs() <= tolerance::TIE)
                .collect();
            Some(Open {
                from: *close.first()?,
                to: *close.last()?,
            })
        })
        .collect();
    let needed = open
        .iter()
        .flatten()
        .map(|o| o.to)
        .chain(if mode_candidates.len() > 1 {
            mode_candidates.last().copied()
        } else {
            None
        })
        .max();
    let Some(terms) = needed else {
        return (float, None);
    };
    let kernel = match IntegerKernel::new(board, chain) {
        Ok(k) => k,
        Err(_) => {
            return (
                float,
                Some(Skipped {
                    figure: Figure::ExactTies,
                    cost: Cost::NoExact,
                }),
            );
        }
    };
    if let Some(skip) = limits.check(Figure::ExactTies, 0, kernel.pmf_work(terms)) {
        return (float, Some(skip));
    }
    let numerators = kernel.pmf(terms);
    let scale = kernel.scale();
    let mode = if mode_candidates.len() > 1 {
        // term t is numerators[t − 1] / scaleᵗ; compare a < b as
        // num_a·scale^(b − a) against num_b.
        let mut best = mode_candidates[0];
        for &t in &mode_candidates[1..] {
            let lhs = &numerators[best - 1] * Pow::pow(scale, (t - best) as u32);
            if numerators[t - 1] > lhs {
                best = t;
            }
        }
        Some(best)
    } else {
        float.mode
    };
    let mut quantiles = [float.median, float.p90, float.p99];
    // The cdf numerators over scaleᵗ, and scaleᵗ itself.
    let mut cumulative = BigInt::from(0);
    let mut power = BigInt::one();
    let mut cdf_exact = Vec::with_capacity(terms);
    for num in &numerators {
        cumulative = cumulative * scale + num;
        power *= scale;
        cdf_exact.push((cumulative.clone(), power.clone()));
    }
    for (i, (o, &(a, b))) in open.iter().zip(&LEVELS).enumerate() {
        let Some(o) = o else { continue };
        let reached = (o.from..=o.to).find(|&t| {
            let (c, d) = &cdf_exact[t - 1];
            c * BigInt::from(b) >= d * BigInt::from(a)
        });
        quantiles[i] = match reached {
            Some(t) => Some(t),
            None if o.to < pmf.len() => Some(o.to + 1),
            None => None,
        };
    }
    (
        Decided {
            mode,
            median: quantiles[0],
            p90: quantiles[1],
            p99: quantiles[2],
        },
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markov::analysis::distribution;

    fn decided(json: &str) -> Decided {
        let board = Board::from_json_str(json).unwrap();
        let chain = Chain::compile(&board).unwrap();
        let dist = distribution::from_state(&chain, chain.start());
        let (d, skipped) = decide(&board, &chain, &dist, &Limits::default());
        assert!(skipped.is_none());
        d
    }

    #[test]
    fn an_exact_tie_of_two_terms_goes_to_the_smaller_t() {
        // P(T = 9) = P(T = 10) = 8⁸/9⁹ (issue 13): the mode is 9.
        let d = decided(r#"{"squares": 10, "rules": {"dice": {"faces": 9}, "entry": "six"}}"#);
        assert_eq!(d.mode, Some(9));
    }

    #[test]
    fn a_cdf_exactly_at_the_level_reaches_it() {
        // P(T ≤ 1) = 9/10 exactly: p90 is 1, the median 1, p99 2.
        let d = decided(r#"{"squares": 2, "rules": {"dice": {"faces": 10}, "overshoot": "win"}}"#);
        assert_eq!((d.median, d.p90, d.p99), (Some(1), Some(1), Some(2)));
        assert_eq!(d.mode, Some(1));
    }
}
