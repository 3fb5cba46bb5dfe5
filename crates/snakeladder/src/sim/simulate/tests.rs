//! Tests of the engine against hand-derived boards and published values.

use super::*;
use crate::Seed;

/// Standard errors allowed between a simulated mean and its exact value:
/// a correct engine is outside ±5 s.e. with probability 5.7e-7 per
/// comparison, so these tests (a few dozen comparisons, fixed seeds) cannot
/// flake, while a wrong rule moves a mean by many standard errors.
const Z_ALLOWED: f64 = 5.0;

#[track_caller]
fn assert_close(what: &str, got: f64, std_error: f64, exact: f64) {
    assert!(
        (got - exact).abs() <= Z_ALLOWED * std_error,
        "{what}: simulated {got} ± {std_error}, exact {exact}"
    );
}

fn run(json: &str, games: u64, players: u32, seed: u64) -> SimulationReport {
    let board = Board::from_json_str(json).unwrap();
    let config = SimulationConfig::new(games, Seed::new(seed))
        .unwrap()
        .with_players(players)
        .unwrap();
    simulate(&board, &config).unwrap()
}

#[test]
fn same_seed_same_numbers_on_1_2_and_8_threads() {
    let board = Board::builtin_default();
    // Three full batches and a partial one, so threads share the work.
    let base = SimulationConfig::new(3 * BATCH_GAMES + 1234, Seed::new(99)).unwrap();
    let one = simulate(&board, &base.clone().with_threads(1).unwrap()).unwrap();
    for threads in [2, 8] {
        let other = simulate(&board, &base.clone().with_threads(threads).unwrap()).unwrap();
        assert_eq!(one, other, "{threads} threads");
    }
    let different = simulate(
        &board,
        &SimulationConfig::new(3 * BATCH_GAMES + 1234, Seed::new(100)).unwrap(),
    )
    .unwrap();
    assert_ne!(one.turns.mean, different.turns.mean);
}

/// The marking inner loop (boards of up to 128 squares and jumps) and the
/// stamping one (larger boards) count the same things, so on the same seed
/// they must give the same report, to the last bit.
#[test]
fn marking_and_stamping_loops_agree() {
    for (json, players) in [
        (crate::model::read::DEFAULT_BOARD_JSON.to_string(), 3),
        (
            r#"{"squares": 30, "ladders": [[3, 11], [11, 20]], "snakes": [[28, 3]],
                "rules": {"chains": "follow", "overshoot": "bounce"}}"#
                .to_string(),
            1,
        ),
        (
            r#"{"squares": 40, "ladders": [[4, 14]], "snakes": [[37, 9]],
                "rules": {"extra_turn": {"on": 6, "max_extra": 2, "forfeit_after": 3}}}"#
                .to_string(),
            2,
        ),
    ] {
        let board = Board::from_json_str(&json).unwrap();
        let table = MoveTable::new(&board).unwrap();
        let config = SimulationConfig::new(BATCH_GAMES + 999, Seed::new(5))
            .unwrap()
            .with_players(players)
            .unwrap();
        let engine = Engine::new(&table, board.jumps().len(), board.rules().dice(), &config);
        assert!(engine.marks(), "{json}");
        let marking = run_engine(&board, &engine, &config).unwrap();
        let stamping = run_engine(&board, &engine.without_marks(), &config).unwrap();
        assert_eq!(marking, stamping, "{json}");
    }
}

/// The loop of one six-faced die draws the same faces and counts the same
/// things as the general marking loop, so on the same seed they must give
/// the same report, to the last bit: on the built-in board, with chains
/// and a bounce, and with the games split so a batch ends mid-cluster.
#[test]
fn six_faced_and_marking_loops_agree() {
    for (json, players, games) in [
        (
            crate::model::read::DEFAULT_BOARD_JSON.to_string(),
            1,
            2 * BATCH_GAMES + 777,
        ),
        (crate::model::read::DEFAULT_BOARD_JSON.to_string(), 4, 3001),
        (
            r#"{"squares": 30, "ladders": [[3, 11], [11, 20]], "snakes": [[28, 3]],
                "rules": {"chains": "follow", "overshoot": "bounce"}}"#
                .to_string(),
            2,
            BATCH_GAMES + 999,
        ),
        (
            r#"{"squares": 12, "ladders": [[2, 11]], "rules": {"overshoot": "win", "entry": "six"}}"#
                .to_string(),
            3,
            5000,
        ),
    ] {
        let board = Board::from_json_str(&json).unwrap();
        let table = MoveTable::new(&board).unwrap();
        let config = SimulationConfig::new(games, Seed::new(17))
            .unwrap()
            .with_players(players)
            .unwrap()
            .with_threads(2)
            .unwrap();
        let engine = Engine::new(&table, board.jumps().len(), board.rules().dice(), &config);
        assert!(engine.six(), "{json}");
        let six = run_engine(&board, &engine, &config).unwrap();
        let marking = run_engine(&board, &engine.without_six(), &config).unwrap();
        assert_eq!(six, marking, "{json}");
    }
}

