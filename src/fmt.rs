//! `snakeladder fmt [--check] PATHS…`: rewrite board files in the one
//! layout every command writes ([`snakeladder::internals::BoardSpec::to_json`]), or, with
//! `--check`, fail when one is not in it (as `cargo fmt --check` does in
//! CI).

use crate::common::{self, CliError, EXIT_FAILURE, EXIT_OK};
use crate::output::Output;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `fmt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board files, or directories searched for *.json; `-` reads standard
    /// input and writes the formatted board on standard output.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Change nothing; name each file that is not in the layout and exit 1.
    #[arg(long)]
    check: bool,
}

/// What became of one file.
enum Outcome {
    Same,
    Changed,
    Failed,
}

/// Runs `fmt`: exit 0 when every file is (or now is) in the layout, 1 when
/// a file is not a board or, with `--check`, would change.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut failed = false;
    let mut out = common::stdout()?;
    for path in &args.paths {
        if path == Path::new("-") {
            // Read as every command reads standard input: capped, the cap
            // reported as such rather than as a truncated file's JSON error.
            let text = match read_stdin() {
                Ok(text) => text,
                Err(message) => {
                    common::say("error: ", &message);
                    failed = true;
                    continue;
                }
            };
            match snakeladder::internals::BoardSpec::format_json(&text) {
                Ok(formatted) if args.check && formatted != text => {
                    writeln!(out, "<stdin>: not in the board layout")?;
                    failed = true;
                }
                Ok(_) if args.check => {}
                Ok(formatted) => out.write_all(formatted.as_bytes())?,
                Err(e) => {
                    common::say("error: ", &e.with_path(Path::new("<stdin>")).to_string());
                    failed = true;
                }
            }
            continue;
        }
        let files = if path.is_dir() {
            let (files, unreadable) = crate::validate::walk(path);
            for f in unreadable {
                // `f.file` is already escaped for a terminal.
                common::say("error: ", &format!("{}: {}", f.file, f.message));
                failed = true;
            }
            if files.is_empty() {
                common::say("error: ", &format!("{}: no board files", path.display()));
                failed = true;
            }
            files
        } else {
            vec![path.clone()]
        };
        for file in files {
            match format_file(&file, args.check, &mut out)? {
                Outcome::Same => {}
                Outcome::Changed if args.check => failed = true,
                Outcome::Changed => {}
                Outcome::Failed => failed = true,
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::from(if failed { EXIT_FAILURE } else { EXIT_OK }))
}

/// Standard input as text, read up to [`snakeladder::Board::MAX_FILE_BYTES`]
/// as every command reads it; the error names `<stdin>`.
fn read_stdin() -> Result<String, String> {
    let limit = snakeladder::Board::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().take(limit + 1).read_to_end(&mut bytes) {
        return Err(format!("<stdin>: cannot read: {e}"));
    }
    if bytes.len() as u64 > limit {
        return Err(format!(
            "<stdin>: more than the {limit} bytes a board file may have"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "<stdin>: not UTF-8 text".to_string())
}

/// Formats one file in place (atomically), or with `check` names it on
/// standard output when it would change.
fn format_file(path: &Path, check: bool, out: &mut impl Write) -> Result<Outcome, CliError> {
    let shown = snakeladder_render::escape::display_path(path);
    // Every message names the file and goes through `common::say`, which
    // escapes the path and any JSON key it quotes for the terminal.
    let text = match snakeladder::Board::read_bytes(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                common::say("error: ", &format!("{}: not UTF-8 text", path.display()));
                return Ok(Outcome::Failed);
            }
        },
        Err(e) => {
            common::say("error: ", &e.to_string());
            return Ok(Outcome::Failed);
        }
    };
    let formatted = match snakeladder::internals::BoardSpec::format_json(&text) {
        Ok(formatted) => formatted,
        Err(e) => {
            common::say("error: ", &e.with_path(path).to_string());
            return Ok(Outcome::Failed);
        }
    };
    if formatted == text {
        return Ok(Outcome::Same);
    }
    if check {
        writeln!(
            out,
            "{shown}: not in the board layout (snakeladder fmt rewrites it)"
        )?;
    } else {
        Output::resolve(path, &[])?.write(|w| w.write_all(formatted.as_bytes()))?;
        writeln!(out, "{shown}: formatted")?;
    }
    Ok(Outcome::Changed)
}
