//! The JSON form.

use super::{kinds, lines};
use absorbing::read::{json, to_json};
use absorbing::{Part, Place, ProblemKind};
use num_rational::BigRational;

fn r(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

const DIE: &str = r#"{
  "states": 3,
  "transitions": [[0, 1, "1/6"], [0, 2, "5/6"], [1, 1, 1], [2, 0, 1]],
  "initial": 0,
  "target": [1],
  "rewards": {"0": "1/2", "2": 1}
}"#;

#[test]
fn a_json_chain_reads_exactly() {
    let chain = json(DIE.as_bytes(), None).unwrap();
    let exact: Vec<_> = chain
        .exact_row(0)
        .unwrap()
        .map(|(c, p)| (c, p.clone()))
        .collect();
    assert_eq!(exact, [(1, r(1, 6)), (2, r(5, 6))]);
    assert_eq!(chain.rewards(), Some(&[0.5, 0.0, 1.0][..]));
    assert!(chain.is_target(1));
}

#[test]
fn json_numbers_other_than_integers_are_floats() {
    let text = r#"{"states": 2, "transitions": [[0, 0, 0.5], [0, 1, "0.5"], [1, 1, 1]],
                   "initial": {"0": 0.25, "1": "3/4"}, "target": "absorbing"}"#;
    let chain = json(text.as_bytes(), None).unwrap();
    assert!(chain.exact_row(0).is_none());
    assert_eq!(chain.initial(), [(0, 0.25), (1, 0.75)]);
    assert!(chain.is_target(1) && !chain.is_target(0));
}

#[test]
fn malformed_json_is_one_problem_at_its_line_and_column() {
    let err = json(
        b"{\"states\": 2,\n \"transition\": []}",
        Some("c.json".as_ref()),
    )
    .unwrap_err();
    let text = lines(&err).join("\n");
    assert!(
        text.starts_with("c.json:2:13: unknown field `transition`, expected one of"),
        "{text}"
    );
    let err = json(br#"{"states": 2, "transitions": [[0, 1, "0.5.5"]]}"#, None).unwrap_err();
    assert!(
        matches!(&kinds(&err)[..], [ProblemKind::Json { message }] if message == "\"0.5.5\" is not a number: a second '.'"),
        "{err}"
    );
    let err = json(
        br#"{"states": 2, "transitions": [], "initial": {"x": 1}, "target": []}"#,
        None,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("the key \"x\" is not a state number"),
        "{err}"
    );
    let err = json(
        br#"{"states": 2, "transitions": [], "initial": 0, "target": "all"}"#,
        None,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a list of state numbers, or \"absorbing\""),
        "{err}"
    );
    let err = json(br#"{"states": 2, "states": 3}"#, None).unwrap_err();
    assert!(
        err.to_string().contains("duplicate field `states`"),
        "{err}"
    );
    // An unknown field's name is quoted by serde_json: the message is cut.
    let long = format!("{{\"{}\": 1}}", "x".repeat(10_000));
    let err = json(long.as_bytes(), None).unwrap_err();
    assert!(err.to_string().len() < 400, "{}", err.to_string().len());
}

#[test]
fn bad_values_are_named_at_their_items() {
    let text = r#"{"states": 2, "transitions": [[0, 1, 0.5], [0, 1, 0.5], [1, 1, -1], [3, 1, 1]],
                   "initial": {"0": "1/2", "0": "1/2"}, "target": [1, 5], "rewards": [1, 2, 3]}"#;
    let err = json(text.as_bytes(), Some("bad.json".as_ref())).unwrap_err();
    assert_eq!(
        lines(&err),
        [
            "bad.json: transitions[2]: the probability -1 of the transition 1 -> 1 is negative",
            "bad.json: transitions[3]: the source state 3 is out of range: the chain has 2 states, 0 to 1",
            "bad.json: transitions[1]: the transition 0 -> 1 is given twice (first at bad.json: transitions[0])",
            "bad.json: target[1]: the target state 5 is out of range: the chain has 2 states, 0 to 1",
            "bad.json: initial[1]: state 0 is given two initial probabilities (first at bad.json: initial[0])",
            "bad.json: 3 rewards are given for 2 states",
        ]
    );
    assert_eq!(
        err.problems()[1].location().place(),
        &Place::Item {
            part: Part::Transition,
            index: 3
        }
    );
}

#[test]
fn a_chain_written_as_json_reads_back_the_same() {
    let chain = json(DIE.as_bytes(), None).unwrap();
    let text = to_json(&chain);
    let again = json(text.as_bytes(), None).unwrap();
    for s in 0..3 {
        assert_eq!(
            chain.row(s).collect::<Vec<_>>(),
            again.row(s).collect::<Vec<_>>()
        );
        let a: Vec<_> = chain
            .exact_row(s)
            .unwrap()
            .map(|(c, p)| (c, p.clone()))
            .collect();
        let b: Vec<_> = again
            .exact_row(s)
            .unwrap()
            .map(|(c, p)| (c, p.clone()))
            .collect();
        assert_eq!(a, b);
    }
    assert_eq!(chain.rewards(), again.rewards());
    assert!(text.contains("\"1/6\""), "{text}");
}

#[cfg(feature = "schema")]
#[test]
fn the_published_schema_is_the_generated_one() {
    let generated = serde_json::to_string_pretty(&absorbing::read::json_schema()).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/read/chain.schema.json");
    let published = std::fs::read_to_string(path).unwrap_or_default();
    if std::env::var_os("ABSORBING_BLESS").is_some() {
        std::fs::write(path, &generated).unwrap();
    } else {
        assert_eq!(
            published, generated,
            "run with ABSORBING_BLESS=1 to update {path}"
        );
    }
}
