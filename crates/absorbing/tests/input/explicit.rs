//! PRISM's and Storm's explicit files: .tra, .lab, .srew.

use super::{kinds, lines};
use absorbing::read::{Explicit, labels, transitions};
use absorbing::{Chain, ChainBuilder, ErrorKind, MAX_PROBLEMS, ProblemKind, Value};
use num_rational::BigRational;
use proptest::prelude::*;

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

fn exact_row(chain: &Chain, s: usize) -> Option<Vec<(usize, BigRational)>> {
    chain
        .exact_row(s)
        .map(|row| row.map(|(c, p)| (c, p.clone())).collect())
}

/// Whether two chains are the same: rows (float and exact), targets,
/// initial distribution and rewards.
fn same(a: &Chain, b: &Chain) -> bool {
    a.len() == b.len()
        && (0..a.len()).all(|s| {
            a.row(s).eq(b.row(s))
                && exact_row(a, s) == exact_row(b, s)
                && a.is_target(s) == b.is_target(s)
        })
        && a.initial() == b.initial()
        && a.rewards() == b.rewards()
}

const PRISM_TRA: &str = "# Transitions (dtmc)\n4 5\n0 1 0.5\n0 2 0.5\n1 3 1\n2 2 1\n3 3 1\n";
const PRISM_LAB: &str =
    "# Labels\n0=\"init\" 1=\"deadlock\" 2=\"win\" 3=\"lose\"\n0: 0\n2: 3\n3: 2\n";
const STORM_TRA: &str = "dtmc\n0 1 0.5\n0 2 0.5\n1 3 1\n2 2 1\n3 3 1\n";
const STORM_LAB: &str = "#DECLARATION\ninit deadlock win lose\n#END\n0 init\n2 lose\n3 win\n";

#[test]
fn prism_and_storm_files_read_to_the_same_chain() {
    let prism = Explicit::from_text(PRISM_TRA)
        .labels_text(PRISM_LAB)
        .target_label("win")
        .read()
        .unwrap();
    let storm = Explicit::from_text(STORM_TRA)
        .labels_text(STORM_LAB)
        .target_label("win")
        .read()
        .unwrap();
    assert!(same(&prism, &storm));
    assert_eq!(prism.len(), 4);
    let targets: Vec<usize> = (0..4).filter(|&s| prism.is_target(s)).collect();
    assert_eq!(targets, [3]);
    assert_eq!(prism.initial(), [(0, 1.0)]);
    assert_eq!(exact_row(&prism, 0).unwrap(), [(1, r(1, 2)), (2, r(1, 2))]);
}

#[test]
fn both_label_forms_read_to_the_same_labels() {
    let prism = labels(PRISM_LAB.as_bytes(), None, Some(4)).unwrap();
    let storm = labels(STORM_LAB.as_bytes(), None, Some(4)).unwrap();
    assert_eq!(prism, storm);
    assert_eq!(prism.names(), ["init", "deadlock", "win", "lose"]);
    assert_eq!(prism.states("lose"), Some(&[2][..]));
    assert_eq!(prism.states("deadlock"), Some(&[][..]));
}

#[test]
fn by_default_the_targets_are_the_absorbing_states() {
    let chain = Explicit::from_text(PRISM_TRA)
        .labels_text(PRISM_LAB)
        .read()
        .unwrap();
    let targets: Vec<usize> = (0..4).filter(|&s| chain.is_target(s)).collect();
    assert_eq!(targets, [2, 3]);
    let b = transitions(PRISM_TRA.as_bytes(), None);
    assert_eq!(b.absorbing_states(), [2, 3]);
}

#[test]
fn decimals_are_read_exactly() {
    let chain = Explicit::from_text("4 5\n0 1 0.1\n0 2 0.2\n0 3 0.7\n1 1 1\n2 2 1e0\n")
        .target_states([3])
        .read()
        .unwrap();
    assert_eq!(
        exact_row(&chain, 0).unwrap(),
        [(1, r(1, 10)), (2, r(1, 5)), (3, r(7, 10))]
    );
    // Fractions too.
    let chain = Explicit::from_text("2 3\n0 0 1/3\n0 1 2/3\n1 1 1\n")
        .read()
        .unwrap();
    assert_eq!(exact_row(&chain, 0).unwrap(), [(0, r(1, 3)), (1, r(2, 3))]);
}

