//! The output-path table: every command that writes a file (`report -o`,
//! `generate -o`, `play --record`) aimed at a symbolic link, a FIFO,
//! `/dev/null`, `/dev/stdout`, a directory, a read-only directory and its
//! own input, run as the current user and, when the tests run as root and
//! `setpriv` can drop to `nobody`, once more as `nobody`.
//!
//! Also: temporary files are removed when SIGINT, SIGTERM or SIGHUP ends a
//! write, `-` is standard output for every writer, and a closed standard
//! output is exit 3.

use crate::support::BIN;
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The writers: the arguments before the output path, the flag that takes
/// it, and text the written file always holds.
const WRITERS: &[(&str, &[&str], &str, &str)] = &[
    // HTML: one file (a Markdown report with -o also writes its charts
    // beside it, which would hide a stray temporary file among them).
    (
        "report",
        &["report", "--format", "html"],
        "-o",
        "<title>Milton Bradley Chutes and Ladders</title>",
    ),
    (
        "generate",
        &[
            "generate",
            "--squares",
            "30",
            "--snakes",
            "2",
            "--ladders",
            "2",
        ],
        "-o",
        "\"squares\": 30",
    ),
    (
        "play --record",
        &["play", "--players", "Ana,Bo", "--seed", "1"],
        "--record",
        "\"format\"",
    ),
];

/// Who runs the command.
#[derive(Clone, Copy, Debug, PartialEq)]
enum User {
    Current,
    /// `nobody`, through `setpriv`.
    Nobody,
}

impl User {
    fn command(self) -> Command {
        match self {
            User::Current => Command::new(BIN),
            User::Nobody => {
                let mut c = Command::new("setpriv");
                c.args([
                    "--reuid=nobody",
                    "--regid=nogroup",
                    "--clear-groups",
                    "--",
                    BIN,
                ]);
                c
            }
        }
    }
}

