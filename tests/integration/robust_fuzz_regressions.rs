//! Replays inputs through the fuzz target's own checks (`fuzz/check.rs`), so
//! `cargo test` keeps every input a fuzzing run (or a property test) ever
//! broke the code with, without needing cargo-fuzz or a nightly compiler.
//!
//! Inputs: `tests/fuzz_regressions/` (each file a crash or a bug found; add
//! any new `fuzz/artifacts/board/crash-*` there); `tests/fuzz_corpus.bin`, the
//! fuzzer's corpus after about 31 minutes of runs, minimised with
//! `cargo fuzz cmin` (each input a little-endian `u32` length, then its bytes);
//! and every board, invalid example and hostile input of the repository.

#[allow(dead_code)]
#[path = "../../fuzz/check.rs"]
mod check;

use std::path::Path;

fn replay(dir: &str) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| check::check(&bytes));
        assert!(outcome.is_ok(), "{} breaks an invariant", path.display());
        count += 1;
    }
    count
}

#[test]
fn found_inputs_stay_fixed() {
    assert!(replay("tests/fuzz_regressions") >= 2);
}

#[test]
fn every_repository_board_passes_the_fuzz_checks() {
    assert!(replay("boards") >= 14);
    assert!(replay("tests/invalid") >= 27);
    assert!(replay("tests/hostile") >= 30);
}

#[test]
fn the_minimised_fuzz_corpus_passes() {
    let packed =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_corpus.bin")).unwrap();
    let mut rest = packed.as_slice();
    let mut count = 0;
    while !rest.is_empty() {
        let (len, tail) = rest.split_at(4);
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        let (input, tail) = tail.split_at(len);
        let outcome = std::panic::catch_unwind(|| check::check(input));
        assert!(
            outcome.is_ok(),
            "corpus input {count} breaks an invariant: {:?}",
            String::from_utf8_lossy(input)
        );
        rest = tail;
        count += 1;
    }
    assert!(count > 1000, "{count}");
}
