//! The answers against closed forms worked by hand, and the float answers
//! against the certified fractions of the same chains: every float must lie
//! within its printed bound of the fraction.

use absorbing::answers::Options;
use absorbing::{ChainBuilder, Expectation, Reach, Value};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use proptest::prelude::*;

fn frac(p: i64, q: i64) -> Value {
    Value::Exact(BigRational::new(p.into(), q.into()))
}

fn exact() -> Options {
    Options {
        exact: true,
        ..Options::default()
    }
}

/// Gambler's ruin on 0..=n, winning each bet with `p/q`, from `start`.
fn ruin(n: usize, p: i64, q: i64, start: usize) -> ChainBuilder {
    let mut b = ChainBuilder::new(n + 1);
    b.transition(0, 0, frac(1, 1));
    b.transition(n, n, frac(1, 1));
    for s in 1..n {
        b.transition(s, s + 1, frac(p, q));
        b.transition(s, s - 1, frac(q - p, q));
    }
    b.initial_state(start);
    b
}

/// The fraction as `f64`.
fn f(r: &BigRational) -> f64 {
    r.to_f64().unwrap()
}

#[track_caller]
fn within(value: f64, bound: f64, truth: f64) {
    assert!(
        (value - truth).abs() <= bound,
        "{value} is {:e} from {truth}, past its bound {bound:e}",
        (value - truth).abs()
    );
    assert!(
        bound <= 1e-9 * truth.abs().max(1.0),
        "bound {bound:e} is loose"
    );
}

/// A fair game: reaching n from i has probability i/n (the fortune is a
/// martingale), and the game lasts i·(n − i) bets on average.
#[test]
fn fair_ruin_matches_its_closed_form() {
    let (n, i) = (10, 3);
    let mut b = ruin(n, 1, 2, i);
    b.targets([n]);
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    let e = a.exact().unwrap();
    assert_eq!(e.reach_probability, BigRational::new(3.into(), 10.into()));
    within(
        a.reach_probability().value,
        a.reach_probability().error_bound,
        0.3,
    );
    // The target is missed with probability 7/10: the steps are infinite,
    // and 0 is named as the state that never reaches it.
    assert_eq!(a.expected_steps(), &Expectation::Infinite);
    assert_eq!(e.expected_steps, None);
    assert_eq!(a.never_reached_from_initial(), [0]);
    assert_eq!(a.reach()[0], Reach::Never);
    assert_eq!(a.reach()[5], Reach::Maybe);

    // Both ends as targets: absorption is sure, after i·(n − i) = 21 bets.
    let mut b = ruin(n, 1, 2, i);
    b.targets([0, n]);
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    let e = a.exact().unwrap();
    assert_eq!(e.expected_steps, Some(BigRational::from_integer(21.into())));
    let steps = a.expected_steps().finite().unwrap();
    within(steps.value, steps.error_bound, 21.0);
    // Each interior state's steps are j·(n − j).
    for j in 1..n {
        let s = a.expected_steps_from(j).finite().unwrap();
        within(s.value, s.error_bound, (j * (n - j)) as f64);
    }
}

/// An unfair game, p = 2/5: reaching n from i has probability
/// (1 − r^i)/(1 − r^n) with r = q/p = 3/2.
#[test]
fn unfair_ruin_matches_its_closed_form() {
    let (n, i) = (10u32, 4u32);
    let mut b = ruin(n as usize, 2, 5, i as usize);
    b.targets([n as usize]);
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    let r = BigRational::new(3.into(), 2.into());
    let one = BigRational::from_integer(1.into());
    let pow = |k: u32| (0..k).fold(one.clone(), |acc, _| acc * &r);
    let truth = (&one - pow(i)) / (&one - pow(n));
    assert_eq!(a.exact().unwrap().reach_probability, truth);
    within(
        a.reach_probability().value,
        a.reach_probability().error_bound,
        f(&truth),
    );
}

/// Knuth and Yao's fair die from fair coin flips: 11/3 flips on average;
/// the variance, worked by hand from P(T = 3 + 2k) = (3/4)(1/4)^k, is 16/9.
#[test]
fn the_knuth_yao_die_takes_eleven_thirds_flips() {
    let mut b = ChainBuilder::new(13);
    let half = || frac(1, 2);
    for (from, a, c) in [
        (0, 1, 2),
        (1, 3, 4),
        (2, 5, 6),
        (3, 1, 7),
        (4, 8, 9),
        (5, 10, 11),
        (6, 12, 2),
    ] {
        b.transition(from, a, half());
        b.transition(from, c, half());
    }
    for s in 7..13 {
        b.transition(s, s, frac(1, 1));
    }
    b.initial_state(0).absorbing_targets();
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    let e = a.exact().unwrap();
    assert_eq!(
        e.expected_steps,
        Some(BigRational::new(11.into(), 3.into()))
    );
    assert_eq!(e.variance, Some(BigRational::new(16.into(), 9.into())));
    let d = a.distribution().unwrap();
    assert_eq!(d.pmf[3], 0.75);
    assert_eq!(d.pmf[5], 0.1875);
    assert_eq!(d.quantile(0.5), Some(3));
    // Visits from the start: the start once, state 3 (the loop back)
    // 1/4 + 1/16 + … = 1/3 of a time.
    assert!((a.visits()[0] - 1.0).abs() <= a.visits_error_bounds()[0]);
    assert!((a.visits()[3] - 1.0 / 3.0).abs() <= a.visits_error_bounds()[3] + 1e-16);
}

