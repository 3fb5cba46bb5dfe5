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

#[test]
fn an_html_file_name_gives_html_unless_format_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let out = snakeladder()
        .args(["report", "-o"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .starts_with("<!DOCTYPE html>")
    );
    let forced = dir.path().join("forced.html");
    let out = snakeladder()
        .args(["report", "--format", "markdown", "-o"])
        .arg(&forced)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&forced).unwrap().starts_with("# "));
}

#[test]
fn a_markdown_file_gets_its_charts_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("classic.md");
    let out = snakeladder()
        .args(["report", "-o"])
        .arg(&md)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&md).unwrap();
    for chart in ["length", "board", "seats", "jumps"] {
        let name = format!("classic-{chart}.svg");
        assert!(text.contains(&format!("](<{name}>)")), "{name}");
        let svg = std::fs::read_to_string(dir.path().join(&name)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 5);

    // A name with `<`, `>` and a backslash: each link still names the file
    // written beside it (escaped as CommonMark reads a link destination).
    let md = dir.path().join("a>b <c\\.md");
    let out = snakeladder()
        .args(["report", "-o"])
        .arg(&md)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains(r"](<a\>b \<c\\-length.svg>)"), "{text}");
    assert!(dir.path().join(r"a>b <c\-length.svg").is_file());
}

#[test]
fn sections_left_out_are_named_in_the_report_and_on_stderr() {
    let out = snakeladder()
        .args(["report", "--max-work", "1000"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let md = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(md.contains("Left out of this report"), "{md}");
    for section in [
        "the length distribution",
        "the section on several players",
        "the section on snakes and ladders",
    ] {
        assert!(
            err.contains(&format!("note: {section}")),
            "{section}: {err}"
        );
        assert!(md.contains(section), "{section}");
    }
    assert!(err.contains("(--max-work)"), "{err}");
    // An essential step past --max-memory is refused, as by analyze.
    let out = snakeladder()
        .args(["report", "--max-memory", "1K"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-memory"));
}

/// A 52-square board whose 33 snakes make a game last about two million
/// turns: its report once drew ten million bars (874 MB).
#[test]
fn a_board_of_endless_games_gives_a_small_report() {
    let snakes: Vec<String> = (13..52)
        .filter(|s| s % 6 != 0)
        .take(33)
        .map(|s| format!("[{s}, {}]", s % 11 + 1))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("snakes.json");
    std::fs::write(
        &board,
        format!(r#"{{"squares": 52, "snakes": [{}]}}"#, snakes.join(",")),
    )
    .unwrap();
    let page = dir.path().join("snakes.html");
    let out = snakeladder()
        .arg("report")
        .arg(&board)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 1_000_000, "{size} bytes");
}

#[test]
fn a_cross_check_puts_simulated_figures_beside_the_exact_ones() {
    let out = snakeladder()
        .args([
            "report",
            "--cross-check",
            "20000",
            "--seed",
            "5",
            "--format",
            "html",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains("Cross-check against a simulation"));
    assert!(page.contains("20000 simulated games (seed 5, 6 players)"));
    // The exact mean and a simulated one with its standard error.
    assert!(
        page.contains(
            "<td data-label=\"figure\">mean turns</td><td data-label=\"exact\">39.5984</td>"
        ),
        "exact mean"
    );
    assert!(
        page.contains("<td data-label=\"standard error\">± "),
        "a standard error"
    );
    // Without the flag, no simulation and no section.
    let plain = snakeladder().args(["report"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("Cross-check"));
    // A seed alone is misuse.
    let misuse = snakeladder()
        .args(["report", "--seed", "5"])
        .output()
        .unwrap();
    assert_eq!(misuse.status.code(), Some(2));
}

/// The largest board drawn (2,500 squares) with as many long jumps as it
/// can hold: the page stays under 5 MB, and the jumps table names what it
/// leaves out.
#[test]
fn the_largest_drawn_board_gives_a_report_under_five_megabytes() {
    let snakes: Vec<String> = (0..595)
        .map(|i| format!("[{}, {}]", 1300 + 2 * i, 3 + 2 * i))
        .collect();
    let ladders: Vec<String> = (0..595)
        .map(|i| format!("[{}, {}]", 4 + 2 * i, 1301 + 2 * i))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("crowded.json");
    std::fs::write(
        &board,
        format!(
            r#"{{"squares": 2500, "snakes": [{}], "ladders": [{}]}}"#,
            snakes.join(","),
            ladders.join(",")
        ),
    )
    .unwrap();
    let page = dir.path().join("crowded.html");
    let out = snakeladder()
        .arg("report")
        .arg(&board)
        .arg("-o")
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success());
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 5_000_000, "{size} bytes");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "note: part of the jumps table left out: it lists the 1000 most used of 1190 jumps"
        ),
        "{err}"
    );
}
