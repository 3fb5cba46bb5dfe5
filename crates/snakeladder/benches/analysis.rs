//! Speed of the analysis of the default board, against baselines measured in
//! the same run: compiling the chain alone, and a plain nalgebra LU of a
//! matrix of the same size. And the length distribution of a long
//! 10,000-square board (`generate --squares 10000 --snakes 300 --ladders 100
//! --seed 7`, mean 292,147 turns with the current generator), against a bare loop over its move table
//! (one turn of the forward recursion): the ratio is the number of turns
//! the distribution costs.
//!
//! `cargo bench --bench analysis`

use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::DMatrix;
use snakeladder::Board;
use snakeladder::design::Layout;
use snakeladder::internals::Chain;
use snakeladder::internals::{exact, modular};
use snakeladder::{Analysis, Options};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let board = Board::builtin_default();
    let chain = Chain::compile(&board).expect("compiles");
    let n = chain.len();
    let mut group = c.benchmark_group("default board");
    group.bench_function("baseline: compile the chain", |b| {
        b.iter(|| Chain::compile(black_box(&board)))
    });
    let matrix = DMatrix::<f64>::from_fn(n, n, |i, j| if i == j { 2.0 } else { 1.0 / (n as f64) });
    group.bench_function("baseline: nalgebra LU + one solve, same size", |b| {
        b.iter(|| {
            black_box(matrix.clone())
                .lu()
                .solve(&nalgebra::DVector::from_element(n, 1.0))
        })
    });
    group.bench_function("mean turns only", |b| {
        b.iter(|| snakeladder::Analysis::mean_turns(black_box(&board)))
    });
    let options = Options::default();
    group.bench_function("full float analysis", |b| {
        b.iter(|| Analysis::new(black_box(&board), &options))
    });
    group.bench_function("exact fraction of the mean, modular (certified)", |b| {
        b.iter(|| modular::solve_within(black_box(&board), &chain, false, f64::INFINITY, u64::MAX))
    });
    group.bench_function("exact mean and variance, modular (certified)", |b| {
        b.iter(|| modular::solve_within(black_box(&board), &chain, true, f64::INFINITY, u64::MAX))
    });
    group.sample_size(20);
    group.bench_function("exact fraction of the mean", |b| {
        b.iter(|| exact::mean_turns(black_box(&board), &chain))
    });
    group.finish();
    long_board(c);
}

fn long_board(c: &mut Criterion) {
    let board = Layout::new(10_000, 300, 100, snakeladder::Seed::new(7))
        .generate()
        .expect("generates");
    let chain = Chain::compile(&board).expect("compiles");
    // The move table as flat arrays: the bare loop a turn of stepping is.
    let mut table = Vec::with_capacity(chain.entries());
    let mut offsets = vec![0];
    for s in chain.states() {
        for t in chain.row(s) {
            if let snakeladder::internals::Target::State(e) = t.to {
                table.push((e.get() as u32, t.probability));
            }
        }
        offsets.push(table.len());
    }
    let n = chain.len();
    let pi = vec![1.0 / n as f64; n];
    let mut next = vec![0.0; n];
    let mut group = c.benchmark_group("long 10,000-square board");
    group.sample_size(10);
    group.bench_function("baseline: one turn, a bare loop over the move table", |b| {
        b.iter(|| {
            next.fill(0.0);
            for (s, &mass) in pi.iter().enumerate() {
                for &(to, p) in &table[offsets[s]..offsets[s + 1]] {
                    next[to as usize] += mass * p;
                }
            }
            black_box(&next);
        })
    });
    group.bench_function("length distribution to a 1e-12 tail", |b| {
        b.iter(|| {
            snakeladder::internals::length_distribution(
                black_box(&chain),
                chain.start(),
                usize::MAX,
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
