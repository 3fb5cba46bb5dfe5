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
//! - `ten million squares/...`: the largest boards validation accepts
//!   (issue 18), against a bare pass over the same board's move table
//!   measured in the same run: compiling the chain of 10,000,000 squares
//!   with 10,000 snakes and 10,000 ladders (seed 1, the board of
//!   `generate --squares 10000000 --snakes 10000 --ladders 10000 --seed 1`)
//!   and estimating its factorisation (what an analysis does before it
//!   refuses past `--max-memory`); and the mean and variance of 10,000,000
//!   squares with 100 snakes and 100 ladders and with 10,000 of each (the
//!   latter about half a minute an iteration, since the column sweeps skip
//!   plain stretches and S is eliminated in blocks: docs/sparse-solver.md
//!   §8). Skip this group with
//!   `cargo bench --bench sparse -- --skip 'ten million'`: it takes about
//!   ten minutes and up to 5 GB.
//!
//! Run with `cargo bench --bench sparse`; timings on a shared machine are
//! noisy, so compare ratios within one run.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use snakeladder::Options;
use snakeladder::Seed;
use snakeladder::design::Layout;
use snakeladder::internals;
use snakeladder::internals::Chain;
use snakeladder::internals::{Method, factor, factor_with, solver_estimate};
use std::hint::black_box;
use std::time::Duration;

fn board(squares: u32, jumps: u32) -> (snakeladder::Board, Chain) {
    let board = Layout::new(squares, jumps / 2, jumps / 2, Seed::new(42))
        .generate()
        .unwrap();
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
                    let solver = factor_with(&chain, method).unwrap();
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
                    let solver = factor_with(&chain, method).unwrap();
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
                let solver = factor_with(&chain, Method::Sparse).unwrap();
                black_box(solver.solve(&ones)[chain.start().get()])
            })
        });
    }
    group.finish();
}

/// One turn of the forward recursion over `chain`'s move table, as bare
/// flat arrays: the least any pass over the chain can cost.
fn move_table_pass(chain: &Chain) -> impl FnMut() -> f64 {
    let mut table = Vec::with_capacity(chain.entries());
    let mut offsets = Vec::with_capacity(chain.len() + 1);
    offsets.push(0);
    for s in chain.states() {
        for t in chain.row(s) {
            if let internals::Target::State(e) = t.to {
                table.push((e.get() as u32, t.probability));
            }
        }
        offsets.push(table.len());
    }
    let n = chain.len();
    let pi = vec![1.0 / n as f64; n];
    let mut next = vec![0.0; n];
    move || {
        next.fill(0.0);
        for (s, &mass) in pi.iter().enumerate() {
            for &(to, p) in &table[offsets[s]..offsets[s + 1]] {
                next[to as usize] += mass * p;
            }
        }
        next[n - 1]
    }
}

/// Factor `chain` and solve for the mean and the variance of the game's
/// length from its start (two solves).
fn mean_and_variance(chain: &Chain) -> (f64, f64) {
    let solver = factor(chain).unwrap();
    let t = solver.expected_steps();
    let nt = solver.solve(&t);
    let s = chain.start().get();
    (t[s], 2.0 * nt[s] - t[s] - t[s] * t[s])
}

fn ten_million(c: &mut Criterion) {
    const SQUARES: u32 = 10_000_000;
    let mut group = c.benchmark_group("ten million squares");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_millis(100));
    let board = Layout::new(SQUARES, 10_000, 10_000, Seed::new(1))
        .generate()
        .unwrap();
    group.bench_function("compile the chain, 20,000 jumps", |b| {
        b.iter(|| Chain::compile(black_box(&board)).unwrap().len())
    });
    let chain = Chain::compile(&board).unwrap();
    let mut pass = move_table_pass(&chain);
    group.bench_function(
        "baseline: one pass over the move table, 20,000 jumps",
        |b| b.iter(&mut pass),
    );
    drop(pass);
    group.bench_function("estimate the factorisation, 20,000 jumps", |b| {
        b.iter(|| solver_estimate(black_box(&chain)))
    });
    // About half a minute an iteration: criterion's least sample (10) and
    // its warm-up make this one function take about six minutes.
    group.bench_function("mean and variance, 20,000 jumps", |b| {
        b.iter(|| mean_and_variance(black_box(&chain)))
    });
    drop(chain);
    let board = Layout::new(SQUARES, 100, 100, Seed::new(1))
        .generate()
        .unwrap();
    let chain = Chain::compile(&board).unwrap();
    let mut pass = move_table_pass(&chain);
    group.bench_function("baseline: one pass over the move table, 200 jumps", |b| {
        b.iter(&mut pass)
    });
    drop(pass);
    group.bench_function("mean and variance, 200 jumps", |b| {
        b.iter(|| mean_and_variance(black_box(&chain)))
    });
    group.finish();
}

criterion_group!(benches, crossover, mean, large, ten_million);
criterion_main!(benches);
