//! `snakeladder diff OLD NEW`: what a layout change does to the game.

use crate::args::{Source, parse_source};
use crate::common::{self, CliError, EXIT_FAILURE, EXIT_OK};
use crate::memory;
use snakeladder::{Analysis, Limits, Options};
use snakeladder::{Board, BoardError};
use snakeladder_render::RenderDiff;
use snakeladder_render::diff::Diff;
use snakeladder_render::diff::Gate;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Arguments of `diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old board: a file, `-` for standard input, or `REV:path` read
    /// from git (`git cat-file`) (path from the repository's root, or `REV:./path`
    /// from the current directory).
    old: String,
    /// The new board, in the same forms.
    new: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: DiffFormat,
    /// Exit 1 when the change passes a gate, e.g. 'mean_change > 10%',
    /// 'abs(p99_change) >= 20', 'jumps_changed > 2' (repeatable; see the
    /// README for the names).
    #[arg(long, value_name = "EXPR")]
    fail_if: Vec<Gate>,
    /// Most memory each analysis may use (e.g. 8G, 512M).
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most multiply-adds one optional figure may take before it is skipped.
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
}

/// Output format of `diff`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// A readable summary for a terminal.
    #[default]
    Text,
    /// For a pull-request comment or $GITHUB_STEP_SUMMARY.
    Markdown,
    /// Every figure, for machines.
    Json,
    /// A self-contained page with both boards drawn.
    Html,
}

/// Runs `diff`: exit 0, or 1 when a `--fail-if` gate trips.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.old == "-" && args.new == "-" {
        return Err(CliError::Usage(
            "diff: standard input can be only one of the two boards".to_string(),
        ));
    }
    let mut limits = Limits {
        max_memory: args.max_memory.unwrap_or_else(memory::default_limit),
        ..Limits::default()
    };
    if let Some(w) = args.max_work {
        limits.max_work = w;
    }
    let old = load(&args.old)?;
    let new = load(&args.new)?;
    let options = Options::default().limits(limits);
    let named = |source: &str| {
        let board = shown(source);
        move |e| CliError::AnalysisOf { board, source: e }
    };
    let old_a = Analysis::new(&old, &options).map_err(named(&args.old))?;
    let new_a = Analysis::new(&new, &options).map_err(named(&args.new))?;
    let diff = Diff::new(
        (&old, &old_a, shown(&args.old)),
        (&new, &new_a, shown(&args.new)),
    );
    let mut out = common::stdout()?;
    let written = (|| -> std::io::Result<()> {
        match args.format {
            DiffFormat::Text => out.write_all(diff.text().as_bytes())?,
            DiffFormat::Markdown => out.write_all(diff.markdown().as_bytes())?,
            DiffFormat::Html => out.write_all(diff.html(&old, &new).as_bytes())?,
            DiffFormat::Json => {
                common::write_json(&mut out, &diff)?;
            }
        }
        out.flush()
    })();
    common::gate_output(written)?;
    let tripped: Vec<String> = args.fail_if.iter().filter_map(|g| g.trips(&diff)).collect();
    for why in &tripped {
        common::say("diff: --fail-if ", why);
    }
    Ok(ExitCode::from(if tripped.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILURE
    }))
}

fn shown(source: &str) -> String {
    snakeladder_render::escape::terminal(if source == "-" { "<stdin>" } else { source })
}

/// Loads a board from a path, `-`, or `REV:path` from git. A path that
/// exists is a path, even with a colon in its name.
fn load(source: &str) -> Result<Board, CliError> {
    let io = |message: String| BoardError::Io {
        path: PathBuf::from(source),
        source: std::io::Error::other(message),
    };
    match parse_source(source, |s| Path::new(s).exists()).map_err(io)? {
        Source::Path(p) => common::load_board(Some(Path::new(p))),
        Source::Git { rev, file } => {
            let bytes = git_blob(rev, file).map_err(io)?;
            Ok(Board::from_json_slice(&bytes).map_err(|e| e.with_path(Path::new(source)))?)
        }
    }
}

/// The bytes of the blob `rev:file`, at most [`snakeladder::Board::MAX_FILE_BYTES`]:
/// its size is asked first (`git cat-file -s`), so a larger blob is refused
/// before any of it is read. User text reaches git only after
/// `--end-of-options`, and never starts with `-` ([`parse_source`]).
fn git_blob(rev: &str, file: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let object = format!("{rev}:{file}");
    let git = |args: &[&str]| {
        let mut command = Command::new("git");
        command
            .args(args)
            .arg("--end-of-options")
            .arg(&object)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        command
    };
    let failed = |stderr: &[u8]| {
        let stderr = String::from_utf8_lossy(stderr);
        let first = stderr.lines().next().unwrap_or("git failed").trim();
        format!("git: {}", snakeladder_render::escape::terminal(first))
    };
    let size = git(&["cat-file", "-s"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !size.status.success() {
        return Err(failed(&size.stderr));
    }
    let size: u64 = String::from_utf8_lossy(&size.stdout)
        .trim()
        .parse()
        .map_err(|_| "git cat-file -s did not give a size".to_string())?;
    let cap = snakeladder::Board::MAX_FILE_BYTES;
    if size > cap {
        return Err(format!(
            "the blob is {size} bytes, more than the {cap} bytes a board file may have"
        ));
    }
    let mut child = git(&["cat-file", "blob"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut bytes = Vec::new();
    let read = child
        .stdout
        .take()
        .map(|out| out.take(cap + 1).read_to_end(&mut bytes));
    if bytes.len() as u64 > cap {
        let _ = child.kill();
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!(
            "the blob is more than the {cap} bytes a board file may have"
        ));
    }
    if !out.status.success() {
        return Err(failed(&out.stderr));
    }
    match read {
        Some(Ok(_)) => Ok(bytes),
        Some(Err(e)) => Err(format!("cannot read from git: {e}")),
        None => Err("git gave no output".to_string()),
    }
}
