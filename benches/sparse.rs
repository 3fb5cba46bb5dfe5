//! The sparse solver against the dense one, to choose the switch point
//! (`DENSE_MAX_STATES`), and the sparse path on large boards.
//!
//! Groups:
//! - `crossover/{dense,sparse}/N`: the full analysis (factor, every figure)
//!   of a random board of N squares with N/25 jumps, each solver on the
//!   same chain. The dense/sparse ratio at each N is the figure to quote.
//! - `mean/{dense,sparse}/N`: factor and one solve only (the mean).
//! - `large/sparse/N`: the mean on boards too big for the dense solver
//!   (10,000 squares and 400 jumps, 100,000 and 1,000).
//!
//! Run with `cargo bench --bench sparse`; timings on a shared machine are
//! noisy, so compare ratios within one run.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snakeladder::Seed;
use snakeladder::analysis::Options;
use snakeladder::design::{Layout, generate};
use snakeladder::internals;
use snakeladder::internals::Chain;
use snakeladder::internals::{Method, Solver};
use std::hint::black_box;
use std::time::Duration;

fn board(squares: u32, jumps: u32) -> (snakeladder::Board, Chain) {
    let board = generate(&Layout::new(squares, jumps / 2, jumps / 2, Seed::new(42))).unwrap();
    let chain = Chain::compile(&board).unwrap();
    (board, chain)
}

fn crossover(c: &mut Criterion) {
    let mut group = c.benchmark_group("crossover");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    let options = Options::default();
    for squares in [25u32, 50, 100, 300, 1_000, 2_000] {
        let (board, chain) = board(squares, squares / 25);
        for method in [Method::Dense, Method::Sparse] {
            let name = format!("{method:?}").to_lowercase();
            group.bench_function(BenchmarkId::new(name, squares), |b| {
                b.iter(|| {
                    let solver = Solver::with_method(&chain, method).unwrap();
                    black_box(
                        internals::analysis_with_chain(&board, &chain, &solver, &options).unwrap(),
                    )
                })
            });
        }
    }
    group.finish();
}

fn mean(c: &mut Criterion) {
    let mut group = c.benchmark_group("mean");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(300));
    for squares in [25u32, 50, 100, 300, 1_000, 2_000] {
        let (_, chain) = board(squares, squares / 25);
        let ones = vec![1.0; chain.len()];
        for method in [Method::Dense, Method::Sparse] {
            let name = format!("{method:?}").to_lowercase();
            group.bench_function(BenchmarkId::new(name, squares), |b| {
                b.iter(|| {
                    let solver = Solver::with_method(&chain, method).unwrap();
                    black_box(solver.solve(&ones)[chain.start().get()])
                })
            });
        }
    }
    group.finish();
}

fn large(c: &mut Criterion) {
    let mut group = c.benchmark_group("large");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    for (squares, jumps) in [(10_000u32, 400u32), (100_000, 1_000)] {
        let (_, chain) = board(squares, jumps);
        let ones = vec![1.0; chain.len()];
        group.bench_function(BenchmarkId::new("sparse", squares), |b| {
            b.iter(|| {
                let solver = Solver::with_method(&chain, Method::Sparse).unwrap();
                black_box(solver.solve(&ones)[chain.start().get()])
            })
        });
    }
    group.finish();
}

criterion_group!(benches, crossover, mean, large);
criterion_main!(benches);
