//! Layout review for CI: every problem of a board file with its position
//! (file, line, column, field), policy checks on the exact figures, and the
//! findings CI services read (rendered by `snakeladder_render::validate`).
//!
//! [`Review::check_bytes`] turns one file's bytes into a [`FileReport`]: a JSON
//! error where the parser stopped, each validation [`Problem`] at the value
//! it is about, and, for a valid board, the
//! policy violations.

mod enforce;
mod lenient;
mod locate;

use crate::Problem;
use crate::markov::analysis::Limits;
use crate::policy::Thresholds;
use crate::{Board, BoardError, BoardSpec};
use locate::{FieldPath, Locator, Position};
use serde::Serialize;
use std::collections::BTreeSet;

/// How much a finding matters: an error fails the check, a warning does
/// not.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::review::{Review, Severity};

let report = Review::default().check_bytes("bad.json", br#"{"squares": 10, "snakes": [[4, 8]]}"#);
assert_eq!(report.findings[0].severity, Severity::Error);
assert!(!report.valid());
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails the check (exit 1).
    Error,
    /// Shown, but passes (`--warn-only KIND`).
    Warning,
}

/// One problem of one file, with where it is.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::review::{Review, Severity};

let json = "{\"squares\": 10,\n \"snakes\": [[4, 8]]}";
let report = Review::default().check_bytes("bad.json", json.as_bytes());
let finding = &report.findings[0];
assert_eq!((finding.kind.as_str(), finding.severity), ("snake_climbs", Severity::Error));
assert_eq!((finding.line, finding.field.as_deref()), (Some(2), Some("snakes[0]")));
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// The file, as printed (`snakeladder_render::escape::display_path`).
    pub file: String,
    /// The file as given, unescaped, when it is a path on disk
    /// ([`Finding::with_path`]): what a SARIF log and a GitHub annotation
    /// point at, since the printed name of a file whose name holds a
    /// control character names no file. Not in the JSON, which prints.
    #[serde(skip)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub path: Option<std::path::PathBuf>,
    /// 1-based line, when the problem has a place in the file.
    pub line: Option<usize>,
    /// 1-based column, in characters.
    pub column: Option<usize>,
    /// The field or jump it is about (`snakes[0]`, `rules.dice.count`).
    pub field: Option<String>,
    /// A short stable name (`snake_climbs`, `max_mean_turns`, `json`).
    pub kind: String,
    /// What is wrong, with the values involved.
    pub message: String,
    /// Error or warning.
    pub severity: Severity,
}

/// Everything found in one file.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::review::Review;

let report = Review::default().check_bytes("small.json", SMALL.as_bytes());
assert_eq!(report.file, "small.json");
assert!(report.findings.is_empty() && report.valid());
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileReport {
    /// The file, as printed.
    pub file: String,
    /// Its findings, in file order.
    pub findings: Vec<Finding>,
}

impl FileReport {
    /// Whether the file passes: no finding is an error.
    pub fn valid(&self) -> bool {
        self.findings.iter().all(|f| f.severity != Severity::Error)
    }

    /// The report with `path`, the file as given, on every finding
    /// ([`Finding::with_path`]).
    ///
    /// # Example
    /// ```
    /// use snakeladder::review::Review;
    /// use std::path::Path;
    ///
    /// let report = Review::default()
    ///     .check_bytes(r"a\nb.json", br#"{"squares": 10, "snakes": [[4, 8]]}"#)
    ///     .with_path(Path::new("a\nb.json"));
    /// assert_eq!(report.findings[0].path.as_deref(), Some(Path::new("a\nb.json")));
    /// ```
    pub fn with_path(mut self, path: &std::path::Path) -> FileReport {
        for f in &mut self.findings {
            f.path = Some(path.to_path_buf());
        }
        self
    }
}

/// What a review checks beyond validity.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::policy::Thresholds;
use snakeladder::review::Review;

