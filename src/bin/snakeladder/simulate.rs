//! `snakeladder simulate`: play many seeded games and report every
//! statistic with its standard error.

use crate::common::{self, CliError, Format};
use indicatif::{ProgressBar, ProgressStyle};
use snakeladder::Seed;
use snakeladder::simulate::{
    self, MAX_GAMES, MAX_PLAYERS, MAX_THREADS, Progress, SimulationConfig, SimulationReport,
};
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
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Master seed: the same seed gives the same numbers on any thread count.
    #[arg(long, default_value_t = Seed::new(0))]
    seed: Seed,
    /// Players per game (seats take turns; the first to finish wins).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLAYERS)))]
    players: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: Option<u64>,
}

impl RunArgs {
    /// The validated simulation configuration.
    pub fn config(&self) -> Result<SimulationConfig, CliError> {
        let mut config =
            SimulationConfig::new(self.games, self.seed)?.with_players(self.players)?;
        if let Some(t) = self.threads {
            config = config.with_threads(t as usize)?;
        }
        Ok(config)
    }

    /// The progress bar for these games.
    pub fn bar(&self) -> Bar {
        Bar(progress_bar(self.games))
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
pub struct Bar(ProgressBar);

impl Bar {
    /// Removes the bar once the work is done.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn advance(&self, games: u64) {
        self.0.inc(games);
    }
}

/// The progress bar for `games` games: hidden unless stderr is a terminal.
fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// Runs `simulate`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let config = args.run.config()?;
    let bar = args.run.bar();
    let report = simulate::simulate_with_progress(&board, &config, &bar)?;
    bar.finish();
    let mut out = common::stdout();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &board, &report)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_text(
    out: &mut impl Write,
    board: &snakeladder::Board,
    r: &SimulationReport,
) -> std::io::Result<()> {
    let name = board.name().unwrap_or("board");
    writeln!(
        out,
        "{name}: {} games, {} player(s), seed {}",
        r.games,
        r.game().count,
        r.seed
    )?;
    let line = |out: &mut dyn Write, what: &str, s: &simulate::Summary| {
        writeln!(
            out,
            "{what:<12} mean {:.4} ± {:.4} (s.e.), sd {:.3}, median {}, p90 {}, p99 {}, min {}, max {}",
            s.mean, s.std_error, s.std_dev, s.median, s.p90, s.p99, s.min, s.max
        )
    };
    line(out, "turns", &r.turns)?;
    line(out, "rolls", &r.rolls)?;
    let game = r.game();
    if game.count > 1 {
        line(out, "game turns", &game.total_turns)?;
        writeln!(
            out,
            "{:<12} mean {:.4} ± {:.4} (s.e.)",
            "rounds", game.expected_rounds, game.expected_rounds_std_error
        )?;
        for (seat, (p, se)) in game
            .win_probability
            .iter()
            .zip(&game.win_probability_std_error)
            .enumerate()
        {
            writeln!(out, "seat {:<3} wins {p:.5} ± {se:.5}", seat + 1)?;
        }
    }
    for j in &r.jumps {
        writeln!(
            out,
            "{:<6} {:>3}→{:<3} uses {:.4} ± {:.4}, used by {:.4} ± {:.4} of tokens",
            j.kind.as_str(),
            j.from,
            j.to,
            j.expected_uses,
            j.expected_uses_std_error,
            j.use_probability,
            j.use_probability_std_error
        )?;
    }
    Ok(())
}
