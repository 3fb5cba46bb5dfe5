//! The hostile-input table: every command that reads a board, on every kind
//! of bad input, exits with its documented code and one line that names the
//! file and the problem, and never panics.
//!
//! Small inputs live in `tests/hostile/`; big or unusual ones (10 million
//! jumps, 50 MB, a file past the size cap, symbolic links, an unreadable file)
//! are made at test time in a temporary directory.
//!
//! Unreadable files: the tests may run as root, for whom `chmod 000` changes
//! nothing, so "unreadable" is a file whose read fails for everyone:
//! `/proc/self/mem` (reading at offset 0 gives EIO on Linux), a symbolic link
//! loop (ELOOP), and a path through a regular file (ENOTDIR).

use crate::support::BIN;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Every command that takes a board path as its last argument, with the
/// arguments it needs to run quickly. Adding a command to the table is one
/// line here; a case whose answer differs for one command says so with
/// [`Case::except`].
const COMMANDS: &[&[&str]] = &[
    &["validate"],
    &["analyze"],
    &["report", "--format", "html"],
    &["play", "--players", "Ana,Bo", "--seed", "1"],
    &["simulate", "--games", "100", "--seed", "1"],
    &["check", "--games", "100", "--seed", "1"],
];

/// Where a case's board comes from.
enum Input {
    /// A file of `tests/hostile/`.
    Hostile(&'static str),
    /// A file written into the temporary directory at test time.
    Made(&'static str, fn() -> Vec<u8>),
    /// A path that is given as is (relative to the temporary directory).
    Path(&'static str),
    /// Bytes on standard input, with `-` as the path.
    Stdin(&'static [u8]),
}

/// What a command must do.
#[derive(Clone, Copy)]
struct Expect {
    code: i32,
    /// Text that must appear, on one line with the file's name (for exit
    /// code 1), in the output.
    text: &'static str,
}

struct Case {
    name: &'static str,
    input: Input,
    expect: Expect,
    /// Commands (first argument) that answer differently.
    except: Vec<(&'static str, Expect)>,
}

impl Case {
    fn except(mut self, command: &'static str, code: i32, text: &'static str) -> Case {
        self.except.push((command, Expect { code, text }));
        self
    }
}

fn case(name: &'static str, input: Input, code: i32, text: &'static str) -> Case {
    Case {
        name,
        input,
        expect: Expect { code, text },
        except: Vec::new(),
    }
}

fn hostile(name: &'static str) -> Input {
    Input::Hostile(name)
}

fn ten_million_jumps() -> Vec<u8> {
    let mut s = String::from(r#"{"squares": 100, "ladders": ["#);
    s.push_str(&["[1,2]"; 10_000_000].join(","));
    s.push_str("]}");
    s.into_bytes()
}

/// 50 MB: a valid board padded with spaces.
fn fifty_mb_padded() -> Vec<u8> {
    let mut v = vec![b' '; 50 * 1024 * 1024];
    v.extend_from_slice(br#"{"squares": 10, "ladders": [[2, 7]], "snakes": [[9, 3]]}"#);
    v
}

/// 50 MB of bytes that are not JSON.
fn fifty_mb_garbage() -> Vec<u8> {
    (0..50 * 1024 * 1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect()
}

fn deep_nesting() -> Vec<u8> {
    let mut v = br#"{"squares": 10, "name": "#.to_vec();
    v.extend(std::iter::repeat_n(b'[', 1_000_000));
    v
}

fn deep_nesting_top() -> Vec<u8> {
    vec![b'{'; 1_000_000]
}

fn long_name() -> Vec<u8> {
    format!(r#"{{"squares": 10, "name": "{}"}}"#, "n".repeat(10_000_000)).into_bytes()
}

/// Characters no output may carry raw: terminal escapes and bells, a
/// carriage return, a right-to-left override, a zero-width space and a line
/// separator (issue 14, item 8).
const RAW_NEVER: &[char] = &['\u{1b}', '\u{7}', '\r', '\u{202e}', '\u{200b}', '\u{2028}'];

/// The formats CI reads, run on every case beside [`COMMANDS`].
const CI_FORMATS: &[&[&str]] = &[
    &["validate", "--format", "github"],
    &["validate", "--format", "sarif"],
];

/// What is wrong with `validate --format FORMAT`'s output on `path`: a line
/// that is a workflow command of another kind than `::error` and
/// `::warning` with the properties validate writes, a character no output
/// may carry raw, a SARIF location that does not decode to `path` (or a
/// file below it), or a `file=` that does not, unless the name holds a
/// hidden character other than CR and LF (which could only be written
/// raw: then the name is given as printed).
fn points_at(format: &str, out: &Output, path: &Path, dir: &Path) -> Vec<String> {
    let mut wrong = Vec::new();
    let exact = path.to_string_lossy().chars().all(|c| {
        matches!(c, '\r' | '\n') || snakeladder::Problem::hidden_character(&c.to_string()).is_none()
    });
    let names = |decoded: &[u8]| {
        let decoded = Path::new(std::ffi::OsStr::from_bytes(decoded));
        decoded == path || decoded.starts_with(path)
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    if format == "github" {
        for line in stdout.lines() {
            if let Some(c) = line.chars().find(|c| RAW_NEVER.contains(c)) {
                wrong.push(format!("a raw U+{:04X} in {line:?}", u32::from(c)));
            }
            if !workflow_command(line) {
                continue;
            }
            let Some(rest) = line
                .strip_prefix("::error ")
                .or_else(|| line.strip_prefix("::warning "))
            else {
                wrong.push(format!(
                    "a workflow command validate does not write: {line:?}"
                ));
                continue;
            };
            let Some((properties, message)) = rest.split_once("::") else {
                wrong.push(format!("no message: {line:?}"));
                continue;
            };
            for property in properties.split(',') {
                let (key, value) = property.split_once('=').unwrap_or((property, ""));
                if !["file", "line", "col", "title"].contains(&key) {
                    wrong.push(format!(
                        "a property {key:?} validate does not write: {line:?}"
                    ));
                }
                if key == "file" {
                    let decoded = value
                        .replace("%0D", "\r")
                        .replace("%0A", "\n")
                        .replace("%3A", ":")
                        .replace("%2C", ",")
                        .replace("%25", "%");
                    if exact && !names(decoded.as_bytes()) {
                        wrong.push(format!("file={value:?} names no file of {path:?}"));
                    }
                }
            }
            if message.is_empty() {
                wrong.push(format!("an empty message: {line:?}"));
            }
        }
    } else {
        let Ok(log) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else {
            return vec!["not JSON".to_string()];
        };
        for result in log["runs"][0]["results"].as_array().into_iter().flatten() {
            let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
            let uri = location["uri"].as_str().unwrap_or_default();
            let mut decoded = Vec::new();
            let bytes = uri.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                if bytes[i] == b'%' && i + 2 < bytes.len() {
                    let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                    decoded.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 3;
                } else {
                    decoded.push(bytes[i]);
                    i += 1;
                }
            }
            let full = match location["uriBaseId"].as_str() {
                // The root is the directory validate ran in: it is in no
                // git repository.
                Some(_) => {
                    let mut full = dir.as_os_str().as_bytes().to_vec();
                    full.push(b'/');
                    full.extend(decoded);
                    full
                }
                None => decoded
                    .strip_prefix(b"file://")
                    .unwrap_or(&decoded)
                    .to_vec(),
            };
            if !names(&full) {
                wrong.push(format!("uri {uri:?} names no file of {path:?}"));
            }
        }
    }
    wrong
}

/// Whether a CI log (GitHub Actions) reads `line` as a workflow command:
/// it starts with `::` after blanks.
fn workflow_command(line: &str) -> bool {
    line.trim_start().starts_with("::")
}

/// A valid board whose name carries `name` (JSON-escaped).
fn named(name: &str) -> Vec<u8> {
    format!(r#"{{"squares": 10, "name": "{name}", "ladders": [[2, 7]]}}"#).into_bytes()
}

fn name_csi_red() -> Vec<u8> {
    named("Red\\u001b[31m board")
}
fn name_osc_title() -> Vec<u8> {
    named("\\u001b]0;title\\u0007 board")
}
fn name_carriage_return() -> Vec<u8> {
    named("fake\\rline")
}
fn name_clear_screen() -> Vec<u8> {
    named("\\u001b[2J")
}
fn name_rtl_override() -> Vec<u8> {
    named("abc\\u202Edef")
}
fn name_zero_width() -> Vec<u8> {
    named("A\\u200BB")
}
fn name_line_separator() -> Vec<u8> {
    named("one\\u2028two")
}

/// A name that is a GitHub workflow command: valid, and printed by every
/// command, some at the start of a line.
fn name_workflow_command() -> Vec<u8> {
    named("::error file=x,line=1::forged")
}

fn climbing_snake() -> Vec<u8> {
    br#"{"squares": 10, "snakes": [[3, 8]]}"#.to_vec()
}

fn cut_after_a_value() -> Vec<u8> {
    br#"{"squares": 10, "rules": {"overshoot": "win""#.to_vec()
}

fn huge_numbers_everywhere() -> Vec<u8> {
    let big = "9".repeat(100_000);
    format!(r#"{{"squares": {big}}}"#).into_bytes()
}

fn cases() -> Vec<Case> {
    vec![
        // Files that are not there or cannot be read.
        case(
            "missing file",
            Input::Path("no-such-board.json"),
            1,
            "cannot read: No such file or directory",
        ),
        case(
            "dangling symbolic link",
            Input::Path("dangling.json"),
            1,
            "cannot read: No such file or directory",
        ),
        case(
            "symbolic link loop",
            Input::Path("loop-a.json"),
            1,
            "cannot read: Too many levels of symbolic links",
        ),
        case(
            "path through a file",
            Input::Path("plain.json/board.json"),
            1,
            "cannot read: Not a directory",
        ),
        case(
            "unreadable file",
            Input::Path("/proc/self/mem"),
            1,
            "cannot read: Input/output error",
        ),
        case(
            "directory instead of a file",
            Input::Path("a-directory"),
            1,
            "cannot read: is a directory",
        )
        // validate walks a directory: this one holds one invalid board.
        .except("validate", 1, "snakes[0] 3→8: a snake must go down"),
        case(
            "file past the size cap",
            Input::Path("huge-sparse.json"),
            1,
            "bytes, more than the 268435456 bytes a board file may have",
        ),
        // Bytes that are not JSON.
        case(
            "empty file",
            hostile("empty.json"),
            1,
            "line 1, column 1: EOF while parsing a value",
        )
        // validate prints positions as `file:line:column: kind: message`.
        .except("validate", 1, ":1:1: json: EOF while parsing a value"),
        case(
            "whitespace only",
            hostile("whitespace.json"),
            1,
            "EOF while parsing a value",
        ),
        case(
            "garbage bytes",
            hostile("garbage.bin"),
            1,
            "line 1, column 1: expected value",
        )
        .except("validate", 1, ":1:1: json: expected value"),
        case(
            "50 MB of garbage",
            Input::Made("garbage-50mb.json", fifty_mb_garbage),
            1,
            "expected value",
        ),
        case(
            "invalid UTF-8 in a string",
            hostile("invalid-utf8.json"),
            1,
            "invalid unicode code point",
        ),
        case(
            "UTF-16 text",
            hostile("utf16.json"),
            1,
            "line 1, column 1: expected value",
        )
        .except("validate", 1, ":1:1: json: expected value"),
        // A UTF-8 byte-order mark is read past, as editors write it
        // (issue 27), by every command.
        case("byte-order mark", hostile("bom.json"), 0, ""),
        case("NUL bytes", hostile("nul.json"), 1, "expected value"),
        case(
            "truncated file",
            hostile("truncated.json"),
            1,
            "EOF while parsing",
        ),
        // serde names the key it had not read yet `?`; the message names
        // the object the file ended in instead.
        case(
            "a file cut after a value",
            Input::Made("cut.json", cut_after_a_value),
            1,
            "line 1, column 44: `rules`: EOF while parsing an object",
        )
        .except(
            "validate",
            1,
            ":1:44: json: `rules`: EOF while parsing an object",
        ),
        case(
            "trailing garbage",
            hostile("trailing.json"),
            1,
            "trailing characters",
        ),
        case("a comment", hostile("comment.json"), 1, "expected value"),
        case(
            "lone surrogate",
            hostile("surrogate.json"),
            1,
            "is a lone surrogate",
        ),
        case(
            "deeply nested JSON in a field",
            Input::Made("deep.json", deep_nesting),
            1,
            "`name` must be a string, not a list",
        ),
        case(
            "deeply nested JSON at the top",
            Input::Made("deep-top.json", deep_nesting_top),
            1,
            "key must be a string",
        ),
        // Names that would rewrite a terminal or hide text: a validation
        // problem naming the field and the code point, never printed raw.
        case(
            "name with a colour escape",
            Input::Made("csi.json", name_csi_red),
            1,
            "name: has the character U+001B, which is not allowed in a name (a control character)",
        ),
        case(
            "name that sets the window title",
            Input::Made("osc.json", name_osc_title),
            1,
            // Both hidden characters are named, not only the first.
            "name: has 2 characters not allowed in a name: U+001B (a control character) \
             at position 1, U+0007 (a control character) at position 10",
        ),
        case(
            "name with a carriage return",
            Input::Made("cr.json", name_carriage_return),
            1,
            "name: has the character U+000D",
        ),
        case(
            "name that clears the screen",
            Input::Made("clear.json", name_clear_screen),
            1,
            "name: has the character U+001B",
        ),
        case(
            "name with a right-to-left override",
            Input::Made("rtl.json", name_rtl_override),
            1,
            "name: has the character U+202E, which is not allowed in a name (a bidirectional control)",
        ),
        case(
            "name with a zero-width space",
            Input::Made("zwsp.json", name_zero_width),
            1,
            "name: has the character U+200B, which is not allowed in a name (an invisible character)",
        ),
        case(
            "name with a line separator",
            Input::Made("ls.json", name_line_separator),
            1,
            "name: has the character U+2028",
        ),
        // JSON, but not a board file.
        case(
            "null",
            hostile("null.json"),
            1,
            "a board file must be a JSON object ({\"squares\": 100, \"ladders\": [[1, 38]], \"snakes\": [[16, 6]]}), not null",
        ),
        case(
            "a bare number",
            hostile("number.json"),
            1,
            "a board file must be a JSON object ({\"squares\": 100, \"ladders\": [[1, 38]], \"snakes\": [[16, 6]]}), not 100",
        ),
        case(
            "a board written as an array of its fields",
            hostile("array.json"),
            1,
            "a board file must be a JSON object ({\"squares\": 100, \"ladders\": [[1, 38]], \"snakes\": [[16, 6]]}), not a list",
        ),
        case(
            "an empty array",
            hostile("empty-array.json"),
            1,
            "a board file must be a JSON object",
        ),
        case(
            "missing squares",
            hostile("no-squares.json"),
            1,
            "missing field `squares`",
        ),
        case(
            "unknown field",
            hostile("typo.json"),
            1,
            "unknown field `ladder`",
        ),
        case(
            "unknown rule value",
            hostile("bad-overshoot.json"),
            1,
            "unknown variant `bounc`",
        ),
        case(
            "duplicate field",
            hostile("duplicate-field.json"),
            1,
            "duplicate field `squares`",
        ),
        case(
            "squares as a string",
            hostile("squares-string.json"),
            1,
            "`squares` must be a whole number from 2 to 10,000,000, not the text \"100\"",
        ),
        case(
            "squares as a fraction",
            hostile("squares-fraction.json"),
            1,
            "`squares` must be a whole number from 2 to 10,000,000, not 10.5",
        ),
        case(
            "a jump of one number",
            hostile("short-jump.json"),
            1,
            "`ladders[0]` must be a [from, to] pair of squares, not a list of length 1",
        ),
        // Numbers too large for any integer, and negative squares.
        case(
            "squares past i64",
            hostile("squares-huge.json"),
            1,
            "`squares` must be a whole number from 2 to 10,000,000, not 1e+23",
        ),
        case(
            "squares past f64",
            hostile("squares-1e400.json"),
            1,
            "`squares` must be a whole number from 2 to 10,000,000, not a number this large",
        ),
        case(
            "100,000 digits",
            Input::Made("digits.json", huge_numbers_everywhere),
            1,
            "not a number this large",
        ),
        case(
            "a jump past u64",
            hostile("jump-huge.json"),
            1,
            "`ladders[0][1]` must be a whole number, a square of the board, not 1.8446744073709552e+19",
        ),
        case(
            "negative squares",
            hostile("squares-negative.json"),
            1,
            "squares: -100 is out of range (2..=10000000)",
        ),
        case(
            "squares = i64::MIN",
            hostile("squares-min.json"),
            1,
            "squares: -9223372036854775808 is out of range",
        ),
        case(
            "a negative jump",
            hostile("jump-negative.json"),
            1,
            "ladders[0] -5→3: starts on -5, off the board (1..=10)",
        ),
        case(
            "a weight past f64",
            hostile("weight-huge.json"),
            1,
            "`rules.dice.weights[1]` must be a number, 0 or more, not a number this large",
        ),
        case(
            "ten million dice",
            hostile("dice-many.json"),
            1,
            "rules.dice.count: 10000000 dice is out of range",
        ),
        case(
            "a million faces",
            hostile("faces-many.json"),
            1,
            "a die with 1000000 faces is out of range",
        ),
        case(
            "ten million jumps",
            Input::Made("ten-million-jumps.json", ten_million_jumps),
            1,
            "10000000 jumps, but a board of 100 squares has only 99 squares a jump can start on",
        ),
        // Big but fine.
        case(
            "50 MB, a valid board padded",
            Input::Made("padded-50mb.json", fifty_mb_padded),
            0,
            "",
        ),
        case(
            "a 10 MB name",
            Input::Made("long-name.json", long_name),
            0,
            "",
        ),
        case("CRLF line ends", hostile("crlf.json"), 0, ""),
        case(
            "a workflow command as the name",
            Input::Made("workflow.json", name_workflow_command),
            0,
            "",
        ),
        // File names that would forge a workflow command, a line or a
        // terminal sequence if printed as they are.
        case(
            "file name with a newline and a workflow command",
            Input::Made("a\n::error file=x,line=1::forged,%.json", climbing_snake),
            1,
            "a snake must go down",
        ),
        case(
            "file name with a carriage return, ESC and a bell",
            Input::Made("b\r::warning::\u{1b}[2J\u{7}:x.json", climbing_snake),
            1,
            "a snake must go down",
        ),
        case(
            "file name starting a workflow command",
            Input::Made("::error::c\u{202e}\u{2028}.json", climbing_snake),
            1,
            "a snake must go down",
        ),
        // Standard input.
        case(
            "a board on stdin",
            Input::Stdin(br#"{"squares": 10, "ladders": [[2, 7]]}"#),
            0,
            "",
        ),
        case(
            "an invalid board on stdin",
            Input::Stdin(br#"{"squares": 10, "snakes": [[3, 8]]}"#),
            1,
            "snakes[0] 3→8: a snake must go down",
        ),
        case(
            "empty stdin",
            Input::Stdin(b""),
            1,
            "line 1, column 1: EOF while parsing a value",
        )
        .except(
            "validate",
            1,
            "<stdin>:1:1: json: EOF while parsing a value",
        ),
        case(
            "garbage on stdin",
            Input::Stdin(b"\xff\xfe\x00garbage"),
            1,
            "expected value",
        ),
    ]
}

/// Makes the inputs that are not plain files in `tests/hostile/`.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("plain.json"), "{}").unwrap();
    std::fs::create_dir(p.join("a-directory")).unwrap();
    std::fs::write(
        p.join("a-directory/climbing-snake.json"),
        r#"{"squares": 10, "snakes": [[3, 8]]}"#,
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(p.join("nowhere.json"), p.join("dangling.json")).unwrap();
        symlink(p.join("loop-b.json"), p.join("loop-a.json")).unwrap();
        symlink(p.join("loop-a.json"), p.join("loop-b.json")).unwrap();
    }
    // Past MAX_FILE_BYTES (256 MiB) without writing it: a sparse file.
    let huge = std::fs::File::create(p.join("huge-sparse.json")).unwrap();
    huge.set_len(300 * 1024 * 1024).unwrap();
    dir
}

/// Where a case's board is read from, as the command is given it and as
/// its messages name it; and the file made for it, if any.
struct Prepared {
    path: PathBuf,
    shown: String,
    made: Option<PathBuf>,
}

fn prepare(input: &Input, dir: &Path) -> Prepared {
    let (path, made) = match input {
        Input::Hostile(name) => (
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/hostile")
                .join(name),
            false,
        ),
        Input::Made(name, make) => {
            let path = dir.join(name);
            std::fs::write(&path, make()).unwrap();
            (path, true)
        }
        Input::Path(p) => (dir.join(p), false),
        Input::Stdin(_) => (PathBuf::from("-"), false),
    };
    // As every command prints a path: escaped, so a file name cannot
    // forge a line.
    let shown = match input {
        Input::Stdin(_) => "<stdin>".to_string(),
        _ => snakeladder_render::escape::display_path(&path),
    };
    Prepared {
        made: made.then(|| path.clone()),
        path,
        shown,
    }
}

fn run(command: &[&str], input: &Input, path: &Path, dir: &Path) -> Output {
    let stdin = match input {
        Input::Stdin(bytes) => Some(*bytes),
        _ => None,
    };
    let mut child = Command::new(BIN)
        .args(command)
        .arg(path)
        .current_dir(dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        // The command may stop reading early; a closed pipe is fine here.
        let _ = child.stdin.take().unwrap().write_all(bytes);
    }
    child.wait_with_output().unwrap()
}

#[test]
fn hostile_inputs() {
    let dir = scratch();
    let cases = cases();
    assert!(cases.len() >= 30);
    let mut failures = Vec::new();
    for case in &cases {
        if cfg!(not(target_os = "linux")) && case.name == "unreadable file" {
            continue;
        }
        // Each case's file is made once, and the commands read it side by
        // side: the large cases are most of this test's time.
        let Prepared { path, shown, made } = prepare(&case.input, dir.path());
        let (outputs, annotated): (Vec<Output>, Vec<Output>) = std::thread::scope(|scope| {
            let runs: Vec<_> = COMMANDS
                .iter()
                .map(|command| scope.spawn(|| run(command, &case.input, &path, dir.path())))
                .collect();
            let ci: Vec<_> = CI_FORMATS
                .iter()
                .map(|command| scope.spawn(|| run(command, &case.input, &path, dir.path())))
                .collect();
            (
                runs.into_iter().map(|r| r.join().unwrap()).collect(),
                ci.into_iter().map(|r| r.join().unwrap()).collect(),
            )
        });
        if let Some(made) = made {
            std::fs::remove_file(made).unwrap();
        }
        if !matches!(case.input, Input::Stdin(_)) {
            for (command, out) in CI_FORMATS.iter().zip(&annotated) {
                let wrong = points_at(command[2], out, &path, dir.path());
                if !wrong.is_empty() {
                    failures.push(format!(
                        "{} on {}: {}\n  stdout: {}",
                        command.join(" "),
                        case.name,
                        wrong.join("; "),
                        String::from_utf8_lossy(&out.stdout)
                            .chars()
                            .take(600)
                            .collect::<String>(),
                    ));
                }
            }
        }
        for (command, out) in COMMANDS.iter().zip(&outputs) {
            let expect = case
                .except
                .iter()
                .find(|(c, _)| *c == command[0])
                .map_or(case.expect, |(_, e)| *e);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let all = format!("{stdout}{stderr}");
            let mut wrong = Vec::new();
            if out.status.code() != Some(expect.code) {
                wrong.push(format!(
                    "exit {:?}, expected {}",
                    out.status.code(),
                    expect.code
                ));
            }
            if all.contains("panicked") || all.contains("RUST_BACKTRACE") {
                wrong.push("panicked".to_string());
            }
            if let Some(c) = all.chars().find(|&c| RAW_NEVER.contains(&c)) {
                wrong.push(format!("a raw U+{:04X} reached the output", u32::from(c)));
            }
            if let Some(line) = all.lines().find(|l| workflow_command(l)) {
                wrong.push(format!(
                    "a line a CI log reads as a workflow command: {line}"
                ));
            }
            if stderr.lines().count() > 1 {
                wrong.push("more than one line on stderr".to_string());
            }
            if expect.code == 1 {
                // One line naming the file (or, for a directory, a file in
                // it) and the problem.
                let named = all
                    .lines()
                    .any(|l| l.contains(expect.text) && l.contains(&shown));
                if !named {
                    wrong.push(format!("no line names {shown} and {:?}", expect.text));
                }
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "{} on {}: {}\n  stdout: {}\n  stderr: {}",
                    command.join(" "),
                    case.name,
                    wrong.join("; "),
                    stdout.chars().take(300).collect::<String>(),
                    stderr.chars().take(300).collect::<String>(),
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Command-line misuse is exit code 2, from clap, for every command.
#[test]
fn misuse_is_exit_code_two() {
    for command in COMMANDS {
        let out = Command::new(BIN)
            .args(*command)
            .arg("--no-such-flag")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-flag"));
    }
    for args in [
        &["no-such-command"][..],
        &[],
        &["validate", "--format", "yaml"],
    ] {
        let out = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A reader that closes the pipe early (`snakeladder ... | head -c 100`) ends
/// the command quietly, and a gate's status is still that of its findings:
/// `validate` on an invalid board exits 1, never 0 (issue 30). The output is
/// made long enough to fill the pipe's buffer (64 KiB on Linux) many times
/// over: `validate` on a board with 20,000 problems prints 20,000 lines.
#[test]
fn a_closed_pipe_ends_quietly_and_keeps_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // Problems are listed at most a few of a kind a file, so the long
    // output comes from many files of a few problems each.
    let path = dir.path().join("many-problems");
    std::fs::create_dir(&path).unwrap();
    let snakes: Vec<String> = (0..10).map(|i| format!("[{}, {}]", i + 2, i + 3)).collect();
    let board = format!(r#"{{"squares": 100, "snakes": [{}]}}"#, snakes.join(", "));
    for f in 0..2_000 {
        std::fs::write(path.join(format!("b{f}.json")), &board).unwrap();
    }
    let mut child = Command::new(BIN)
        .args(["validate"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Player ids with terminal escapes, bidirectional overrides, invisible
/// characters or line separators are refused (exit 2) naming the code
/// point, and no output carries them raw.
#[test]
fn hostile_player_ids_are_refused_and_never_printed_raw() {
    for (ids, code_point) in [
        ("Ana\u{1b}[31m,Bo", "U+001B"),
        ("\u{1b}]0;title\u{7},Bo", "U+001B"),
        ("An\ra,Bo", "U+000D"),
        ("A\u{202e}B,Bo", "U+202E"),
        ("A\u{200b}B,AB", "U+200B"),
        ("one\u{2028}two,Bo", "U+2028"),
    ] {
        let out = Command::new(BIN)
            .args(["play", "--seed", "1", "--players", ids])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{ids:?}: {out:?}");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(all.contains(code_point), "{ids:?}: {all}");
        assert!(
            !all.chars().any(|c| RAW_NEVER.contains(&c)),
            "{ids:?} reached the output raw: {all:?}"
        );
    }
}

/// A player id with several hidden characters is refused naming each of
/// them, and an id of a megabyte is quoted only in part.
#[test]
fn every_hidden_character_of_a_player_id_is_named() {
    let out = Command::new(BIN)
        .args([
            "play",
            "--seed",
            "1",
            "--players",
            "A\u{1b}[1m\u{202e}B\u{1b},Bo",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "has 3 characters: U+001B (a control character) at positions 2 and 8, \
             U+202E (a bidirectional control) at position 6, which are not allowed in a player id"
        ),
        "{err}"
    );
    let long = format!("{}\u{1b},Bo", "x".repeat(100_000));
    let out = Command::new(BIN)
        .args(["play", "--seed", "1", "--players", &long])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
    assert!(
        err.contains("U+001B (a control character) at position 100001"),
        "{err}"
    );
}

/// Runs the binary with `args` under an address-space cap of `kib` KiB
/// (`ulimit -v`): a process that stays under it used at most that much
/// memory, whatever else the machine runs (no timing, no sampling).
fn capped(kib: u64, args: &[&str], stdin: Stdio) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .stdin(stdin)
        .output()
        .unwrap()
}

/// Boards of long `follow` chains cost memory linear in their squares
/// (docs/chains.md). The board of issue 14 (40,000 squares, ladders
/// [i, i + 1], follow) made `simulate --games 1000` reach 6.28 GB and
/// `analyze` take 48 s; here it must run under a 1 GiB address-space cap.
/// Its time (0.5 s in a release build) is not asserted: the machine is
/// shared; the cap fails a quadratic table long before any timeout would.
#[test]
fn long_follow_chains_run_in_linear_memory() {
    let n = 40_000;
    let ladders: Vec<String> = (1..n - 1).map(|i| format!("[{i},{}]", i + 1)).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chains.json");
    std::fs::write(
        &path,
        format!(
            r#"{{"squares": {n}, "ladders": [{}], "rules": {{"chains": "follow"}}}}"#,
            ladders.join(",")
        ),
    )
    .unwrap();
    let board = path.to_str().unwrap();
    for args in [
        &["simulate", "--games", "1000", "--seed", "1", board][..],
        &["analyze", board],
        &["check", "--games", "1000", "--seed", "1", board],
    ] {
        let out = capped(1 << 20, args, Stdio::null());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    }
}

/// `play --interactive` reading a line that never ends (`< /dev/zero`)
/// stops at its line cap with exit 3, under a 50 MiB address-space cap.
#[test]
fn an_endless_input_line_stays_under_fifty_megabytes() {
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let out = capped(
        50 << 10,
        &["play", "--players", "Ana,Bo", "--interactive"],
        Stdio::from(zero),
    );
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("an input line longer than 1024 bytes"),
        "{stderr}"
    );
}

/// 52 squares and 33 snakes: a mean of 8,752 turns, a length distribution
/// followed for 241,367 turns to a tail of 1e-12.
const LONG_GAMES: &str = r#"{"name": "many snakes", "squares": 52, "snakes": [[2, 1], [4, 1],
    [5, 3], [7, 6], [8, 3], [10, 1], [11, 1], [13, 9], [14, 6], [16, 12], [17, 3], [19, 3],
    [20, 15], [22, 21], [23, 21], [25, 18], [26, 6], [28, 9], [29, 6], [31, 24], [32, 18],
    [34, 33], [35, 1], [37, 30], [38, 36], [40, 3], [41, 6], [43, 36], [44, 27], [46, 3],
    [47, 27], [49, 1], [50, 24]]}"#;

/// Output files people or machines read stay small for a board within the
/// limits: the JSON length distribution lists at most `MAX_JSON_TERMS`
/// turns and states the probability of the rest in `tail` (README, "JSON
/// outputs"); a report's charts are binned.
#[test]
fn json_distributions_are_capped_with_the_tail_stated() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("long.json");
    std::fs::write(&board, LONG_GAMES).unwrap();
    let out = Command::new(BIN)
        .args(["analyze", "--format", "json"])
        .arg(&board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.len() < 50 << 20, "{} bytes", out.stdout.len());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let turns = &json["turns"];
    let cap = snakeladder_render::json::MAX_JSON_TERMS;
    let pmf = turns["pmf"].as_array().unwrap();
    let cdf = turns["cdf"].as_array().unwrap();
    assert_eq!((pmf.len(), cdf.len()), (cap, cap));
    // The tail is what the listed terms leave out: about
    // exp(−100,000 / 8,752) ≈ 1e-5 here, and 1 − cdf at the last listed
    // turn to the rounding of 10^5 sums (well under 1e-9).
    let tail = turns["tail"].as_f64().unwrap();
    let last = cdf[cap - 1].as_f64().unwrap();
    assert!(tail > 1e-6 && tail < 1e-4, "tail {tail}");
    assert!(
        (tail - (1.0 - last)).abs() < 1e-9,
        "tail {tail}, cdf {last}"
    );
    for format in ["html", "markdown"] {
        let page = dir.path().join(format!("report.{format}"));
        let out = Command::new(BIN)
            .args(["report", "--format", format, "-o"])
            .arg(&page)
            .arg(&board)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}: {out:?}");
    }
    // The pages and the Markdown report's charts beside it.
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let entry = entry.unwrap();
        let size = entry.metadata().unwrap().len();
        assert!(size < 50 << 20, "{:?}: {size} bytes", entry.file_name());
    }
}

/// A per-square list longer than `MAX_JSON_ENTRIES` is left out of the
/// JSON of `analyze` and `simulate` and named in `skipped` with its length
/// (the 998,000 squares of the README's million-square board made 140 MB);
/// the short jump list beside it is still given whole.
#[test]
fn json_lists_past_the_cap_are_named_in_skipped_not_written() {
    let cap = snakeladder_render::json::MAX_JSON_ENTRIES;
    let n = cap + 10;
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("wide.json");
    std::fs::write(
        &board,
        format!(r#"{{"squares": {n}, "ladders": [[3, {}]]}}"#, n - 20),
    )
    .unwrap();
    for args in [
        &["analyze", "--format", "json", "--max-work", "1e9"][..],
        &[
            "simulate", "--format", "json", "--games", "2", "--seed", "1",
        ],
    ] {
        let out = Command::new(BIN).args(args).arg(&board).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert!(out.stdout.len() < 50 << 20, "{} bytes", out.stdout.len());
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["squares"], serde_json::json!([]), "{args:?}");
        assert_eq!(json["jumps"].as_array().map(Vec::len), Some(1), "{args:?}");
        let skipped = json["skipped"].as_array().unwrap();
        let squares = skipped
            .iter()
            .find(|s| s["figure"] == "squares")
            .unwrap_or_else(|| panic!("{args:?}: {skipped:?}"));
        assert_eq!(squares["reason"], "output");
        assert_eq!(squares["limit"].as_f64(), Some(cap as f64));
        assert!(squares["estimate"].as_f64().unwrap() > cap as f64);
    }
}

/// A board file whose unknown key holds a newline, a workflow command, a
/// carriage return and an escape sequence.
const KEY: &[u8] = br#"{"squares": 10, "x\n::error file=evil.json::INJECTED\r\n\u001b[31m": 1}"#;

/// `fmt` prints file names and the keys it quotes escaped, as every other
/// command does: a key or a file name cannot forge a line, a workflow
/// command or a terminal escape, whether the file is named, found in a
/// directory or read from standard input.
#[test]
fn fmt_messages_are_escaped() {
    let dir = scratch();
    std::fs::create_dir(dir.path().join("walked")).unwrap();
    std::fs::write(dir.path().join("key.json"), KEY).unwrap();
    std::fs::write(dir.path().join("walked/key.json"), KEY).unwrap();
    let escaped_name = "nope\u{1b}[31m.json";
    for (args, input, path) in [
        (&["fmt", "--check"][..], Input::Path("key.json"), "key.json"),
        (&["fmt"], Input::Path("key.json"), "key.json"),
        (&["fmt", "--check"], Input::Path("walked"), "walked"),
        (&["fmt", "--check"], Input::Path(escaped_name), escaped_name),
        (
            &["fmt", "--check"],
            Input::Path("::error::x.json"),
            "::error::x.json",
        ),
        (&["fmt"], Input::Stdin(KEY), "-"),
    ] {
        let out = run(args, &input, Path::new(path), dir.path());
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
        assert!(
            !all.chars().any(|c| RAW_NEVER.contains(&c)),
            "{args:?}: {all:?}"
        );
        assert!(!all.lines().any(workflow_command), "{args:?}: {all}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).lines().count(),
            1,
            "{args:?}: {all}"
        );
    }
}

/// `fmt` reads a board saved with a byte-order mark, as every other
/// command does, and writes it back without one.
#[test]
fn fmt_reads_past_a_byte_order_mark() {
    let dir = scratch();
    let file = dir.path().join("bom.json");
    std::fs::write(&file, b"\xEF\xBB\xBF{\"squares\": 10}").unwrap();
    let out = Command::new(BIN).arg("fmt").arg(&file).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"{\n  \"squares\": 10\n}\n");
}
