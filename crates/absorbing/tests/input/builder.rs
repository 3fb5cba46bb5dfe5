//! The builder's checks, one malformed input at a time.

use super::{kinds, lines};
use absorbing::{
    ChainBuilder, ErrorKind, MAX_PROBLEMS, MAX_STATES, Part, Place, ProblemKind, Role, Value,
    row_sum_tolerance,
};
use num_rational::BigRational;

fn q(s: &str) -> Value {
    s.parse().unwrap()
}

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// A valid two-state chain to break one piece at a time.
fn base() -> ChainBuilder {
    let mut b = ChainBuilder::new(2);
    b.row(0, [(0, 0.5), (1, 0.5)])
        .transition(1, 1, 1.0)
        .initial_state(0)
        .targets([1]);
    b
}

#[test]
fn the_base_chain_builds() {
    let chain = base().build().unwrap();
    assert_eq!(chain.len(), 2);
    assert_eq!(chain.entries(), 3);
    assert!(chain.exact_row(0).is_none(), "floats make no exact row");
}

#[test]
fn a_row_not_summing_to_one_is_named_with_its_sum() {
    let err = base().transition(1, 0, 0.25).build().unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::RowSum {
            state: 1,
            sum: Value::Float(1.25),
            entries: 2,
            tolerance: Some(row_sum_tolerance(2)),
        }]
    );
    // Exact rows are checked exactly: 1/3 + 1/3 + 1/3 is one, 1/3 + 2/5 is not.
    let mut b = ChainBuilder::new(3);
    b.row(0, [(0, q("1/3")), (1, q("1/3")), (2, q("1/3"))])
        .row(1, [(1, q("1/3")), (2, q("2/5"))])
        .initial_state(0)
        .targets([2]);
    let err = b.build().unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::RowSum {
            state: 1,
            sum: Value::Exact(r(11, 15)),
            entries: 2,
            tolerance: None,
        }]
    );
    assert_eq!(
        lines(&err),
        ["transitions[3]: the transitions out of state 1 sum to 11/15, not 1 (every entry exact)"]
    );
}

#[test]
fn exact_one_is_not_approximately_one() {
    // 1 - 2^-60 is within no float tolerance of one when exact.
    let tiny = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(2), 60));
    let almost = Value::Exact(BigRational::from_integer(1.into()) - tiny);
    let err = ChainBuilder::new(1)
        .transition(0, 0, almost)
        .initial_state(0)
        .targets([0])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::RowSum {
            tolerance: None,
            ..
        }]
    ));
}

#[test]
fn float_rows_are_held_to_a_few_ulps_per_entry() {
    let third = 1.0 / 3.0;
    let ok = ChainBuilder::new(3)
        .row(0, [(0, third), (1, third), (2, third)])
        .transition(1, 1, 1.0)
        .initial_state(0)
        .targets([2])
        .build();
    assert!(ok.is_ok(), "{:?}", ok.err().map(|e| e.to_string()));
    // PRISM's 1e-6 would accept six digits of a third; this does not.
    let err = ChainBuilder::new(3)
        .row(0, [(0, 0.333333), (1, 0.333333), (2, 0.333334 - 1e-9)])
        .transition(1, 1, 1.0)
        .initial_state(0)
        .targets([2])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::RowSum { state: 0, .. }]
    ));
}

#[test]
fn negative_nan_and_infinite_entries_are_named_once_each() {
    let mut b = ChainBuilder::new(3);
    b.row(0, [(1, -0.5), (2, 1.5)])
        .row(1, [(1, f64::NAN)])
        .row(2, [(2, f64::INFINITY)])
        .initial_state(0)
        .targets([2]);
    let err = b.build().unwrap_err();
    let k = kinds(&err);
    assert_eq!(
        k[0],
        ProblemKind::NegativeTransition {
            from: 0,
            to: 1,
            value: Value::Float(-0.5)
        }
    );
    assert_eq!(
        k[2],
        ProblemKind::TransitionNotFinite {
            from: 2,
            to: 2,
            value: Value::Float(f64::INFINITY)
        }
    );
    // NaN != NaN: check that one by shape.
    assert!(matches!(
        &kinds(&err)[1],
        ProblemKind::TransitionNotFinite { from: 1, to: 1, value: Value::Float(x) } if x.is_nan()
    ));
    // The rows with a bad entry are not also named for their sums.
    assert_eq!(err.problems().len(), 3);
    // -0.0 is zero, not negative.
    let ok = ChainBuilder::new(1)
        .transition(0, 0, 1.0)
        .transition(0, 0, -0.0)
        .initial_state(0)
        .targets([0])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&ok)[..],
        [ProblemKind::DuplicateTransition { .. }]
    ));
}

