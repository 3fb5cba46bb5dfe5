//! The boards of issue 13, each with its exact answer: the shortest game
//! under extra rolls, exact ties, near-trapped and ill-conditioned chains,
//! truncated distributions.

use num_traits::ToPrimitive;
use snakeladder::AnalysisError;
use snakeladder::analysis::{Figure, Warning};
use snakeladder::internals::Chain;
use snakeladder::internals::exact;
use snakeladder::{Analysis, Board, Options};

fn board(json: &str) -> Board {
    Board::from_json_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

fn analyse(json: &str) -> Analysis {
    Analysis::new(&board(json), &Options::default().players([2]))
        .unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The exact mean of a board, as `f64`.
fn exact_mean(json: &str) -> f64 {
    let b = board(json);
    let exact = exact::mean_turns(&b, &Chain::compile(&b).unwrap()).unwrap();
    exact.to_f64().unwrap()
}

/// The analysed mean of `json` is within `relative` of the exact one,
/// which it returns.
fn mean_agrees(json: &str, relative: f64) -> f64 {
    let a = analyse(json);
    let e = exact_mean(json);
    assert!(
        (a.turns.mean - e).abs() <= relative * e,
        "{json}: {} vs {e}",
        a.turns.mean
    );
    e
}

/// N = 6k + 4 squares, 1d6, a snake to square 1 on every square 2..N−1
/// except 1 + 6j: a token must roll the one safe total from 1 + 6j to
/// 1 + 6(j + 1) again and again.
fn snake_family(k: u32) -> String {
    let n = 6 * k + 4;
    let snakes: Vec<String> = (2..n)
        .filter(|s| (s - 1) % 6 != 0)
        .map(|s| format!("[{s}, 1]"))
        .collect();
    format!(r#"{{"squares": {n}, "snakes": [{}]}}"#, snakes.join(", "))
}

#[test]
fn a_one_turn_game_of_probability_1e_minus_20_is_the_shortest() {
    let a = analyse(
        r#"{"squares": 12, "rules": {"dice": {"weights": [1, 99]}, "extra_turn": {"on": 1}}}"#,
    );
    let s = a.shortest.as_ref().unwrap();
    assert_eq!((a.turns.min, s.turns), (Some(1), 1));
    // Ten 1s then a 2, or twelve 1s.
    let p = 0.99e-20 + 1e-24;
    assert!((s.probability - p).abs() < 1e-12 * p);
    assert!((a.turns.pmf[0] - p).abs() < 1e-12 * p);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["turns"]["min"], 1);
    assert!(json["shortest"]["probability"].as_f64().unwrap() > 0.0);
}

#[test]
fn twenty_five_sixes_win_150_squares_in_one_turn() {
    let a = analyse(r#"{"squares": 150, "rules": {"extra_turn": {"on": 6}}}"#);
    assert_eq!(a.turns.min, Some(1));
    let s = a.shortest.as_ref().unwrap();
    assert_eq!(s.rolls[0].len(), 25);
    assert!(s.probability > 0.0 && s.probability_log10 < -19.0);
}

#[test]
fn exact_ties_decide_the_mode_and_p90() {
    let a = analyse(r#"{"squares": 10, "rules": {"dice": {"faces": 9}, "entry": "six"}}"#);
    assert_eq!(a.turns.mode, Some(9));
    let a = analyse(r#"{"squares": 2, "rules": {"dice": {"faces": 10}, "overshoot": "win"}}"#);
    assert_eq!(
        (a.turns.p90, a.turns.median, a.turns.min),
        (Some(1), Some(1), Some(1))
    );
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["turns"]["p90"], 1);
}

#[test]
fn a_bonus_total_within_an_ulp_of_certain_is_analysed() {
    let json =
        r#"{"squares": 11, "rules": {"dice": {"weights": [1e-16, 1]}, "extra_turn": {"on": 2}}}"#;
    mean_agrees(json, 1e-9);
}

/// A square left only by rolling a face of chance 1e-200 (square 3 here:
/// every 2 bounces back) stays put with a chance that rounds to 1.0, so
/// `1 − q(3, 3)` was 0 and this valid board, whose mean is about 4 turns,
/// was refused as "numerically singular" (dense, 3 states) or, with 39
/// states (sparse), as a game that "may never end" from squares 37 and 39.
/// Factoring without subtraction (docs/figures.md §2a) answers both.
#[test]
fn a_square_left_with_chance_1e_minus_200_is_analysed() {
    let json = r#"{"squares": 4, "rules": {"dice": {"weights": [1e-200, 1]}, "extra_turn": {"on": 1}, "overshoot": "bounce"}}"#;
    let e = mean_agrees(json, 1e-12);
    assert!(e > 3.0 && e < 5.0, "{e}");
    let sparse = r#"{"squares": 40, "rules": {"dice": {"weights": [1e-200, 1]}, "extra_turn": {"on": 1}, "overshoot": "bounce"}}"#;
    let a = analyse(sparse);
    // Twenty 2s, or about 1e-200 · 20 chances of a 1 on the way, each
    // costing about 1e200 turns on square 39: between 20 and 60.
    assert!(
        a.turns.mean > 20.0 && a.turns.mean < 60.0,
        "{}",
        a.turns.mean
    );
}

/// Square 5 is reached from 0 only by two 1s in one turn (a 1 rolls
/// again), a chance of 1e-400: the f64 chain leaves it out, and exact
/// mode, which found it, panicked ("a turn ends on a state of the chain").
/// Now the analysis answers with a warning and exact mode names the square.
#[test]
fn a_square_reached_only_below_f64_is_named_not_a_panic() {
    let json = r#"{"squares": 10, "rules": {"dice": {"weights": [1e-200, 0, 1]}, "extra_turn": {"on": 1}}}"#;
    let a = analyse(json);
    assert!(
        a.warnings.iter().any(|w| w
            .to_string()
            .contains("can end on square 5 only with a chance below")),
        "{:?}",
        a.warnings
    );
    let b = board(json);
    let err = exact::mean_turns(&b, &Chain::compile(&b).unwrap()).unwrap_err();
    assert!(matches!(err, AnalysisError::ExactUnlisted { .. }), "{err}");
}

/// From square 4 (a 1 leads down the snake 5 → 1 and rolls again, a 3
/// overshoots) the finish takes three 1s in one turn, 1e-600: the f64
/// chain has no way out of 4. This valid board was "the game may never
/// end" with exit 1, the code of an invalid board; it is now a numerical
/// limit that says why.
#[test]
fn a_way_out_below_f64_is_a_stated_limit_not_a_trap() {
    use snakeladder::AnalysisError;
    let json = r#"{"squares": 6, "snakes": [[5, 1]], "rules": {"dice": {"weights": [1e-200, 0, 1]}, "extra_turn": {"on": 1}, "chains": "follow"}}"#;
    let err = Analysis::new(&board(json), &Options::default()).unwrap_err();
    assert!(
        matches!(
            &err,
            AnalysisError::Numerical { source, .. }
                if matches!(**source, AnalysisError::BelowFloat { .. })
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("from 4 every way to the finish has a chance per turn below 2.2e-308"),
        "{err}"
    );
}

/// A face whose chance is below the smallest normal f64 (1e-200 of 1e200)
/// is refused by validation, naming the face, rather than analysed as a
/// face that can never come up.
#[test]
fn a_face_below_what_f64_holds_is_refused_by_validation() {
    let err =
        Board::from_json_str(r#"{"squares": 31, "rules": {"dice": {"weights": [1e-200, 1e200]}}}"#)
            .unwrap_err()
            .to_string();
    assert!(err.contains("face 1 has weight 1e-200 of 1e200"), "{err}");
}

#[test]
fn snake_family_means_are_exact_to_1e_minus_9() {
    for (k, known) in [
        (5, Some(27_997.0)),
        (16, Some(10_155_995_666_845.0)),
        (24, None),
        (60, None),
    ] {
        let json = snake_family(k);
        let a = analyse(&json);
        let e = exact_mean(&json);
        if let Some(known) = known {
            assert_eq!(e, known, "k = {k}");
        }
        assert!(
            (a.turns.mean - e).abs() <= 1e-9 * e,
            "k = {k}: {} vs {e}",
            a.turns.mean
        );
        assert!(a.turns.mean_error_bound <= 1e-9, "k = {k}");
        // Whether the analysis trusts the float mean (it now does, by the
        // forward bound) is `exactness_float_bound`'s test.
    }
}

/// The floating-point solve itself is within a few ulps of the exact mean
/// on the snake family: the elimination never subtracts (docs/figures.md
/// §2a). It was off by 3.9e-5 at k = 16 and saturated (off by 1, relative)
/// from k = 24 on. 1e-13 is about 500 ulps: room for the rounding of the
/// kernel's entries over the few hundred states, far below the errors it
/// replaces. (The float mean is read from the exact mode's comparison, as
/// the analysis no longer recomputes it.)
#[test]
fn the_float_solve_is_within_ulps_on_the_snake_family() {
    for k in [16, 24, 60] {
        let board = board(&snake_family(k));
        let a = Analysis::new(&board, &Options::default().players([2]).exact(true))
            .unwrap_or_else(|e| panic!("k = {k}: {e}"));
        let error = a.exact.as_ref().expect("exact mode").relative_difference;
        assert!(error <= 1e-13, "k = {k}: {error:e}");
    }
}

/// Squares 10 and 11 of 12 send a token to each other with every 3 (a
/// bounce), and only a 1, of chance 1e-200, gets it out: an LU's
/// `1 − 1·1` is 0, and this valid board was "numerically singular".
#[test]
fn a_back_and_forth_left_with_chance_1e_minus_200_is_analysed() {
    let json =
        r#"{"squares": 12, "rules": {"dice": {"weights": [1e-200, 0, 1]}, "overshoot": "bounce"}}"#;
    mean_agrees(json, 1e-12);
}

#[test]
fn one_hundred_d100_on_100_squares_is_answered() {
    // Only a hundred 1s reach square 100 from the start; everything else
    // overshoots and stays: the mean is 100^100 turns exactly.
    let a = analyse(r#"{"squares": 100, "rules": {"dice": {"count": 100, "faces": 100}}}"#);
    let e = 1e200_f64;
    assert!((a.turns.mean - e).abs() <= 1e-9 * e, "{}", a.turns.mean);
}

#[test]
fn exact_mode_refuses_past_the_work_limit_with_its_estimate() {
    let b = board(
        r#"{"squares": 999, "rules": {"dice": {"count": 1, "faces": 1000}, "overshoot": "bounce"}}"#,
    );
    let chain = Chain::compile(&b).unwrap();
    match exact::mean_turns_within(&b, &chain, 2e10) {
        Err(AnalysisError::ExactTooMuchWork { needed, limit }) => {
            assert!(needed > limit && limit == 2e10);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_cut_off_distribution_gives_no_seat_odds() {
    // Escaping square 7 of 8 needs a 1, of weight 1e-6 against 5: games
    // last about 1.6 million turns, and the distribution stops at 10
    // million with about 2e-3 of the probability left.
    let a = Analysis::new(
        &board(r#"{"squares": 8, "rules": {"dice": {"weights": [1e-6, 1, 1, 1, 1, 1]}}}"#),
        &Options::default().players([2]),
    )
    .unwrap();
    let tail = a.turns.tail;
    assert!(tail > 1e-9, "{tail}");
    assert!(a.players.is_empty());
    assert!(a.skipped.iter().any(|s| s.figure == Figure::Players));
    assert!(
        a.warnings
            .iter()
            .any(|w| matches!(w, Warning::Truncated { .. }))
    );
}
