//! The GitHub Action (action.yml) and the pre-commit hook
//! (.pre-commit-hooks.yaml): action/run.sh runs in a simulated GitHub
//! environment (GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, a throwaway
//! git repository of boards with two commits, file names with spaces and a
//! leading `-`), action/install.sh is checked for the install command and
//! cache key it gives, and the hook's entry runs as pre-commit runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_snakeladder");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn board(name: &str) -> Vec<u8> {
    std::fs::read(root().join("boards").join(name)).unwrap()
}

/// A PATH with the built binary first.
fn path_with_binary() -> String {
    format!(
        "{}:{}",
        Path::new(BIN).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn git(repo: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git is needed by the action");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A repository of two commits. The first holds `boards/main.json`,
/// `boards/my board.json`, `boards/-dash.json` and `boards/gone.json`
/// under a policy of `max_mean_turns = 45`; the second (the pull request)
/// changes the first two, breaks `-dash.json`, removes `gone.json` and
/// adds `new board.json`.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    let boards = repo.join("boards");
    std::fs::create_dir(&boards).unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(boards.join(name), bytes).unwrap();
    write("main.json", &board("milton-bradley.json"));
    write("my board.json", &board("seed-ten-squares.json"));
    write("-dash.json", &board("seed-four-by-four.json"));
    write("gone.json", &board("variant-win.json"));
    std::fs::write(
        repo.join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 45\n",
    )
    .unwrap();
    git(repo, &["init", "-q"]);
    git(repo, &["add", "."]);
    git(repo, &["commit", "-qm", "first"]);
    write("main.json", &board("althoen-1993.json"));
    write("my board.json", &board("seed-twenty-bounce.json"));
    write(
        "-dash.json",
        b"{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]]\n}\n",
    );
    std::fs::remove_file(boards.join("gone.json")).unwrap();
    write("new board.json", &board("variant-bounce.json"));
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "second"]);
    dir
}

/// What one run of action/run.sh left: its output, the step summary and
/// the step outputs.
struct Run {
    out: Output,
    summary: String,
    outputs: String,
    /// The runner's temporary directory, kept while the run is looked at.
    _files: tempfile::TempDir,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8(self.out.stdout.clone()).unwrap()
    }

    fn report(&self) -> String {
        format!(
            "stdout:\n{}\nstderr:\n{}\nsummary:\n{}\noutputs:\n{}",
            self.stdout(),
            String::from_utf8_lossy(&self.out.stderr),
            self.summary,
            self.outputs
        )
    }
}

/// Runs action/run.sh in `dir` with the inputs given (`INPUT_PATHS`, ...)
/// and fresh GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files.
fn run_action(dir: &Path, inputs: &[(&str, &str)]) -> Run {
    let files = tempfile::tempdir().unwrap();
    let summary = files.path().join("summary.md");
    let outputs = files.path().join("output");
    let mut command = Command::new("bash");
    command
        .arg(root().join("action/run.sh"))
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", &outputs)
        .env("RUNNER_TEMP", files.path())
        .env_remove("SNAKELADDER");
    for name in ["PATHS", "POLICY", "BASE", "FORMAT", "FAIL_IF"] {
        command.env_remove(format!("INPUT_{name}"));
    }
    for (k, v) in inputs {
        command.env(k, v);
    }
    let out = command.output().unwrap();
    Run {
        out,
        summary: std::fs::read_to_string(&summary).unwrap_or_default(),
        outputs: std::fs::read_to_string(&outputs).unwrap_or_default(),
        _files: files,
    }
}