#[test]
fn out_of_range_states_name_their_role() {
    let mut b = ChainBuilder::new(2);
    b.transition(0, 7, 1.0)
        .transition(9, 1, 1.0)
        .transition(1, 1, 1.0)
        .initial_distribution(&[(5, 1.0)])
        .targets([1, 4])
        .state_reward(6, 1.0);
    let err = b.build().unwrap_err();
    let roles: Vec<(Role, u64)> = kinds(&err)
        .into_iter()
        .filter_map(|k| match k {
            ProblemKind::StateOutOfRange {
                role,
                state,
                states: 2,
            } => Some((role, state)),
            _ => None,
        })
        .collect();
    assert_eq!(
        roles,
        [
            (Role::To, 7),
            (Role::From, 9),
            (Role::Target, 4),
            (Role::Initial, 5),
            (Role::Reward, 6)
        ]
    );
    // Each names the item it came from.
    let places: Vec<Place> = err
        .problems()
        .iter()
        .map(|p| p.location().place().clone())
        .collect();
    assert_eq!(
        places[0],
        Place::Item {
            part: Part::Transition,
            index: 0
        }
    );
    assert_eq!(
        places[1],
        Place::Item {
            part: Part::Transition,
            index: 1
        }
    );
    assert_eq!(
        places[2],
        Place::Item {
            part: Part::Target,
            index: 1
        }
    );
}

#[test]
fn duplicates_name_where_the_first_was() {
    let err = base().transition(0, 1, 0.5).build().unwrap_err();
    let [
        ProblemKind::DuplicateTransition {
            from: 0,
            to: 1,
            first,
        },
    ] = &kinds(&err)[..]
    else {
        panic!("{err}");
    };
    assert_eq!(
        first.place(),
        &Place::Item {
            part: Part::Transition,
            index: 1
        }
    );
    assert_eq!(
        err.problems()[0].location().place(),
        &Place::Item {
            part: Part::Transition,
            index: 3
        }
    );
    // Initial and reward duplicates too.
    let err = base()
        .initial_distribution(&[(0, 0.5), (0, 0.5)])
        .state_reward(1, 1.0)
        .state_reward(1, 2.0)
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [
            ProblemKind::DuplicateInitial { state: 0, .. },
            ProblemKind::DuplicateReward { state: 1, .. }
        ]
    ));
}

#[test]
fn a_state_without_a_row_is_a_deadlock_unless_a_target() {
    let err = ChainBuilder::new(3)
        .transition(0, 1, 1.0)
        .initial_state(0)
        .targets([2])
        .build()
        .unwrap_err();
    assert_eq!(kinds(&err), [ProblemKind::Deadlock { state: 1 }]);
    // A row-less target is absorbing.
    let chain = ChainBuilder::new(2)
        .transition(0, 1, 1.0)
        .initial_state(0)
        .targets([1])
        .build()
        .unwrap();
    assert_eq!(chain.row(1).collect::<Vec<_>>(), [(1, 1.0)]);
}

#[test]
fn target_rows_must_still_be_valid() {
    let err = ChainBuilder::new(2)
        .transition(0, 1, 1.0)
        .transition(1, 0, 0.5)
        .initial_state(0)
        .targets([1])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::RowSum { state: 1, .. }]
    ));
}

#[test]
fn an_empty_target_set_and_a_missing_initial_are_named() {
    let mut b = ChainBuilder::new(1);
    b.transition(0, 0, 1.0);
    assert_eq!(
        kinds(&b.build().unwrap_err()),
        [ProblemKind::NoTarget, ProblemKind::NoInitial]
    );
    b.targets([]).initial_distribution::<f64>(&[]);
    assert_eq!(
        kinds(&b.build().unwrap_err()),
        [ProblemKind::NoTarget, ProblemKind::NoInitial]
    );
}

#[test]
fn an_initial_distribution_must_sum_to_one() {
    let err = base()
        .initial_distribution(&[(0, q("1/2")), (1, q("1/3"))])
        .build()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::InitialSum {
            sum: Value::Exact(r(5, 6)),
            entries: 2,
            tolerance: None
        }]
    );
    let err = base()
        .initial_distribution(&[(0, -0.5), (1, 1.5)])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::NegativeInitial { state: 0, .. }]
    ));
    let chain = base()
        .initial_distribution(&[(0, 0.25), (1, 0.75), (0, 0.0)])
        .build();
    assert!(chain.is_err(), "a repeated state is named even with zero");
    let chain = base()
        .initial_distribution(&[(1, 0.75), (0, 0.25)])
        .build()
        .unwrap();
    assert_eq!(chain.initial(), [(0, 0.25), (1, 0.75)]);
}

