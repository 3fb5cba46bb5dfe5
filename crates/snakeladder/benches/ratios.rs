//! The built-in board's mean alone and full analysis as ratios to a plain
//! nalgebra LU of the same size (issue 18's targets: at most 0.25× and 4×),
//! measured interleaved.
//!
//! `benches/analysis.rs` measures the same three with criterion, one after
//! the other, a few seconds each; on a shared two-core machine the load
//! changes between them, and the ratio of two such times moved from 3.3×
//! to 4.6× between runs of one build. Here every round times a block of
//! each in turn, so a change of load reaches all three alike. The blocks
//! are of equal length (issue 29): the warm-up measures each call, and
//! each block then makes as many calls as fill [`BLOCK_SECONDS`], the same
//! number in every round; with blocks of unequal length a preemption hits
//! the longest block most often and biases its ratio. The figures quoted
//! are the median over rounds of each round's ratio, its minimum and 10th
//! percentile (the rounds least disturbed by other work), and the ratio of
//! the fastest blocks.
//!
//! `cargo bench --bench ratios` (about 5 s; `-- 100` for 100 rounds).
//!
//! `… --bench ratios -- only lu|mean|full CALLS` makes CALLS calls of one
//! of the three and nothing else, for callgrind: run it at 20 and at 120
//! calls, and the difference over 100 is the instructions of one call with
//! start-up cancelled (docs/performance.md).

use nalgebra::{DMatrix, DVector};
use snakeladder::Board;
use snakeladder::internals::Chain;
use snakeladder::{Analysis, Options};
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

/// Length of each timed block: long enough that the clock's resolution is
/// noise, short enough that a round sees one load.
const BLOCK_SECONDS: f64 = 2e-3;

/// The median, minimum and 10th percentile of `v` (sorted in place).
fn spread(v: &mut [f64]) -> [f64; 3] {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    [at(0.5), v[0], at(0.1)]
}

/// Calls of a function taking `micros` a call that fill one block.
fn block_calls(micros: f64) -> u32 {
    (BLOCK_SECONDS * 1e6 / micros).round().max(1.0) as u32
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(600);
    let board = Board::builtin_default();
    let n = Chain::compile(&board).expect("compiles").len();
    let matrix = DMatrix::<f64>::from_fn(n, n, |i, j| if i == j { 2.0 } else { 1.0 / n as f64 });
    let ones = DVector::from_element(n, 1.0);
    let options = Options::default();
    if let Some(at) = args.iter().position(|a| a == "only") {
        let which = args.get(at + 1).map_or("", String::as_str);
        let calls: u32 = args
            .get(at + 2)
            .and_then(|c| c.parse().ok())
            .expect("only lu|mean|full CALLS");
        for _ in 0..calls {
            match which {
                "lu" => drop(black_box(black_box(matrix.clone()).lu().solve(&ones))),
                "mean" => drop(black_box(Analysis::mean_turns(black_box(&board)))),
                "full" => drop(black_box(Analysis::new(black_box(&board), &options))),
                other => panic!("only lu|mean|full CALLS, not {other:?}"),
            }
        }
        return;
    }
    let lu = || {
        black_box(black_box(matrix.clone()).lu().solve(&ones));
    };
    let mean = || {
        black_box(snakeladder::Analysis::mean_turns(black_box(&board)).expect("solves"));
    };
    let full = || {
        black_box(Analysis::new(black_box(&board), &options).expect("analyses"));
    };
    // Warm up caches, the allocator and the CPU's clock, and size the
    // blocks from the fastest of the warm-up's calls.
    let mut fastest = [f64::INFINITY; 3];
    for _ in 0..20 {
        for (t, x) in
            fastest
                .iter_mut()
                .zip([per_call(50, lu), per_call(50, mean), per_call(10, full)])
        {
            *t = t.min(x);
        }
    }
    let calls = fastest.map(block_calls);
    let (mut times, mut ratios) = ([vec![], vec![], vec![]], [vec![], vec![]]);
    for _ in 0..rounds {
        let base = per_call(calls[0], lu);
        let (m, f) = (per_call(calls[1], mean), per_call(calls[2], full));
        for (v, t) in times.iter_mut().zip([base, m, f]) {
            v.push(t);
        }
        ratios[0].push(m / base);
        ratios[1].push(f / base);
    }
    println!(
        "built-in board, {n} states, {rounds} interleaved rounds of {:.1} ms blocks \
         (median [min, p10])",
        BLOCK_SECONDS * 1e3
    );
    let names = [
        "baseline: nalgebra LU + one solve",
        "mean turns only",
        "full float analysis",
    ];
    let mut least = [0.0; 3];
    for ((name, v), (c, l)) in names
        .iter()
        .zip(&mut times)
        .zip(calls.iter().zip(&mut least))
    {
        let [mid, low, p10] = spread(v);
        *l = low;
        println!("  {name:<34} {mid:8.2} µs  [{low:.2}, {p10:.2}]  ({c} calls a block)");
    }
    for ((name, v), fast) in ["mean / baseline", "full / baseline"]
        .iter()
        .zip(&mut ratios)
        .zip([least[1], least[2]])
    {
        let [mid, low, p10] = spread(v);
        println!(
            "  {name:<34} {mid:8.3} ×   [{low:.3}, {p10:.3}]  fastest blocks {:.3} ×",
            fast / least[0]
        );
    }
}
