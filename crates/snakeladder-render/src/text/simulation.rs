//! `simulate`'s text: every statistic of many seeded games with its
//! standard error.

use crate::numbers::percent;
use snakeladder::simulate::{self, SimulationReport};
use std::io::Write;

/// Writes `simulate`'s text: one line each for turns and rolls (mean with
/// its standard error, spread, quantiles), the rounds and each seat's wins
/// with several players, and each jump's use. A figure whose standard
/// error cannot be estimated (one game) reads `-`.
///
/// ```
/// use snakeladder::simulate::{SimulationConfig, simulate};
/// use snakeladder::{Board, Seed};
///
/// let board = Board::builtin_default();
/// let config = SimulationConfig::new(1_000, Seed::new(7))?;
/// let report = simulate(&board, &config)?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_simulation(&mut text, &board, &report)?;
/// let text = String::from_utf8(text)?;
/// assert!(text.contains("1000 games, 1 player, seed 7"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_simulation(
    out: &mut impl Write,
    board: &snakeladder::Board,
    r: &SimulationReport,
) -> std::io::Result<()> {
    let name = crate::escape::terminal(board.name().unwrap_or("board"));
    let players = r.game().count;
    writeln!(
        out,
        "{name}: {} game{}, {players} player{}, seed {}",
        r.games,
        if r.games == 1 { "" } else { "s" },
        if players == 1 { "" } else { "s" },
        r.seed
    )?;
    if r.games < 2 {
        writeln!(
            out,
            "(one game: no standard error or std dev can be estimated; play at least 2)"
        )?;
    }
    let line = |out: &mut dyn Write, what: &str, s: &simulate::SampleSummary| {
        writeln!(
            out,
            "{what:<12} mean {:.4} ± {} (s.e.), std dev {}, median {}, p90 {}, p99 {}, min {}, max {}",
            s.mean,
            spread(s.std_error, 4),
            spread(s.std_dev, 3),
            s.median,
            s.p90,
            s.p99,
            s.min,
            s.max
        )
    };
    line(out, "turns", &r.turns)?;
    line(out, "rolls", &r.rolls)?;
    let game = r.game();
    if game.count > 1 {
        line(out, "total turns", &game.total_turns)?;
        writeln!(
            out,
            "{:<12} mean {:.4} ± {} (s.e.)",
            "rounds",
            game.expected_rounds,
            spread(game.expected_rounds_std_error, 4)
        )?;
        for (seat, (p, se)) in game
            .win_probability
            .iter()
            .zip(&game.win_probability_std_error)
            .enumerate()
        {
            writeln!(
                out,
                "seat {:<3} wins {} ± {}",
                seat + 1,
                crate::vocabulary::WIN_CHANCE.format(*p),
                spread_percent(if r.games < 2 { f64::NAN } else { *se }, 3)
            )?;
        }
    }
    for j in &r.jumps {
        writeln!(
            out,
            "{:<6} {:>3}→{:<3} uses a game {:.4} ± {}, used at least once {} ± {}",
            j.kind.as_str(),
            j.from,
            j.to,
            j.expected_uses,
            spread(j.expected_uses_std_error, 4),
            percent(j.use_probability, 2),
            spread_percent(
                if r.games < 2 {
                    f64::NAN
                } else {
                    j.use_probability_std_error
                },
                2
            )
        )?;
    }
    Ok(())
}

/// A standard error or deviation: `-` when it cannot be estimated (one
/// game), never `NaN`.
fn spread(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "-".to_string()
    }
}

/// A standard error of a probability, as a percentage; `-` when it cannot
/// be estimated.
fn spread_percent(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{:.decimals$}%", 100.0 * x)
    } else {
        "-".to_string()
    }
}
