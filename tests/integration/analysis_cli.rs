//! The `analyze` command, driven through the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .arg("analyze")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

#[test]
fn default_board_text_summary() {
    let out = run(&[], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Milton Bradley"));
    assert!(text.contains("fingerprint "));
    assert!(text.contains("mean 39.5984"));
    assert!(text.contains("median 33"));
    assert!(text.contains("50.780%"));
}

#[test]
fn json_has_the_issue_shape() {
    let out = run(&["--format", "json", "--players", "2,3,8", "--exact"], None);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["board"]["squares"], 100);
    assert_eq!(v["board"]["snakes"], 10);
    assert_eq!(v["board"]["ladders"], 9);
    assert_eq!(v["rules"]["overshoot"], "stay");
    assert_eq!(v["turns"]["median"], 33);
    assert_eq!(v["turns"]["mode"], 22);
    assert_eq!(v["turns"]["min"], 7);
    let pmf = v["turns"]["pmf"].as_array().unwrap();
    assert_eq!(pmf.len(), v["turns"]["cdf"].as_array().unwrap().len());
    assert!(v["turns"]["tail"].as_f64().unwrap() < 1e-12);
    assert_eq!(v["jumps"][0]["kind"], "ladder");
    assert_eq!(v["jumps"][0]["from"], 1);
    assert!(v["squares"][0]["expected_rests"].is_number());
    let counts: Vec<u64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, vec![2, 3, 8]);
    assert_eq!(
        v["players"][2]["win_probability"].as_array().unwrap().len(),
        8
    );
    let fraction = v["exact"]["mean_turns"].as_str().unwrap();
    assert!(fraction.contains('/'));
}

#[test]
fn board_from_stdin_and_its_errors() {
    let out = run(
        &["-"],
        Some(r#"{"squares": 3, "rules": {"dice": {"faces": 2}}}"#),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("mean 3.0000")
    );
    // An invalid board: exit 1 with the problem named.
    let bad = run(&["-"], Some(r#"{"squares": 10, "ladders": [[5, 3]]}"#));
    assert_eq!(bad.status.code(), Some(1));
    assert!(!bad.stderr.is_empty());
    // Misuse: zero players is refused by the argument parser.
    let misuse = run(&["--players", "0"], None);
    assert_eq!(misuse.status.code(), Some(2));
}

/// An analysis that cannot be done on a valid board is exit 3 (a limit of
/// the tool, not an invalid board), and its one line names the file: here
/// exact mode meets a square the f64 chain left out (reached only by two
/// 1s of chance 1e-200 in one turn). The plain analysis answers, warning
/// that its mean is uncertain, with exit 0.
#[test]
fn an_analysis_failure_is_exit_3_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rare.json");
    std::fs::write(
        &path,
        r#"{"squares": 10, "rules": {"dice": {"weights": [1e-200, 0, 1]}, "extra_turn": {"on": 1}}}"#,
    )
    .unwrap();
    let board = path.to_str().unwrap();
    let out = run(&["--exact", board], None);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "error: {board}: a turn from square 0 can end on square 5 only with a chance below 2.2e-308"
        )),
        "{stderr}"
    );
    let out = run(&[board], None);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("warning: the floating-point mean could be off"),
        "{text}"
    );
}

