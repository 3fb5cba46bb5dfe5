//! The modular exact solver (docs/exact-modular.md) against the Bareiss
//! elimination and rational Gauss–Jordan of `exact`: the same reduced
//! fractions, mean and variance, on every board of `boards/` and on random
//! small boards of every rule kind; and exact mode past the old limit of
//! 1,000 states.

use num_traits::ToPrimitive;
use proptest::prelude::*;
use snakeladder::internals::{Chain, exact, modular};
use snakeladder::{Analysis, Board, Options};

/// The modular mean and variance equal Bareiss's, and every square's
/// turns left solves its row of `(I − Q)·t = 1` against the float solve.
#[track_caller]
fn same_fractions(board: &Board, what: &str) {
    let chain = Chain::compile(board).unwrap();
    let s = modular::solve_within(board, &chain, true, f64::INFINITY, u64::MAX)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let (mean, variance) = exact::moments_within(board, &chain, f64::INFINITY).unwrap();
    assert_eq!(s.mean(), &mean, "{what}: mean");
    assert_eq!(s.variance(), Some(&variance), "{what}: variance");
}

#[test]
fn every_shipped_board_has_the_bareiss_fractions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/boards");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let board = Board::from_path(&path).unwrap();
        same_fractions(&board, &path.display().to_string());
        seen += 1;
    }
    assert!(seen >= 10, "{seen} boards");
    same_fractions(&Board::builtin_default(), "the built-in board");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Random boards of every rule kind (overshoot stay, bounce, win;
    /// chains follow; extra turns capped, forfeited and uncapped; entry on
    /// a six; fair and loaded dice with tiny weights): the modular
    /// fractions are Bareiss's and rational Gauss–Jordan's.
    #[test]
    fn random_boards_have_the_bareiss_fractions(board in crate::exactness_props::valid_board()) {
        let json = serde_json::to_string(&board.spec()).unwrap();
        same_fractions(&board, &json);
        let chain = Chain::compile(&board).unwrap();
        let (mean, variance) = exact::moments(&board, &chain).unwrap();
        let s = modular::solve_within(&board, &chain, true, f64::INFINITY, u64::MAX).unwrap();
        prop_assert_eq!(s.mean(), &mean);
        prop_assert_eq!(s.variance(), Some(&variance));
    }
}

/// 3,000 squares with snakes and a bounce: three times the states the
/// Bareiss mode refused; the certified fraction agrees with the float
/// mean within its stated bound, and the output says how it was checked.
#[test]
fn exact_mode_answers_past_a_thousand_states() {
    let board = Board::from_json_str(
        r#"{"squares": 3000, "snakes": [[2999, 10], [1500, 700], [2500, 1200], [900, 3]],
            "ladders": [[5, 400]], "rules": {"overshoot": "bounce"}}"#,
    )
    .unwrap();
    let chain = Chain::compile(&board).unwrap();
    assert!(chain.len() > 2900);
    assert!(matches!(
        exact::mean_turns(&board, &chain),
        Err(snakeladder::AnalysisError::ExactTooLarge { .. })
    ));
    let a = Analysis::new(&board, &Options::default().players([]).exact(true)).unwrap();
    let e = a.exact.as_ref().unwrap();
    let value = e.mean.to_f64().unwrap();
    assert!((value - a.turns.mean).abs() <= a.turns.mean_error_bound.max(1e-15) * value);
    assert_eq!(e.certified, "by exact substitution into the integer system");
    // Turns left from a square near the end, from the same solve.
    let s = modular::solve_within(&board, &chain, false, f64::INFINITY, u64::MAX).unwrap();
    let near = chain.state_of(snakeladder::Square::new(2990)).unwrap();
    assert!(s.turns_left(near).to_f64().unwrap() > 0.0);
    assert!(s.certificate().digits > 0);
}

/// A work limit below the estimate refuses, quoting it, before solving.
#[test]
fn exact_mode_refuses_with_its_estimate() {
    let board = Board::builtin_default();
    let chain = Chain::compile(&board).unwrap();
    let e = modular::estimate(&board, &chain, false).unwrap();
    match modular::solve_within(&board, &chain, false, 1e3, u64::MAX) {
        Err(snakeladder::AnalysisError::ExactTooMuchWork { needed, limit }) => {
            assert_eq!((needed, limit), (e.work, 1e3));
        }
        other => panic!("{other:?}"),
    }
}
