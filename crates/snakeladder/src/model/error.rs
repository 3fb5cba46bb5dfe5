//! Errors of loading a board.

use crate::model::limits::MAX_FILE_BYTES;
use crate::model::problem::Problem;
use std::path::{Path, PathBuf};

/// Why a board could not be loaded. Every variant names the file when there
/// is one.
///
/// # Example
/// ```
/// use snakeladder::{Board, BoardError, Problem};
///
/// let err = Board::from_json_str(r#"{"squares": 10, "ladders": [[5, 3]]}"#).unwrap_err();
/// assert!(matches!(err, BoardError::Invalid { .. }));
/// assert!(matches!(err.problems(), [Problem::LadderDescends { .. }]));
/// let err = Board::from_json_str(r#"{"squares": 10, "ladder": []}"#).unwrap_err();
/// assert!(matches!(err, BoardError::Json { line: 1, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[non_exhaustive]
pub enum BoardError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is larger than [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES).
    #[error("{}: the file is {bytes} bytes, more than the {MAX_FILE_BYTES} bytes a board file may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// The text is not a board file: malformed JSON, a wrong type, a missing
    /// or unknown field.
    #[error("{}line {line}, column {column}: {message}", prefix(path))]
    Json {
        /// The file, when reading one.
        path: Option<PathBuf>,
        /// 1-based line of the error (0 at the end of input).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The board breaks the rules; every problem is listed.
    #[error("{}{}", prefix(path), summary(problems))]
    Invalid {
        /// The file, when reading one.
        path: Option<PathBuf>,
        /// Every problem found, in file order.
        problems: Vec<Problem>,
    },
}

fn prefix(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default()
}

pub(crate) fn summary(problems: &[Problem]) -> String {
    match problems {
        [one] => one.to_string(),
        _ => {
            let (shown, more) = listed(problems);
            let mut all: Vec<String> = shown.iter().map(ToString::to_string).collect();
            all.extend(more.iter().map(|(kind, n)| not_listed(kind, *n)));
            format!("{} problems: {}", problems.len(), all.join("; "))
        }
    }
}

/// The problems to list: the first
/// [`BoardError::PROBLEMS_LISTED_PER_KIND`](crate::BoardError::PROBLEMS_LISTED_PER_KIND)
/// of each kind, in their order, and how many more of each kind there
/// are (kinds in the order of their first problem left out).
pub fn listed(problems: &[Problem]) -> (Vec<&Problem>, Vec<(&'static str, usize)>) {
    use crate::model::limits::PROBLEMS_LISTED_PER_KIND;
    let mut seen: Vec<(&'static str, usize)> = Vec::new();
    let mut shown = Vec::new();
    let mut more: Vec<(&'static str, usize)> = Vec::new();
    for p in problems {
        let kind = p.kind();
        let count = match seen.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((kind, 1));
                1
            }
        };
        if count <= PROBLEMS_LISTED_PER_KIND {
            shown.push(p);
        } else {
            match more.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => more.push((kind, 1)),
            }
        }
    }
    (shown, more)
}

/// The line that stands for the problems of a kind left out of a list.
pub fn not_listed(kind: &str, count: usize) -> String {
    format!(
        "{count} more {kind} problem{} not listed (the first {} are)",
        if count == 1 { "" } else { "s" },
        crate::model::limits::PROBLEMS_LISTED_PER_KIND
    )
}

/// Parses the JSON of a board file into its spec. A board file is a JSON
/// object; a type error names the field and what it must be, in the
/// board's words (`squares` must be a whole number from 2 to 10,000,000),
/// never a Rust type.
pub(crate) fn parse_spec(json: &[u8]) -> Result<crate::model::board::BoardSpec, BoardError> {
    let json = without_bom(json);
    let mut de = serde_json::Deserializer::from_slice(json);
    let spec = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = known_path(e.path());
        let mut error = BoardError::json(None, e.inner(), json);
        if let BoardError::Json { message, .. } = &mut error {
            *message = explain(&path, message, &BOARD_FILE);
        }
        error
    })?;
    de.end().map_err(|e| BoardError::json(None, &e, json))?;
    Ok(spec)
}

