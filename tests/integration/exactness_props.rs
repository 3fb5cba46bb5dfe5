//! The `f64` analysis against the exact rational computation on random
//! small boards (issue 13): every overshoot, chains, fair and loaded dice
//! (zero weights and near-zero weights, which make near-traps), capped,
//! forfeited and uncapped extra rolls, entry and start. Quantiles, min and
//! mode must be equal; the first 50 terms of the distribution within 1e-12
//! relative, and mean and variance within 1e-12 or the error bound the
//! analysis states for them, which must not pass 1e-9 (past it they are
//! recomputed exactly). 40 cases (about 3 s of CPU in the test build; raise
//! `cases` locally for a deeper search).

use crate::support::boards::{self, ExtraRollOn};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use proptest::prelude::*;
use snakeladder::analysis::Figure;
use snakeladder::internals::DiceSpec;
use snakeladder::internals::exact::IntegerKernel;
use snakeladder::internals::{Chain, exact};
use snakeladder::{Analysis, Board, Options};

/// Relative agreement asked of the `f64` figures (the figure).
const RELATIVE: f64 = 1e-12;

fn dice() -> impl Strategy<Value = DiceSpec> {
    let weight = prop_oneof![
        4 => (1u32..=9).prop_map(f64::from),
        1 => Just(0.0),
        1 => Just(1e-3),
        1 => Just(1e-4),
        1 => 0.01f64..1.0,
    ];
    prop_oneof![
        3 => boards::fair_dice(),
        2 => prop::collection::vec(weight, 2..=6).prop_map(|weights| DiceSpec {
            count: None,
            faces: None,
            weights: Some(weights),
        }),
    ]
}

pub(crate) fn valid_board() -> impl Strategy<Value = Board> {
    boards::valid(boards::spec(
        3..=24,
        0..6,
        dice().boxed(),
        ExtraRollOn::AtMostTheHighest,
    ))
}

fn f(x: &BigRational) -> f64 {
    x.to_f64().expect("a probability or moment converts")
}

#[track_caller]
fn close(float: f64, exact: &BigRational, what: &str) {
    close_to(float, exact, RELATIVE, what);
}

#[track_caller]
fn close_to(float: f64, exact: &BigRational, relative: f64, what: &str) {
    let e = f(exact);
    assert!(
        (float - e).abs() <= relative * e.abs() + 1e-300,
        "{what}: float {float:e}, exact {e:e} (relative {:e})",
        ((float - e) / e).abs()
    );
}

/// Exact terms of the length distribution as the integer kernel gives them:
/// `P(T = t) = nums[t − 1] / scaleᵗ` and `P(T ≤ t) = cums[t − 1] / scaleᵗ`
/// (`cum_t = cum_{t−1}·scale + num_t`), compared by cross-multiplying. No
/// fraction is reduced: summing reduced terms cost a gcd of numbers of
/// `t·bits(scale)` bits per addition, most of this test's time.
struct Terms {
    nums: Vec<BigInt>,
    cums: Vec<BigInt>,
    /// `scaleᵏ` for k = 0..=terms.
    powers: Vec<BigInt>,
}

impl Terms {
    fn new(kernel: &IntegerKernel, terms: usize) -> Terms {
        let nums = kernel.pmf(terms);
        let mut cums = Vec::with_capacity(terms);
        let mut powers = vec![BigInt::one()];
        let mut cum = BigInt::zero();
        for num in &nums {
            cum = cum * kernel.scale() + num;
            cums.push(cum.clone());
            powers.push(powers.last().unwrap() * kernel.scale());
        }
        Terms { nums, cums, powers }
    }

    fn len(&self) -> usize {
        self.nums.len()
    }

    /// The exact p-quantile (`p = a/b`): the first t with `P(T ≤ t) ≥ p`,
    /// if the terms reach it.
    fn quantile(&self, a: i64, b: i64) -> Option<usize> {
        let (a, b) = (BigInt::from(a), BigInt::from(b));
        (1..=self.len()).find(|&t| &self.cums[t - 1] * &b >= &a * &self.powers[t])
    }

    /// The mode (the first maximum), when the terms decide it: the largest
    /// term is above the mass left past the last one.
    fn decided_mode(&self) -> Option<usize> {
        // t is above the best so far b when num_t / scaleᵗ > num_b / scaleᵇ.
        let mut best = 1;
        for t in 2..=self.len() {
            if self.nums[t - 1] > &self.nums[best - 1] * &self.powers[t - best] {
                best = t;
            }
        }
        let last = self.len();
        let left = &self.powers[last] - &self.cums[last - 1];
        (&self.nums[best - 1] * &self.powers[last - best] > left).then_some(best)
    }
}

/// Most exact terms of the distribution a case computes: a near-trap's
/// games run for thousands of turns, and a loaded die's terms grow by ~60
/// bits a turn.
const MAX_TERMS: usize = 300;

/// Work allowed to the analysis's optional figures in these tests: enough
/// for every distribution of a board without a near-trap, so that a test
/// case takes milliseconds, not the minutes of a 10⁷-turn distribution.
const TEST_WORK: f64 = 1e8;