#[test]
fn a_float_printers_decimals_are_read_as_the_floats_they_are() {
    // PRISM writes 16 significant digits: a third is 0.3333333333333333.
    let tra = "4 6\n0 1 0.3333333333333333\n0 2 0.3333333333333333\n0 3 0.3333333333333333\n1 1 1\n2 2 1\n3 3 1\n";
    let chain = Explicit::from_text(tra).read().unwrap();
    assert!(
        exact_row(&chain, 0).is_none(),
        "a rounded row has no exact form"
    );
    assert!(exact_row(&chain, 1).is_none(), "nor has the chain");
    // Six digits are not a float's rounding: the row is named.
    let err =
        Explicit::from_text("4 6\n0 1 0.333333\n0 2 0.333333\n0 3 0.333333\n1 1 1\n2 2 1\n3 3 1\n")
            .read()
            .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::RowSum {
            state: 0,
            sum: Value::Exact(r(999_999, 1_000_000)),
            entries: 3,
            tolerance: None
        }]
    );
    // Fractions are meant exactly, however close.
    let err = Explicit::from_text("1 1\n0 0 9999999999999999/10000000000000000\n")
        .target_states([0])
        .read()
        .unwrap_err();
    assert!(matches!(
        kinds(&err)[..],
        [ProblemKind::RowSum { state: 0, .. }]
    ));
}

#[test]
fn crlf_and_blank_lines_and_comments_are_read_past() {
    let crlf = PRISM_TRA.replace('\n', "\r\n");
    let a = Explicit::from_text(crlf).read().unwrap();
    let b = Explicit::from_text(
        "\n# a comment\n4 5\n\n0 1 0.5\n0 2   0.5\n# mid\n1 3 1\n2\t2 1\n3 3 1",
    )
    .read()
    .unwrap();
    let c = Explicit::from_text(PRISM_TRA).read().unwrap();
    assert!(same(&a, &c) && same(&b, &c));
}

#[test]
fn problems_name_file_line_and_column() {
    let err = Explicit::from_text("3 5\n0 1 0.5\n0 9 0.5\n1 1 -1\n2 2 x\n")
        .target_states([2])
        .read()
        .unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "<tra>:5:5: \"x\" is not a probability: the character 'x'",
            "<tra>:1:3: the header declares 5 transitions, but the file has 4",
            "<tra>:3:1: the destination state 9 is out of range: the chain has 3 states, 0 to 2",
            "<tra>:4:1: the probability -1 of the transition 1 -> 1 is negative",
        ]
    );
}

#[test]
fn a_bad_header_is_named() {
    let err = Explicit::from_text("3 x\n0 0 1\n").read().unwrap_err();
    assert!(matches!(
        &kinds(&err)[0],
        ProblemKind::BadNumber { text, expected: "a number of transitions", .. } if text == "x"
    ));
    let err = Explicit::from_text("-3 4\n0 0 1\n").read().unwrap_err();
    assert_eq!(
        lines(&err)[0],
        "<tra>:1:1: \"-3\" is not a number of states: it has the character '-'"
    );
    let err = Explicit::from_text("ctmc\n0 0 1\n").read().unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::ModelType {
            found: "ctmc".into()
        }]
    );
    let err = Explicit::from_text("# Transitions (mdp)\n1 1\n0 0 1\n")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::ModelType {
            found: "mdp".into()
        }]
    );
    let err = Explicit::from_text("").read().unwrap_err();
    assert!(
        lines(&err)
            .iter()
            .any(|l| l.contains("the file has no transition")),
        "{err}"
    );
}

#[test]
fn malformed_transition_lines_are_each_named() {
    let tra = "3 5\n0 1\n0 1 0.5 0.5\n0 2 0.5 go\n1 1 1 2x\n2 2 1 2 3 4\nabc 1 1\n";
    let err = Explicit::from_text(tra).read().unwrap_err();
    let got = lines(&err);
    assert_eq!(
        got[0],
        "<tra>:2:1: expected \"from to probability\", found 2 fields"
    );
    assert_eq!(got[1], "<tra>:3:9: \"0.5\" is not an action name");
    assert_eq!(got[2], "<tra>:5:7: \"2x\" is not an action name");
    assert_eq!(
        got[3],
        "<tra>:6:1: expected \"from to probability\", found more than 4 fields"
    );
    assert_eq!(
        got[4],
        "<tra>:7:1: \"abc\" is not a state number: it has the character 'a'"
    );
}

#[test]
fn duplicates_in_a_file_name_both_lines() {
    let err = Explicit::from_text("2 3\n0 1 0.5\n0 1 0.5\n1 1 1\n")
        .read()
        .unwrap_err();
    assert_eq!(
        lines(&err),
        ["<tra>:3:1: the transition 0 -> 1 is given twice (first at <tra>:2:1)"]
    );
}

