//! Arbitrary text through the value parsers of the design commands' options
//! (`tune`, `generate --target-turns`, `analyze --sensitivity`): bands,
//! advantages, jumps, work and memory limits and time limits. Each either
//! refuses the text with a message or returns a value in its range.
#![no_main]

#[allow(dead_code)]
#[path = "../../src/args.rs"]
mod args;
#[allow(dead_code)]
#[path = "../../src/memory.rs"]
mod memory;

use args::parse_time_limit;
use snakeladder::design::Target;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match args::parse_band(text) {
        Ok(band) => {
            assert!(band.min().is_finite() && band.max().is_finite(), "{text:?}");
            assert!(band.min() <= band.max(), "{text:?}");
            Target::new(band.min(), band.max()).expect("a parsed band is a target");
        }
        Err(m) => assert!(!m.is_empty()),
    }
    match args::parse_advantage(text) {
        Ok(p) => assert!((0.0..=1.0).contains(&p), "{text:?} gave {p}"),
        Err(m) => assert!(!m.is_empty()),
    }
    match args::parse_jump(text) {
        Ok((a, b)) => assert!(text.contains(&a.to_string()) && text.contains(&b.to_string())),
        Err(m) => assert!(!m.is_empty()),
    }
    match memory::parse_work(text) {
        Ok(w) => assert!(w.is_finite() && w >= 0.0, "{text:?} gave {w}"),
        Err(m) => assert!(!m.is_empty()),
    }
    match memory::parse_bytes(text) {
        Ok(b) => assert!(b >= 1, "{text:?} gave {b}"),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    match parse_time_limit(text) {
        Ok(d) => assert!(d.as_secs_f64() > 0.0 && d.as_secs_f64() <= 366.0 * 86_400.0),
        Err(m) => assert!(!m.is_empty()),
    }
});
