//! `snakeladder simulate`: play many seeded games and report every
//! statistic with its standard error.

use crate::common::{self, CliError, Format};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use snakeladder::Seed;
use snakeladder::simulate::{self, Progress, SimulationConfig, SimulationReport};
use snakeladder_render::numbers::{percent, rate};
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
    let config = args.run.config()?.with_progress(bar.clone());
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
    let name = common::shown(board.name().unwrap_or("board"));
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
                snakeladder_render::vocabulary::WIN_CHANCE.format(*p),
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
