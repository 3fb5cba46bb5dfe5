//! What the `chain_files` fuzz target checks on one input, shared with the
//! property test `crates/absorbing/tests/fuzz_chain_files.rs`, which runs
//! the same checks over random inputs under `cargo test` (no nightly
//! compiler needed).
//!
//! The input is split at `0xFF` bytes (which no text file of the formats
//! holds) into a transitions file, a labels file and a rewards file; each
//! reader gets its part, and the JSON reader gets the whole input. Every
//! reader either builds a chain that keeps the `Chain` invariants, or fails
//! with a bounded list of problems whose message displays. Any broken
//! invariant panics, which is what the fuzzer reports.

use absorbing::read::{Explicit, json, labels, to_json, transitions};
use absorbing::{Chain, Error, MAX_PROBLEMS, row_sum_tolerance};

/// A generous bound on one problem's message: every quoted piece of input
/// is cut to `MAX_QUOTE_CHARS`, a JSON message to 300 characters, and a
/// label list to twenty names.
const MAX_PROBLEM_CHARS: usize = 2_000;

/// Runs every check on one input.
pub fn check(data: &[u8]) {
    let mut parts = data.split(|&b| b == 0xFF);
    let tra = parts.next().unwrap_or_default();
    let lab = parts.next();
    let srew = parts.next();

    // The transitions file alone, and with the labels and rewards files,
    // with default and explicit choices of initial state and targets.
    outcome(Explicit::from_text(tra).read());
    let mut full = Explicit::from_text(tra);
    if let Some(lab) = lab {
        full = full.labels_text(lab);
    }
    if let Some(srew) = srew {
        full = full.rewards_text(srew);
    }
    outcome(full.clone().read());
    outcome(
        full.clone()
            .target_label("done")
            .initial_label("init")
            .read(),
    );
    outcome(full.target_states([0, 1]).initial_state(0).read());
    outcome(
        transitions(tra, None)
            .initial_state(0)
            .absorbing_targets()
            .build(),
    );
    if let Some(lab) = lab {
        match labels(lab, None, Some(8)) {
            Ok(l) => {
                for name in l.names() {
                    let states = l.states(name).expect("a declared label has states");
                    assert!(
                        states.windows(2).all(|w| w[0] < w[1]),
                        "label states sorted"
                    );
                    assert!(states.iter().all(|&s| s < 8), "label states in range");
                }
            }
            Err(e) => problems(&e),
        }
    }

    // JSON: the whole input; a chain read back from its own JSON is the
    // same chain.
    if let Some(chain) = outcome(json(data, None)) {
        let again = json(to_json(&chain).as_bytes(), None).expect("a chain's own JSON reads");
        same(&chain, &again);
    }
}

/// Checks a reader's result; the chain when there is one.
fn outcome(result: Result<Chain, Error>) -> Option<Chain> {
    match result {
        Ok(chain) => {
            invariants(&chain);
            Some(chain)
        }
        Err(e) => {
            problems(&e);
            None
        }
    }
}

fn problems(e: &Error) {
    let _ = e.kind();
    let listed = e.problems();
    assert!(
        listed.len() <= MAX_PROBLEMS,
        "{} problems listed",
        listed.len()
    );
    assert!(
        e.omitted() == 0 || listed.len() == MAX_PROBLEMS,
        "problems omitted before the list is full"
    );
    for p in listed {
        let text = p.to_string();
        assert!(
            text.len() <= MAX_PROBLEM_CHARS,
            "problem of {} bytes",
            text.len()
        );
        let _ = p.kind();
        let _ = p.location().file();
    }
    let text = e.to_string();
    assert!(text.len() <= (MAX_PROBLEMS + 2) * MAX_PROBLEM_CHARS);
}

/// The invariants `Chain` promises (crates/absorbing/src/chain.rs).
fn invariants(chain: &Chain) {
    let n = chain.len();
    assert!(n > 0, "a built chain has a state");
    let mut any_target = false;
    let mut entries = 0;
    for s in 0..n {
        any_target |= chain.is_target(s);
        let row: Vec<(usize, f64)> = chain.row(s).collect();
        entries += row.len();
        assert!(!row.is_empty(), "state {s} has no row");
        assert!(
            row.windows(2).all(|w| w[0].0 < w[1].0),
            "row {s} not increasing"
        );
        assert!(
            row.iter().all(|&(c, p)| c < n && p > 0.0 && p.is_finite()),
            "row {s}: {row:?}"
        );
        let sum: f64 = row.iter().map(|&(_, p)| p).sum();
        // The f64s of an exact row are each rounded once.
        let slack = row_sum_tolerance(row.len()) + row.len() as f64 * f64::EPSILON;
        assert!((sum - 1.0).abs() <= slack, "row {s} sums to {sum}");
        if let Some(exact) = chain.exact_row(s) {
            let exact: Vec<_> = exact.map(|(c, p)| (c, p.clone())).collect();
            assert_eq!(exact.len(), row.len());
            let total = exact
                .iter()
                .fold(num_rational::BigRational::default(), |acc, (_, p)| acc + p);
            assert_eq!(
                total,
                num_rational::BigRational::from_integer(1.into()),
                "exact row {s}"
            );
        }
    }
    assert_eq!(entries, chain.entries());
    assert!(any_target, "a built chain has a target");
    let initial = chain.initial();
    assert!(!initial.is_empty());
    assert!(initial.windows(2).all(|w| w[0].0 < w[1].0));
    assert!(initial.iter().all(|&(s, p)| (s as usize) < n && p > 0.0));
    let sum: f64 = initial.iter().map(|&(_, p)| p).sum();
    assert!((sum - 1.0).abs() <= 2.0 * row_sum_tolerance(initial.len()));
    if let Some(r) = chain.rewards() {
        assert_eq!(r.len(), n);
        assert!(r.iter().all(|&x| x >= 0.0 && x.is_finite()));
    }
}

fn same(a: &Chain, b: &Chain) {
    assert_eq!(a.len(), b.len());
    for s in 0..a.len() {
        assert_eq!(a.row(s).collect::<Vec<_>>(), b.row(s).collect::<Vec<_>>());
        let ea = a
            .exact_row(s)
            .map(|r| r.map(|(c, p)| (c, p.clone())).collect::<Vec<_>>());
        let eb = b
            .exact_row(s)
            .map(|r| r.map(|(c, p)| (c, p.clone())).collect::<Vec<_>>());
        assert_eq!(ea, eb);
        assert_eq!(a.is_target(s), b.is_target(s));
    }
    assert_eq!(a.initial(), b.initial());
    assert_eq!(a.rewards(), b.rewards());
}
