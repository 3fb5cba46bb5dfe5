//! `snakeladder._native.Analysis`: the core's analysis of one board, held
//! whole; Python reads the figures it is asked for (arrays as raw `float64`
//! bytes for numpy, the rest as plain values), so an analysis costs no
//! conversion of figures nobody reads.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use snakeladder::{Analysis, Board};
use snakeladder_render::Report;
use snakeladder_render::charts::{Overlay, board_svg};
use std::sync::Arc;

/// Every figure of one board, as the core computed it.
#[pyclass(frozen, module = "snakeladder._native", name = "Analysis")]
pub struct PyAnalysis {
    analysis: Analysis,
    board: Arc<Board>,
}

impl PyAnalysis {
    /// Wraps an analysis of `board`.
    pub fn new(analysis: Analysis, board: Arc<Board>) -> PyAnalysis {
        PyAnalysis { analysis, board }
    }
}

/// `f64`s as their bytes in native order (numpy's `frombuffer`).
fn f64_bytes<'py>(
    py: Python<'py>,
    values: impl ExactSizeIterator<Item = f64>,
) -> Bound<'py, PyBytes> {
    let mut bytes = Vec::with_capacity(values.len() * 8);
    for v in values {
        bytes.extend_from_slice(&v.to_ne_bytes());
    }
    PyBytes::new(py, &bytes)
}

/// `u32`s as their bytes in native order.
fn u32_bytes<'py>(
    py: Python<'py>,
    values: impl ExactSizeIterator<Item = u32>,
) -> Bound<'py, PyBytes> {
    let mut bytes = Vec::with_capacity(values.len() * 4);
    for v in values {
        bytes.extend_from_slice(&v.to_ne_bytes());
    }
    PyBytes::new(py, &bytes)
}

/// A figure that may be missing, as NaN in a float column.
fn or_nan(x: Option<f64>) -> f64 {
    x.unwrap_or(f64::NAN)
}

#[pymethods]
impl PyAnalysis {
    /// Mean turns of one player.
    #[getter]
    fn mean(&self) -> f64 {
        self.analysis.turns.mean
    }

    /// Variance of the turns.
    #[getter]
    fn variance(&self) -> f64 {
        self.analysis.turns.variance
    }

    /// Standard deviation of the turns.
    #[getter]
    fn std_dev(&self) -> f64 {
        self.analysis.turns.std_dev
    }

    /// The turns' quantities without a distribution: `(min, mode, median,
    /// p90, p99)`, each `None` when the distribution was skipped.
    #[allow(clippy::type_complexity)]
    fn quantiles(
        &self,
    ) -> (
        Option<usize>,
        Option<usize>,
        Option<usize>,
        Option<usize>,
        Option<usize>,
    ) {
        let t = &self.analysis.turns;
        (t.min, t.mode, t.median, t.p90, t.p99)
    }

    /// Error bounds of the mean and variance (relative).
    fn error_bounds(&self) -> (f64, f64) {
        let t = &self.analysis.turns;
        (t.mean_error_bound, t.variance_error_bound)
    }

    /// Mass of the distribution past its last term.
    #[getter]
    fn tail(&self) -> f64 {
        self.analysis.turns.tail
    }

