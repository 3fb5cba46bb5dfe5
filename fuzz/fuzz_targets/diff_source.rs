//! Arbitrary text through `diff`'s board-argument parser (`REV:path`, a
//! path, or `-`): a git revision is never empty and never starts with `-`
//! (git would read it as an option), and the parts put back together are
//! the argument.
#![no_main]

#[allow(dead_code)]
#[path = "../../src/args.rs"]
mod args;

use args::{Source, parse_source};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A path that exists is always read as a path, whatever its name.
    assert_eq!(parse_source(text, |_| true), Ok(Source::Path(text)));
    match parse_source(text, |_| false) {
        Ok(Source::Git { rev, file }) => {
            assert!(!rev.is_empty() && !file.is_empty(), "{text:?}");
            assert!(!rev.starts_with('-'), "{text:?} reaches git as an option");
            assert_eq!(format!("{rev}:{file}"), text);
        }
        Ok(Source::Path(p)) => assert_eq!(p, text),
        Err(message) => {
            assert!(text.split_once(':').is_some_and(|(rev, _)| rev.starts_with('-')));
            assert!(!message.is_empty());
        }
    }
});
