//! Property tests of the foundation. Boards are built only through the
//! validating constructor; specs are random, so most break some rule.

use proptest::prelude::*;
use snakeladder::JumpKind;
use snakeladder::internals::BoardSpec;
use snakeladder::internals::DiceSpec;
use snakeladder::internals::{ExtraTurnSpec, RulesSpec};
use snakeladder::{Board, Chains, Entry, JumpRef, Overshoot, Problem, Square};
use std::collections::BTreeSet;

fn overshoot() -> impl Strategy<Value = Option<Overshoot>> {
    prop::option::of(prop_oneof![
        Just(Overshoot::Stay),
        Just(Overshoot::Bounce),
        Just(Overshoot::Win)
    ])
}

fn dice() -> impl Strategy<Value = Option<DiceSpec>> {
    prop::option::of(prop_oneof![
        (prop::option::of(0i64..4), prop::option::of(0i64..9)).prop_map(|(count, faces)| {
            DiceSpec {
                count,
                faces,
                weights: None,
            }
        }),
        prop::collection::vec(prop_oneof![Just(0.0), Just(-1.0), 0.0f64..4.0], 0..8).prop_map(
            |w| DiceSpec {
                weights: Some(w),
                ..DiceSpec::default()
            }
        ),
    ])
}

fn extra_turn() -> impl Strategy<Value = Option<ExtraTurnSpec>> {
    prop::option::of(
        (
            -1i64..14,
            prop::option::of(-1i64..4),
            prop::option::of(-1i64..4),
        )
            .prop_map(|(on, max_extra, forfeit_after)| ExtraTurnSpec {
                on,
                max_extra,
                forfeit_after,
            }),
    )
}

fn rules() -> impl Strategy<Value = Option<RulesSpec>> {
    prop::option::of(
        (
            overshoot(),
            prop::option::of(prop_oneof![Just(Chains::Forbid), Just(Chains::Follow)]),
            dice(),
            extra_turn(),
            prop::option::of(prop_oneof![Just(Entry::Free), Just(Entry::Six)]),
            prop::option::of(-1i64..3),
        )
            .prop_map(
                |(overshoot, chains, dice, extra_turn, entry, start)| RulesSpec {
                    overshoot,
                    chains,
                    dice,
                    extra_turn,
                    entry,
                    start,
                },
            ),
    )
}

/// A random spec: squares around a small range (with a few out of range),
/// jumps with ends anywhere from just below the board to just past it.
fn spec() -> impl Strategy<Value = BoardSpec> {
    (prop_oneof![8 => 2i64..80, 1 => -2i64..2], rules()).prop_flat_map(|(n, rules)| {
        let end = -1i64..=n + 2;
        let pair = (end.clone(), end).prop_map(|(a, b)| [a, b]);
        (
            prop::collection::vec(pair.clone(), 0..7),
            prop::collection::vec(pair, 0..7),
            prop::option::of(-1i64..12),
        )
            .prop_map(move |(ladders, snakes, width)| BoardSpec {
                name: None,
                squares: n,
                width,
                ladders,
                snakes,
                rules: rules.clone(),
                limits: None,
            })
    })
}

/// A random spec likely to be valid: jumps from distinct squares of the
/// board, each pair sorted into a ladder or a snake by its direction.
fn plausible_spec() -> impl Strategy<Value = BoardSpec> {
    (3i64..120, rules()).prop_flat_map(|(n, rules)| {
        let jumps = prop::collection::btree_map(2..n, 1..=n, 0..10);
        (jumps, Just(rules)).prop_map(move |(jumps, rules)| {
            let (mut ladders, mut snakes) = (Vec::new(), Vec::new());
            for (from, to) in jumps {
                if to > from {
                    ladders.push([from, to]);
                } else if to < from {
                    snakes.push([from, to]);
                }
            }
            BoardSpec {
                name: None,
                squares: n,
                width: None,
                ladders,
                snakes,
                rules,
                limits: None,
            }
        })
    })
}

/// A valid board, built through the validating constructor.
fn board() -> impl Strategy<Value = Board> {
    plausible_spec().prop_filter_map("invalid spec", |spec| Board::from_spec(&spec).ok())
}

