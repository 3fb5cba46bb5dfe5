//! `play`'s text: the game's header line and its result.

use snakeladder::{Board, Seed, Status};
use std::io::{self, Write};

/// The first line of a game's transcript: the board's name, the players
/// in seat order, and the seed of the dice (or `recorded rolls` for a
/// replay without one).
///
/// ```
/// use snakeladder::{Board, Seed};
///
/// let board = Board::builtin_default();
/// let players = ["Ana".to_string(), "Bo".to_string()];
/// let line = snakeladder_render::text::game_header(&board, &players, Some(Seed::new(42)));
/// assert!(line.ends_with(": Ana, Bo; seed 42"));
/// ```
pub fn game_header(board: &Board, players: &[String], seed: Option<Seed>) -> String {
    let name = crate::escape::terminal(board.name().unwrap_or("Board"));
    let dice = match seed {
        Some(seed) => format!("seed {seed}"),
        None => "recorded rolls".to_string(),
    };
    format!(
        "{name}: {}; {dice}",
        crate::escape::terminal(&players.join(", "))
    )
}

/// Writes how a game ended (`Winner: Ana`, `Aborted: every player left`
/// or `Unfinished`) and its ranking, one standing a line.
pub fn write_game_result(
    out: &mut dyn Write,
    status: &Status,
    ranking: &[snakeladder::Standing],
) -> io::Result<()> {
    match status {
        Status::Won { winner } => writeln!(out, "Winner: {winner}")?,
        Status::Aborted => writeln!(out, "Aborted: every player left")?,
        Status::InProgress => writeln!(out, "Unfinished")?,
    }
    writeln!(out, "Ranking:")?;
    for st in ranking {
        writeln!(out, "  {}", st.describe())?;
    }
    Ok(())
}
