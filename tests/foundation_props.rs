//! Property tests of the foundation. Boards are built only through the
//! validating constructor; specs are random, so most break some rule.

use proptest::prelude::*;
use snakeladder::board::BoardSpec;
use snakeladder::dice::DiceSpec;
use snakeladder::rules::{ExtraTurnSpec, RulesSpec};
use snakeladder::validation::JumpList;
use snakeladder::{Board, Chains, Entry, JumpRef, Overshoot, Problem, Square};

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
        let list = if j.list == JumpList::Ladders {
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

    /// `validate` accepts exactly the boards the constructor accepts.
    #[test]
    fn problems_are_empty_exactly_when_the_constructor_accepts(spec in spec()) {
        prop_assert_eq!(Board::problems(&spec).is_empty(), Board::from_spec(&spec).is_ok());
    }

    #[test]
    fn plausible_specs_too(spec in plausible_spec()) {
        prop_assert_eq!(Board::problems(&spec).is_empty(), Board::from_spec(&spec).is_ok());
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
        let mut rolls: Vec<u32> =
            board.rules().dice().outcomes().iter().map(|o| o.total).collect();
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
                    prop_assert!(step.mv.end <= last, "{:?}", step);
                    prop_assert_eq!(step.mv.finished, step.mv.end == last);
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
