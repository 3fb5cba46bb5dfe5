//! Arbitrary bytes through the policy reader (`snakeladder.toml`): any text
//! either parses into thresholds that are all in range and that read back
//! the same when written out, or gives an error that names a position
//! inside the text.
#![no_main]

use snakeladder::policy::{PolicyError, parse_policy};
use std::path::Path;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_policy(text, Path::new("snakeladder.toml")) {
        Ok(limits) => {
            assert!(limits.out_of_range().is_empty(), "{limits:?}");
            let mut again = String::from("[limits]\n");
            for (key, value) in limits.entries() {
                if let Some(v) = value {
                    assert!(v.is_finite(), "{key} = {v}");
                    again.push_str(&format!("{key} = {v:?}\n"));
                }
            }
            let back = parse_policy(&again, Path::new("p.toml")).expect("written thresholds read");
            assert_eq!(back, limits, "{again}");
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.is_empty());
            if let PolicyError::Toml { line, column, .. } | PolicyError::Range { line, column, .. } =
                e
            {
                let lines = text.split('\n').count().max(1);
                assert!(line >= 1 && line <= lines, "line {line} of {lines}");
                assert!(column >= 1, "column {column}");
            }
        }
    }
});