#[test]
fn the_action_annotates_and_diffs_a_pull_request() {
    let repo = fixture();
    let run = run_action(repo.path(), &[("INPUT_BASE", "HEAD~1")]);
    let report = run.report();
    assert_eq!(run.out.status.code(), Some(1), "{report}");
    assert_eq!(
        run.stdout(),
        "::error file=boards/-dash.json,line=3,col=14,title=snake_climbs::snakes[0] 4→9: a snake must go down\n\
         4 boards checked: 3 valid, 1 invalid\n",
        "{report}"
    );
    let summary = &run.summary;
    assert!(
        summary.starts_with(
            "**snakeladder validate:** 4 boards checked: 3 valid, 1 invalid\n\n\
             ## Board changes since `HEAD~1`\n"
        ),
        "{report}"
    );
    assert!(
        summary.contains("| mean turns | 39.5984 | 39.2251 | -0.3732 (-0.9%) |"),
        "{report}"
    );
    assert!(
        // `~` is escaped for Markdown (a pair would strike text through).
        summary.contains("(HEAD\\~1:./boards/my board.json)"),
        "a name with a space is diffed whole: {report}"
    );
    assert!(
        summary.contains("### New board: `boards/new board.json`"),
        "{report}"
    );
    assert!(
        summary.contains("### Removed board: `boards/gone.json`"),
        "{report}"
    );
    // The broken board is changed too, but it cannot be analysed: its
    // diff fails, which the status already says, and the summary still
    // names it.
    assert!(
        summary.contains(
            "### Changed board: `boards/-dash.json`\n\nIt could not be compared with the base"
        ),
        "{report}"
    );
    // Each diff ends its HTML block with a blank line, so the next board's
    // heading reads as a heading.
    assert!(summary.contains("</details>\n\n"), "{report}");
    assert!(!summary.contains("</details>\n#"), "{report}");
    assert!(
        run.outputs.contains("valid=false\n") && run.outputs.contains("changed=3\n"),
        "{report}"
    );
}

/// A committed symbolic link to a file outside the repository is not
/// followed: neither validate nor the diff of a changed board reads it,
/// so nothing of that file reaches the log, the annotations or the
/// summary, and the action says why it was left out.
#[test]
fn links_out_of_the_repository_are_not_followed() {
    let dir = fixture();
    let repo = dir.path();
    let outside = tempfile::tempdir().unwrap();
    let secret = |n: u32| format!("{{\"SECRET_token_{n}\": 1}}\n");
    std::fs::write(outside.path().join("a.json"), secret(1)).unwrap();
    std::fs::write(outside.path().join("b.json"), secret(2)).unwrap();
    let link = repo.join("boards/leak.json");
    std::os::unix::fs::symlink(outside.path().join("a.json"), &link).unwrap();
    git(repo, &["add", "."]);
    git(repo, &["commit", "-qm", "a link out"]);
    let base = String::from_utf8(
        Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(repo)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(outside.path().join("b.json"), &link).unwrap();
    git(repo, &["add", "."]);
    git(repo, &["commit", "-qm", "another link out"]);
    for format in ["github", "sarif", "text"] {
        let run = run_action(
            repo,
            &[("INPUT_BASE", base.trim()), ("INPUT_FORMAT", format)],
        );
        let mut all = run.report();
        if let Some(sarif) = run.outputs.lines().find_map(|l| l.strip_prefix("sarif=")) {
            all.push_str(&std::fs::read_to_string(sarif).unwrap());
        }
        assert!(!all.contains("SECRET_token"), "{format}: {all}");
        assert!(
            all.contains("symbolic link to a file outside"),
            "{format}: {all}"
        );
        assert!(run.outputs.contains("valid=false"), "{format}: {all}");
        assert!(
            run.summary.contains("Not compared: it is a symbolic link"),
            "{format}: {all}"
        );
    }
}

#[test]
fn hostile_paths_are_never_options() {
    let repo = fixture();
    let dir = repo.path();
    // A path that looks like an option, and one that would be an option of
    // `validate` if passed as it is.
    std::fs::copy(dir.join("boards/main.json"), dir.join("--format=json")).unwrap();
    let run = run_action(
        dir,
        &[(
            "INPUT_PATHS",
            "\n  boards/my board.json\n-dash.json\n--format=json\n",
        )],
    );
    // `-dash.json` at the root does not exist: the path is read as a file
    // named so, and reported missing, not taken for a flag.
    let report = run.report();
    assert_eq!(run.out.status.code(), Some(1), "{report}");
    let stdout = run.stdout();
    assert!(
        stdout.contains("::error file=-dash.json,title=io::cannot read"),
        "{report}"
    );
    assert!(
        stdout.ends_with("3 boards checked: 2 valid, 1 invalid\n"),
        "{report}"
    );
    assert!(
        !stdout.starts_with('{'),
        "no path became --format json: {report}"
    );
    assert!(run.outputs.contains("valid=false\n"), "{report}");
    assert!(
        run.outputs.contains("changed=0\n"),
        "no base, no diff: {report}"
    );
}

/// The step summary shows a board's hostile name and file name as they
/// are, without a mention, an issue link or a line they could end: a file
/// name in a code span with a carriage return written `\r`, a board's
/// name through diff's Markdown escaping.
#[test]
fn the_summary_mentions_no_one() {
    let repo = fixture();
    let dir = repo.path();
    let named = |name: &str, ladder: u32| {
        format!(r#"{{"name": "{name}", "squares": 20, "ladders": [[{ladder}, 15]]}}"#)
    };
    std::fs::write(dir.join("boards/main.json"), named("@octocat fixes #1", 2)).unwrap();
    git(dir, &["commit", "-qam", "named"]);
    std::fs::write(dir.join("boards/main.json"), named("@octocat fixes #1", 3)).unwrap();
    std::fs::write(dir.join("boards/@octocat\r#2.json"), named("x", 2)).unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "hostile"]);
    let run = run_action(dir, &[("INPUT_BASE", "HEAD~1")]);
    let report = run.report();
    assert!(
        run.summary
            .contains("### New board: `boards/@octocat\\r#2.json`\n"),
        "{report}"
    );
    assert!(!run.summary.contains('\r'), "{report}");
    assert!(
        run.summary
            .contains("### Layout change: @&#8288;octocat fixes \\#&#8288;1 ("),
        "{report}"
    );
}

