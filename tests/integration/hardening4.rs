//! Hardening IV: outputs that hold a whole run in memory, files that lose
//! their owner, mode, links or siblings when replaced, and messages that
//! hide why something failed. Each test here failed before its fix.

use std::io::{BufRead, BufReader, Write};

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::support::{BIN, root};

/// Every format of `validate` writes a board's findings once the board is
/// checked, before the next board is read: a run of many files holds one
/// file's findings in memory, not the run's. The second path is standard
/// input, held open: the first board's findings must be out before it
/// ends.
#[test]
fn validate_writes_each_board_before_reading_the_next() {
    let bad = root().join("tests/invalid");
    let first = std::fs::read_dir(&bad)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .min()
        .unwrap();
    for (format, sign) in [
        ("text", ": "),
        ("github", "::error "),
        ("json", "\"valid\": false"),
        ("sarif", "\"ruleId\""),
    ] {
        let mut child = Command::new(BIN)
            .args(["validate", "--format", format])
            .arg(&first)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let sign = sign.to_string();
        let reader = std::thread::spawn(move || {
            let mut seen = String::new();
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                seen.push_str(&line);
                seen.push('\n');
                if line.contains(&sign) {
                    let _ = tx.send(());
                }
            }
            seen
        });
        let streamed = rx.recv_timeout(Duration::from_secs(60)).is_ok();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(br#"{"squares": 10, "snakes": [[3, 8]]}"#)
            .unwrap();
        drop(stdin);
        child.wait().unwrap();
        let seen = reader.join().unwrap();
        assert!(
            streamed,
            "{format}: nothing of the first board before standard input ended:\n{seen}"
        );
        if format != "text" && format != "github" {
            let parsed: serde_json::Value = serde_json::from_str(&seen).unwrap();
            assert!(parsed.is_object(), "{format}");
        }
    }
}

/// A refusal for memory shows the estimate above the limit: with the limit
/// one byte below the estimate, the two figures still read differently
/// (they read "159.4 KiB, over the limit of 159.4 KiB").
#[test]
fn a_memory_refusal_shows_the_estimate_above_the_limit() {
    // The sensitivity ranking of the built-in board holds two dense
    // inverses of 101 states: 2 × 8 × 101² bytes.
    let needed = 2 * 8 * 101 * 101;
    let out = crate::support::run(&[
        "analyze",
        "--sensitivity",
        "--max-memory",
        &(needed - 1).to_string(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let figures: Vec<&str> = err
        .split("about ")
        .nth(1)
        .and_then(|rest| {
            let (needed, rest) = rest.split_once(" for ")?;
            let limit = rest
                .split("over the limit of ")
                .nth(1)?
                .split(" (")
                .next()?;
            Some(vec![needed, limit])
        })
        .unwrap_or_else(|| panic!("no estimate and limit in: {err}"));
    assert_ne!(figures[0], figures[1], "{err}");
}

/// A jump that ends off the board still takes its start square: the
/// ladder on the same square is a duplicate start.
#[test]
fn a_jump_ending_off_the_board_is_checked_against_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.json");
    std::fs::write(
        &board,
        r#"{"squares":20,"snakes":[[13,-2]],"ladders":[[13,15]]}"#,
    )
    .unwrap();
    let out = crate::support::run(&["validate", board.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("jump_end_off_board"), "{text}");
    assert!(text.contains("duplicate_start"), "{text}");
}

/// A lone surrogate in a board's name is named as one, at its escape.
#[test]
fn a_lone_surrogate_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.json");
    std::fs::write(&board, r#"{"squares": 20, "name": "\ud800"}"#).unwrap();
    let out = crate::support::run(&["validate", board.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(":1:26: json: `name`: `\\ud800` is a lone surrogate"),
        "{text}"
    );
}