let policy = Thresholds { max_mean_turns: Some(10.0), ..Thresholds::default() };
let review = Review { policy, ..Review::default() };
let report = review.check_bytes("small.json", SMALL.as_bytes());
// The board is valid, but its games last 11.6 turns on average.
assert_eq!(report.findings[0].kind, "max_mean_turns");
assert!(!report.valid());
```
"##
)]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// The policy; a board's own `limits` tighten it.
    pub policy: Thresholds,
    /// Memory and work allowed to each board's analysis.
    pub limits: Limits,
}

/// The value a validation problem is about.
pub(crate) fn field_of(problem: &Problem, spec: &BoardSpec) -> FieldPath {
    let jump = |j: &crate::JumpRef| FieldPath::key(j.list_name()).index(j.index);
    match problem {
        Problem::SquaresOutOfRange { .. }
        | Problem::TooLargeToCheck { .. }
        | Problem::Unwinnable { .. } => FieldPath::key("squares"),
        Problem::WidthOutOfRange { .. } => FieldPath::key("width"),
        Problem::NameCharacter { .. } => FieldPath::key("name"),
        Problem::StartOutOfRange { .. } => FieldPath::key("rules.start"),
        Problem::TooManyJumps { .. } => FieldPath::key(if spec.snakes.len() > spec.ladders.len() {
            "snakes"
        } else {
            "ladders"
        }),
        Problem::JumpStartsOnStart { jump: j, .. }
        | Problem::JumpStartsOnLast { jump: j, .. }
        | Problem::JumpStartOffBoard { jump: j, .. }
        | Problem::JumpEndOffBoard { jump: j, .. }
        | Problem::JumpGoesNowhere { jump: j }
        | Problem::SnakeClimbs { jump: j }
        | Problem::LadderDescends { jump: j }
        | Problem::DuplicateStart { second: j, .. }
        | Problem::Chain { jump: j, .. } => jump(j),
        Problem::ChainCycle { squares } => {
            // The cycle's jump from its smallest square, as written.
            let first = squares.first().map(|&s| i64::from(s));
            let find = |pairs: &[[i64; 2]], key| {
                pairs
                    .iter()
                    .position(|p| Some(p[0]) == first)
                    .map(|i| FieldPath::key(key).index(i))
            };
            find(&spec.ladders, "ladders")
                .or_else(|| find(&spec.snakes, "snakes"))
                .unwrap_or_else(|| FieldPath::key("squares"))
        }
        Problem::DiceMixed | Problem::DiceTooWide { .. } | Problem::WeightsAllZero => {
            FieldPath::key("rules.dice")
        }
        Problem::WeightsOverflow => FieldPath::key("rules.dice.weights"),
        Problem::DiceCount { .. } => FieldPath::key("rules.dice.count"),
        Problem::DiceFaces { .. } => {
            let weighted = spec
                .rules
                .as_ref()
                .and_then(|r| r.dice.as_ref())
                .is_some_and(|d| d.faces.is_none() && d.weights.is_some());
            FieldPath::key(if weighted {
                "rules.dice.weights"
            } else {
                "rules.dice.faces"
            })
        }
        Problem::WeightNegative { face, .. }
        | Problem::WeightNotFinite { face }
        | Problem::WeightTooSmall { face, .. } => {
            FieldPath::key("rules.dice.weights").index(*face as usize - 1)
        }
        Problem::ExtraTurnUnrollable { .. } => FieldPath::key("rules.extra_turn.on"),
        Problem::ExtraTurnMaxExtra { .. } => FieldPath::key("rules.extra_turn.max_extra"),
        Problem::ExtraTurnForfeitAfter { .. } => FieldPath::key("rules.extra_turn.forfeit_after"),
        Problem::EndlessExtraRolls { .. } => FieldPath::key("rules.extra_turn"),
        Problem::LimitOutOfRange { key, .. } => FieldPath::key("limits").and(key),
    }
}

impl FieldPath {
    fn and(mut self, key: &str) -> FieldPath {
        self.0.push(locate::Segment::Key(key.to_string()));
        self
    }
}

impl Review {
    /// Checks one board file's bytes: parse, validate, locate every
    /// problem, and check a valid board against the review's policy
    /// tightened by the board's own `limits`. `file` is the name printed.
    ///
    /// # Example
    /// ```
    /// use snakeladder::review::Review;
    ///
    /// let text = r#"{"squares": 10, "snakes": [[3, 8]]}"#;
    /// let report = Review::default().check_bytes("b.json", text.as_bytes());
    /// assert!(!report.valid());
    /// let finding = &report.findings[0];
    /// assert_eq!((finding.kind.as_str(), finding.line), ("snake_climbs", Some(1)));
    /// ```
    pub fn check_bytes(&self, file: &str, bytes: &[u8]) -> FileReport {
        check_board_bytes(file, bytes, self, None)
    }

    /// [`Review::check_bytes`], the policy's analysis stopped once `stop`
    /// is set (its thresholds then reported as unchecked): for a front end
    /// whose request may be given up while it is checked.
    ///
    /// # Example
    /// ```
    /// use snakeladder::policy::Thresholds;
    /// use snakeladder::review::Review;
    /// use std::sync::Arc;
    /// use std::sync::atomic::AtomicBool;
    ///
    /// let policy = Thresholds { max_mean_turns: Some(10.0), ..Thresholds::default() };
    /// let review = Review { policy, ..Review::default() };
    /// let text = br#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
    /// let report = review.check_bytes_until("b.json", text, Arc::new(AtomicBool::new(true)));
    /// assert_eq!(report.findings[0].kind, "policy_unchecked");
    /// ```
    pub fn check_bytes_until(
        &self,
        file: &str,
        bytes: &[u8],
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> FileReport {
        check_board_bytes(file, bytes, self, Some(&stop))
    }
}

