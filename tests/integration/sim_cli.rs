//! The `simulate` and `check` commands, driven as a user runs them.

use std::process::{Command, Output};

fn snakeladder(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(args)
        .output()
        .expect("the binary runs")
}

#[track_caller]
fn json(args: &[&str]) -> serde_json::Value {
    let out = snakeladder(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn simulate_json_reports_every_figure_with_its_error_and_seed() {
    let v = json(&[
        "simulate",
        "--games",
        "20000",
        "--seed",
        "7",
        "--players",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(v["games"], 20000);
    assert_eq!(v["seed"], 7);
    assert_eq!(v["tokens"], 60000);
    for figure in ["turns", "rolls"] {
        assert!(v[figure]["mean"].as_f64().unwrap() > 7.0, "{figure}");
        assert!(v[figure]["std_error"].as_f64().unwrap() > 0.0, "{figure}");
    }
    let jumps = v["jumps"].as_array().unwrap();
    assert_eq!(jumps.len(), 19);
    assert_eq!(
        (&jumps[0]["from"], &jumps[0]["to"]),
        (&1.into(), &38.into())
    );
    for key in [
        "expected_uses",
        "expected_uses_std_error",
        "use_probability",
        "use_probability_std_error",
    ] {
        assert!(jumps[0][key].is_number(), "{key}");
    }
    let players = &v["players"][0];
    assert_eq!(players["count"], 3);
    let p: f64 = players["win_probability"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-12, "seat shares sum to 1, got {p}");
    assert_eq!(
        players["win_probability_std_error"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Squares are the rest squares: 101 minus the 19 jump starts.
    assert_eq!(v["squares"].as_array().unwrap().len(), 101 - 19);
}

#[test]
fn simulate_output_does_not_depend_on_threads() {
    let args = |t: &'static str| {
        [
            "simulate",
            "--games",
            "140000",
            "--seed",
            "3",
            "--format",
            "json",
            "--threads",
            t,
        ]
    };
    assert_eq!(json(&args("1")), json(&args("2")));
}

#[test]
fn simulate_text_names_the_board_and_the_error() {
    let out = snakeladder(&["simulate", "--games", "5000", "--seed", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Milton Bradley Chutes and Ladders: 5000 games"),
        "{text}"
    );
    assert!(text.contains("turns        mean "), "{text}");
    assert!(text.contains("(s.e.)"), "{text}");
}

#[test]
fn simulate_misuse_exits_2_and_bad_boards_exit_1() {
    for args in [
        &["simulate", "--games", "0"][..],
        &["simulate", "--players", "0"],
        &["simulate", "--players", "1001"],
        &["simulate", "--threads", "0"],
        &["simulate", "--games", "many"],
        &["simulate", "--format", "xml"],
    ] {
        assert_eq!(snakeladder(args).status.code(), Some(2), "{args:?}");
    }
    let out = snakeladder(&["simulate", "/no/such/board.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/board.json"));
}

#[test]
fn check_agrees_on_the_default_board_and_prints_each_comparison() {
    let out = snakeladder(&["check", "--games", "100000", "--seed", "4"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("distribution of turns"), "{text}");
    assert!(text.contains("mean turns"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("agree: all "),
        "{text}"
    );
}

#[test]
fn check_json_has_statistic_threshold_and_verdict() {
    let v = json(&[
        "check",
        "--games",
        "100000",
        "--seed",
        "4",
        "--players",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(v["passed"], true);
    assert_eq!(v["family_error_rate"], 1e-4);
    let comparisons = v["comparisons"].as_array().unwrap();
    let n = comparisons.len() as f64;
    assert!((v["comparison_error_rate"].as_f64().unwrap() - 1e-4 / n).abs() < 1e-18);
    for c in comparisons {
        assert!(c["statistic"].as_f64().unwrap() <= c["threshold"].as_f64().unwrap());
        assert_eq!(c["agrees"], true);
    }
    assert!(
        comparisons
            .iter()
            .any(|c| c["name"] == "seat 2: win probability")
    );
}

#[test]
fn check_misuse_exits_2() {
    for args in [
        &["check", "--games", "0"][..],
        &["check", "--seed", "-1"],
        &["check", "--players", "0"],
    ] {
        assert_eq!(snakeladder(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn simulate_refuses_a_board_too_large_for_its_table_with_exit_3() {
    // 1,000,000 squares × 6 rolls is more entries than MAX_TABLE_ENTRIES.
    let dir = std::env::temp_dir().join(format!("sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.json");
    std::fs::write(
        &path,
        r#"{"squares": 1000000, "rules": {"overshoot": "win"}}"#,
    )
    .unwrap();
    let out = snakeladder(&["simulate", "--games", "10", path.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("move table") && err.contains("entries"),
        "{err}"
    );
}
