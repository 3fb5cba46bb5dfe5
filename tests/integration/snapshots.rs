//! Snapshots of what people read: the text output of every command, the
//! Markdown report and the outline of the HTML report, on the built-in board
//! and two variants. A wording slip ("3th") shows up here as a diff.
//!
//! To accept an intended change, review the diff and rerun with
//! `INSTA_UPDATE=always cargo test --test integration snapshots` (or
//! `cargo insta review` where cargo-insta is installed).

use std::path::Path;
use std::process::Command;

/// The built-in board (no argument) and two variants with other rules.
const BOARDS: [(&str, Option<&str>); 3] = [
    ("builtin", None),
    ("extra-turn", Some("boards/variant-extra-turn.json")),
    ("chains-follow", Some("boards/variant-chains-follow.json")),
];

/// Runs the binary from the repository root; stdout, then stderr and the
/// exit code when they say anything.
fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let mut text = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&stderr);
    }
    let code = out.status.code().expect("an exit code");
    if code != 0 {
        text.push_str(&format!("--- exit {code}\n"));
    }
    text
}

fn with_board<'a>(args: &[&'a str], board: Option<&'a str>) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(board);
    all
}

#[test]
fn analyze() {
    for (name, board) in BOARDS {
        let text = run(&with_board(&["analyze", "--players", "2,3"], board));
        insta::assert_snapshot!(format!("analyze-{name}"), text);
    }
}

#[test]
fn analyze_exact() {
    let text = run(&[
        "analyze",
        "boards/althoen-1993.json",
        "--exact",
        "--players",
        "2",
    ]);
    insta::assert_snapshot!("analyze-exact-althoen", text);
}

#[test]
fn simulate() {
    for (name, board) in BOARDS {
        let args = [
            "simulate",
            "--seed",
            "1",
            "--games",
            "20000",
            "--players",
            "2",
        ];
        insta::assert_snapshot!(format!("simulate-{name}"), run(&with_board(&args, board)));
    }
}

#[test]
fn check() {
    for (name, board) in BOARDS {
        let args = ["check", "--seed", "3", "--games", "20000"];
        insta::assert_snapshot!(format!("check-{name}"), run(&with_board(&args, board)));
    }
}

#[test]
fn play() {
    for (name, board) in BOARDS {
        let args = ["play", "--players", "Ana,Bo,Cy", "--seed", "42"];
        insta::assert_snapshot!(format!("play-{name}"), run(&with_board(&args, board)));
    }
}

#[test]
fn validate() {
    insta::assert_snapshot!("validate-boards", run(&["validate", "boards"]));
    insta::assert_snapshot!("validate-invalid", run(&["validate", "tests/invalid"]));
}

#[test]
fn generate() {
    let args = [
        "generate",
        "--squares",
        "30",
        "--snakes",
        "3",
        "--ladders",
        "3",
    ];
    insta::assert_snapshot!(
        "generate",
        run(&[&args[..], &["--seed", "1", "-o", "-"]].concat())
    );
}

#[test]
fn help() {
    insta::assert_snapshot!("help", run(&["--help"]));
    for command in [
        "analyze", "report", "simulate", "check", "generate", "validate", "play", "diff", "tune",
    ] {
        insta::assert_snapshot!(format!("help-{command}"), run(&[command, "--help"]));
    }
}

#[test]
fn report_markdown() {
    for (name, board) in BOARDS {
        let text = run(&with_board(&["report", "--format", "markdown"], board));
        insta::assert_snapshot!(format!("report-markdown-{name}"), text);
    }
}

/// Past six seats the seat odds turn: a row per seat, a column per player
/// count (tests/integration/many_seats.rs checks their widths).
#[test]
fn report_markdown_many_seats() {
    let text = run(&["report", "--format", "markdown", "--players", "2,9"]);
    let from = text.find("## Several players").expect("a players section");
    let to = text[from..]
        .find("\n## Snakes")
        .map_or(text.len(), |n| from + n);
    insta::assert_snapshot!("report-markdown-many-seats", &text[from..to]);
}

#[test]
fn report_html_outline() {
    for (name, board) in BOARDS {
        let html = run(&with_board(&["report", "--format", "html"], board));
        insta::assert_snapshot!(format!("report-html-{name}"), outline(&html));
    }
}

/// The structure of an HTML page: its headings, table headers, captions,
/// titles and charts, one per line and indented by nesting depth of
/// sections, without the numbers and drawing that the other snapshots and
/// tests already cover.
fn outline(html: &str) -> String {
    const KEPT: [&str; 9] = [
        "title",
        "h1",
        "h2",
        "h3",
        "caption",
        "th",
        "figcaption",
        "svg",
        "table",
    ];
    let mut lines = Vec::new();
    for piece in html.split('<').skip(1) {
        let (tag, rest) = piece.split_once('>').unwrap_or((piece, ""));
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        if !KEPT.contains(&name) {
            continue;
        }
        let text = rest.trim();
        let line = if text.is_empty() || name == "svg" || name == "table" {
            name.to_string()
        } else {
            format!("{name}: {text}")
        };
        lines.push(line);
    }
    lines.join("\n")
}

#[test]
fn outline_keeps_structure_only() {
    let page = "<html><title>T</title><h2>Seats</h2><table><tr><th>seat</th></tr>\
                <tr><td>0.5</td></tr></table><svg width=\"3\"><rect/></svg></html>";
    assert_eq!(outline(page), "title: T\nh2: Seats\ntable\nth: seat\nsvg");
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("boards")
            .is_dir()
    );
}

/// Issue 14's messages and number formats: a simulation of one game (no
/// standard error: `-`, never NaN), a small probability in scientific
/// notation, every seat of seven players, board type errors in the board's
/// words, and a replay that diverges, in words and counting from 1.
#[test]
fn messages_and_number_formats() {
    insta::assert_snapshot!(
        "simulate-one-game",
        run(&["simulate", "--games", "1", "boards/seed-ten-squares.json"])
    );
    insta::assert_snapshot!(
        "analyze-seven-players",
        run(&["analyze", "--players", "7", "boards/seed-ten-squares.json"])
    );
    let mut errors = String::new();
    for file in [
        "squares-string.json",
        "squares-fraction.json",
        "short-jump.json",
        "array.json",
        "number.json",
        "weight-huge.json",
    ] {
        errors += &run(&["validate", &format!("tests/hostile/{file}")]);
    }
    insta::assert_snapshot!("board-type-errors", errors);

    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.json");
    let record = record.to_str().unwrap();
    run(&[
        "play",
        "--players",
        "Ana,Bo",
        "--seed",
        "1",
        "--record",
        record,
    ]);
    let text = std::fs::read_to_string(record).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["events"][4]["turn"]["roll"] = serde_json::json!(6);
    value["events"][4]["turn"]["end"] = serde_json::json!(49);
    std::fs::write(record, value.to_string()).unwrap();
    let replayed = run(&["play", "--replay", record]).replace(record, "game.json");
    insta::assert_snapshot!("replay-diverges", replayed);
}