/// The UTF-8 byte-order mark some editors write at the start of a file.
pub(crate) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes without a leading UTF-8 byte-order mark: a board file saved
/// with one reads as without (positions are then counted after it, as
/// editors count them).
pub(crate) fn without_bom(json: &[u8]) -> &[u8] {
    json.strip_prefix(UTF8_BOM).unwrap_or(json)
}

/// What a board file looks like, for messages.
const OBJECT_EXAMPLE: &str = r#"{"squares": 100, "ladders": [[1, 38]], "snakes": [[16, 6]]}"#;

/// What the field at `path` (as serde_path_to_error writes it:
/// `rules.dice.count`, `ladders[0][1]`, `.` for the whole file) must be.
pub(crate) fn must_be(path: &str) -> String {
    use crate::model::limits::{MAX_DICE, MAX_FACES, MAX_SQUARES};
    let field = path.rsplit('.').next().unwrap_or(path);
    let in_jump = (path.starts_with("ladders[") || path.starts_with("snakes["))
        && path.matches('[').count() == 2;
    match field {
        "" => format!("a JSON object ({OBJECT_EXAMPLE})"),
        "squares" => format!(
            "a whole number from 2 to {}",
            grouped(u64::from(MAX_SQUARES))
        ),
        "width" => "a whole number from 1 to the number of squares".to_string(),
        "name" => "a string".to_string(),
        "count" => format!("a whole number from 1 to {MAX_DICE}"),
        "faces" => format!("a whole number from 2 to {}", grouped(u64::from(MAX_FACES))),
        "start" => "0 or 1".to_string(),
        "on" => "a whole number the dice can roll".to_string(),
        "max_extra" | "forfeit_after" => "a whole number, or null for none".to_string(),
        "ladders" | "snakes" => "a list of [from, to] pairs of squares".to_string(),
        _ if in_jump => "a whole number, a square of the board".to_string(),
        _ if path.starts_with("ladders[") || path.starts_with("snakes[") => {
            "a [from, to] pair of squares".to_string()
        }
        _ if path.contains("weights[") => "a number, 0 or more".to_string(),
        _ => String::new(),
    }
}

/// A whole number with thousands separated by commas: `10,000,000`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The words of one kind of JSON file, for [`explain`].
pub(crate) struct FileWords {
    /// The whole file, as a subject: "a board file".
    pub whole: &'static str,
    /// What the field at a path (`""` for the whole file) must be, or `""`
    /// when there are no better words than serde's.
    pub must_be: fn(&str) -> String,
}

/// The words of a board file.
const BOARD_FILE: FileWords = FileWords {
    whole: "a board file",
    must_be,
};

/// Rewrites serde's message for the field at `path` (as
/// serde_path_to_error writes it) in the words of the file's kind.
pub(crate) fn explain(path: &str, message: &str, words: &FileWords) -> String {
    let shown = path;
    let what = (words.must_be)(if path == "." { "" } else { path });
    let type_error = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .or_else(|| message.strip_prefix("invalid length "))
        .and_then(|rest| rest.rsplit_once(", expected "));
    match type_error {
        Some((found, expected)) => {
            let found = found.replace('`', "");
            let found = if let Some(n) = found
                .strip_prefix("floating point ")
                .or_else(|| found.strip_prefix("integer "))
            {
                // serde_json and toml add the type they read it as
                // (`99999999999999999999999 as i128`).
                n.split(" as ").next().unwrap_or(n).to_string()
            } else if let Some(text) = found.strip_prefix("string ") {
                format!("the text {text}")
            } else {
                match found.as_str() {
                    "map" => "an object".to_string(),
                    "sequence" => "a list".to_string(),
                    "boolean true" | "boolean false" => found[8..].to_string(),
                    _ => found,
                }
            };
            let what = if what.is_empty() {
                plain_words(expected)
            } else {
                what
            };
            // A list where an object or a pair belongs, the whole file
            // included (serde reads a struct from a list by position).
            let found = if message.starts_with("invalid length ") {
                format!("a list of length {found}")
            } else {
                found
            };
            if path == "." {
                format!("{} must be {what}, not {found}", words.whole)
            } else {
                format!("`{shown}` must be {what}, not {found}")
            }
        }
        None if path == "." => message.to_string(),
        None if message.starts_with("unknown field") || message.starts_with("duplicate field") => {
            match path.rsplit_once('.') {
                Some((parent, _)) => format!("`{parent}`: {message}"),
                None => message.to_string(),
            }
        }
        None if message == "number out of range" || message.starts_with("number out of range") => {
            let what = if what.is_empty() {
                "a number".to_string()
            } else {
                what
            };
            format!("`{shown}` must be {what}, not a number this large")
        }
        None => format!("`{shown}`: {message}"),
    }
}

