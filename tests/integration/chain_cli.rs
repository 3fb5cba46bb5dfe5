//! `snakeladder chain` as a user runs it: the worked examples of
//! docs/chains-any.md, every problem of a bad file at once, exit codes,
//! infinite expectations in words and as `null`, and the output's schema.

use crate::support::{root, run, run_in};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Gambler's ruin from 4 of 10 at p = 2/5: (1 − 1.5⁴)/(1 − 1.5¹⁰) =
/// 832/11605, worked in docs/chains-any.md; the steps are infinite, and
/// why is said.
#[test]
fn gamblers_ruin_is_answered_exactly_with_infinite_steps() {
    let v = json(&[
        "chain",
        "docs/chains/ruin.tra",
        "--labels",
        "docs/chains/ruin.lab",
        "--target",
        "rich",
        "--exact",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"]["reach_probability"], "832/11605");
    let p = v["reach_probability"].as_f64().unwrap();
    let bound = v["reach_probability_error_bound"].as_f64().unwrap();
    assert!((p - 832.0 / 11605.0).abs() <= bound, "{p} ± {bound}");
    assert!(v["expected_steps"].is_null());
    assert!(v["exact"]["expected_steps"].is_null());
    let why = v["expected_steps_infinite_because"].as_str().unwrap();
    assert!(why.contains("never reaches it: 0"), "{why}");
}

/// Hi Ho! Cherry-O for one player: 494813746/31313403 ≈ 15.80 spins,
/// the figure usually quoted for the game.
#[test]
fn cherry_o_takes_fifteen_point_eight_spins() {
    let v = json(&[
        "chain",
        "docs/chains/cherry-o.tra",
        "--labels",
        "docs/chains/cherry-o.lab",
        "--target",
        "win",
        "--exact",
        "--format",
        "json",
    ]);
    assert_eq!(v["exact"]["expected_steps"], "494813746/31313403");
    let mean = v["expected_steps"].as_f64().unwrap();
    assert!(
        (mean - 494813746.0 / 31313403.0).abs()
            <= v["expected_steps_error_bound"].as_f64().unwrap()
    );
    assert_eq!(v["distribution"]["median"], 12);
}

/// A file with several problems names each, with its line, in one run,
/// and exits 1; a missing file is named too.
#[test]
fn every_problem_of_a_bad_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.tra"),
        "3 5\n0 1 0.5\n0 2 0.4\n1 7 1\n2 2 -1\n2 2 1\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["chain", "bad.tra"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in ["bad.tra:2:", "bad.tra:4:", "bad.tra:5:", "bad.tra:6:"] {
        assert!(err.contains(needle), "{needle} missing from {err}");
    }
    let out = run_in(dir.path(), &["chain", "missing.tra"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.tra"));
}

/// Labels without a labels file, or with a JSON chain, are misuse (exit 2).
#[test]
fn labels_need_a_labels_file() {
    let out = run(&["chain", "docs/chains/ruin.tra", "--target", "rich"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["chain", "x.json", "--labels", "x.lab"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A limit refuses before the work, with exit 3; fractions of a chain
/// given in floats are refused with the reason, exit 1.
#[test]
fn limits_and_inexact_chains_are_refused() {
    let out = run(&["chain", "docs/chains/cherry-o.tra", "--max-work", "10"]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("float.json"),
        r#"{"states": 2, "transitions": [[0, 1, 0.5], [0, 0, 0.5], [1, 1, 1]], "initial": 0, "target": [1]}"#,
    )
    .unwrap();
    let out = run_in(dir.path(), &["chain", "float.json", "--exact"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("float"));
    let out = run_in(dir.path(), &["chain", "float.json", "--max-memory", "10"]);
    assert_eq!(out.status.code(), Some(3));
}

/// The JSON output matches `schema chain`, finite and infinite alike.
#[test]
fn chain_json_matches_its_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/schema/chain.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    for args in [
        vec![
            "chain",
            "docs/chains/ruin.tra",
            "--labels",
            "docs/chains/ruin.lab",
            "--target",
            "rich",
            "--exact",
            "--format",
            "json",
        ],
        vec!["chain", "docs/chains/cherry-o.tra", "--format", "json"],
    ] {
        let v = json(&args);
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{args:?}: {errors:?}");
    }
}
