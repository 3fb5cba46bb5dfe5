//! `tune` past [`MAX_UPDATE_STATES`] squares, where the evaluator solves a
//! column of the inverse for each moved start instead of holding it, and
//! each candidate is charged to the budget as it is evaluated.

use super::*;
use crate::design::{Budget, Layout, MAX_UPDATE_STATES, sensitivity};

/// A board just past the dense limit, with few jumps so that a debug build
/// solves it quickly.
fn large_board() -> Board {
    let board = Layout::new(1_600, 4, 4, Seed::new(3)).generate().unwrap();
    assert!(board.last().get() as usize > MAX_UPDATE_STATES);
    board
}

/// The band around the mean of a one-move variant of the board is reached
/// with one move of at most that variant's displacement, its mean solved
/// afresh inside the band.
#[test]
fn a_board_past_the_dense_limit_is_tuned() {
    let board = large_board();
    let s = sensitivity(&board, false).unwrap();
    let v = s
        .variants
        .iter()
        .find(|v| v.change.after.is_some() && v.mean_change.abs() > 0.05)
        .expect("a variant that moves the mean");
    let target = Target::new(v.mean_turns - 0.01, v.mean_turns + 0.01).unwrap();
    let tuned = tune(&board, &TuneOptions::new(target, 2)).unwrap();
    assert_eq!(tuned.changes.len(), 1, "{:?}", tuned.changes);
    assert!(tuned.changes[0].displacement() <= v.change.displacement());
    let fresh = eval::solve_mean(&tuned.board).unwrap();
    assert!(target.contains(fresh), "{fresh}");
    assert_eq!(tuned.mean_turns, fresh);
}

/// Out of reach, the search of a large board stops at its work limit,
/// candidate by candidate, instead of evaluating the tens of millions of
/// placements of its full level.
#[test]
fn a_large_board_stops_at_its_limits() {
    let board = large_board();
    let target = Target::new(1.0, 1.01).unwrap();
    let options = TuneOptions::new(target, 2).with_budget(Budget {
        max_work: 1e8,
        ..Budget::default()
    });
    match tune(&board, &options) {
        Err(DesignError::Stopped { limit, .. }) => assert!(limit.contains("--max-work"), "{limit}"),
        other => panic!("{:?}", other.map(|t| t.changes)),
    }
    // Memory is estimated up front from the vectors it holds.
    let options = TuneOptions::new(target, 2).with_budget(Budget {
        max_memory: 1_000,
        ..Budget::default()
    });
    match tune(&board, &options) {
        Err(DesignError::Stopped { limit, .. }) => {
            assert!(limit.contains("vectors of 1601 states"), "{limit}")
        }
        other => panic!("{:?}", other.map(|t| t.changes)),
    }
}