/// `path` as serde_path_to_error writes it (`rules.dice.count`,
/// `ladders[0][1]`, `.` for the whole file), up to the first segment it
/// could not name: it writes `?` for a key not yet read, as when a file
/// ends after a value, and a message naming the field `?` helps no one.
pub(crate) fn known_path(path: &serde_path_to_error::Path) -> String {
    let known: Vec<&serde_path_to_error::Segment> = path
        .iter()
        .take_while(|s| !matches!(s, serde_path_to_error::Segment::Unknown))
        .collect();
    let mut out = String::new();
    for (i, segment) in known.iter().enumerate() {
        if i > 0 && !matches!(segment, serde_path_to_error::Segment::Seq { .. }) {
            out.push('.');
        }
        out.push_str(&segment.to_string());
    }
    if out.is_empty() { ".".to_string() } else { out }
}

/// serde's name for an expected type, in words.
fn plain_words(expected: &str) -> String {
    match expected {
        "i64" | "u64" | "u32" | "i32" | "usize" => "a whole number".to_string(),
        "f64" | "f32" => "a number".to_string(),
        "u8" | "u16" | "i8" | "i16" => "a whole number".to_string(),
        "a boolean" => "true or false".to_string(),
        e if e.starts_with("struct ") || e.starts_with("enum ") || e.starts_with("map") => {
            "a JSON object".to_string()
        }
        e if e.starts_with("a sequence") => "a list".to_string(),
        e => e.to_string(),
    }
}

impl BoardError {
    /// Most problems of one kind an error message or a review lists of one
    /// board; the rest of that kind are counted in one line.
    pub const PROBLEMS_LISTED_PER_KIND: usize = crate::model::limits::PROBLEMS_LISTED_PER_KIND;

    /// The error of parsing `source` (the JSON text, past any byte-order
    /// mark) that serde_json reported as `e`.
    pub(crate) fn json(path: Option<&Path>, e: &serde_json::Error, source: &[u8]) -> BoardError {
        let (message, line, column) = json_error(e, source);
        BoardError::Json {
            path: path.map(Path::to_path_buf),
            line,
            column,
            message,
        }
    }

    /// The same error, naming `path` as its file.
    pub fn with_path(self, path: &Path) -> BoardError {
        match self {
            BoardError::Json {
                line,
                column,
                message,
                ..
            } => BoardError::Json {
                path: Some(path.to_path_buf()),
                line,
                column,
                message,
            },
            BoardError::Invalid { problems, .. } => BoardError::Invalid {
                path: Some(path.to_path_buf()),
                problems,
            },
            other => other,
        }
    }

