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
