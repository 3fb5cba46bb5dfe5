//! The cross-check on random valid boards and rule sets: the exact analysis
//! and the simulator agree on every figure. Boards are built only through
//! the validating constructor (specs it refuses are skipped); proptest runs
//! from a fixed seed and each simulation has a fixed seed, so the test is
//! deterministic. Each check holds a correct engine to a family-wise false
//! alarm rate of 1e-4, so with these fixed seeds a failure means a real
//! disagreement, not bad luck (at worst 32 × 1e-4 over all cases when the
//! seeds were chosen).

use crate::support::boards::{self, ExtraRollOn};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use snakeladder::Board;
use snakeladder::Seed;
use snakeladder::check::check;
use snakeladder::internals::DiceSpec;
use snakeladder::simulate::SimulationConfig;

/// Games per case: enough that means are compared to about 1% and that
/// every jump used by one token in ten is compared too, small enough that
/// 32 cases stay within a few seconds.
const GAMES: u64 = 100_000;

/// Fair dice, or 2 to 6 faces each weighted from 0 to 4.
fn dice() -> impl Strategy<Value = DiceSpec> {
    prop_oneof![
        boards::fair_dice(),
        prop::collection::vec(0.0f64..4.0, 2..=6).prop_map(|w| DiceSpec {
            weights: Some(w),
            ..DiceSpec::default()
        }),
    ]
}

fn valid_board() -> impl Strategy<Value = Board> {
    // Many random rule sets make a board invalid (an unrollable bonus total,
    // an unreachable finish); a valid one is kept only when its games are
    // short enough to simulate 100,000 of them quickly.
    let specs = boards::spec(4..=40, 0..8, dice().boxed(), ExtraRollOn::AsDrawn);
    specs.prop_filter_map("the validator refuses it or its games are too long", |s| {
        let board = Board::from_spec(&s).ok()?;
        let mean = snakeladder::Analysis::mean_turns(&board).ok()?;
        (mean < 200.0).then_some(board)
    })
}

proptest! {
    #![proptest_config(Config {
        cases: 32,
        rng_seed: RngSeed::Fixed(20_261_129),
        failure_persistence: None,
        max_global_rejects: 100_000,
        ..Config::default()
    })]

    #[test]
    fn exact_and_simulated_agree(board in valid_board(), players in 1u32..=3, seed in any::<u64>()) {
        let config = SimulationConfig::new(GAMES, Seed::new(seed)).unwrap().with_players(players).unwrap();
        let report = check(&board, &config).unwrap();
        let failures: Vec<String> = report
            .failures()
            .map(|c| format!("{}: {:.3} > {:.3} (exact {}, simulated {})",
                c.name, c.statistic, c.threshold, c.exact, c.simulated))
            .collect();
        prop_assert!(report.passed, "{:?} on {:?}: {:?}", board.rules(), board.spec(), failures);
    }
}
