//! `snakeladder analyze`: every exact figure of a board.

use crate::common::{self, CliError, Format};
use crate::memory;
use snakeladder::Board;
use snakeladder::{Analysis, Options};
use snakeladder_render::numbers::{percent, probability, quantity, tiny};
use snakeladder_render::probability_text;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board file; `-` reads standard input. Without one, the built-in
    /// default board (Milton Bradley, chute 48→26).
    board: Option<PathBuf>,
    /// Player counts for the seat odds, comma-separated (each 1 to 100).
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,6",
          value_parser = clap::value_parser!(u32).range(1..=snakeladder::Board::MAX_PLAYERS as i64))]
    players: Vec<u32>,
    /// Also compute the mean number of turns as an exact fraction.
    #[arg(long)]
    exact: bool,
    /// Also rank every jump by its effect: the mean length (and, with 2
    /// among --players, the first seat's advantage) with it removed or its
    /// start or end moved by ±1, ±2, ±5 squares.
    #[arg(long)]
    sensitivity: bool,
    /// Longest `--sensitivity` may run (90, 30s, 5m, 1h); it also stops
    /// at --max-work and --max-memory, naming the limit (exit 3).
    #[arg(long, value_parser = crate::args::parse_time_limit, requires = "sensitivity")]
    time_limit: Option<std::time::Duration>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Most memory the analysis may use (e.g. 8G, 512M); past it the board
    /// is refused (exit 3) or an optional figure skipped, with the estimate.
    /// Default: half the machine's memory.
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most multiply-adds one optional figure (distribution, per-jump
    /// figures, rest probabilities) may take before it is skipped with a
    /// note. Default 2e10, about half a minute; at most 1e18.
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
}

/// `analyze --format json`'s body, shared with the designer server
/// (`snakeladder_render::json`).
pub use snakeladder_render::json::Json;

/// Runs `analyze`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let budget = crate::design::budget(args.max_work, args.max_memory, args.time_limit);
    if args.sensitivity {
        // Refused before the analysis, which on such a board can take
        // seconds only to print nothing.
        budget.check_sensitivity(&board)?;
    }
    let two_players = args.players.contains(&2);
    let mut options = Options::default()
        .players(args.players)
        .exact(args.exact)
        .max_memory(args.max_memory.unwrap_or_else(memory::default_limit));
    if let Some(w) = args.max_work {
        options = options.max_work(w);
    }
    let mut analysis =
        Analysis::new(&board, &options).map_err(common::analysis_of(args.board.as_deref()))?;
    let sensitivity = if args.sensitivity {
        Some(crate::design::sensitivity(&board, two_players, &budget)?)
    } else {
        None
    };
    let mut out = common::stdout()?;
    match args.format {
        Format::Json => {
            // Capped and versioned as the server's `POST /api/analyze`
            // answers: the same bytes for the same board and options.
            let json = snakeladder_render::json::analyze(&mut analysis, sensitivity.as_ref())
                .map_err(std::io::Error::from)?;
            out.write_all(&json)?;
        }
        Format::Text => {
            write_text(&mut out, &board, &analysis)?;
            if let Some(s) = &sensitivity {
                writeln!(out)?;
                crate::design::write_sensitivity(&mut out, &board, s)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn show(t: Option<usize>) -> String {
    t.map_or_else(|| "-".to_string(), |t| t.to_string())
}

fn write_text(out: &mut impl Write, board: &Board, a: &Analysis) -> std::io::Result<()> {
    let name = common::shown(a.board.name.as_deref().unwrap_or("Unnamed board"));
    writeln!(out, "{name}")?;
    writeln!(
        out,
        "  fingerprint {}  ·  {} squares, {}  ·  {} states",
        a.fingerprint,
        a.board.squares,
        snakeladder_render::vocabulary::jump_counts(a.board.snakes, a.board.ladders, ", "),
        a.board.states
    )?;
    writeln!(out, "  rules: {}", board.rules())?;
    for skip in &a.skipped {
        writeln!(out, "  note: {skip}")?;
    }
    for warning in &a.warnings {
        writeln!(out, "  warning: {warning}")?;
    }
    writeln!(out)?;

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
        writeln!(
            out,
            "  exact mean {} (≈ {})",
            ex.mean_turns,
            quantity(t.mean, 12)
        )?;
        writeln!(out, "    (certified {})", ex.certified)?;
        if ex.agrees() {
            writeln!(
                out,
                "    (agrees with the floating-point mean to {} relative)",
                tiny(ex.relative_difference)
            )?;
        } else {
            writeln!(
                out,
                "    (the floating-point solve was off by {} relative; the figures above use the exact mean)",
                tiny(ex.relative_difference)
            )?;
        }
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
        )?;
    }
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
    writeln!(out)?;

    if !a.players.is_empty() {
        write_players(out, a)?;
    }

    if !a.jumps.is_empty() {
        writeln!(
            out,
            "Jumps                  uses a game   used at least once   mean turns without it"
        )?;
        for j in &a.jumps {
            let label = format!("{} {}→{}", j.kind, j.from, j.to);
            let without = match j.mean_turns_without {
                Some(m) => format!(
                    "{:>8} ({}{})",
                    quantity(m, 2),
                    if m >= t.mean { "+" } else { "" },
                    quantity(m - t.mean, 2)
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
        writeln!(out)?;
    }

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
        let p = s
            .rest_probability
            .map_or_else(|| "-".to_string(), |p| percent(p, 2));
        let left = s
            .turns_left
            .map_or_else(|| "-".to_string(), |t| quantity(t, 2));
        writeln!(
            out,
            "  {:>6}   {:>12}   {:>19}   {:>21}",
            s.square,
            quantity(s.expected_rests, 4),
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
            snakeladder_render::numbers::quantity(p.expected_total_turns, 2),
            snakeladder_render::numbers::quantity(p.expected_rounds, 2)
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
            line += &format!(
                "  {:>8}",
                snakeladder_render::vocabulary::WIN_CHANCE.format(*w)
            );
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out)
}
