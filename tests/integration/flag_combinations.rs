//! Flags that a mode of their command has no use for are refused as
//! misuse (exit 2, naming the flag), never accepted and ignored; the
//! combinations that do mean something are honoured. One row per
//! combination of every command (see README.md, "Commands").

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_snakeladder");

/// What a combination must do.
#[derive(Clone, Copy)]
enum Expect {
    /// Exit 2 before any work, the message naming this flag.
    Refused(&'static str),
    /// Exit 0, standard output holding this.
    Honoured(&'static str),
}

#[track_caller]
fn case(args: &[&str], dir: &Path, expect: Expect) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match expect {
        Expect::Refused(flag) => {
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
            assert!(stdout.is_empty(), "{args:?} printed: {stdout}");
            assert!(
                stderr.contains(flag),
                "{args:?} does not name {flag}: {stderr}"
            );
        }
        Expect::Honoured(shown) => {
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
            assert!(stdout.contains(shown), "{args:?} lacks {shown:?}: {stdout}");
        }
    }
}

#[test]
fn no_flag_is_accepted_and_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/milton-bradley.json");
    let board = board.to_str().unwrap();
    // A record to replay.
    case(
        &[
            "play",
            "--players",
            "Ana,Bo",
            "--seed",
            "7",
            "--record",
            "game.json",
        ],
        d,
        Expect::Honoured("Winner:"),
    );
    use Expect::{Honoured, Refused};
    #[rustfmt::skip]
    let table: &[(&[&str], Expect)] = &[
        // play: a replay's rolls are the record's.
        (&["play", "--replay", "game.json", "--max-turns", "5"], Refused("--max-turns")),
        (&["play", "--replay", "game.json", "--seed", "1"], Refused("--seed")),
        (&["play", "--replay", "game.json", "--to-last"], Refused("--to-last")),
        (&["play", "--replay", "game.json", "--interactive"], Refused("--interactive")),
        (&["play", "--replay", "game.json", "--players", "a,b"], Refused("--players")),
        // play: --odds in every format.
        (&["play", "--players", "Ana,Bo", "--seed", "7", "--odds", "--format", "text"], Honoured("  odds: Ana 50.8%, Bo 49.2%")),
        (&["play", "--players", "Ana,Bo", "--seed", "7", "--odds", "--format", "json"], Honoured("\"undecided\"")),
        (&["play", "--replay", "game.json", "--odds", "--format", "json"], Honoured("\"turns_followed\"")),
        (&["play", "--replay", "game.json", "--odds", "--format", "text"], Honoured("  odds: Ana 50.8%")),
        // validate: only SARIF has a root for its file locations.
        (&["validate", board, "--sarif-root", "."], Refused("--sarif-root")),
        (&["validate", board, "--sarif-root", ".", "--format", "json"], Refused("--sarif-root")),
        (&["validate", board, "--sarif-root", ".", "--format", "github"], Refused("--sarif-root")),
        (&["validate", board, "--sarif-root", ".", "--format", "sarif"], Honoured("\"%SRCROOT%\"")),
        // generate: the search's limits need the search.
        (&["generate", "--squares", "30", "--max-work", "1e9"], Refused("--max-work")),
        (&["generate", "--squares", "30", "--max-memory", "1G"], Refused("--max-memory")),
        (&["generate", "--squares", "30", "--time-limit", "5s"], Refused("--time-limit")),
        (&["generate", "--squares", "30", "--max-first-seat-advantage", "2%"], Refused("--max-first-seat-advantage")),
        (&["generate", "--squares", "100", "--target-turns", "30:45", "--time-limit", "60s", "--max-work", "1e12", "--max-memory", "1G"], Honoured("\"squares\": 100")),
        // analyze and report: a time limit is --sensitivity's, a seed the cross-check's.
        (&["analyze", "--time-limit", "5s"], Refused("--time-limit")),
        (&["report", "--time-limit", "5s"], Refused("--time-limit")),
        (&["report", "--seed", "3"], Refused("--seed")),
        (&["report", "--cross-check", "200", "--seed", "3"], Honoured("simulated")),
    ];
    for &(args, expect) in table {
        case(args, d, expect);
    }
}
