//! The formats of `snakeladder validate`: text for people and editors,
//! JSON for scripts, GitHub Actions workflow commands, and SARIF 2.1.0 for
//! code-scanning services.

use serde::Serialize;
use serde_json::json;
use snakeladder::review::{FileReport, Finding, Severity};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

/// The counts every format ends with.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
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
        let mut tally = Tally::default();
        for f in other {
            tally.add_other(f);
        }
        for r in reports {
            tally.add_report(r);
        }
        tally
    }

    /// Counts one board file's report.
    pub fn add_report(&mut self, report: &FileReport) {
        self.files += 1;
        if report.valid() {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        for f in &report.findings {
            self.count(f);
        }
    }

    /// Counts one finding about a path rather than a board file.
    pub fn add_other(&mut self, finding: &Finding) {
        self.count(finding);
        if finding.severity == Severity::Error {
            self.other_errors += 1;
        }
    }

    fn count(&mut self, f: &Finding) {
        *self.by_kind.entry(f.kind.clone()).or_insert(0) += 1;
        match f.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
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
    collect(StreamFormat::Text, reports, other)
}

/// One finding as a line of [`text`].
fn text_line(f: &Finding) -> String {
    let mut out = f.file.clone();
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
    out
}

/// A whole document of a format that needs no spool, streamed into a
/// string.
fn collect(format: StreamFormat<'_>, reports: &[FileReport], other: &[Finding]) -> String {
    let mut out = Vec::new();
    // Writing into a vector cannot fail, and neither format spools.
    let written = (|| {
        let mut stream = Stream::new(&mut out, format, other)?;
        for r in reports {
            stream.file(r)?;
        }
        stream.finish().map(drop)
    })();
    written.expect("writing into memory");
    String::from_utf8(out).expect("every part is UTF-8")
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
    collect(StreamFormat::Github, reports, other)
}

/// One finding as a workflow command of [`github`].
fn github_line(f: &Finding) -> String {
    let command = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    // The file as it is on disk, so the annotation lands on it; a
    // finding without a path (`<stdin>`), or whose path cannot be
    // written safely as it is, names what was printed.
    let file = f
        .path
        .as_ref()
        .and_then(|path| crate::escape::github_path(&path_text(tidy_bytes(&path_bytes(path)))))
        .unwrap_or_else(|| github_property(tidy(&f.file)));
    let mut props = vec![format!("file={file}")];
    if let (Some(line), Some(column)) = (f.line, f.column) {
        props.push(format!("line={line}"));
        props.push(format!("col={column}"));
    }
    props.push(format!("title={}", github_property(&f.kind)));
    format!(
        "::{command} {}::{}\n",
        props.join(","),
        github_data(&f.message)
    )
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
/// occurs, in the order the kinds first occur (its descriptions and help
/// from [`crate::kinds`]), a result per finding with its region (columns
/// in Unicode code points, as the core's review counts them). With a
/// `root`, a file below it is given relative to [`SRCROOT`] and any other
/// as an absolute `file:` URI; without one, as printed, less a leading
/// `./`. The same document as [`Stream`] writes.
pub fn sarif(
    reports: &[FileReport],
    other: &[Finding],
    version: &str,
    root: Option<&SarifRoot>,
) -> serde_json::Value {
    let text = collect(StreamFormat::Sarif { version, root }, reports, other);
    serde_json::from_str(&text).expect("the stream writes JSON")
}

/// The SARIF result of one finding, `rule` its index among the rules.
fn sarif_result(f: &Finding, rule: usize, root: Option<&SarifRoot>) -> serde_json::Value {
    let mut physical = json!({"artifactLocation": location_of(f, root)});
    if let (Some(line), Some(column)) = (f.line, f.column) {
        physical["region"] = json!({"startLine": line, "startColumn": column});
    }
    let mut result = json!({
        "ruleId": f.kind,
        "ruleIndex": rule,
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
}

/// How a [`Stream`] writes.
pub enum StreamFormat<'a> {
    /// As [`text`].
    Text,
    /// As [`github`].
    Github,
    /// As [`json()`], printed with its schema version as
    /// [`crate::json::pretty`] prints it. The problems follow the list of
    /// files, so they wait in `spool` (a temporary file, read back from
    /// its start) until the last file is in.
    Json {
        /// Where the problems wait.
        spool: File,
    },
    /// As [`sarif`], printed as [`crate::json::pretty_unversioned`]
    /// prints it.
    Sarif {
        /// The version of the driver.
        version: &'a str,
        /// The root of relative locations.
        root: Option<&'a SarifRoot>,
    },
}

/// A report of `validate` written while the boards are checked: each
/// file's findings go out as soon as its report is given, so the memory a
/// run takes is one file's findings and the counts, whatever the number of
/// files (the parts of a document that depend on every file, the tally
/// and SARIF's rules, come at its end).
pub struct Stream<'a, W: Write> {
    out: W,
    format: StreamFormat<'a>,
    tally: Tally,
    /// An entry written to the open list: files (JSON) or results (SARIF).
    listed: bool,
    /// A problem in the JSON spool.
    spooled: bool,
    /// SARIF: the kinds of the rules, in the order they first occurred.
    kinds: Vec<String>,
    rule_of: HashMap<String, usize>,
}

/// The indent of serde_json's pretty layout.
const INDENT: &str = "  ";

/// `value` in the pretty layout of [`crate::json::pretty`], as it is
/// printed nested `depth` levels deep (without the indent of its first
/// line): a string never holds a raw newline in JSON, so every newline is
/// the layout's, and indenting after each nests it.
fn nested<T: Serialize>(value: &T, depth: usize) -> io::Result<Vec<u8>> {
    let mut flat = crate::json::pretty_unversioned(value).map_err(io::Error::from)?;
    flat.pop();
    let indent = INDENT.repeat(depth);
    let mut out = Vec::with_capacity(flat.len() + flat.len() / 8);
    for &b in &flat {
        out.push(b);
        if b == b'\n' {
            out.extend_from_slice(indent.as_bytes());
        }
    }
    Ok(out)
}

/// Writes the separator before an entry of a list nested `depth` levels:
/// `,` after the one before, then a new line and the indent.
fn entry(out: &mut impl Write, first: bool, depth: usize) -> io::Result<()> {
    if !first {
        out.write_all(b",")?;
    }
    out.write_all(b"\n")?;
    out.write_all(INDENT.repeat(depth).as_bytes())
}

/// Closes a list nested `depth` levels deep whose entries are at
/// `depth + 1`: `[]` when it had none.
fn close(out: &mut impl Write, listed: bool, depth: usize) -> io::Result<()> {
    if listed {
        out.write_all(b"\n")?;
        out.write_all(INDENT.repeat(depth).as_bytes())?;
    }
    out.write_all(b"]")
}

impl<'a, W: Write> Stream<'a, W> {
    /// Starts the document, with the findings about paths rather than
    /// board files (`other`), which every format gives first.
    ///
    /// # Errors
    /// When writing (or spooling) fails.
    pub fn new(out: W, format: StreamFormat<'a>, other: &[Finding]) -> io::Result<Self> {
        let mut stream = Stream {
            out,
            format,
            tally: Tally::default(),
            listed: false,
            spooled: false,
            kinds: Vec::new(),
            rule_of: HashMap::new(),
        };
        match &mut stream.format {
            StreamFormat::Text | StreamFormat::Github => {}
            StreamFormat::Json { .. } => {
                write!(
                    stream.out,
                    "{{\n{INDENT}\"schema\": {},\n{INDENT}\"files\": [",
                    crate::json::SCHEMA_VERSION
                )?;
            }
            StreamFormat::Sarif { root, .. } => {
                let head = format!(
                    "{{\n{0}\"$schema\": {1},\n{0}\"runs\": [\n{0}{0}{{\n{0}{0}{0}\"columnKind\": \"unicodeCodePoints\",\n",
                    INDENT,
                    serde_json::to_string(SARIF_SCHEMA).map_err(io::Error::from)?,
                );
                stream.out.write_all(head.as_bytes())?;
                if let Some(root) = root {
                    let mut base = file_uri(&root.root);
                    if !base.ends_with('/') {
                        base.push('/');
                    }
                    stream.out.write_all(
                        format!("{0}{0}{0}\"originalUriBaseIds\": ", INDENT).as_bytes(),
                    )?;
                    let bases = nested(&json!({SRCROOT: {"uri": base}}), 3)?;
                    stream.out.write_all(&bases)?;
                    stream.out.write_all(b",\n")?;
                }
                stream
                    .out
                    .write_all(format!("{0}{0}{0}\"results\": [", INDENT).as_bytes())?;
            }
        }
        for f in other {
            stream.tally.add_other(f);
            stream.finding(f)?;
        }
        Ok(stream)
    }

    /// Writes one finding as its format gives it (JSON: into the spool).
    fn finding(&mut self, f: &Finding) -> io::Result<()> {
        match &mut self.format {
            StreamFormat::Text => self.out.write_all(text_line(f).as_bytes()),
            StreamFormat::Github => self.out.write_all(github_line(f).as_bytes()),
            StreamFormat::Json { spool } => {
                let first = !self.spooled;
                self.spooled = true;
                let mut spool = BufWriter::new(&mut *spool);
                entry(&mut spool, first, 2)?;
                spool.write_all(&nested(f, 2)?)?;
                spool.flush()
            }
            StreamFormat::Sarif { root, .. } => {
                let rule = match self.rule_of.get(&f.kind) {
                    Some(&i) => i,
                    None => {
                        self.kinds.push(f.kind.clone());
                        self.rule_of.insert(f.kind.clone(), self.kinds.len() - 1);
                        self.kinds.len() - 1
                    }
                };
                let result = nested(&sarif_result(f, rule, *root), 4)?;
                entry(&mut self.out, !self.listed, 4)?;
                self.listed = true;
                self.out.write_all(&result)
            }
        }
    }

    /// Writes one board file's report.
    ///
    /// # Errors
    /// When writing (or spooling) fails.
    pub fn file(&mut self, report: &FileReport) -> io::Result<()> {
        self.tally.add_report(report);
        if let StreamFormat::Json { .. } = self.format {
            let verdict = FileVerdict {
                file: &report.file,
                valid: report.valid(),
            };
            entry(&mut self.out, !self.listed, 2)?;
            self.listed = true;
            self.out.write_all(&nested(&verdict, 2)?)?;
        }
        for f in &report.findings {
            self.finding(f)?;
        }
        // Each file's findings reach the reader (a CI log, a pipe) as soon
        // as the file is checked, not when a buffer happens to fill.
        self.out.flush()
    }

    /// Ends the document: the tally, and what else depends on every file
    /// (JSON's problems, SARIF's rules). Returns the tally.
    ///
    /// # Errors
    /// When writing, or reading back the spool, fails.
    pub fn finish(mut self) -> io::Result<Tally> {
        match &mut self.format {
            StreamFormat::Text | StreamFormat::Github => {
                self.out.write_all(self.tally.line().as_bytes())?;
                self.out.write_all(b"\n")?;
            }
            StreamFormat::Json { spool } => {
                close(&mut self.out, self.listed, 1)?;
                write!(self.out, ",\n{INDENT}\"problems\": [")?;
                spool.rewind()?;
                io::copy(&mut io::BufReader::new(&mut *spool), &mut self.out)?;
                close(&mut self.out, self.spooled, 1)?;
                write!(self.out, ",\n{INDENT}\"summary\": ")?;
                self.out.write_all(&nested(&self.tally, 1)?)?;
                self.out.write_all(b"\n}\n")?;
            }
            StreamFormat::Sarif { version, .. } => {
                close(&mut self.out, self.listed, 3)?;
                let rules: Vec<_> = self.kinds.iter().map(|k| rule(k, version)).collect();
                let tool = json!({"driver": {
                    "name": "snakeladder",
                    "version": version,
                    "informationUri": docs_url(version, None),
                    "rules": rules,
                }});
                write!(self.out, ",\n{0}{0}{0}\"tool\": ", INDENT)?;
                self.out.write_all(&nested(&tool, 3)?)?;
                write!(
                    self.out,
                    "\n{0}{0}}}\n{0}],\n{0}\"version\": \"2.1.0\"\n}}\n",
                    INDENT
                )?;
            }
        }
        self.out.flush()?;
        Ok(self.tally)
    }
}

/// The documentation of this version: with no anchor, the command's README
/// (the package's repository when it names one, else the command's page on
/// docs.rs); with an anchor, the problem kinds' page, docs/problems.md (in
/// the repository, else the renderer's `kinds` module on docs.rs, whose
/// documentation is that page), where every kind has its anchor.
fn docs_url(version: &str, anchor: Option<&str>) -> String {
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    match (repository.is_empty(), anchor) {
        (true, None) => format!("https://docs.rs/crate/snakeladder-cli/{version}"),
        (false, None) => format!("{repository}/blob/v{version}/README.md"),
        (true, Some(anchor)) => format!(
            "https://docs.rs/snakeladder-render/{version}/snakeladder_render/kinds/index.html#{anchor}"
        ),
        (false, Some(anchor)) => {
            format!("{repository}/blob/v{version}/docs/problems.md#{anchor}")
        }
    }
}

/// The rule of one kind: its one-line and full descriptions, and help
/// pointing at the kind's anchor on the problem kinds' page.
fn rule(kind: &str, version: &str) -> serde_json::Value {
    let (short, full) = match crate::kinds::describe(kind) {
        Some(d) => (d.short.to_string(), d.full.to_string()),
        None => (kind.replace('_', " "), kind.replace('_', " ")),
    };
    let url = docs_url(version, Some(&crate::kinds::anchor(kind)));
    json!({
        "id": kind,
        "name": kind,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {
            "text": format!("{full} See {url}"),
            "markdown": format!("{full}\n\n[The `{kind}` problem]({url})"),
        },
        "helpUri": url,
    })
}

/// A printed file name less its leading `./` (`./boards/a.json` is
/// `boards/a.json`); `.` alone is kept.
pub fn tidy(file: &str) -> &str {
    let rest = tidy_bytes(file.as_bytes());
    // Only ASCII was cut off the front, so the rest is on a char boundary.
    &file[file.len() - rest.len()..]
}

/// [`tidy`] of a path's bytes.
fn tidy_bytes(file: &[u8]) -> &[u8] {
    let mut rest = file;
    while let Some(r) = rest.strip_prefix(b"./") {
        if r.is_empty() {
            break;
        }
        let slashes = r.iter().take_while(|&&b| b == b'/').count();
        rest = &r[slashes..];
    }
    rest
}

/// A path's bytes as the file system holds them (on Unix, any bytes; else
/// its text).
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match path.to_string_lossy() {
            std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        }
    }
}

