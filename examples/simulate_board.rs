//! Simulates the default board with a fixed seed and prints the mean number
//! of turns with its standard error, and each seat's chance in a
//! two-player game.
//!
//! Run with `cargo run --release --example simulate_board`.

use snakeladder::Board;
use snakeladder::Seed;
use snakeladder::simulate::{SimulationConfig, simulate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = Board::builtin_default();
    let config = SimulationConfig::new(100_000, Seed::new(2026))?.with_players(2)?;
    let report = simulate(&board, &config)?;
    println!(
        "{} games of {}: one player needs {:.3} ± {:.3} turns (mean ± standard error)",
        report.games,
        board.name().unwrap_or("the default board"),
        report.turns.mean,
        report.turns.std_error,
    );
    let game = report.game();
    for (seat, (p, se)) in game
        .win_probability
        .iter()
        .zip(&game.win_probability_std_error)
        .enumerate()
    {
        println!("seat {} wins {:.4} ± {:.4}", seat + 1, p, se);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::main().unwrap()
    }
}