/// A problem with the written position of its jumps erased (and the order of
/// a duplicate pair, which depends on which was written first), so problems
/// of shuffled lists can be compared.
fn normalised(p: &Problem) -> String {
    fn jump(j: &JumpRef) -> String {
        let list = if j.list == JumpKind::Ladder {
            "ladder"
        } else {
            "snake"
        };
        format!("{list} {}→{}", j.from, j.to)
    }
    match p {
        Problem::JumpStartsOnStart { jump: j, .. }
        | Problem::JumpStartsOnLast { jump: j, .. }
        | Problem::JumpStartOffBoard { jump: j, .. }
        | Problem::JumpEndOffBoard { jump: j, .. }
        | Problem::JumpGoesNowhere { jump: j }
        | Problem::SnakeClimbs { jump: j }
        | Problem::LadderDescends { jump: j } => format!("{} {}", p.kind(), jump(j)),
        Problem::DuplicateStart { square, .. } => format!("duplicate_start {square}"),
        Problem::Chain { jump: j, next, .. } => format!("chain {} {}", jump(j), jump(next)),
        other => other.to_string(),
    }
}

fn sorted_problems(spec: &BoardSpec) -> Vec<String> {
    let mut found: Vec<String> = Board::problems(spec).iter().map(normalised).collect();
    found.sort();
    found
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Each kind of problem that can be told from one field or one jump is
    /// reported exactly where an independent reading of the spec says it
    /// must be (`expected_problems`, written from the README's rules, not
    /// from the validator).
    #[test]
    fn each_problem_kind_matches_an_independent_predicate(spec in spec()) {
        let found: BTreeSet<String> = Board::problems(&spec)
            .iter()
            .filter_map(located)
            .collect();
        let (expected, checked_kinds) = expected_problems(&spec);
        let found: BTreeSet<String> = found
            .into_iter()
            .filter(|f| checked_kinds.iter().any(|k| f.starts_with(k)))
            .collect();
        prop_assert_eq!(found, expected);
    }

    /// A board the constructor accepts has no problem, and a spec with a
    /// problem is refused with exactly that list.
    #[test]
    fn the_constructor_refuses_with_the_problems_named(spec in prop_oneof![spec(), plausible_spec()]) {
        let problems = Board::problems(&spec);
        match Board::from_spec(&spec) {
            Ok(_) => prop_assert!(problems.is_empty()),
            Err(err) => prop_assert_eq!(err.problems(), &problems[..]),
        }
    }

    /// Validation is deterministic, and shuffling the jump lists gives the
    /// same problems (up to the positions the jumps are named by).
    #[test]
    fn validation_is_deterministic_and_independent_of_jump_order(
        spec in prop_oneof![spec(), plausible_spec()],
        seed in any::<u64>(),
    ) {
        prop_assert_eq!(Board::problems(&spec), Board::problems(&spec));
        let mut shuffled = spec.clone();
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        shuffled.ladders.shuffle(&mut rng);
        shuffled.snakes.shuffle(&mut rng);
        prop_assert_eq!(sorted_problems(&spec), sorted_problems(&shuffled));
        prop_assert_eq!(Board::from_spec(&spec).is_ok(), Board::from_spec(&shuffled).is_ok());
    }

    /// From every square of a valid board, every roll (those the dice can make
    /// and any other up to 3 × N) lands and ends on 0..=N, and the move
    /// function is pure: the same inputs give the same move, on a clone too.
    #[test]
    fn moves_never_leave_the_board_and_are_pure(board in board(), extra in 0u32..400) {
        let last = board.last();
        let twin = board.clone();
        let mut rolls: Vec<u32> = board.rules().dice().outcomes().map(|(total, _)| total).collect();
        rolls.push(extra);
        for s in 0..=last.get() {
            for &roll in &rolls {
                let mv = board.move_token(Square::new(s), roll);
                prop_assert!(mv.landing <= last && mv.end <= last, "{:?}", mv);
                prop_assert_eq!(mv.finished, mv.end == last);
                prop_assert_eq!(&mv, &board.move_token(Square::new(s), roll));
                prop_assert_eq!(&mv, &twin.move_token(Square::new(s), roll));
                for before in 0..3 {
                    let step = board.play_roll(Square::new(s), before, roll);
                    prop_assert!(step.end <= last, "{:?}", step);
                    prop_assert_eq!(step.finished, step.end == last);
                    prop_assert_eq!(&step, &board.play_roll(Square::new(s), before, roll));
                }
            }
        }
    }

    /// A valid board's own spec builds the same board.
    #[test]
    fn a_board_round_trips_through_its_spec(board in board()) {
        let again = Board::from_spec(&board.spec()).unwrap();
        prop_assert_eq!(&again, &board);
        let json = serde_json::to_string(&board.spec()).unwrap();
        prop_assert_eq!(&Board::from_json_str(&json).unwrap(), &board);
    }
}

