//! The review loop as a team meets it (issue 30): a gate whose exit status
//! holds whatever happens to its output, SARIF that points at the right
//! file from any directory, findings in file order, a policy file's bad
//! value at its position, and `--no-config`.

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_snakeladder");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A directory of `n` invalid boards: more output than a pipe holds, so a
/// reader that stops after a line closes the pipe while it is written.
fn invalid_boards(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        std::fs::write(
            dir.path().join(format!("board-{i:04}.json")),
            "{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]],\n  \"ladders\": [[12, 3]]\n}\n",
        )
        .unwrap();
    }
    dir
}

/// `validate . | head -1` under `pipefail`: the status is validate's, and
/// it must say that the boards are invalid even though the reader left.
#[test]
fn a_closed_pipe_does_not_hide_the_findings() {
    let dir = invalid_boards(1500);
    for (format, lines) in [("text", 1), ("github", 2), ("json", 1), ("sarif", 3)] {
        let script = format!(
            "set -o pipefail; '{BIN}' validate --format {format} . | head -{lines} >/dev/null"
        );
        let out = Command::new("bash")
            .args(["-c", &script])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{format}: quietly");
    }
    // And valid boards through the same pipe still pass.
    let script = format!("set -o pipefail; '{BIN}' validate boards | head -0");
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// `diff --fail-if` keeps its verdict when its reader leaves too.
#[test]
fn a_closed_pipe_does_not_hide_a_tripped_diff_gate() {
    let script = format!(
        "set -o pipefail; '{BIN}' diff boards/milton-bradley.json boards/althoen-1993.json \
         --format html --fail-if 'abs(mean_change) > 0.1' | head -c 10 >/dev/null"
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A git repository with `boards/bad.json` (an invalid snake) and a
/// subdirectory `boards/sub` to run from.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let boards = dir.path().join("boards");
    std::fs::create_dir_all(boards.join("sub")).unwrap();
    std::fs::write(
        boards.join("bad.json"),
        "{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]]\n}\n",
    )
    .unwrap();
    git(dir.path(), &["init", "-q"]);
    dir
}

fn sarif_location(out: &Output) -> (serde_json::Value, serde_json::Value) {
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    (
        run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"].clone(),
        run["originalUriBaseIds"].clone(),
    )
}

/// Code scanning resolves a result's URI against `%SRCROOT%`: from the
/// repository's root, a subdirectory, or with `./` in front, the URI is the
/// file's path from the root; `--sarif-root` sets the root; a file outside
/// it is an absolute `file:` URI.
#[test]
fn sarif_locations_are_relative_to_the_repository_root() {
    let repo = repository();
    let top = std::fs::canonicalize(repo.path()).unwrap();
    let expected = serde_json::json!({"uri": "boards/bad.json", "uriBaseId": "%SRCROOT%"});
    let base = serde_json::json!({"%SRCROOT%": {"uri": format!("file://{}/", top.display())}});
    for (dir, path) in [
        (top.clone(), "./boards/bad.json"),
        (top.clone(), "boards"),
        (top.join("boards/sub"), "../bad.json"),
        (top.join("boards"), "."),
    ] {
        let out = run_in(&dir, &["validate", "--format", "sarif", path]);
        assert_eq!(out.status.code(), Some(1));
        let (location, bases) = sarif_location(&out);
        assert_eq!(location, expected, "from {} with {path}", dir.display());
        assert_eq!(bases, base);
    }
    let out = run_in(
        &top.join("boards"),
        &[
            "validate",
            "--format",
            "sarif",
            "--sarif-root",
            ".",
            "bad.json",
        ],
    );
    let (location, bases) = sarif_location(&out);
    assert_eq!(
        location,
        serde_json::json!({"uri": "bad.json", "uriBaseId": "%SRCROOT%"})
    );
    assert_eq!(
        bases["%SRCROOT%"]["uri"],
        format!("file://{}/boards/", top.display())
    );
    let out = run_in(
        &top.join("boards"),
        &[
            "validate",
            "--format",
            "sarif",
            "--sarif-root",
            "sub",
            "bad.json",
        ],
    );
    let (location, _) = sarif_location(&out);
    assert_eq!(
        location,
        serde_json::json!({"uri": format!("file://{}/boards/bad.json", top.display())})
    );
}

/// The anchors of docs/problems.md, in order: every `<a id="…">`.
fn problem_page_anchors() -> Vec<String> {
    let page = std::fs::read_to_string(root().join("docs/problems.md")).unwrap();
    page.split("<a id=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// Every rule carries a full description and help pointing at its kind's
/// anchor on the problem kinds' page, and that anchor exists. With no
/// repository in the manifest the page is the renderer's `kinds` module on
/// docs.rs, whose documentation is docs/problems.md itself.
#[test]
fn sarif_rules_have_help_pointing_at_the_problems_page() {
    let out = run_in(
        root(),
        &[
            "validate",
            "--format",
            "sarif",
            "tests/review",
            "tests/invalid",
        ],
    );
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let anchors = problem_page_anchors();
    let version = env!("CARGO_PKG_VERSION");
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    let page = if repository.is_empty() {
        format!("https://docs.rs/snakeladder-render/{version}/snakeladder_render/kinds/index.html")
    } else {
        format!("{repository}/blob/v{version}/docs/problems.md")
    };
    let driver = &log["runs"][0]["tool"]["driver"];
    assert!(
        driver["informationUri"].as_str().unwrap().contains(version),
        "{driver}"
    );
    let rules = driver["rules"].as_array().unwrap();
    assert!(rules.len() > 10, "{rules:?}");
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        let full = rule["fullDescription"]["text"].as_str().unwrap();
        assert!(full.len() > 20, "{id}: {full}");
        assert!(
            rule["help"]["text"].as_str().unwrap().contains(full),
            "{id}"
        );
        assert!(
            rule["help"]["markdown"].as_str().unwrap().contains(full),
            "{id}"
        );
        let uri = rule["helpUri"].as_str().unwrap();
        let (at, anchor) = uri.split_once('#').expect("an anchor");
        assert_eq!(at, page, "{id}");
        assert!(
            anchors.iter().any(|a| a == anchor),
            "docs/problems.md has no anchor {anchor} for {id}"
        );
    }
    // docs.rs shows the page because the renderer's `kinds` module takes
    // its documentation from it, through a link packed as the file.
    let kinds =
        std::fs::read_to_string(root().join("crates/snakeladder-render/src/kinds.rs")).unwrap();
    assert!(kinds.contains("#![doc = include_str!(\"../docs/problems.md\")]"));
    assert_eq!(
        std::fs::read(root().join("crates/snakeladder-render/docs/problems.md")).unwrap(),
        std::fs::read(root().join("docs/problems.md")).unwrap()
    );
}

/// Every kind the code reports, read from where the code defines them (the
/// validation's problems, the policy's keys, the errors of reading and
/// checking), has exactly one anchor on the problem kinds' page, with its
/// description, and the page has no anchor for a kind that does not exist.
#[test]
fn the_problems_page_describes_every_kind_once() {
    let kinds: Vec<&str> = snakeladder::Problem::KINDS
        .iter()
        .copied()
        .chain(snakeladder::policy::Thresholds::KEYS)
        .chain(snakeladder_render::kinds::OTHER_KINDS)
        .collect();
    let expected: Vec<String> = kinds
        .iter()
        .map(|k| snakeladder_render::kinds::anchor(k))
        .collect();
    assert_eq!(problem_page_anchors(), expected);
    let page = std::fs::read_to_string(root().join("docs/problems.md")).unwrap();
    for kind in kinds {
        let doc = snakeladder_render::kinds::describe(kind)
            .unwrap_or_else(|| panic!("{kind} has no description"));
        let anchor = snakeladder_render::kinds::anchor(kind);
        let row = format!(
            "| <a id=\"{anchor}\"></a>`{kind}` | {}. {} |",
            doc.short, doc.full
        );
        assert!(page.contains(&row), "docs/problems.md lacks {row}");
    }
}

/// `--format github` names files without the `./` of a walk from `.`.
#[test]
fn github_annotations_name_files_without_dot_slash() {
    let repo = repository();
    let out = run_in(
        &repo.path().join("boards"),
        &["validate", "--format", "github", "."],
    );
    assert_eq!(
        stdout(&out).lines().next().unwrap(),
        "::error file=bad.json,line=3,col=14,title=snake_climbs::snakes[0] 4→9: a snake must go down"
    );
    let out = run_in(
        repo.path(),
        &["validate", "--format", "github", "./boards/bad.json"],
    );
    assert!(
        stdout(&out).starts_with("::error file=boards/bad.json,"),
        "{}",
        stdout(&out)
    );
}

/// A file's problems come in the order of their positions, whatever order
/// validation finds them in (here the rules' problems before the jumps').
#[test]
fn problems_are_sorted_by_position() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("b.json"),
        "{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]],\n  \"ladders\": [[0, 5], [7, 2]],\n  \"rules\": {\"start\": 3, \"dice\": {\"count\": 0, \"faces\": 6}}\n}\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["validate", "--format", "json", "b.json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let positions: Vec<(u64, u64)> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["line"].as_u64().unwrap(), p["column"].as_u64().unwrap()))
        .collect();
    assert!(positions.len() >= 4, "{json:#}");
    let mut sorted = positions.clone();
    sorted.sort();
    assert_eq!(positions, sorted, "{json:#}");
}