/// [`Review::check_bytes`].
fn check_board_bytes(
    file: &str,
    bytes: &[u8],
    review: &Review,
    stop: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> FileReport {
    // Positions are counted after a byte-order mark, as editors count them.
    let bytes = crate::model::error::without_bom(bytes);
    let finding =
        |at: Option<Position>, field: Option<String>, kind: &str, message: String| Finding {
            file: file.to_string(),
            path: None,
            line: at.map(|p| p.line),
            column: at.map(|p| p.column),
            field,
            kind: kind.to_string(),
            message,
            severity: Severity::Error,
        };
    // The one parser every board goes through, so validate's messages are
    // those of every other command.
    let spec: BoardSpec = match crate::model::error::parse_spec(bytes) {
        Ok(spec) => spec,
        Err(e) => {
            let findings = unparsed_findings(bytes, e, &finding);
            return FileReport {
                file: file.to_string(),
                findings,
            };
        }
    };
    let findings = match Board::from_spec(&spec) {
        Err(err) => problem_findings(bytes, &spec, err.problems(), &finding),
        Ok(board) => policy_findings(bytes, &board, &spec, (review, stop), &finding),
    };
    FileReport {
        file: file.to_string(),
        findings,
    }
}

/// The findings of a file that did not parse as a board (`e`, a JSON
/// error): the error at its position, then what the rest of a
/// well-formed file still shows, in file order.
fn unparsed_findings(
    bytes: &[u8],
    e: BoardError,
    finding: &impl Fn(Option<Position>, Option<String>, &str, String) -> Finding,
) -> Vec<Finding> {
    let BoardError::Json {
        line,
        column,
        message,
        ..
    } = e
    else {
        unreachable!("parse_spec fails only with a JSON error")
    };
    // Line 0 means the end of the input, which has no position.
    let at = (line > 0).then_some(Position {
        line,
        column: column.max(1),
    });
    let mut findings = vec![finding(at, None, "json", message)];
    // The rest of a well-formed file is still checked: one bad
    // value does not hide the jumps' problems.
    if let Some(rest) = lenient::read_on(bytes) {
        let mut fields: Vec<FieldPath> = rest
            .dropped
            .iter()
            .map(|(path, _)| FieldPath(path.iter().cloned().map(locate::Segment::Key).collect()))
            .collect();
        let problem_fields: Vec<FieldPath> = rest
            .problems
            .iter()
            .map(|p| field_of(p, &rest.spec))
            .collect();
        fields.extend(problem_fields.iter().cloned());
        let locator = std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| Locator::for_paths(text, &fields));
        let at = |field: &FieldPath| locator.as_ref().map(|l| l.nearest(field));
        for ((_, message), field) in rest.dropped.iter().zip(&fields) {
            findings.push(finding(
                at(field),
                Some(field.to_string()),
                "json",
                message.clone(),
            ));
        }
        for (p, field) in rest.problems.iter().zip(&problem_fields) {
            let name = (!field.is_root()).then(|| field.to_string());
            findings.push(finding(at(field), name, p.kind(), p.to_string()));
        }
        findings.sort_by_key(|f| (f.line, f.column));
    }
    findings
}