/// Boards the six-faced loop must leave to the general ones.
#[test]
fn the_six_faced_loop_only_takes_one_plain_die() {
    for json in [
        r#"{"squares": 30, "rules": {"dice": {"faces": 4}}}"#,
        r#"{"squares": 30, "rules": {"dice": {"count": 2, "faces": 6}, "overshoot": "bounce"}}"#,
        r#"{"squares": 30, "rules": {"extra_turn": {"on": 6}}}"#,
        r#"{"squares": 200}"#,
    ] {
        let board = Board::from_json_str(json).unwrap();
        let table = MoveTable::new(&board).unwrap();
        let config = SimulationConfig::new(10, Seed::new(1)).unwrap();
        let engine = Engine::new(&table, board.jumps().len(), board.rules().dice(), &config);
        assert!(!engine.six(), "{json}");
    }
}

#[test]
fn deterministic_board_is_exact() {
    // One "die" that always rolls 2 on a 2-square board: every token
    // finishes on its first roll, so seat 0 always wins in one turn.
    let r = run(
        r#"{"squares": 2, "rules": {"dice": {"weights": [0, 1]}}}"#,
        1000,
        3,
        1,
    );
    assert_eq!((r.turns.mean, r.turns.variance, r.turns.max), (1.0, 0.0, 1));
    assert_eq!(r.game().wins, vec![1000, 0, 0]);
    assert_eq!(r.game().expected_total_turns, 1.0);
    let last = r.squares.last().unwrap();
    assert_eq!((last.square, last.expected_rests), (Square::new(2), 1.0));
    assert_eq!(r.tokens, 3000);
}

#[test]
fn coin_board_two_players_matches_hand_derivation() {
    // Squares 0..2, a coin (1 or 2), overshoot wins. From 0: 2 wins, 1 goes
    // to square 1; from 1 every roll wins. So T = 1 or 2, each with
    // probability 1/2. Two seats: seat 0 wins unless T0 = 2 and T1 = 1,
    // so P(seat 0) = 3/4. Turns over both players: 1 (T0 = 1, prob 1/2),
    // 2 (T0 = 2, T1 = 1, prob 1/4) or 3 (both 2, prob 1/4): mean 7/4.
    // Rests on square 1: one exactly when T = 2, so mean 1/2.
    let r = run(
        r#"{"squares": 2, "rules": {"dice": {"count": 1, "faces": 2}, "overshoot": "win"}}"#,
        100_000,
        2,
        5,
    );
    assert_close("E[T]", r.turns.mean, r.turns.std_error, 1.5);
    let g = r.game();
    assert_close(
        "seat 0",
        g.win_probability[0],
        g.win_probability_std_error[0],
        0.75,
    );
    assert_close(
        "total turns",
        g.expected_total_turns,
        g.expected_total_turns_std_error,
        1.75,
    );
    assert_close(
        "rounds",
        g.expected_rounds,
        g.expected_rounds_std_error,
        1.25,
    );
    let one = &r.squares[1];
    assert_eq!(one.square, Square::new(1));
    assert_close(
        "rests on 1",
        one.expected_rests,
        one.expected_rests_std_error,
        0.5,
    );
    assert_eq!(one.expected_rests, one.rest_probability);
}

#[test]
fn extra_roll_turns_are_counted_apart_from_rolls() {
    // Squares 0..3, a coin, exact finish, a 1 grants another roll at most
    // once. From 0 the turn's first roll: 2 → square 2 (turn ends); 1 →
    // square 1 and a bonus roll: 1 → square 2, 2 → square 3 (win). So turn 1
    // ends on 2 with probability 1/2 + 1/4 = 3/4 and wins with 1/4.
    // From 2: 1 wins (no bonus after a win), 2 overshoots (stay, turn ends).
    // E[T] = 1/4 · 1 + 3/4 · (1 + 2) = 2.5 (from 2, T is geometric, mean 2).
    // Rolls: turn 1 has 1.5 rolls on average; from 2 each turn is one roll:
    // E[rolls] = 1.5 + 3/4 · 2 = 3.
    let r = run(
        r#"{"squares": 3, "rules": {"dice": {"count": 1, "faces": 2},
            "extra_turn": {"on": 1, "max_extra": 1}}}"#,
        200_000,
        1,
        11,
    );
    assert_close("E[T]", r.turns.mean, r.turns.std_error, 2.5);
    assert_close("E[rolls]", r.rolls.mean, r.rolls.std_error, 3.0);
}

