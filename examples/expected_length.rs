//! The expected length of a game, in turns: of the board file named on the
//! command line, or of the built-in default board.
//!
//! ```sh
//! cargo run --example expected_length -- boards/althoen-1993.json
//! ```

use snakeladder::Board;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run(std::env::args().nth(1))
}

/// Prints the expected length of the board at `path` (the built-in board
/// without one).
fn run(path: Option<String>) -> Result<(), Box<dyn std::error::Error>> {
    let board = match path {
        Some(path) => Board::from_path(path)?,
        None => Board::builtin_default(),
    };
    let name = board.name().unwrap_or("unnamed board").to_string();
    println!(
        "{name}: {:.4} turns on average",
        snakeladder::Analysis::mean_turns(&board)?
    );
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
