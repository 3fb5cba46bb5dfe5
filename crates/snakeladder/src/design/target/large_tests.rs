//! `generate --target-turns` past [`MAX_UPDATE_STATES`] squares, where no
//! evaluator could hold the inverse densely.

use super::*;
use crate::design::{Budget, MAX_UPDATE_STATES};

/// Few jumps on a board just past the dense limit, so that a debug build
/// solves it quickly.
fn layout(seed: u64) -> Layout {
    let layout = Layout::new(2_000, 3, 3, Seed::new(seed));
    assert!(layout.squares as usize > MAX_UPDATE_STATES);
    layout
}

/// The mean of the first random start of `layout`.
fn first_start_mean(layout: &Layout) -> f64 {
    let first = Layout {
        seed: Seed::new(mix(layout.seed.get(), 0)),
        ..layout.clone()
    };
    let board = Board::from_spec(&generate_spec(&first).unwrap()).unwrap();
    crate::Analysis::mean_turns(&board).unwrap()
}

/// A band a few per cent below the first start's mean is reached by
/// moving jumps, and a fresh analysis puts the board in it.
#[test]
fn a_board_past_the_dense_limit_is_generated_into_a_band() {
    let layout = layout(1);
    let mean = first_start_mean(&layout);
    let target = Target::new(mean * 0.95, mean * 0.96).unwrap();
    let found = generate_to_target(&GenerateOptions::new(layout, target)).unwrap();
    assert!(found.steps > 0, "{}", found.steps);
    assert_eq!(found.board.last().get(), 2_000);
    assert_eq!(found.board.jumps().len(), 6);
    let fresh = crate::Analysis::mean_turns(&found.board).unwrap();
    assert!(target.contains(fresh), "{fresh} for {target}");
    assert_eq!(found.mean_turns, fresh);
}

/// A small work limit stops the search of a large board with the closest
/// mean found, which lies nearer the band than the first start.
#[test]
fn a_large_board_stops_at_its_work_limit_with_the_closest_mean() {
    let layout = layout(2);
    let mean = first_start_mean(&layout);
    let target = Target::new(mean * 0.5, mean * 0.51).unwrap();
    let options = GenerateOptions::new(layout.clone(), target).with_budget(Budget {
        max_work: 3e8,
        ..Budget::default()
    });
    match generate_to_target(&options) {
        Err(DesignError::Stopped {
            limit,
            closest: Some(closest),
            evaluated,
            ..
        }) => {
            assert!(limit.contains("--max-work"), "{limit}");
            assert!(evaluated > 0);
            assert!(
                target.distance(closest) <= target.distance(mean),
                "{closest} against {mean}"
            );
        }
        other => panic!("{:?}", other.map(|g| g.mean_turns)),
    }
    // Memory is estimated up front from the vectors its evaluators hold,
    // not from a dense inverse.
    let options = GenerateOptions::new(layout, target).with_budget(Budget {
        max_memory: 1_000,
        ..Budget::default()
    });
    match generate_to_target(&options) {
        Err(DesignError::Stopped { limit, .. }) => {
            assert!(limit.contains("vectors of 2001 states"), "{limit}")
        }
        other => panic!("{:?}", other.map(|g| g.mean_turns)),
    }
}

/// The same seed gives the same board, start and moves on one thread as
/// on three.
#[cfg(feature = "parallel")]
#[test]
fn a_large_board_does_not_depend_on_the_threads() {
    let layout = layout(3);
    let mean = first_start_mean(&layout);
    let options = GenerateOptions::new(layout, Target::new(mean * 0.98, mean * 0.99).unwrap());
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let g = pool.install(|| generate_to_target(&options)).unwrap();
        // Not the count: it is of the boards evaluated, and how far the
        // starts beside the one that succeeds got before they stopped
        // depends on the threads.
        (g.board, g.restart, g.steps)
    };
    let one = run(1);
    assert!(one.2 > 0);
    assert_eq!(one, run(3));
}
