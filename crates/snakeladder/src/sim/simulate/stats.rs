//! Streaming statistics: exact integer sums, so merging batches in any order
//! gives the same bits, and no per-game storage.

use serde::Serialize;
use std::collections::BTreeMap;

/// Counts up to this value are kept in a dense vector; larger ones (rare
/// on any board a person plays) in an ordered map.
const DENSE_LIMIT: u64 = 1 << 16;

/// How often each value of a per-game count occurred.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Histogram {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
    total: u64,
}

impl Histogram {
    /// Records one observation.
    #[inline]
    pub fn record(&mut self, value: u64) {
        self.total += 1;
        match self.dense.get_mut(value as usize) {
            Some(count) => *count += 1,
            None => self.record_new(value),
        }
    }

    /// [`Histogram::record`] of a value past the dense vector: it grows the
    /// vector, or goes to the map. Rare, so kept out of the caller's code.
    #[cold]
    #[inline(never)]
    fn record_new(&mut self, value: u64) {
        if value < DENSE_LIMIT {
            let i = value as usize;
            self.dense.resize(i + 1, 0);
            self.dense[i] += 1;
        } else {
            *self.sparse.entry(value).or_insert(0) += 1;
        }
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: &Histogram) {
        if other.dense.len() > self.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (a, b) in self.dense.iter_mut().zip(&other.dense) {
            *a += b;
        }
        for (v, c) in &other.sparse {
            *self.sparse.entry(*v).or_insert(0) += c;
        }
        self.total += other.total;
    }

    /// Observations recorded.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How often `value` was recorded.
    #[cfg(test)]
    pub fn count(&self, value: u64) -> u64 {
        if value < DENSE_LIMIT {
            self.dense.get(value as usize).copied().unwrap_or(0)
        } else {
            self.sparse.get(&value).copied().unwrap_or(0)
        }
    }

    /// Every recorded value with its count, in increasing order of value.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(v, c)| (v as u64, *c))
            .chain(self.sparse.iter().map(|(v, c)| (*v, *c)))
    }

    /// The smallest value `t` with `F(t) ≥ p`, where `F` is the empirical
    /// distribution function (the same convention as the exact analysis);
    /// `None` when empty or `p` is outside [0, 1].
    pub fn quantile(&self, p: f64) -> Option<u64> {
        if self.total == 0 || !(0.0..=1.0).contains(&p) {
            return None;
        }
        // Compare counts, not floats: F(t) ≥ p  ⇔  cum ≥ p · n.
        let need = p * self.total as f64;
        let mut cum = 0_u64;
        let mut last = None;
        for (v, c) in self.iter() {
            cum += c;
            last = Some(v);
            if cum as f64 >= need {
                return Some(v);
            }
        }
        last
    }

    /// The smallest of the most frequent values.
    pub fn mode(&self) -> Option<u64> {
        let mut best: Option<(u64, u64)> = None;
        for (v, c) in self.iter() {
            if best.is_none_or(|(_, bc)| c > bc) {
                best = Some((v, c));
            }
        }
        best.map(|(v, _)| v)
    }

    /// `pmf[t − 1]` = share of observations equal to `t`, for `t` from 1 to
    /// the largest value; empty when that is past the dense range.
    pub fn pmf(&self) -> Vec<f64> {
        if !self.sparse.is_empty() || self.total == 0 {
            return Vec::new();
        }
        let n = self.total as f64;
        self.dense.iter().skip(1).map(|&c| c as f64 / n).collect()
    }

    /// The smallest recorded value.
    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(v, _)| v)
    }

    /// The largest recorded value.
    pub fn max(&self) -> Option<u64> {
        self.sparse
            .keys()
            .next_back()
            .copied()
            .or_else(|| self.dense.iter().rposition(|&c| c > 0).map(|i| i as u64))
    }
}

/// Exact running sums of a per-game count: n, Σx, Σx², and its histogram.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub n: u64,
    pub sum: u128,
    pub sum_sq: u128,
    pub histogram: Histogram,
}

impl Tally {
    #[inline]
    pub fn record(&mut self, x: u64) {
        self.n += 1;
        self.sum += u128::from(x);
        self.sum_sq += u128::from(x) * u128::from(x);
        self.histogram.record(x);
    }

    pub fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
        self.histogram.merge(&other.histogram);
    }

    pub fn summary(&self) -> SampleSummary {
        let (mean, variance) = moments(self.n, self.sum, self.sum_sq);
        let quantiles = QUANTILES
            .iter()
            .filter_map(|&p| {
                self.histogram
                    .quantile(p)
                    .map(|value| Quantile { p, value })
            })
            .collect();
        SampleSummary {
            mean,
            std_error: std_error(self.n, variance),
            variance,
            std_dev: variance.sqrt(),
            min: self.histogram.min().unwrap_or(0),
            max: self.histogram.max().unwrap_or(0),
            mode: self.histogram.mode().unwrap_or(0),
            median: self.histogram.quantile(0.5).unwrap_or(0),
            p90: self.histogram.quantile(0.9).unwrap_or(0),
            p99: self.histogram.quantile(0.99).unwrap_or(0),
            quantiles,
            pmf: self.histogram.pmf(),
        }
    }
}

/// The quantiles every summary reports.
pub const QUANTILES: [f64; 7] = [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99];

