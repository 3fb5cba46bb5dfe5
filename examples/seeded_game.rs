//! Plays one seeded game on the default board, prints every move in words,
//! the winner and the ranking, then shows that the record replays it.
//!
//! `cargo run --example seeded_game`

use snakeladder::{Board, Finish, Game, GameRecord, Seed, Status};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = Arc::new(Board::builtin_default());
    let mut game = Game::seeded(
        board.clone(),
        ["Ana", "Bo", "Cy"],
        Seed::new(42),
        Finish::FirstWinner,
    )?;
    while !game.status().is_over() {
        let turn = game.roll()?;
        println!("{}", turn.describe(&board));
    }
    if let Status::Won { winner } = game.status() {
        println!("Winner: {winner} after {} rolls", game.rolls_played());
    }
    for standing in game.ranking() {
        println!("  {}", standing.describe());
    }
    let record = GameRecord::from_json(&game.record().to_json())?;
    let replayed = record.replay()?;
    assert_eq!(replayed.history(), game.history());
    println!(
        "The record replays the same {} rolls.",
        replayed.rolls_played()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::main().unwrap()
    }
}
