//! `analyze`'s text: every exact figure of a board, for a terminal.

use crate::numbers::{percent, probability, quantity, tiny};
use crate::probability_text;
use crate::vocabulary::{self, MEAN_TURNS};
use snakeladder::Analysis;
use snakeladder::Board;
use std::io::Write;

/// A turn count, or `-` when unknown.
fn show(t: Option<usize>) -> String {
    t.map_or_else(|| "-".to_string(), |t| t.to_string())
}

/// Writes `analyze`'s text: the board, the turns of one player (moments,
/// quantiles, the exact mean when computed, the shortest game, the tail's
/// decay and a histogram), the players table, the jumps and the squares
/// most rested on. `analysis` is of `board`; its notes and warnings come
/// first.
///
/// ```
/// use snakeladder::{Analysis, Board, Options};
///
/// let board = Board::builtin_default();
/// let analysis = Analysis::new(&board, &Options::default().players([2]))?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_analysis(&mut text, &board, &analysis)?;
/// let text = String::from_utf8(text)?;
/// assert!(text.starts_with("Milton Bradley"));
/// assert!(text.contains("Players (each seat's chance of winning"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_analysis(out: &mut impl Write, board: &Board, a: &Analysis) -> std::io::Result<()> {
    write_identity(out, board, a)?;
    write_turns(out, board, a)?;
    if !a.players.is_empty() {
        write_players(out, a)?;
    }
    if !a.jumps.is_empty() {
        write_jumps(out, a)?;
    }
    write_busiest_squares(out, board, a)
}

/// The board's name, fingerprint, size and rules, and the analysis's
/// notes (figures skipped) and warnings.
fn write_identity(out: &mut impl Write, board: &Board, a: &Analysis) -> std::io::Result<()> {
    let name = crate::escape::terminal(a.board.name.as_deref().unwrap_or("Unnamed board"));
    writeln!(out, "{name}")?;
    writeln!(
        out,
        "  fingerprint {}  ·  {} squares, {}  ·  {} states",
        a.fingerprint,
        a.board.squares,
        crate::vocabulary::jump_counts(a.board.snakes, a.board.ladders, ", "),
        a.board.states
    )?;
    writeln!(out, "  rules: {}", board.rules())?;
    for skip in &a.skipped {
        writeln!(out, "  note: {skip}")?;
    }
    for warning in &a.warnings {
        writeln!(out, "  warning: {warning}")?;
    }
    writeln!(out)
}

/// The turns of one player: moments and quantiles, the exact mean, the
/// rolls, the shortest game, the tail's decay, and the histogram.
fn write_turns(out: &mut impl Write, board: &Board, a: &Analysis) -> std::io::Result<()> {
    let t = &a.turns;
    writeln!(out, "Turns of one player")?;
    writeln!(
        out,
        "  mean {}   std dev {}   variance {}",
        quantity(t.mean, 4),
        quantity(t.std_dev, 4),
        quantity(t.variance, 4)
    )?;
    writeln!(
        out,
        "  min {}   mode {}   median {}   p90 {}   p99 {}",
        show(t.min),
        show(t.mode),
        show(t.median),
        show(t.p90),
        show(t.p99)
    )?;
    if let Some(ex) = &a.exact {
        write_exact_mean(out, ex, t.mean)?;
    }
    if board.rules().extra_turn().is_some() {
        writeln!(
            out,
            "  rolls: mean {}   variance {}",
            quantity(a.rolls.mean, 4),
            quantity(a.rolls.variance, 4)
        )?;
    }
    if let Some(s) = &a.shortest {
        write_shortest(out, s)?;
    }
    write_decay(out, t)?;
    write_histogram(out, &t.pmf, t.p99.unwrap_or(t.pmf.len()))?;
    if t.pmf.is_empty() {
        writeln!(
            out,
            "  (mode, median, p90, p99: from the length distribution, which was skipped; see the notes above)"
        )?;
    } else {
        writeln!(
            out,
            "  (p90, p99: the smallest t with P(T ≤ t) ≥ 0.9, 0.99; distribution to a tail of {})",
            tiny(t.tail)
        )?;
    }
    writeln!(out)
}

/// The exact mean beside the floating-point one (`mean`), its certificate,
/// and how far apart they are.
fn write_exact_mean(
    out: &mut impl Write,
    ex: &snakeladder::analysis::Exact,
    mean: f64,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  exact mean {} (≈ {})",
        ex.mean_turns,
        quantity(mean, 12)
    )?;
    writeln!(out, "    (certified {})", ex.certified)?;
    if ex.agrees() {
        writeln!(
            out,
            "    (agrees with the floating-point mean to {} relative)",
            tiny(ex.relative_difference)
        )
    } else {
        writeln!(
            out,
            "    (the floating-point solve was off by {} relative; the figures above use the exact mean)",
            tiny(ex.relative_difference)
        )
    }
}

/// The shortest game: its turns, rolls that play it, and its probability
/// however small.
fn write_shortest(
    out: &mut impl Write,
    s: &snakeladder::analysis::Shortest,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  shortest game {} turn{}, e.g. rolling {} (P(T = {}) = {})",
        s.turns,
        if s.turns == 1 { "" } else { "s" },
        s.rolls_text(" "),
        s.turns,
        if s.probability_log10 > -300.0 {
            probability(10f64.powf(s.probability_log10), 6)
        } else {
            probability_text(s.probability_log10)
        }
    )
}