/// Mean and unbiased sample variance from exact integer sums: the only
/// rounding is the final conversion, so no cancellation can occur.
pub(crate) fn moments(n: u64, sum: u128, sum_sq: u128) -> (f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let mean = sum as f64 / n as f64;
    if n < 2 {
        return (mean, f64::NAN);
    }
    // n·Σx² − (Σx)² is exact in integers when it fits; it does for any run
    // this crate allows (Σx² < 2^64 · 2^40 leaves room), and falls back to
    // f64 otherwise.
    let n128 = u128::from(n);
    let centred = n128
        .checked_mul(sum_sq)
        .zip(sum.checked_mul(sum))
        .map(|(a, b)| (a - b) as f64)
        .unwrap_or_else(|| n as f64 * sum_sq as f64 - (sum as f64) * (sum as f64));
    (mean, centred / (n as f64 * (n as f64 - 1.0)))
}

/// Standard error of a mean: √(s² / n).
pub(crate) fn std_error(n: u64, variance: f64) -> f64 {
    (variance / n as f64).sqrt()
}

/// One quantile of a simulated count.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
let median = &report.turns.quantiles[3];
assert_eq!((median.p, median.value), (0.5, report.turns.median));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Quantile {
    /// The probability p.
    pub p: f64,
    /// The smallest value whose empirical distribution function reaches p.
    pub value: u64,
}

/// Mean, spread and quantiles of a per-game count (turns, rolls, …).
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::simulate::{SimulationConfig, simulate};
use snakeladder::{Board, Seed};

let board = Board::from_json_str(SMALL)?;
let config = SimulationConfig::new(2_000, Seed::new(1))?.with_players(2)?;
let report = simulate(&board, &config)?;
let turns = &report.turns;
assert!(turns.min <= turns.median && turns.median <= turns.p90 && turns.p90 <= turns.max);
assert_eq!(turns.min, 3); // the shortest game
assert!((turns.pmf.iter().sum::<f64>() - 1.0).abs() < 1e-9);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SampleSummary {
    /// Sample mean.
    pub mean: f64,
    /// Standard error of the mean, `std_dev / √n`.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub std_error: f64,
    /// Unbiased sample variance.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub variance: f64,
    /// Sample standard deviation.
    /// (JSON: `null` when one game cannot estimate it.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub std_dev: f64,
    /// Smallest value seen.
    pub min: u64,
    /// Largest value seen.
    pub max: u64,
    /// The smallest most frequent value.
    pub mode: u64,
    /// The 0.5 quantile.
    pub median: u64,
    /// The 0.9 quantile.
    pub p90: u64,
    /// The 0.99 quantile.
    pub p99: u64,
    /// The 0.01, 0.1, 0.25, 0.5, 0.75, 0.9 and 0.99 quantiles.
    pub quantiles: Vec<Quantile>,
    /// `pmf[t − 1]` = share of observations equal to `t`, up to the largest
    /// seen (as the analysis's `pmf`); empty past 65,536.
    pub pmf: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_counts_and_gives_quantiles() {
        let mut h = Histogram::default();
        for t in [3, 5, 5, 9] {
            h.record(t);
        }
        assert_eq!(h.total(), 4);
        assert_eq!(h.count(5), 2);
        assert_eq!(h.quantile(0.5), Some(5));
        assert_eq!(h.quantile(1.0), Some(9));
    }

    #[test]
    fn moments_match_a_hand_computation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x−5)² = 32, s² = 32/7.
        let mut t = Tally::default();
        for x in [2, 4, 4, 4, 5, 5, 7, 9] {
            t.record(x);
        }
        let s = t.summary();
        assert_eq!(s.mean, 5.0);
        assert!((s.variance - 32.0 / 7.0).abs() < 1e-15);
        assert_eq!((s.min, s.max, s.median), (2, 9, 4));
    }

    #[test]
    fn huge_values_go_to_the_sparse_part() {
        let mut h = Histogram::default();
        h.record(3);
        h.record(DENSE_LIMIT + 5);
        h.record(DENSE_LIMIT + 5);
        let mut g = Histogram::default();
        g.record(DENSE_LIMIT * 4);
        h.merge(&g);
        assert_eq!(h.count(DENSE_LIMIT + 5), 2);
        assert_eq!(h.max(), Some(DENSE_LIMIT * 4));
        assert_eq!(h.quantile(0.5), Some(DENSE_LIMIT + 5));
        assert_eq!(h.iter().count(), 3);
    }

    #[test]
    fn merge_is_the_same_as_recording_together() {
        let (mut a, mut b, mut all) = (Tally::default(), Tally::default(), Tally::default());
        for x in 0..100_u64 {
            let v = x * x % 37;
            if x % 3 == 0 {
                a.record(v)
            } else {
                b.record(v)
            }
            all.record(v);
        }
        a.merge(&b);
        assert_eq!(a, all);
    }

    #[test]
    fn mode_and_pmf_come_from_the_histogram() {
        let mut t = Tally::default();
        for x in [3, 5, 5, 9, 9] {
            t.record(x);
        }
        let s = t.summary();
        assert_eq!(s.mode, 5);
        assert_eq!(s.pmf.len(), 9);
        assert_eq!((s.pmf[4], s.pmf[8], s.pmf[0]), (0.4, 0.4, 0.0));
    }
}
