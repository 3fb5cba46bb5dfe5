//! The built-in board's mean alone and full analysis as ratios to a plain
//! nalgebra LU of the same size (issue 18's targets: at most 0.25× and 4×),
//! measured interleaved.
//!
//! `benches/analysis.rs` measures the same three with criterion, one after
//! the other, a few seconds each; on a shared two-core machine the load
//! changes between them, and the ratio of two such times moved from 3.3×
//! to 4.6× between runs of one build. Here every round times a block of
//! each in turn (about 5 ms a round), so a change of load reaches all
//! three alike, and the figure quoted is the median over rounds of each
//! round's ratio, with its quartiles.
//!
//! `cargo bench --bench ratios` (about 3 s; `-- 100` for 100 rounds).

use nalgebra::{DMatrix, DVector};
use snakeladder::Board;
use snakeladder::analysis::{Analysis, Options, mean_turns};
use snakeladder::internals::Chain;
use std::hint::black_box;
use std::time::Instant;

/// Microseconds per call of `f`, over a block of `calls`.
fn per_call(calls: u32, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..calls {
        f();
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(calls)
}

/// The median and quartiles of `v` (sorted in place).
fn quartiles(v: &mut [f64]) -> [f64; 3] {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    [at(0.25), at(0.5), at(0.75)]
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(600);
    let board = Board::builtin_default();
    let n = Chain::compile(&board).expect("compiles").len();
    let matrix = DMatrix::<f64>::from_fn(n, n, |i, j| if i == j { 2.0 } else { 1.0 / n as f64 });
    let ones = DVector::from_element(n, 1.0);
    let options = Options::default();
    let lu = || {
        black_box(black_box(matrix.clone()).lu().solve(&ones));
    };
    let mean = || {
        black_box(mean_turns(black_box(&board)).expect("solves"));
    };
    let full = || {
        black_box(Analysis::new(black_box(&board), &options).expect("analyses"));
    };
    // Warm up caches, the allocator and the CPU's clock.
    for _ in 0..20 {
        per_call(50, lu);
        per_call(50, mean);
        per_call(10, full);
    }
    let (mut times, mut ratios) = ([vec![], vec![], vec![]], [vec![], vec![]]);
    for _ in 0..rounds {
        let base = per_call(50, lu);
        let (m, f) = (per_call(50, mean), per_call(10, full));
        for (v, t) in times.iter_mut().zip([base, m, f]) {
            v.push(t);
        }
        ratios[0].push(m / base);
        ratios[1].push(f / base);
    }
    println!("built-in board, {n} states, {rounds} interleaved rounds (median [quartiles])");
    let names = [
        "baseline: nalgebra LU + one solve",
        "mean turns only",
        "full float analysis",
    ];
    for (name, v) in names.iter().zip(&mut times) {
        let [low, mid, high] = quartiles(v);
        println!("  {name:<34} {mid:8.2} µs  [{low:.2}, {high:.2}]");
    }
    for (name, v) in ["mean / baseline", "full / baseline"]
        .iter()
        .zip(&mut ratios)
    {
        let [low, mid, high] = quartiles(v);
        println!("  {name:<34} {mid:8.3} ×   [{low:.3}, {high:.3}]");
    }
}
