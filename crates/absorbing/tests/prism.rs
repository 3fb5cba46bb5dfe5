//! Models nobody here wrote: the DTMCs of the PRISM benchmark suite
//! (CC-BY 4.0, tests/prism/NOTICE.md), built and exported to explicit files
//! by the Storm model checker (tests/prism/export.py, docs/prism-set.md).
//! Every reach probability and expected reward must be Storm's exact
//! result as the identical fraction, and every float must lie within its
//! printed bound of it.

use absorbing::answers::Options;
use absorbing::read::Explicit;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn prism() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prism")
}

/// The states that carry `label` in a Storm `.lab` file.
fn labelled(lab: &Path, label: &str) -> Vec<usize> {
    let text = std::fs::read(lab).unwrap();
    let labels = absorbing::read::labels(&text, Some(lab), None).unwrap();
    labels
        .states(label)
        .expect("the label is declared")
        .iter()
        .map(|&s| s as usize)
        .collect()
}

#[test]
fn every_committed_instance_matches_storms_exact_results() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(prism().join("expected.json")).unwrap())
            .unwrap();
    let mut checked = 0;
    for instance in expected["instances"].as_array().unwrap() {
        if instance["committed"] != true {
            continue;
        }
        let dir = prism().join(instance["name"].as_str().unwrap());
        let tra = dir.join(instance["files"]["tra"].as_str().unwrap());
        let lab = dir.join(instance["files"]["lab"].as_str().unwrap());
        for property in instance["properties"].as_array().unwrap() {
            let what = format!("{} {}", instance["name"], property["name"]);
            let target = property["target_label"].as_str().unwrap();
            let mut explicit = Explicit::new(&tra).labels(&lab).target_label(target);
            if let Some(reward) = property["reward_file"].as_str() {
                explicit = explicit.rewards(dir.join(reward));
            }
            // Storm's answer over several initial states is the maximum of
            // theirs: each is read from the per-state fractions.
            let over_init = property["init_filter"] == "max";
            if over_init {
                explicit = explicit.initial_state(0);
            }
            let chain = explicit.read().unwrap_or_else(|e| panic!("{what}: {e}"));
            let options = Options {
                exact: true,
                distribution: false,
                ..Options::default()
            };
            let answers = chain
                .answer(&options, None)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let exact = answers.exact().unwrap();
            let storm: BigRational = property["exact"].as_str().unwrap().parse().unwrap();
            let (fraction, float) = match (property["question"].as_str().unwrap(), over_init) {
                ("reach_probability", false) => {
                    (exact.reach_probability.clone(), answers.reach_probability())
                }
                ("expected_reward", false) => (
                    exact.expected_reward.clone().expect("finite"),
                    answers.expected_reward().unwrap().finite().unwrap(),
                ),
                ("expected_reward", true) => {
                    let best = labelled(&lab, instance["init_label"].as_str().unwrap())
                        .into_iter()
                        .map(|s| exact.expected_reward_from(s).expect("finite").clone())
                        .max()
                        .unwrap();
                    // The float side is checked at the state 0 read here.
                    let at_zero = exact.expected_reward_from(0).unwrap().to_f64().unwrap();
                    let f = answers.expected_reward().unwrap().finite().unwrap();
                    assert!((f.value - at_zero).abs() <= f.error_bound, "{what}");
                    (best, f)
                }
                (other, _) => panic!("{what}: a question this test does not know: {other}"),
            };
            assert_eq!(fraction, storm, "{what}: not Storm's fraction");
            if !over_init {
                let truth = storm.to_f64().unwrap();
                assert!(
                    (float.value - truth).abs() <= float.error_bound,
                    "{what}: {} is {:e} from Storm's {truth}, past its bound {:e}",
                    float.value,
                    (float.value - truth).abs(),
                    float.error_bound
                );
            }
            checked += 1;
        }
    }
    // Every committed property of the set (docs/prism-set.md).
    assert!(checked >= 18, "only {checked} properties checked");
}

/// Reading numbers straight into floats gives, bit for bit, the floats of
/// the exact fractions (both round once, correctly), on every committed
/// instance: the float answers do not depend on whether fractions were
/// asked for.
#[test]
fn floats_read_directly_are_the_fractions_rounded() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(prism().join("expected.json")).unwrap())
            .unwrap();
    let mut rows = 0;
    for instance in expected["instances"].as_array().unwrap() {
        if instance["committed"] != true {
            continue;
        }
        let dir = prism().join(instance["name"].as_str().unwrap());
        let tra = dir.join(instance["files"]["tra"].as_str().unwrap());
        let exact = Explicit::new(&tra)
            .initial_state(0)
            .target_states([0])
            .read()
            .unwrap();
        let floats = Explicit::new(&tra)
            .initial_state(0)
            .target_states([0])
            .floats()
            .read()
            .unwrap();
        assert!(floats.exact_row(0).is_none());
        for s in 0..exact.len() {
            let bits =
                |c: &absorbing::Chain| c.row(s).map(|(t, p)| (t, p.to_bits())).collect::<Vec<_>>();
            assert_eq!(
                bits(&exact),
                bits(&floats),
                "{} state {s}",
                instance["name"]
            );
            rows += 1;
        }
    }
    assert!(rows > 10_000, "only {rows} rows compared");
}
