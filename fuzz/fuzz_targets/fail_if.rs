//! Arbitrary text through `diff --fail-if`'s expression parser: a gate
//! prints back to an expression that parses to the same gate, and
//! evaluating it on a real diff never panics.
#![no_main]

use snakeladder_render::diff::Diff;
use snakeladder_render::diff::Gate;
use snakeladder::{Analysis, Board, Options};
use std::sync::OnceLock;

/// A diff of two small boards: one jump moved, every figure present.
fn diff() -> &'static Diff {
    static DIFF: OnceLock<Diff> = OnceLock::new();
    DIFF.get_or_init(|| {
        let side = |json: &str, name: &str| {
            let board = Board::from_json_str(json).expect("a valid board");
            let analysis = Analysis::new(&board, &Options::default()).expect("it analyses");
            (board, analysis, name.to_string())
        };
        let old = side(r#"{"squares":30,"snakes":[[17,4]],"ladders":[[3,22]]}"#, "old");
        let new = side(r#"{"squares":30,"snakes":[[27,4]],"ladders":[[3,22]]}"#, "new");
        Diff::new((&old.0, &old.1, old.2), (&new.0, &new.1, new.2))
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Gate>() {
        Ok(gate) => {
            let printed = gate.to_string();
            let back: Gate = printed.parse().expect("a printed gate parses");
            assert_eq!(back, gate, "{text:?} printed as {printed:?}");
            if let Some(why) = gate.trips(diff()) {
                assert!(!why.is_empty());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