#[test]
fn the_action_runs_from_a_subdirectory_and_writes_sarif() {
    let repo = fixture();
    let boards = repo.path().join("boards");
    let run = run_action(
        &boards,
        &[
            ("INPUT_PATHS", "."),
            ("INPUT_BASE", "HEAD~1"),
            ("INPUT_FORMAT", "sarif"),
            ("INPUT_POLICY", "../snakeladder.toml"),
        ],
    );
    let report = run.report();
    assert_eq!(run.out.status.code(), Some(1), "{report}");
    let sarif_path = run
        .outputs
        .lines()
        .find_map(|l| l.strip_prefix("sarif="))
        .unwrap_or_else(|| panic!("no sarif output: {report}"));
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sarif_path).unwrap()).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log:#}");
    assert_eq!(results[0]["ruleId"], "snake_climbs");
    // Paths relative to the subdirectory, read from the base as REV:./path.
    assert!(run.summary.contains("(HEAD\\~1:./main.json)"), "{report}");
    assert!(
        run.summary.contains("### Removed board: `gone.json`"),
        "{report}"
    );
}

#[test]
fn diff_gates_fail_the_action() {
    let repo = fixture();
    let gates = "\nabs(mean_change) > 0.1\n";
    let run = run_action(
        repo.path(),
        &[
            ("INPUT_PATHS", "boards/main.json"),
            ("INPUT_BASE", "HEAD~1"),
            ("INPUT_FAIL_IF", gates),
        ],
    );
    let report = run.report();
    assert_eq!(run.out.status.code(), Some(1), "{report}");
    assert!(run.outputs.contains("valid=true\n"), "{report}");
    assert!(run.outputs.contains("changed=1\n"), "{report}");
    let stderr = String::from_utf8_lossy(&run.out.stderr);
    assert!(stderr.contains("--fail-if abs(mean_change)"), "{report}");
    // Without the gate the same change passes.
    let run = run_action(
        repo.path(),
        &[
            ("INPUT_PATHS", "boards/main.json"),
            ("INPUT_BASE", "HEAD~1"),
        ],
    );
    assert_eq!(run.out.status.code(), Some(0), "{}", run.report());
}

#[test]
fn bad_inputs_are_refused() {
    let repo = fixture();
    for (inputs, says) in [
        (
            &[("INPUT_BASE", "--output=/tmp/x")][..],
            "base must be a revision",
        ),
        (&[("INPUT_BASE", "no-such-rev")][..], "is not a commit"),
        (&[("INPUT_FORMAT", "xml")][..], "format must be"),
        (&[("INPUT_PATHS", "\n  \n")][..], "names no path"),
        // An input's newline cannot start a workflow command in the log.
        (
            &[("INPUT_FORMAT", "github\n::error::forged")][..],
            "format must be",
        ),
        (
            &[("INPUT_BASE", "HEAD~1\n::error::forged")][..],
            "is not a commit",
        ),
        // A command's own misuse (a policy file that is not there) is a bad
        // input too, not an invalid board.
        (
            &[("INPUT_POLICY", "missing.toml")][..],
            "--policy: missing.toml",
        ),
    ] {
        let run = run_action(repo.path(), inputs);
        let stderr = String::from_utf8_lossy(&run.out.stderr);
        assert!(
            !stderr.lines().any(|l| l.trim_start().starts_with("::")),
            "{inputs:?}: {}",
            run.report()
        );
        // The summary never shows a tally that is not there.
        assert!(
            !run.summary.contains("**snakeladder validate:** \n"),
            "{inputs:?}: {}",
            run.report()
        );
        if inputs[0].0 == "INPUT_POLICY" {
            assert!(
                run.summary.contains("could not be checked (exit 2)"),
                "{}",
                run.report()
            );
        }
        assert_eq!(
            run.out.status.code(),
            Some(2),
            "{inputs:?}: {}",
            run.report()
        );
        assert!(stderr.contains(says), "{inputs:?}: {}", run.report());
    }
}