fn is_root() -> bool {
    fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

/// Whether `nobody` can be used here, or why not.
fn nobody_available() -> Result<(), String> {
    if !is_root() {
        return Err("the tests do not run as root, so cannot drop to nobody".into());
    }
    let probe = User::Nobody.command().arg("--version").output();
    match probe {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "setpriv to nobody cannot run the binary: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("setpriv is not available: {e}")),
    }
}

/// A scratch directory every user can write in.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

fn run(user: User, args: &[&str], flag: &str, path: &Path, dir: &Path) -> Output {
    user.command()
        .args(args)
        .arg(flag)
        .arg(path)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// One writer at every kind of target, as `user`.
fn writer_table(user: User, writer: &(&str, &[&str], &str, &str)) {
    let &(name, args, flag, holds) = writer;
    let context = |target: &str| format!("{name} at {target} as {user:?}");

    // A symbolic link: the link stays, its target is replaced.
    let dir = scratch();
    let real = dir.path().join("real.out");
    fs::write(&real, "old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o666)).unwrap();
    std::os::unix::fs::symlink("real.out", dir.path().join("link.out")).unwrap();
    let out = run(user, args, flag, Path::new("link.out"), dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {out:?}",
        context("a symlink")
    );
    let link = fs::symlink_metadata(dir.path().join("link.out")).unwrap();
    assert!(link.file_type().is_symlink(), "{}", context("a symlink"));
    let text = fs::read_to_string(&real).unwrap();
    assert!(text.contains(holds), "{}: {text}", context("a symlink"));
    assert_eq!(names(dir.path()), ["link.out", "real.out"]);

    // A FIFO: written straight to its reader, and still a FIFO.
    let dir = scratch();
    let fifo = dir.path().join("pipe.out");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    fs::set_permissions(&fifo, fs::Permissions::from_mode(0o666)).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let out = run(user, args, flag, Path::new("pipe.out"), dir.path());
    let read = reader.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}: {out:?}", context("a FIFO"));
    assert!(read.contains(holds), "{}: {read}", context("a FIFO"));
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(dir.path()), ["pipe.out"]);

    // /dev/null: written, and still the character device.
    let out = run(user, args, flag, Path::new("/dev/null"), dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {out:?}",
        context("/dev/null")
    );
    let null = fs::metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");

    // /dev/stdout: the output arrives on standard output.
    let out = run(user, args, flag, Path::new("/dev/stdout"), dir.path());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {out:?}",
        context("/dev/stdout")
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(holds),
        "{}: {stdout}",
        context("/dev/stdout")
    );

    // `-`: standard output too.
    let out = run(user, args, flag, Path::new("-"), dir.path());
    assert_eq!(out.status.code(), Some(0), "{}: {out:?}", context("-"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(holds), "{}: {stdout}", context("-"));
    assert!(!dir.path().join("-").exists(), "{}", context("-"));

    // A directory: refused, untouched.
    let dir = scratch();
    fs::create_dir(dir.path().join("taken")).unwrap();
    fs::write(dir.path().join("taken/inside"), "safe").unwrap();
    let out = run(user, args, flag, Path::new("taken"), dir.path());
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}: {out:?}",
        context("a directory")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("taken: is a directory"), "{stderr}");
    assert_eq!(
        fs::read_to_string(dir.path().join("taken/inside")).unwrap(),
        "safe"
    );
    assert_eq!(names(dir.path()), ["taken"]);

    // A read-only directory: root may write in it anyway; anyone else gets
    // exit 3 naming the path, and the old file stays.
    let dir = scratch();
    let locked = dir.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("out"), "old").unwrap();
    fs::set_permissions(locked.join("out"), fs::Permissions::from_mode(0o666)).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    let out = run(user, args, flag, Path::new("locked/out"), dir.path());
    let kept = fs::read_to_string(locked.join("out")).unwrap();
    let root = user == User::Current && is_root();
    if root {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {out:?}",
            context("read-only dir")
        );
        assert!(kept.contains(holds), "{kept}");
    } else {
        assert_eq!(
            out.status.code(),
            Some(3),
            "{}: {out:?}",
            context("read-only dir")
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("locked/out: cannot create a temporary file in locked"),
            "{stderr}"
        );
        assert_eq!(kept, "old");
    }
    assert_eq!(names(&locked), ["out"]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn every_writer_at_every_kind_of_target() {
    for writer in WRITERS {
        writer_table(User::Current, writer);
    }
}

#[test]
fn every_writer_at_every_kind_of_target_unprivileged() {
    if let Err(why) = nobody_available() {
        eprintln!("skipped: {why}");
        return;
    }
    for writer in WRITERS {
        writer_table(User::Nobody, writer);
    }
}

/// A copy of a real board in a scratch directory.
fn board_copy(dir: &Path) -> PathBuf {
    let board = dir.join("board.json");
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/althoen-1993.json"),
        &board,
    )
    .unwrap();
    board
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = scratch();
    let board = board_copy(dir.path());
    let before = fs::read(&board).unwrap();
    std::os::unix::fs::symlink("board.json", dir.path().join("alias.json")).unwrap();
    for (args, path) in [
        (&["report", "board.json", "-o"][..], "board.json"),
        (&["report", "board.json", "-o"][..], "alias.json"),
        (
            &[
                "play",
                "board.json",
                "--players",
                "a,b",
                "--seed",
                "1",
                "--record",
            ][..],
            "board.json",
        ),
        // `generate` reads its rules from a board file: every command's
        // inputs, not only its board argument, are protected.
        (
            &["generate", "--squares", "20", "--rules", "board.json", "-o"][..],
            "board.json",
        ),
        (
            &["generate", "--squares", "20", "--rules", "board.json", "-o"][..],
            "alias.json",
        ),
        (
            &[
                "generate",
                "--squares",
                "20",
                "--rules",
                "board.json",
                "--target-turns",
                "5:50",
                "-o",
            ][..],
            "board.json",
        ),
        (
            &["tune", "board.json", "--target-turns", "20:30", "-o"][..],
            "board.json",
        ),
    ] {
        let out = Command::new(BIN)
            .args(args)
            .arg(path)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?} {path}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("is also an input of this command"),
            "{stderr}"
        );
        assert_eq!(fs::read(&board).unwrap(), before, "{args:?} {path}");
    }
}

#[test]
fn a_closed_standard_output_is_exit_three() {
    // `args` run by the shell with standard output redirected so.
    let redirected = |args: &str, redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} {redirect}"))
            .arg(BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    for args in [
        "analyze",
        "report",
        "validate boards/althoen-1993.json",
        "simulate --games 10",
        "check --games 1000",
        "play --players a,b --seed 1",
        "generate --squares 10",
    ] {
        let out = redirected(args, ">&-");
        assert_eq!(out.status.code(), Some(3), "{args}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("standard output is closed"),
            "{args}: {stderr}"
        );
        // Written to /dev/null by choice, the output is fine, whether the
        // shell opened it for writing or for reading and writing (which
        // looks like the /dev/null Rust's runtime puts on a closed one).
        for redirect in ["> /dev/null", "1<> /dev/null"] {
            let out = redirected(args, redirect);
            assert_eq!(out.status.code(), Some(0), "{args} {redirect}: {out:?}");
        }
    }
}

