//! Arbitrary bytes through the `absorbing` crate's readers: PRISM's and
//! Storm's explicit files (.tra, .lab, .srew) and the JSON form. The checks
//! live in `../chain_check.rs`, shared with the property test
//! `crates/absorbing/tests/input/fuzz_chain_files.rs`.
#![no_main]

#[path = "../chain_check.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
