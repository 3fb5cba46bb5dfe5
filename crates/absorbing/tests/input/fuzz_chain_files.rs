//! The fuzz target's checks (`fuzz/chain_check.rs`) over random inputs, so
//! `cargo test` runs them without cargo-fuzz or a nightly compiler.

#[path = "../../../../fuzz/chain_check.rs"]
mod check;

use proptest::prelude::*;

/// Pieces of the formats, so that random inputs reach past the first line.
const PIECES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "0.5",
    "1/2",
    "1/3",
    "2/3",
    "1",
    "-1",
    "0.1",
    "NaN",
    "inf",
    "1e-3",
    "99999999999999999999",
    "4000000000",
    " ",
    " ",
    " ",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\t",
    "dtmc",
    "ctmc",
    "#",
    "# Transitions (dtmc)",
    "-",
    ":",
    "0=\"init\"",
    "1=\"done\"",
    "#DECLARATION",
    "#END",
    "init",
    "done",
    "\u{ff}",
    "x",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\"states\":",
    "\"transitions\":",
    "\"initial\":",
    "\"target\":",
    "\"rewards\":",
    "\"absorbing\"",
    "\"1/2\"",
];

fn pieces() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..80).prop_map(|p| {
        p.concat()
            .into_bytes()
            .into_iter()
            // "\u{ff}" is two bytes in UTF-8: make it the 0xFF separator.
            .map(|b| if b == 0xC3 { 0xFF } else { b })
            .filter(|&b| b != 0xBF)
            .collect()
    })
}

/// Plausible explicit files: a header, transitions, labels and rewards
/// with small random numbers.
fn files() -> impl Strategy<Value = Vec<u8>> {
    let line = (
        0u8..5,
        0u8..5,
        prop::sample::select(&["1", "0.5", "1/2", "0", "0.25", "3/4", "2"][..]),
    );
    (
        1u8..5,
        prop::collection::vec(line, 0..12),
        prop::collection::vec((0u8..5, 0u8..2), 0..6),
        prop::collection::vec((0u8..5, 0u8..3), 0..4),
    )
        .prop_map(|(n, trans, labs, rews)| {
            let mut tra = format!("{n} {}\n", trans.len());
            for (f, t, p) in &trans {
                tra.push_str(&format!("{f} {t} {p}\n"));
            }
            let mut lab = String::from("0=\"init\" 1=\"done\"\n");
            for (s, l) in &labs {
                lab.push_str(&format!("{s}: {l}\n"));
            }
            let mut srew = String::new();
            for (s, r) in &rews {
                srew.push_str(&format!("{s} {r}\n"));
            }
            let mut out = tra.into_bytes();
            out.push(0xFF);
            out.extend(lab.bytes());
            out.push(0xFF);
            out.extend(srew.bytes());
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_break_no_invariant(data in prop::collection::vec(any::<u8>(), 0..300)) {
        check::check(&data);
    }

    #[test]
    fn random_pieces_break_no_invariant(data in pieces()) {
        check::check(&data);
    }

    #[test]
    fn random_files_break_no_invariant(data in files()) {
        check::check(&data);
    }
}

/// Inputs worth keeping: each once broke, or nearly broke, a reader.
#[test]
fn kept_inputs_break_no_invariant() {
    for input in [
        &b""[..],
        b"\xff\xff",
        b"1 1\n0 0 1\n\xff0=\"init\"\n0: 0\n\xff1 1\n0 5\n",
        b"dtmc\n0 0 1\xff#DECLARATION\ninit done\n#END\n0 init done\n",
        b"4000000000 1\n0 0 1\n",
        b"{\"states\": 1, \"transitions\": [[0, 0, 1]], \"initial\": 0, \"target\": \"absorbing\"}",
        b"{\"states\": 1, \"transitions\": [[0, 0, \"1e-4096\"], [0, 0, 1]], \"initial\": 0, \"target\": [0]}",
        b"2 2\n0 1 1e-400\n0 0 1\n1 1 1\n",
    ] {
        check::check(input);
    }
}

/// The fuzzer's corpus after two runs of `chain_files` (421 s, then 481 s
/// with inputs up to 4096 bytes), minimised with `cargo fuzz cmin`: each
/// input a little-endian `u32` length, then its bytes.
#[test]
fn the_minimised_fuzz_corpus_breaks_no_invariant() {
    let packed = include_bytes!("chain_corpus.bin");
    let mut rest = &packed[..];
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
    assert!(count >= 1_000, "{count} inputs");
}
