//! The sparse and the dense solver give the same analysis on random boards
//! up to 2,000 squares, and limits skip figures with a note instead of
//! dropping them.

use serde_json::Value;
use snakeladder::Seed;
use snakeladder::design::Layout;
use snakeladder::internals;
use snakeladder::internals::Chain;
use snakeladder::internals::RulesSpec;
use snakeladder::internals::{Method, factor_with};
use snakeladder::{Analysis, Options};

/// Every figure of the two analyses must agree to this, relative. Both
/// solve the same systems by direct methods in `f64`; the chains here have
/// condition numbers up to about 10⁶ (games of a few hundred turns over up
/// to 2,000 states), so each loses at most ~6 of 16 digits, and the issue
/// asks for 1e-9.
const RELATIVE: f64 = 1e-9;

/// Values below this are compared absolutely: a probability this small
/// (far tails, squares almost never reached) is printed as 0 anyway.
const ABSOLUTE: f64 = 1e-15;

#[track_caller]
fn agree(dense: &Value, sparse: &Value, path: &str) {
    match (dense, sparse) {
        (Value::Number(a), Value::Number(b)) => {
            let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            assert!(
                (a - b).abs() <= RELATIVE * a.abs().max(b.abs()) + ABSOLUTE,
                "{path}: dense {a} vs sparse {b}"
            );
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{path}: lengths");
            for (i, (a, b)) in a.iter().zip(b).enumerate() {
                agree(a, b, &format!("{path}[{i}]"));
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            let keys = |m: &serde_json::Map<String, Value>| {
                m.keys()
                    // Each solver bounds its own error from its own
                    // residual: the bounds differ, both far below 1e-9.
                    .filter(|k| {
                        !["solver", "mean_error_bound", "variance_error_bound"]
                            .contains(&k.as_str())
                    })
                    .cloned()
                    .collect::<Vec<_>>()
            };
            assert_eq!(keys(a), keys(b), "{path}: fields");
            for k in keys(a) {
                agree(&a[&k], &b[&k], &format!("{path}.{k}"));
            }
        }
        (a, b) => assert_eq!(a, b, "{path}"),
    }
}

fn rules(json: &str) -> Option<RulesSpec> {
    Some(serde_json::from_str(json).unwrap())
}

#[test]
fn sparse_and_dense_analyses_agree_on_random_boards() {
    let cases = [
        (60, 4, 4, None),
        (300, 15, 15, None),
        (
            400,
            20,
            20,
            rules(r#"{"dice": {"count": 2, "faces": 6}, "overshoot": "bounce"}"#),
        ),
        (
            500,
            10,
            10,
            rules(r#"{"extra_turn": {"on": 6, "max_extra": 2}, "start": 1}"#),
        ),
        (
            700,
            30,
            20,
            rules(r#"{"overshoot": "win", "entry": "six"}"#),
        ),
        (2_000, 40, 40, None),
    ];
    for (seed, (squares, snakes, ladders, rules)) in cases.into_iter().enumerate() {
        let mut layout = Layout::new(squares, snakes, ladders, Seed::new(seed as u64))
            .with_max_length(squares / 5);
        if let Some(rules) = rules {
            layout = layout.with_rules(rules);
        }
        let board = layout.generate().unwrap();
        let chain = Chain::compile(&board).unwrap();
        let options = Options::default();
        let run = |method| {
            let solver = factor_with(&chain, method).unwrap();
            assert_eq!(solver.method(), method);
            let a = internals::analysis_with_chain(&board, &chain, &solver, &options).unwrap();
            assert!(a.skipped.is_empty(), "{squares}: {:?}", a.skipped);
            serde_json::to_value(a).unwrap()
        };
        let (dense, sparse) = (run(Method::Dense), run(Method::Sparse));
        agree(&dense, &sparse, &format!("board {squares}"));
    }
}

#[test]
fn large_boards_switch_to_the_sparse_solver() {
    use snakeladder::internals::DENSE_MAX_STATES;
    assert_eq!(Method::for_states(DENSE_MAX_STATES), Method::Dense);
    assert_eq!(Method::for_states(DENSE_MAX_STATES + 1), Method::Sparse);
    let board = Layout::new(5_000, 100, 100, Seed::new(9))
        .generate()
        .unwrap();
    let chain = Chain::compile(&board).unwrap();
    let a = Analysis::new(&board, &Options::default()).unwrap();
    assert_eq!(a.solver, Method::Sparse);
    assert!(chain.len() > DENSE_MAX_STATES);
    // Internal consistency on the sparse path: the pmf sums to 1 − tail,
    // and its mean matches N·1 (the tail below 1e-12 moves the mean by
    // less than tail × the last turn counted).
    let total: f64 = a.turns.pmf.iter().sum();
    assert!((total + a.turns.tail - 1.0).abs() < 1e-12);
    let mean: f64 = a
        .turns
        .pmf
        .iter()
        .enumerate()
        .map(|(t, p)| (t + 1) as f64 * p)
        .sum();
    assert!(((mean - a.turns.mean) / a.turns.mean).abs() < 1e-9);
}

#[test]
fn optional_figures_past_the_work_limit_are_skipped_with_a_note() {
    let board = Layout::new(3_000, 60, 60, Seed::new(4)).generate().unwrap();
    let a = Analysis::new(&board, &Options::default().max_work(1e6)).unwrap();
    let skipped: Vec<String> = a
        .skipped
        .iter()
        .map(|s| format!("{:?}", s.figure))
        .collect();
    assert_eq!(
        skipped,
        ["Distribution", "Players", "RestProbabilities", "Jumps"]
    );
    assert!(a.turns.pmf.is_empty() && a.players.is_empty() && a.jumps.is_empty());
    assert!(a.squares.iter().all(|s| s.rest_probability.is_none()));
    // The essential figures are still there.
    let full = Analysis::new(&board, &Options::default()).unwrap();
    assert!(full.skipped.is_empty());
    assert_eq!(a.turns.mean, full.turns.mean);
    assert_eq!(a.turns.variance, full.turns.variance);
    let note = a.skipped[0].to_string();
    assert!(
        note.contains("multiply-adds") && note.contains("--max-work"),
        "{note}"
    );
}
