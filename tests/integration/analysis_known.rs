//! Known figures: published values, and small boards whose answers are
//! derived by hand in each test.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use snakeladder::analysis::LiveOdds;
use snakeladder::internals::Chain;
use snakeladder::internals::exact;
use snakeladder::internals::fingerprint;
use snakeladder::{Analysis, Options};
use snakeladder::{Board, Square};

fn board(json: &str) -> Board {
    Board::from_json_str(json).expect("a valid test board")
}

fn analyse(b: &Board) -> Analysis {
    Analysis::new(b, &Options::default()).expect("the board analyses")
}

fn exact_mean(b: &Board) -> BigRational {
    exact::mean_turns(b, &Chain::compile(b).unwrap()).unwrap()
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn althoen() -> Board {
    board(include_str!("../../boards/althoen-1993.json"))
}

/// Floating-point figures are compared to hand-derived values relative to
/// 1e-12: the solves involve at most ~100 states, losing a few digits of 16.
const REL: f64 = 1e-12;

#[track_caller]
fn close(actual: f64, expected: f64) {
    assert!(
        ((actual - expected) / expected).abs() < REL,
        "{actual} is not {expected}"
    );
}

#[test]
fn althoen_king_schilling_1993() {
    let b = althoen();
    let expected = BigRational::new(
        "225837582538403273407117496273279920181931269186581786048583"
            .parse::<BigInt>()
            .unwrap(),
        "5757472998140039232950575874628786131130999406013041613400"
            .parse::<BigInt>()
            .unwrap(),
    );
    assert_eq!(exact_mean(&b), expected);
    let a = analyse(&b);
    // The published mean, 39.2 (39.2251 to four places).
    assert!((a.turns.mean - 39.2251).abs() < 5e-5);
    close(a.turns.mean, expected.to_f64().unwrap());
}

#[test]
fn milton_bradley_48_26() {
    let a = Analysis::new(
        &Board::builtin_default(),
        &Options::default().players(vec![2]).exact(true),
    )
    .unwrap();
    assert!((a.turns.mean - 39.5984).abs() < 5e-5);
    // The published P(T = 7) = 73/46656 (= 438/6^7: 438 of the 6^7 seven-roll
    // sequences win in seven).
    close(a.turns.pmf[6], 73.0 / 46656.0);
    assert_eq!(a.turns.min, Some(7));
    assert_eq!(a.turns.median, Some(33));
    assert_eq!(a.turns.mode, Some(22));
    assert!((a.players[0].win_probability[0] - 0.507803).abs() < 5e-7);
    // Exact mode agrees with the f64 mean.
    let ex = a.exact.unwrap();
    assert!(ex.relative_difference < 1e-12);
    assert!(a.turns.tail < 1e-12);
    // The shortest game: 7 turns, with probability 73/46656 in all.
    let s = a.shortest.unwrap();
    assert_eq!(s.turns, 7);
}

#[test]
fn the_two_transcriptions_have_different_fingerprints() {
    let (mb, aks) = (Board::builtin_default(), althoen());
    assert_ne!(fingerprint(&mb), fingerprint(&aks));
    // And a reordered jump list is the same board.
    let mut spec = mb.spec();
    spec.ladders.reverse();
    spec.snakes.rotate_left(3);
    spec.name = Some("renamed".into());
    let shuffled = Board::from_spec(&spec).unwrap();
    assert_eq!(fingerprint(&mb), fingerprint(&shuffled));
}

/// Empty board of 100 squares, one d6, exact finish, by a recursion written
/// here from the rules alone: from square s < 100, a roll r moves to s + r
/// when s + r ≤ 100 and stays otherwise, so
/// `t(s) = (1 + Σ_{r: s+r<100} t(s+r)/6) / (1 − k(s)/6)`, where k(s) counts
/// the rolls that overshoot, and t(100) = 0. Solved from 99 down in exact
/// fractions.
#[test]
fn empty_board_of_100_squares() {
    let mut t = vec![BigRational::zero(); 101];
    let sixth = ratio(1, 6);
    for s in (0..100).rev() {
        let mut numerator = BigRational::one();
        let mut overshoot = 0;
        for r in 1..=6 {
            if s + r > 100 {
                overshoot += 1;
            } else if s + r < 100 {
                numerator += &t[s + r] * &sixth;
            }
        }
        t[s] = numerator / (BigRational::one() - ratio(overshoot, 6));
    }
    let b = board(r#"{"squares": 100}"#);
    let exact = exact_mean(&b);
    assert_eq!(exact, t[0]);
    // "33.333…37": close to, but not, 100/3.
    assert_ne!(exact, ratio(100, 3));
    let value = exact.to_f64().unwrap();
    assert!(value > 100.0 / 3.0 && value - 100.0 / 3.0 < 1e-9);
    close(analyse(&b).turns.mean, value);
}

/// A coin (faces 1 and 2), squares 3, exact finish, start 0.
/// From 2: a 1 finishes, a 2 overshoots: T(2) ~ Geometric(1/2), mean 2,
/// E[T²] = (2 − p)/p² = 6. From 1: a 2 finishes, a 1 goes to 2: T(1) = 1
/// or 1 + T(2), mean 2, E[T²] = 1/2 + 1/2·(1 + 4 + 6) = 6. From 0: a 1 goes
/// to 1, a 2 to 2: T(0) = 1 + X with X as T(1) or T(2): mean 3, E[T²] =
/// 1 + 2·2 + 6 = 11, variance 2. P(T(0) = 1) = 0; P(T(0) = 2) = 1/2·1/2 +
/// 1/2·1/2 = 1/2.
#[test]
fn coin_board_by_hand() {
    let b = board(r#"{"squares": 3, "rules": {"dice": {"faces": 2}}}"#);
    assert_eq!(exact_mean(&b), ratio(3, 1));
    let a = analyse(&b);
    close(a.turns.mean, 3.0);
    close(a.turns.variance, 2.0);
    close(a.rolls.mean, 3.0);
    assert_eq!(a.turns.min, Some(2));
    close(a.turns.pmf[1], 0.5);
    assert_eq!(a.turns.pmf[0], 0.0);
    assert_eq!(a.turns.median, Some(2));
    // Turns left: 2 from squares 1 and 2.
    let left: Vec<f64> = a.squares.iter().filter_map(|s| s.turns_left).collect();
    assert_eq!(left.len(), 3);
    close(left[1], 2.0);
    close(left[2], 2.0);
}

/// The coin board with a snake 2→1. From 1: a 1 lands on 2 and slides to 1,
/// a 2 finishes, so T(1) ~ Geometric(1/2), mean 2, and the snake is used
/// once per failure: 1 expected use. From 0: a 1 goes to 1, a 2 lands on 2
/// and slides to 1 (one use); either way the turn ends on 1, so T(0) = 3.
/// Snake uses from 0: 1/2 + 1 = 3/2. P(use at least once) = 1/2 (first
/// roll a 2) + 1/2 · 1/2 (else the first roll from 1 is a 1) = 3/4.
/// Every turn but the last ends on 1: rests on 1 = 3 − 1 = 2, and it is
/// certainly visited. Without the snake the board is the coin board: 3.
#[test]
fn coin_board_with_a_snake_by_hand() {
    let b = board(r#"{"squares": 3, "snakes": [[2, 1]], "rules": {"dice": {"faces": 2}}}"#);
    assert_eq!(exact_mean(&b), ratio(3, 1));
    let a = analyse(&b);
    let snake = &a.jumps[0];
    close(snake.expected_uses, 1.5);
    close(snake.use_probability, 0.75);
    close(snake.mean_turns_without.unwrap(), 3.0);
    let one = a
        .squares
        .iter()
        .find(|s| s.square == Square::new(1))
        .unwrap();
    close(one.expected_rests, 2.0);
    close(one.rest_probability.unwrap(), 1.0);
}

/// Squares 2, start 1, one d6: from 1 only a 1 finishes, so T ~
/// Geometric(1/6). The first of two players wins with
/// Σ_t p(1−p)^(t−1)·(1−p)^(t−1) = p / (1 − (1−p)²) = (1/6)/(11/36) = 6/11,
/// and a round of two happens while both have failed: E[rounds] =
/// Σ_{t≥0} (25/36)^t = 36/11.
#[test]
fn geometric_race_by_hand() {
    let b = board(r#"{"squares": 2, "rules": {"start": 1}}"#);
    let a = Analysis::new(&b, &Options::default().players(vec![2]).exact(false)).unwrap();
    close(a.turns.mean, 6.0);
    close(a.turns.variance, 30.0);
    let p = &a.players[0];
    assert!((p.win_probability[0] - 6.0 / 11.0).abs() < 1e-11);
    assert!((p.expected_rounds - 36.0 / 11.0).abs() < 1e-10);
}

/// Extra rolls, no cap: squares 3, a coin, a 2 rolls again. From 2 every
/// turn finishes (a 1 wins; a 2 overshoots and rolls again): t(2) = 1.
/// From 1: a 1 ends on 2, a 2 wins: t(1) = 3/2. From 0: a 1 ends on 1, a 2
/// goes to 2 and the turn goes on to the finish: t(0) = 1 + t(1)/2 = 7/4.
/// Rolls from 2: Geometric(1/2), mean 2; from 1: 1 + 1/2·2 = 2; from 0:
/// a 1 (1/2) then 2 rolls more on average, or a 2 then 2 more: 3.
#[test]
fn uncapped_extra_rolls_by_hand() {
    let b = board(r#"{"squares": 3, "rules": {"dice": {"faces": 2}, "extra_turn": {"on": 2}}}"#);
    assert_eq!(exact_mean(&b), ratio(7, 4));
    let a = analyse(&b);
    close(a.turns.mean, 1.75);
    close(a.rolls.mean, 3.0);
}

#[test]
fn live_odds_favour_the_player_near_the_end() {
    let b = Board::builtin_default();
    // Both on 99: whoever moves first wins with 6/11 (the geometric race).
    let odds = LiveOdds::new(&b)
        .unwrap()
        .odds(&[Square::new(99), Square::new(99)], 1)
        .unwrap();
    assert!((odds[1] - 6.0 / 11.0).abs() < 1e-11);
    assert!((odds[0] - 5.0 / 11.0).abs() < 1e-11);
}

/// Extra rolls make the general (absorbing) form of P(use) run. Squares 4, a
/// coin, a 2 rolls again without cap, a ladder 1→3. The ladder is used only
/// by a first roll of 1 from the start (afterwards the token is past 1 and
/// never returns): P(use) = expected uses = 1/2. From 3 only a 1 finishes,
/// a 2 overshoots and rolls again, so every turn from 3 finishes: t(3) = 1.
/// From 2: a 1 ends on 3, a 2 wins: t(2) = 1 + 1/2. From 0: a 1 climbs to
/// 3 (turn over), a 2 goes to 2 and rolls on, ending on 3 (a 1) or winning
/// (a 2): t(0) = 1 + 1/2·t(3) + 1/4·t(3) = 7/4.
#[test]
fn jump_use_under_extra_rolls_by_hand() {
    let b = board(
        r#"{"squares": 4, "ladders": [[1, 3]],
            "rules": {"dice": {"faces": 2}, "extra_turn": {"on": 2}}}"#,
    );
    assert_eq!(exact_mean(&b), ratio(7, 4));
    let a = analyse(&b);
    close(a.jumps[0].expected_uses, 0.5);
    close(a.jumps[0].use_probability, 0.5);
    // Without the ladder, from 1: a 1 ends on 2, a 2 goes to 3 and rolls on
    // to the finish in that turn: t(1) = 1 + 1/2·t(2) = 7/4. From 0:
    // a 1 ends on 1, a 2 goes to 2 and rolls on: a 1 ends on 3, a 2 wins;
    // t(0) = 1 + 1/2·t(1) + 1/4·t(3) = 1 + 7/8 + 1/4 = 17/8.
    close(a.jumps[0].mean_turns_without.unwrap(), 17.0 / 8.0);
}

/// A distribution whose estimated cost is over `--max-work` still gets a
/// share of the budget, and is kept when its tail turns geometric within it:
/// the same figures as without a limit. With a budget far too small it is
/// skipped, named in `skipped`.
#[test]
fn a_distribution_refused_by_its_estimate_is_kept_when_it_finishes_early() {
    use snakeladder::design::Layout;
    // 130 squares, 35 snakes: mean about 8,575 turns, so the estimate
    // (4·(mean + sd) turns of about 530 entries each) is 3.6e7, while the
    // decay is geometric after 2,048 turns (1.1e6): a tenth of 2e7 is enough.
    let board = Layout::new(130, 35, 2, snakeladder::Seed::new(6))
        .generate()
        .unwrap();
    let free = Analysis::new(&board, &Options::default()).unwrap();
    assert!(free.skipped.is_empty());
    let tight = Analysis::new(&board, &Options::default().max_work(2e7)).unwrap();
    assert!(tight.skipped.is_empty(), "{:?}", tight.skipped);
    assert_eq!(tight.turns.p99, free.turns.p99);
    assert_eq!(tight.turns.median, free.turns.median);
    assert_eq!(tight.turns.pmf, free.turns.pmf);
    let starved = Analysis::new(&board, &Options::default().max_work(1e4)).unwrap();
    assert!(
        starved
            .skipped
            .iter()
            .any(|s| s.to_string().contains("length distribution")),
        "{:?}",
        starved.skipped
    );
    assert!(starved.turns.pmf.is_empty());
}

/// Without extra rolls a turn is one roll, so the rolls' figures are the
/// turns' even when those had to be recomputed exactly. Here a 1 has
/// probability 1e-300: a 2 at a time reaches 10 in five turns, but a token
/// once on an odd square waits about 1e300 turns for the 1 that finishes,
/// so the variance is about 1e301 while the solve's own came out 0 (the
/// rolls kept that 0, and `check` then failed a correct engine).
#[test]
fn rolls_are_the_certified_turns_without_extra_rolls() {
    let b = board(r#"{"squares": 10, "rules": {"dice": {"weights": [1e-300, 1]}}}"#);
    let a = analyse(&b);
    assert!(a.turns.variance > 1e300, "{}", a.turns.variance);
    assert_eq!(
        (a.rolls.mean, a.rolls.variance),
        (a.turns.mean, a.turns.variance)
    );
    let config = snakeladder::simulate::SimulationConfig::new(2_000, snakeladder::Seed::new(1))
        .expect("a valid configuration");
    let report = snakeladder::check::check(&b, &config).expect("the check runs");
    assert!(report.passed, "{:?}", report.failures().collect::<Vec<_>>());
}