#[test]
fn numbers_too_long_or_too_large_are_refused_unread() {
    let long = "1".repeat(absorbing::read::MAX_NUMBER_CHARS + 1);
    let tra = format!("1 3\n0 0 1e-99999\n0 0 {long}\n0 0 1e4097\n");
    let err = Explicit::from_text(tra)
        .target_states([0])
        .read()
        .unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "<tra>:2:5: \"1e-99999\" is not a probability: its exponent is larger than 4096 in magnitude",
            format!(
                "<tra>:3:5: \"{}…\" is not a probability: it is longer than 4096 characters",
                &long[..40]
            )
            .as_str(),
            "<tra>:4:5: \"1e4097\" is not a probability: its exponent is larger than 4096 in magnitude",
        ]
    );
}

#[test]
fn huge_header_counts_allocate_nothing() {
    let err = Explicit::from_text("1000000000000 1000000000000\n0 0 1\n")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [
            ProblemKind::CountMismatch {
                what: "transitions",
                declared: 1_000_000_000_000,
                found: 1
            },
            ProblemKind::TooManyStates {
                states: 1_000_000_000_000
            }
        ]
    );
    // Four billion states fit u32, but three lines give them no rows: the
    // deadlocks are counted, not listed one by one.
    let err = Explicit::from_text("4000000000 3\n0 0 1\n1 1 1\n2 2 1\n")
        .read()
        .unwrap_err();
    assert_eq!(err.problems().len(), MAX_PROBLEMS);
    assert_eq!(err.omitted() as u64, 4_000_000_000 - 3 - 100);
    assert_eq!(kinds(&err)[0], ProblemKind::Deadlock { state: 3 });
}

#[test]
fn a_huge_bad_file_gives_a_bounded_message() {
    let mut tra = String::from("500 500\n");
    for s in 0..500 {
        tra.push_str(&format!("{s} {s} -1\n"));
    }
    let err = Explicit::from_text(tra).read().unwrap_err();
    assert_eq!(err.problems().len(), MAX_PROBLEMS);
    // Every row is bad, so no state is absorbing: no target either.
    assert_eq!(err.omitted(), 401);
    assert_eq!(
        kinds(&err)[0],
        ProblemKind::NegativeTransition {
            from: 0,
            to: 0,
            value: Value::Exact(r(-1, 1))
        }
    );
    assert!(
        err.to_string().len() < 100 * 120,
        "{}",
        err.to_string().len()
    );
}

#[test]
fn labels_choose_the_initial_state_and_the_targets() {
    // "init" by default.
    let chain = Explicit::from_text(PRISM_TRA)
        .labels_text("0=\"init\" 1=\"win\"\n1: 0\n3: 1\n")
        .target_label("win")
        .read()
        .unwrap();
    assert_eq!(chain.initial(), [(1, 1.0)]);
    // Two init states: named, not guessed.
    let err = Explicit::from_text(PRISM_TRA)
        .labels_text("0=\"init\"\n0: 0\n1: 0\n")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::AmbiguousInitial {
            label: "init".into(),
            count: 2,
            states: vec![0, 1]
        }]
    );
    // No labels file: state 0, as PRISM; or a "- s" line.
    let chain = Explicit::from_text(PRISM_TRA).read().unwrap();
    assert_eq!(chain.initial(), [(0, 1.0)]);
    let chain = Explicit::from_text("4 5\n- 1 -\n0 1 0.5\n0 2 0.5\n1 3 1\n2 2 1\n3 3 1\n")
        .read()
        .unwrap();
    assert_eq!(chain.initial(), [(1, 1.0)]);
}

#[test]
fn unknown_and_empty_labels_are_named() {
    let err = Explicit::from_text(PRISM_TRA)
        .labels_text(PRISM_LAB)
        .target_label("goal")
        .read()
        .unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "<lab>: there is no label \"goal\" (the labels are \"init\", \"deadlock\", \"win\", \"lose\")"
        ]
    );
    let err = Explicit::from_text(PRISM_TRA)
        .labels_text(PRISM_LAB)
        .target_label("deadlock")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::EmptyLabel {
            label: "deadlock".into()
        }]
    );
    let err = Explicit::from_text(PRISM_TRA)
        .target_label("win")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::UnknownLabel {
            label: "win".into(),
            known: vec![]
        }]
    );
    // A labels file without "init", as PRISM refuses it.
    let err = Explicit::from_text(PRISM_TRA)
        .labels_text("0=\"win\"\n3: 0\n")
        .read()
        .unwrap_err();
    assert!(
        matches!(&kinds(&err)[..], [ProblemKind::UnknownLabel { label, .. }] if label == "init")
    );
}

