//! `snakeladder validate`: check board files in CI.

use crate::common::{self, CliError, EXIT_FAILURE, EXIT_OK, Format};
use serde::Serialize;
use snakeladder::{Board, BoardError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board files, or directories searched for *.json; `-` reads standard
    /// input. With none, the built-in default board.
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Serialize)]
struct Report {
    path: String,
    valid: bool,
    problems: Vec<ProblemReport>,
}

#[derive(Serialize)]
struct ProblemReport {
    kind: &'static str,
    message: String,
}

/// Runs `validate`: exit 0 when every board is valid, 1 otherwise.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut reports = Vec::new();
    if args.paths.is_empty() {
        reports.push(check(None, "<built-in default board>".into()));
    }
    for path in &args.paths {
        for file in files(path) {
            match file {
                Ok(file) => {
                    let name = if file == Path::new("-") {
                        "<stdin>".to_string()
                    } else {
                        file.display().to_string()
                    };
                    reports.push(check(Some(&file), name));
                }
                Err(err) => reports.push(report_of(path.display().to_string(), Err(err))),
            }
        }
    }
    let mut out = common::stdout()?;
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &reports).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        Format::Text => {
            for report in &reports {
                for problem in &report.problems {
                    writeln!(out, "{}: {}", report.path, problem.message)?;
                }
            }
            let invalid = reports.iter().filter(|r| !r.valid).count();
            let boards = if reports.len() == 1 {
                "board"
            } else {
                "boards"
            };
            writeln!(
                out,
                "{} {boards} checked: {} valid, {invalid} invalid",
                reports.len(),
                reports.len() - invalid
            )?;
        }
    }
    out.flush()?;
    let code = if reports.iter().all(|r| r.valid) {
        EXIT_OK
    } else {
        EXIT_FAILURE
    };
    Ok(ExitCode::from(code))
}

fn check(path: Option<&Path>, name: String) -> Report {
    let loaded = common::load_board(path).map_err(|e| match e {
        CliError::Board(b) => b,
        other => BoardError::Io {
            path: name.clone().into(),
            source: std::io::Error::other(other.to_string()),
        },
    });
    report_of(name, loaded)
}

fn report_of(path: String, loaded: Result<Board, BoardError>) -> Report {
    let problems = match loaded {
        Ok(_) => Vec::new(),
        Err(BoardError::Invalid { problems, .. }) => problems
            .iter()
            .map(|p| ProblemReport {
                kind: p.kind(),
                message: p.to_string(),
            })
            .collect(),
        Err(BoardError::Json {
            line,
            column,
            message,
            ..
        }) => vec![ProblemReport {
            kind: "json",
            message: format!("line {line}, column {column}: {message}"),
        }],
        Err(BoardError::Io { source, .. }) => vec![ProblemReport {
            kind: "io",
            message: format!("cannot read: {source}"),
        }],
        Err(other) => vec![ProblemReport {
            kind: other.kind(),
            message: other.to_string(),
        }],
    };
    Report {
        path,
        valid: problems.is_empty(),
        problems,
    }
}

/// The board files a path names: the file itself, or every `*.json` below a
/// directory, sorted so output is stable.
fn files(path: &Path) -> Vec<Result<PathBuf, BoardError>> {
    if path == Path::new("-") || !path.is_dir() {
        return vec![Ok(path.to_path_buf())];
    }
    let mut found = Vec::new();
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(source) => {
                found.push(Err(BoardError::Io { path: dir, source }));
                continue;
            }
        };
        for entry in entries.flatten() {
            let p = entry.path();
            // Symbolic links to directories are not followed: a link back up
            // the tree would walk forever.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "json") {
                found.push(Ok(p));
            }
        }
    }
    // By path, errors included: a comparison that is not a total order may
    // make `sort_by` panic.
    found.sort_by(|a, b| sort_key(a).cmp(sort_key(b)));
    found
}

fn sort_key(found: &Result<PathBuf, BoardError>) -> &Path {
    match found {
        Ok(path) | Err(BoardError::Io { path, .. }) => path,
        Err(_) => Path::new(""),
    }
}
