//! `snakeladder generate`: write a seeded random board file, for trying big
//! boards without checking huge files in.

use crate::common::{CliError, EXIT_CANNOT, EXIT_FAILURE, Format};
use crate::output::Output;
use snakeladder::design::{DesignError, Layout};
use snakeladder::internals::design::generate_spec;
use snakeladder::{Board, Seed};
use std::path::PathBuf;
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
    /// Number of snakes (default 0; 10 with --target-turns).
    #[arg(long)]
    snakes: Option<u32>,
    /// Number of ladders (default 0; 10 with --target-turns).
    #[arg(long)]
    ladders: Option<u32>,
    /// Longest jump in squares (default: a quarter of the board; the whole
    /// board when the jumps fill more than half of squares 1..N−1).
    #[arg(long)]
    max_length: Option<u32>,
    /// Seed of the generator: the same seed gives the same board.
    #[arg(long, default_value_t = Seed::new(0))]
    seed: Seed,
    /// A name for the board.
    #[arg(long)]
    name: Option<String>,
    /// Search for a board whose mean length lies in this band of turns,
    /// `A:B` (inclusive), e.g. 30:35: random layouts, then moves of single
    /// jumps toward the band, with the exact solver in the loop.
    #[arg(long, value_parser = crate::design::parse_band)]
    target_turns: Option<crate::design::Band>,
    /// With --target-turns, also keep `P(seat 1 wins) − P(seat 2 wins)` with
    /// two players at most this (0.02 or 2%).
    #[arg(long, value_parser = crate::design::parse_advantage, requires = "target_turns")]
    max_first_seat_advantage: Option<f64>,
    /// Most multiply-adds the --target-turns search may do (its steps counted from the
    /// board's size); past it the --target-turns search stops with the closest mean found
    /// (exit 3). Default 2e10; at most 1e18.
    #[arg(long, value_parser = crate::memory::parse_work, requires = "target_turns")]
    max_work: Option<f64>,
    /// Most memory the --target-turns search's evaluators may hold (e.g. 8G, 512M),
    /// estimated before it starts. Default: half the machine's memory.
    #[arg(long, value_parser = crate::memory::parse_bytes, requires = "target_turns")]
    max_memory: Option<u64>,
    /// Longest the --target-turns search may run (90, 30s, 5m, 1h); past it the --target-turns search
    /// stops with the closest mean found (exit 3).
    #[arg(long, value_parser = crate::args::parse_time_limit, requires = "target_turns")]
    time_limit: Option<std::time::Duration>,
    /// The rules of the board: a JSON file holding a rules object, or a
    /// board file whose rules are taken.
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Where to write the board; `-` (the default) for standard output. A
    /// regular file is written whole or not at all (a temporary file in the
    /// same directory, then renamed; a symbolic link's target is replaced);
    /// a device or FIFO is written straight; a directory is refused.
    #[arg(long, short, default_value = "-")]
    output: PathBuf,
    /// Output format: `text` writes the board file alone; `json` prints a
    /// report on standard output (the board in its `board_file`, the
    /// search's figures with --target-turns), the board still going to
    /// `-o FILE` when one is given.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Runs `generate`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let default_jumps = if args.target_turns.is_some() { 10 } else { 0 };
    // Checked before any work: the board is never written over the rules
    // file it was made from (exit 2, as for every command's inputs).
    let output = Output::resolve(
        &args.output,
        &args.rules.as_deref().into_iter().collect::<Vec<_>>(),
    )?;
    let seed = args.seed;
    let json = args.format == Format::Json;
    let mut layout = Layout::new(
        args.squares,
        args.snakes.unwrap_or(default_jumps),
        args.ladders.unwrap_or(default_jumps),
        args.seed,
    );
    if let Some(length) = args.max_length {
        layout = layout.with_max_length(length);
    }
    if let Some(path) = &args.rules {
        layout = layout.with_rules(crate::design::load_rules(path)?);
    }
    if let Some(name) = args.name {
        layout = layout.with_name(name);
    }
    if let Some(band) = args.target_turns {
        let target = crate::design::target(band, args.max_first_seat_advantage)?;
        let budget = crate::design::budget(args.max_work, args.max_memory, args.time_limit);
        return crate::design::generate_to_target(layout, target, budget, &args.output, json);
    }
    let fail = |message: String, code: u8| {
        crate::common::say("error: ", &message);
        Ok(ExitCode::from(code))
    };
    let spec = match generate_spec(&layout) {
        Ok(spec) => spec,
        Err(e @ DesignError::Invalid(_)) => return fail(e.to_string(), EXIT_FAILURE),
        Err(e @ DesignError::NoLayout { .. }) => return fail(e.to_string(), EXIT_CANNOT),
        Err(e) => return fail(e.to_string(), EXIT_USAGE),
    };
    let board = match Board::from_spec(&spec) {
        Ok(board) => board,
        Err(e) => return fail(e.to_string(), EXIT_FAILURE),
    };
    if json {
        write_json(&args.output, &board, &spec, seed, None)?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = spec.to_json().into_bytes();
    output.write(|w| w.write_all(&text))?;
    Ok(ExitCode::SUCCESS)
}

/// `generate --format json`: the board written to `-o FILE` when one is
/// given, then the report on standard output.
pub fn write_json(
    output: &std::path::Path,
    board: &Board,
    spec: &snakeladder::internals::BoardSpec,
    seed: Seed,
    search: Option<crate::outputs::Search>,
) -> Result<(), CliError> {
    let to_file = output != std::path::Path::new("-");
    if to_file {
        let text = spec.to_json().into_bytes();
        Output::resolve(output, &[])?.write(|w| w.write_all(&text))?;
    }
    let body = crate::outputs::Generate {
        board: crate::common::BoardId::of(board),
        seed,
        search,
        written_to: to_file.then(|| output.to_string_lossy().into_owned()),
        board_file: spec,
    };
    let mut out = crate::common::stdout()?;
    crate::common::write_json(&mut out, &body)?;
    std::io::Write::flush(&mut out)?;
    Ok(())
}