#[test]
fn default_board_matches_published_values() {
    // docs/figures.md §12: E[T] ≈ 39.5984, P(T = 7) = 73/46656 (the minimum length).
    let r = run(crate::model::read::DEFAULT_BOARD_JSON, 400_000, 1, 2026);
    assert_close("E[T]", r.turns.mean, r.turns.std_error, 39.5984);
    assert_eq!(r.turns.min, 7);
    let p7 = 73.0 / 46656.0;
    let n = r.tokens as f64;
    let hat = r.turns_histogram.count(7) as f64 / n;
    assert_close("P(T = 7)", hat, (p7 * (1.0 - p7) / n).sqrt(), p7);
    assert_eq!(r.turns, r.rolls);
    // The ladder 1→38 is used exactly when the first roll is a 1 (nothing
    // returns a token to square 0): P = 1/6.
    let first = &r.jumps[0];
    assert_eq!((first.from, first.to), (Square::new(1), Square::new(38)));
    assert_close(
        "P(use 1→38)",
        first.use_probability,
        first.use_probability_std_error,
        1.0 / 6.0,
    );
    // Used at most once, so the mean uses equal the share of tokens.
    assert_eq!(first.expected_uses, first.use_probability);
    assert!(first.expected_uses_std_error > 0.0);
}

#[test]
fn empty_board_with_one_die_matches_the_known_mean() {
    // docs/figures.md §12: 100 empty squares, exact finish, E[T] = 33.333…37.
    let r = run(r#"{"squares": 100}"#, 100_000, 1, 3);
    assert_close("E[T]", r.turns.mean, r.turns.std_error, 33.333_333_37);
}

#[test]
fn config_limits_are_enforced() {
    assert_eq!(
        SimulationConfig::new(MAX_GAMES + 1, Seed::new(0)),
        Err(SimulateError::Games {
            games: MAX_GAMES + 1
        })
    );
    let c = SimulationConfig::new(1, Seed::new(0)).unwrap();
    assert_eq!(
        c.clone().with_players(0),
        Err(SimulateError::Players { players: 0 })
    );
    assert_eq!(
        c.clone().with_threads(0),
        Err(SimulateError::Threads { threads: 0 })
    );
    assert!(c.with_threads(MAX_THREADS + 1).is_err());
}

#[test]
fn batch_seeds_follow_splitmix64() {
    // Reference outputs of SplitMix64 seeded with 1234567 (from the
    // generator's published C code): 6457827717110365317, 3203168211198807973.
    assert_eq!(batch_seed(1_234_567, 0), 6_457_827_717_110_365_317);
    assert_eq!(batch_seed(1_234_567, 1), 3_203_168_211_198_807_973);
}

#[test]
fn cluster_standard_errors_match_the_binomial_where_both_apply() {
    // The ladder 1→38 is used at most once per token, so its uses are a
    // 0/1 count and the cluster (batch-means) standard error of the mean
    // uses must estimate the binomial √(p(1 − p)/n). With ~1,500 clusters
    // the estimate's own relative error is about 1/√(2·1500) ≈ 1.8%, so
    // 10% is over five of its standard errors.
    const RELATIVE: f64 = 0.10;
    let r = run(crate::model::read::DEFAULT_BOARD_JSON, 400_000, 1, 77);
    assert!(r.clusters > 1000, "{} clusters", r.clusters);
    let ladder = &r.jumps[0];
    let ratio = ladder.expected_uses_std_error / ladder.use_probability_std_error;
    assert!((ratio - 1.0).abs() < RELATIVE, "ratio {ratio}");
}

#[test]
fn a_follow_chain_table_holds_one_path_per_jump() {
    // Ladders 1→2→3→…→50 under `follow`: the path from ladder i is the
    // rest of the chain, 50 − i + 1 jumps, yet the table keeps one link per
    // jump, not the lists (docs/chains.md).
    let ladders: Vec<String> = (1..=50).map(|i| format!("[{i},{}]", i + 1)).collect();
    let json = format!(
        r#"{{"squares": 60, "ladders": [{}], "rules": {{"chains": "follow"}}}}"#,
        ladders.join(",")
    );
    let board = Board::from_json_str(&json).unwrap();
    let table = MoveTable::new(&board).unwrap();
    assert_eq!(table.paths(), 50);
    let listed: Vec<usize> = (1..=50).map(|id| table.path(id).count()).collect();
    assert_eq!(listed, (1..=50).rev().collect::<Vec<_>>());
    assert_eq!(
        MoveTable::entries_needed(&board),
        table.entries().len() as u64
    );
    // The estimate is refused past a limit below it, and accepted at it.
    let config = SimulationConfig::new(10, Seed::new(1))
        .unwrap()
        .with_threads(1)
        .unwrap();
    let estimate = super::estimate_memory(&board, &config).total();
    assert!(super::check_memory(&board, &config.clone().with_max_memory(estimate)).is_ok());
    assert!(matches!(
        super::check_memory(&board, &config.with_max_memory(estimate - 1)),
        Err(SimulateError::Memory { .. })
    ));
}

#[test]
fn a_stop_flag_ends_the_simulation_without_a_report() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let board = Board::builtin_default();
    let config = SimulationConfig::new(100 * BATCH_GAMES, Seed::new(3))
        .unwrap()
        .with_threads(1)
        .unwrap();
    // The progress sets the flag once two batches are done; the third
    // batch finds it set.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let config = config
        .with_stop(stop)
        .with_progress(move |games| flag.store(games >= 2 * BATCH_GAMES, Ordering::Relaxed));
    let got = simulate(&board, &config);
    assert_eq!(got, Err(SimulateError::Stopped { batch: 2 }));
    // A flag never set and a progress told every game give the report of
    // `simulate`.
    let small = SimulationConfig::new(1000, Seed::new(3)).unwrap();
    let played = Arc::new(AtomicU64::new(0));
    let told = played.clone();
    let watched = small
        .clone()
        .with_stop(Arc::new(AtomicBool::new(false)))
        .with_progress(move |games| {
            told.fetch_max(games, Ordering::Relaxed);
        });
    assert_eq!(simulate(&board, &watched), simulate(&board, &small));
    assert_eq!(played.load(Ordering::Relaxed), 1000);
}

