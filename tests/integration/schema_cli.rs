//! The JSON Schemas under `docs/schema/`: each is what `snakeladder schema
//! KIND` prints (generated from the types that write the JSON, so a stale
//! file fails here), and the real outputs of every JSON-writing command, on
//! ordinary and unusual boards, validate against them. The outputs are
//! checked against a strict copy of each schema that refuses keys it does not
//! list, so a key the schema forgot fails too; the published files allow
//! new keys, as the `schema` version promises.

use crate::support::{root, run};
use serde_json::Value;
use std::path::PathBuf;

const KINDS: [&str; 12] = [
    "analyze",
    "simulate",
    "check",
    "validate",
    "diff",
    "tune",
    "generate",
    "play",
    "board",
    "record",
    "chain",
    "chain-file",
];

fn schema_file(kind: &str) -> PathBuf {
    root().join(format!("docs/schema/{kind}.schema.json"))
}

/// The checked-in schema of `kind`, made strict: every object schema that
/// lists its properties refuses others.
fn strict_validator(kind: &str) -> jsonschema::Validator {
    let mut schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_file(kind)).unwrap()).unwrap();
    forbid_unlisted(&mut schema);
    jsonschema::options().build(&schema).unwrap()
}

fn forbid_unlisted(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(forbid_unlisted);
        }
        Value::Array(items) => items.iter_mut().for_each(forbid_unlisted),
        _ => {}
    }
}