#[test]
fn bad_label_lines_are_named() {
    let lab = "0=\"init\" 1=\"a\"\n0: 0\n1 1\nx: 0\n1: 5\n9: 0\n";
    let err = labels(lab.as_bytes(), None, Some(4)).unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "line 3, column 1: expected \"state: label label ...\"",
            "line 4, column 1: \"x\" is not a state number: it has the character 'x'",
            "line 5, column 4: the label 5 is not declared",
            "line 6, column 1: the labelled state 9 is out of range: the chain has 4 states, 0 to 3",
        ]
    );
    for (bad, want) in [
        (
            "1=\"init\"\n",
            "the label index 1 is out of order: expected 0",
        ),
        ("0=init\n", "expected a label declaration index=\"name\""),
        (
            "0=\"init\"1=\"x\"\n",
            "expected a space after a label declaration",
        ),
        ("0=\"\"\n", "a label's name is empty"),
        ("", "the labels file declares no label"),
        (
            "#DECLARATION\ninit\n",
            "#DECLARATION is not followed by #END",
        ),
    ] {
        let err = labels(bad.as_bytes(), None, None).unwrap_err();
        assert!(err.to_string().contains(want), "{bad:?}: {err}");
    }
    let err = labels(b"0=\"a\" 1=\"a\"\n", None, None).unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::DuplicateLabel { label: "a".into() }]
    );
    let err = labels(b"#DECLARATION\na\n#END\n0 b\n", None, None).unwrap_err();
    assert_eq!(
        kinds(&err),
        [ProblemKind::UndeclaredLabel {
            label: "\"b\"".into()
        }]
    );
}

#[test]
fn state_rewards_read_with_or_without_prisms_counts_line() {
    let prism = "# Reward structure \"r\"\n# State rewards\n4 2\n0 1.5\n1 1/2\n";
    let storm = "0 1.5\n1 0.5\n";
    let a = Explicit::from_text(PRISM_TRA)
        .rewards_text(prism)
        .read()
        .unwrap();
    let b = Explicit::from_text(PRISM_TRA)
        .rewards_text(storm)
        .read()
        .unwrap();
    assert_eq!(a.rewards(), Some(&[1.5, 0.5, 0.0, 0.0][..]));
    assert!(same(&a, &b));
    let err = Explicit::from_text(PRISM_TRA)
        .rewards_text("4 3\n0 1\n1 -2\n7 1\n")
        .read()
        .unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "<srew>:3:1: the reward -2 of state 1 is negative",
            "<srew>:4:1: the rewarded state 7 is out of range: the chain has 4 states, 0 to 3",
        ]
    );
    let err = Explicit::from_text(PRISM_TRA)
        .rewards_text("4 5\n0 1\n0 2\n")
        .read()
        .unwrap_err();
    assert_eq!(
        kinds(&err)[0],
        ProblemKind::CountMismatch {
            what: "rewards",
            declared: 5,
            found: 2
        }
    );
    assert!(matches!(
        kinds(&err)[1],
        ProblemKind::DuplicateReward { state: 0, .. }
    ));
}

#[test]
fn files_on_disk_are_named_in_problems() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("absorbing-explicit");
    std::fs::create_dir_all(&dir).unwrap();
    let tra = dir.join("m.tra");
    let lab = dir.join("m.lab");
    std::fs::write(&tra, "2 2\n0 1 0.5\n1 1 1\n").unwrap();
    std::fs::write(&lab, "0=\"init\"\n0: 0\n5: 0\n").unwrap();
    let err = Explicit::new(&tra).labels(&lab).read().unwrap_err();
    let want_lab = format!(
        "{}:3:1: the labelled state 5 is out of range",
        lab.display()
    );
    let want_tra = format!(
        "{}:2:1: the transitions out of state 0 sum to 1/2",
        tra.display()
    );
    let text = err.to_string();
    assert!(
        text.contains(&want_lab) && text.contains(&want_tra),
        "{text}"
    );
    let err = Explicit::new(dir.join("missing.tra")).read().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Io { .. }));
    assert!(err.to_string().contains("missing.tra: cannot read"));
}