/// What one run of action/install.sh did: its output, what the stand-in
/// `cargo` was asked (one line a call) and the install root it was given.
struct Install {
    out: Output,
    cargo: String,
    home: tempfile::TempDir,
}

impl Install {
    fn report(&self) -> String {
        format!(
            "stdout:\n{}\nstderr:\n{}\ncargo:\n{}",
            String::from_utf8_lossy(&self.out.stdout),
            String::from_utf8_lossy(&self.out.stderr),
            self.cargo
        )
    }

    /// The binary it installed, if any.
    fn binary(&self) -> Option<PathBuf> {
        let bin = self.home.path().join("bin/snakeladder");
        bin.exists().then_some(bin)
    }
}

/// action/install.sh with a stand-in `cargo` that records its arguments, on
/// a Linux x86_64 runner, with the environment `env` adds (VERSION,
/// ACTION_REF, ACTION_REPOSITORY, SNAKELADDER_RELEASES).
fn install_with(args: &str, action_path: &Path, env: &[(&str, &str)]) -> Install {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let log = dir.path().join("cargo.log");
    let fake = dir.path().join("cargo");
    std::fs::write(
        &fake,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\n", log.display()),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Command::new("bash");
    command
        .arg(root().join("action/install.sh"))
        .arg(args)
        .env("CARGO", &fake)
        .env("GITHUB_ACTION_PATH", action_path)
        .env("SNAKELADDER_HOME", home.path())
        .env("RUNNER_OS", "Linux")
        .env("RUNNER_ARCH", "X64")
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_PATH");
    for name in [
        "VERSION",
        "ACTION_REF",
        "ACTION_REPOSITORY",
        "SNAKELADDER_RELEASES",
    ] {
        command.env_remove(name);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().unwrap();
    Install {
        out,
        cargo: std::fs::read_to_string(&log).unwrap_or_default(),
        home,
    }
}

/// action/install.sh ARGS with VERSION set, as before releases existed.
fn install(args: &str, version: &str, action_path: &Path) -> (Output, String) {
    let run = install_with(args, action_path, &[("VERSION", version)]);
    let home = run.home.path().display().to_string();
    (run.out, run.cargo.replace(&home, "HOME"))
}

#[test]
fn the_binary_is_installed_locked_and_cached_by_version() {
    let (out, cargo) = install("install", "", root());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let package = PathBuf::from(cargo.trim().rsplit(' ').next().unwrap());
    assert_eq!(
        cargo.trim(),
        format!(
            "install --locked --force --root HOME --path {}",
            package.display()
        )
    );
    let manifest = std::fs::read_to_string(package.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"snakeladder\""), "{manifest}");

    // From crates.io by the name of the package with the binary: the
    // crate called `snakeladder` is the library, with nothing to install.
    assert!(
        manifest.contains("name = \"snakeladder-cli\""),
        "{manifest}"
    );
    let (out, cargo) = install("install", "0.1.0", root());
    assert!(out.status.success());
    assert_eq!(
        cargo,
        "install --locked --force --root HOME snakeladder-cli --version =0.1.0\n"
    );

    let (out, cargo) = install("install", "0.1.0; rm -rf /", root());
    assert_eq!(out.status.code(), Some(2));
    assert!(cargo.is_empty(), "{cargo}");

    let key = |version: &str| {
        let (out, _) = install("key", version, root());
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(key("0.2.0"), "key=snakeladder-Linux-X64-v0.2.0\n");
    let source = key("");
    assert!(
        source.starts_with("key=snakeladder-Linux-X64-src-"),
        "{source}"
    );
    assert_eq!(source, key(""), "the key of one source is stable");

    // A source whose only change is a file the binary embeds (the built-in
    // board) gets another key, so a cached binary of the old one is not
    // reused.
    let tree = tempfile::tempdir().unwrap();
    let board = tree
        .path()
        .join("crates/snakeladder/boards/milton-bradley.json");
    std::fs::create_dir_all(board.parent().unwrap()).unwrap();
    std::fs::create_dir_all(tree.path().join("src")).unwrap();
    std::fs::write(tree.path().join("Cargo.toml"), "[package]\n").unwrap();
    std::fs::write(tree.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    let key_of = |dir: &Path| {
        let (out, _) = install("key", "", dir);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    std::fs::write(&board, r#"{"squares": 100, "snakes": [[48, 26]]}"#).unwrap();
    let before = key_of(tree.path());
    std::fs::write(&board, r#"{"squares": 100, "snakes": [[47, 26]]}"#).unwrap();
    assert_ne!(
        key_of(tree.path()),
        before,
        "an embedded board changes the key"
    );
}

/// A directory laid out as the releases of a GitHub repository,
/// `vVERSION/ASSET`, holding this workspace's version with the binary
/// `cargo test` built packed for Linux x86_64 by the release workflow's own
/// script (.ci/release-archive.sh) and its SHA256SUMS.
fn local_releases() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let version = env!("CARGO_PKG_VERSION");
    let release = dir.path().join(format!("v{version}"));
    let out = Command::new("bash")
        .arg(root().join(".ci/release-archive.sh"))
        .arg("x86_64-unknown-linux-musl")
        .arg(BIN)
        .arg(&release)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // As the workflow's release job does: one SHA256SUMS of every asset.
    let archive = format!("snakeladder-{version}-x86_64-unknown-linux-musl.tar.gz");
    let sums = std::fs::read_to_string(release.join(format!("{archive}.sha256"))).unwrap();
    std::fs::remove_file(release.join(format!("{archive}.sha256"))).unwrap();
    let other = format!(
        "{} snakeladder-{version}-aarch64-apple-darwin.tar.gz\n",
        "0".repeat(64)
    );
    std::fs::write(release.join("SHA256SUMS"), format!("{other}{sums}")).unwrap();
    (dir, release.join(archive))
}

/// The Action used by the tag of its own version downloads that release's
/// binary for the runner, checks it against SHA256SUMS and installs it,
/// without cargo; a tag of the major or minor version does too. The
/// installed binary is the one packed.
#[test]
fn the_action_pinned_by_tag_installs_the_release_binary() {
    let (releases, _) = local_releases();
    let url = format!("file://{}", releases.path().display());
    let version = env!("CARGO_PKG_VERSION");
    let tag = format!("v{version}");
    let major = format!("v{}", version.split('.').next().unwrap());
    for (reference, explicit) in [(tag.as_str(), ""), (major.as_str(), ""), ("main", version)] {
        let env = [
            ("ACTION_REF", reference),
            ("ACTION_REPOSITORY", "someone/snakeladder"),
            ("SNAKELADDER_RELEASES", url.as_str()),
            ("VERSION", explicit),
        ];
        let run = install_with("install", root(), &env);
        assert_eq!(
            run.out.status.code(),
            Some(0),
            "{reference}: {}",
            run.report()
        );
        assert!(run.cargo.is_empty(), "{reference}: {}", run.report());
        let bin = run.binary().expect("installed");
        assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(BIN).unwrap());
        let out = Command::new(&bin).arg("--version").output().unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(version),
            "{out:?}"
        );
        let key = install_with("key", root(), &env);
        assert_eq!(
            String::from_utf8_lossy(&key.out.stdout),
            format!("key=snakeladder-Linux-X64-v{version}\n")
        );
    }
}

/// An archive whose SHA-256 is not the release's is refused: nothing is
/// installed and nothing is built in its place.
#[test]
fn a_release_binary_with_another_checksum_is_refused() {
    let (releases, archive) = local_releases();
    let mut bytes = std::fs::read(&archive).unwrap();
    bytes.push(0);
    std::fs::write(&archive, bytes).unwrap();
    let url = format!("file://{}", releases.path().display());
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let run = install_with(
        "install",
        root(),
        &[
            ("ACTION_REF", tag.as_str()),
            ("ACTION_REPOSITORY", "someone/snakeladder"),
            ("SNAKELADDER_RELEASES", url.as_str()),
        ],
    );
    assert_eq!(run.out.status.code(), Some(1), "{}", run.report());
    let stderr = String::from_utf8_lossy(&run.out.stderr);
    assert!(
        stderr.contains("refusing") && stderr.contains("SHA256SUMS"),
        "{}",
        run.report()
    );
    assert!(run.binary().is_none(), "{}", run.report());
    assert!(run.cargo.is_empty(), "{}", run.report());
}

/// With no release of the version, or no binary in it for this runner, the
/// Action builds instead: its own source, or VERSION from crates.io. Used
/// by a branch, it builds its source without looking for a release.
#[test]
fn without_a_matching_release_the_action_builds() {
    let (releases, archive) = local_releases();
    let url = format!("file://{}", releases.path().display());
    let version = env!("CARGO_PKG_VERSION");
    let tag = format!("v{version}");
    let repo = ("ACTION_REPOSITORY", "someone/snakeladder");
    let from = ("SNAKELADDER_RELEASES", url.as_str());
    let from_source = |run: &Install| {
        assert_eq!(run.out.status.code(), Some(0), "{}", run.report());
        assert!(run.cargo.contains("--path "), "{}", run.report());
        assert!(run.binary().is_none(), "{}", run.report());
    };
    // A branch: the release of the same version may be other code.
    from_source(&install_with(
        "install",
        root(),
        &[("ACTION_REF", "main"), repo, from],
    ));
    // A vendored copy (`uses: ./path`) has no ref.
    from_source(&install_with("install", root(), &[repo, from]));
    // No release of that version.
    let none = format!("file://{}/nowhere", releases.path().display());
    let run = install_with(
        "install",
        root(),
        &[
            ("ACTION_REF", &tag),
            repo,
            ("SNAKELADDER_RELEASES", none.as_str()),
        ],
    );
    from_source(&run);
    assert!(
        String::from_utf8_lossy(&run.out.stdout).contains("building it"),
        "{}",
        run.report()
    );
    let run = install_with(
        "install",
        root(),
        &[
            ("VERSION", version),
            repo,
            ("SNAKELADDER_RELEASES", none.as_str()),
        ],
    );
    assert_eq!(run.out.status.code(), Some(0), "{}", run.report());
    assert!(
        run.cargo
            .contains(&format!("snakeladder-cli --version ={version}")),
        "{}",
        run.report()
    );
    // A release without this runner's binary.
    std::fs::remove_file(&archive).unwrap();
    let sums = archive.with_file_name("SHA256SUMS");
    let kept: String = std::fs::read_to_string(&sums)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("linux"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&sums, kept).unwrap();
    from_source(&install_with(
        "install",
        root(),
        &[("ACTION_REF", &tag), repo, from],
    ));
    // A runner the releases have no binary for.
    let run = install_with(
        "install",
        root(),
        &[("ACTION_REF", &tag), repo, from, ("RUNNER_ARCH", "ARM")],
    );
    from_source(&run);
}

/// Every input action.yml declares reaches action/run.sh as an
/// environment variable the script reads, and the install steps use
/// action/install.sh.
#[test]
fn the_action_passes_every_input_to_its_script() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let script = std::fs::read_to_string(root().join("action/run.sh")).unwrap();
    let inputs_block = action
        .split("\ninputs:\n")
        .nth(1)
        .and_then(|rest| rest.split("\noutputs:\n").next())
        .unwrap();
    let inputs: Vec<&str> = inputs_block
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("    ") && l.ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':'))
        .collect();
    assert_eq!(
        inputs,
        ["paths", "policy", "base", "format", "fail-if", "version"]
    );
    for input in inputs {
        let var = input.to_uppercase().replace('-', "_");
        let (env, reader) = if input == "version" {
            ("VERSION".to_string(), "action/install.sh")
        } else {
            (format!("INPUT_{var}"), "action/run.sh")
        };
        assert!(
            action.contains(&format!("{env}: ${{{{ inputs.{input} }}}}")),
            "{input} is not passed as {env}"
        );
        let text = std::fs::read_to_string(root().join(reader)).unwrap();
        assert!(
            text.contains(&format!("${{{env}")),
            "{reader} never reads {env}"
        );
    }
    assert!(script.contains("GITHUB_STEP_SUMMARY") && script.contains("GITHUB_OUTPUT"));
    assert!(action.contains("uses: actions/cache@v4"));
    assert!(action.contains("path: ~/.snakeladder/bin"));
    assert!(action.contains("key: ${{ steps.key.outputs.key }}"));
    // The install steps see which tag and repository the action was used
    // by, and the directory it installs to is put on the PATH.
    for context in ["action_ref", "action_repository"] {
        let env = format!("{}: ${{{{ github.{context} }}}}", context.to_uppercase());
        assert_eq!(action.matches(&env).count(), 2, "{env}");
    }
    assert!(action.contains("run: bash \"$GITHUB_ACTION_PATH/action/install.sh\" path"));
}

