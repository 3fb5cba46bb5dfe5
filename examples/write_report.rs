//! Writes the Markdown and HTML reports of a board.
//!
//! `cargo run --example write_report -- [BOARD.json] [OUT_DIR]`: analyses the
//! board (the built-in default without one) and writes `report.md` and
//! `report.html` into OUT_DIR (a temporary directory without one).

use snakeladder::Board;
use snakeladder::analysis::{Analysis, Options};
use snakeladder::report;
use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let board = match args.next() {
        Some(path) => Board::from_path(path)?,
        None => Board::builtin_default(),
    };
    let dir = args.next().map_or_else(std::env::temp_dir, PathBuf::from);
    let analysis = Analysis::new(&board, &Options::default())?;
    let md = dir.join("report.md");
    let html = dir.join("report.html");
    std::fs::write(&md, report::markdown(&board, &analysis))?;
    std::fs::write(&html, report::html(&board, &analysis))?;
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
        super::main().unwrap();
    }
}
