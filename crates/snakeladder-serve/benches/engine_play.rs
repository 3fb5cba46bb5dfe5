//! What the turn engine's bookkeeping costs over the bare move function.
//!
//! All three play the same seeded three-player games on the default board
//! (same dice stream, same rolls), so their times compare directly:
//! `bare` is a minimal loop over `Board::play_roll` (the baseline), `game`
//! is `Game::play_out` (history, turn results, ranking state), `table` is
//! the same game driven through `Table::roll` (a mutex and the turn-number
//! check per roll). Quote `game / bare` and `table / bare`.

use criterion::{Criterion, criterion_group, criterion_main};
use snakeladder::{Board, Finish, Game, Roller, Seed, SeededDice, Square};
use snakeladder_serve::table::{RollAnswer, Table};
use std::hint::black_box;
use std::sync::Arc;

const GAMES: u64 = 100;

fn bare(board: &Board, seed: u64) -> u64 {
    let mut dice = SeededDice::for_dice(board.rules().dice(), Seed::new(seed));
    let mut pos = [board.rules().start(); 3];
    let (mut seat, mut before, mut rolls) = (0usize, 0u32, 0u64);
    loop {
        let step = board.play_roll(pos[seat], before, dice.roll().unwrap());
        rolls += 1;
        pos[seat] = step.end;
        if step.finished {
            return rolls;
        }
        if step.extra_roll {
            before += 1;
        } else {
            before = 0;
            seat = (seat + 1) % 3;
        }
    }
}

fn bench(c: &mut Criterion) {
    let board = Arc::new(Board::builtin_default());
    let players = ["Ana", "Bo", "Cy"];
    // The three loops must play the very same games.
    for seed in 0..GAMES {
        let mut g =
            Game::seeded(board.clone(), players, Seed::new(seed), Finish::FirstWinner).unwrap();
        g.play_out(u64::MAX).unwrap();
        assert_eq!(g.rolls_played(), bare(&board, seed));
        assert!(g.positions().contains(&Square::new(100)));
    }
    let mut group = c.benchmark_group("100 seeded games, 3 players, default board");
    group.bench_function("bare play_roll loop (baseline)", |b| {
        b.iter(|| (0..GAMES).map(|s| bare(&board, black_box(s))).sum::<u64>())
    });
    group.bench_function("Game::play_out", |b| {
        b.iter(|| {
            (0..GAMES)
                .map(|s| {
                    let mut g = Game::seeded(
                        board.clone(),
                        players,
                        Seed::new(black_box(s)),
                        Finish::FirstWinner,
                    )
                    .unwrap();
                    g.play_out(u64::MAX).unwrap();
                    g.rolls_played()
                })
                .sum::<u64>()
        })
    });
    group.bench_function("Table::roll", |b| {
        b.iter(|| {
            (0..GAMES)
                .map(|s| {
                    let g = Game::seeded(
                        board.clone(),
                        players,
                        Seed::new(black_box(s)),
                        Finish::FirstWinner,
                    )
                    .unwrap();
                    let table = Table::new(g);
                    let mut seen = 0;
                    let mut who = "Ana".to_string();
                    loop {
                        match table.roll(&who, seen).unwrap() {
                            RollAnswer::Ok {
                                result: turn,
                                roll_number,
                            } => {
                                seen = roll_number;
                                match turn.next_player() {
                                    Some(p) => who = p.to_string(),
                                    None => break seen,
                                }
                            }
                            other => panic!("{other:?}"),
                        }
                    }
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
