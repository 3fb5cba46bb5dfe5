//! Hardening III (issue 27): no user string reaches git as an option or an
//! output stream unescaped, every limit flag is parsed by one parser, every
//! file goes through one capped reader, and the silent-wrong answers of the
//! last round's commands are gone. Each test here failed before its fix.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::{BIN, run_in};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A hostile string: a newline followed by a GitHub workflow command, and
/// a terminal escape sequence.
const HOSTILE: &str = "x\n::error::forged\u{1b}[31m";

/// No line of `out` starts a workflow command that was not the tool's, and
/// no ESC byte reaches it.
#[track_caller]
fn no_forgery(what: &str, out: &str) {
    assert!(
        !out.contains('\u{1b}'),
        "{what}: ESC reached the output:\n{out}"
    );
    for line in out.lines() {
        assert!(
            !line.starts_with("::error::forged"),
            "{what}: a forged workflow command:\n{out}"
        );
    }
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@e")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@e")
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

/// `diff '--output=victim.txt:a.json' a.json` in a repository wrote the
/// file `victim.txt:a.json` through `git show --output`; a revision never
/// starts with `-` now, and nothing is written.
#[test]
fn diff_never_passes_a_revision_to_git_as_an_option() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    std::fs::write(
        dir.path().join("a.json"),
        r#"{"squares": 20, "ladders": [[2, 9]]}"#,
    )
    .unwrap();
    git(dir.path(), &["add", "a.json"]);
    git(dir.path(), &["commit", "-qm", "a"]);
    for evil in [
        "--output=victim.txt:a.json",
        "--pretty=format:{}:a.json",
        "-p:a.json",
    ] {
        let o = run_in(dir.path(), &["diff", "--", evil, "a.json"]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{evil}: {err}");
        assert!(err.contains("never starts with `-`"), "{evil}: {err}");
    }
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".git" && n != "a.json")
        .collect();
    assert!(left.is_empty(), "files written: {left:?}");
    // A revision still reads, from the root or relative to the directory.
    let o = run_in(dir.path(), &["diff", "HEAD:a.json", "a.json"]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let o = run_in(dir.path(), &["diff", "HEAD:./a.json", "HEAD:a.json"]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
}

/// A blob past the board file cap is refused from its size, before it is
/// read (the size is asked of git first).
#[test]
fn diff_refuses_a_large_blob_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q"]);
    let big = dir.path().join("big.json");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(snakeladder::Board::MAX_FILE_BYTES + 1)
        .unwrap();
    git(dir.path(), &["add", "big.json"]);
    git(dir.path(), &["commit", "-qm", "big"]);
    std::fs::remove_file(&big).unwrap();
    std::fs::write(dir.path().join("a.json"), r#"{"squares": 20}"#).unwrap();
    let o = run_in(dir.path(), &["diff", "HEAD:big.json", "a.json"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("more than the"), "{err}");
}

/// Every command, given a file whose name and whose JSON key hold a
/// newline, a workflow command and an ESC sequence, prints them escaped on
/// both streams.
#[test]
fn no_command_prints_user_text_raw() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("b{HOSTILE}.json");
    let board = dir.path().join(&name);
    std::fs::write(&board, format!(r#"{{"squares": 20, "{HOSTILE}": 1}}"#)).unwrap();
    let good = dir.path().join("good.json");
    std::fs::write(&good, r#"{"squares": 20, "ladders": [[2, 9]]}"#).unwrap();
    let good = good.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["analyze", &name],
        vec!["simulate", "--games", "10", &name],
        vec!["check", "--games", "10", &name],
        vec!["report", &name],
        vec!["play", "--players", "A,B", &name],
        vec!["validate", &name],
        vec!["validate", "--format", "github", &name],
        vec!["diff", &name, good],
        vec!["diff", good, &name],
        vec!["tune", "--target-turns", "5:6", &name],
        vec![
            "generate",
            "--squares",
            "20",
            "--rules",
            &name,
            "--seed",
            "1",
        ],
        vec!["analyze", "--format", HOSTILE, good],
        vec!["analyze", "--max-work", HOSTILE, good],
        vec!["schema", HOSTILE],
    ];
    for args in &commands {
        let o = run_in(dir.path(), args);
        let (out, err) = text(&o);
        assert_ne!(o.status.code(), Some(0), "{args:?} accepted a bad board");
        no_forgery(&format!("{args:?} stdout"), &out);
        no_forgery(&format!("{args:?} stderr"), &err);
    }
    // A policy file's unknown key.
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        format!(
            "[limits]\n\"{}\" = 1\n",
            HOSTILE.replace('\n', "\\n").replace('\u{1b}', "\\u001b")
        ),
    )
    .unwrap();
    let o = run_in(dir.path(), &["validate", good]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    no_forgery("policy stdout", &out);
    no_forgery("policy stderr", &err);
}

/// `diff --format markdown` escapes a board's name with the report's
/// escaper: no link, image or emphasis of the name reaches the Markdown.
#[test]
fn diff_markdown_escapes_names_as_report_does() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    std::fs::write(
        &a,
        r#"{"name": "![x](http://e/i.png) *b* [l](http://e)", "squares": 20}"#,
    )
    .unwrap();
    let a = a.to_str().unwrap();
    let o = run_in(dir.path(), &["diff", "--format", "markdown", a, a]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let heading = out.lines().next().unwrap();
    assert!(
        // The addresses get a word joiner after their `:`, so GitHub does
        // not link them either.
        heading.contains(r"\!\[x\](http:&#8288;//e/i.png) \*b\* \[l\]"),
        "{heading}"
    );
}

/// Every limit flag refuses NaN, infinity, negative and absurd values with
/// one message, in every command that takes it.
#[test]
fn limit_flags_refuse_nan_inf_negative_and_absurd_values() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("b.json");
    std::fs::write(&b, r#"{"squares": 20}"#).unwrap();
    let b = b.to_str().unwrap();
    for command in [
        vec!["analyze"],
        vec!["validate"],
        vec!["report"],
        vec!["diff", b],
    ] {
        for bad in ["nan", "inf", "-5", "1e30"] {
            let mut args = command.clone();
            let flag = format!("--max-work={bad}");
            args.extend([flag.as_str(), b]);
            let o = run_in(dir.path(), &args);
            let (_, err) = text(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(
                err.contains("multiply-adds from 0 to 1e18"),
                "{args:?}: {err}"
            );
        }
    }
}

/// `diff` under a work limit shows "–" for the figures it skipped and says
/// why; a gate on such a figure says why it fails.
#[test]
fn diff_says_why_a_figure_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("b.json");
    std::fs::write(&b, r#"{"squares": 30, "snakes": [[25, 2]]}"#).unwrap();
    let b = b.to_str().unwrap();
    let o = run_in(
        dir.path(),
        &[
            "diff",
            "--max-work",
            "0",
            "--fail-if",
            "p99_change > 1",
            b,
            b,
        ],
    );
    let (out, err) = text(&o);
    assert!(out.contains("–"), "{out}");
    assert!(out.contains("note: old: skipped"), "{out}");
    assert!(err.contains("--max-work"), "{err}");
}

/// Policy files and `generate --rules` go through the board file's reader:
/// a FIFO or a device is refused at once, never opened and waited on.
#[test]
fn every_file_is_read_by_the_capped_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let b = dir.path().join("b.json");
    std::fs::write(&b, r#"{"squares": 20}"#).unwrap();
    let b = b.to_str().unwrap();
    let fifo = fifo.to_str().unwrap();
    for args in [
        vec!["validate", "--policy", fifo, b],
        vec!["validate", "--policy", "/dev/zero", b],
        vec![
            "generate",
            "--squares",
            "20",
            "--rules",
            fifo,
            "--seed",
            "1",
        ],
        vec![
            "generate",
            "--squares",
            "20",
            "--rules",
            "/dev/zero",
            "--seed",
            "1",
        ],
        vec!["play", "--replay", fifo],
    ] {
        let start = std::time::Instant::now();
        let o = run_in(dir.path(), &args);
        let (_, err) = text(&o);
        assert!(start.elapsed().as_secs() < 20, "{args:?} waited");
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}

/// A discovered `snakeladder.toml` that is a directory or a broken link is
/// an error, not passed over for a policy further up.
#[test]
fn a_discovered_policy_that_is_not_a_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("boards");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("b.json"), r#"{"squares": 20}"#).unwrap();
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 1\n",
    )
    .unwrap();
    std::fs::create_dir(sub.join("snakeladder.toml")).unwrap();
    let o = run_in(dir.path(), &["validate", "boards/b.json"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a directory"), "{err}");
    std::fs::remove_dir(sub.join("snakeladder.toml")).unwrap();
    std::os::unix::fs::symlink("missing.toml", sub.join("snakeladder.toml")).unwrap();
    let o = run_in(dir.path(), &["validate", "boards/b.json"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("symbolic link"), "{err}");
}

/// A board file of 100,000 duplicate jump starts lists the first few of
/// the kind and counts the rest, in every format and in `analyze`'s error.
#[test]
fn millions_of_problems_are_listed_in_a_few_lines() {
    let dir = tempfile::tempdir().unwrap();
    let snakes: Vec<String> = (0..100_000).map(|_| "[5, 2]".to_string()).collect();
    let b = dir.path().join("many.json");
    std::fs::write(
        &b,
        format!(r#"{{"squares": 200000, "snakes": [{}]}}"#, snakes.join(",")),
    )
    .unwrap();
    let b = b.to_str().unwrap();
    let listed = snakeladder::BoardError::PROBLEMS_LISTED_PER_KIND;
    for format in ["text", "github", "json", "sarif"] {
        let o = run_in(dir.path(), &["validate", "--format", format, b]);
        let (out, _) = text(&o);
        assert_eq!(o.status.code(), Some(1));
        assert!(out.len() < 100_000, "{format}: {} bytes", out.len());
        assert!(
            out.contains(&format!(
                "{} more duplicate_start problems",
                99_999 - listed
            )),
            "{format}: {out}"
        );
    }
    let o = run_in(dir.path(), &["analyze", b]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.len() < 20_000, "{} bytes", err.len());
    assert!(err.contains("more duplicate_start problems"), "{err}");
}

/// A UTF-8 byte-order mark is read as the start of the file, not refused
/// as "expected value at 1:1".
#[test]
fn a_byte_order_mark_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("bom.json");
    std::fs::write(&b, "\u{feff}{\"squares\": 20, \"ladders\": [[2, 9]]}").unwrap();
    let b = b.to_str().unwrap();
    for args in [vec!["validate", b], vec!["analyze", b]] {
        let o = run_in(dir.path(), &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {:?}", text(&o));
    }
}

/// An unwinnable board is named once: "unwinnable: the game cannot be won
/// …", never "unwinnable: unwinnable:".
#[test]
fn unwinnable_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("trap.json");
    std::fs::write(
        &b,
        r#"{"squares": 12, "snakes": [[5, 3], [6, 3], [7, 2]], "rules": {"dice": {"count": 1, "faces": 3}}}"#,
    )
    .unwrap();
    let b = b.to_str().unwrap();
    let o = run_in(dir.path(), &["validate", b]);
    let (out, _) = text(&o);
    assert!(out.contains("unwinnable: the game cannot be won"), "{out}");
    assert!(!out.contains("unwinnable: unwinnable"), "{out}");
}

/// A policy threshold of 0 broken by a tiny probability shows the
/// probability's digits, never "probability 0.000000, above … = 0".
#[test]
fn a_tiny_probability_is_not_printed_as_zero() {
    let dir = tempfile::tempdir().unwrap();
    let b = dir.path().join("b.json");
    std::fs::write(&b, r#"{"squares": 100}"#).unwrap();
    let b = b.to_str().unwrap();
    let o = run_in(
        dir.path(),
        &["validate", "--max-shortest-game-probability", "0", b],
    );
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(!out.contains("probability 0.000000"), "{out}");
    assert!(out.contains("e-"), "{out}");
}

/// `report board -o r.md` checks every output path before writing any: a
/// chart that would overwrite the board leaves every file as it was.
#[test]
fn report_checks_every_output_before_writing_any() {
    let dir = tempfile::tempdir().unwrap();
    let board = r#"{"squares": 30, "ladders": [[2, 9]], "snakes": [[25, 3]]}"#;
    let names: Vec<String> = {
        // The chart files `report -o r.md` writes, from a first run.
        let o = run_in(dir.path(), &["report", "-o", "probe.md"]);
        assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
        let mut n: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("probe-") && n.ends_with(".svg"))
            .collect();
        n.sort();
        n
    };
    assert!(names.len() >= 2, "{names:?}");
    // The last chart written is the board itself: every chart before it
    // was written first, before.
    let last = names.last().unwrap().replacen("probe", "r", 1);
    let first = names[0].replacen("probe", "r", 1);
    std::fs::write(dir.path().join(&last), board).unwrap();
    let o = run_in(dir.path(), &["report", &last, "-o", "r.md"]);
    assert_eq!(o.status.code(), Some(2), "{:?}", text(&o));
    assert!(!dir.path().join(&first).exists(), "{first} was written");
    assert!(!dir.path().join("r.md").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join(&last)).unwrap(),
        board
    );
}

/// `extra_turn.max_extra` (or `forfeit_after`) of 10⁸ or 2³²−1 no longer
/// hangs analyze, validate with a policy, or generate --rules: each answers
/// in seconds (it ran past minutes, growing with the cap).
#[test]
fn a_huge_extra_roll_cap_does_not_hang() {
    let dir = tempfile::tempdir().unwrap();
    for rule in [
        r#""max_extra": 100000000"#,
        r#""max_extra": 4294967295"#,
        r#""forfeit_after": 4294967295"#,
    ] {
        let b = dir.path().join("b.json");
        std::fs::write(
            &b,
            format!(
                r#"{{"squares": 100, "snakes": [[98, 2], [50, 3]],
                    "rules": {{"extra_turn": {{"on": 6, {rule}}}}}}}"#
            ),
        )
        .unwrap();
        let b = b.to_str().unwrap();
        for args in [
            vec!["analyze", b],
            vec!["validate", "--max-p99-turns", "1000", b],
            vec!["generate", "--squares", "100", "--rules", b, "--seed", "1"],
        ] {
            let start = std::time::Instant::now();
            let o = run_in(dir.path(), &args);
            assert_eq!(o.status.code(), Some(0), "{args:?} {rule}: {:?}", text(&o));
            assert!(
                start.elapsed().as_secs() < 30,
                "{args:?} {rule}: {:?}",
                start.elapsed()
            );
        }
    }
}

/// The follow-chain board of 40,000 squares (a ladder from every even
/// square to the next but one) is analysed under `--max-memory 1G`: its
/// compile is linear in the squares (it was refused from an estimate of
/// gigabytes, and compiling took 3.2 GB, issue 27). The per-jump figures,
/// a solve per jump, are skipped with their reason.
#[test]
fn a_long_follow_chain_is_analysed_under_a_gigabyte() {
    let dir = tempfile::tempdir().unwrap();
    let n = 40_000;
    let ladders: Vec<String> = (1..n / 2)
        .map(|k| format!("[{}, {}]", 2 * k, 2 * k + 2))
        .collect();
    let b = dir.path().join("follow.json");
    std::fs::write(
        &b,
        format!(
            r#"{{"squares": {n}, "ladders": [{}], "rules": {{"chains": "follow"}}}}"#,
            ladders.join(",")
        ),
    )
    .unwrap();
    let o = run_in(
        dir.path(),
        &["analyze", "--max-memory", "1G", b.to_str().unwrap()],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("mean 2.0000"), "{out}");
    assert!(out.contains("skipped per-jump figures"), "{out}");
}

/// The design searches stop at --max-work or --time-limit with the closest
/// mean found and the limit named (exit 3), where they ran for minutes.
#[test]
fn design_searches_stop_at_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    for (args, flag) in [
        (
            vec![
                "tune",
                "--target-turns",
                "100000:100001",
                "--max-changes",
                "1000000000",
                "--max-work",
                "1e8",
            ],
            "--max-work",
        ),
        (
            vec![
                "generate",
                "--squares",
                "1000",
                "--snakes",
                "200",
                "--ladders",
                "200",
                // No board of 1,000 squares lasts one turn on average.
                "--target-turns",
                "1:1.01",
                "--time-limit",
                "0.5s",
            ],
            "--time-limit",
        ),
        (
            vec!["tune", "--target-turns", "30:31", "--max-memory", "1K"],
            "--max-memory",
        ),
    ] {
        let start = std::time::Instant::now();
        let o = run_in(dir.path(), &args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains("the search stopped"), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
        assert!(
            start.elapsed().as_secs() < 60,
            "{args:?}: {:?}",
            start.elapsed()
        );
    }
    for bad in ["nan", "-1s", "0", "inf"] {
        let o = run_in(
            dir.path(),
            &[
                "tune",
                "--target-turns",
                "30:31",
                &format!("--time-limit={bad}"),
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
}

/// `report --cross-check 1000000000000` is left out at once with its
/// estimate and the limit, not started for days.
#[test]
fn an_absurd_cross_check_is_refused_with_an_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let o = run_in(dir.path(), &["report", "--cross-check", "1000000000000"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("the cross-check left out"), "{err}");
    assert!(err.contains("--max-work"), "{err}");
    assert!(!out.is_empty());
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// A threshold of `-0.0` in a policy is named `0` in every format of
/// `validate`, SARIF included (which now goes through the JSON writer's
/// zero rule too): "above max_shortest_game_probability = -0" was printed.
#[test]
fn no_format_of_validate_prints_a_negative_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/milton-bradley.json"),
        dir.path().join("b.json"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        "[limits]\nmax_first_seat_advantage = -0.0\nmax_shortest_game_probability = -0.0\n",
    )
    .unwrap();
    for format in ["text", "json", "sarif", "github"] {
        let out = run_in(dir.path(), &["validate", "--format", format, "b.json"]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{format}: {stderr}");
        assert!(
            stdout.contains("max_shortest_game_probability = 0"),
            "{format}:\n{stdout}"
        );
        assert!(!stdout.contains("-0"), "{format}:\n{stdout}");
    }
}

/// The design tools draw a progress bar on stderr only when it is a
/// terminal (seen under `script -qc`, a pseudo-terminal); into a pipe they
/// write nothing there, as `simulate` does.
#[test]
fn design_tools_are_silent_on_stderr_when_it_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/milton-bradley.json");
    let board = board.to_str().unwrap();
    for args in [
        &["analyze", "--sensitivity", board][..],
        &["report", "--sensitivity", board, "-o", "r.md"][..],
        &["tune", board, "--target-turns", "30:35"][..],
        &[
            "generate",
            "--squares",
            "100",
            "--snakes",
            "8",
            "--ladders",
            "8",
            "--seed",
            "1",
            "--target-turns",
            "30:40",
        ][..],
    ] {
        let out = run_in(dir.path(), args);
        let (_, stderr) = text(&out);
        assert!(out.status.success(), "{args:?}: {stderr}");
        // `generate` ends with one summary line; no bar, no redraw.
        assert!(
            !stderr.contains(['\r', '\u{1b}']) && !stderr.contains("/s"),
            "{args:?}: {stderr:?}"
        );
        if args[0] != "generate" {
            assert_eq!(stderr, "", "{args:?}");
        }
    }
}

/// On a terminal `analyze --sensitivity` draws its bar of variants (it had
/// none, and a 1,500-square board sat silent for a minute). The terminal
/// is `script`'s pseudo-terminal; without `script` the test says so and
/// passes.
#[test]
fn sensitivity_draws_a_bar_on_a_terminal() {
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/milton-bradley.json");
    let command = format!(
        "{BIN} analyze --sensitivity {} > /dev/null",
        board.to_str().unwrap()
    );
    let Ok(out) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("no `script` on this machine: the terminal case is not run");
        return;
    };
    let (tty, _) = text(&out);
    assert!(out.status.success(), "{tty}");
    assert!(tty.contains("variants"), "{tty:?}");
}

/// Reading a board of 10,000,000 squares with two dice stays under a
/// 500 MiB address-space cap (`ulimit -v`) in every command that reads
/// it: validation kept every move reversed, 4 bytes each (440 MB here;
/// `report --max-memory 500M` of such a board peaked at 993 MB). Only the
/// moves that do not end `r` squares on are kept now.
#[test]
fn reading_a_ten_million_square_board_stays_under_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    std::fs::write(
        &path,
        r#"{"squares": 10000000, "snakes": [[9999999, 5]], "ladders": [[2, 9999990]],
            "rules": {"dice": {"count": 2, "faces": 6}}}"#,
    )
    .unwrap();
    let board = path.to_str().unwrap();
    let capped = |args: &[&str]| {
        Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 512000 && exec \"$0\" \"$@\"")
            .arg(BIN)
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = capped(&["validate", board]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for command in ["analyze", "report"] {
        let out = capped(&[command, "--max-memory", "500M", board]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(3), "{command}: {stderr}");
        assert!(stderr.contains("over the limit of 500.0 MiB"), "{stderr}");
    }
}

/// `analyze --sensitivity` listed finite means for variants that cannot be
/// won (issue 27). On this board a die rolls 2 or 3 once in a million, so
/// games last 1e12 turns; moving the snake 5→3 to start on 7 leaves no way
/// past 7 (a 3 from 4 lands on the snake, 5 and 6 are snakes too). The
/// build the issue was filed against (2fe6bc3) took that variant's mean
/// from the update, whose denominator is 0 in exact arithmetic but not
/// after rounding, and printed
/// `snake 5→3         start +2   25608.1606 -1000005974405.8396`.
/// Every listed variant must be a board `validate` accepts, in text and
/// JSON.
#[test]
fn sensitivity_never_lists_a_variant_that_cannot_be_won() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/design/unwinnable-variant.json");
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let args = [
        "analyze",
        path.to_str().unwrap(),
        "--sensitivity",
        "--players",
        "1",
    ];
    let trapped = serde_json::json!([7, 3]);
    let spec_of = |before: &serde_json::Value, after: &serde_json::Value| {
        let mut spec = board.clone();
        let snakes = spec["snakes"].as_array_mut().unwrap();
        let at = snakes.iter().position(|s| s == before).unwrap();
        if after.is_null() {
            snakes.remove(at);
        } else {
            snakes[at] = after.clone();
        }
        spec
    };
    // The trapped variant is a board validation refuses.
    let moved = spec_of(&serde_json::json!([5, 3]), &trapped);
    assert!(snakeladder::Board::from_json_str(&moved.to_string()).is_err());

    let out = run_in(root, &[&args[..], &["--format", "json"]].concat());
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let s = &json["sensitivity"];
    let variants = s["variants"].as_array().unwrap();
    assert!(
        !variants.is_empty() && s["invalid"].as_u64().unwrap() > 0,
        "{s}"
    );
    for v in variants {
        let (before, after) = (&v["change"]["before"], &v["change"]["after"]);
        let pair = |j: &serde_json::Value| {
            if j.is_null() {
                j.clone()
            } else {
                serde_json::json!([j["from"], j["to"]])
            }
        };
        let spec = spec_of(&pair(before), &pair(after));
        assert!(
            snakeladder::Board::from_json_str(&spec.to_string()).is_ok(),
            "listed but not a valid board: {v}"
        );
        assert!(
            !(pair(before) == serde_json::json!([5, 3]) && pair(after) == trapped),
            "{v}"
        );
    }

    let out = run_in(root, &args);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stdout
            .lines()
            .any(|l| l.contains("snake 5→3") && l.contains("start +2")),
        "{stdout}"
    );
}

/// The snake family at k = 24 (games of 1.7e19 turns, each mean within
/// about 1e6 turns of the exact one, docs/figures.md §2b): starting on
/// square 1 instead of 0 saves exactly one turn, far below the means' own
/// error.
fn snake_family_pair(dir: &Path) -> (String, String) {
    let n = 6 * 24 + 4;
    let snakes: Vec<String> = (2..n)
        .filter(|s| (s - 1) % 6 != 0)
        .map(|s| format!("[{s}, 1]"))
        .collect();
    let old = dir.join("family.json");
    let new = dir.join("family-start-1.json");
    let board = format!(r#""squares": {n}, "snakes": [{}]"#, snakes.join(", "));
    std::fs::write(&old, format!("{{{board}}}")).unwrap();
    std::fs::write(&new, format!(r#"{{{board}, "rules": {{"start": 1}}}}"#)).unwrap();
    (
        old.to_str().unwrap().to_string(),
        new.to_str().unwrap().to_string(),
    )
}

/// `diff` printed the change of two means of 1.7e19 turns to four
/// decimals ("0" here, "-2048.0000" on another pair: one ulp of the mean),
/// noise far below the means' own error. The change now carries both
/// bounds, and one within them is said to be, in every format.
#[test]
fn diff_never_prints_a_mean_change_below_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = snake_family_pair(dir.path());
    for format in ["text", "markdown", "html"] {
        let out = run_in(dir.path(), &["diff", &old, &new, "--format", format]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stderr}");
        let line = stdout
            .lines()
            .find(|l| l.contains("mean turns"))
            .unwrap_or_else(|| panic!("{format}: no mean line:\n{stdout}"));
        assert!(line.contains("within error (±"), "{format}: {line}");
    }
    let out = run_in(dir.path(), &["diff", &old, &new, "--format", "json"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mean = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "mean")
        .unwrap();
    let (o, n) = (mean["old"].as_f64().unwrap(), mean["new"].as_f64().unwrap());
    let error = mean["change_error"].as_f64().unwrap();
    // The exact change is −1 turn; the bound covers it and the noise.
    assert!(error >= ((n - o) + 1.0).abs() && error > 1.0, "{mean}");
    // An ordinary diff is unchanged: no bound where it is far below the
    // digits shown.
    let out = run_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "diff",
            "boards/milton-bradley.json",
            "boards/seed-four-by-four.json",
            "--format",
            "json",
        ],
    );
    let (stdout, _) = text(&out);
    assert!(!stdout.contains("change_error"), "{stdout}");
}

/// `analyze --sensitivity` of a board whose own mean fails its accuracy
/// check (square 5 is reached only by two 1s of chance 1e-200 in one turn,
/// a path the float chain cuts) listed every variant's change against that
/// mean with no word of it. Now every format says so; a trusted board's
/// output has no such note.
#[test]
fn sensitivity_says_when_changes_are_against_an_untrusted_mean() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("rare.json");
    std::fs::write(
        &board,
        r#"{"squares": 10, "snakes": [[8, 3]], "rules": {"dice": {"weights": [1e-200, 0, 1]}, "extra_turn": {"on": 1}}}"#,
    )
    .unwrap();
    let board = board.to_str().unwrap();
    let note = "the board's own mean fails its accuracy check (error bound";
    let out = run_in(dir.path(), &["analyze", board, "--sensitivity"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains(note), "{stdout}");
    let out = run_in(
        dir.path(),
        &["analyze", board, "--sensitivity", "--format", "json"],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // The bound is infinite here, written as null as every infinite
    // bound is; the key is absent on a trusted board.
    let bound = json["sensitivity"]
        .get("untrusted_mean_bound")
        .unwrap_or_else(|| panic!("{}", json["sensitivity"]));
    assert!(bound.is_null() || bound.as_f64().unwrap() > 1e-9, "{bound}");
    for report in ["r.md", "r.html"] {
        let out = run_in(
            dir.path(),
            &["report", board, "--sensitivity", "-o", report],
        );
        let (_, stderr) = text(&out);
        assert!(out.status.success(), "{report}: {stderr}");
        let written = std::fs::read_to_string(dir.path().join(report)).unwrap();
        assert!(
            written.contains("own mean fails its accuracy check (error bound"),
            "{report}"
        );
    }
    let trusted = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/milton-bradley.json");
    let out = run_in(
        dir.path(),
        &["analyze", trusted.to_str().unwrap(), "--sensitivity"],
    );
    assert!(!text(&out).0.contains("accuracy check (error bound"));
    let out = run_in(
        dir.path(),
        &[
            "analyze",
            trusted.to_str().unwrap(),
            "--sensitivity",
            "--format",
            "json",
        ],
    );
    assert!(!text(&out).0.contains("untrusted_mean_bound"));
}
