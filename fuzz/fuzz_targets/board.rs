//! Arbitrary bytes through JSON parsing, validation, the move function and
//! the turn rule. The checks live in `../check.rs`, shared with the
//! regression test that replays every kept input under `cargo test`.
#![no_main]

#[path = "../check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
