//! `snakeladder validate` as a CI gate: each output format on a directory of
//! valid, invalid and policy-violating boards (snapshots), the position of
//! every problem kind, the policy on the built-in board, the SARIF schema,
//! and the paths that hold no boards.

use crate::support::{BIN, root};
use std::path::Path;
use std::process::{Command, Output};

fn validate(args: &[&str]) -> Output {
    validate_in(root(), args)
}

fn validate_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("validate")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// tests/review/ holds a board that passes, one with two invalid jumps, and
/// one that breaks its own limits; its snakeladder.toml sets
/// `min_jump_use = 0.2`.
#[test]
fn every_format_on_a_directory_of_boards() {
    for format in ["text", "json", "github", "sarif"] {
        let out = validate(&["--format", format, "tests/review"]);
        assert_eq!(out.status.code(), Some(1), "{format}");
        assert!(out.stderr.is_empty(), "{format}");
        // SARIF names the checkout's directory as its %SRCROOT%, which
        // differs from one machine to the next.
        let text = stdout(&out).replace(
            &format!("file://{}/", root().display()),
            "file:///CHECKOUT/",
        );
        insta::assert_snapshot!(format!("review_{format}"), text);
    }
}

/// `--warn-only` turns a kind into warnings: they are printed and do not
/// fail the run.
#[test]
fn warn_only_kinds_do_not_fail() {
    let out = validate(&[
        "--warn-only",
        "max_mean_turns,min_jump_use",
        "tests/review/slow.json",
        "tests/review/good.json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("review_warn_only", stdout(&out));
    let out = validate(&["--warn-only", "no_such_kind", "tests/review"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_kind"));
}

/// A warning never passes an unchecked policy: when `--warn-only` lowers
/// what kept a board from being built (a validation problem, malformed
/// JSON, an unreadable file), the policy's thresholds were never checked on
/// it, and a `policy_unchecked` error says so. Without thresholds the
/// warning alone is what was asked for, and passes.
#[test]
fn a_warning_that_kept_the_board_unbuilt_leaves_the_policy_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("climb.json"),
        r#"{"squares": 10, "snakes": [[3, 8]]}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("broken.json"), r#"{"squares": "#).unwrap();
    for (kind, file) in [
        ("snake_climbs", "climb.json"),
        ("json", "broken.json"),
        ("io", "missing.json"),
    ] {
        let out = validate_in(
            dir.path(),
            &[
                "--no-config",
                "--warn-only",
                kind,
                "--max-mean-turns",
                "1",
                file,
            ],
        );
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{kind}: {text}");
        assert!(
            text.contains("warning") && text.contains(kind),
            "{kind}: {text}"
        );
        assert!(
            text.contains("policy_unchecked") && text.contains("the board was not built"),
            "{kind}: {text}"
        );
        assert!(
            text.ends_with("1 board checked: 0 valid, 1 invalid, 1 warning\n"),
            "{text}"
        );

        // Both kinds lowered: a pass, with both warnings shown.
        let both = format!("{kind},policy_unchecked");
        let out = validate_in(
            dir.path(),
            &[
                "--no-config",
                "--warn-only",
                &both,
                "--max-mean-turns",
                "1",
                file,
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stdout(&out));
        assert!(stdout(&out).contains("2 warnings"), "{}", stdout(&out));

        // No threshold: nothing was left unchecked.
        let out = validate_in(dir.path(), &["--no-config", "--warn-only", kind, file]);
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stdout(&out));
        assert!(
            !stdout(&out).contains("policy_unchecked"),
            "{}",
            stdout(&out)
        );
    }
}

/// The SARIF log validates against the SARIF 2.1.0 JSON schema, vendored in
/// tests/sarif-schema-2.1.0.json (the copy shipped in the `serde-sarif`
/// 0.8.0 crate, whose `$id` is the OASIS schema's).
#[test]
fn sarif_validates_against_the_schema() {
    let mut schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    // The schema's patterns for `language` have a stray `]`, which an
    // ECMAScript engine reads as a literal but the meta-schema's
    // `format: regex` check refuses. Escaping it keeps their meaning (and
    // the logs here have no `language`); the file itself is left as shipped.
    for def in ["run", "toolComponent"] {
        let language = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(
            language, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
            "{def}"
        );
        *language = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$".into();
    }
    let validator = jsonschema::options().build(&schema).unwrap();
    for args in [
        &["--format", "sarif", "tests/review"][..],
        &["--format", "sarif", "tests/invalid"],
        &["--format", "sarif", "boards"],
        &[
            "--format",
            "sarif",
            "--warn-only",
            "min_jump_use",
            "tests/review",
            "no-such.json",
        ],
    ] {
        let out = validate(args);
        let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        // A schema that accepted anything would prove nothing.
        let mut broken = log.clone();
        broken["runs"][0]["results"] = serde_json::json!([{"level": "fatal"}]);
        assert!(!validator.is_valid(&broken));
    }
}

/// Line and column of every problem kind of tests/invalid/, against the
/// place of the offending text found by searching the file (an oracle
/// independent of the JSON scanner): each row names the kind, the field and
/// the text the value starts with, which occurs once in the file.
#[test]
fn every_problem_kind_at_its_line_and_column() {
    let table: &[(&str, &str, &str)] = &[
        ("chain", "ladders[0]", "[2, 5]"),
        ("chain_cycle", "ladders[0]", "[10, 30]"),
        ("dice_count", "rules.dice.count", "0, \"faces"),
        ("dice_faces", "rules.dice.faces", "1}}}"),
        ("dice_mixed", "rules.dice", "{\"count"),
        ("dice_too_wide", "rules.dice", "{\"count"),
        ("duplicate_start", "snakes[0]", "[3, 1]"),
        ("endless_extra_rolls", "rules.extra_turn", "{\"on"),
        (
            "extra_turn_forfeit_after",
            "rules.extra_turn.forfeit_after",
            "0}",
        ),
        ("extra_turn_max_extra", "rules.extra_turn.max_extra", "-1}"),
        ("extra_turn_unrollable", "rules.extra_turn.on", "7}"),
        ("jump_end_off_board", "ladders[0]", "[5, 12]"),
        ("jump_goes_nowhere", "ladders[0]", "[5, 5]"),
        ("jump_start_off_board", "snakes[0]", "[12, 3]"),
        ("jump_starts_on_last", "snakes[0]", "[10, 1]"),
        ("jump_starts_on_start", "ladders[0]", "[0, 5]"),
        ("ladder_descends", "ladders[1]", "[8, 3]"),
        ("limit_out_of_range", "limits.min_jump_use", "1.5"),
        ("snake_climbs", "snakes[0]", "[3, 8]"),
        ("squares_out_of_range", "squares", "1}"),
        ("start_out_of_range", "rules.start", "2}"),
        ("too_large_to_check", "squares", "10000000"),
        ("too_many_jumps", "ladders", "[[1, 2]"),
        ("unwinnable", "squares", "20,"),
        ("weight_negative", "rules.dice.weights[1]", "-0.5"),
        ("weight_too_small", "rules.dice.weights[0]", "1e-200"),
        ("weights_all_zero", "rules.dice", "{\"weights"),
        ("weights_overflow", "rules.dice.weights", "[1e308"),
        ("width_out_of_range", "width", "0}"),
    ];
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/invalid"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    files.sort();
    let kinds: Vec<&str> = table.iter().map(|row| row.0).collect();
    assert_eq!(files, kinds, "one row per file of tests/invalid/");
    for &(kind, field, needle) in table {
        let rel = format!("tests/invalid/{kind}.json");
        let text = std::fs::read_to_string(root().join(&rel)).unwrap();
        assert_eq!(text.matches(needle).count(), 1, "{rel}: {needle:?}");
        let offset = text.find(needle).unwrap();
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        let out = validate(&["--format", "json", &rel]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let p = &json["problems"][0];
        assert_eq!(p["kind"], kind, "{rel}");
        assert_eq!(p["field"], field, "{rel}");
        assert_eq!(
            (p["line"].as_u64(), p["column"].as_u64()),
            (Some(line as u64), Some(column as u64)),
            "{rel}"
        );
        let first = stdout(&validate(&[&rel]))
            .lines()
            .next()
            .unwrap()
            .to_string();
        assert!(
            first.starts_with(&format!("{rel}:{line}:{column}: {kind}: ")),
            "{first}"
        );
    }
}

/// The built-in board's mean is 39.5984 turns: a policy of 30 fails it, 45
/// passes it, from the flags and from a policy file alike.
#[test]
fn the_built_in_board_under_a_policy() {
    let out = validate(&["--builtin", "--max-mean-turns", "30"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "<built-in default board>:3:14: max_mean_turns: mean game length 39.5984 turns is above max_mean_turns = 30\n\
         1 board checked: 0 valid, 1 invalid\n"
    );
    let out = validate(&["--builtin", "--max-mean-turns", "45"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));

    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, "[limits]\nmax_mean_turns = 30\n").unwrap();
    let p = policy.to_str().unwrap();
    assert_eq!(
        validate(&["--builtin", "--policy", p]).status.code(),
        Some(1)
    );
    // A flag overrides the file's key.
    let out = validate(&["--builtin", "--policy", p, "--max-mean-turns", "45"]);
    assert_eq!(out.status.code(), Some(0));
}

/// Every probability option takes a percentage as tune and generate do:
/// `2%` is the threshold `0.02`, whose message names it as such, and a
/// negative advantage keeps its sign.
#[test]
fn probability_thresholds_take_percentages() {
    for (flag, share, number) in [
        ("--max-first-seat-advantage", "2%", "0.02"),
        ("--max-first-seat-advantage", "-0.5%", "-0.005"),
        ("--min-jump-use", "5%", "0.05"),
        ("--max-shortest-game-probability", "0.1%", "0.001"),
    ] {
        let by_share = validate(&["--builtin", flag, share]);
        let by_number = validate(&["--builtin", flag, number]);
        assert_eq!(
            (by_share.status.code(), stdout(&by_share)),
            (by_number.status.code(), stdout(&by_number)),
            "{flag} {share} against {number}: {}",
            String::from_utf8_lossy(&by_share.stderr)
        );
    }
    // The built-in board's seat 1 is 1.6 points ahead: above -0.5%.
    let out = validate(&["--builtin", "--max-first-seat-advantage", "-0.5%"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("max_first_seat_advantage = -0.005 (-0.500 pp)"));
    let out = validate(&["--builtin", "--min-jump-use", "five"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'five' is not a number or a percentage")
    );
}
/// snakeladder.toml is found in the board's directory or a parent, the
/// nearest winning; an unknown key is misuse (exit 2) with its position.
#[test]
fn policy_files_are_found_like_rustfmt_finds_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(
        root().join("boards/milton-bradley.json"),
        deep.join("mb.json"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 30\n",
    )
    .unwrap();
    let out = validate_in(dir.path(), &["a"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("a/b/mb.json:3:14: max_mean_turns: "),
        "{}",
        stdout(&out)
    );
    std::fs::write(
        dir.path().join("a/snakeladder.toml"),
        "[limits]\nmax_mean_turns = 45\n",
    )
    .unwrap();
    assert_eq!(validate_in(dir.path(), &["a"]).status.code(), Some(0));

    std::fs::write(
        dir.path().join("a/snakeladder.toml"),
        "[limits]\nmax_mean_turn = 45\n",
    )
    .unwrap();
    let out = validate_in(dir.path(), &["a"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("snakeladder.toml:2:1:") && err.contains("max_mean_turn"),
        "{err}"
    );
}

/// A path that yields no board file fails (exit 1) and says so; no path at
/// all is misuse (exit 2).
#[test]
fn no_boards_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a board").unwrap();
    let out = validate_in(dir.path(), &["."]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        ".: no_boards: no board files under .\n0 boards checked: 0 valid, 0 invalid, 1 other error\n"
    );
    assert_eq!(validate(&[]).status.code(), Some(2));
}

/// A FIFO named x.json in a directory is skipped, not opened (opening it
/// would block for ever).
#[test]
fn a_fifo_in_a_directory_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("x.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    std::fs::copy(
        root().join("boards/seed-ten-squares.json"),
        dir.path().join("ok.json"),
    )
    .unwrap();
    let out = validate_in(dir.path(), &["."]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "1 board checked: 1 valid, 0 invalid\n");
}

/// A file name with a newline or an escape sequence is printed escaped: it
/// cannot forge a line of output or drive the terminal.
#[test]
fn file_names_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = "a\nb.json: forged\u{1b}[31m.json";
    std::fs::write(
        dir.path().join(name),
        r#"{"squares": 10, "snakes": [[3, 8]]}"#,
    )
    .unwrap();
    let out = validate_in(dir.path(), &["."]);
    let text = stdout(&out);
    assert_eq!(
        text,
        "./a\\nb.json: forged\\u{1b}[31m.json:1:28: snake_climbs: snakes[0] 3→8: a snake must go down\n\
         1 board checked: 0 valid, 1 invalid\n"
    );
    let out = validate_in(dir.path(), &["--format", "github", "."]);
    let first = stdout(&out).lines().next().unwrap().to_string();
    assert!(
        first.starts_with("::error file=a\\nb.json%3A forged\\u{1b}[31m.json,line=1,col=28,"),
        "{first}"
    );
    // A SARIF location names the file as it is on disk, percent-encoded,
    // or code scanning would point at no file.
    let out = validate_in(dir.path(), &["--format", "sarif", "--sarif-root", ".", "."]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "a%0Ab.json%3A%20forged%1B%5B31m.json"
    );
}

/// `validate` names every hidden character of a name, each with its
/// positions, not only the first; and a name of a megabyte of them makes a
/// message of one short line.
#[test]
fn every_hidden_character_of_a_name_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.json"),
        r#"{"squares": 10, "name": "a\u001b[31m b\u202ec\u001b\u200b"}"#,
    )
    .unwrap();
    let out = validate_in(dir.path(), &["a.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out).lines().next().unwrap(),
        "a.json:1:25: name_character: name: has 4 characters not allowed in a name: \
         U+001B (a control character) at positions 2 and 11, \
         U+202E (a bidirectional control) at position 9, \
         U+200B (an invisible character) at position 12"
    );

    let escapes = "\\u001b".repeat(200_000);
    let others: String = (0x80..0xa0).map(|c| format!("\\u{c:04x}")).collect();
    std::fs::write(
        dir.path().join("huge.json"),
        format!(r#"{{"squares": 10, "name": "{escapes}{others}"}}"#),
    )
    .unwrap();
    let out = validate_in(dir.path(), &["huge.json"]);
    let line = stdout(&out).lines().next().unwrap().to_string();
    assert!(line.len() < 600, "{} bytes: {line}", line.len());
    assert!(
        line.contains(
            "has 200032 characters not allowed in a name: U+001B (a control character) \
             at positions 1, 2, 3, 4, 5 and 199995 more, U+0080"
        ),
        "{line}"
    );
    assert!(line.ends_with(", and 25 other characters"), "{line}");
}
