//! `snakeladder analyze`: every exact figure of a board.

use crate::common::{self, CliError, Format};
use crate::memory;
use snakeladder::{Analysis, Options};
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
            snakeladder_render::text::write_analysis(&mut out, &board, &analysis)?;
            if let Some(s) = &sensitivity {
                writeln!(out)?;
                snakeladder_render::text::write_sensitivity(&mut out, &board, s)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