/// A problem as `kind list[index]` (or `kind` for a problem of the whole
/// file), for comparison with [`expected_problems`]; `None` for kinds that
/// test does not predict.
fn located(p: &Problem) -> Option<String> {
    fn at(j: &JumpRef) -> String {
        let list = if j.list == JumpKind::Ladder {
            "ladders"
        } else {
            "snakes"
        };
        format!("{list}[{}]", j.index)
    }
    match p {
        Problem::JumpStartsOnLast { jump, .. }
        | Problem::JumpEndOffBoard { jump, .. }
        | Problem::JumpGoesNowhere { jump }
        | Problem::SnakeClimbs { jump }
        | Problem::LadderDescends { jump } => Some(format!("{} {}", p.kind(), at(jump))),
        Problem::SquaresOutOfRange { .. }
        | Problem::WidthOutOfRange { .. }
        | Problem::StartOutOfRange { .. }
        | Problem::DiceCount { .. }
        | Problem::WeightNegative { .. }
        | Problem::WeightNotFinite { .. } => Some(p.kind().to_string()),
        _ => None,
    }
}

/// The problems a spec must have, read from the README's rules without the
/// validator: for each kind, whether it applies. Returns them with the kinds
/// it predicted. Jump and width checks need a board size to check against,
/// so they are predicted only when `squares` is in range and the jumps fit
/// on the board (with too many jumps the file is refused at once).
fn expected_problems(spec: &BoardSpec) -> (BTreeSet<String>, Vec<&'static str>) {
    let mut expected = BTreeSet::new();
    let mut kinds = vec![
        "squares_out_of_range",
        "start_out_of_range",
        "dice_count",
        "weight_negative",
        "weight_not_finite",
    ];
    let n = spec.squares;
    let n_ok = (2..=i64::from(snakeladder::Board::MAX_SQUARES)).contains(&n);
    if !n_ok {
        expected.insert("squares_out_of_range".to_string());
    }
    let rules = spec.rules.clone().unwrap_or_default();
    if let Some(start) = rules.start
        && start != 0
        && start != 1
    {
        expected.insert("start_out_of_range".to_string());
    }
    if let Some(dice) = &rules.dice {
        if dice.weights.is_none() {
            if let Some(count) = dice.count
                && !(1..=i64::from(snakeladder::Dice::MAX_DICE)).contains(&count)
            {
                expected.insert("dice_count".to_string());
            }
        } else if dice.count.is_none() && dice.faces.is_none() {
            let w = dice.weights.as_deref().unwrap_or_default();
            if w.iter().any(|&x| x < 0.0) {
                expected.insert("weight_negative".to_string());
            }
            if w.iter().any(|x| !x.is_finite()) {
                expected.insert("weight_not_finite".to_string());
            }
        }
    }
    let jumps = spec.ladders.len() + spec.snakes.len();
    if n_ok && (jumps as i64) < n {
        kinds.extend([
            "width_out_of_range",
            "jump_starts_on_last",
            "jump_end_off_board",
            "jump_goes_nowhere",
            "snake_climbs",
            "ladder_descends",
        ]);
        if let Some(w) = spec.width
            && !(1..=n).contains(&w)
        {
            expected.insert("width_out_of_range".to_string());
        }
        let lists = [("ladders", &spec.ladders), ("snakes", &spec.snakes)];
        for (list, pairs) in lists {
            for (i, &[from, to]) in pairs.iter().enumerate() {
                let at = format!("{list}[{i}]");
                if from == n {
                    expected.insert(format!("jump_starts_on_last {at}"));
                }
                if !(1..=n).contains(&to) {
                    expected.insert(format!("jump_end_off_board {at}"));
                }
                if from == to {
                    expected.insert(format!("jump_goes_nowhere {at}"));
                } else if list == "snakes" && to > from {
                    expected.insert(format!("snake_climbs {at}"));
                } else if list == "ladders" && to < from {
                    expected.insert(format!("ladder_descends {at}"));
                }
            }
        }
    }
    (expected, kinds)
}
