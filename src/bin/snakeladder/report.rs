//! `snakeladder report`: the analysis of a board as a Markdown or HTML page.

use crate::common::{self, CliError};
use crate::output::Output;
use clap::ValueEnum;
use snakeladder::Report;
use snakeladder::{Analysis, Options};
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
    /// Write the report to this file instead of standard output (`-`). A
    /// regular file is replaced atomically (a failure never leaves a
    /// truncated file or clobbers the old one; a symbolic link's target is
    /// replaced); a device or FIFO is written straight; a directory or the
    /// board file itself is refused.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Player counts for the seat odds, comma-separated (each 1 to 100).
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,6",
          value_parser = clap::value_parser!(u32).range(1..=snakeladder::MAX_PLAYERS as i64))]
    players: Vec<u32>,
    /// Also give the mean number of turns as an exact fraction.
    #[arg(long)]
    exact: bool,
}

/// Runs `report`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let output = match &args.output {
        Some(path) => {
            Output::resolve(path, &args.board.as_deref().into_iter().collect::<Vec<_>>())?
        }
        None => Output::resolve(std::path::Path::new("-"), &[])?,
    };
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
    output.write(|w| w.write_all(page.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}
