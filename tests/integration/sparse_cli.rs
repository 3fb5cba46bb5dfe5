//! `generate` and the limits of `analyze`, through the real binary.

use crate::support::run;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn generate_writes_the_same_valid_board_for_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    let path = path.to_str().unwrap();
    let args = [
        "generate",
        "--squares",
        "3000",
        "--snakes",
        "50",
        "--ladders",
        "40",
        "--seed",
        "5",
    ];
    let out = run(&[&args[..], &["-o", path]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read(path).unwrap();
    // Standard output gets the same bytes.
    let again = run(&args);
    assert_eq!(again.stdout, written);
    let spec: serde_json::Value = serde_json::from_slice(&written).unwrap();
    assert_eq!(spec["snakes"].as_array().unwrap().len(), 50);
    assert_eq!(spec["ladders"].as_array().unwrap().len(), 40);
    let valid = run(&["validate", path]);
    assert!(valid.status.success(), "{}", text(&valid.stdout));
    // No temporary file is left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn generate_refuses_more_jumps_than_fit() {
    let out = run(&[
        "generate",
        "--squares",
        "30",
        "--snakes",
        "10",
        "--ladders",
        "19",
    ]);
    // 29 jumps: every square of 1..29 would start one, and a snake needs a
    // square below it that starts none (docs/generate.md §1).
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("do not fit"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn analyze_refuses_past_max_memory_with_the_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.json");
    let path = path.to_str().unwrap();
    let gen_args = [
        "generate",
        "--squares",
        "5000",
        "--snakes",
        "100",
        "--ladders",
        "100",
        "-o",
        path,
    ];
    assert!(run(&gen_args).status.success());
    let out = run(&["analyze", path, "--max-memory", "1M"]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains("over the limit of 1.0 MiB") && err.contains("would need about"),
        "{err}"
    );
    let bad = run(&["analyze", path, "--max-memory", "lots"]);
    assert_eq!(bad.status.code(), Some(2));
    // Past the work limit, optional figures are skipped with a note.
    let out = run(&["analyze", path, "--max-work", "1000"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("note: skipped the length distribution"),
        "{stdout}"
    );
    // The quantiles' footnote says where they went, not "a tail of 1".
    assert!(
        stdout.contains("from the length distribution, which was skipped")
            && !stdout.contains("distribution to a tail of"),
        "{stdout}"
    );
    let json = run(&["analyze", path, "--max-work", "1000", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["solver"], "sparse");
    assert_eq!(v["skipped"][0]["figure"], "distribution");
    assert_eq!(v["skipped"][0]["reason"], "work");
    assert_eq!(v["skipped"][0]["limit"], 1000.0);
    assert_eq!(v["skipped"][0]["flag"], "--max-work");
    assert!(v["skipped"][0]["estimate"].as_f64().unwrap() > 1000.0);
    // Non-finite and absurd limits are refused, not wrapped to 0.
    for value in ["inf", "nan", "1e30", "-5"] {
        let bad = run(&["analyze", path, &format!("--max-work={value}")]);
        assert_eq!(bad.status.code(), Some(2), "--max-work {value}");
        assert!(text(&bad.stderr).contains("from 0 to 1e18"), "{value}");
    }
}
