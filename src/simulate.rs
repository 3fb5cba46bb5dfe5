//! `snakeladder simulate`: play many seeded games and report every
//! statistic with its standard error.

use crate::common::{self, CliError, Format};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use snakeladder::Seed;
use snakeladder::simulate::{self, SimulationConfig};
use snakeladder_render::numbers::rate;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `simulate`, and of `check`, which runs the same simulation.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board file, or `-` for standard input; the built-in default board when
    /// omitted.
    pub board: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// How many games to play and how: shared by `simulate` and `check`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=SimulationConfig::MAX_GAMES))]
    games: u64,
    /// Master seed: the same seed gives the same numbers on any thread count.
    #[arg(long, default_value_t = Seed::new(0))]
    seed: Seed,
    /// Players per game (seats take turns; the first to finish wins).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=snakeladder::Board::MAX_PLAYERS as i64))]
    players: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=SimulationConfig::MAX_THREADS as u64))]
    threads: Option<u64>,
    /// Most memory the simulation may use (e.g. 8G, 512M), estimated from
    /// the board before anything is built; past it the board is refused
    /// (exit 3) with the estimate. Default: half the machine's memory.
    #[arg(long, value_parser = crate::memory::parse_bytes)]
    max_memory: Option<u64>,
}

impl RunArgs {
    /// The validated simulation configuration.
    pub fn config(&self) -> Result<SimulationConfig, CliError> {
        let mut config =
            SimulationConfig::new(self.games, self.seed)?.with_players(self.players)?;
        if let Some(t) = self.threads {
            config = config.with_threads(t as usize)?;
        }
        config =
            config.with_max_memory(self.max_memory.unwrap_or_else(crate::memory::default_limit));
        Ok(config)
    }

    /// The progress bar for these games.
    pub fn bar(&self) -> Bar {
        Bar(progress_bar(self.games))
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
#[derive(Clone)]
pub struct Bar(ProgressBar);

impl Bar {
    /// Removes the bar once the work is done.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Bar {
    /// The simulation's progress callback: the bar shows the games played.
    pub fn progress(&self) -> impl Fn(u64) + Send + Sync + 'static {
        let bar = self.0.clone();
        move |games| bar.set_position(games)
    }
}

/// The progress bar for `games` games: hidden unless stderr is a terminal.
fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {rate}, eta {eta}")
    {
        bar.set_style(style.with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(state.per_sec(), "games"));
            },
        ));
    }
    bar
}

/// Runs `simulate`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let bar = args.run.bar();
    let config = args.run.config()?.with_progress(bar.progress());
    let mut report = simulate::simulate(&board, &config)?;
    bar.finish();
    let mut out = common::stdout()?;
    match args.format {
        Format::Json => {
            // As in `analyze`: a list of a million squares would be 180 MB.
            report.cap_lists(snakeladder_render::json::MAX_JSON_ENTRIES);
            let body = common::OfBoard {
                board: common::BoardId::of(&board),
                figures: &report,
            };
            common::write_json(&mut out, &body)?;
        }
        Format::Text => snakeladder_render::text::write_simulation(&mut out, &board, &report)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
