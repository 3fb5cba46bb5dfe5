//! Speed of the analysis of the default board, against baselines measured in
//! the same run: compiling the chain alone, and a plain nalgebra LU of a
//! matrix of the same size.
//!
//! `cargo bench --bench analysis`

use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::DMatrix;
use snakeladder::Board;
use snakeladder::analysis::{Analysis, Options, mean_turns};
use snakeladder::internals::Chain;
use snakeladder::internals::exact;
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
        b.iter(|| mean_turns(black_box(&board)))
    });
    let options = Options::default();
    group.bench_function("full float analysis", |b| {
        b.iter(|| Analysis::new(black_box(&board), &options))
    });
    group.sample_size(20);
    group.bench_function("exact fraction of the mean", |b| {
        b.iter(|| exact::mean_turns(black_box(&board), &chain))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
