//! Internal consistency of the analysis on random valid boards and rule
//! sets. Boards are built only through the validating constructor; specs it
//! refuses are skipped.

use crate::support::boards::{self, ExtraRollOn};
use proptest::prelude::*;
use snakeladder::Board;
use snakeladder::analysis::LiveOdds;
use snakeladder::internals::Chain;
use snakeladder::{Analysis, Options};

/// Boards of 4 to 60 squares, up to 7 jumps, fair dice, and an extra roll
/// only on a total the dice can roll.
fn valid_board() -> impl Strategy<Value = Board> {
    boards::valid(boards::spec(
        4..=60,
        0..8,
        boards::fair_dice().boxed(),
        ExtraRollOn::Rollable,
    ))
}

fn analyse(b: &Board) -> Analysis {
    Analysis::new(b, &Options::default().players([2, 3])).expect("valid boards analyse")
}

/// Relative agreement between two routes to one figure. Each route is a
/// handful of solves or ~10⁴ turns of products on at most ~60 states; 1e-9
/// leaves room for the distribution's truncation (tail < 1e-12, times t).
const AGREE: f64 = 1e-9;

#[track_caller]
fn agree(a: f64, b: f64, what: &str) {
    let scale = a.abs().max(b.abs()).max(1.0);
    assert!((a - b).abs() <= AGREE * scale, "{what}: {a} vs {b}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn distribution_matches_the_moments(board in valid_board()) {
        let a = analyse(&board);
        let t = &a.turns;
        let mass: f64 = t.pmf.iter().sum();
        agree(mass, 1.0 - t.tail, "pmf sums to 1 - tail");
        let mean: f64 = t.pmf.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum();
        agree(mean, t.mean, "mean from the pmf");
        let second: f64 = t.pmf.iter().enumerate().map(|(i, p)| ((i + 1) as f64).powi(2) * p).sum();
        let var = second - mean * mean;
        prop_assert!((var - t.variance).abs() <= 1e-6 * t.variance.max(1.0), "{var} vs {}", t.variance);
        prop_assert!((t.cdf.last().unwrap() - mass).abs() < 1e-12);
    }

    #[test]
    fn seats_share_the_win(board in valid_board()) {
        let a = analyse(&board);
        for p in &a.players {
            let total: f64 = p.win_probability.iter().sum();
            agree(total, 1.0, "win probabilities sum to 1");
            // The first seat never does worse than the last.
            prop_assert!(p.win_probability[0] + 1e-12 >= *p.win_probability.last().unwrap());
            prop_assert!(p.expected_rounds <= a.turns.mean + 1e-9);
        }
        // Live odds from the start are the seat odds.
        let chain = Chain::compile(&board).unwrap();
        let start = chain.square(chain.start());
        let live = LiveOdds::new(&board).unwrap().odds(&[start, start], 0).unwrap();
        agree(live[0], a.players[0].win_probability[0], "live odds at the start");
    }

    #[test]
    fn rolls_without_forfeit_are_turns_without_extra_rolls(board in valid_board()) {
        let mut spec = board.spec();
        let rules = spec.rules.as_mut().unwrap();
        prop_assume!(rules.extra_turn.as_ref().is_some_and(|x| x.forfeit_after.is_none()));
        let with = analyse(&board);
        rules.extra_turn = None;
        let without = analyse(&Board::from_spec(&spec).unwrap());
        agree(with.rolls.mean, without.turns.mean, "mean rolls");
        agree(with.rolls.variance, without.turns.variance, "variance of rolls");
        prop_assert!(with.turns.mean <= without.turns.mean + 1e-9);
    }

    #[test]
    fn every_roll_but_the_last_rests_somewhere(board in valid_board()) {
        let a = analyse(&board);
        let rests: f64 = a.squares.iter().map(|s| s.expected_rests).sum();
        agree(rests, a.rolls.mean - 1.0, "rests = rolls - 1");
        for j in &a.jumps {
            prop_assert!(j.use_probability <= j.expected_uses.min(1.0) + 1e-12);
            prop_assert!(j.use_probability >= 0.0);
            prop_assert_eq!(j.expected_uses > 0.0, j.use_probability > 0.0);
        }
    }

    #[test]
    fn mean_without_a_jump_matches_a_rebuilt_board(board in valid_board()) {
        let a = analyse(&board);
        for j in &a.jumps {
            let mut spec = board.spec();
            let pair = [i64::from(j.from.get()), i64::from(j.to.get())];
            spec.ladders.retain(|x| *x != pair);
            spec.snakes.retain(|x| *x != pair);
            let rebuilt = Board::from_spec(&spec).ok().and_then(|b| snakeladder::Analysis::mean_turns(&b).ok());
            match (rebuilt, j.mean_turns_without) {
                (Some(x), Some(y)) => agree(x, y, "mean without a jump"),
                (None, None) => {}
                (x, y) => prop_assert!(false, "rebuilt {x:?} vs {y:?}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn exact_mean_agrees_with_the_float_mean(board in valid_board()) {
        let a = Analysis::new(&board, &Options::default().players(vec![]).exact(true));
        prop_assert!(a.is_ok(), "{a:?}");
    }
}