/// The findings of a board that parsed as `spec` but is not valid
/// (`problems`), located in `bytes`.
fn problem_findings(
    bytes: &[u8],
    spec: &BoardSpec,
    problems: &[Problem],
    finding: &impl Fn(Option<Position>, Option<String>, &str, String) -> Finding,
) -> Vec<Finding> {
    // The first few of each kind, then one finding counting the
    // rest of that kind: a file of millions of problems is listed
    // in a few lines in every format.
    let (problems, more) = crate::model::error::listed(problems);
    let fields: Vec<FieldPath> = problems.iter().map(|p| field_of(p, spec)).collect();
    // The bytes parsed as JSON, so they are UTF-8.
    let locator = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| Locator::for_paths(text, &fields));
    let mut found: Vec<Finding> = problems
        .iter()
        .zip(fields)
        .map(|(p, field)| {
            let at = locator.as_ref().map(|l| l.nearest(&field));
            let name = (!field.is_root()).then(|| field.to_string());
            finding(at, name, p.kind(), p.to_string())
        })
        .collect();
    // In file order (stable: problems on one value keep the order
    // validation found them in); the count of those not listed last.
    found.sort_by_key(|f| (f.line, f.column));
    found.extend(
        more.into_iter()
            .map(|(kind, n)| finding(None, None, kind, crate::model::error::not_listed(kind, n))),
    );
    found
}

/// The findings of a valid `board` (written as `spec`) against the
/// review's policy tightened by the board's own `limits`, located in
/// `bytes`.
fn policy_findings(
    bytes: &[u8],
    board: &Board,
    spec: &BoardSpec,
    (review, stop): (
        &Review,
        Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ),
    finding: &impl Fn(Option<Position>, Option<String>, &str, String) -> Finding,
) -> Vec<Finding> {
    let policy = match &spec.limits {
        Some(own) => review.policy.tightened_by(own),
        None => review.policy.clone(),
    };
    let violations = enforce::check_until(board, spec, &policy, &review.limits, stop);
    if violations.is_empty() {
        Vec::new()
    } else {
        let locator = std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| Locator::for_paths(text, violations.iter().map(|v| &v.field)));
        let mut found: Vec<Finding> = violations
            .into_iter()
            .map(|v| {
                let at = locator.as_ref().map(|l| l.nearest(&v.field));
                finding(at, Some(v.field.to_string()), v.kind, v.message)
            })
            .collect();
        // In file order; the sort is stable, so findings on one
        // value keep the order of the thresholds.
        found.sort_by_key(|f| (f.line, f.column));
        found
    }
}

impl Finding {
    /// The kind of the finding raised when the policy could not be checked.
    pub const UNCHECKED: &str = enforce::UNCHECKED;

    /// A finding about a file that could not be read, or a path that holds
    /// no board: no line, no column.
    pub fn file_error(file: &str, kind: &str, message: String) -> Finding {
        Finding {
            file: file.to_string(),
            path: None,
            line: None,
            column: None,
            field: None,
            kind: kind.to_string(),
            message,
            severity: Severity::Error,
        }
    }

    /// The finding with `path`, the file as given, beside its printed
    /// name.
    pub fn with_path(mut self, path: &std::path::Path) -> Finding {
        self.path = Some(path.to_path_buf());
        self
    }

    /// Turns the findings of the given kinds into warnings.
    pub fn warn_only<'a>(
        findings: impl IntoIterator<Item = &'a mut Finding>,
        kinds: &BTreeSet<String>,
    ) {
        for f in findings {
            if kinds.contains(&f.kind) {
                f.severity = Severity::Warning;
            }
        }
    }
}

#[cfg(test)]
mod tests;