/// The hooks of .pre-commit-hooks.yaml: (id, entry, language, files).
fn hooks() -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let mut hooks = Vec::new();
    for block in text.split("\n- ").skip(1) {
        let field = |name: &str| {
            block
                .lines()
                .map(|l| l.trim_start_matches("- ").trim())
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .map(|v| v.trim_matches('\'').trim_matches('"').to_string())
                .unwrap_or_else(|| panic!("hook without {name}: {block}"))
        };
        hooks.push((
            field("id"),
            field("entry"),
            field("language"),
            field("files"),
        ));
    }
    hooks
}

/// The paths of `paths` that a hook's `files` pattern selects, as
/// pre-commit matches it (a search anywhere in the path; the pattern is
/// written so that POSIX extended regular expressions read it as Python's
/// `re` does).
fn selected<'a>(files: &str, paths: &[&'a str]) -> Vec<&'a str> {
    let out = Command::new("grep")
        .args(["-E", "--", files])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            for path in paths {
                writeln!(stdin, "{path}")?;
            }
            drop(stdin);
            child.wait_with_output()
        })
        .expect("grep runs");
    let text = String::from_utf8(out.stdout).unwrap();
    paths
        .iter()
        .copied()
        .filter(|p| text.lines().any(|l| l == *p))
        .collect()
}

