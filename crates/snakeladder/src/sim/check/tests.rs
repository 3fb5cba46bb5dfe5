//! The cross-check passes on the right engine and catches a wrong one.

use super::*;
use crate::Seed;
use crate::sim::simulate::{MoveTable, simulate_table};

/// Games per check in these tests: 200,000 default-board games take a
/// fraction of a second and put the standard error of the mean near 0.057
/// turns.
const GAMES: u64 = 200_000;

fn exact_of(board: &Board, players: u32) -> ExactFigures {
    let options = Options::default().players(if players > 1 { vec![players] } else { vec![] });
    ExactFigures::from_analysis(&Analysis::new(board, &options).unwrap(), players)
}

fn explain(report: &CheckReport) -> String {
    report
        .failures()
        .map(|c| format!("{}: {} > {}", c.name, c.statistic, c.threshold))
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn default_board_passes_with_two_players() {
    let board = Board::builtin_default();
    let config = SimulationConfig::new(GAMES, Seed::new(2026))
        .unwrap()
        .with_players(2)
        .unwrap();
    let report = check(&board, &config).unwrap();
    assert!(report.passed, "{}", explain(&report));
    let names: Vec<&str> = report.comparisons.iter().map(|c| c.name.as_str()).collect();
    for wanted in [
        "turns: distribution",
        "turns: mean",
        "seat 1: wins",
        "total turns: mean",
        "snake 48→26: uses a game",
        "ladder 1→38: used at least once",
        "square 47: rests a game",
    ] {
        assert!(names.contains(&wanted), "{wanted} in {names:?}");
    }
    assert_eq!(
        report.comparison_error_rate,
        FAMILY_ERROR_RATE / report.comparisons.len() as f64
    );
}

#[test]
fn a_wrong_transition_in_the_simulation_is_caught() {
    // From the start a roll of 1 lands on the ladder 1→38. Perturb that one
    // transition so the token stops on square 1 instead: the ladder's use
    // probability drops from 1/6 to 0 and the game lengthens.
    let board = Board::builtin_default();
    let mut table = MoveTable::new(&board).unwrap();
    table.perturb(Square::OFF_BOARD, 0, Square::new(1), board.last());
    let config = SimulationConfig::new(GAMES, Seed::new(2026)).unwrap();
    let sim = simulate_table(&board, &table, &config).unwrap();
    let report = compare_figures(&exact_of(&board, 1), &sim);
    assert!(!report.passed);
    let failed: Vec<&str> = report.failures().map(|c| c.name.as_str()).collect();
    assert!(
        failed.contains(&"ladder 1→38: used at least once"),
        "{failed:?}"
    );
}

#[test]
fn a_subtly_wrong_transition_is_caught() {
    // A smaller fault: from 94, a roll of 4 should stop on 98 and slide down
    // the snake 98→78; the perturbed table leaves the token on 94 instead
    // (as if the roll overshot). One transition of 606 differs.
    let board = Board::builtin_default();
    let mut table = MoveTable::new(&board).unwrap();
    table.perturb(Square::new(94), 3, Square::new(94), board.last());
    let config = SimulationConfig::new(GAMES, Seed::new(7)).unwrap();
    let sim = simulate_table(&board, &table, &config).unwrap();
    let report = compare_figures(&exact_of(&board, 1), &sim);
    let failed: Vec<&str> = report.failures().map(|c| c.name.as_str()).collect();
    assert!(
        failed.contains(&"square 94: rests a game"),
        "the check missed a wrong transition: {failed:?}"
    );
}

#[test]
fn a_wrong_chain_on_the_exact_side_is_caught() {
    // The exact figures of the Althoen–King–Schilling board (chute 47→26)
    // against a simulation of the default board (chute 48→26): one jump
    // moved by one square, E[T] 39.2251 against 39.5984.
    let default = Board::builtin_default();
    let aks = Board::from_json_str(include_str!("../../../boards/althoen-1993.json")).unwrap();
    let sim = simulate::simulate(
        &default,
        &SimulationConfig::new(GAMES, Seed::new(11)).unwrap(),
    )
    .unwrap();
    let report = compare_figures(&exact_of(&aks, 1), &sim);
    assert!(!report.passed);
    assert!(report.failures().any(|c| c.name == "turns: mean"));
    // And the right exact side agrees with the same simulation.
    let right = compare_figures(&exact_of(&default, 1), &sim);
    assert!(right.passed, "{}", explain(&right));
}

#[test]
fn extra_roll_rules_pass() {
    use crate::model::rules::ExtraTurnSpec;
    use crate::{Entry, Overshoot};
    let variants = [
        (Some(2), Some(3), Entry::Free, Overshoot::Stay),
        (None, None, Entry::Six, Overshoot::Bounce),
    ];
    for (max_extra, forfeit_after, entry, overshoot) in variants {
        let mut spec = Board::builtin_default().spec();
        let rules = spec.rules.as_mut().unwrap();
        rules.extra_turn = Some(ExtraTurnSpec {
            on: 6,
            max_extra,
            forfeit_after,
        });
        rules.entry = Some(entry);
        rules.overshoot = Some(overshoot);
        let board = Board::from_spec(&spec).unwrap();
        let report = check(&board, &SimulationConfig::new(GAMES, Seed::new(5)).unwrap()).unwrap();
        assert!(report.passed, "{:?}: {}", board.rules(), explain(&report));
    }
}

#[test]
fn few_games_are_held_to_the_t_quantile_of_their_degrees_of_freedom() {
    // Four games of two players: the game-level figures estimate their
    // standard error from 4 games, df = 3, where the t quantile is far
    // above the normal one. A correct engine passes on every seed.
    let board = Board::builtin_default();
    let exact = exact_of(&board, 2);
    for seed in 0..40 {
        let config = SimulationConfig::new(4, Seed::new(seed))
            .unwrap()
            .with_players(2)
            .unwrap();
        let sim = crate::sim::simulate::simulate(&board, &config).unwrap();
        let report = compare_figures(&exact, &sim);
        assert!(report.passed, "seed {seed}: {}", explain(&report));
        let total = report
            .comparisons
            .iter()
            .find(|c| c.name == "total turns: mean")
            .expect("compared");
        assert_eq!(
            total.threshold,
            student_threshold(report.comparison_error_rate, 3)
        );
    }
}

#[test]
fn a_comparison_without_information_is_skipped_not_passed() {
    // One game: the game-level standard errors rest on a single value
    // (df = 0), so their statistic and threshold would both be infinite.
    let board = Board::builtin_default();
    let config = SimulationConfig::new(1, Seed::new(7))
        .unwrap()
        .with_players(3)
        .unwrap();
    let report = check(&board, &config).unwrap();
    assert!(report.comparisons.iter().all(|c| c.threshold.is_finite()));
    for name in ["total turns: mean", "rounds: mean"] {
        assert!(!report.comparisons.iter().any(|c| c.name == name), "{name}");
        assert!(
            report
                .skipped
                .iter()
                .any(|s| s.starts_with(name) && s.contains("fewer than two")),
            "{name} in {:?}",
            report.skipped
        );
    }
}

/// A figure skipped as too rare says how many games would compare it, and
/// that many do: seat 1's wins with two players (a chance near 0.51) need
/// 10,000 expected wins of the rarer outcome, about 20,400 games.
#[test]
fn a_figure_too_rare_says_how_many_games_would_compare_it() {
    let board = Board::builtin_default();
    let config = |games| {
        SimulationConfig::new(games, Seed::new(2))
            .unwrap()
            .with_players(2)
            .unwrap()
    };
    let few = check(&board, &config(2_000)).unwrap();
    let why = few.verdict(&CheckReport::seat_wins(1)).unwrap_err();
    let games: u64 = why
        .strip_prefix("too rare (needs ")
        .and_then(|rest| rest.strip_suffix(" games)"))
        .unwrap_or_else(|| panic!("{why}"))
        .replace(',', "")
        .parse()
        .unwrap();
    assert!((20_000..21_000).contains(&games), "{games}");
    let enough = check(&board, &config(games)).unwrap();
    assert!(enough.verdict(&CheckReport::seat_wins(1)).is_ok());
}
