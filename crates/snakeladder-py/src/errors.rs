//! The core's errors as the Python exceptions of `snakeladder._errors`,
//! and the one rule for the text of every message the package raises
//! ([`message`]).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use snakeladder::AnalysisError;
use snakeladder::BoardError;
use snakeladder::design::DesignError;
use snakeladder::review::{self, Finding, Review};
use snakeladder::simulate::SimulateError;

/// The command's flags named in the core's messages, and the keyword
/// arguments of this package that mean the same.
const KEYWORDS: [(&str, &str); 4] = [
    ("--max-memory", "max_memory="),
    ("--max-work", "max_work="),
    ("--time-limit", "time_limit="),
    ("max first-seat advantage:", "max_first_seat_advantage:"),
];

/// A message as Python shows it: the command's flags named as this
/// package's keyword arguments, and escaped as the command escapes user
/// text for a terminal ([`snakeladder_render::escape::terminal`]: a
/// newline, ESC or a bidirectional override in a board's name, a key or a
/// path is written `\n`, `\u{1b}`, `\u{202e}`), since a traceback or a
/// notebook prints it as it is.
pub fn message(text: &str) -> String {
    let mut text = text.to_string();
    for (flag, keyword) in KEYWORDS {
        if text.contains(flag) {
            text = text.replace(flag, keyword);
        }
    }
    snakeladder_render::escape::terminal(&text)
}

/// [`message`] for the Python half (`_args.message`), so that its messages
/// follow the same rule.
#[pyfunction(name = "message")]
pub fn py_message(text: &str) -> String {
    message(text)
}

/// A `ValueError` with `text` as [`message`] shows it.
pub fn value_error(text: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message(&text.to_string()))
}

/// An instance of the exception class `class` of `snakeladder._errors`,
/// made with `args`; an error importing it is returned instead.
fn raise<'py, A>(py: Python<'py>, class: &str, args: A) -> PyErr
where
    A: pyo3::call::PyCallArgs<'py>,
{
    let made = py
        .import("snakeladder._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(e) => e,
    }
}

/// One finding as a dict of `kind`, `field`, `line`, `column`, `message`
/// and `severity` (the keys of `validate --format json`'s problems).
pub fn finding<'py>(py: Python<'py>, f: &Finding) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", &f.kind)?;
    d.set_item("field", f.field.as_deref().map(message))?;
    d.set_item("line", f.line)?;
    d.set_item("column", f.column)?;
    d.set_item("message", message(&f.message))?;
    d.set_item(
        "severity",
        match f.severity {
            review::Severity::Error => "error",
            review::Severity::Warning => "warning",
        },
    )?;
    d.set_item("file", &f.file)?;
    Ok(d)
}

/// A list of findings as dicts.
pub fn findings<'py>(py: Python<'py>, list: &[Finding]) -> PyResult<Bound<'py, PyList>> {
    let items = list
        .iter()
        .map(|f| finding(py, f))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// `BoardError` for a board that could not be made from `bytes` (named
/// `file`): every problem, each at its line, column and field, as
/// `snakeladder validate` finds them.
pub fn board_error_at(py: Python<'_>, err: &BoardError, file: &str, bytes: &[u8]) -> PyErr {
    let report = Review::default().check_bytes(file, bytes);
    let mut found: Vec<Finding> = report
        .findings
        .into_iter()
        .filter(|f| f.severity == review::Severity::Error)
        .collect();
    if found.is_empty() {
        // Not a problem of the text (none was found there): the error alone.
        found.push(review::Finding::file_error(
            file,
            err.kind(),
            err.to_string(),
        ));
    }
    board_error_of(py, err.to_string(), &found)
}

/// `BoardError` with a message and its findings.
pub fn board_error_of(py: Python<'_>, message: String, found: &[Finding]) -> PyErr {
    match findings(py, found) {
        Ok(list) => raise(py, "BoardError", (self::message(&message), list)),
        Err(e) => e,
    }
}

/// `BoardError` for an error without a text to locate it in (a file that
/// cannot be read, a generated layout that is invalid).
pub fn board_error(py: Python<'_>, err: &BoardError, file: &str) -> PyErr {
    let mut found: Vec<Finding> = err
        .problems()
        .iter()
        .map(|p| review::Finding::file_error(file, p.kind(), p.to_string()))
        .collect();
    if found.is_empty() {
        found.push(review::Finding::file_error(
            file,
            err.kind(),
            err.to_string(),
        ));
    }
    board_error_of(py, err.to_string(), &found)
}

/// An analysis error: a bad argument is a `ValueError`, a limit passed
/// `LimitError`, anything else `AnalysisError`.
pub fn analysis_error(py: Python<'_>, err: &AnalysisError) -> PyErr {
    match err {
        AnalysisError::Players { .. } => value_error(err),
        AnalysisError::Memory { .. } => raise(py, "LimitError", (message(&err.to_string()),)),
        _ => raise(py, "AnalysisError", (message(&err.to_string()),)),
    }
}

/// A simulation error: a bad argument is a `ValueError`, Ctrl-C is
/// `KeyboardInterrupt` (raised by the caller), the rest `SimulationError`.
pub fn simulate_error(py: Python<'_>, err: &SimulateError) -> PyErr {
    match err {
        SimulateError::Games { .. }
        | SimulateError::Players { .. }
        | SimulateError::Threads { .. } => value_error(err),
        SimulateError::Memory { .. } => raise(py, "LimitError", (message(&err.to_string()),)),
        SimulateError::Analysis(e) => analysis_error(py, e),
        _ => raise(py, "SimulationError", (message(&err.to_string()),)),
    }
}

/// A design error: a bad target, kept jump or layout size is a
/// `ValueError`, an analysis failure as [`analysis_error`], a generated
/// layout that is invalid a `BoardError`, the rest `DesignError`.
pub fn design_error(py: Python<'_>, err: &DesignError) -> PyErr {
    match err {
        DesignError::Target { .. }
        | DesignError::Advantage { .. }
        | DesignError::KeepNotOnBoard { .. }
        | DesignError::Squares { .. }
        | DesignError::TooManyJumps { .. } => value_error(err),
        // The core's message names no argument.
        DesignError::MaxLength => value_error(format!("max_length: {err}")),
        DesignError::Analysis(e) => analysis_error(py, e),
        DesignError::Invalid(e) => board_error(py, e, "<generated>"),
        _ => raise(py, "DesignError", (message(&err.to_string()),)),
    }
}
