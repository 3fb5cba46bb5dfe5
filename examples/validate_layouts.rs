//! Validates board layouts, naming every problem of each.
//!
//! `cargo run --example validate_layouts -- [BOARD.json ...]`: checks the
//! files given, or, without any, the repository's `boards/` and a layout
//! written here with four mistakes, and prints one line per problem.

use snakeladder::{Board, BoardError};
use std::error::Error;
use std::path::PathBuf;

/// A layout with four problems: a ladder that descends, two jumps on one
/// square (3), and a snake ending on 3 where each of them starts (chains
/// are forbidden, and both jumps on 3 are checked).
const FLAWED: &str = r#"{
    "squares": 30,
    "ladders": [[12, 4], [3, 20]],
    "snakes": [[3, 1], [25, 3]]
}"#;

fn main() -> Result<(), Box<dyn Error>> {
    run(std::env::args().skip(1).map(PathBuf::from).collect())
}

/// Validates the files at `paths` (every board under `boards/` without any).
fn run(mut paths: Vec<PathBuf>) -> Result<(), Box<dyn Error>> {
    if paths.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/boards");
        for entry in std::fs::read_dir(dir)? {
            paths.push(entry?.path());
        }
        paths.sort();
    }
    let mut invalid = 0;
    for path in &paths {
        match Board::from_path(path) {
            Ok(board) => println!(
                "{}: valid, {} squares, {} jumps",
                path.display(),
                board.last(),
                board.jumps().len()
            ),
            Err(err) => {
                invalid += 1;
                print_problems(&err);
            }
        }
    }
    let flawed = Board::from_json_str(FLAWED).expect_err("the flawed layout is refused");
    print_problems(&flawed);
    assert_eq!(
        flawed.problems().len(),
        4,
        "every problem is named, not just the first"
    );
    println!("{} files checked, {invalid} invalid", paths.len());
    Ok(())
}

fn print_problems(err: &BoardError) {
    if err.problems().is_empty() {
        println!("{err}");
    }
    for problem in err.problems() {
        println!("  {}: {problem}", problem.kind());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::run(Vec::new()).unwrap();
    }
}
