//! The saved failing cases of the property tests are where proptest reads
//! them, so each runs again before any new case.
//!
//! proptest looks for a test file's saved cases beside the directory that
//! holds the crate's `main.rs`: for `tests/integration/NAME.rs` that is
//! `tests/proptest-regressions/NAME.txt`. A file anywhere else is never read
//! and its cases silently stop running; this test asks proptest itself,
//! through the same persistence the `proptest!` macro uses, to load every
//! saved case of every property-test module.

use proptest::test_runner::{FailurePersistence, FileFailurePersistence};
use std::path::Path;

/// The property-test modules with saved cases, by source file.
const SOURCES: [&str; 4] = [
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/analysis_props.rs"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/engine_properties.rs"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/exactness_props.rs"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/foundation_props.rs"
    ),
];

#[test]
fn every_saved_case_is_loaded_by_proptest() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proptest-regressions");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let source = SOURCES
            .iter()
            .find(|s| s.ends_with(&format!("/{stem}.rs")))
            .unwrap_or_else(|| panic!("{}: no property-test module of that name", path.display()));
        let saved = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("cc "))
            .count();
        let loaded = FileFailurePersistence::default()
            .load_persisted_failures2(Some(source))
            .len();
        assert!(saved > 0, "{}: no saved case", path.display());
        assert_eq!(
            loaded,
            saved,
            "{}: proptest loads {loaded} of {saved}",
            path.display()
        );
        files += 1;
    }
    assert_eq!(files, SOURCES.len());
    // No saved cases left where proptest does not look: beside the test
    // sources, or where they were before the tests became one binary.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let stray: Vec<_> = [root.join("tests"), root.join("tests/integration")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "proptest-regressions"))
        .collect();
    assert!(stray.is_empty(), "unread regression files: {stray:?}");
}
