//! The formats of `snakeladder validate`: text for people and editors,
//! JSON for scripts, GitHub Actions workflow commands, and SARIF 2.1.0 for
//! code-scanning services.

use super::{FileReport, Finding, Severity};
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;

/// The counts every format ends with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Tally {
    /// Board files checked.
    pub files: usize,
    /// Files without errors.
    pub valid: usize,
    /// Files with at least one error.
    pub invalid: usize,
    /// Findings that are errors, paths without boards included.
    pub errors: usize,
    /// Findings that are warnings.
    pub warnings: usize,
    /// Findings of each kind.
    pub by_kind: BTreeMap<String, usize>,
}

impl Tally {
    /// Counts the reports of board files and the findings about paths
    /// (`other`: a directory without boards).
    pub fn new(reports: &[FileReport], other: &[Finding]) -> Tally {
        let valid = reports.iter().filter(|r| r.valid()).count();
        let all = || reports.iter().flat_map(|r| &r.findings).chain(other);
        let mut by_kind = BTreeMap::new();
        for f in all() {
            *by_kind.entry(f.kind.clone()).or_insert(0) += 1;
        }
        Tally {
            files: reports.len(),
            valid,
            invalid: reports.len() - valid,
            errors: all().filter(|f| f.severity == Severity::Error).count(),
            warnings: all().filter(|f| f.severity == Severity::Warning).count(),
            by_kind,
        }
    }

    /// Whether the check passes: no error anywhere.
    pub fn passed(&self) -> bool {
        self.errors == 0
    }

    /// One line: `3 boards checked: 2 valid, 1 invalid`, with warnings and
    /// other errors when there are any.
    pub fn line(&self) -> String {
        let boards = if self.files == 1 { "board" } else { "boards" };
        let mut line = format!(
            "{} {boards} checked: {} valid, {} invalid",
            self.files, self.valid, self.invalid
        );
        if self.warnings > 0 {
            let s = if self.warnings == 1 { "" } else { "s" };
            line.push_str(&format!(", {} warning{s}", self.warnings));
        }
        line
    }
}

fn all<'a>(reports: &'a [FileReport], other: &'a [Finding]) -> impl Iterator<Item = &'a Finding> {
    other.iter().chain(reports.iter().flat_map(|r| &r.findings))
}

/// Text, one line per finding as compilers print them
/// (`boards/x.json:12:5: snake_climbs: snakes[0] 4→98: a snake must go
/// down`; a warning says `warning:` before its kind), then the summary.
pub fn text(reports: &[FileReport], other: &[Finding]) -> String {
    let mut out = String::new();
    for f in all(reports, other) {
        out.push_str(&f.file);
        if let (Some(line), Some(column)) = (f.line, f.column) {
            out.push_str(&format!(":{line}:{column}"));
        }
        out.push_str(": ");
        if f.severity == Severity::Warning {
            out.push_str("warning: ");
        }
        out.push_str(&format!(
            "{}: {}\n",
            f.kind,
            super::escape::terminal(&f.message)
        ));
    }
    out.push_str(&Tally::new(reports, other).line());
    out.push('\n');
    out
}

/// `validate --format json`: every file checked, every problem found and
/// the counts.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Json<'a> {
    /// The board files checked, in the order they were read.
    pub files: Vec<FileVerdict<'a>>,
    /// Every finding: about paths without boards first, then each file's.
    pub problems: Vec<&'a Finding>,
    /// The counts.
    pub summary: Tally,
}

/// One board file and whether it passed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FileVerdict<'a> {
    /// The path as given (hidden characters escaped).
    pub file: &'a str,
    /// Whether the file has no error (warnings allowed).
    pub valid: bool,
}

/// JSON: `{"files": [{file, valid}], "problems": [{file, line, column,
/// field, kind, message, severity}], "summary": {files, valid, invalid,
/// errors, warnings, by_kind}}`.
pub fn json<'a>(reports: &'a [FileReport], other: &'a [Finding]) -> Json<'a> {
    Json {
        files: reports
            .iter()
            .map(|r| FileVerdict {
                file: &r.file,
                valid: r.valid(),
            })
            .collect(),
        problems: all(reports, other).collect(),
        summary: Tally::new(reports, other),
    }
}

