//! Throughput of the simulator against a plain baseline, in the same run.
//!
//! - `baseline`: a single-threaded loop over a precomputed next-square table
//!   (built with `move_token`), one xoshiro256++ call per roll, counting
//!   rolls and nothing else: the speed limit of a table-driven simulator.
//! - `engine/1 thread` and `engine/2 threads`: `simulate` with every
//!   statistic (turns, rolls, histograms, jump uses, rests, seats).
//! - `whole process`: `snakeladder simulate --games 10000000 --format json`
//!   run as a child process, start-up and output included: the figure the
//!   tool's users see. Its throughput is in rolls too, so it compares with
//!   the baseline of the same run.
//!
//! Throughput is in rolls (criterion's "elements"), so the ratio of the
//! engine's to the baseline's elements per second is the figure to quote.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use snakeladder::Board;
use snakeladder::Seed;
use snakeladder::simulate::{SimulationConfig, simulate};
use std::hint::black_box;
use std::process::{Command, Stdio};

#[path = "common/bare_loop.rs"]
mod bare_loop;
use bare_loop::{baseline, move_table};

/// Games per measured iteration: large enough that thread start-up is
/// noise, small enough for criterion's sampling.
const GAMES: u64 = 1 << 20;

fn bench(c: &mut Criterion) {
    let board = Board::builtin_default();
    let last = board.last().get();
    let next = move_table(&board);

    let mut group = c.benchmark_group("default board, 2^20 games");
    group.sample_size(10);
    let baseline_rolls = baseline(&next, last, GAMES, 1);
    group.throughput(Throughput::Elements(baseline_rolls));
    group.bench_function("baseline", |b| {
        b.iter(|| baseline(black_box(&next), last, GAMES, 1))
    });
    for threads in [1, 2] {
        let config = SimulationConfig::new(GAMES, Seed::new(1))
            .unwrap()
            .with_threads(threads)
            .unwrap();
        let report = simulate(&board, &config).unwrap();
        let rolls = report.rolls.mean * report.tokens as f64;
        group.throughput(Throughput::Elements(rolls.round() as u64));
        group.bench_function(format!("engine, {threads} thread(s)"), |b| {
            b.iter(|| simulate(black_box(&board), &config).unwrap())
        });
    }
    group.finish();

    // The whole process, 10 million games on every core.
    const PROCESS_GAMES: u64 = 10_000_000;
    let rolls = {
        let config = SimulationConfig::new(PROCESS_GAMES, Seed::new(0)).unwrap();
        let report = simulate(&board, &config).unwrap();
        (report.rolls.mean * report.tokens as f64).round() as u64
    };
    // The command is another package of the workspace: run the release
    // build of it (`cargo build --release` first), or the one SNAKELADDER_BIN
    // names. Without one, this benchmark says so and is not run.
    let binary = std::env::var_os("SNAKELADDER_BIN").map_or_else(
        || {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/release/snakeladder")
        },
        std::path::PathBuf::from,
    );
    if !binary.is_file() {
        eprintln!(
            "whole-process benchmark not run: no command at {} (run `cargo build --release` or set SNAKELADDER_BIN)",
            binary.display()
        );
        return;
    }
    let mut group = c.benchmark_group("default board, whole process");
    group.sample_size(10);
    group.throughput(Throughput::Elements(rolls));
    group.bench_function("simulate --games 10000000", |b| {
        b.iter(|| {
            let status = Command::new(&binary)
                .args(["simulate", "--games", "10000000", "--format", "json"])
                .stdout(Stdio::null())
                .status()
                .expect("the snakeladder binary runs");
            assert!(status.success());
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