/// pre-commit runs a hook as `ENTRY FILE...`, the staged files whose path
/// matches `files`, from the repository's root. This runs each hook's entry
/// the same way (the binary on the PATH, as the wheel's `language: python`
/// install and `language: system` both leave it) on a valid and an invalid
/// board, and checks that `files` picks board files and leaves other JSON
/// alone. .ci/run also runs the real pre-commit, from a clone pinned by
/// `rev:`, with the wheel it built.
#[test]
fn the_pre_commit_hook_runs_validate_on_the_staged_boards() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().map(|h| h.0.as_str()).collect();
    assert_eq!(ids, ["snakeladder-validate", "snakeladder-validate-system"]);
    let languages: Vec<&str> = hooks.iter().map(|h| h.2.as_str()).collect();
    assert_eq!(languages, ["python", "system"]);
    let repo = fixture();
    let candidates = [
        "boards/main.json",
        "boards/sub/deep.json",
        "game/board/x.json",
        "levels/easy.board.json",
        "package.json",
        "web/package.json",
        ".vscode/settings.json",
        "myboards/x.json",
        "boards.json",
        "boards/notes.md",
    ];
    for (id, entry, _, files) in &hooks {
        assert_eq!(
            selected(files, &candidates),
            [
                "boards/main.json",
                "boards/sub/deep.json",
                "game/board/x.json",
                "levels/easy.board.json"
            ],
            "{id}: {files}"
        );
        let words: Vec<&str> = entry.split_whitespace().collect();
        let run = |files: &[&str]| {
            Command::new(words[0])
                .args(&words[1..])
                .args(files)
                .current_dir(repo.path())
                .env("PATH", path_with_binary())
                .output()
                .unwrap()
        };
        let good = run(&["boards/main.json", "boards/my board.json"]);
        assert_eq!(good.status.code(), Some(0), "{id}: {good:?}");
        let top = repo.path().join("-top.board.json");
        std::fs::write(&top, board("seed-ten-squares.json")).unwrap();
        let good = run(&["-top.board.json"]);
        assert_eq!(good.status.code(), Some(0), "{id}: {good:?}");
        let bad = run(&["boards/main.json", "boards/-dash.json"]);
        assert_eq!(bad.status.code(), Some(1), "{id}: {bad:?}");
        let text = String::from_utf8_lossy(&bad.stdout);
        assert!(
            text.contains("boards/-dash.json:3:14: snake_climbs"),
            "{id}: {text}"
        );
        // What the pattern keeps out: a package.json is no board, and
        // validate would fail it.
        std::fs::write(repo.path().join("package.json"), "{\"name\": \"x\"}\n").unwrap();
        let not_a_board = run(&["package.json"]);
        assert_eq!(not_a_board.status.code(), Some(1), "{id}: {not_a_board:?}");
    }
}