/// GitHub Actions workflow commands, one per finding
/// (`::error file=…,line=…,col=…,title=…::…`), then the summary as a plain
/// line of the log.
pub fn github(reports: &[FileReport], other: &[Finding]) -> String {
    let mut out = String::new();
    for f in all(reports, other) {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut props = vec![format!("file={}", github_property(&f.file))];
        if let (Some(line), Some(column)) = (f.line, f.column) {
            props.push(format!("line={line}"));
            props.push(format!("col={column}"));
        }
        props.push(format!("title={}", github_property(&f.kind)));
        out.push_str(&format!(
            "::{command} {}::{}\n",
            props.join(","),
            github_data(&f.message)
        ));
    }
    out.push_str(&Tally::new(reports, other).line());
    out.push('\n');
    out
}

/// A workflow command's message ([`super::escape::github_data`]).
fn github_data(text: &str) -> String {
    super::escape::github_data(text)
}

/// A workflow command's property value
/// ([`super::escape::github_property`]).
fn github_property(text: &str) -> String {
    super::escape::github_property(text)
}

/// The URI of the SARIF 2.1.0 schema, as the log names it.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// SARIF 2.1.0: one run of the `snakeladder` driver, a rule per kind that
/// occurs, a result per finding with its region (columns in Unicode code
/// points, as [`super::locate`] counts them).
pub fn sarif(reports: &[FileReport], other: &[Finding], version: &str) -> serde_json::Value {
    let findings: Vec<&Finding> = all(reports, other).collect();
    let kinds: Vec<&str> = {
        let mut k: Vec<&str> = findings.iter().map(|f| f.kind.as_str()).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    let rules: Vec<_> = kinds
        .iter()
        .map(|k| json!({"id": k, "name": k, "shortDescription": {"text": rule_description(k)}}))
        .collect();
    let results: Vec<_> = findings
        .iter()
        .map(|f| {
            let mut physical = json!({"artifactLocation": {"uri": uri(&f.file)}});
            if let (Some(line), Some(column)) = (f.line, f.column) {
                physical["region"] = json!({"startLine": line, "startColumn": column});
            }
            let mut result = json!({
                "ruleId": f.kind,
                "ruleIndex": kinds.binary_search(&f.kind.as_str()).unwrap_or(0),
                "level": match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                },
                "message": {"text": f.message},
                "locations": [{"physicalLocation": physical}],
            });
            if let Some(field) = &f.field {
                result["locations"][0]["logicalLocations"] =
                    json!([{"fullyQualifiedName": field, "kind": "member"}]);
            }
            result
        })
        .collect();
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "snakeladder",
                "version": version,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

fn rule_description(kind: &str) -> String {
    match kind {
        "json" => "The file is not a board file".to_string(),
        "io" => "The file cannot be read".to_string(),
        "no_boards" => "A path holds no board file".to_string(),
        super::enforce::UNCHECKED => "The layout policy could not be checked".to_string(),
        k if crate::policy::KEYS.contains(&k) => format!("Layout policy: {k}"),
        k => format!("Invalid board: {}", k.replace('_', " ")),
    }
}

/// A path as a URI reference: unreserved characters and `/` kept,
/// everything else percent-encoded; an absolute path as a `file:` URI.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_command_values_are_escaped() {
        assert_eq!(github_data("50%\nnext"), "50%25%0Anext");
        assert_eq!(github_property("a:b,c"), "a%3Ab%2Cc");
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(uri("boards/a b.json"), "boards/a%20b.json");
        assert_eq!(uri("boards/→.json"), "boards/%E2%86%92.json");
        assert_eq!(uri("/tmp/a.json"), "file:///tmp/a.json");
    }
}