/// A closed class that never reaches the target: a state that loops in it
/// forever makes the expectations infinite, and the graph analysis names it.
#[test]
fn a_closed_class_without_the_target_is_named() {
    let mut b = ChainBuilder::new(4);
    b.transition(0, 1, frac(1, 2));
    b.transition(0, 2, frac(1, 2));
    b.transition(1, 3, frac(1, 1));
    b.transition(2, 2, frac(1, 2));
    b.transition(2, 3, frac(1, 2));
    b.transition(3, 3, frac(1, 1));
    b.initial_state(0).targets([1]);
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    assert_eq!(
        a.reach(),
        [Reach::Maybe, Reach::Target, Reach::Never, Reach::Never]
    );
    assert_eq!(
        a.exact().unwrap().reach_probability,
        BigRational::new(1.into(), 2.into())
    );
    assert_eq!(a.expected_steps(), &Expectation::Infinite);
    assert_eq!(a.never_reached_from_initial(), [2, 3]);
}

/// Rewards: each step in a state earns its reward, the target's own is not
/// earned. Two states in a row, rewards 3 and 5, each left with 1/2 a
/// step: 2·3 + 2·5 = 16 on average.
#[test]
fn rewards_are_earned_per_step_until_the_target() {
    let mut b = ChainBuilder::new(3);
    b.transition(0, 0, frac(1, 2));
    b.transition(0, 1, frac(1, 2));
    b.transition(1, 1, frac(1, 2));
    b.transition(1, 2, frac(1, 2));
    b.transition(2, 2, frac(1, 1));
    b.initial_state(0).targets([2]);
    b.state_rewards(vec![frac(3, 1), frac(5, 1), frac(100, 1)]);
    let a = b.build().unwrap().answer(&exact(), None).unwrap();
    let e = a.exact().unwrap();
    assert_eq!(
        e.expected_reward,
        Some(BigRational::from_integer(16.into()))
    );
    let r = a.expected_reward().unwrap().finite().unwrap();
    within(r.value, r.error_bound, 16.0);
}

/// Fractions are refused, with the reason, for a chain given in floats.
#[test]
fn fractions_need_exact_entries() {
    let mut b = ChainBuilder::new(2);
    b.transition(0, 1, 1.0).transition(1, 1, 1.0);
    b.initial_state(0).targets([1]);
    let err = b.build().unwrap().answer(&exact(), None).unwrap_err();
    assert!(err.to_string().contains("float"), "{err}");
}

/// A random exact chain on `n` states: each state moves to up to four
/// others with weights 1..=9 over their sum, the last two states absorb.
fn random_chain() -> impl Strategy<Value = (usize, Vec<Vec<(usize, i64)>>, usize)> {
    (3usize..40).prop_flat_map(|n| {
        let rows =
            proptest::collection::vec(proptest::collection::vec((0..n, 1i64..10), 1..5), n - 2);
        (Just(n), rows, 0..n - 2)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every float lies within its bound of the certified fraction, on
    /// random chains that mix sure, maybe and never states.
    #[test]
    fn floats_lie_within_their_bounds_of_the_fractions((n, rows, start) in random_chain()) {
        let mut b = ChainBuilder::new(n);
        for (s, row) in rows.iter().enumerate() {
            let mut merged = std::collections::BTreeMap::new();
            for &(t, w) in row {
                *merged.entry(t).or_insert(0) += w;
            }
            let total: i64 = merged.values().sum();
            for (t, w) in merged {
                b.transition(s, t, frac(w, total));
            }
        }
        b.transition(n - 2, n - 2, frac(1, 1));
        b.transition(n - 1, n - 1, frac(1, 1));
        b.initial_state(start).targets([n - 1]);
        let chain = b.build().unwrap();
        let a = chain.answer(&exact(), None).unwrap();
        let e = a.exact().unwrap();
        let p = a.reach_probability();
        prop_assert!((p.value - f(&e.reach_probability)).abs() <= p.error_bound);
        match (a.expected_steps().finite(), &e.expected_steps) {
            (Some(t), Some(exact)) => {
                prop_assert!((t.value - f(exact)).abs() <= t.error_bound, "{} {} {}", t.value, f(exact), t.error_bound);
                let v = a.variance().finite().unwrap();
                let exact_v = f(e.variance.as_ref().unwrap());
                prop_assert!((v.value - exact_v).abs() <= v.error_bound, "{} {} {}", v.value, exact_v, v.error_bound);
            }
            (None, None) => prop_assert!(e.reach_probability < BigRational::from_integer(1.into())),
            (float, fraction) => prop_assert!(false, "{float:?} against {fraction:?}"),
        }
        // The distribution's mass adds up: reached + never + still live.
        let d = a.distribution().unwrap();
        let reached = *d.cdf.last().unwrap();
        prop_assert!((reached + d.never + d.tail - 1.0).abs() <= 1e-9);
        // Once the live mass is gone, what reached the target is its
        // probability.
        if d.tail < absorbing::answers::TAIL {
            prop_assert!((reached - p.value).abs() <= 1e-9);
        }
    }
}
