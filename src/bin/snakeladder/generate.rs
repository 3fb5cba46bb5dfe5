//! `snakeladder generate`: write a seeded random board file, for trying big
//! boards without checking huge files in.

use crate::atomic::write_atomic;
use crate::common::{self, CliError, EXIT_FAILURE};
use snakeladder::design::{GenerateError, Layout, generate_spec};
use snakeladder::{Board, Seed};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit code of a request that cannot make a board (too many jumps for the
/// squares): command-line misuse, like clap's own.
const EXIT_USAGE: u8 = 2;

/// Arguments of `generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The last square N.
    #[arg(long)]
    squares: u32,
    /// Number of snakes.
    #[arg(long, default_value_t = 0)]
    snakes: u32,
    /// Number of ladders.
    #[arg(long, default_value_t = 0)]
    ladders: u32,
    /// Longest jump in squares (default: a quarter of the board).
    #[arg(long)]
    max_length: Option<u32>,
    /// Seed of the generator: the same seed gives the same board.
    #[arg(long, default_value_t = Seed::new(0))]
    seed: Seed,
    /// A name for the board.
    #[arg(long)]
    name: Option<String>,
    /// Where to write the board; `-` (the default) for standard output. A
    /// file is written whole or not at all (a temporary file in the same
    /// directory, then renamed).
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
}

/// Runs `generate`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let layout = Layout {
        squares: args.squares,
        snakes: args.snakes,
        ladders: args.ladders,
        max_length: args.max_length,
        seed: args.seed,
        rules: None,
        name: args.name,
    };
    let fail = |message: String, code: u8| {
        let _ = writeln!(std::io::stderr(), "error: {message}");
        Ok(ExitCode::from(code))
    };
    let spec = match generate_spec(&layout) {
        Ok(spec) => spec,
        Err(e @ GenerateError::Invalid(_)) => return fail(e.to_string(), EXIT_FAILURE),
        Err(e) => return fail(e.to_string(), EXIT_USAGE),
    };
    if let Err(e) = Board::from_spec(&spec) {
        return fail(e.to_string(), EXIT_FAILURE);
    }
    let mut json = serde_json::to_vec(&spec).map_err(std::io::Error::from)?;
    json.push(b'\n');
    if args.output == Path::new("-") {
        let mut out = common::stdout();
        out.write_all(&json)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    write_atomic(&args.output, |w| w.write_all(&json))?;
    Ok(ExitCode::SUCCESS)
}
