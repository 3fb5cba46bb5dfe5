//! `snakeladder validate` end to end: the shipped boards pass, each invalid
//! example fails naming its problem, and `--format json` has its shape.

use crate::support::{BIN, root};
use std::path::PathBuf;
use std::process::{Command, Output};

fn validate(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("validate")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn every_shipped_board_is_valid() {
    let out = validate(&["boards/"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let count = std::fs::read_dir(root().join("boards")).unwrap().count();
    assert!(count >= 14);
    assert_eq!(
        stdout,
        format!("{count} boards checked: {count} valid, 0 invalid\n")
    );
}

#[test]
fn the_built_in_board_is_valid() {
    let out = validate(&["--builtin"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "1 board checked: 1 valid, 0 invalid\n");
}

/// `validate` without a path is misuse (exit 2), not a check of nothing.
#[test]
fn no_path_is_misuse() {
    let out = validate(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// Each file of tests/invalid/ exits 1, prints one line
/// `path:line:column: kind: problem`, and in JSON names the problem's kind,
/// which is also the file's name.
#[test]
fn each_invalid_file_fails_naming_its_problem() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/invalid"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 27);
    for file in files {
        let rel = file
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let kind = file.file_stem().unwrap().to_str().unwrap();
        let out = validate(&[&rel]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{rel}: {stdout}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{rel}: {stdout}");
        assert_eq!(lines[1], "1 board checked: 0 valid, 1 invalid");

        let out = validate(&["--format", "json", &rel]);
        assert_eq!(out.status.code(), Some(1));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["files"][0]["file"], rel.as_str());
        assert_eq!(json["files"][0]["valid"], false);
        let problem = &json["problems"][0];
        assert_eq!(problem["kind"], kind, "{rel}");
        let prefix = format!("{rel}:{}:{}: {kind}: ", problem["line"], problem["column"]);
        assert_eq!(
            problem["message"].as_str().unwrap(),
            lines[0].strip_prefix(&prefix).expect(&prefix)
        );
    }
}

/// `{"files": [{file, valid}], "problems": [{file, line, column, field,
/// kind, message, severity}], "summary": {...}}`, valid and invalid files
/// together; any invalid file makes the exit code 1.
#[test]
fn json_output_has_its_shape() {
    let out = validate(&[
        "--format",
        "json",
        "boards/seed-ten-squares.json",
        "tests/invalid/chain.json",
        "no-such-file.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = serde_json::json!({
        "schema": 1,
        "files": [
            {"file": "boards/seed-ten-squares.json", "valid": true},
            {"file": "tests/invalid/chain.json", "valid": false},
            {"file": "no-such-file.json", "valid": false},
        ],
        "problems": [{
            "file": "tests/invalid/chain.json",
            "line": 1,
            "column": 85,
            "field": "ladders[0]",
            "kind": "chain",
            "message": "ladders[0] 2→5: ends on square 5, where ladders[1] 5→8 starts (chains are forbidden)",
            "severity": "error",
        }, {
            "file": "no-such-file.json",
            "line": null,
            "column": null,
            "field": null,
            "kind": "io",
            "message": "cannot read: No such file or directory (os error 2)",
            "severity": "error",
        }],
        "summary": {
            "files": 3,
            "valid": 1,
            "invalid": 2,
            "errors": 2,
            "warnings": 0,
            "by_kind": {"chain": 1, "io": 1},
        },
    });
    assert_eq!(json, expected);
}

/// Every problem of a file, one line each, then the summary.
#[test]
fn text_output_lists_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.json");
    std::fs::write(
        &path,
        r#"{"squares": 10, "ladders": [[5, 3]], "snakes": [[4, 8]]}"#,
    )
    .unwrap();
    let out = validate(&[path.to_str().unwrap()]);
    let p = path.display();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{p}:1:29: ladder_descends: ladders[0] 5→3: a ladder must go up\n\
             {p}:1:49: snake_climbs: snakes[0] 4→8: a snake must go down\n\
             1 board checked: 0 valid, 1 invalid\n"
        )
    );
}

/// Garbage bytes, an empty file and a 50 MB file: a clear error, no panic.
#[test]
fn garbage_empty_and_fifty_megabytes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "garbage.json",
            vec![0xde, 0xad, 0xbe, 0xef, 0x00, 0xff],
            "1:1: json: expected value",
        ),
        (
            "empty.json",
            Vec::new(),
            "1:1: json: EOF while parsing a value",
        ),
        (
            "big.json",
            vec![b'x'; 50 * 1024 * 1024],
            "1:1: json: expected value",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = validate(&[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(out.stderr.is_empty(), "{name}");
        let first = text(&out.stdout).lines().next().unwrap().to_string();
        assert_eq!(first, format!("{}:{message}", path.display()));
    }
}
