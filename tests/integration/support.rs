//! What the test modules share: where the binary and the repository are,
//! and running it; and the property tests' random boards ([`boards`]).

pub mod boards;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `snakeladder` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_snakeladder");

/// The repository's root (where `boards/` is).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The binary, to be run from the repository's root.
pub fn bin() -> Command {
    let mut command = Command::new(BIN);
    command.current_dir(root());
    command
}

/// Runs the binary from the repository's root with `args`.
#[track_caller]
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Runs the binary in `dir` with `args`, its standard input empty.
#[track_caller]
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// A Tokio runtime of two worker threads, for the tests that serve or call
/// the designer's server in process.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
