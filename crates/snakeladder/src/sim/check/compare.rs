//! The statistics of the cross-check, over plain numbers.
//!
//! Every comparison returns its statistic, the threshold it was held to and
//! the verdict. Thresholds come from a per-comparison error rate `α` (see
//! [`bonferroni`]): a correct engine crosses a threshold with probability at
//! most `α` (asymptotically, for the z-tests; exactly-bounded for the
//! Kolmogorov–Smirnov test).

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Which test a comparison used.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::SimulationConfig;
use snakeladder::{Board, Seed, check};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = check::check(&board, &config)?;
use snakeladder::check::Test;

assert_eq!(report.comparisons[0].test, Test::KolmogorovSmirnov);
assert!(report.comparisons.iter().any(|c| c.test == Test::ZMean));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// `|x̄ − μ| / se` against the two-sided normal quantile.
    ZMean,
    /// `|x̄ − μ| / se` with `se` estimated by the simulation, against the
    /// two-sided Student-t quantile.
    StudentT,
    /// `|p̂ − p| / √(p(1 − p)/n)` against the two-sided normal quantile.
    BinomialZ,
    /// `D = max_t |F_n(t) − F(t)|` against the Dvoretzky–Kiefer–Wolfowitz
    /// bound `√(ln(2/α) / 2n)`.
    KolmogorovSmirnov,
}

/// One exact figure against its simulated estimate.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::SimulationConfig;
use snakeladder::{Board, Seed, check};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = check::check(&board, &config)?;
let first = &report.comparisons[0];
assert_eq!(first.name, "turns: distribution");
assert_eq!(first.agrees, first.statistic <= first.threshold);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Comparison {
    /// What was compared, e.g. `"mean turns"`.
    pub name: String,
    /// The test.
    pub test: Test,
    /// The exact value (for the KS test, 0: the whole distribution).
    pub exact: f64,
    /// The simulated value (for the KS test, the distance `D`).
    pub simulated: f64,
    /// The test statistic: a z-score's absolute value, or `D`.
    /// (JSON: `null` for infinity: a simulation without spread that disagrees.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub statistic: f64,
    /// The largest statistic that agrees.
    pub threshold: f64,
    /// `statistic ≤ threshold`.
    pub agrees: bool,
}

/// A difference this small relative to the exact value counts as zero when
/// the standard error is zero (a deterministic figure): summing `f64`
/// probabilities in a different order moves them by a few ulps, far below
/// 1e-9.
pub const DETERMINISTIC_TOLERANCE: f64 = 1e-9;

/// The per-comparison error rate that keeps the family-wise rate of `m`
/// comparisons at most `family` (Bonferroni: `family / m`).
pub fn bonferroni(family: f64, m: usize) -> f64 {
    family / m.max(1) as f64
}

/// The two-sided normal critical value: the `z` with `P(|Z| > z) = α`,
/// `z = Φ⁻¹(1 − α/2)` from `statrs`'s inverse normal CDF.
pub fn normal_threshold(alpha: f64) -> f64 {
    let normal = Normal::standard();
    // Φ⁻¹(α/2) is accurate for tiny α, where 1 − α/2 would round.
    -normal.inverse_cdf(alpha / 2.0)
}

/// The two-sided Student-t critical value with `df` degrees of freedom:
/// the `t` with `P(|T_ν| > t) = α`, from `statrs`'s inverse t CDF. Used
/// when a standard error is itself estimated from `df + 1` independent
/// pieces; infinite for `df = 0` (no estimate of spread at all).
pub fn student_threshold(alpha: f64, df: u64) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    let t = StudentsT::new(0.0, 1.0, df as f64).expect("a positive df is a valid t law");
    -t.inverse_cdf(alpha / 2.0)
}

fn verdict(statistic: f64, threshold: f64) -> bool {
    statistic <= threshold
}

