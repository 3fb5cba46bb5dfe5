//! `play`'s text: the game's header line, the live odds between turns,
//! and its result.

use crate::numbers::percent;
use crate::probability_text;
use snakeladder::analysis::BoundedOdds;
use snakeladder::{Board, Seed, Status};
use std::io::{self, Write};

/// Undecided probability above which the odds are marked as lower bounds:
/// below it no printed digit (0.1%) can change.
const ODDS_LEFT_OUT: f64 = 1e-9;

/// Writes a line of live odds: each player's chance of winning, in seat
/// order, marked `at least` when part of the race was left undecided
/// (with how much). `order` holds the seats in turn order, as
/// [`odds`](BoundedOdds::odds) does; `players` are the ids by seat.
///
/// ```
/// use snakeladder::analysis::LiveOdds;
/// use snakeladder::{Board, Square};
///
/// let board = Board::builtin_default();
/// let start = [Square::new(0), Square::new(0)];
/// let live = LiveOdds::new(&board)?.odds_within(&start, 0, 1e9)?;
/// let players = ["Ana".to_string(), "Bo".to_string()];
/// let mut line = Vec::new();
/// snakeladder_render::text::write_odds(&mut line, &players, &[0, 1], &live)?;
/// assert!(String::from_utf8(line)?.starts_with("  odds: Ana 5"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_odds(
    out: &mut dyn Write,
    players: &[String],
    order: &[usize],
    live: &BoundedOdds,
) -> io::Result<()> {
    let mut by_seat: Vec<(usize, f64)> = order
        .iter()
        .copied()
        .zip(live.odds.iter().copied())
        .collect();
    by_seat.sort_by_key(|&(seat, _)| seat);
    let at_least = if live.left_out > ODDS_LEFT_OUT {
        "at least "
    } else {
        ""
    };
    let shown: Vec<String> = by_seat
        .iter()
        .map(|&(seat, p)| {
            format!(
                "{} {at_least}{}",
                crate::escape::terminal(&players[seat]),
                percent(p, 1)
            )
        })
        .collect();
    write!(out, "{}", wrap_odds(&shown))?;
    if live.left_out > ODDS_LEFT_OUT {
        write!(
            out,
            " (still undecided after the {} turns followed: probability {})",
            live.turns,
            probability_text(live.left_out.log10())
        )?;
    }
    writeln!(out)
}

/// Widest line of odds, in characters: past it (many players, or long
/// ids) the odds go on in lines of their own, indented under the first
/// player, so a terminal of 80 columns never wraps them mid-name.
const ODDS_WIDTH: usize = 80;

/// `  odds: ` and the players' odds, separated by `, `, in lines of at most
/// [`ODDS_WIDTH`] characters (one longer when a single entry is).
fn wrap_odds(shown: &[String]) -> String {
    const LEAD: &str = "  odds: ";
    let indent = " ".repeat(LEAD.len());
    let mut text = LEAD.to_string();
    let mut width = LEAD.len();
    for (i, entry) in shown.iter().enumerate() {
        let len = entry.chars().count();
        if i > 0 {
            // Room kept for the comma that ends a line.
            if width + 2 + len + 1 > ODDS_WIDTH {
                text.push_str(",\n");
                text.push_str(&indent);
                width = indent.len();
            } else {
                text.push_str(", ");
                width += 2;
            }
        }
        text.push_str(entry);
        width += len;
    }
    text
}

/// Writes the line that ends the live odds of a game: the race was still
/// undecided, with the probability `live` left out, when the `max_work`
/// multiply-adds a line may take were spent.
pub fn write_odds_given_up(
    out: &mut dyn Write,
    live: &BoundedOdds,
    max_work: f64,
) -> io::Result<()> {
    writeln!(
        out,
        "  odds: not computed (after {} turns, the {:.1e} multiply-adds a line may take, the race is still undecided with probability {:.2}); no more odds lines in this game",
        live.turns, max_work, live.left_out
    )
}

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
///
/// ```
/// use snakeladder::{Board, Finish, Game, Seed};
/// use std::sync::Arc;
///
/// let board = Arc::new(Board::builtin_default());
/// let mut game = Game::seeded(board, ["Ana", "Bo"], Seed::new(42), Finish::FirstWinner)?;
/// game.play_out(10_000)?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_game_result(&mut text, game.status(), &game.ranking())?;
/// let text = String::from_utf8(text)?;
/// assert!(text.starts_with("Winner: "));
/// assert!(text.contains("Ranking:\n  1. "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
        writeln!(out, "  {}", crate::escape::terminal(&st.describe()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::wrap_odds;

    #[test]
    fn odds_of_many_players_wrap_under_the_first() {
        let few = wrap_odds(&["Ana 50.8%".into(), "Bo 49.2%".into()]);
        assert_eq!(few, "  odds: Ana 50.8%, Bo 49.2%");
        let many: Vec<String> = (1..=100).map(|i| format!("P{i} 1.0%")).collect();
        let text = wrap_odds(&many);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 10, "{text}");
        for line in &lines[1..] {
            assert!(line.starts_with("        P"), "{line:?}");
        }
        for line in &lines {
            assert!(line.chars().count() <= 80, "{line:?}");
        }
        // Every entry once, in order.
        let again: Vec<&str> = text
            .trim_start_matches("  odds: ")
            .split([',', '\n'])
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        assert_eq!(again, many);
    }
}