/// Figures past 1e12 are written in scientific notation in the text and
/// the Markdown report: a mean of 1.7e19 turns printed as twenty digits
/// (and a jump's uses as "2369190669160803328.0000") showed f64 noise as if
/// it were exact. The board: 148 squares, a snake to 1 on every square but
/// 1 + 6j (issue 13's family at k = 24).
#[test]
fn huge_figures_are_written_in_scientific_notation() {
    let n = 6 * 24 + 4;
    let snakes: Vec<String> = (2..n)
        .filter(|s| (s - 1) % 6 != 0)
        .map(|s| format!("[{s}, 1]"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("family.json");
    std::fs::write(
        &path,
        format!(r#"{{"squares": {n}, "snakes": [{}]}}"#, snakes.join(", ")),
    )
    .unwrap();
    let board = path.to_str().unwrap();
    let out = run(&[board], None);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("mean 1.7058e19"), "{text}");
    assert!(text.contains("snake 2→1             2.3692e18"), "{text}");
    let report = dir.path().join("family.md");
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(["report", "-o"])
        .arg(&report)
        .arg(board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let markdown = std::fs::read_to_string(&report).unwrap();
    assert!(markdown.contains("| mean | 1.7058e19 |"), "{markdown}");
    // Its float mean is right to a few ulps and trusted (no warning); the
    // report still carries the analysis's warnings, as on a board whose
    // variance cannot be bounded (a face of chance 1e-200).
    assert!(!markdown.contains("Less exact"), "{markdown}");
    let rare = dir.path().join("rare.json");
    std::fs::write(
        &rare,
        r#"{"squares": 10, "rules": {"dice": {"weights": [1e-200, 0, 1]}, "extra_turn": {"on": 1}}}"#,
    )
    .unwrap();
    let rare_report = dir.path().join("rare.md");
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(["report", "-o"])
        .arg(&rare_report)
        .arg(&rare)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let rare_markdown = std::fs::read_to_string(&rare_report).unwrap();
    assert!(
        rare_markdown.contains("> **Less exact than the rest of this report:**")
            && rare_markdown.contains("the floating-point variance could be off"),
        "{rare_markdown}"
    );
    // The same board through the design tools and diff: the sensitivity
    // table, tune's and generate's means and diff's table once printed
    // 1.7e19 as twenty digits and four decimals.
    let sensitivity = run(&["--sensitivity", "--players", "1", board], None);
    assert_eq!(sensitivity.status.code(), Some(0), "{sensitivity:?}");
    let sensitivity = String::from_utf8(sensitivity.stdout).unwrap();
    assert!(
        sensitivity.contains("2.8430e19 +1.1372e19"),
        "{sensitivity}"
    );
    let fewer = dir.path().join("fewer.json");
    std::fs::write(
        &fewer,
        format!(
            r#"{{"squares": {n}, "snakes": [{}]}}"#,
            snakes[1..].join(", ")
        ),
    )
    .unwrap();
    let diff = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .arg("diff")
        .arg(&path)
        .arg(&fewer)
        .output()
        .unwrap();
    assert_eq!(diff.status.code(), Some(0), "{diff:?}");
    let diff = String::from_utf8(diff.stdout).unwrap();
    assert!(diff.contains("1.7058e19"), "{diff}");
    // No run of 13 or more digits anywhere but the exact fraction.
    for t in [&text, &markdown, &sensitivity, &diff] {
        for line in t
            .lines()
            .filter(|l| !l.contains("exact mean") && !l.contains("Exact mean"))
        {
            let longest = line
                .split(|c: char| !c.is_ascii_digit())
                .map(str::len)
                .max()
                .unwrap_or(0);
            assert!(longest < 13, "{line}");
        }
    }
}

/// A board of long games (mean 5,000–10,000 turns) computes its length
/// distribution on one core and its per-square and per-jump figures on
/// another: the JSON must be the same, byte for byte, on one thread.
#[test]
fn two_cores_give_the_same_digits_as_one() {
    use snakeladder::Seed;
    use snakeladder::design::Layout;
    let board = Layout::new(130, 35, 2, Seed::new(6)).generate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.json");
    std::fs::write(&path, serde_json::to_string(&board.spec()).unwrap()).unwrap();
    let json = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
            .args(["analyze", "--format", "json"])
            .arg(&path)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        out.stdout
    };
    let one = json("1");
    let value: serde_json::Value = serde_json::from_slice(&one).unwrap();
    let mean = value["turns"]["mean"].as_f64().unwrap();
    assert!((5_000.0..10_000.0).contains(&mean), "mean {mean}");
    assert!(value["players"].as_array().unwrap().len() == 5);
    assert!(one == json("2"), "the JSON differs between 1 and 2 threads");
}

/// The JSON of every board in boards/ is the same in every process: no
/// figure may depend on a per-process random seed (the shortest game's
/// probability once did, through the standard hash map's order).
#[test]
fn the_same_board_gives_the_same_digits_in_every_process() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("boards");
    let mut boards: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    boards.sort();
    for board in boards {
        let board = board.to_str().unwrap();
        let first = run(&["--format", "json", board], None);
        assert_eq!(first.status.code(), Some(0), "{board}");
        for _ in 0..5 {
            let again = run(&["--format", "json", board], None);
            assert!(again.stdout == first.stdout, "{board} differs between runs");
        }
    }
}