/// The example the function's documentation gave while it was public.
#[test]
fn batch_seed_is_splitmix64() {
    // SplitMix64 from 0 starts 0xe220a8397b1dcdaf (the reference value).
    assert_eq!(batch_seed(0, 0), 0xe220a8397b1dcdaf);
}

/// A board on which no roll finishes a game with a chance above 1e-200
/// (100 dice of 100 faces on 100 squares: only a hundred ones finish) is
/// refused before its first roll; it took 26 s of a release build to give
/// up at `MAX_ROLLS_PER_TOKEN`. A board whose finish is merely rare after a
/// rare roll (a 1 of weight 1e-300) still simulates.
#[test]
fn a_board_no_roll_can_finish_in_time_is_refused_at_once() {
    let endless = Board::from_json_str(
        r#"{"squares": 100, "rules": {"dice": {"count": 100, "faces": 100}}}"#,
    )
    .unwrap();
    let config = SimulationConfig::new(1, Seed::new(1)).unwrap();
    match simulate(&endless, &config) {
        Err(SimulateError::Endless { chance, max_rolls }) => {
            assert!(chance > 0.0 && chance < 1e-199, "{chance}");
            assert_eq!(max_rolls, MAX_ROLLS_PER_TOKEN);
        }
        other => panic!("{other:?}"),
    }
    let rare = run(
        r#"{"squares": 10, "rules": {"dice": {"weights": [1e-300, 1]}}}"#,
        100,
        1,
        1,
    );
    assert_eq!(rare.turns.mean, 5.0);
}

#[test]
fn a_stop_flag_ends_a_batch_of_long_games_part_way() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    // 20,000 squares without jumps: thousands of rolls a game, so that one
    // batch of 65,536 games takes seconds (minutes in a debug build). A
    // d6 and a d4 (the general loop; the six-faced one is for small boards).
    for dice in ["", r#", "rules": {"dice": {"count": 1, "faces": 4}}"#] {
        let board = Board::from_json_str(&format!(r#"{{"squares": 20000{dice}}}"#)).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let config = SimulationConfig::new(BATCH_GAMES, Seed::new(1))
            .unwrap()
            .with_threads(1)
            .unwrap()
            .with_stop(Arc::clone(&stop));
        let flag = Arc::clone(&stop);
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::Relaxed);
            Instant::now()
        });
        let got = simulate(&board, &config);
        let ended = Instant::now();
        let late = ended.saturating_duration_since(setter.join().unwrap());
        assert_eq!(got, Err(SimulateError::Stopped { batch: 0 }), "{dice}");
        assert!(
            late < Duration::from_secs(1),
            "{dice}: stopped {late:?} after the flag"
        );
    }
}
