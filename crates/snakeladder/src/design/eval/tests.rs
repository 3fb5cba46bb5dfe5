use super::*;
use crate::design::moves_of;

/// Every admissible change of every jump (or a stride through them), by the
/// update and by validating, compiling and solving the changed board.
#[track_caller]
fn case(json: &str, stride: usize) -> (usize, usize) {
    case_board(Board::from_json_str(json).unwrap(), stride)
}

/// [`case`] of a board.
#[track_caller]
fn case_board(board: Board, stride: usize) -> (usize, usize) {
    let base = Base::new(board.clone()).unwrap();
    assert!(base.updates(), "the update applies to this board");
    let spec = board.spec();
    let (mut updated, mut singular, mut resolved) = (0, 0, 0);
    for (a, &before) in board.jumps().iter().enumerate() {
        let mut afters: Vec<Option<Jump>> = moves_of(&board, a)
            .into_iter()
            .filter(|&j| admissible(&board, a, j))
            .map(Some)
            .collect();
        afters.push(None);
        for (k, after) in afters.into_iter().enumerate() {
            if k % stride != 0 && after.is_some() {
                continue;
            }
            let changed = apply(&spec, &[JumpChange { before, after }]);
            let fresh = Board::from_spec(&changed)
                .ok()
                .map(|b| solve_mean(&b).unwrap());
            match (base.mean_after(a, after), fresh) {
                (Update::Mean(fast), Some(slow)) => {
                    assert!(
                        ((fast - slow) / slow).abs() < tolerance::UPDATE_AGREEMENT,
                        "{before} → {after:?}: update {fast}, re-solved {slow}"
                    );
                    updated += 1;
                }
                (Update::Singular, None) => singular += 1,
                (Update::Resolve, _) => resolved += 1,
                (update, fresh) => {
                    panic!("{before} → {after:?}: update {update:?}, validation {fresh:?}")
                }
            }
        }
    }
    eprintln!("{updated} updated, {singular} singular, {resolved} re-solved");
    (updated, singular)
}

#[test]
fn updates_agree_with_fresh_solves_on_the_classic_board() {
    let (updated, _) = case(crate::model::read::DEFAULT_BOARD_JSON, 1);
    // 19 jumps, about 130 admissible moves each: all but a handful (ends
    // moved onto squares no token rested on) by the update.
    assert!(updated > 2_400, "{updated}");
}

/// Random boards on both sides of [`MAX_UPDATE_STATES`]: up to it the
/// inverse is held (built column by column from the sparse factorisation),
/// past it each moved start solves its column. Every update that answers
/// with a mean must agree with a fresh solve to
/// [`tolerance::UPDATE_AGREEMENT`]: its own error bound is at most half of
/// that ([`MAX_UPDATE_ERROR`]), and the fresh solve is accurate to far less.
#[test]
fn updates_agree_with_fresh_solves_on_random_boards_large_and_small() {
    use crate::Seed;
    use crate::design::{Layout, generate};
    for (squares, jumps, seed, stride) in [
        (200, 12, 3, 7),
        (600, 40, 5, 101),
        (2_000, 60, 1, 1_003),
        (3_000, 80, 2, 3_001),
    ] {
        let board = generate(&Layout::new(squares, jumps, jumps, Seed::new(seed))).unwrap();
        let base = Base::new(board.clone()).unwrap();
        // States: the squares less the jumps' starts, here on both sides
        // of the limit.
        assert_eq!(base.update.as_ref().unwrap().full(), squares < 1_000);
        let (updated, _) = case_board(board, stride);
        assert!(updated > 2 * jumps as usize, "{squares}: {updated}");
    }
}

/// A variant whose update cancels badly is handed back to a fresh solve:
/// the bound of an update on a chain whose inputs are made much less
/// accurate than they are exceeds [`MAX_UPDATE_ERROR`].
#[test]
fn an_update_with_a_large_error_bound_is_resolved() {
    let board = Board::builtin_default();
    let mut base = Base::new(board.clone()).unwrap();
    let a = 0;
    let after = moves_of(&board, a)
        .into_iter()
        .find(|&j| admissible(&board, a, j) && j.from() == board.jumps()[a].from())
        .unwrap();
    assert!(matches!(base.mean_after(a, Some(after)), Update::Mean(_)));
    base.update.as_mut().unwrap().rel = 1e-6;
    assert_eq!(base.mean_after(a, Some(after)), Update::Resolve);
    assert_eq!(base.mean_after(a, None), Update::Resolve);
}

#[test]
fn updates_agree_under_other_rules() {
    for json in [
        // Bounce back from an overshoot; a snake near the end.
        r#"{"squares": 30, "ladders": [[3, 12], [8, 25]], "snakes": [[29, 2], [20, 9], [27, 14]],
            "rules": {"overshoot": "bounce"}}"#,
        // Start on square 1, enter on the highest total, two dice.
        r#"{"squares": 40, "ladders": [[4, 20], [22, 35]], "snakes": [[38, 5], [30, 11]],
            "rules": {"start": 1, "entry": "six", "overshoot": "win",
                      "dice": {"count": 2, "faces": 4}}}"#,
        // A loaded die and overshoot wins; a ladder to the finish.
        r#"{"squares": 25, "ladders": [[2, 25], [7, 16]], "snakes": [[24, 3], [18, 10]],
            "rules": {"overshoot": "win", "dice": {"weights": [1, 2, 3, 1, 1, 4]}}}"#,
    ] {
        let (updated, _) = case(json, 1);
        assert!(updated > 100, "{updated}");
    }
}

#[test]
fn the_first_seat_advantage_is_the_difference_of_the_seat_sums() {
    for json in [
        crate::model::read::DEFAULT_BOARD_JSON,
        r#"{"squares": 30, "ladders": [[3, 12]], "snakes": [[29, 2]], "rules": {"overshoot": "bounce"}}"#,
        r#"{"squares": 50, "snakes": [[45, 5]], "rules": {"extra_turn": {"on": 6}}}"#,
    ] {
        let board = Board::from_json_str(json).unwrap();
        let a = crate::markov::analysis::Analysis::new(&board, &Default::default()).unwrap();
        let two = &a.players[0].win_probability;
        let advantage = first_seat_advantage(&board).unwrap();
        assert!(
            (advantage - (two[0] - two[1])).abs() < 1e-12,
            "{advantage} vs {two:?}"
        );
    }
    // The published 50.7803% for the first seat of the classic board.
    let advantage = first_seat_advantage(&Board::builtin_default()).unwrap();
    assert!((advantage - (2.0 * 0.507803 - 1.0)).abs() < 2e-6);
}

#[test]
fn changes_apply_to_the_spec_and_read_well() {
    let board = Board::builtin_default();
    let snake = board.jump_from(Square::new(48)).unwrap();
    let change = JumpChange {
        before: snake,
        after: Some(Jump::new(Square::new(47), Square::new(26))),
    };
    assert_eq!(change.to_string(), "snake 48→26 → 47→26");
    assert_eq!(change.displacement(), 1);
    let spec = apply(&board.spec(), &[change]);
    assert!(spec.snakes.contains(&[47, 26]) && !spec.snakes.contains(&[48, 26]));
    let removed = JumpChange {
        before: snake,
        after: None,
    };
    assert_eq!(removed.to_string(), "snake 48→26 removed");
    assert_eq!(apply(&board.spec(), &[removed]).snakes.len(), 9);
}
