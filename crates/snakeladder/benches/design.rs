//! Speed of the design tools against baselines measured in the same run.
//!
//! - Candidates per second on the classic 100-square board, one core: one
//!   search step (solve the board, then the mean of every admissible move of
//!   every jump by an update), against the baseline of validating,
//!   compiling and solving one changed board afresh.
//! - `sensitivity` of the built-in board, means only and with the first
//!   seat's advantage of every variant.
//! - `generate` on 100 squares, 10 snakes and 10 ladders into a 1-turn band.
//! - The real workload of a large board: `sensitivity` (means, and means
//!   with the advantage) of `generate --squares 1500 --snakes 200 --ladders
//!   200 --seed 1`, against one full analysis of the same board (the ratio
//!   README's speed table quotes).
//!
//! `cargo bench --bench design`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use snakeladder::design::{GenerateOptions, Layout, Target, generate_to_target, sensitivity};
use snakeladder::internals::design::{Base, Update, admissible, moves_of};
use snakeladder::{Analysis, Board, Options, Seed};
use std::hint::black_box;

/// Every admissible (jump, move) of a board.
fn candidates(board: &Board) -> Vec<(usize, snakeladder::Jump)> {
    (0..board.jumps().len())
        .flat_map(|a| {
            moves_of(board, a)
                .into_iter()
                .filter(move |&j| admissible(board, a, j))
                .map(move |j| (a, j))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let board = Board::builtin_default();
    let moves = candidates(&board);
    let mut group = c.benchmark_group("candidates, classic board, one core");

    // Baseline: one candidate validated, compiled and solved afresh.
    let (a, j) = moves[moves.len() / 2];
    let mut spec = board.spec();
    let before = board.jumps()[a];
    for list in [&mut spec.ladders, &mut spec.snakes] {
        for p in list.iter_mut() {
            if *p == [i64::from(before.from().get()), i64::from(before.to().get())] {
                *p = [i64::from(j.from().get()), i64::from(j.to().get())];
            }
        }
    }
    group.throughput(Throughput::Elements(1));
    group.bench_function("baseline: validate, compile and solve one candidate", |b| {
        b.iter(|| {
            let moved = Board::from_spec(black_box(&spec)).unwrap();
            snakeladder::Analysis::mean_turns(&moved).unwrap()
        })
    });

    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(
        "one search step: solve, then every candidate by update",
        |b| {
            b.iter(|| {
                let base = Base::new(black_box(board.clone())).unwrap();
                let mut total = 0.0;
                for &(a, j) in &moves {
                    if let Update::Mean(m) = base.mean_after(a, Some(j)) {
                        total += m;
                    }
                }
                total
            })
        },
    );
    group.finish();

    let mut group = c.benchmark_group("design tools");
    group.sample_size(20);
    group.bench_function("sensitivity of the built-in board, means", |b| {
        b.iter(|| sensitivity(black_box(&board), false).unwrap())
    });
    group.bench_function(
        "sensitivity of the built-in board, means and advantage",
        |b| b.iter(|| sensitivity(black_box(&board), true).unwrap()),
    );
    group.sample_size(10);
    for seed in [1, 2] {
        let options = GenerateOptions::new(
            Layout::new(100, 10, 10, Seed::new(seed)),
            Target::new(35.0, 36.0).unwrap(),
        );
        group.bench_function(
            format!("generate 100 squares, 10 + 10 jumps, band 35:36, seed {seed}"),
            |b| b.iter(|| generate_to_target(black_box(&options)).unwrap()),
        );
    }
    group.finish();

    let board = Layout::new(1500, 200, 200, Seed::new(1))
        .generate()
        .unwrap();
    let mut group = c.benchmark_group("large board: 1500 squares, 200 + 200 jumps, seed 1");
    group.sample_size(10);
    group.bench_function("baseline: one full analysis", |b| {
        b.iter(|| Analysis::new(black_box(&board), &Options::default()).unwrap())
    });
    group.bench_function("sensitivity, means", |b| {
        b.iter(|| sensitivity(black_box(&board), false).unwrap())
    });
    group.bench_function("sensitivity, means and advantage", |b| {
        b.iter(|| sensitivity(black_box(&board), true).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
