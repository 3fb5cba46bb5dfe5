//! One vocabulary (issue 30): every command, in every format a person
//! reads, names each figure as `snakeladder_render::vocabulary` does and writes it
//! in its unit. The test runs them all on a few boards, forbids the
//! spellings the commands used before (`seat-1 advantage`, `pt`,
//! `P(used)`, `used in a fraction`, `90% of games over by`, ladders
//! counted before snakes) and asserts that the table's names and written
//! values occur where the figure is shown.

use crate::support::{root, run};
use snakeladder_render::vocabulary::{self, FIRST_SEAT_ADVANTAGE, JUMP_USED, JUMP_USES, P90, P99};

/// The spellings the table replaced; none may appear in any output.
const FORBIDDEN: [&str; 13] = [
    "seat-1 advantage",
    "seat 1 − seat 2 wins",
    " pt)",
    "P(used)",
    "used in a fraction",
    "used in 16",
    "90% of games over by",
    "99% of games over by",
    "first-seat advantage with 2 players: 1.",
    // The Milton Bradley board's first-seat advantage (0.015606) as a bare
    // fraction or a percentage, and a jump's use as a fraction.
    "0.015606",
    "0.166667",
    // A seat's chance of winning as a bare fraction (seat 1 of two on the
    // Milton Bradley board wins 0.507803 of games: `50.780%`).
    "wins with probability",
    "0.5078",
];

/// One output of one command, as a person reads it.
struct Shown {
    what: String,
    text: String,
}