    /// The validation problems, empty for errors of reading or parsing.
    pub fn problems(&self) -> &[Problem] {
        match self {
            BoardError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }

    /// A short stable name of the error (`"io"`, `"too_large"`, `"json"`,
    /// `"invalid"`): the variant's name in snake case.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// serde_json's error `e` of parsing `source` (a board file, a game
/// record): its message without the position, and the position, a 1-based
/// line and column.
pub(crate) fn json_error(e: &serde_json::Error, source: &[u8]) -> (String, usize, usize) {
    // serde_json appends " at line L column C" to its message; the
    // position is reported in fields of its own.
    let mut message = e.to_string();
    if let Some(at) = message.rfind(" at line ") {
        message.truncate(at);
    }
    // serde_json calls a lone surrogate "unexpected end of hex escape" (or
    // a "lone leading surrogate", for a trailing one) and places it after
    // the escape; the message names it and the position points at it.
    let (mut line, mut column) = (e.line(), e.column());
    if message.contains("hex escape")
        && let Some(at) = lone_surrogate(source)
        && at.offset < offset_of(source, line, column)
    {
        message = format!(
            "`\\u{}` is a lone surrogate: half of a UTF-16 pair (\\uD800 to \\uDFFF) without its other half, which is no character; write the character itself, or both halves of its pair",
            at.digits
        );
        (line, column) = line_column(source, at.offset);
    }
    // serde_json says column 0 for an error before a line's first
    // character (the end of the input after a newline); a position is
    // 1-based, as `validate` and editors count it.
    (message, line, column.max(1))
}

/// A `\uXXXX` escape of a JSON text that is half of a UTF-16 surrogate
/// pair without its other half.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LoneSurrogate {
    /// The byte offset of its backslash.
    pub offset: usize,
    /// Its four hex digits, as written.
    pub digits: String,
}

/// The first lone surrogate escape in the strings of a JSON text: a high
/// half (`\uD800` to `\uDBFF`) not followed at once by a low one, or a
/// low half (`\uDC00` to `\uDFFF`) on its own. A parser stops at the
/// first, so it is the one an error of parsing is about.
pub(crate) fn lone_surrogate(json: &[u8]) -> Option<LoneSurrogate> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(json.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let escape = |at: usize| json.get(at) == Some(&b'\\') && json.get(at + 1) == Some(&b'u');
    let mut in_string = false;
    let mut i = 0;
    while i < json.len() {
        match (in_string, json[i]) {
            (false, b'"') => in_string = true,
            (true, b'"') => in_string = false,
            (true, b'\\') if escape(i) => {
                let Some(code) = hex(i + 2) else {
                    i += 2;
                    continue;
                };
                let paired = (0xD800..=0xDBFF).contains(&code)
                    && escape(i + 6)
                    && hex(i + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                if paired {
                    i += 12;
                    continue;
                }
                if (0xD800..=0xDFFF).contains(&code) {
                    return Some(LoneSurrogate {
                        offset: i,
                        digits: String::from_utf8_lossy(&json[i + 2..i + 6]).into_owned(),
                    });
                }
                i += 6;
                continue;
            }
            // Any other escape is two bytes: an escaped quote or backslash
            // ends nothing.
            (true, b'\\') => {
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The byte offset of serde_json's 1-based `line` and `column` (a byte
/// count; column 0 is the newline ending the line before).
fn offset_of(json: &[u8], line: usize, column: usize) -> usize {
    let start: usize = json
        .split(|&b| b == b'\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len() + 1)
        .sum();
    (start + column).saturating_sub(1)
}

/// The 1-based line and column (in bytes, as serde_json counts) of a byte
/// offset.
fn line_column(json: &[u8], offset: usize) -> (usize, usize) {
    let before = &json[..offset.min(json.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    (line, offset - start + 1)
}

/// [`explain`] in the words of a board file.
pub(crate) fn explain_board(path: &str, message: &str) -> String {
    explain(path, message, &BOARD_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of parsing a board file's text.
    fn json_error_of(text: &str) -> (usize, usize, String) {
        match parse_spec(text.as_bytes()) {
            Err(BoardError::Json {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("{text}: {other:?}"),
        }
    }

    /// A lone surrogate is named as one, at its escape, whichever half it
    /// is and whatever follows it; a pair, an escaped backslash before
    /// `u`, and a short escape are not taken for one.
    #[test]
    fn a_lone_surrogate_is_named_where_it_is() {
        for (text, column, digits) in [
            (r#"{"squares": 20, "name": "\ud800"}"#, 26, "ud800"),
            (r#"{"squares": 20, "name": "ab\uD800x"}"#, 28, "uD800"),
            (r#"{"squares": 20, "name": "\udc00"}"#, 26, "udc00"),
            (
                r#"{"squares": 20, "name": "\ud83d\ude00\ud800\u0041"}"#,
                38,
                "ud800",
            ),
            (
                "{\"squares\": 20,\n \"name\": \"\\\\u0041\\ud800\"}",
                18,
                "ud800",
            ),
        ] {
            let (line, col, message) = json_error_of(text);
            assert!(
                message.contains(&format!("`\\{digits}` is a lone surrogate")),
                "{text}: {message}"
            );
            assert!(message.starts_with("`name`: "), "{text}: {message}");
            assert_eq!(
                (line, col),
                (
                    text[..text.rfind(r"\u").unwrap()].matches('\n').count() + 1,
                    column
                ),
                "{text}"
            );
        }
        let (_, _, message) = json_error_of(r#"{"squares": 20, "name": "\u12"}"#);
        assert!(!message.contains("surrogate"), "{message}");
        assert!(parse_spec(r#"{"squares": 20, "name": "\ud83d\ude00"}"#.as_bytes()).is_ok());
    }
}