/// A path's bytes as text (a byte that is not UTF-8 as U+FFFD: a workflow
/// command is text).
fn path_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The artifact location of a finding: of the file as it is on disk when
/// the finding has its path, else of the printed name.
fn location_of(f: &Finding, root: Option<&SarifRoot>) -> serde_json::Value {
    match &f.path {
        Some(path) => path_location(path, root),
        None => location(&f.file, root),
    }
}

/// The artifact location of a printed file name: relative to the root when
/// below it, else an absolute `file:` URI; a name that is not a path
/// (`<stdin>`) as it is.
fn location(file: &str, root: Option<&SarifRoot>) -> serde_json::Value {
    if file.starts_with('<') {
        return json!({"uri": uri(file)});
    }
    path_location(Path::new(file), root)
}

/// The artifact location of a path: relative to the root when below it,
/// else an absolute `file:` URI, its bytes percent-encoded.
fn path_location(path: &Path, root: Option<&SarifRoot>) -> serde_json::Value {
    let Some(root) = root else {
        return json!({"uri": uri_bytes(tidy_bytes(&path_bytes(path)))});
    };
    let absolute = normalize(&if path.is_absolute() {
        path.to_path_buf()
    } else {
        root.cwd.join(path)
    });
    match absolute.strip_prefix(normalize(&root.root)) {
        Ok(relative) if !relative.as_os_str().is_empty() => {
            json!({"uri": uri_bytes(&path_bytes(relative)), "uriBaseId": SRCROOT})
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
    let bytes = path_bytes(path);
    let slashes = bytes.iter().take_while(|&&b| b == b'/').count();
    let encoded = uri_bytes(&bytes[slashes..]);
    format!("file:///{}", encoded.trim_start_matches("file://"))
}

/// A path as a URI reference: unreserved characters and `/` kept,
/// everything else percent-encoded; an absolute path as a `file:` URI.
fn uri(path: &str) -> String {
    uri_bytes(path.as_bytes())
}

/// [`uri`] of a path's bytes (SARIF 2.1.0 takes a URI reference, whose
/// percent-encoding is of bytes: a control character, a space or a byte
/// that is not UTF-8 is written `%XX`).
fn uri_bytes(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with(b"/") {
        out.push_str("file://");
    }
    for &b in path {
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

    /// A file whose name holds control characters: its findings print the
    /// escaped name, and point (SARIF, annotations) at the file itself.
    #[test]
    fn sarif_and_annotations_name_the_file_on_disk() {
        let raw = Path::new("./d/a\n::error::x,\r%.json");
        let shown = crate::escape::display_path(raw);
        let report = snakeladder::review::Review::default()
            .check_bytes(&shown, br#"{"squares": 10, "snakes": [[3, 8]]}"#)
            .with_path(raw);
        let reports = [report];
        let first = github(&reports, &[]).lines().next().unwrap().to_string();
        assert!(
            first.starts_with(
                "::error file=d/a%0A%3A%3Aerror%3A%3Ax%2C%0D%25.json,line=1,col=28,title=snake_climbs::"
            ),
            "{first}"
        );
        assert!(text(&reports, &[]).starts_with(r"./d/a\n::error::x,\r%.json:1:28: "));
        let log = sarif(&reports, &[], "0.1.0", None);
        assert_eq!(
            log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
            json!({"uri": "d/a%0A%3A%3Aerror%3A%3Ax%2C%0D%25.json"})
        );
        let root = SarifRoot {
            root: PathBuf::from("/repo"),
            cwd: PathBuf::from("/repo"),
        };
        let log = sarif(&reports, &[], "0.1.0", Some(&root));
        // SARIF is JSON, which escapes every control character: an ESC in a
        // name is percent-encoded there, while an annotation gives the
        // printed name rather than write the ESC.
        let esc = Path::new("e\u{1b}[31m.json");
        let report = snakeladder::review::Review::default()
            .check_bytes(
                &crate::escape::display_path(esc),
                br#"{"squares": 10, "snakes": [[3, 8]]}"#,
            )
            .with_path(esc);
        let esc_log = sarif(std::slice::from_ref(&report), &[], "0.1.0", None);
        assert_eq!(
            esc_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
            json!({"uri": "e%1B%5B31m.json"})
        );
        assert!(github(&[report], &[]).starts_with(r"::error file=e\u{1b}[31m.json,"));
        assert_eq!(
            log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
            json!({"uri": "d/a%0A%3A%3Aerror%3A%3Ax%2C%0D%25.json", "uriBaseId": SRCROOT})
        );
    }

    /// Reports of a few boards: valid, invalid with several kinds, a
    /// warning, and a finding about a path.
    fn sample() -> (Vec<FileReport>, Vec<Finding>) {
        let review = snakeladder::review::Review::default();
        let mut warned = review.check_bytes("w.json", br#"{"squares": 10, "snakes": [[3, 8]]}"#);
        for f in &mut warned.findings {
            f.severity = Severity::Warning;
        }
        let reports = vec![
            review.check_bytes(
                "./b.json",
                br#"{"squares": 10, "snakes": [[3, 8]], "ladders": [[3, 9], [12, 2]]}"#,
            ),
            review.check_bytes("a.json", br#"{"squares": 10}"#),
            warned,
            review.check_bytes("c.json", b"{"),
        ];
        let other = vec![Finding::file_error(
            "empty",
            "no_boards",
            "no board files under empty".into(),
        )];
        (reports, other)
    }

    /// The streamed JSON is, byte for byte, the document [`json`] builds,
    /// printed as every JSON output is, for runs with and without files,
    /// problems and findings about paths.
    #[test]
    fn streamed_json_is_the_built_document() {
        let (reports, other) = sample();
        for (reports, other) in [
            (&reports[..], &other[..]),
            (&reports[..], &[][..]),
            (&reports[1..2], &[][..]),
            (&[][..], &other[..]),
            (&[][..], &[][..]),
        ] {
            let mut out = Vec::new();
            let spool = tempfile::tempfile().unwrap();
            let mut stream = Stream::new(&mut out, StreamFormat::Json { spool }, other).unwrap();
            for r in reports {
                stream.file(r).unwrap();
            }
            let tally = stream.finish().unwrap();
            assert_eq!(tally, Tally::new(reports, other));
            let built = crate::json::pretty(&json(reports, other)).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(built).unwrap()
            );
        }
    }

    /// The streamed SARIF log is laid out as serde_json prints the same
    /// value, and each result's rule index names the rule of its kind.
    #[test]
    fn streamed_sarif_is_pretty_json_with_consistent_rules() {
        let (reports, other) = sample();
        let root = SarifRoot {
            root: PathBuf::from("/repo"),
            cwd: PathBuf::from("/repo"),
        };
        for root in [None, Some(&root)] {
            for (reports, other) in [(&reports[..], &other[..]), (&[][..], &[][..])] {
                let text = collect(
                    StreamFormat::Sarif {
                        version: "0.1.0",
                        root,
                    },
                    reports,
                    other,
                );
                let log: serde_json::Value = serde_json::from_str(&text).unwrap();
                let again = crate::json::pretty_unversioned(&log).unwrap();
                assert_eq!(text, String::from_utf8(again).unwrap());
                let rules = log["runs"][0]["tool"]["driver"]["rules"]
                    .as_array()
                    .unwrap();
                let results = log["runs"][0]["results"].as_array().unwrap();
                assert_eq!(results.len(), all(reports, other).count());
                let mut kinds: Vec<&str> = all(reports, other).map(|f| f.kind.as_str()).collect();
                kinds.sort_unstable();
                kinds.dedup();
                assert_eq!(rules.len(), kinds.len());
                for r in results {
                    let index = r["ruleIndex"].as_u64().unwrap() as usize;
                    assert_eq!(rules[index]["id"], r["ruleId"]);
                }
            }
        }
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
