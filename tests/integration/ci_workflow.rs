//! The example workflow (examples/ci/github-workflow.yml) runs
//! examples/ci/review-boards.sh; this test runs that script on a fixture
//! repository of two commits, with the built binary on the PATH, and checks
//! the annotations, the policy and the step summary it writes.

use crate::support::{BIN, root};
use std::path::Path;
use std::process::Command;

#[test]
fn the_workflow_script_on_a_fixture_repository() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(repo)
            .output()
            .expect("git is needed by the workflow");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let boards = repo.join("boards");
    std::fs::create_dir(&boards).unwrap();
    std::fs::copy(
        root().join("boards/milton-bradley.json"),
        boards.join("main.json"),
    )
    .unwrap();
    std::fs::copy(
        root().join("boards/seed-ten-squares.json"),
        boards.join("small.json"),
    )
    .unwrap();
    std::fs::write(
        repo.join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 45\n",
    )
    .unwrap();
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "first"]);
    // The pull request: one board changed, one added with a mistake.
    std::fs::copy(
        root().join("boards/althoen-1993.json"),
        boards.join("main.json"),
    )
    .unwrap();
    std::fs::write(
        boards.join("new.json"),
        "{\n  \"squares\": 20,\n  \"snakes\": [[4, 9]]\n}\n",
    )
    .unwrap();
    git(&["add", "."]);
    git(&["commit", "-qm", "second"]);

    let summary = repo.join("summary.md");
    let path = format!(
        "{}:{}",
        Path::new(BIN).parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(root().join("examples/ci/review-boards.sh"))
        .current_dir(repo)
        .env("PATH", path)
        .env("BASE", "HEAD~1")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "::error file=boards/new.json,line=3,col=14,title=snake_climbs::snakes[0] 4→9: a snake must go down\n\
         3 boards checked: 2 valid, 1 invalid\n"
    );
    let summary = std::fs::read_to_string(&summary).unwrap();
    assert!(
        summary.contains(
            // The source is escaped as the report escapes names (`~` could
            // open a strikethrough); GitHub renders `\~` as `~`.
            r"### Layout change: Milton Bradley Chutes and Ladders (HEAD\~1:boards/main.json)"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("| mean turns | 39.5984 | 39.2251 | -0.3732 (-0.9%) |"),
        "{summary}"
    );
    assert!(summary.contains("| moved | snake | 48→26"), "{summary}");
    assert!(
        summary.contains("### New board: `boards/new.json`"),
        "{summary}"
    );
    assert!(
        !summary.contains("small.json"),
        "unchanged boards are not diffed"
    );
}