#[test]
fn play_record_on_standard_output_moves_the_transcript_to_standard_error() {
    let out = Command::new(BIN)
        .args([
            "play",
            "--players",
            "Ana,Bo",
            "--seed",
            "1",
            "--record",
            "-",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(record.get("format").is_some(), "{record}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Winner:"), "{stderr}");
}

/// Sends `signal` to a `generate -o` writing a large board as soon as its
/// temporary file appears; after the process ends, no temporary file and no
/// output is left. Returns false when the write finished before the
/// temporary file was seen (nothing was tested).
fn interrupt_generate(signal: &str) -> bool {
    let dir = scratch();
    let mut child = Command::new(BIN)
        .args([
            "generate",
            "--squares",
            "2000000",
            "--snakes",
            "300000",
            "--ladders",
            "300000",
            "-o",
            "big.json",
        ])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let seen = loop {
        if names(dir.path()).iter().any(|n| n.ends_with(".tmp")) {
            break true;
        }
        if child.try_wait().unwrap().is_some() {
            break false;
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    };
    if seen {
        let sent = Command::new("kill")
            .args(["-s", signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }
    let status = child.wait().unwrap();
    if !seen {
        return false;
    }
    let left = names(dir.path());
    if left == ["big.json"] {
        // The signal came after the rename: the write was complete, and
        // nothing is left behind whether the process then exited by itself
        // or was ended by the signal on its way out.
        let _ = status;
        return false;
    }
    assert!(left.is_empty(), "{signal} left {left:?} ({status:?})");
    assert!(!status.success(), "{signal}: {status:?}");
    true
}

#[test]
fn no_temporary_file_is_left_after_a_signal() {
    for signal in ["INT", "TERM", "HUP"] {
        let tested = (0..3).any(|_| interrupt_generate(signal));
        if !tested {
            eprintln!(
                "skipped SIG{signal}: three writes finished before the temporary file was seen"
            );
        }
    }
}

#[test]
fn completions_name_every_command_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = Command::new(BIN)
            .args(["completions", shell])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}: {out:?}");
        let script = String::from_utf8_lossy(&out.stdout);
        for command in [
            "analyze", "report", "generate", "validate", "play", "simulate", "check",
        ] {
            assert!(script.contains(command), "{shell} lacks {command}");
        }
    }
    let out = Command::new(BIN)
        .args(["completions", "nosh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn every_json_output_names_its_schema_and_board() {
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/althoen-1993.json");
    let board = board.to_str().unwrap();
    let mut fingerprints = Vec::new();
    for args in [
        &["analyze", "--format", "json"][..],
        &["simulate", "--games", "100", "--format", "json"],
        &["check", "--games", "1000", "--format", "json"],
    ] {
        let out = Command::new(BIN).args(args).arg(board).output().unwrap();
        assert!(
            out.status.code() == Some(0) || out.status.code() == Some(1),
            "{out:?}"
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["schema"], 1, "{args:?}");
        assert!(
            v["board"]["name"].as_str().unwrap().contains("1993"),
            "{args:?}"
        );
        // analyze has its fingerprint at the top, beside the board's figures.
        let fingerprint = if args[0] == "analyze" {
            &v["fingerprint"]
        } else {
            &v["board"]["fingerprint"]
        };
        fingerprints.push(fingerprint.clone());
    }
    assert!(fingerprints[0].as_str().unwrap().len() == 16);
    assert!(
        fingerprints.iter().all(|f| *f == fingerprints[0]),
        "{fingerprints:?}"
    );
}

/// Text that must never appear in what a command prints: a probability
/// rounded to zero, an exponent of zero, Rust's own names for types and
/// values, and NaN (issue 14, items 4 and 5).
const NEVER_PRINTED: &[&str] = &[
    "0.000000",
    "e0 ",
    "e0)",
    "e0,",
    "e0\n",
    "e0%",
    "Square(",
    "TurnResult",
    "InProgress",
    "Won {",
    "BoardSpec",
    "Some(",
    "expected i64",
    "expected u32",
    "expected f64",
    "NaN",
];

#[test]
fn no_command_prints_rounded_zeros_zero_exponents_or_rust_type_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut boards: Vec<PathBuf> = fs::read_dir(root.join("boards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    boards.sort();
    assert!(boards.len() >= 10);
    let mut failures = Vec::new();
    for board in &boards {
        let board = board.to_str().unwrap();
        for args in [
            &["analyze", "--players", "2,7"][..],
            &["analyze", "--format", "json"],
            &["simulate", "--games", "2000", "--players", "3"],
            &["simulate", "--games", "1"],
            &["check", "--games", "2000"],
            &["play", "--players", "Ana,Bo,Cy", "--seed", "7", "--odds"],
            &["validate"],
        ] {
            let out = Command::new(BIN).args(args).arg(board).output().unwrap();
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            for bad in NEVER_PRINTED {
                if let Some(at) = all.find(bad) {
                    let from = all[..at].rfind('\n').map_or(0, |n| n + 1);
                    let to = all[at..].find('\n').map_or(all.len(), |n| at + n);
                    failures.push(format!("{args:?} {board}: {bad:?} in {:?}", &all[from..to]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
