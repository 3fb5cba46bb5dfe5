use super::*;

fn check(text: &str) -> FileReport {
    Review::default().check_bytes("b.json", text.as_bytes())
}

fn at(f: &Finding) -> (Option<usize>, Option<usize>, Option<&str>, &str) {
    (f.line, f.column, f.field.as_deref(), f.kind.as_str())
}

#[test]
fn a_valid_board_has_no_findings() {
    let r = check(r#"{"squares": 10, "ladders": [[2, 7]]}"#);
    assert!(r.valid());
    assert!(r.findings.is_empty());
}

#[test]
fn each_problem_at_its_value() {
    let text = "{\n  \"squares\": 10,\n  \"ladders\": [[5, 3]],\n  \"snakes\": [\n    [4, 8]\n  ],\n  \"rules\": {\"dice\": {\"count\": 0}}\n}\n";
    let r = check(text);
    assert!(!r.valid());
    let got: Vec<_> = r.findings.iter().map(at).collect();
    assert_eq!(
        got,
        // In the order of their positions, not of the checks.
        [
            (Some(3), Some(15), Some("ladders[0]"), "ladder_descends"),
            (Some(5), Some(5), Some("snakes[0]"), "snake_climbs"),
            (Some(7), Some(31), Some("rules.dice.count"), "dice_count"),
        ]
    );
    assert_eq!(r.findings[1].message, "snakes[0] 4→8: a snake must go down");
}

#[test]
fn a_json_error_keeps_the_parser_position() {
    let r = check("{\"squares\": 10,\n \"ladder\": []}");
    assert_eq!(at(&r.findings[0]), (Some(2), Some(9), None, "json"));
    assert!(r.findings[0].message.contains("unknown field `ladder`"));
    let r = check("");
    assert_eq!(at(&r.findings[0]), (Some(1), Some(1), None, "json"));
}

#[test]
fn a_nested_rule_field_on_one_line() {
    let r = check(r#"{"squares": 10, "rules": {"extra_turn": {"on": 7}}}"#);
    assert_eq!(
        at(&r.findings[0]),
        (
            Some(1),
            Some(48),
            Some("rules.extra_turn.on"),
            "extra_turn_unrollable"
        )
    );
}

#[test]
fn policy_violations_on_the_squares_line_and_the_jump_line() {
    let text = "{\n  \"squares\": 10,\n  \"ladders\": [[2, 7]],\n  \"limits\": {\"max_mean_turns\": 1, \"min_jump_use\": 0.99}\n}";
    let r = check(text);
    let got: Vec<_> = r.findings.iter().map(at).collect();
    assert_eq!(
        got,
        [
            (Some(2), Some(14), Some("squares"), "max_mean_turns"),
            (Some(3), Some(15), Some("ladders[0]"), "min_jump_use"),
        ]
    );
}

#[test]
fn a_board_tightens_but_never_loosens_the_policy() {
    let text = r#"{"squares": 10, "limits": {"max_mean_turns": 1000}}"#;
    let review = Review {
        policy: Thresholds {
            max_mean_turns: Some(1.0),
            ..Thresholds::default()
        },
        ..Review::default()
    };
    let r = review.check_bytes("b.json", text.as_bytes());
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].kind, "max_mean_turns");
}

#[test]
fn warn_only_turns_a_kind_into_warnings() {
    let mut reports = [check(r#"{"squares": 10, "snakes": [[3, 8]], "width": 0}"#)];
    Finding::warn_only(
        reports.iter_mut().flat_map(|r| r.findings.iter_mut()),
        &BTreeSet::from(["snake_climbs".to_string()]),
    );
    let severities: Vec<_> = reports[0]
        .findings
        .iter()
        .map(|f| (f.kind.as_str(), f.severity))
        .collect();
    assert_eq!(
        severities,
        [
            ("snake_climbs", Severity::Warning),
            ("width_out_of_range", Severity::Error)
        ]
    );
    assert!(!reports[0].valid());
}
