//! `snakeladder tune`: the fewest jump moves that bring a board into a
//! target band of mean turns.

use crate::common::{self, CliError, Format};
use crate::design::{self, Band};
use crate::output::Output;
use snakeladder::Seed;
use snakeladder::design::{TuneOptions, tune};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board file; `-` reads standard input. Without one, the built-in
    /// default board.
    board: Option<PathBuf>,
    /// The band of mean turns to reach, `A:B` (inclusive), e.g. 30:32.
    #[arg(long, value_parser = design::parse_band)]
    target_turns: Band,
    /// Also keep `P(seat 1 wins) − P(seat 2 wins)` with two players at most
    /// this (0.02 or 2%).
    #[arg(long, value_parser = design::parse_advantage)]
    max_first_seat_advantage: Option<f64>,
    /// Most jumps moved (each start, end or both).
    #[arg(long, default_value_t = 3)]
    max_changes: usize,
    /// Jumps that must not move, comma-separated: 48→26,1→38 (or 48->26).
    #[arg(long, value_delimiter = ',', value_parser = design::parse_jump)]
    keep: Vec<(u32, u32)>,
    /// Picks among equally good answers: the same seed, the same answer.
    #[arg(long, default_value_t = Seed::new(0))]
    seed: Seed,
    /// Most multiply-adds the search may do (its steps counted from the
    /// board's size); past it the search stops with the closest mean found
    /// (exit 3). Default 2e10; at most 1e18.
    #[arg(long, value_parser = crate::memory::parse_work)]
    max_work: Option<f64>,
    /// Most memory the search's evaluators may hold (e.g. 8G, 512M),
    /// estimated before it starts. Default: half the machine's memory.
    #[arg(long, value_parser = crate::memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Longest the search may run (90, 30s, 5m, 1h); past it the search
    /// stops with the closest mean found (exit 3).
    #[arg(long, value_parser = crate::args::parse_time_limit)]
    time_limit: Option<std::time::Duration>,
    /// Where to write the tuned board; `-` for standard output (the report
    /// then goes to standard error). A file is written whole or not at all.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Output format: `text` for people, `json` for machines (the tuned
    /// board is in its `board_file`, so `-o -` is refused with it).
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Runs `tune`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    if args.format == Format::Json && to_stdout {
        common::say(
            "error: ",
            "--format json prints the tuned board in its board_file; give -o a file, or leave -o out",
        );
        return Ok(ExitCode::from(2));
    }
    let board = common::load_board(args.board.as_deref())?;
    let target = design::target(args.target_turns, args.max_first_seat_advantage)?;
    let bar = design::spinner();
    let options = TuneOptions::new(target, args.max_changes)
        .with_keep(args.keep.clone())
        .with_seed(args.seed)
        .with_budget(design::budget(
            args.max_work,
            args.max_memory,
            args.time_limit,
        ))
        .with_progress({
            let bar = bar.clone();
            move |n| bar.set_position(n)
        });
    let result = tune(&board, &options);
    bar.finish_and_clear();
    let tuned = result?;
    if args.format == Format::Json {
        return write_json(&args, &board, target, &tuned);
    }
    let mut report: Box<dyn Write> = if to_stdout {
        Box::new(std::io::stderr())
    } else {
        Box::new(common::stdout()?)
    };
    let name = args
        .board
        .as_deref()
        .map_or_else(|| "built-in board".into(), |p| p.to_string_lossy());
    snakeladder_render::text::write_tuned(
        &mut report,
        &name,
        target,
        &tuned,
        rayon::current_num_threads(),
    )?;
    let json = tuned.board.spec().to_json().into_bytes();
    match args.output.as_deref() {
        Some(p) if p == Path::new("-") => {
            let mut out = common::stdout()?;
            out.write_all(&json)?;
            out.flush()?;
        }
        Some(p) => {
            let inputs: Vec<&Path> = args.board.as_deref().into_iter().collect();
            Output::resolve(p, &inputs)?.write(|w| w.write_all(&json))?;
            writeln!(
                report,
                "Wrote the tuned board to {}.",
                common::shown(&p.to_string_lossy())
            )?;
        }
        None => writeln!(report, "(-o FILE writes the tuned board.)")?,
    }
    report.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `tune --format json`: the tuned board written to `-o FILE` if given,
/// then the JSON on standard output.
fn write_json(
    args: &Args,
    board: &snakeladder::Board,
    target: snakeladder::design::Target,
    tuned: &snakeladder::design::Tuned,
) -> Result<ExitCode, CliError> {
    let spec = tuned.board.spec();
    if let Some(p) = args.output.as_deref() {
        let inputs: Vec<&Path> = args.board.as_deref().into_iter().collect();
        let json = spec.to_json().into_bytes();
        Output::resolve(p, &inputs)?.write(|w| w.write_all(&json))?;
    }
    let body = crate::outputs::Tune {
        board: common::BoardId::of(board),
        target,
        mean_turns_before: tuned.mean_before,
        mean_turns: tuned.mean_turns,
        first_seat_advantage: tuned.first_seat_advantage,
        changes: &tuned.changes,
        evaluated: tuned.evaluated,
        ruled_out: tuned.ruled_out,
        seconds: tuned.seconds,
        written_to: args
            .output
            .as_deref()
            .map(|p| p.to_string_lossy().into_owned()),
        board_file: &spec,
    };
    let mut out = common::stdout()?;
    common::write_json(&mut out, &body)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
