//! The design commands end to end (issue 16): `tune`, `generate
//! --target-turns` and `analyze --sensitivity`, driven through the real
//! binary, their answers re-checked by `analyze`, `validate` and `check`.
//! The text people read is snapshot-tested (`insta`; see `snapshots.rs` for
//! how to accept an intended change).

use crate::support::{bin, run};
use std::path::{Path, PathBuf};
use std::process::Output;

#[track_caller]
fn run_threads(threads: usize, args: &[&str]) -> Output {
    bin()
        .env("RAYON_NUM_THREADS", threads.to_string())
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn board(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("boards")
        .join(name)
        .display()
        .to_string()
}

/// The exact analysis of a board file, as JSON.
#[track_caller]
fn analysis(path: &Path) -> serde_json::Value {
    let out = run(&[
        "analyze",
        "--format",
        "json",
        "--players",
        "2",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn mean(a: &serde_json::Value) -> f64 {
    a["turns"]["mean"].as_f64().unwrap()
}

fn advantage(a: &serde_json::Value) -> f64 {
    let w = &a["players"][0]["win_probability"];
    w[0].as_f64().unwrap() - w[1].as_f64().unwrap()
}

/// The report without its timing line (the only figure that varies).
fn without_timing(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("Evaluated "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn tune_brings_the_classic_board_into_30_to_32() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("tuned.json");
    let mb = board("milton-bradley.json");
    let args = [
        "tune",
        &mb,
        "--target-turns",
        "30:32",
        "--max-changes",
        "3",
        "-o",
        out_path.to_str().unwrap(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("Evaluated "), "{report}");
    // Re-analysed from the file written, the mean is in the band.
    let tuned = analysis(&out_path);
    assert!((30.0..=32.0).contains(&mean(&tuned)), "{}", mean(&tuned));
    assert_eq!(tuned["board"]["snakes"], 10);
    assert_eq!(tuned["board"]["ladders"], 9);
    // The report lists each change once and as a diff.
    let listed = report.lines().filter(|l| l.contains(" becomes ")).count();
    assert!((1..=3).contains(&listed), "{report}");
    assert_eq!(
        report.lines().filter(|l| l.starts_with('+')).count(),
        listed + 1
    );
    insta::assert_snapshot!(
        "design-tune-milton-bradley-30-32",
        &without_timing(&report)
            .replace(&mb, "milton-bradley.json")
            .replace(out_path.to_str().unwrap(), "tuned.json"),
    );
}

#[test]
fn tune_fails_clearly_out_of_reach() {
    let mb = board("milton-bradley.json");
    let out = run(&[
        "tune",
        &mb,
        "--target-turns",
        "100:110",
        "--max-changes",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "error: no set of at most 1 jump move reaches a mean of 100–110 turns: the closest found has a mean of "
        ),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// The counts of the text and the JSON agree: the boards evaluated, with
/// the placements of the first level it ruled out apart (their sum is that
/// level, every placement of every jump of the classic board).
#[test]
fn tune_reports_the_boards_it_evaluated_and_those_it_ruled_out() {
    let mb = board("milton-bradley.json");
    let args = [
        "tune",
        &mb,
        "--target-turns",
        "33.66:34.45",
        "--max-changes",
        "1",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let json = run(&[&args[..], &["--format", "json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let evaluated = json["evaluated"].as_u64().unwrap();
    let ruled_out = json["ruled_out"].as_u64().unwrap();
    assert!(evaluated > 0 && ruled_out > evaluated, "{json}");
    let line = report
        .lines()
        .find(|l| l.starts_with("Evaluated "))
        .unwrap();
    assert!(
        line.starts_with(&format!("Evaluated {evaluated} candidate boards in ")),
        "{line}"
    );
    assert!(
        line.ends_with(&format!(
            ", and ruled out {ruled_out} more without evaluating them: each moves more squares than the answer."
        )),
        "{line}"
    );
    // The rate is of the boards evaluated, over the seconds printed (to
    // the millisecond), with an SI prefix and one decimal (`66.4 k
    // boards/s`): within half its last digit of n / seconds.
    let figure = |after: &str| -> f64 {
        let rest = line.split(after).nth(1).unwrap();
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    let seconds = figure(" in ");
    let rest = line.split(" s (").nth(1).unwrap();
    let words: Vec<&str> = rest.split(' ').collect();
    let scale = match words[1] {
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        _ => 1.0,
    };
    let rate = words[0].parse::<f64>().unwrap() * scale;
    let digit = 0.05 * scale;
    let n = evaluated as f64;
    assert!(rate <= n / (seconds - 0.0005).max(1e-9) + digit, "{line}");
    assert!(rate >= n / (seconds + 0.0005) - digit, "{line}");
}

#[test]
fn tune_is_the_same_on_any_number_of_threads() {
    let mb = board("milton-bradley.json");
    let args = [
        "tune",
        &mb,
        "--target-turns",
        "44:45",
        "--max-changes",
        "2",
        "--seed",
        "7",
        "-o",
        "-",
    ];
    let one = run_threads(1, &args);
    let two = run_threads(2, &args);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        without_timing(&text(&one.stderr)),
        without_timing(&text(&two.stderr))
    );
}

#[test]
fn tune_keeps_what_it_is_told_to_keep() {
    let mb = board("milton-bradley.json");
    let free = run(&["tune", &mb, "--target-turns", "30:32", "--max-changes", "1"]);
    assert_eq!(free.status.code(), Some(0));
    // The free answer moves the ladder 28→84; kept, another is found.
    assert!(
        text(&free.stdout).contains("ladder 28→84"),
        "{}",
        text(&free.stdout)
    );
    let kept = run(&[
        "tune",
        &mb,
        "--target-turns",
        "30:32",
        "--keep",
        "28→84,48->26",
    ]);
    assert_eq!(kept.status.code(), Some(0), "{}", text(&kept.stderr));
    let report = text(&kept.stdout);
    assert!(
        report.contains(" becomes ")
            && !report.contains("ladder 28→84 ")
            && !report.contains("snake 48→26 "),
        "{report}"
    );
    let missing = run(&["tune", &mb, "--target-turns", "30:32", "--keep", "47→26"]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        text(&missing.stderr),
        "error: keep: the board has no jump 47→26\n"
    );
}

#[test]
fn bad_targets_are_misuse() {
    for (args, says) in [
        (&["tune", "--target-turns", "32:30"][..], "need 1 ≤ A ≤ B"),
        (
            &["tune", "--target-turns", "thirty"][..],
            "is not a band A:B",
        ),
        (
            &[
                "tune",
                "--target-turns",
                "30:32",
                "--max-first-seat-advantage",
                "150%",
            ][..],
            "is not between 0 and 1",
        ),
        (
            &[
                "generate",
                "--squares",
                "100",
                "--max-first-seat-advantage",
                "0.02",
            ][..],
            "--target-turns",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// Generates into a band and checks the board: valid, its exact mean in the
/// band, and the simulator agreeing with the exact figures.
#[track_caller]
fn generated(dir: &Path, band: &str, seed: u64, extra: &[&str]) -> PathBuf {
    let path = dir.join(format!("{}-{seed}.json", band.replace(':', "-")));
    let seed = seed.to_string();
    let mut args = vec![
        "generate",
        "--squares",
        "100",
        "--target-turns",
        band,
        "--seed",
        &seed,
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["-o", path.to_str().unwrap()]);
    let out = run(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{band} {seed}: {}",
        text(&out.stderr)
    );
    assert!(text(&out.stderr).starts_with("generated: mean "));
    let validate = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}",
        text(&validate.stdout)
    );
    path
}

#[test]
fn generate_hits_three_bands_for_five_seeds_and_the_boards_check_out() {
    let dir = tempfile::tempdir().unwrap();
    for (band, lo, hi) in [
        ("15:20", 15.0, 20.0),
        ("30:35", 30.0, 35.0),
        ("60:70", 60.0, 70.0),
    ] {
        for seed in 1..=5 {
            let path = generated(dir.path(), band, seed, &[]);
            let a = analysis(&path);
            assert!(
                (lo..=hi).contains(&mean(&a)),
                "{band} seed {seed}: {}",
                mean(&a)
            );
            assert_eq!(a["board"]["snakes"], 10);
            assert_eq!(a["board"]["ladders"], 10);
            let check = run(&[
                "check",
                path.to_str().unwrap(),
                "--games",
                "200000",
                "--seed",
                "1",
            ]);
            assert_eq!(
                check.status.code(),
                Some(0),
                "{band} seed {seed}: {}",
                text(&check.stdout)
            );
        }
    }
}

#[test]
fn generate_respects_the_counts_rules_and_advantage_cap() {
    let dir = tempfile::tempdir().unwrap();
    let rules = board("variant-bounce.json");
    let path = generated(
        dir.path(),
        "40:42",
        9,
        &[
            "--snakes",
            "6",
            "--ladders",
            "4",
            "--rules",
            &rules,
            "--max-first-seat-advantage",
            "1.4%",
        ],
    );
    let a = analysis(&path);
    assert!((40.0..=42.0).contains(&mean(&a)));
    assert!(advantage(&a) <= 0.014, "{}", advantage(&a));
    assert_eq!(
        (
            a["board"]["snakes"].as_u64(),
            a["board"]["ladders"].as_u64()
        ),
        (Some(6), Some(4))
    );
    assert_eq!(a["rules"]["overshoot"], "bounce");
}

#[test]
fn generate_is_the_same_on_any_number_of_threads() {
    let args = [
        "generate",
        "--squares",
        "100",
        "--target-turns",
        "33:33.5",
        "--seed",
        "11",
    ];
    let one = run_threads(1, &args);
    let two = run_threads(2, &args);
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn generate_says_what_it_reached_when_the_band_is_out_of_reach() {
    let out = run(&[
        "generate",
        "--squares",
        "100",
        "--snakes",
        "0",
        "--ladders",
        "10",
        "--target-turns",
        "80:90",
    ]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: no board with a mean of 80–90 turns found in 64 random starts: the closest reached a mean of 3"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_unreadable_rules_file_is_named() {
    let out = run(&[
        "generate",
        "--squares",
        "100",
        "--target-turns",
        "30:35",
        "--rules",
        "no/such.json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no/such.json"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn sensitivity_in_text_and_json() {
    let out = run(&["analyze", "--sensitivity"]);
    assert_eq!(out.status.code(), Some(0));
    let report = text(&out.stdout);
    let section = &report[report.find("Sensitivity:").expect("a sensitivity section")..];
    insta::assert_snapshot!("design-sensitivity-builtin", section);

    let out = run(&[
        "analyze",
        "--sensitivity",
        "--format",
        "json",
        "--players",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &json["sensitivity"];
    // Without 2 players, no advantage is computed: the key is there, null.
    assert_eq!(
        s.get("first_seat_advantage"),
        Some(&serde_json::Value::Null)
    );
    let variants = s["variants"].as_array().unwrap();
    assert_eq!(
        variants.len() as u64 + s["invalid"].as_u64().unwrap(),
        19 * 13
    );
    assert_eq!(variants[0]["edit"], "removed");
    assert_eq!(variants[0]["method"], "rank-one");
    assert_eq!(variants[0]["change"]["before"]["from"], 80);
    assert!(variants[0]["change"]["after"].is_null());
    // The analysis itself is unchanged.
    assert_eq!(json["turns"]["median"], 33);
}

/// `tune --time-limit` stops a search on a board below the size where each
/// candidate is charged as it goes: there most candidates are updates, but
/// on this board many are fresh solves, and the search ran about 20 s past
/// a limit of 1 s before the limit was read between candidates. The run
/// says how long it ran; a few times the limit allows for a loaded machine.
#[test]
fn tune_stops_at_its_time_limit_on_a_board_of_fresh_solves() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.json");
    let board = board.to_str().unwrap();
    let made = run(&[
        "generate",
        "--squares",
        "600",
        "--snakes",
        "50",
        "--ladders",
        "50",
        "--seed",
        "7",
        "-o",
        board,
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let out = run(&[
        "tune",
        board,
        "--target-turns",
        "20:21",
        "--max-changes",
        "2",
        "--time-limit",
        "1",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let ran: f64 = stderr
        .split("it has run ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(ran < 5.0, "{stderr}");
}
