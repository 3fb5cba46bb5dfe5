//! The formats of `snakeladder validate`: text for people and editors,
//! JSON for scripts, GitHub Actions workflow commands, and SARIF 2.1.0 for
//! code-scanning services.

use serde::Serialize;
use serde_json::json;
use snakeladder::review::{FileReport, Finding, Severity};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The counts every format ends with.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    /// Errors about paths rather than board files (a directory without
    /// boards, an entry of one that cannot be read). Not in the JSON, whose
    /// findings list them already.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub other_errors: usize,
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
            other_errors: other
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .count(),
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
        // A path without boards fails the check though no board is
        // invalid: the line says why.
        if self.other_errors > 0 {
            let s = if self.other_errors == 1 { "" } else { "s" };
            line.push_str(&format!(", {} other error{s}", self.other_errors));
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
            crate::escape::terminal(&f.message)
        ));
    }
    out.push_str(&Tally::new(reports, other).line());
    out.push('\n');
    out
}

/// `validate --format json`: every file checked, every problem found and
/// the counts.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Json<'a> {
    /// The board files checked, in the order they were read.
    pub files: Vec<FileVerdict<'a>>,
    /// Every finding: about paths without boards first, then each file's.
    pub problems: Vec<&'a Finding>,
    /// The counts.
    pub summary: Tally,
}

/// One board file and whether it passed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
        let mut props = vec![format!("file={}", github_property(tidy(&f.file)))];
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

/// A workflow command's message ([`crate::escape::github_data`]).
fn github_data(text: &str) -> String {
    crate::escape::github_data(text)
}

/// A workflow command's property value
/// ([`crate::escape::github_property`]).
fn github_property(text: &str) -> String {
    crate::escape::github_property(text)
}

/// The URI of the SARIF 2.1.0 schema, as the log names it.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Where the relative URIs of a SARIF log are rooted: the `%SRCROOT%` the
/// log's `originalUriBaseIds` names, so that code scanning finds the file
/// whatever directory `validate` ran in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SarifRoot {
    /// The root (the repository's top directory, or `--sarif-root`), an
    /// absolute path.
    pub root: PathBuf,
    /// The directory the printed file names are relative to, an absolute
    /// path.
    pub cwd: PathBuf,
}

/// The name of the base URI relative file locations are given from.
pub const SRCROOT: &str = "%SRCROOT%";

