//! The `report` command driven through the real binary.

use std::process::Command;

fn snakeladder() -> Command {
    Command::new(env!("CARGO_BIN_EXE_snakeladder"))
}

#[test]
fn html_report_is_written_whole_to_the_named_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("classic.html");
    let out = snakeladder()
        .args(["report", "--format", "html", "--exact", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout when writing a file"
    );
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.trim_end().ends_with("</html>"));
    // The AKS-style exact mean of the default board (chute 48→26) is shown.
    assert!(page.contains("Exact mean: <code"));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");
}

#[test]
fn markdown_report_goes_to_stdout() {
    let out = snakeladder()
        .arg("report")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/boards/althoen-1993.json"
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("# Althoen, King and Schilling (1993)"));
    // The published mean of this layout, 39.2251 turns.
    assert!(md.contains("| mean | 39.2251 |"), "{md}");
}

#[test]
fn a_failed_report_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.md");
    std::fs::write(&path, "old report").unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"squares": 10, "ladders": [[5, 3]]}"#).unwrap();
    let out = snakeladder()
        .arg("report")
        .arg(&bad)
        .arg("-o")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.json") && err.contains("ladders[0] 5→3"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old report");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}
