//! The design tools from the library: which jumps move the classic game
//! most, the fewest moves that make it last 44 to 45 turns, and a fresh
//! 100-square board whose games last 30 to 35 turns.
//!
//! `cargo run --example design_board`

use snakeladder::design::{
    GenerateOptions, Layout, Target, TuneOptions, generate_to_target, sensitivity, tune,
};
use snakeladder::{Board, Seed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let board = Board::builtin_default();

    let s = sensitivity(&board, true)?;
    println!("Mean turns {:.4}; the five biggest levers:", s.mean_turns);
    for v in s.variants.iter().take(5) {
        println!(
            "  {:<16} {:<9} mean {:>8.4} ({:+.4})",
            v.change.before.to_string(),
            v.edit.to_string(),
            v.mean_turns,
            v.mean_change
        );
    }

    let target = Target::new(44.0, 45.0)?;
    let tuned = tune(&board, &TuneOptions::new(target, 2))?;
    println!(
        "\nTuned to {:.4} turns with {} change(s), {} candidates evaluated:",
        tuned.mean_turns,
        tuned.changes.len(),
        tuned.evaluated
    );
    for c in &tuned.changes {
        println!("  {c}");
    }
    assert!(target.contains(tuned.mean_turns));

    let options = GenerateOptions::new(
        Layout::new(100, 10, 10, Seed::new(42)),
        Target::new(30.0, 35.0)?,
    );
    let found = generate_to_target(&options)?;
    println!(
        "\nGenerated a board with a mean of {:.4} turns (random start {}, {} moves):",
        found.mean_turns, found.restart, found.steps
    );
    println!("{}", serde_json::to_string(&found.spec())?);
    assert!((30.0..=35.0).contains(&found.mean_turns));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        super::run().unwrap();
    }
}