/// A policy file's value out of range is misuse at its line and column;
/// `--no-config` (or `--isolated`) ignores the file, and `--policy` still
/// applies.
#[test]
fn policy_errors_have_positions_and_no_config_ignores_discovery() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("boards/milton-bradley.json"),
        dir.path().join("b.json"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 45\nmin_jump_use = 1.5\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["validate", "b.json"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("snakeladder.toml:3:16: limits.min_jump_use"),
        "{stderr}"
    );
    for flag in ["--no-config", "--isolated"] {
        let out = run_in(dir.path(), &["validate", flag, "b.json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::write(
        dir.path().join("strict.toml"),
        "[limits]\nmax_mean_turns = 20\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &[
            "validate",
            "--no-config",
            "--policy",
            "strict.toml",
            "b.json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("max_mean_turns"), "{}", stdout(&out));
}

/// Every command that writes a board writes the one layout `fmt` keeps:
/// `generate -o`, `generate --target-turns -o` and `tune -o` write files
/// that `fmt --check` passes, one jump a line.
#[test]
fn every_written_board_is_in_the_one_layout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let runs: [&[&str]; 3] = [
        &[
            "generate",
            "--squares",
            "100",
            "--snakes",
            "6",
            "--ladders",
            "5",
            "--seed",
            "7",
            "-o",
            "a.json",
        ],
        &[
            "generate",
            "--squares",
            "64",
            "--target-turns",
            "20:40",
            "--seed",
            "3",
            "-o",
            "b.json",
        ],
        &[
            "tune",
            "--target-turns",
            "30:32",
            "--max-changes",
            "3",
            "-o",
            "c.json",
        ],
    ];
    for args in runs {
        let out = run_in(d, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for name in ["a.json", "b.json", "c.json"] {
        let text = std::fs::read_to_string(d.join(name)).unwrap();
        let out = run_in(d, &["fmt", "--check", name]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}:\n{text}{}",
            stdout(&out)
        );
        // One jump a line, keys in order.
        assert!(text.starts_with("{\n"), "{text}");
        let jump_lines = text
            .lines()
            .filter(|l| l.starts_with("    [") && (l.ends_with("],") || l.ends_with(']')))
            .count();
        assert!(jump_lines >= 5, "{name}: {text}");
        let squares = text.find("\"squares\"").unwrap();
        let ladders = text.find("\"ladders\"").unwrap();
        let snakes = text.find("\"snakes\"").unwrap();
        let rules = text.find("\"rules\"").unwrap_or(usize::MAX);
        assert!(
            squares < ladders && ladders < snakes && snakes < rules,
            "{text}"
        );
    }
    // And the shipped boards are in it too.
    let out = run_in(root(), &["fmt", "--check", "boards"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// `fmt` rewrites a file in place (atomically, permissions kept),
/// `--check` names it and changes nothing, and a file that is not a board
/// is refused and left alone.
#[test]
fn fmt_rewrites_and_check_fails_on_a_file_out_of_layout() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let messy = "{\"snakes\": [[9, 3]], \"squares\": 10,\n\"ladders\":[[2,7],[4,  8]]}";
    std::fs::write(d.join("-messy.json"), messy).unwrap();
    std::fs::set_permissions(
        d.join("-messy.json"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::fs::write(d.join("broken.json"), "{\"squares\": 10, \"ladder\": []}").unwrap();

    let out = run_in(d, &["fmt", "--check", "--", "-messy.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("-messy.json: not in the board layout"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read_to_string(d.join("-messy.json")).unwrap(),
        messy
    );

    let out = run_in(d, &["fmt", "--", "-messy.json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(d.join("-messy.json")).unwrap(),
        "{\n  \"squares\": 10,\n  \"ladders\": [\n    [2, 7],\n    [4, 8]\n  ],\n  \"snakes\": [\n    [9, 3]\n  ]\n}\n"
    );
    let mode = std::fs::metadata(d.join("-messy.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    let out = run_in(d, &["fmt", "--check", "--", "-messy.json"]);
    assert_eq!(out.status.code(), Some(0));

    let out = run_in(d, &["fmt", "."]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.json") && stderr.contains("ladder"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("broken.json")).unwrap(),
        "{\"squares\": 10, \"ladder\": []}"
    );
    let names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
}

/// A board file may name its JSON Schema in `"$schema"`: every command
/// reads past it, and `snakeladder schema board` accepts a file that
/// carries it.
#[test]
fn a_board_may_carry_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = std::fs::read_to_string(root().join("boards/seed-ten-squares.json")).unwrap();
    let with_schema = text.replacen(
        "{\n",
        "{\n  \"$schema\": \"../docs/schema/board.schema.json\",\n",
        1,
    );
    std::fs::write(d.join("b.json"), &with_schema).unwrap();
    for args in [
        &["validate", "b.json"][..],
        &["analyze", "b.json"],
        &["fmt", "--check", "b.json"],
    ] {
        let out = run_in(d, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let schema: serde_json::Value =
        serde_json::from_slice(&run_in(root(), &["schema", "board"]).stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let board: serde_json::Value = serde_json::from_str(&with_schema).unwrap();
    assert!(validator.is_valid(&board));
    let mut typo = board.clone();
    typo["ladder"] = serde_json::json!([]);
    assert!(
        !validator.is_valid(&typo),
        "other unknown keys are still refused"
    );
}

/// An unknown enum value is a JSON error at its position, and the file's
/// jump problems are reported beside it, not hidden.
#[test]
fn a_json_level_error_does_not_hide_the_jumps() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("b.json"),
        "{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]],\n  \"ladders\": [[12, 3]],\n  \"rules\": {\n    \"overshoot\": \"sideways\"\n  },\n  \"name\": 7\n}\n",
    )
    .unwrap();
    let out = run_in(dir.path(), &["validate", "b.json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].starts_with("b.json:3:14: snake_climbs: snakes[0] 4→9"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("b.json:4:15: ladder_descends: ladders[0] 12→3"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("b.json:6:")
            && lines[2].contains("json")
            && lines[2].contains("sideways"),
        "{text}"
    );
    assert!(
        lines[3].starts_with("b.json:8:") && lines[3].contains("json") && lines[3].contains("name"),
        "{text}"
    );
}

/// `play --help` shows `--players` as required in its usage and no note
/// meant for the code's readers.
#[test]
fn play_help_says_what_is_required() {
    let out = run_in(root(), &["play", "--help"]);
    let help = stdout(&out);
    let usage: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Usage:"))
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        usage,
        [
            "Usage: snakeladder play [BOARD] --players <NAMES> [OPTIONS]",
            "       snakeladder play --replay <FILE> [--odds] [--record <FILE>]"
        ]
    );
    assert!(!help.contains("clap") && !help.contains("`run`"), "{help}");
    assert!(help.contains("required unless --replay"), "{help}");
}

/// When boards inside the band of turns were found but none is fair
/// enough, `tune` says that the first-seat advantage failed, not the
/// mean.
#[test]
fn tune_names_the_constraint_that_failed() {
    let out = run_in(
        root(),
        &[
            "tune",
            "--target-turns",
            "38:41",
            "--max-first-seat-advantage",
            "0.0001",
            "--max-changes",
            "1",
        ],
    );
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the first-seat advantage failed"),
        "{stderr}"
    );
    assert!(stderr.contains("above the cap of +0.010 pp"), "{stderr}");
    assert!(!stderr.contains("closest found"), "{stderr}");
}

/// `analyze --sensitivity` whose evaluator does not fit in `--max-memory`
/// refuses before the analysis: with a memory limit no analysis could meet,
/// the error is the sensitivity's own estimate, not the analysis's. (Boards
/// past 1,500 squares were once refused by size; the sensitivity now solves
/// the columns it needs from the sparse factorisation, issue 29.)
#[test]
fn sensitivity_on_a_too_large_board_refuses_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let made = run_in(
        dir.path(),
        &[
            "generate",
            "--squares",
            "3000",
            "--snakes",
            "5",
            "--ladders",
            "5",
            "--seed",
            "1",
            "-o",
            "big.json",
        ],
    );
    assert_eq!(made.status.code(), Some(0));
    let out = run_in(
        dir.path(),
        &["analyze", "big.json", "--sensitivity", "--max-memory", "1K"],
    );
    assert_eq!(out.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("vectors of 3001 states") && stderr.contains("(--max-memory)"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// "a die with 1 face", not "1 faces".
#[test]
fn a_one_faced_die_is_named_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("b.json"),
        r#"{"squares": 10, "rules": {"dice": {"faces": 1}}}"#,
    )
    .unwrap();
    let text = stdout(&run_in(dir.path(), &["validate", "b.json"]));
    assert!(text.contains("a die with 1 face is out of range"), "{text}");
    std::fs::write(
        dir.path().join("b.json"),
        r#"{"squares": 10, "rules": {"dice": {"faces": 0}}}"#,
    )
    .unwrap();
    let text = stdout(&run_in(dir.path(), &["validate", "b.json"]));
    assert!(
        text.contains("a die with 0 faces is out of range"),
        "{text}"
    );
}