/// How long games fade: the tail's rate ρ when it is known closely, else
/// where the distribution was continued from a looser ρ, and its error.
fn write_decay(out: &mut impl Write, t: &snakeladder::analysis::Turns) -> std::io::Result<()> {
    let narrow =
        |d: &&snakeladder::analysis::Decay| d.high - d.low <= snakeladder::internals::DECAY_PRINTED;
    if let Some(d) = t.decay.as_ref().filter(narrow) {
        writeln!(
            out,
            "  long games: each extra turn survives with probability ρ = {:.10} (the tail halves every {:.1} turns{})",
            d.rate,
            std::f64::consts::LN_2 / -(d.rate - 1.0).ln_1p(),
            match d.from_turn {
                Some(turn) => format!("; turns after {turn} computed from ρ"),
                None => String::new(),
            }
        )?;
    } else if let Some((d, turn)) = t.decay.as_ref().and_then(|d| Some((d, d.from_turn?))) {
        writeln!(
            out,
            "  turns after {turn} computed from the tail's geometric decay (ρ = {:.10} ± {:.1e}, error at most {})",
            d.rate,
            (d.high - d.low) / 2.0,
            tiny(d.error)
        )?;
    }
    Ok(())
}

/// Each jump: its expected uses a game, the chance it is used at all, and
/// the mean length without it.
fn write_jumps(out: &mut impl Write, a: &Analysis) -> std::io::Result<()> {
    let t = &a.turns;
    writeln!(
        out,
        "Jumps                  uses a game   used at least once   mean turns without it"
    )?;
    for j in &a.jumps {
        let label = format!("{} {}→{}", j.kind, j.from, j.to);
        let without = match j.mean_turns_without {
            // A mean of turns, written as every table writes one.
            Some(m) => format!(
                "{:>9} ({})",
                MEAN_TURNS.format(m),
                MEAN_TURNS.format_change(m - t.mean)
            ),
            None => "  never ends".to_string(),
        };
        writeln!(
            out,
            "  {label:<20} {:>10}   {:>18}   {without}",
            quantity(j.expected_uses, 4),
            percent(j.use_probability, 2)
        )?;
    }
    writeln!(out)
}

/// The squares rested on most (the start left out), with their chance of
/// a rest and the turns left from them.
fn write_busiest_squares(out: &mut impl Write, board: &Board, a: &Analysis) -> std::io::Result<()> {
    let mut busiest: Vec<_> = a
        .squares
        .iter()
        .filter(|s| s.square != board.rules().start())
        .collect();
    busiest.sort_by(|x, y| y.expected_rests.total_cmp(&x.expected_rests));
    writeln!(
        out,
        "Squares most rested on (all {} in --format json)",
        a.squares.len()
    )?;
    writeln!(
        out,
        "  square   rests a game   P(ever rests there)   turns left from there"
    )?;
    for s in busiest.iter().take(8) {
        let p = s.rest_probability.map_or_else(
            || "-".to_string(),
            |p| vocabulary::SQUARE_EVER_RESTS.format(p),
        );
        let left = s
            .turns_left
            .map_or_else(|| "-".to_string(), |t| quantity(t, 2));
        writeln!(
            out,
            "  {:>6}   {:>12}   {:>19}   {:>21}",
            s.square,
            vocabulary::SQUARE_RESTS.format(s.expected_rests),
            p,
            left
        )?;
    }
    Ok(())
}

/// A small bar chart of P(T = t) in bins, up to `until` turns.
fn write_histogram(out: &mut impl Write, pmf: &[f64], until: usize) -> std::io::Result<()> {
    const ROWS: usize = 12;
    let until = until.clamp(1, pmf.len().max(1));
    let width = until.div_ceil(ROWS).max(1);
    let bins: Vec<(usize, f64)> = (0..until)
        .step_by(width)
        .map(|lo| (lo + 1, pmf[lo..(lo + width).min(pmf.len())].iter().sum()))
        .collect();
    let top = bins.iter().map(|b| b.1).fold(0.0, f64::max);
    if top <= 0.0 {
        return Ok(());
    }
    writeln!(out, "  P(T in range)")?;
    for (lo, p) in bins {
        let hi = lo + width - 1;
        let bar = "█".repeat(((p / top) * 40.0).round() as usize);
        writeln!(out, "  {lo:>5}–{hi:<5} {:>7}  {bar}", percent(p, 2))?;
    }
    Ok(())
}

/// Seats shown on one line of the players table; more wrap onto
/// continuation lines, so every requested seat is shown.
const SEATS_PER_LINE: usize = 6;

/// The players table: per player count, the total turns, the rounds and
/// every seat's chance of winning.
fn write_players(out: &mut impl Write, a: &Analysis) -> std::io::Result<()> {
    let widest = a.players.iter().map(|p| p.count).max().unwrap_or(0) as usize;
    writeln!(
        out,
        "Players (each seat's chance of winning; seats in turn order)"
    )?;
    let mut header = "  players  total turns  rounds".to_string();
    for i in 1..=widest.min(SEATS_PER_LINE) {
        header += &format!("  {:>8}", format!("seat {i}"));
    }
    writeln!(out, "{header}")?;
    let indent = "  players  total turns  rounds".len();
    for p in &a.players {
        let mut line = format!(
            "  {:>7}  {:>11}  {:>6}",
            p.count,
            crate::numbers::quantity(p.expected_total_turns, 2),
            crate::numbers::quantity(p.expected_rounds, 2)
        );
        for (i, w) in p.win_probability.iter().enumerate() {
            if i > 0 && i % SEATS_PER_LINE == 0 {
                writeln!(out, "{line}")?;
                let last = (i + SEATS_PER_LINE).min(p.win_probability.len());
                let seats = if last == i + 1 {
                    format!("seat {last}:")
                } else {
                    format!("seats {}–{last}:", i + 1)
                };
                line = format!("{seats:>width$}", width = indent);
            }
            line += &format!("  {:>8}", crate::vocabulary::WIN_CHANCE.format(*w));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out)
}