/// The body of the first ```yaml block after `heading` in the README.
fn readme_yaml_after(heading: &str) -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let at = readme.find(heading).expect("the README section");
    readme[at..]
        .split("```yaml\n")
        .skip(1)
        .map(|b| b[..b.find("```").unwrap()].to_string())
        .collect()
}

/// The project has no repository address: no document may send a team to
/// a made-up `OWNER/snakeladder` (a placeholder in angle brackets says that
/// it is one), and the steps the README gives must run as written. The
/// first is the action pinned by tag, the second the vendored copy: `uses:
/// ./PATH` runs the action.yml of a copy vendored at PATH, so the test
/// vendors action.yml and action/ there and runs the step's script from
/// that copy, as the runner would. The hooks the README gives are those of
/// .pre-commit-hooks.yaml.
#[test]
fn the_documented_action_step_and_hook_are_usable() {
    for file in ["README.md", "action.yml", ".pre-commit-hooks.yaml"] {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(!text.contains("OWNER/"), "{file} names OWNER/…");
    }
    let blocks = readme_yaml_after("### The GitHub Action and the pre-commit hook");
    let uses = |step: &str| {
        assert_eq!(step.lines().count(), 3, "the three-line step: {step}");
        step.lines()
            .find_map(|l| l.trim().strip_prefix("- uses: "))
            .expect("a uses: line")
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    let pinned = uses(&blocks[0]);
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(pinned, format!("<owner>/snakeladder@v{version}"));
    let path = uses(&blocks[1]);
    let vendored = path
        .strip_prefix("./")
        .expect("uses: a path in the repository");

    let repo = fixture();
    let copy = repo.path().join(vendored);
    std::fs::create_dir_all(copy.join("action")).unwrap();
    std::fs::copy(root().join("action.yml"), copy.join("action.yml")).unwrap();
    for script in ["run.sh", "install.sh"] {
        std::fs::copy(
            root().join("action").join(script),
            copy.join("action").join(script),
        )
        .unwrap();
    }
    let action = std::fs::read_to_string(copy.join("action.yml")).unwrap();
    assert!(action.contains("bash \"$GITHUB_ACTION_PATH/action/run.sh\""));
    let files = tempfile::tempdir().unwrap();
    let summary = files.path().join("summary.md");
    let out = Command::new("bash")
        .arg(copy.join("action/run.sh"))
        .current_dir(repo.path())
        .env("PATH", path_with_binary())
        .env("GITHUB_ACTION_PATH", &copy)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GITHUB_OUTPUT", files.path().join("output"))
        .env("RUNNER_TEMP", files.path())
        .env("INPUT_BASE", "HEAD~1")
        .env("INPUT_PATHS", "boards")
        .env("INPUT_FORMAT", "github")
        .output()
        .unwrap();
    // The fixture's pull request breaks a board: the step runs and fails it.
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(summary.contains("main.json"), "{summary}");

    let field = |hook: &str, name: &str| {
        hook.lines()
            .map(|l| l.trim().trim_start_matches("- ").trim())
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .map(|v| v.trim().trim_matches('\'').to_string())
            .unwrap_or_else(|| panic!("the README's hook has no {name}: {hook}"))
    };
    let hooks = hooks();
    // The hook repository pinned by the release's tag.
    let pinned = &blocks[2];
    assert_eq!(field(pinned, "rev"), format!("v{version}"));
    assert_eq!(field(pinned, "id"), hooks[0].0);
    // The local hook runs the same entry as the hook file's system hook.
    let local = &blocks[3];
    assert!(local.contains("repo: local"), "{local}");
    let system = hooks
        .into_iter()
        .find(|h| h.2 == "system")
        .expect("a system hook");
    assert_eq!(field(local, "id"), system.0);
    assert_eq!(field(local, "entry"), system.1);
    assert_eq!(field(local, "language"), "system");
    assert_eq!(field(local, "files"), system.3);
}