#[track_caller]
fn output(args: &[&str], ok: &[i32]) -> Shown {
    let out = run(args);
    let code = out.status.code().unwrap_or(-1);
    assert!(
        ok.contains(&code),
        "{args:?}: exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Shown {
        what: format!("{args:?}"),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// The positions of `<digits> noun` and `<digits> nouns` in `line`.
fn counted(line: &str, noun: &str) -> Option<usize> {
    line.match_indices(&format!(" {noun}")).find_map(|(at, _)| {
        let before = &line[..at];
        let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        (digits > 0).then_some(at - digits)
    })
}

#[track_caller]
fn assert_vocabulary(shown: &Shown) {
    for old in FORBIDDEN {
        assert!(
            !shown.text.contains(old),
            "{}: writes {old:?}:\n{}",
            shown.what,
            shown.text
        );
    }
    for line in shown.text.lines() {
        if let (Some(s), Some(l)) = (counted(line, "snake"), counted(line, "ladder")) {
            assert!(
                s < l,
                "{}: ladders counted before snakes: {line}",
                shown.what
            );
        }
    }
}

#[test]
fn every_command_and_format_speaks_the_tables_vocabulary() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let milton = "boards/milton-bradley.json";
    // The Milton Bradley board with ladder 28→84 moved to 28→76.
    let moved = path("moved.json");
    let text = std::fs::read_to_string(root().join(milton)).unwrap();
    std::fs::write(&moved, text.replace("[28, 84]", "[28, 76]")).unwrap();
    let boards = [
        milton,
        "boards/seed-ten-squares.json",
        "boards/variant-two-dice.json",
    ];
    let mut all: Vec<Shown> = Vec::new();
    for board in boards {
        all.push(output(&["analyze", board], &[0]));
        all.push(output(&["analyze", board, "--sensitivity"], &[0]));
        all.push(output(&["simulate", board, "--games", "500"], &[0]));
        all.push(output(&["check", board, "--games", "500"], &[0, 1]));
        all.push(output(
            &["play", board, "--players", "a,b", "--seed", "3"],
            &[0],
        ));
        for format in ["markdown", "html"] {
            let file = path(&format!("report.{format}"));
            output(
                &[
                    "report",
                    board,
                    "--sensitivity",
                    "--format",
                    format,
                    "-o",
                    &file,
                ],
                &[0],
            );
            all.push(Shown {
                what: format!("report {board} {format}"),
                text: std::fs::read_to_string(&file).unwrap(),
            });
        }
        for format in ["text", "github", "json", "sarif"] {
            let mut shown = output(
                &[
                    "validate",
                    board,
                    "--max-first-seat-advantage",
                    "0.001",
                    "--min-jump-use",
                    "0.9",
                    "--format",
                    format,
                ],
                &[0, 1],
            );
            // A workflow command's message is escaped as GitHub reads it.
            if format == "github" {
                shown.text = shown.text.replace("%25", "%");
            }
            all.push(shown);
        }
    }
    for format in ["text", "markdown", "html"] {
        all.push(output(&["diff", milton, &moved, "--format", format], &[0]));
    }
    all.push(output(
        &[
            "tune",
            milton,
            "--target-turns",
            "35:45",
            "--max-first-seat-advantage",
            "2%",
            "--max-changes",
            "1",
        ],
        &[0],
    ));
    all.push(output(
        &[
            "tune",
            milton,
            "--target-turns",
            "30:32",
            "--max-first-seat-advantage",
            "0.001",
            "--max-changes",
            "1",
        ],
        &[3],
    ));
    all.push(output(
        &[
            "generate",
            "--squares",
            "60",
            "--target-turns",
            "10:30",
            "--max-first-seat-advantage",
            "5%",
            "-o",
            &path("generated.json"),
        ],
        &[0],
    ));
    for shown in &all {
        assert_vocabulary(shown);
    }

    // Where a figure is shown, it is under its table name and in its unit.
    let find = |what: &str| {
        all.iter()
            .filter(|s| s.what.contains(what))
            .collect::<Vec<_>>()
    };
    let advantage = FIRST_SEAT_ADVANTAGE.format(0.015_606_f64);
    assert_eq!(advantage, "+1.561 pp");
    for what in [
        "[\"analyze\", \"boards/milton-bradley.json\", \"--sensitivity\"]",
        "report boards/milton-bradley.json markdown",
        "report boards/milton-bradley.json html",
        "\"diff\"",
    ] {
        let shown = find(what);
        assert!(!shown.is_empty(), "{what}");
        for s in shown {
            assert!(
                s.text.contains(FIRST_SEAT_ADVANTAGE.name) && s.text.contains(&advantage),
                "{}: no {} of {advantage}:\n{}",
                s.what,
                FIRST_SEAT_ADVANTAGE.name,
                s.text
            );
        }
    }
    let validate = find("\"validate\", \"boards/milton-bradley.json\"");
    assert_eq!(validate.len(), 4);
    for s in validate {
        assert!(s.text.contains(&advantage), "{}:\n{}", s.what, s.text);
        assert!(
            s.text.contains(&format!(
                "{} in {} of games",
                JUMP_USED.name,
                JUMP_USED.format(1.0 / 6.0)
            )),
            "{}:\n{}",
            s.what,
            s.text
        );
    }
    // Jump use: its name and a percentage in the analysis and the report.
    for what in [
        "[\"analyze\", \"boards/milton-bradley.json\"]",
        "report boards/milton-bradley.json markdown",
        "report boards/milton-bradley.json html",
    ] {
        for s in find(what) {
            assert!(s.text.contains(JUMP_USED.name), "{}", s.what);
            assert!(s.text.contains(JUMP_USES.name), "{}", s.what);
            assert!(s.text.contains("16.67%"), "{}:\n{}", s.what, s.text);
        }
    }
    // The quantiles: the short name where a line holds several figures
    // (analyze), the name in tables (report, diff).
    for s in find("[\"analyze\", \"boards/milton-bradley.json\"]") {
        assert!(s.text.contains(&format!("{} 73", P90.short)), "{}", s.what);
    }
    for what in ["report boards/milton-bradley.json", "\"diff\""] {
        for s in find(what) {
            assert!(s.text.contains(P90.name), "{}", s.what);
            assert!(s.text.contains(P99.name), "{}", s.what);
        }
    }
    // The board's jumps, counted in the table's order.
    let counts = vocabulary::jump_counts(10, 9, ", ");
    assert!(all[0].text.contains(&counts), "{}", all[0].text);
    let counts = vocabulary::jump_counts(10, 9, " · ");
    for s in find("report boards/milton-bradley.json") {
        assert!(s.text.contains(&counts), "{}", s.what);
    }
}
