//! The exact mean of a board's game length as a certified fraction
//! (docs/exact-modular.md): the modular solver answers every board
//! `validate` accepts, within the work and memory limits.
//!
//! `cargo run --release --example exact_certified -- [BOARD.json]`
//! (the built-in board without one).

use snakeladder::{Analysis, Board, Options};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(std::env::args().nth(1))
}

/// Prints the certified exact mean of the board at `path` (the built-in
/// board without one) and checks the built-in board's figure.
fn run(path: Option<String>) -> Result<(), Box<dyn std::error::Error>> {
    let board = match &path {
        Some(path) => Board::from_path(path)?,
        None => Board::builtin_default(),
    };
    let started = Instant::now();
    let analysis = Analysis::new(&board, &Options::default().exact(true))?;
    let seconds = started.elapsed().as_secs_f64();
    let exact = analysis.exact.as_ref().ok_or("no exact figures")?;
    println!(
        "mean turns: {} = {:.6}",
        exact.mean_turns, analysis.turns.mean
    );
    println!("{}", exact.certified);
    println!(
        "the float solve differs by {:.1e} (relative)",
        exact.relative_difference
    );
    println!("{seconds:.3} s for the whole analysis");
    if path.is_none() {
        // The built-in board's mean, as the README's first example prints it.
        assert_eq!(format!("{:.4}", analysis.turns.mean), "39.5984");
        assert!(exact.agrees());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::run(None).unwrap();
        let althoen = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/althoen-1993.json");
        super::run(Some(althoen.to_string())).unwrap();
    }
}
