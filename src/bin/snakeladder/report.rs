//! `snakeladder report`: the analysis of a board as a Markdown or HTML page.

use crate::common::{self, CliError};
use clap::ValueEnum;
use snakeladder::analysis::{Analysis, Options};
use snakeladder::report;
use std::io::Write;
use std::path::{Path, PathBuf};
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
    let options = Options {
        players: args.players,
        exact: args.exact,
    };
    let analysis = Analysis::new(&board, &options)?;
    let page = match args.format {
        Format::Markdown => report::markdown(&board, &analysis),
        Format::Html => report::html(&board, &analysis),
    };
    match &args.output {
        Some(path) => write_file(path, page.as_bytes())?,
        None => {
            let mut out = common::stdout();
            out.write_all(page.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes to a temporary file beside `path`, then renames it into place.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A report is a document to share: readable by others, like any file
    // the user would have written (tempfile's own default is owner-only).
    let mut tmp = tempfile::Builder::new()
        .prefix(".snakeladder-report")
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| CliError::Output(e.error))?;
    Ok(())
}
