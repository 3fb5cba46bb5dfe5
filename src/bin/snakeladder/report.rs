//! `snakeladder report`: the analysis of a board as a Markdown or HTML page.

use crate::atomic::write_atomic;
use crate::common::{self, CliError};
use clap::ValueEnum;
use snakeladder::Report;
use snakeladder::{Analysis, Options};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Report format.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Markdown with tables.
    #[default]
    Markdown,
    /// One self-contained HTML page with inline SVG charts.
    Html,
}

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board file; `-` reads standard input. Without one, the built-in
    /// default board.
    board: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Write the report to this file (atomically: a failure never leaves a
    /// truncated file or clobbers the old one) instead of standard output.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Player counts for the seat odds, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,6",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    players: Vec<u32>,
    /// Also give the mean number of turns as an exact fraction.
    #[arg(long)]
    exact: bool,
}

/// Runs `report`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let options = Options::default()
        .players(args.players)
        .exact(args.exact)
        .max_memory(crate::memory::default_limit());
    let analysis = Analysis::new(&board, &options)?;
    let report = Report::new(&board, &analysis);
    let page = match args.format {
        Format::Markdown => report.markdown(),
        Format::Html => report.html(),
    };
    match &args.output {
        Some(path) => write_atomic(path, |w| w.write_all(page.as_bytes()))?,
        None => {
            let mut out = common::stdout();
            out.write_all(page.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
