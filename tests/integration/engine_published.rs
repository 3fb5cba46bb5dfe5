//! The engine against published figures: over many seeded games, the mean
//! number of rolls a player needs to finish must agree with the exact
//! expected game length of a single player.
//!
//! Playing to the last, each player's rolls are an i.i.d. stream of the
//! board's dice (whose roll it is never depends on the roll's value), so the
//! number of rolls each player takes to finish is a sample of the
//! single-player finishing time T. Taking only the players who finished
//! would bias the sample short (the winner's time is the minimum of two), so
//! the last one left, who never rolls again, is played on from their square
//! with fresh dice: by the Markov property the total is still a sample of T.
//! No extra-roll rule on these boards, so one roll is one turn.

use snakeladder::{Board, Event, Finish, Game, Placing, Roller, Seed, SeededDice};
use std::sync::Arc;

/// Games per board: 2 players each, so twice as many samples of T. Large
/// enough for a standard error near 0.3 turns, small enough to run in well
/// under a second.
const GAMES: u64 = 4_000;

/// Standard errors allowed: a correct engine lands outside this by chance
/// with probability about 6e-7 (and the seeds are fixed, so never flaky),
/// while a broken rule (a snake ignored, a ladder missed, a wrong overshoot)
/// shifts the mean by several turns, far beyond 5 × 0.3.
const SIGMAS: f64 = 5.0;

fn mean_rolls_to_finish(board: Board, seed_base: u64) -> (f64, f64) {
    let board = Arc::new(board);
    let mut samples = Vec::new();
    for g in 0..GAMES {
        let mut game = Game::seeded(
            board.clone(),
            ["A", "B"],
            Seed::new(seed_base + g),
            Finish::ToLast,
        )
        .unwrap();
        game.play_out(1_000_000).unwrap();
        let mut rolls = [0u64; 2];
        for e in game.history() {
            let Event::Roll(t) = e else { unreachable!() };
            rolls[t.seat()] += 1;
        }
        for st in game.ranking() {
            let mut total = rolls[st.seat];
            if st.how == Placing::LastLeft {
                let mut dice = SeededDice::for_dice(board.rules().dice(), Seed::new(u64::MAX - g));
                let mut at = st.square;
                while at != board.last() {
                    at = board.play_roll(at, 0, dice.roll().unwrap()).end;
                    total += 1;
                }
            } else {
                assert_eq!((st.how, st.square), (Placing::Reached, board.last()));
            }
            samples.push(total as f64);
        }
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn mean_game_length_matches_the_classic_board() {
    // Chute 48→26, exact finish: E[T] ≈ 39.5984 (docs/figures.md §12).
    let (mean, se) = mean_rolls_to_finish(Board::builtin_default(), 0);
    assert!(
        (mean - 39.5984).abs() < SIGMAS * se,
        "mean {mean:.3} ± {se:.3}"
    );
}

#[test]
fn mean_game_length_matches_althoen_king_schilling() {
    // Chute 47→26: E[T] ≈ 39.2251 (Althoen, King and Schilling 1993).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/althoen-1993.json");
    let (mean, se) = mean_rolls_to_finish(Board::from_path(path).unwrap(), 1_000_000);
    assert!(
        (mean - 39.2251).abs() < SIGMAS * se,
        "mean {mean:.3} ± {se:.3}"
    );
}
