//! The simulator against the bare loop, in CPU time of paired runs and in
//! instructions (issue 29: at most 1.1× the CPU time and 1.05× the
//! instructions on one thread, and a near-linear two-thread speed-up).
//!
//! The bare loop is `benches/simulate.rs`'s baseline: a next-square table
//! built with `move_token`, one xoshiro256++ call and Lemire's multiply per
//! roll, counting rolls and nothing else. The engine is `simulate` with
//! every statistic, as the `simulate` command runs it.
//!
//! - `cargo bench --bench sim_ratio` (or `-- ROUNDS GAMES`): rounds of
//!   equal blocks, baseline then engine on one thread then engine on two,
//!   each timed by the process's CPU time (all threads) and by the wall
//!   clock. Each round's ratios are quoted as median, minimum and 10th
//!   percentile, so a change of load reaches all three alike.
//! - `… --bench sim_ratio -- only baseline|engine GAMES [THREADS]`: one run
//!   and nothing else, to count instructions with
//!   `valgrind --tool=callgrind target/release/deps/sim_ratio-… only baseline 200000`.

use snakeladder::Board;
use snakeladder::Seed;
use snakeladder::simulate::{SimulationConfig, simulate};
use std::hint::black_box;
use std::time::Instant;

#[path = "common/bare_loop.rs"]
mod bare_loop;
use bare_loop::{baseline, move_table};

/// The engine with every statistic, as `simulate --threads T` runs it: the
/// rolls it made.
fn engine(board: &Board, games: u64, threads: usize) -> u64 {
    let config = SimulationConfig::new(games, Seed::new(0))
        .expect("valid games")
        .with_threads(threads)
        .expect("valid threads");
    let report = simulate(board, &config).expect("simulates");
    (report.rolls.mean * report.tokens as f64).round() as u64
}

/// This process's CPU time, every thread (also those that have ended), in
/// seconds: the standard library has no CPU clock, hence the one call to C.
#[allow(unsafe_code)]
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// `(cpu seconds, wall seconds, rolls)` of one call of `f`.
fn timed(f: impl FnOnce() -> u64) -> (f64, f64, u64) {
    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let rolls = black_box(f());
    (cpu_seconds() - cpu, wall.elapsed().as_secs_f64(), rolls)
}

/// Median, minimum and 10th percentile of `v` (sorted in place).
fn spread(v: &mut [f64]) -> [f64; 3] {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    [at(0.5), v[0], at(0.1)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board = Board::builtin_default();
    let last = board.last().get();
    let next = move_table(&board);
    if let Some(at) = args.iter().position(|a| a == "only") {
        let what = args.get(at + 1).map(String::as_str);
        let games: u64 = args
            .get(at + 2)
            .and_then(|g| g.parse().ok())
            .unwrap_or(200_000);
        let threads: usize = args.get(at + 3).and_then(|t| t.parse().ok()).unwrap_or(1);
        let rolls = match what {
            Some("baseline") => baseline(&next, last, games, 1),
            Some("engine") => engine(&board, games, threads),
            _ => panic!("`only baseline|engine GAMES [THREADS]`"),
        };
        println!("{games} games, {rolls} rolls");
        return;
    }
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let rounds = numbers.first().copied().unwrap_or(15) as usize;
    let games = numbers.get(1).copied().unwrap_or(1_000_000);
    // Warm up the caches and the CPU's clock.
    baseline(&next, last, games / 4, 1);
    engine(&board, games / 4, 1);
    let names = [
        "baseline (bare loop)",
        "engine, 1 thread",
        "engine, 2 threads",
    ];
    let mut ns_per_roll: [Vec<f64>; 3] = Default::default();
    let mut wall_per_roll: [Vec<f64>; 3] = Default::default();
    let mut ratios: [Vec<f64>; 3] = Default::default();
    for round in 0..rounds {
        let runs = [
            timed(|| baseline(&next, last, games, round as u64 + 1)),
            timed(|| engine(&board, games, 1)),
            timed(|| engine(&board, games, 2)),
        ];
        let per_roll = runs.map(|(cpu, wall, rolls)| (cpu / rolls as f64, wall / rolls as f64));
        for ((cpu, wall), (c, w)) in ns_per_roll.iter_mut().zip(&mut wall_per_roll).zip(per_roll) {
            cpu.push(c * 1e9);
            wall.push(w * 1e9);
        }
        // CPU time per roll against the bare loop's, and the two-thread
        // speed-up in wall time (CPU time per roll should stay the same).
        ratios[0].push(per_roll[1].0 / per_roll[0].0);
        ratios[1].push(per_roll[2].0 / per_roll[1].0);
        ratios[2].push(per_roll[1].1 / per_roll[2].1);
    }
    println!(
        "built-in board, {games} games a block, {rounds} interleaved rounds (median [min, p10])"
    );
    for ((name, cpu), wall) in names.iter().zip(&mut ns_per_roll).zip(&mut wall_per_roll) {
        let [mid, low, p10] = spread(cpu);
        let [wmid, wlow, wp10] = spread(wall);
        println!(
            "  {name:<22} CPU {mid:6.3} ns/roll [{low:.3}, {p10:.3}]   wall {wmid:6.3} ns/roll [{wlow:.3}, {wp10:.3}]"
        );
    }
    let what = [
        "1 thread CPU / baseline CPU",
        "2 threads CPU / 1 thread CPU",
        "2 threads wall speed-up",
    ];
    for (name, v) in what.iter().zip(&mut ratios) {
        let [mid, low, p10] = spread(v);
        println!("  {name:<30} {mid:6.3} × [{low:.3}, {p10:.3}]");
    }
}
