//! The certified exact mean and variance of a board's turns, by the modular
//! solver (docs/exact-modular.md), with the time it took and its size.
//!
//! `cargo run --release --example exact_certified -- BOARD.json`

use num_traits::ToPrimitive;
use snakeladder::Board;
use snakeladder::internals::{Chain, modular};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: exact_certified BOARD.json")?;
    let board = Board::from_path(&path)?;
    let chain = Chain::compile(&board)?;
    let estimate = modular::estimate(&board, &chain, true)?;
    let started = Instant::now();
    let s = modular::solve_within(&board, &chain, true, f64::INFINITY, u64::MAX)?;
    let seconds = started.elapsed().as_secs_f64();
    let variance = s.variance().ok_or("no variance")?;
    println!(
        "states {}, back states {}",
        estimate.states, estimate.back_states
    );
    println!(
        "estimate: at most {} digits, {:.2e} word operations, {} bytes",
        estimate.digits, estimate.work, estimate.bytes
    );
    println!(
        "mean {} ({} + {} digits), variance {} ({} + {} digits)",
        s.mean().to_f64().unwrap_or(f64::NAN),
        s.mean().numer().to_string().len(),
        s.mean().denom().to_string().len(),
        variance.to_f64().unwrap_or(f64::NAN),
        variance.numer().to_string().len(),
        variance.denom().to_string().len()
    );
    let c = s.certificate();
    println!(
        "certified {} (prime {}, {} p-adic digits) in {seconds:.3} s",
        c.describe(),
        c.prime,
        c.digits
    );
    Ok(())
}
