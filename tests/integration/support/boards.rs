//! Random boards for the property tests: one strategy for every module
//! that draws boards, with parameters for what those modules vary (the
//! board's size, how many jumps, which dice, how an extra roll's total is
//! fitted to the dice).
//!
//! Every value is drawn in the same order, from the same sub-strategies, as
//! the strategies this one replaced, so a fixed proptest seed (and every
//! saved failing case in `tests/proptest-regressions/`) still draws the
//! same boards.

use proptest::prelude::*;
use snakeladder::internals::{BoardSpec, DiceSpec, ExtraTurnSpec, RulesSpec};
use snakeladder::{Board, Chains, Entry, Overshoot};
use std::ops::{Range, RangeInclusive};

/// How the total that earns an extra roll (drawn from 1 to 12) is fitted
/// to the dice drawn beside it.
#[derive(Clone, Copy, Debug)]
pub enum ExtraRollOn {
    /// Kept as drawn: a total the dice cannot roll makes a board the
    /// validator refuses, so refusals are exercised too.
    AsDrawn,
    /// Lowered to the dice's highest total when above it.
    AtMostTheHighest,
    /// Moved into the totals the dice can roll, lowest to highest.
    Rollable,
}

impl ExtraRollOn {
    /// `on` fitted to `dice` as this rule says.
    fn fit(self, on: i64, dice: &DiceSpec) -> i64 {
        let (lowest, highest) = match (&dice.weights, dice.count, dice.faces) {
            (Some(w), _, _) => (1, w.len() as i64),
            (None, c, f) => (c.unwrap_or(1), c.unwrap_or(1) * f.unwrap_or(6)),
        };
        match self {
            ExtraRollOn::AsDrawn => on,
            ExtraRollOn::AtMostTheHighest => on.min(highest),
            ExtraRollOn::Rollable => on.min(highest).max(lowest),
        }
    }
}

/// Fair dice: one or two, of 2 to 6 faces.
pub fn fair_dice() -> impl Strategy<Value = DiceSpec> + Clone {
    (1i64..=2, 2i64..=6).prop_map(|(count, faces)| DiceSpec {
        count: Some(count),
        faces: Some(faces),
        weights: None,
    })
}

/// A rule set: every overshoot and chains rule, `dice`, an optional extra
/// roll (on a total fitted by `on`, at most 3 extra rolls, forfeit after at
/// most 3), entry on any roll three times in four, start on 0 or 1.
pub fn rules(
    dice: impl Strategy<Value = DiceSpec>,
    on: ExtraRollOn,
) -> impl Strategy<Value = RulesSpec> {
    (
        prop_oneof![
            Just(Overshoot::Stay),
            Just(Overshoot::Bounce),
            Just(Overshoot::Win)
        ],
        prop_oneof![Just(Chains::Forbid), Just(Chains::Follow)],
        dice,
        prop::option::of((
            1i64..=12,
            prop::option::of(0i64..=3),
            prop::option::of(1i64..=3),
        )),
        prop_oneof![3 => Just(Entry::Free), 1 => Just(Entry::Six)],
        0i64..=1,
    )
        .prop_map(move |(overshoot, chains, dice, extra, entry, start)| {
            let extra_turn = extra.map(|(drawn, max_extra, forfeit_after)| ExtraTurnSpec {
                on: on.fit(drawn, &dice),
                max_extra,
                forfeit_after,
            });
            RulesSpec {
                overshoot: Some(overshoot),
                chains: Some(chains),
                dice: Some(dice),
                extra_turn,
                entry: Some(entry),
                start: Some(start),
            }
        })
}

prop_compose! {
    /// A board file of `squares` squares with `jumps` random jumps (a pair
    /// of squares: a ladder when the first is lower, a snake when higher,
    /// nothing when equal) and [`rules`] of `dice` and `on`; often invalid.
    pub fn spec(
        squares: RangeInclusive<i64>,
        jumps: Range<usize>,
        dice: BoxedStrategy<DiceSpec>,
        on: ExtraRollOn,
    )(squares in squares)(
        squares in Just(squares),
        jumps in prop::collection::vec((1..squares, 1..=squares), jumps.clone()),
        rules in rules(dice.clone(), on),
    ) -> BoardSpec {
        let (mut ladders, mut snakes) = (Vec::new(), Vec::new());
        for (a, b) in jumps {
            if a < b { ladders.push([a, b]) } else if a > b { snakes.push([a, b]) }
        }
        BoardSpec { name: None, squares, width: None, ladders, snakes, rules: Some(rules), limits: None }
    }
}

/// The boards of [`spec`] the validating constructor accepts (the others
/// are drawn again).
pub fn valid(specs: impl Strategy<Value = BoardSpec>) -> impl Strategy<Value = Board> {
    specs.prop_filter_map("the validator refuses it", |s| Board::from_spec(&s).ok())
}
