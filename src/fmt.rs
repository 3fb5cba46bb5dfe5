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
    let mut err = std::io::stderr();
    for path in &args.paths {
        if path == Path::new("-") {
            let mut text = String::new();
            let limit = snakeladder::Board::MAX_FILE_BYTES;
            if let Err(e) = std::io::stdin().take(limit).read_to_string(&mut text) {
                let _ = writeln!(err, "<stdin>: cannot read: {e}");
                failed = true;
                continue;
            }
            match snakeladder::internals::BoardSpec::format_json(&text) {
                Ok(formatted) if args.check && formatted != text => {
                    writeln!(out, "<stdin>: not in the board layout")?;
                    failed = true;
                }
                Ok(_) if args.check => {}
                Ok(formatted) => out.write_all(formatted.as_bytes())?,
                Err(e) => {
                    let _ = writeln!(err, "<stdin>: {e}");
                    failed = true;
                }
            }
            continue;
        }
        let files = if path.is_dir() {
            let (files, unreadable) = crate::validate::walk(path);
            for f in unreadable {
                let _ = writeln!(err, "{}: {}", f.file, f.message);
                failed = true;
            }
            if files.is_empty() {
                let _ = writeln!(
                    err,
                    "{}: no board files",
                    snakeladder_render::escape::display_path(path)
                );
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

/// Formats one file in place (atomically), or with `check` names it on
/// standard output when it would change.
fn format_file(path: &Path, check: bool, out: &mut impl Write) -> Result<Outcome, CliError> {
    let shown = snakeladder_render::escape::display_path(path);
    let mut err = std::io::stderr();
    let text = match snakeladder::Board::read_bytes(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                let _ = writeln!(err, "{shown}: not UTF-8 text");
                return Ok(Outcome::Failed);
            }
        },
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return Ok(Outcome::Failed);
        }
    };
    let formatted = match snakeladder::internals::BoardSpec::format_json(&text) {
        Ok(formatted) => formatted,
        Err(e) => {
            let _ = writeln!(err, "error: {}", e.with_path(path));
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
