//! What every subcommand shares: loading a board argument, writing output,
//! and the errors that map to exit codes.

use snakeladder::AnalysisError;
use snakeladder::design::DesignError;
use snakeladder::{Board, BoardError};
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit code: everything went well.
pub const EXIT_OK: u8 = 0;
/// Exit code: a board is invalid or unreadable, or a check failed.
pub const EXIT_FAILURE: u8 = 1;
/// Exit code: command-line misuse (clap's own, and a bad policy file).
pub const EXIT_USAGE: u8 = 2;
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
    Analysis(#[from] snakeladder::AnalysisError),
    /// A board named on the command line could not be analysed: the
    /// message names it (its file, `<stdin>` or the built-in board).
    #[error("{board}: {source}")]
    AnalysisOf {
        /// The board, as the user named it.
        board: String,
        /// What went wrong.
        source: snakeladder::AnalysisError,
    },
    /// A simulation could not run.
    #[error(transparent)]
    Simulate(#[from] snakeladder::simulate::SimulateError),
    /// The command line asks for something that cannot be done (exit 2,
    /// as clap's own misuse errors).
    #[error("{0}")]
    Usage(String),
    /// A design tool could not do what was asked.
    #[error(transparent)]
    Design(#[from] snakeladder::design::DesignError),
    /// An output path could not be used or written.
    #[error(transparent)]
    Destination(#[from] crate::output::OutputError),
    /// Writing output failed.
    #[error("cannot write output: {0}")]
    Output(io::Error),
    /// A chain could not be read or answered.
    #[error(transparent)]
    Chain(#[from] crate::chain::ChainError),
    /// Reading standard input (for `--interactive`) failed.
    #[error("cannot read standard input: {0}")]
    Input(io::Error),
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
        if let CliError::Output(e) = &self
            && e.kind() == io::ErrorKind::BrokenPipe
        {
            return ExitCode::from(EXIT_OK);
        }
        // A chain's problems, one line each, so that every one can be read
        // (and each line escaped on its own).
        if let CliError::Chain(crate::chain::ChainError::Read(e)) = &self
            && !e.problems().is_empty()
        {
            let count = e.problems().len() + e.omitted();
            let plural = if count == 1 { "" } else { "s" };
            say("error: ", &format!("{count} problem{plural}:"));
            for problem in e.problems() {
                say("  ", &problem.to_string());
            }
            if e.omitted() > 0 {
                say("  ", &format!("and {} more", e.omitted()));
            }
            return ExitCode::from(EXIT_FAILURE);
        }
        let code = match &self {
            CliError::Board(_) => EXIT_FAILURE,
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Analysis(e) | CliError::AnalysisOf { source: e, .. } => match e {
                AnalysisError::ExactTooLarge { .. }
                | AnalysisError::ExactTurnTooLong { .. }
                | AnalysisError::ExactUnlisted { .. }
                | AnalysisError::ExactTooMuchWork { .. }
                | AnalysisError::ExactSingular
                | AnalysisError::ExactTooMuchMemory { .. }
                | AnalysisError::ExactUncertified { .. }
                | AnalysisError::ExactDisagrees { .. }
                | AnalysisError::Numerical { .. }
                | AnalysisError::Memory { .. }
                | AnalysisError::DenseTooLarge { .. } => EXIT_CANNOT,
                _ => EXIT_FAILURE,
            },
            CliError::Design(e) => match e {
                DesignError::Target { .. }
                | DesignError::Advantage { .. }
                | DesignError::KeepNotOnBoard { .. } => EXIT_USAGE,
                DesignError::Invalid(_) => EXIT_FAILURE,
                DesignError::Squares { .. }
                | DesignError::TooManyJumps { .. }
                | DesignError::MaxLength
                | DesignError::NoLayout { .. } => EXIT_USAGE,
                DesignError::Analysis(AnalysisError::Memory { .. }) => EXIT_CANNOT,
                DesignError::Analysis(_) => EXIT_FAILURE,
                _ => EXIT_CANNOT,
            },
            CliError::Chain(e) => e.exit_code(),
            CliError::Destination(e) if e.is_misuse() => EXIT_USAGE,
            CliError::Output(_)
            | CliError::Input(_)
            | CliError::Destination(_)
            | CliError::Simulate(_) => EXIT_CANNOT,
        };
        say("error: ", &self.to_string());
        ExitCode::from(code)
    }
}

/// The result of writing a gate's output (`validate`, `diff --fail-if`):
/// a closed pipe (`validate . | head -1`) ends the output but not the
/// gate, whose exit status still reports the findings; any other write
/// error is one.
pub fn gate_output(result: io::Result<()>) -> Result<(), CliError> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// A writer that, once its reader has gone (a broken pipe: `| head`),
/// swallows the rest of the output, as [`gate_output`] does for output
/// written at once: a command that writes while it works still finishes
/// its work and exits with the status that work earns.
pub struct ClosedPipe<W> {
    inner: W,
    gone: bool,
}

impl<W: Write> ClosedPipe<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> Self {
        ClosedPipe { inner, gone: false }
    }

    fn gate(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.gone = true;
                Ok(())
            }
            other => other,
        }
    }
}

