//! The `snakeladder` command: parses arguments, calls the library, and maps
//! errors to the documented exit codes. No rule, formula or statistic lives
//! here.

mod analyze;
mod atomic;
mod check;
mod common;
mod generate;
mod memory;
mod play;
mod report;
mod simulate;
mod validate;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exact analysis, validation, simulation and play of Snakes and Ladders boards.
///
/// Exit codes: 0 success; 1 a board is invalid or unreadable, or a check
/// failed; 2 command-line misuse; 3 the work could not be done (a limit was
/// hit, output could not be written).
#[derive(Debug, Parser)]
#[command(name = "snakeladder", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every exact figure of a board: game length, seat odds, jumps, squares.
    Analyze(analyze::Args),
    /// Write the analysis of a board as a Markdown or self-contained HTML report.
    Report(report::Args),
    /// Write a seeded random board file (for trying large boards).
    Generate(generate::Args),
    /// Check board files (or every *.json below a directory) and name every problem.
    Validate(validate::Args),
    /// Play a game: every roll in words, the winner and the ranking.
    Play(play::Args),
    /// Play many seeded games and report every statistic with its standard error.
    Simulate(simulate::Args),
    /// Compare the exact analysis with a simulation; exit 1 if any figure disagrees.
    Check(check::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(args),
        Command::Report(args) => report::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Play(args) => play::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Check(args) => check::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => err.report(),
    }
}
