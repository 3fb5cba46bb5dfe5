//! `snakeladder diff`: the Milton Bradley board against Althoen, King and
//! Schilling's transcription (one chute moved, 48→26 to 47→26), in every
//! format, with `--fail-if` gates and `REV:path` sources.

use crate::support::{BIN, root};
use std::process::{Command, Output};

fn diff(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("diff")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

const OLD: &str = "boards/milton-bradley.json";
const NEW: &str = "boards/althoen-1993.json";

/// The means are docs/figures.md §12's (39.5984 and 39.2251, published figures the
/// analysis tests pin); the chute 48→26 is moved to 47→26.
#[test]
fn milton_bradley_against_althoen() {
    let out = diff(&["--format", "json", OLD, NEW]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mean = &json["figures"][0];
    assert_eq!(mean["name"], "mean");
    // Four decimals as printed: the figures are exact to ~1e-12.
    assert!((mean["old"].as_f64().unwrap() - 39.5984).abs() < 5e-5);
    assert!((mean["new"].as_f64().unwrap() - 39.2251).abs() < 5e-5);
    let jumps = json["jumps"].as_array().unwrap();
    assert_eq!(jumps.len(), 1, "{jumps:?}");
    assert_eq!(jumps[0]["change"], "moved");
    assert_eq!(jumps[0]["kind"], "snake");
    assert_eq!(
        (
            jumps[0]["old"]["from"].as_u64(),
            jumps[0]["old"]["to"].as_u64()
        ),
        (Some(48), Some(26))
    );
    assert_eq!(
        (
            jumps[0]["new"]["from"].as_u64(),
            jumps[0]["new"]["to"].as_u64()
        ),
        (Some(47), Some(26))
    );
    assert_eq!(json["rules"], serde_json::json!([]));
    // Square 47 can no longer be rested on (the chute starts there) and 48
    // now can: the two largest changes.
    let squares: Vec<u64> = json["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["square"].as_u64().unwrap())
        .collect();
    assert_eq!(&squares[..2], &[47, 48]);
    assert_eq!(json["squares"][0]["new"], 0.0);
    assert_eq!(json["squares"][1]["old"], 0.0);

    let text = stdout(&diff(&[OLD, NEW]));
    assert!(
        text.contains(
            "mean turns                              39.5984      39.2251  -0.3732 (-0.9%)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "moved    snake   48→26 (used at least once in 43.50% of games)  →  47→26 (used at least once in 41.18% of games)"
        ),
        "{text}"
    );
}

#[test]
fn text_and_markdown_snapshots() {
    insta::assert_snapshot!("diff_text", stdout(&diff(&[OLD, NEW])));
    insta::assert_snapshot!(
        "diff_markdown",
        stdout(&diff(&["--format", "markdown", OLD, NEW]))
    );
    insta::assert_snapshot!(
        "diff_rules_markdown",
        stdout(&diff(&[
            "--format",
            "markdown",
            OLD,
            "boards/variant-two-dice.json"
        ]))
    );
}

/// The page is self-contained: both boards and the overlaid distributions
/// are inline SVG, and nothing is loaded from elsewhere.
#[test]
fn html_draws_both_boards_and_both_lengths() {
    let out = diff(&["--format", "html", OLD, NEW]);
    assert_eq!(out.status.code(), Some(0));
    let page = stdout(&out);
    assert!(page.starts_with("<!DOCTYPE html>"));
    // The overlay at a desktop and a phone size (the page shows one), and
    // the two boards.
    assert_eq!(page.matches("<svg class=\"chart overlay\"").count(), 2);
    assert_eq!(page.matches("class=\"sl-board\"").count(), 2);
    // The moved snake is marked on both boards, and nothing else.
    assert_eq!(page.matches("sl-changed").count(), 2);
    assert!(page.contains("sl-changed sl-moved\" data-from=\"48\" data-to=\"26\""));
    assert!(page.contains("sl-changed sl-moved\" data-from=\"47\" data-to=\"26\""));
    assert!(page.contains("Game length: P(T = t), old and new"));
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    assert!(page.contains("48→26 (used at least once in 43.50% of games)"));
}

#[test]
fn fail_if_gates() {
    let gate = |expr: &str| diff(&["--fail-if", expr, OLD, NEW]);
    // The mean falls by 0.3732 turns, 0.94%.
    for (expr, code) in [
        ("mean_change > 0", 0),
        ("mean_change < 0", 1),
        ("abs(mean_change) > 0.9%", 1),
        ("abs(mean_change) > 1%", 0),
        ("mean_change <= -0.37", 1),
        ("mean_change <= -0.38", 0),
        ("jumps_changed > 0", 1),
        ("rules_changed > 0", 0),
        ("shortest_change > 0", 0),
    ] {
        let out = gate(expr);
        assert_eq!(out.status.code(), Some(code), "{expr}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.is_empty(), code == 0, "{expr}: {stderr}");
    }
    let out = gate("mean > 10");
    assert_eq!(out.status.code(), Some(2));

    // A tripped gate gives its value as compared and in the figure's unit:
    // the first-seat advantage rises by 0.022 percentage points, 2.18e-4.
    for (expr, says) in [
        (
            "seat1_advantage_2_change > 0.0001",
            "seat1_advantage_2_change > 0.0001: the value is 2.18e-4 (+0.022 pp)",
        ),
        (
            "mean_change < 0",
            "mean_change < 0: the value is -0.3732 turns",
        ),
        (
            "rounds_2_change < 0",
            "rounds_2_change < 0: the value is -0.1823 rounds",
        ),
    ] {
        let out = gate(expr);
        assert_eq!(out.status.code(), Some(1), "{expr}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{expr}: {stderr}");
    }
}

/// `REV:path` reads the old board from git; a bad revision or path is an
/// unreadable board (exit 1) naming it.
#[test]
fn sources_from_git_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("git is needed to read REV:path")
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::copy(root().join(OLD), dir.path().join("b.json")).unwrap();
    git(&["add", "b.json"]);
    git(&["commit", "-qm", "old"]);
    std::fs::copy(root().join(NEW), dir.path().join("b.json")).unwrap();
    let run = |args: &[&str]| {
        Command::new(BIN)
            .arg("diff")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = run(&["--format", "json", "HEAD:b.json", "b.json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["old"]["source"], "HEAD:b.json");
    assert_eq!(json["jumps"][0]["change"], "moved");
    let out = run(&["HEAD:missing.json", "b.json"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: HEAD:missing.json: cannot read: git: "),
        "{stderr}"
    );

    let mut child = Command::new(BIN)
        .args(["diff", "--format", "json", "-", "b.json"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        &std::fs::read(root().join(OLD)).unwrap(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["old"]["source"], "<stdin>");
    assert_eq!(run(&["-", "-"]).status.code(), Some(2));
}

/// A changed rule reads as the header of `analyze` says it (`overshoot:
/// stay → bounce`, `dice: 1d6 → 2d6`) in text, Markdown and HTML, never as
/// JSON; the JSON output keeps the values as JSON for a program.
#[test]
fn rule_changes_read_in_words_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.json");
    let new = dir.path().join("new.json");
    let loaded = dir.path().join("loaded.json");
    let loaded2 = dir.path().join("loaded2.json");
    let layout = r#""squares": 30, "ladders": [[3, 20]], "snakes": [[25, 5]]"#;
    std::fs::write(&old, format!("{{{layout}}}")).unwrap();
    std::fs::write(
        &new,
        format!(
            r#"{{{layout}, "rules": {{"overshoot": "bounce", "dice": {{"count": 2, "faces": 6}},
                "extra_turn": {{"on": 12, "max_extra": 1}}, "start": 1}}}}"#
        ),
    )
    .unwrap();
    std::fs::write(
        &loaded,
        format!(r#"{{{layout}, "rules": {{"dice": {{"weights": [1, 1, 1, 1, 1, 1]}}}}}}"#),
    )
    .unwrap();
    std::fs::write(
        &loaded2,
        format!(r#"{{{layout}, "rules": {{"dice": {{"weights": [1, 1, 1, 1, 1, 2]}}}}}}"#),
    )
    .unwrap();
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let run = |args: &[&str]| {
        let out = diff(args);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        stdout(&out)
    };

    let text = run(&[old, new]);
    let rules = &text[text.find("\nRules\n").expect(&text)..];
    assert_eq!(
        rules,
        "\nRules\n\
         \x20 dice: 1d6 → 2d6\n\
         \x20 extra turn: no extra rolls → a 12 rolls again (at most 1 extra)\n\
         \x20 overshoot: stay → bounce\n\
         \x20 start: 0 → 1\n"
    );
    let md = run(&["--format", "markdown", old, new]);
    assert!(md.contains("| rule | old | new |"), "{md}");
    assert!(md.contains("| overshoot | stay | bounce |"), "{md}");
    assert!(md.contains("| dice | 1d6 | 2d6 |"), "{md}");
    let html = run(&["--format", "html", old, new]);
    assert!(
        html.contains("<tr><td>overshoot</td><td>stay</td><td>bounce</td></tr>"),
        "{html}"
    );
    for page in [&text, &md, &html] {
        assert!(
            !page.contains(r#"{"count""#) && !page.contains("\"stay\""),
            "{page}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&run(&["--format", "json", old, new])).unwrap();
    let overshoot = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["field"] == "rules.overshoot")
        .unwrap();
    assert_eq!(
        overshoot,
        &serde_json::json!({"field": "rules.overshoot", "old": "\"stay\"", "new": "\"bounce\""})
    );

    // Two loaded dice of as many faces: the words alone would read the
    // same, so the weights follow them.
    let text = run(&[loaded.to_str().unwrap(), loaded2.to_str().unwrap()]);
    assert!(
        text.contains(
            "  dice: a loaded 6-faced die {\"weights\":[1.0,1.0,1.0,1.0,1.0,1.0]} → a loaded 6-faced die {\"weights\":[1.0,1.0,1.0,1.0,1.0,2.0]}"
        ),
        "{text}"
    );
}
