//! What every subcommand shares: loading a board argument, writing output,
//! and the errors that map to exit codes.

use snakeladder::analysis::AnalysisError;
use snakeladder::analysis::SolveError;
use snakeladder::{Board, BoardError};
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

/// Exit code: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit code: a board is invalid or unreadable, or a check failed.
pub const EXIT_FAILURE: u8 = 1;
// Exit code 2, command-line misuse, is clap's own.
/// Exit code: the work could not be done (a limit, an output error).
pub const EXIT_CANNOT: u8 = 3;

/// An error that ends a command, with the exit code it maps to.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A board could not be loaded.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A board could not be analysed.
    #[error(transparent)]
    Analysis(#[from] snakeladder::analysis::AnalysisError),
    /// A file could not be written (the old one, if any, is left intact).
    #[error(transparent)]
    Write(#[from] crate::atomic::AtomicWriteError),
    /// A simulation could not run.
    #[error(transparent)]
    Simulate(#[from] snakeladder::simulate::SimulateError),
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Output(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Output(e)
    }
}

impl CliError {
    /// Prints the error as one line on stderr and gives the exit code. A
    /// broken pipe (`snakeladder analyze | head`) is a normal end.
    pub fn report(self) -> ExitCode {
        if let CliError::Output(e) = &self {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::from(EXIT_OK);
            }
        }
        let code = match &self {
            CliError::Board(_) => EXIT_FAILURE,
            CliError::Analysis(e) => match e {
                AnalysisError::Exact(_)
                | AnalysisError::Numerical { .. }
                | AnalysisError::Memory { .. }
                | AnalysisError::Solve(SolveError::TooLarge { .. }) => EXIT_CANNOT,
                _ => EXIT_FAILURE,
            },
            CliError::Output(_) | CliError::Write(_) | CliError::Simulate(_) => EXIT_CANNOT,
        };
        let _ = writeln!(io::stderr(), "error: {self}");
        ExitCode::from(code)
    }
}

/// Loads the board named on the command line: a path, `-` for standard
/// input, or the built-in default board when none is given.
pub fn load_board(path: Option<&Path>) -> Result<Board, CliError> {
    match path {
        None => Ok(Board::builtin_default()),
        Some(p) if p == Path::new("-") => Ok(Board::from_reader(io::stdin(), "<stdin>")?),
        Some(p) => Ok(Board::from_path(p)?),
    }
}

/// Standard output, buffered and locked.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::new(io::stdout().lock())
}

/// Output format of the commands that print figures.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A readable summary for people.
    #[default]
    Text,
    /// Every figure as JSON, for machines.
    Json,
}
