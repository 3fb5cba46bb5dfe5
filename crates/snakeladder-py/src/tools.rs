//! The functions of the module: validating files, generating boards, and
//! the diff of two boards.

use crate::board::{PyBoard, limits, time_limit};
use crate::errors;
use crate::interrupt::run_interruptible;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use snakeladder::design::{GenerateOptions, Layout, Target};
use snakeladder::internals::RulesSpec;
use snakeladder::review::{self, Review};
use snakeladder::{Board, Seed};
use snakeladder_render::RenderDiff;
use snakeladder_render::diff::Diff;
use std::path::PathBuf;
use std::sync::Arc;

/// What changing one board into another does to every figure.
#[pyclass(frozen, module = "snakeladder._native", name = "Diff")]
pub struct PyDiff {
    /// The core's diff.
    pub diff: Diff,
    /// The board before.
    pub old: Arc<Board>,
    /// The board after.
    pub new: Arc<Board>,
}

#[pymethods]
impl PyDiff {
    /// `diff --format json`, as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.diff)?)
    }

    /// The diff as text.
    fn text(&self) -> String {
        self.diff.text()
    }

    /// The diff as Markdown.
    fn markdown(&self) -> String {
        self.diff.markdown()
    }

    /// The diff as an HTML page with both boards drawn.
    fn html(&self) -> String {
        self.diff.html(&self.old, &self.new)
    }

    /// Whether the two boards are the same layout and rules.
    fn same_board(&self) -> bool {
        self.diff.same_board()
    }
}

/// The review's findings on one board file's bytes, named `file`.
#[pyfunction]
pub fn validate_bytes<'py>(
    py: Python<'py>,
    bytes: Vec<u8>,
    file: String,
) -> PyResult<Bound<'py, PyList>> {
    let report = py.detach(|| Review::default().check_bytes(&file, &bytes));
    errors::findings(py, &report.findings)
}

/// The review's findings on one board file.
#[pyfunction]
pub fn validate_path(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyList>> {
    let file = snakeladder_render::escape::display_path(&path);
    let report = py.detach(|| match snakeladder::Board::read_bytes(&path) {
        Ok(bytes) => Review::default().check_bytes(&file, &bytes),
        Err(e) => review::FileReport {
            file: file.clone(),
            findings: vec![review::Finding::file_error(&file, e.kind(), e.to_string())],
        },
    });
    errors::findings(py, &report.findings)
}

/// A seeded random board; with a target band, searched until its mean
/// turns are in the band within the limits `generate --target-turns` takes
/// (a dict with the board and the search's figures). Ctrl-C stops either.
#[pyfunction]
#[pyo3(signature = (squares, snakes, ladders, seed, max_length, name, rules, target, max_first_seat_advantage, max_work, max_memory, seconds))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    squares: u32,
    snakes: u32,
    ladders: u32,
    seed: u64,
    max_length: Option<u32>,
    name: Option<String>,
    rules: Option<Bound<'py, PyAny>>,
    target: Option<(f64, f64)>,
    max_first_seat_advantage: Option<f64>,
    max_work: Option<f64>,
    max_memory: Option<u64>,
    seconds: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules: Option<RulesSpec> = match rules {
        Some(r) => Some(
            pythonize::depythonize(&r).map_err(|e| errors::value_error(format!("rules: {e}")))?,
        ),
        None => None,
    };
    let mut layout = Layout::new(squares, snakes, ladders, Seed::new(seed));
    if let Some(length) = max_length {
        layout = layout.with_max_length(length);
    }
    if let Some(rules) = rules {
        layout = layout.with_rules(rules);
    }
    if let Some(name) = name {
        layout = layout.with_name(name);
    }
    let d = PyDict::new(py);
    match target {
        None => {
            // Drawing a layout has no stop hook; it takes a moment even on
            // the largest board.
            let board = run_interruptible(py, move |_| layout.generate())?
                .map_err(|e| errors::design_error(py, &e))?;
            d.set_item("board", PyBoard::new(board))?;
        }
        Some((min, max)) => {
            let err = |e| errors::design_error(py, &e);
            let mut band = Target::new(min, max).map_err(err)?;
            if let Some(a) = max_first_seat_advantage {
                band = band.with_max_first_seat_advantage(a).map_err(err)?;
            }
            let mut options =
                GenerateOptions::new(layout, band).with_limits(limits(max_work, max_memory)?);
            if let Some(t) = time_limit(seconds)? {
                options = options.with_time_limit(t);
            }
            let made = run_interruptible(py, move |stop| {
                snakeladder::design::generate_to_target(&options.with_stop(stop))
            })?
            .map_err(err)?;
            d.set_item("mean_turns", made.mean_turns)?;
            d.set_item("first_seat_advantage", made.first_seat_advantage)?;
            d.set_item("evaluated", made.evaluated)?;
            d.set_item("seconds", made.seconds)?;
            d.set_item("board", PyBoard::new(made.board))?;
        }
    }
    Ok(d)
}