#[test]
fn rewards_must_be_finite_and_not_negative_and_one_per_state() {
    let err = base().state_rewards(vec![1.0, -2.0]).build().unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::NegativeReward {
            state: 1,
            value: Value::Float(-2.0)
        }]
    );
    let err = base()
        .state_rewards(vec![f64::INFINITY, 0.0])
        .build()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::RewardNotFinite { state: 0, .. }]
    ));
    let err = base()
        .state_rewards(vec![1.0, 2.0, 3.0])
        .build()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::RewardCount {
            given: 3,
            states: 2
        }]
    );
    let chain = base()
        .state_rewards(vec![q("1/3"), q("0")])
        .build()
        .unwrap();
    assert_eq!(chain.rewards(), Some(&[1.0 / 3.0, 0.0][..]));
}

#[test]
fn an_exact_sum_too_large_to_check_is_named() {
    // Denominators with no common factor: each makes the sum's denominator
    // longer by about 3300 bits, past MAX_EXACT_BITS after twenty.
    let big = num_traits::pow(num_bigint::BigInt::from(10), 1000);
    let mut b = ChainBuilder::new(40);
    for i in 0..40u32 {
        let d = &big * num_bigint::BigInt::from(2 * i + 1) + 1;
        b.transition(0, i as usize, Value::Exact(BigRational::new(1.into(), d)));
    }
    let err = b.initial_state(0).targets(1..40).build().unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::ExactSumTooLarge { state: Some(0) }]
    );
}

#[test]
fn state_counts_are_bounded() {
    let err = ChainBuilder::new(0).build().unwrap_err();
    assert!(kinds(&err).contains(&ProblemKind::NoStates));
    let too_many = (MAX_STATES + 1) as usize;
    let err = ChainBuilder::new(too_many)
        .transition(0, 0, 1.0)
        .initial_state(0)
        .targets([0])
        .build()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::TooManyStates {
            states: MAX_STATES + 1
        }]
    );
}

#[test]
fn every_problem_is_named_but_the_list_is_capped() {
    let mut b = ChainBuilder::new(1);
    for i in 0..250 {
        b.transition(0, 1 + i, 1.0);
    }
    b.initial_state(0).targets([0]);
    let err = b.build().unwrap_err();
    assert_eq!(err.problems().len(), MAX_PROBLEMS);
    assert_eq!(err.omitted(), 150);
    let text = err.to_string();
    assert!(text.starts_with("250 problems:\n"), "{text}");
    assert!(text.ends_with("\n  and 150 more"), "{text}");
    let ErrorKind::Invalid { problems, omitted } = err.into_kind() else {
        panic!("not invalid")
    };
    assert_eq!((problems.len(), omitted), (MAX_PROBLEMS, 150));
}

#[test]
fn absorbing_states_are_single_self_loops_of_one() {
    let mut b = ChainBuilder::new(5);
    b.row(0, [(1, 0.5), (2, 0.5)])
        .transition(1, 1, q("1"))
        .row(2, [(2, 0.5), (3, 0.5)])
        .row(3, [(3, q("1")), (4, q("0"))])
        .transition(4, 0, 1.0);
    assert_eq!(b.absorbing_states(), [1, 3]);
    let chain = b.initial_state(0).absorbing_targets().build().unwrap();
    let targets: Vec<usize> = (0..5).filter(|&s| chain.is_target(s)).collect();
    assert_eq!(targets, [1, 3]);
}

#[test]
fn exact_values_keep_their_fractions_and_nearest_floats() {
    let chain = ChainBuilder::new(3)
        .row(0, [(1, q("0.1")), (2, q("0.9"))])
        .transition(1, 1, q("1"))
        .initial_state(0)
        .targets([2])
        .build()
        .unwrap();
    let exact: Vec<(usize, BigRational)> = chain
        .exact_row(0)
        .unwrap()
        .map(|(c, p)| (c, p.clone()))
        .collect();
    assert_eq!(exact, [(1, r(1, 10)), (2, r(9, 10))]);
    assert_eq!(chain.row(0).collect::<Vec<_>>(), [(1, 0.1), (2, 0.9)]);
}