    /// `P(T = t)` for t = 1, 2, ... as `float64` bytes.
    fn pmf_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        f64_bytes(py, self.analysis.turns.pmf.iter().copied())
    }

    /// `P(T <= t)` for t = 1, 2, ... as `float64` bytes.
    fn cdf_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        f64_bytes(py, self.analysis.turns.cdf.iter().copied())
    }

    /// Rolls of one player: `(mean, variance)`.
    fn rolls(&self) -> (f64, f64) {
        (self.analysis.rolls.mean, self.analysis.rolls.variance)
    }

    /// The per-square figures as columns: `square` (`uint32` bytes),
    /// `expected_rests`, `rest_probability`, `turns_left` (`float64` bytes,
    /// NaN where a figure is missing).
    fn square_columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.analysis.squares;
        let d = PyDict::new(py);
        d.set_item("square", u32_bytes(py, s.iter().map(|f| f.square.get())))?;
        d.set_item(
            "expected_rests",
            f64_bytes(py, s.iter().map(|f| f.expected_rests)),
        )?;
        d.set_item(
            "rest_probability",
            f64_bytes(py, s.iter().map(|f| or_nan(f.rest_probability))),
        )?;
        d.set_item(
            "turns_left",
            f64_bytes(py, s.iter().map(|f| or_nan(f.turns_left))),
        )?;
        Ok(d)
    }

    /// The per-jump figures as columns: `kind` (a list of str), `from`,
    /// `to` (`uint32` bytes), `expected_uses`, `use_probability`,
    /// `mean_turns_without` (`float64` bytes; NaN: the game never ends
    /// without the jump).
    fn jump_columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let j = &self.analysis.jumps;
        let d = PyDict::new(py);
        d.set_item("kind", PyList::new(py, j.iter().map(|f| f.kind.as_str()))?)?;
        d.set_item("from", u32_bytes(py, j.iter().map(|f| f.from.get())))?;
        d.set_item("to", u32_bytes(py, j.iter().map(|f| f.to.get())))?;
        d.set_item(
            "expected_uses",
            f64_bytes(py, j.iter().map(|f| f.expected_uses)),
        )?;
        d.set_item(
            "use_probability",
            f64_bytes(py, j.iter().map(|f| f.use_probability)),
        )?;
        d.set_item(
            "mean_turns_without",
            f64_bytes(py, j.iter().map(|f| or_nan(f.mean_turns_without))),
        )?;
        Ok(d)
    }

    /// Seat odds: a list of `(count, win_probability, expected_total_turns,
    /// expected_rounds)`.
    #[allow(clippy::type_complexity)]
    fn players(&self) -> Vec<(u32, Vec<f64>, f64, f64)> {
        self.analysis
            .players
            .iter()
            .map(|p| {
                (
                    p.count,
                    p.win_probability.clone(),
                    p.expected_total_turns,
                    p.expected_rounds,
                )
            })
            .collect()
    }

    /// The shortest game as a dict (`analyze --format json`'s `shortest`),
    /// or `None`.
    fn shortest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.analysis.shortest)?)
    }

    /// The exact mean as `(numerator, denominator)` Python ints, the
    /// float solve's relative difference from it and how it was certified
    /// (`analyze --format json`'s `exact`), or `None` without exact mode.
    fn exact<'py>(&self, py: Python<'py>) -> PyResult<Option<ExactParts<'py>>> {
        let Some(e) = self.analysis.exact.as_ref() else {
            return Ok(None);
        };
        Ok(Some((
            python_int(py, &e.mean.numer().to_signed_bytes_le())?,
            python_int(py, &e.mean.denom().to_signed_bytes_le())?,
            e.relative_difference,
            e.certified.clone(),
        )))
    }

    /// The board summary, fingerprint, rules, solver, skipped figures and
    /// warnings, as a dict with `analyze --format json`'s keys.
    fn about<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.analysis;
        let d = PyDict::new(py);
        d.set_item("board", pythonize::pythonize(py, &a.board)?)?;
        d.set_item("fingerprint", &a.fingerprint)?;
        d.set_item("rules", pythonize::pythonize(py, &a.rules)?)?;
        d.set_item("solver", pythonize::pythonize(py, &a.solver)?)?;
        d.set_item("skipped", pythonize::pythonize(py, &a.skipped)?)?;
        d.set_item("warnings", pythonize::pythonize(py, &a.warnings)?)?;
        Ok(d)
    }

    /// The whole analysis as `analyze --format json` gives it (without its
    /// size caps), as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.analysis)?)
    }

    /// The report as Markdown (charts linked as `<stem>-*.svg`, returned
    /// as `(name, svg)` pairs) or one self-contained HTML page.
    #[pyo3(signature = (format, stem=None))]
    fn report(
        &self,
        format: &str,
        stem: Option<&str>,
    ) -> PyResult<(String, Vec<(String, String)>)> {
        let report = Report::new(&self.board, &self.analysis);
        let rendered = match format {
            "html" => report.render_html(),
            "markdown" => report.render_markdown(stem),
            _ => {
                return Err(crate::errors::value_error(format!(
                    "format must be 'html' or 'markdown', not {format:?}"
                )));
            }
        };
        let files = rendered
            .files
            .into_iter()
            .map(|f| (f.name, f.svg))
            .collect();
        Ok((rendered.document, files))
    }

    /// The board drawn with each square shaded by its expected rests a
    /// game.
    fn svg(&self, title: &str) -> PyResult<String> {
        let n = self.board.last().get() as usize;
        let mut shade = vec![0.0; n + 1];
        for s in &self.analysis.squares {
            if let Some(slot) = shade.get_mut(s.square.get() as usize) {
                *slot = s.expected_rests;
            }
        }
        let overlay = Overlay {
            shade: Some(shade),
            ..Overlay::default()
        };
        board_svg(&self.board, title, &overlay).map_err(crate::errors::value_error)
    }
}

/// What [`PyAnalysis::exact`] hands Python: numerator and denominator
/// (Python ints), relative difference, certification.
type ExactParts<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>, f64, String);

/// A big integer, given as its two's-complement bytes (least significant
/// first), as a Python int of any size (`int.from_bytes`): a conversion
/// through decimal text is refused by Python past 4,300 digits
/// (`sys.set_int_max_str_digits`), and an exact mean has thousands of
/// digits on a board of a few hundred squares.
fn python_int<'py>(py: Python<'py>, signed_le: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyBytes::new(py, signed_le);
    let kwargs = PyDict::new(py);
    kwargs.set_item("signed", true)?;
    py.get_type::<pyo3::types::PyInt>()
        .call_method("from_bytes", (bytes, "little"), Some(&kwargs))
}