#[test]
fn a_chains_rows_go_through_the_builder_and_the_reader_alike() {
    // The same checks whichever way a chain comes in.
    let from_text = Explicit::from_text("2 2\n0 0 0.5\n1 1 1\n")
        .read()
        .unwrap_err();
    let by_hand = ChainBuilder::new(2)
        .transition(0, 0, "0.5".parse::<Value>().unwrap())
        .transition(1, 1, "1".parse::<Value>().unwrap())
        .initial_state(0)
        .absorbing_targets()
        .build()
        .unwrap_err();
    assert_eq!(kinds(&from_text), kinds(&by_hand));
    assert_eq!(kinds(&by_hand).len(), 1);
    assert_eq!(
        kinds(&by_hand)[0],
        ProblemKind::RowSum {
            state: 0,
            sum: Value::Exact(r(1, 2)),
            entries: 1,
            tolerance: None
        }
    );
}

/// The explicit files of a chain, written the way PRISM writes them (exact
/// values as fractions, other values as the shortest decimal).
fn write_explicit(chain: &Chain) -> (String, String, Option<String>) {
    let n = chain.len();
    let mut tra = format!("# Transitions (dtmc)\n{n} {}\n", chain.entries());
    for s in 0..n {
        match chain.exact_row(s) {
            Some(row) => row.for_each(|(c, p)| tra.push_str(&format!("{s} {c} {p}\n"))),
            None => chain
                .row(s)
                .for_each(|(c, p)| tra.push_str(&format!("{s} {c} {p:?}\n"))),
        }
    }
    let mut lab = String::from("# Labels\n0=\"init\" 1=\"target\"\n");
    for s in 0..n {
        let init = chain.initial().iter().any(|&(i, _)| i as usize == s);
        let labels: Vec<&str> = [(init, "0"), (chain.is_target(s), "1")]
            .iter()
            .filter(|l| l.0)
            .map(|l| l.1)
            .collect();
        if !labels.is_empty() {
            lab.push_str(&format!("{s}: {}\n", labels.join(" ")));
        }
    }
    let srew = chain.rewards().map(|r| {
        let nonzero: Vec<(usize, f64)> = r
            .iter()
            .copied()
            .enumerate()
            .filter(|x| x.1 != 0.0)
            .collect();
        let mut out = format!(
            "# Reward structure \"r\"\n# State rewards\n{n} {}\n",
            nonzero.len()
        );
        for (s, x) in nonzero {
            out.push_str(&format!("{s} {x:?}\n"));
        }
        out
    });
    (tra, lab, srew)
}

/// A chain as random numbers: states, rows of `(column, weight)`, which
/// states are targets, the initial state, and a reward per state.
type RandomChain = (usize, Vec<Vec<(usize, u32)>>, Vec<bool>, usize, Vec<u32>);

/// A random chain of up to six states: each row a random split of one into
/// fractions over random columns, a random target set.
fn arbitrary_chain() -> impl Strategy<Value = RandomChain> {
    (1usize..7).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec(prop::collection::vec((0..n, 1u32..5), 1..4), n),
            prop::collection::vec(any::<bool>(), n),
            0..n,
            prop::collection::vec(0u32..4, n),
        )
    })
}

proptest! {
    /// Built by hand, written in PRISM's format, read back: the same chain.
    #[test]
    fn explicit_files_round_trip((n, rows, targets, init, rewards) in arbitrary_chain()) {
        let mut b = ChainBuilder::new(n);
        for (s, row) in rows.iter().enumerate() {
            // Merge repeated columns, then give each its share of one.
            let mut weights = std::collections::BTreeMap::new();
            for &(c, w) in row {
                *weights.entry(c).or_insert(0u32) += w;
            }
            let total: u32 = weights.values().sum();
            for (c, w) in weights {
                b.transition(s, c, Value::Exact(r(w.into(), total.into())));
            }
        }
        let mut targets: Vec<usize> = (0..n).filter(|&s| targets[s]).collect();
        if targets.is_empty() {
            targets.push(n - 1);
        }
        b.initial_state(init).targets(targets.clone());
        if rewards.iter().any(|&x| x > 0) {
            b.state_rewards(rewards.iter().map(|&x| x as f64).collect());
        }
        let chain = b.build().unwrap();
        let (tra, lab, srew) = write_explicit(&chain);
        let mut files = Explicit::from_text(tra.clone()).labels_text(lab).target_label("target");
        if let Some(srew) = srew {
            files = files.rewards_text(srew);
        }
        let again = files.read().map_err(|e| TestCaseError::fail(format!("{e}\n{tra}")))?;
        prop_assert!(same(&chain, &again), "{tra}");
        let json = absorbing::read::to_json(&chain);
        let again = absorbing::read::json(json.as_bytes(), None).unwrap();
        prop_assert!(same(&chain, &again), "{json}");
    }
}