impl<W: Write> Write for ClosedPipe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.gone {
            return Ok(buf.len());
        }
        let result = self.inner.write_all(buf);
        self.gate(result).map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.gone {
            return Ok(());
        }
        let result = self.inner.flush();
        self.gate(result)
    }
}

/// Writes `prefix` and then `text` as one line on standard error, `text`
/// escaped for a terminal ([`snakeladder_render::escape::terminal`]): the
/// one way every command prints a message that may carry a file name, a
/// JSON key or another user string, so none can forge a line (a GitHub
/// `::error::` command) or drive the terminal. A closed standard error is
/// ignored.
pub fn say(prefix: &str, text: &str) {
    let _ = writeln!(
        io::stderr(),
        "{prefix}{}",
        snakeladder_render::escape::terminal(text)
    );
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

/// How an error names the board argument: its path, `<stdin>` for `-`, or
/// the built-in board.
pub fn board_label(path: Option<&Path>) -> String {
    match path {
        None => "the built-in board".to_string(),
        Some(p) if p == Path::new("-") => "<stdin>".to_string(),
        Some(p) => shown(&p.to_string_lossy()),
    }
}

/// [`CliError::AnalysisOf`], naming the board argument `path`.
pub fn analysis_of(path: Option<&Path>) -> impl FnOnce(AnalysisError) -> CliError + '_ {
    move |source| CliError::AnalysisOf {
        board: board_label(path),
        source,
    }
}

/// Standard output, buffered and locked.
///
/// # Errors
/// [`CliError::Output`] when standard output is closed (`>&-`): the output
/// would be lost, so the command ends with exit 3 instead of pretending.
pub fn stdout() -> Result<io::BufWriter<io::StdoutLock<'static>>, CliError> {
    if stdout_is_closed() {
        return Err(CliError::Output(io::Error::other(
            "standard output is closed",
        )));
    }
    Ok(io::BufWriter::new(io::stdout().lock()))
}

/// Whether descriptor 1 was closed when the process started, recorded by
/// [`record_stdout`] before Rust's runtime could hide it.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records whether standard output is closed, before `main`.
///
/// Rust's runtime, before `main`, reopens a closed descriptor 0, 1 or 2 on
/// `/dev/null`, so writes to a closed standard output would vanish without
/// an error, and afterwards a closed descriptor cannot be told from one the
/// shell opened on `/dev/null` (`1<> /dev/null`, `> /dev/null`). A
/// constructor runs before the runtime's own start-up, while a closed
/// descriptor still reads as closed.
#[ctor::ctor]
fn record_stdout() {
    let closed = rustix::fs::fcntl_getfl(rustix::stdio::stdout()).is_err();
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Whether the process was started with standard output closed.
fn stdout_is_closed() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
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

/// Text from a file or the command line (a board's name, a player id, a
/// path) made safe for a terminal: every control, bidirectional or
/// invisible character ([`snakeladder::hidden_character`]) is written
/// escaped ([`snakeladder_render::escape::terminal`]). Validation refuses
/// such names already; this holds even if one got through.
pub fn shown(text: &str) -> String {
    snakeladder_render::escape::terminal(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn hidden_characters_are_escaped() {
        assert_eq!(super::shown("Ana"), "Ana");
        assert_eq!(
            super::shown("x\u{1b}[2J\r\u{202e}y\u{2028}"),
            "x\\u{1b}[2J\\r\\u{202e}y\\u{2028}"
        );
    }
}

/// Which board a JSON output is about.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct BoardId {
    /// The board's name, `null` when the file gave none.
    pub name: Option<String>,
    /// Its fingerprint ([`Board::fingerprint`]).
    pub fingerprint: String,
    /// Its last square N.
    pub squares: u32,
}

impl BoardId {
    /// The name, fingerprint and size of `board`.
    pub fn of(board: &Board) -> BoardId {
        BoardId {
            name: board.name().map(str::to_string),
            fingerprint: board.fingerprint(),
            squares: board.last().get(),
        }
    }
}

/// A JSON output: `{"schema": 1, ...the body's keys}` (shared with the
/// designer server).
pub use snakeladder_render::json::Versioned;

/// The body of a JSON output whose figures do not name their board
/// themselves (`simulate`, `check`): `{"board": {...}, ...the figures}`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct OfBoard<'a, T: serde::Serialize> {
    /// The board.
    pub board: BoardId,
    /// The figures.
    #[serde(flatten)]
    pub figures: &'a T,
}

/// Writes `body` as pretty JSON with the schema version, followed by a
/// newline.
pub fn write_json<T: serde::Serialize>(out: &mut impl Write, body: &T) -> io::Result<()> {
    out.write_all(&snakeladder_render::json::pretty(body).map_err(io::Error::from)?)
}
