//! `snakeladder check`: the exact analysis against a simulation of the same
//! board; exit 1 when any figure disagrees.

use crate::common::{self, CliError, EXIT_CANNOT, EXIT_FAILURE};
use crate::simulate::progress_bar;
use clap::ValueEnum;
use snakeladder::analysis::AnalysisError;
use snakeladder::analysis::solve::SolveError;
use snakeladder::check::{self, CheckError, CheckReport, Test};
use snakeladder::simulate::{MAX_GAMES, MAX_PLAYERS, MAX_THREADS, Progress, SimulationConfig};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Output format.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One line per comparison, then the verdict.
    #[default]
    Text,
    /// Every comparison with its statistic, threshold and verdict.
    Json,
}

/// Arguments of `check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board file, or `-` for standard input; the built-in default board when
    /// omitted.
    board: Option<PathBuf>,
    /// Games to simulate.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// Master seed of the simulation.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Players per game (seat odds are compared when more than one).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLAYERS)))]
    players: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn advance(&self, games: u64) {
        self.0.inc(games);
    }
}

/// Runs `check`: exit 0 when every comparison agrees, 1 when one does not.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let mut config = SimulationConfig::new(args.games, args.seed)?.with_players(args.players)?;
    if let Some(t) = args.threads {
        config = config.with_threads(t as usize)?;
    }
    let bar = Bar(progress_bar(args.games));
    let report = match check::check_with_progress(&board, &config, &bar) {
        Ok(r) => r,
        Err(CheckError::Simulate(e)) => return Err(e.into()),
        Err(CheckError::Analysis(e)) => {
            let code = match e {
                AnalysisError::Exact(_) | AnalysisError::Solve(SolveError::TooLarge { .. }) => {
                    EXIT_CANNOT
                }
                _ => EXIT_FAILURE,
            };
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return Ok(ExitCode::from(code));
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            return Ok(ExitCode::from(EXIT_CANNOT));
        }
    };
    bar.0.finish_and_clear();
    let mut out = common::stdout();
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => write_text(&mut out, &report)?,
    }
    out.flush()?;
    Ok(ExitCode::from(if report.passed { 0 } else { EXIT_FAILURE }))
}

fn write_text(out: &mut impl Write, r: &CheckReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{} games, seed {}; family-wise error rate {:e}, {:.3e} per comparison",
        r.games, r.seed, r.family_error_rate, r.comparison_error_rate
    )?;
    for c in &r.comparisons {
        let (test, figures) = match c.test {
            Test::KolmogorovSmirnov => ("KS D", String::new()),
            Test::ZMean => (
                "|z|",
                format!("  exact {:.6}, simulated {:.6}", c.exact, c.simulated),
            ),
            Test::StudentT => (
                "|t|",
                format!("  exact {:.6}, simulated {:.6}", c.exact, c.simulated),
            ),
            Test::BinomialZ => (
                "|z| binomial",
                format!("  exact {:.6}, simulated {:.6}", c.exact, c.simulated),
            ),
        };
        writeln!(
            out,
            "{:<8} {:<40} {test} {:.4} ≤ {:.4}{figures}",
            if c.agrees { "ok" } else { "DIFFERS" },
            c.name,
            c.statistic,
            c.threshold
        )?;
    }
    if !r.skipped.is_empty() {
        writeln!(
            out,
            "{} figures too rare to compare at this many games",
            r.skipped.len()
        )?;
    }
    let failed = r.comparisons.iter().filter(|c| !c.agrees).count();
    if r.passed {
        writeln!(
            out,
            "agree: all {} comparisons within their thresholds",
            r.comparisons.len()
        )
    } else {
        writeln!(
            out,
            "DISAGREE: {failed} of {} comparisons outside their thresholds",
            r.comparisons.len()
        )
    }
}
