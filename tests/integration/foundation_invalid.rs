//! Each file of `tests/invalid/` breaks exactly one validation rule: loading
//! it gives exactly that one problem, naming exactly those squares and jumps.

use snakeladder::JumpKind;
use snakeladder::{Board, JumpRef, Problem};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/invalid")
}

fn ladder(index: usize, from: i64, to: i64) -> JumpRef {
    JumpRef {
        list: JumpKind::Ladder,
        index,
        from,
        to,
    }
}

fn snake(index: usize, from: i64, to: i64) -> JumpRef {
    JumpRef {
        list: JumpKind::Snake,
        index,
        from,
        to,
    }
}

/// Every file and the one problem it must give. The file is named by the
/// problem's kind.
fn expected() -> Vec<Problem> {
    vec![
        Problem::SquaresOutOfRange { squares: 1 },
        Problem::WidthOutOfRange { width: 0 },
        Problem::StartOutOfRange { start: 2 },
        Problem::TooManyJumps {
            jumps: 11,
            squares: 10,
        },
        Problem::JumpStartsOnStart {
            jump: ladder(0, 0, 5),
            start: 0,
        },
        Problem::JumpStartsOnLast {
            jump: snake(0, 10, 1),
            last: 10,
        },
        Problem::JumpStartOffBoard {
            jump: snake(0, 12, 3),
            from: 12,
            last: 10,
        },
        Problem::JumpEndOffBoard {
            jump: ladder(0, 5, 12),
            to: 12,
            last: 10,
        },
        Problem::JumpGoesNowhere {
            jump: ladder(0, 5, 5),
        },
        Problem::SnakeClimbs {
            jump: snake(0, 3, 8),
        },
        Problem::LadderDescends {
            jump: ladder(1, 8, 3),
        },
        Problem::DuplicateStart {
            square: 3,
            first: ladder(0, 3, 8),
            second: snake(0, 3, 1),
        },
        Problem::Chain {
            jump: ladder(0, 2, 5),
            square: 5,
            next: ladder(1, 5, 8),
        },
        Problem::ChainCycle {
            squares: vec![10, 30, 50],
        },
        Problem::DiceMixed,
        Problem::DiceCount { count: 0 },
        Problem::DiceFaces { faces: 1 },
        Problem::DiceTooWide { totals: 99_901 },
        Problem::WeightNegative {
            face: 2,
            weight: -0.5,
        },
        Problem::WeightTooSmall {
            face: 1,
            weight: 1e-200,
            total: 1e200,
        },
        Problem::WeightsAllZero,
        Problem::WeightsOverflow,
        Problem::ExtraTurnUnrollable { on: 7 },
        Problem::ExtraTurnMaxExtra { max_extra: -1 },
        Problem::ExtraTurnForfeitAfter { forfeit_after: 0 },
        Problem::EndlessExtraRolls { on: 6 },
        Problem::TooLargeToCheck {
            squares: 10_000_000,
            totals: 12,
            limit: Board::MAX_MOVES_TO_CHECK,
        },
        Problem::Unwinnable { squares: vec![19] },
        Problem::LimitOutOfRange {
            key: "min_jump_use",
            value: 1.5,
            range: "0..=1",
        },
    ]
}

#[test]
fn each_invalid_file_fails_for_exactly_its_reason() {
    for problem in expected() {
        let path = dir().join(format!("{}.json", problem.kind()));
        let err = Board::from_path(&path).expect_err(&path.display().to_string());
        assert_eq!(err.kind(), "invalid", "{}", path.display());
        assert_eq!(
            err.problems(),
            std::slice::from_ref(&problem),
            "{}",
            path.display()
        );
        // The one-line error names the file and the problem.
        assert_eq!(err.to_string(), format!("{}: {problem}", path.display()));
    }
}

/// No file goes unchecked, and every rule that a JSON file can break has its
/// file. (`weight_not_finite` has none: JSON cannot write NaN or infinity; its
/// unit test builds the spec in code.)
#[test]
fn the_table_and_the_folder_agree() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = expected()
        .iter()
        .map(|p| format!("{}.json", p.kind()))
        .collect();
    assert_eq!(on_disk, listed);
    assert_eq!(listed.len(), 29);
}