/// `|x̄ − μ| / se`, where `se` is the standard error of `x̄` from the exact
/// variance, against the normal threshold.
///
/// With `se = 0` (a figure that cannot vary) the statistic is 0 when the
/// values agree to [`DETERMINISTIC_TOLERANCE`] and infinite otherwise.
pub fn z_mean(name: &str, exact: f64, mean: f64, std_error: f64, alpha: f64) -> Comparison {
    z_mean_with(name, exact, mean, std_error, normal_threshold(alpha))
}

/// As [`z_mean`] with a standard error estimated from the simulation on
/// `df` degrees of freedom, held to the Student-t threshold
/// ([`student_threshold`]).
pub fn t_mean(
    name: &str,
    exact: f64,
    mean: f64,
    std_error: f64,
    df: u64,
    alpha: f64,
) -> Comparison {
    Comparison {
        test: Test::StudentT,
        ..z_mean_with(name, exact, mean, std_error, student_threshold(alpha, df))
    }
}

fn z_mean_with(name: &str, exact: f64, mean: f64, std_error: f64, threshold: f64) -> Comparison {
    let diff = (mean - exact).abs();
    let statistic = if std_error > 0.0 {
        diff / std_error
    } else if diff <= DETERMINISTIC_TOLERANCE * exact.abs().max(1.0) {
        0.0
    } else {
        f64::INFINITY
    };
    Comparison {
        name: name.to_string(),
        test: Test::ZMean,
        exact,
        simulated: mean,
        statistic,
        threshold,
        agrees: verdict(statistic, threshold),
    }
}

/// Binomial z of `hits` out of `n` against the exact probability `p`, with
/// the standard error under the hypothesis, `√(p(1 − p)/n)`.
pub fn binomial_z(name: &str, p: f64, hits: u64, n: u64, alpha: f64) -> Comparison {
    let std_error = (p * (1.0 - p) / n as f64).sqrt();
    let hat = hits as f64 / n as f64;
    Comparison {
        test: Test::BinomialZ,
        ..z_mean(name, p, hat, std_error, alpha)
    }
}