#[track_caller]
fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .take(10)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// Runs a command that writes JSON on standard output and parses it.
#[track_caller]
fn json_of(args: &[&str], exit: i32) -> Value {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(exit),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn boards() -> Vec<String> {
    let mut boards: Vec<String> = std::fs::read_dir(root().join("boards"))
        .unwrap()
        .map(|e| format!("boards/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".json"))
        .collect();
    boards.sort();
    boards
}

#[test]
fn checked_in_schemas_are_what_the_program_prints() {
    for kind in KINDS {
        let out = run(&["schema", kind]);
        assert_eq!(out.status.code(), Some(0), "{kind}");
        let printed = String::from_utf8(out.stdout).unwrap();
        let file = std::fs::read_to_string(schema_file(kind)).unwrap_or_default();
        assert!(
            printed == file,
            "docs/schema/{kind}.schema.json is stale: regenerate it with \
             `cargo run -- schema {kind} > docs/schema/{kind}.schema.json`"
        );
        // Every description reads as prose, not as rustdoc.
        assert!(!printed.contains("](crate::"), "{kind}");
        assert!(!printed.contains("[`"), "{kind}");
    }
}

#[test]
fn analyze_outputs_follow_the_schema() {
    let validator = strict_validator("analyze");
    // A face of chance 1e-200: the float mean's error bound is infinite and
    // the mean is recomputed exactly, a warning in the JSON.
    let dir = tempfile::tempdir().unwrap();
    let loaded = dir.path().join("loaded.json");
    std::fs::write(
        &loaded,
        r#"{"squares": 4, "rules": {"dice": {"weights": [1e-200, 1]},
            "extra_turn": {"on": 1}, "overshoot": "bounce"}}"#,
    )
    .unwrap();
    let mut runs: Vec<(Vec<String>, i32)> = boards().into_iter().map(|b| (vec![b], 0)).collect();
    let extra: [&[&str]; 5] = [
        // The exact fraction, every seat of seven players, the sensitivity.
        &["--exact", "--players", "2,7", "--sensitivity"],
        // Optional figures skipped by the work limit, named in `skipped`.
        &["--max-work", "1000"],
        // One player: seat odds of a game of one.
        &["--players", "1"],
        &["boards/variant-extra-turn.json", "--exact"],
        &["boards/variant-chains-follow.json", "--sensitivity"],
    ];
    for args in extra {
        runs.push((args.iter().map(|s| s.to_string()).collect(), 0));
    }
    runs.push((vec![loaded.to_string_lossy().into_owned()], 0));
    let mut with_warning = false;
    let mut with_skipped = false;
    for (args, exit) in runs {
        let mut all = vec!["analyze", "--format", "json"];
        all.extend(args.iter().map(String::as_str));
        let doc = json_of(&all, exit);
        assert_valid(&validator, &doc, &format!("{all:?}"));
        with_warning |= !doc["warnings"].as_array().unwrap().is_empty();
        with_skipped |= !doc["skipped"].as_array().unwrap().is_empty();
    }
    assert!(with_skipped, "no run exercised `skipped`");
    assert!(with_warning, "no run exercised `warnings`");
    // A schema that accepted anything would prove nothing.
    let mut broken = json_of(&["analyze", "--format", "json"], 0);
    broken["turns"]["mean"] = Value::String("39.6".into());
    assert!(!validator.is_valid(&broken));
    let mut broken = json_of(&["analyze", "--format", "json"], 0);
    broken["turns"]["new_key"] = Value::Bool(true);
    assert!(!validator.is_valid(&broken));
}

#[test]
fn simulate_and_check_outputs_follow_the_schema() {
    let simulate = strict_validator("simulate");
    let check = strict_validator("check");
    for board in boards() {
        let doc = json_of(
            &[
                "simulate", &board, "--games", "300", "--seed", "1", "--format", "json",
            ],
            0,
        );
        assert_valid(&simulate, &doc, &board);
    }
    // One game: the standard errors cannot be estimated.
    let doc = json_of(
        &[
            "simulate",
            "--games",
            "1",
            "--players",
            "3",
            "--seed",
            "2",
            "--format",
            "json",
        ],
        0,
    );
    assert_valid(&simulate, &doc, "one game of three");
    for board in [
        "boards/milton-bradley.json",
        "boards/variant-extra-turn.json",
    ] {
        let doc = json_of(
            &[
                "check", board, "--games", "2000", "--seed", "1", "--format", "json",
            ],
            0,
        );
        assert_valid(&check, &doc, board);
        let mut broken = doc.clone();
        broken["board"] = Value::Null;
        assert!(!check.is_valid(&broken));
    }
}

#[test]
fn validate_and_diff_outputs_follow_the_schema() {
    let validate = strict_validator("validate");
    for (args, exit) in [
        (&["tests/invalid"][..], 1),
        (&["tests/review"], 1),
        (&["boards"], 0),
        (&["no-such.json"], 1),
    ] {
        let mut all = vec!["validate", "--format", "json"];
        all.extend(args);
        let doc = json_of(&all, exit);
        assert_valid(&validate, &doc, &format!("{all:?}"));
        assert_eq!(doc["schema"], 1);
    }
    let diff = strict_validator("diff");
    let doc = json_of(
        &[
            "diff",
            "boards/milton-bradley.json",
            "boards/althoen-1993.json",
            "--format",
            "json",
        ],
        0,
    );
    assert_valid(&diff, &doc, "diff");
    assert_eq!(doc["schema"], 1);
}

#[test]
fn board_files_and_records_follow_their_schemas() {
    let board = strict_validator("board");
    let mut files = boards();
    files.extend(
        ["tests/review/good.json", "tests/review/slow.json"]
            .iter()
            .map(|s| s.to_string()),
    );
    for file in &files {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
        assert_valid(&board, &doc, file);
    }
    // The shape is checked, not the layout: an unknown key or a jump of
    // three squares is refused, a snake that climbs is validation's to find.
    let unknown: Value = serde_json::json!({"squares": 10, "ladder": [[2, 7]]});
    assert!(!board.is_valid(&unknown));
    let triple: Value = serde_json::json!({"squares": 10, "ladders": [[2, 7, 9]]});
    assert!(!board.is_valid(&triple));

    let record = strict_validator("record");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let out = run(&[
        "play",
        "--players",
        "Ana,Bo,Cy",
        "--seed",
        "7",
        "--record",
        path.to_str().unwrap(),
        "boards/variant-extra-turn.json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_valid(&record, &doc, "record");
    let mut broken = doc.clone();
    broken["events"][0]["roll"] = Value::String("six".into());
    assert!(!record.is_valid(&broken));
}

/// `tune`, `generate` and `play` print JSON with `--format json`, like
/// every other command, and it follows their schemas. The board each
/// writes is in `board_file` (and the same as the file `-o` writes); the
/// game `play` prints is a record `--replay` reads back.
#[test]
fn tune_generate_and_play_outputs_follow_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let read = |path: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };

    let tune = strict_validator("tune");
    let tuned = file("tuned.json");
    for args in [
        vec!["boards/milton-bradley.json", "--target-turns", "30:32"],
        vec![
            "boards/milton-bradley.json",
            "--target-turns",
            "35:45",
            "--max-first-seat-advantage",
            "2%",
            "--max-changes",
            "1",
            "-o",
            &tuned,
        ],
        vec!["boards/seed-ten-squares.json", "--target-turns", "1:100"],
    ] {
        let mut all = vec!["tune"];
        all.extend(&args);
        all.extend(["--format", "json"]);
        let doc = json_of(&all, 0);
        assert_valid(&tune, &doc, &format!("{all:?}"));
        assert!(doc["mean_turns"].as_f64().is_some(), "{all:?}");
        if args.contains(&"-o") {
            assert_eq!(doc["written_to"], tuned.as_str());
            assert_eq!(doc["board_file"], read(&tuned), "{all:?}");
            assert!(doc["first_seat_advantage"].as_f64().unwrap() <= 0.02);
        }
    }
    let refused = run(&[
        "tune",
        "--target-turns",
        "30:32",
        "--format",
        "json",
        "-o",
        "-",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty());

    let generate = strict_validator("generate");
    let generated = file("generated.json");
    for args in [
        vec!["--squares", "30", "--snakes", "2", "--ladders", "3"],
        vec![
            "--squares",
            "40",
            "--snakes",
            "3",
            "--seed",
            "9",
            "-o",
            &generated,
        ],
        vec!["--squares", "60", "--target-turns", "10:20"],
    ] {
        let mut all = vec!["generate"];
        all.extend(&args);
        all.extend(["--format", "json"]);
        let doc = json_of(&all, 0);
        assert_valid(&generate, &doc, &format!("{all:?}"));
        assert_eq!(
            doc["search"].is_null(),
            !args.contains(&"--target-turns"),
            "{all:?}"
        );
        if args.contains(&"-o") {
            assert_eq!(doc["board_file"], read(&generated), "{all:?}");
            assert_eq!(doc["seed"], 9);
        } else {
            // The same board as the text format writes.
            let mut text = vec!["generate"];
            text.extend(&args);
            let out = run(&text);
            let board: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(doc["board_file"], board, "{all:?}");
        }
    }

    let play = strict_validator("play");
    let record = strict_validator("record");
    for board in boards() {
        let args = [
            "play",
            board.as_str(),
            "--players",
            "Ana,Bo,Cy",
            "--seed",
            "7",
            "--to-last",
            "--format",
            "json",
        ];
        let doc = json_of(&args, 0);
        assert_valid(&play, &doc, &format!("{args:?}"));
        assert_valid(&record, &doc["game"], &format!("{args:?} game"));
        assert_eq!(doc["seed_drawn"], false);
        assert!(doc["stopped"].is_null());
        let saved = file("game.json");
        std::fs::write(&saved, serde_json::to_vec(&doc["game"]).unwrap()).unwrap();
        let again = json_of(&["play", "--replay", &saved, "--format", "json"], 0);
        assert_eq!(again["game"], doc["game"], "{board}");
        assert_eq!(again["rolls"], doc["rolls"], "{board}");
    }
    // With --odds, the odds between turns are in the JSON (and its schema).
    let odds = [
        "play",
        "--players",
        "a,b",
        "--seed",
        "7",
        "--format",
        "json",
        "--odds",
    ];
    let doc = json_of(&odds, 0);
    assert_valid(&play, &doc, "--odds");
    assert!(doc["odds"].as_array().is_some_and(|o| !o.is_empty()));
    // JSON and the record cannot share standard output.
    let refused = [
        "play",
        "--players",
        "a,b",
        "--format",
        "json",
        "--record",
        "-",
    ];
    let out = run(&refused);
    assert_eq!(out.status.code(), Some(2), "{refused:?}");
    assert!(out.stdout.is_empty(), "{refused:?}");
}
