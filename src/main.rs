//! The `snakeladder` command: parses arguments, calls the library, and maps
//! errors to the documented exit codes. No rule, formula or statistic lives
//! here.

mod analyze;
mod args;
mod chain;
mod check;
mod common;
mod design;
mod diff;
mod fmt;
mod generate;
mod memory;
mod output;
mod outputs;
mod play;
mod report;
mod schema;
mod serve;
mod simulate;
mod tune;
mod validate;

use clap::{Parser, Subcommand};
use std::io::Write;
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
    /// Write a seeded random board file, or search for one whose games last a band of turns.
    Generate(generate::Args),
    /// Check board files (or every *.json below a directory) and name every problem.
    Validate(validate::Args),
    /// Play a game: every roll in words, the winner and the ranking.
    Play(play::Args),
    /// Play many seeded games and report every statistic with its standard error.
    Simulate(simulate::Args),
    /// Compare the exact analysis with a simulation; exit 1 if any figure disagrees.
    Check(check::Args),
    /// What a layout change does to the game: figures, jumps, squares and rules, old against new.
    Diff(diff::Args),
    /// Rewrite board files in the one layout every command writes, or check them (--check).
    Fmt(fmt::Args),
    /// Find the fewest jump moves that bring a board's mean length into a band.
    Tune(tune::Args),
    /// The live layout designer: a page on loopback that shows the exact figures after every edit.
    Serve(serve::Args),
    /// Answer any absorbing Markov chain (PRISM/Storm explicit files or JSON): reach probability, expected steps and reward, variance, distribution.
    Chain(chain::Args),
    /// Print the JSON Schema of an output (analyze, simulate, check, validate, diff, tune, generate, play) or input file.
    Schema(schema::Args),
    /// Print the shell completion script for SHELL on standard output.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Writes the completion script of `shell` on standard output.
fn completions(shell: clap_complete::Shell) -> Result<ExitCode, common::CliError> {
    use clap::CommandFactory;
    // Generated into memory first: clap_complete panics when its writer
    // fails, and a closed pipe must end quietly.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "snakeladder", &mut script);
    let mut out = common::stdout()?;
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Parses the command line. Clap's own errors quote what was typed (`invalid
/// value '…' for '--format'`); when an argument holds a control, invisible
/// or bidirectional character, every quotation of it is escaped
/// ([`snakeladder_render::escape::terminal`]) before the error is printed,
/// so a typed newline cannot forge a line of output.
fn parse() -> Cli {
    let err = match Cli::try_parse() {
        Ok(cli) => return cli,
        Err(err) => err,
    };
    let hostile: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .filter(|a| snakeladder::Problem::hidden_character(a).is_some())
        .collect();
    if hostile.is_empty() {
        err.exit();
    }
    let mut text = err.render().to_string();
    for arg in &hostile {
        // The parts of an argument clap may quote: all of it, or the value
        // after `--flag=`; and each as clap prints it when it strips the
        // terminal sequences (`ESC [ … m`) of what it quotes.
        let value = arg.split_once('=').map_or(arg.as_str(), |(_, v)| v);
        for quoted in [arg.as_str(), value] {
            let escaped = snakeladder_render::escape::terminal(quoted);
            for form in [quoted.to_string(), without_sequences(quoted)] {
                // Only a form that could forge a line needs replacing (an
                // empty or plain one would match clap's own words).
                if snakeladder::Problem::hidden_character(&form).is_some() {
                    text = text.replace(&form, &escaped);
                }
            }
        }
    }
    // What is left is clap's own text and the escaped quotations; a stray
    // control character of a quotation clap cut is escaped too.
    let lines: Vec<String> = text
        .lines()
        .map(snakeladder_render::escape::terminal)
        .collect();
    let code = err.exit_code();
    let mut stream: Box<dyn Write> = if err.use_stderr() {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout())
    };
    let _ = writeln!(stream, "{}", lines.join("\n"));
    std::process::exit(code);
}

/// `text` without its terminal control sequences (`ESC [` parameters and a
/// final byte), as clap prints a value it quotes.
fn without_sequences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn main() -> ExitCode {
    let cli = parse();
    // `serve` stops itself on these signals, after the requests in flight
    // (a save among them) are finished: ending the process at once would
    // cut them (docs/serve.md, "Stopping").
    if !matches!(cli.command, Command::Serve(_))
        && let Err(err) = output::remove_temporaries_on_signals()
    {
        // Output is still written atomically; only an interruption could
        // leave a temporary file.
        let _ = writeln!(
            std::io::stderr(),
            "warning: cannot install the signal handler that removes temporary files: {err}"
        );
    }
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(args),
        Command::Report(args) => report::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Play(args) => play::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Check(args) => check::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Chain(args) => chain::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Completions { shell } => completions(shell),
    };
    match result {
        Ok(code) => code,
        Err(err) => err.report(),
    }
}