/// SARIF 2.1.0: one run of the `snakeladder` driver, a rule per kind that
/// occurs (its descriptions and help from [`crate::kinds`]), a result per
/// finding with its region (columns in Unicode code points, as
/// the core's review counts them). With a `root`, a file below it is
/// given relative to [`SRCROOT`] and any other as an absolute `file:` URI;
/// without one, as printed, less a leading `./`.
pub fn sarif(
    reports: &[FileReport],
    other: &[Finding],
    version: &str,
    root: Option<&SarifRoot>,
) -> serde_json::Value {
    let findings: Vec<&Finding> = all(reports, other).collect();
    let kinds: Vec<&str> = {
        let mut k: Vec<&str> = findings.iter().map(|f| f.kind.as_str()).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    let rules: Vec<_> = kinds.iter().map(|k| rule(k, version)).collect();
    let results: Vec<_> = findings
        .iter()
        .map(|f| {
            let mut physical = json!({"artifactLocation": location(&f.file, root)});
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
    let mut run = json!({
        "tool": {"driver": {
            "name": "snakeladder",
            "version": version,
            "informationUri": readme_url(version, None),
            "rules": rules,
        }},
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if let Some(root) = root {
        let mut base = file_uri(&root.root);
        if !base.ends_with('/') {
            base.push('/');
        }
        run["originalUriBaseIds"] = json!({SRCROOT: {"uri": base}});
    }
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    })
}

/// The README this version documents, at the section `anchor`: the
/// package's repository when it names one, else its page on docs.rs.
fn readme_url(version: &str, anchor: Option<&str>) -> String {
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    let mut url = if repository.is_empty() {
        format!("https://docs.rs/crate/snakeladder/{version}")
    } else {
        format!("{repository}/blob/v{version}/README.md")
    };
    if let Some(anchor) = anchor {
        url.push('#');
        url.push_str(anchor);
    }
    url
}

/// The rule of one kind: its one-line and full descriptions, and help
/// pointing at the kind's section of the README.
fn rule(kind: &str, version: &str) -> serde_json::Value {
    let (short, full) = match crate::kinds::describe(kind) {
        Some(d) => (d.short.to_string(), d.full.to_string()),
        None => (kind.replace('_', " "), kind.replace('_', " ")),
    };
    let url = readme_url(version, Some(&crate::kinds::anchor(kind)));
    json!({
        "id": kind,
        "name": kind,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {
            "text": format!("{full} See {url}"),
            "markdown": format!("{full}\n\n[The `{kind}` problem in the README]({url})"),
        },
        "helpUri": url,
    })
}

/// A printed file name less its leading `./` (`./boards/a.json` is
/// `boards/a.json`); `.` alone is kept.
pub fn tidy(file: &str) -> &str {
    let mut rest = file;
    while let Some(r) = rest.strip_prefix("./") {
        if r.is_empty() {
            break;
        }
        rest = r.trim_start_matches('/');
    }
    rest
}

/// The artifact location of a printed file name: relative to the root when
/// below it, else an absolute `file:` URI; a name that is not a path
/// (`<stdin>`) as it is.
fn location(file: &str, root: Option<&SarifRoot>) -> serde_json::Value {
    if file.starts_with('<') {
        return json!({"uri": uri(file)});
    }
    let Some(root) = root else {
        return json!({"uri": uri(tidy(file))});
    };
    let path = Path::new(file);
    let absolute = normalize(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.cwd.join(path)
    });
    match absolute.strip_prefix(normalize(&root.root)) {
        Ok(relative) if !relative.as_os_str().is_empty() => {
            json!({"uri": uri(&relative.to_string_lossy()), "uriBaseId": SRCROOT})
        }
        _ => json!({"uri": file_uri(&absolute)}),
    }
}

/// A path with `.` dropped and `..` taken back, without looking at the file
/// system.
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// An absolute path as a `file:///` URI.
fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy();
    let encoded = uri(text.trim_start_matches('/'));
    format!("file:///{}", encoded.trim_start_matches("file://"))
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
        assert_eq!(
            file_uri(Path::new("/tmp/a b.json")),
            "file:///tmp/a%20b.json"
        );
    }

    #[test]
    fn locations_are_relative_to_the_root() {
        let root = SarifRoot {
            root: PathBuf::from("/repo"),
            cwd: PathBuf::from("/repo/sub"),
        };
        let at = |file| location(file, Some(&root));
        assert_eq!(
            at("./boards/a.json"),
            json!({"uri": "sub/boards/a.json", "uriBaseId": SRCROOT})
        );
        assert_eq!(
            at("../top.json"),
            json!({"uri": "top.json", "uriBaseId": SRCROOT})
        );
        assert_eq!(
            at("/repo/x/./y.json"),
            json!({"uri": "x/y.json", "uriBaseId": SRCROOT})
        );
        assert_eq!(
            at("/elsewhere/b.json"),
            json!({"uri": "file:///elsewhere/b.json"})
        );
        assert_eq!(at("<stdin>"), json!({"uri": "%3Cstdin%3E"}));
        assert_eq!(location("./a.json", None), json!({"uri": "a.json"}));
    }

    #[test]
    fn leading_dot_slashes_are_tidied() {
        assert_eq!(tidy("./a.json"), "a.json");
        assert_eq!(tidy("././/b/./c.json"), "b/./c.json");
        assert_eq!(tidy("./-x.json"), "-x.json");
        assert_eq!(tidy("."), ".");
        assert_eq!(tidy("./"), "./");
        assert_eq!(tidy("../a.json"), "../a.json");
    }
}
