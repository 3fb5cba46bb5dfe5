//! Writes the Markdown and HTML reports of a board.
//!
//! `cargo run --example write_report -- [BOARD.json] [OUT_DIR]`: analyses the
//! board (the built-in default without one) and writes `report.md` and
//! `report.html` into OUT_DIR (a temporary directory without one).

use snakeladder::{Analysis, Board, Options};
use snakeladder_render::Report;
use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    run(std::env::args().skip(1))
}

/// Writes the reports of the board named by the first argument into the
/// directory named by the second.
fn run(mut args: impl Iterator<Item = String>) -> Result<(), Box<dyn Error>> {
    let board = match args.next() {
        Some(path) => Board::from_path(path)?,
        None => Board::builtin_default(),
    };
    let dir = args.next().map_or_else(std::env::temp_dir, PathBuf::from);
    let analysis = Analysis::new(&board, &Options::default())?;
    let md = dir.join("report.md");
    let html = dir.join("report.html");
    let report = Report::new(&board, &analysis);
    std::fs::write(&md, report.markdown())?;
    std::fs::write(&html, report.html())?;
    println!(
        "mean {:.4} turns; wrote {} and {}",
        analysis.turns.mean,
        md.display(),
        html.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        let dir = std::env::temp_dir().join(format!("write-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let board = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/althoen-1993.json");
        super::run([board.to_string(), dir.display().to_string()].into_iter()).unwrap();
        let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
        assert!(md.contains("39.2251"), "{md}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