/// Checks one quantile: equal to the exact one when the exact terms reach
/// its level, else beyond them.
#[track_caller]
fn same_quantile(float: Option<usize>, terms: &Terms, a: i64, b: i64, what: &str) {
    match terms.quantile(a, b) {
        Some(t) => assert_eq!(float, Some(t), "{what}"),
        None => assert!(float.is_none_or(|t| t > terms.len()), "{what}: {float:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]

    fn float_analysis_equals_the_exact_one(board in valid_board()) {
        let json = serde_json::to_string(&board.spec()).unwrap();
        let options = Options::default().players([]).max_work(TEST_WORK);
        let a = Analysis::new(&board, &options).unwrap_or_else(|e| panic!("{e}: {json}"));
        let chain = Chain::compile(&board).unwrap();
        let (mean, variance) = exact::moments(&board, &chain).unwrap();
        let t = &a.turns;
        // The mean is within 1e-12, or within the error bound the analysis
        // states for it, which is never above 1e-9 (past it the mean is
        // recomputed exactly). A near-trap (escape chance 1e-4 a turn)
        // makes means of ~10⁴ turns whose bound is ~1e-11: the f64 kernel
        // itself is off by an ulp per entry, times the mean.
        let bound = t.mean_error_bound;
        prop_assert!(bound <= 1e-9, "bound {bound:e} of {json}");
        close_to(t.mean, &mean, RELATIVE.max(bound), &format!("mean of {json}"));
        // The variance is E[T²] − E[T]², a difference: its rounding is
        // relative to E[T²] = variance + mean², not to the variance (a
        // nearly certain game has a variance of 1e-3 under a mean² of
        // 300), and it comes from two solves: 100 times the mean's bound.
        let second = f(&variance) + f(&mean).powi(2);
        let allowed = RELATIVE.max(100.0 * bound) * second;
        prop_assert!(
            (t.variance - f(&variance)).abs() <= allowed,
            "variance of {}: float {:e}, exact {:e}", json, t.variance, f(&variance)
        );
        // And within the bound the analysis states for the variance, which
        // is never above 1e-9 (past it the variance is recomputed exactly).
        let vbound = t.variance_error_bound;
        prop_assert!(vbound <= 1e-9, "variance bound {vbound:e} of {json}");
        close_to(t.variance, &variance, RELATIVE.max(vbound), &format!("variance of {json}"));
        let pmf = exact::pmf(&board, &chain, 50).unwrap();
        let min = pmf.iter().position(|p| !p.is_zero()).map(|i| i + 1);
        if let Some(m) = min {
            prop_assert_eq!(t.min, Some(m), "min of {}", json);
        }
        let skipped = |figure| a.skipped.iter().any(|s| s.figure == figure);
        if skipped(Figure::Distribution) {
            // Games too long to follow turn by turn (a near-trap): no
            // distribution, and no figure from one.
            prop_assert!(t.mode.is_none() && t.median.is_none());
            return Ok(());
        }
        // The float distribution stops once less than 1e-12 is left, and
        // says so: terms past it are in its tail. Terms stepped turn by turn
        // are within 1e-12 relative; terms from the computed geometric tail
        // (past `decay.from_turn`, docs/figures.md §4a) carry the absolute
        // bound `decay.error` (at most 1e-13 summed over all of them), which
        // for a term of 5e-13 can be more than 1e-12 of it.
        let computed = t.decay.as_ref().and_then(|d| d.from_turn.map(|from| (from, d.error)));
        prop_assert!(computed.is_none_or(|(_, error)| error <= 1e-13));
        for (i, e) in pmf.iter().enumerate().take(t.pmf.len()) {
            let what = format!("P(T = {}) of {json}", i + 1);
            match computed {
                Some((from, error)) if i + 1 > from => {
                    let gap = (t.pmf[i] - f(e)).abs();
                    prop_assert!(gap <= error.max(RELATIVE * f(e)), "{what}: {} vs {:e}", t.pmf[i], f(e));
                }
                _ => close(t.pmf[i], e, &what),
            }
        }
        if t.pmf.len() <= pmf.len() {
            let seen: BigRational = pmf[..t.pmf.len()].iter().sum();
            let left = BigRational::from_integer(1.into()) - seen;
            let what = format!("P(T > {}) of {json}", t.pmf.len());
            match computed {
                Some((_, error)) => {
                    let gap = (t.tail - f(&left)).abs();
                    prop_assert!(gap <= error.max(RELATIVE * f(&left)), "{what}: {} vs {:e}", t.tail, f(&left));
                }
                None => close(t.tail, &left, &what),
            }
        }
        prop_assume!(!skipped(Figure::ExactTies));
        let terms = t.p99.unwrap_or(t.pmf.len()).clamp(50, MAX_TERMS) + 1;
        let exact_terms = Terms::new(&IntegerKernel::new(&board, &chain).unwrap(), terms);
        same_quantile(t.median, &exact_terms, 1, 2, &format!("median of {json}"));
        same_quantile(t.p90, &exact_terms, 9, 10, &format!("p90 of {json}"));
        same_quantile(t.p99, &exact_terms, 99, 100, &format!("p99 of {json}"));
        // The mode is the first maximum. Past the exact terms the mass left
        // is below the largest term seen, or the mode is not decided here.
        if let Some(mode) = exact_terms.decided_mode() {
            prop_assert_eq!(t.mode, Some(mode), "mode of {}", json);
        }
    }
}