/// Kolmogorov–Smirnov distance between the empirical distribution of
/// `counts` (`(value, count)` pairs in increasing order of value, `n` in all)
/// and the exact CDF `cdf(t) = P(T ≤ t)`, held to the
/// Dvoretzky–Kiefer–Wolfowitz bound with Massart's constant,
/// `P(D > ε) ≤ 2·exp(−2nε²)`, so `ε = √(ln(2/α) / 2n)`. The bound holds for
/// every `n` and is conservative for a discrete distribution.
///
/// Both functions are steps that change only at integers, so `D` is the
/// largest gap at an integer `t` from 0 to the largest value seen.
pub fn kolmogorov_smirnov(
    name: &str,
    counts: &[(u64, u64)],
    cdf: impl Fn(u64) -> f64,
    alpha: f64,
) -> Comparison {
    let n: u64 = counts.iter().map(|(_, c)| c).sum();
    let mut d = 0.0_f64;
    let mut cum = 0_u64;
    let mut next = counts.iter().peekable();
    let last = counts.last().map_or(0, |(v, _)| *v);
    for t in 0..=last {
        while let Some(&&(v, c)) = next.peek() {
            if v > t {
                break;
            }
            cum += c;
            next.next();
        }
        d = d.max((cum as f64 / n as f64 - cdf(t)).abs());
    }
    let threshold = ((2.0 / alpha).ln() / (2.0 * n as f64)).sqrt();
    Comparison {
        name: name.to_string(),
        test: Test::KolmogorovSmirnov,
        exact: 0.0,
        simulated: d,
        statistic: d,
        threshold,
        agrees: verdict(d, threshold),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example the item's documentation gave while it was public.
    #[test]
    fn the_student_threshold_matches_the_tables() {
        // Tables: t(0.975, 30) = 2.042272.
        assert!((student_threshold(0.05, 30) - 2.042272).abs() < 1e-6);
    }

    /// The example the item's documentation gave while it was public.
    #[test]
    fn the_normal_threshold_of_five_percent() {
        assert!((normal_threshold(0.05) - 1.959964).abs() < 1e-6);
    }

    /// The example the item's documentation gave while it was public.
    #[test]
    fn bonferroni_splits_the_family_rate() {
        assert_eq!(bonferroni(1e-4, 10), 1e-5);
    }

    #[test]
    fn normal_thresholds_match_tables() {
        // Two-sided critical values from standard normal tables.
        for (alpha, z) in [(0.05, 1.959_964), (0.01, 2.575_829), (1e-4, 3.890_592)] {
            assert!((normal_threshold(alpha) - z).abs() < 1e-5, "{alpha}");
        }
    }

    #[test]
    fn student_thresholds_match_tables() {
        // t tables: t(0.995, 60) = 2.660283, t(0.975, 120) = 1.979930.
        assert!((student_threshold(0.01, 60) - 2.660_283).abs() < 1e-4);
        assert!((student_threshold(0.05, 120) - 1.979_930).abs() < 1e-5);
        assert!(student_threshold(1e-6, 1_000_000) - normal_threshold(1e-6) < 1e-4);
    }

    #[test]
    fn student_threshold_is_right_for_few_degrees_of_freedom() {
        // df = 3 has a closed-form CDF; its two-sided 1e-6 point is
        // 130.1550 (the old Cornish–Fisher expansion gave 58.2). Tables:
        // t(0.995, 3) = 5.840909, t(0.975, 1) = 12.706205.
        assert!((student_threshold(1e-6, 3) - 130.155).abs() < 1e-2);
        assert!((student_threshold(0.01, 3) - 5.840_909).abs() < 1e-5);
        assert!((student_threshold(0.05, 1) - 12.706_205).abs() < 1e-5);
        assert_eq!(student_threshold(0.05, 0), f64::INFINITY);
    }

    #[test]
    fn normal_threshold_for_tiny_rates() {
        // Φ⁻¹(1 − 0.5e-6) = 4.891638, Φ⁻¹(1 − 0.5e-9) = 6.109410.
        assert!((normal_threshold(1e-6) - 4.891_638).abs() < 1e-5);
        assert!((normal_threshold(1e-9) - 6.109_410).abs() < 1e-5);
    }

    #[test]
    fn z_mean_agrees_and_disagrees() {
        let ok = z_mean("m", 10.0, 10.03, 0.01, 1e-4);
        assert!(ok.agrees && (ok.statistic - 3.0).abs() < 1e-9);
        assert!(!z_mean("m", 10.0, 10.05, 0.01, 1e-4).agrees);
        assert!(z_mean("m", 1.0, 1.0, 0.0, 1e-4).agrees);
        assert!(!z_mean("m", 1.0, 1.001, 0.0, 1e-4).agrees);
    }

    #[test]
    fn binomial_z_uses_the_hypothesis_error() {
        // p = 0.5, n = 10_000: se = 0.005; 5_300 hits is z = 6.
        let c = binomial_z("p", 0.5, 5_300, 10_000, 1e-4);
        assert!((c.statistic - 6.0).abs() < 1e-9);
        assert!(!c.agrees);
        assert!(binomial_z("p", 0.5, 5_010, 10_000, 1e-4).agrees);
    }

    #[test]
    fn ks_distance_by_hand() {
        // Values 1, 1, 2, 3 against a uniform law on {1, 2, 3, 4}:
        // F_n = 0.5, 0.75, 1, F = 0.25, 0.5, 0.75 at t = 1, 2, 3: D = 0.25.
        let counts = [(1, 2), (2, 1), (3, 1)];
        let c = kolmogorov_smirnov("T", &counts, |t| (t.min(4) as f64) / 4.0, 0.05);
        assert!((c.statistic - 0.25).abs() < 1e-15);
        // DKW: √(ln 40 / 8).
        assert!((c.threshold - (40.0_f64.ln() / 8.0).sqrt()).abs() < 1e-15);
        assert!(c.agrees);
    }

    #[test]
    fn bonferroni_splits_the_rate() {
        assert_eq!(bonferroni(1e-4, 4), 2.5e-5);
        assert_eq!(bonferroni(1e-4, 0), 1e-4);
    }
}
