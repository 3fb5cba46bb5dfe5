//! The counts `tune` reports against the candidates' means it took,
//! counted apart ([`search::means_taken`]): each board evaluated is
//! counted once, and the first level's placements its order never reached
//! are ruled out, not evaluated (docs/design-search.md §1).

use super::*;
use crate::design::eval::admissible;
use crate::design::{Budget, Layout, placements_of};
use std::sync::Arc;

/// Every admissible placement of every jump of `board`: the first level.
fn first_level(board: &Board) -> u64 {
    (0..board.jumps().len())
        .map(|a| {
            placements_of(board, a)
                .into_iter()
                .filter(|&j| admissible(board, a, j))
                .count() as u64
        })
        .sum()
}

/// One move away, the first level stops at its answer: what it counted is
/// what it evaluated, and the rest of the level is ruled out.
#[test]
fn an_answer_of_the_ordered_first_level_counts_only_what_it_evaluated() {
    let board = Board::builtin_default();
    let seen = Arc::new(AtomicU64::new(0));
    let options = TuneOptions::new(Target::new(33.66, 34.45).unwrap(), 1).with_progress({
        let seen = Arc::clone(&seen);
        move |n| {
            seen.fetch_max(n, Ordering::Relaxed);
        }
    });
    let (tuned, taken) = search::means_taken(|| tune(&board, &options));
    let tuned = tuned.unwrap();
    assert_eq!(tuned.changes.len(), 1);
    assert!(tuned.ruled_out > 0, "the order stopped short");
    assert_eq!(tuned.evaluated, taken);
    assert_eq!(tuned.evaluated + tuned.ruled_out, first_level(&board));
    // The progress bar ends where the count does.
    assert_eq!(seen.load(Ordering::Relaxed), tuned.evaluated);
}

/// Out of reach, the first level gives up its order and runs in full:
/// every placement is counted once, though those its order reached were
/// evaluated twice.
#[test]
fn a_level_evaluated_twice_is_counted_once() {
    let board = Board::builtin_default();
    let options = TuneOptions::new(Target::new(1.0, 1.5).unwrap(), 1);
    let (result, taken) = search::means_taken(|| tune(&board, &options));
    match result {
        Err(DesignError::OutOfReach { evaluated, .. }) => {
            assert_eq!(evaluated, first_level(&board));
            assert!(taken > evaluated, "{taken} {evaluated}");
        }
        other => panic!("{:?}", other.map(|t| t.changes)),
    }
}

/// Past the dense limit, a search stopped at its work limit reports the
/// boards it evaluated, not the placements of its first level.
#[test]
fn a_stopped_search_counts_what_it_evaluated() {
    let board = Layout::new(1_600, 4, 4, Seed::new(3)).generate().unwrap();
    let options = TuneOptions::new(Target::new(1.0, 1.01).unwrap(), 2).with_budget(Budget {
        max_work: 1e8,
        ..Budget::default()
    });
    let (result, taken) = search::means_taken(|| tune(&board, &options));
    match result {
        Err(DesignError::Stopped { evaluated, .. }) => {
            assert!(evaluated > 0 && evaluated <= taken, "{evaluated} {taken}");
            assert!(evaluated < first_level(&board), "{evaluated}");
        }
        other => panic!("{:?}", other.map(|t| t.changes)),
    }
}
