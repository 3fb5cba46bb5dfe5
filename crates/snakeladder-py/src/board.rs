//! `snakeladder._native.Board`: a validated board and everything asked of
//! it (analysis, simulation, check, validation, diff, tuning, drawing).

use crate::analysis::PyAnalysis;
use crate::errors;
use crate::interrupt::run_interruptible;
use crate::tools::PyDiff;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use snakeladder::design::{Target, TuneOptions};
use snakeladder::review::Review;
use snakeladder::simulate::{self, SimulationConfig};
use snakeladder::{Analysis, Board, Seed};
use snakeladder::{Limits, Options};
use snakeladder_render::charts::{Overlay, board_svg};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A validated board: it exists only if it is valid, and never changes.
#[pyclass(frozen, module = "snakeladder._native", name = "Board")]
pub struct PyBoard {
    /// The board, shared with work running on other threads.
    pub board: Arc<Board>,
}

impl PyBoard {
    /// Wraps a board.
    pub fn new(board: Board) -> PyBoard {
        PyBoard {
            board: Arc::new(board),
        }
    }
}

/// The limits of the keyword arguments `max_work` and `max_memory`, each
/// defaulting as the command's `--max-work` and `--max-memory` do: the
/// core's work limit ([`Limits::DEFAULT_MAX_WORK`]) and half the machine's
/// memory ([`Limits::machine_max_memory`]), for every function that takes
/// limits.
pub fn limits(max_work: Option<f64>, max_memory: Option<u64>) -> PyResult<Limits> {
    let mut limits = Limits {
        max_memory: max_memory.unwrap_or_else(Limits::machine_max_memory),
        ..Limits::default()
    };
    if let Some(w) = max_work {
        if !(w.is_finite() && w >= 0.0) {
            return Err(errors::value_error(format!(
                "max_work must be a finite number of multiply-adds >= 0, not {w}"
            )));
        }
        limits.max_work = w;
    }
    Ok(limits)
}

/// The time limit of the keyword argument `time_limit`, in seconds.
pub fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                errors::value_error(format!(
                    "time_limit must be a finite number of seconds > 0, not {s}"
                ))
            })
        })
        .transpose()
}

/// The analysis options of the keyword arguments.
pub fn options(
    players: Vec<u32>,
    exact: bool,
    max_work: Option<f64>,
    max_memory: Option<u64>,
) -> PyResult<Options> {
    Ok(Options::default()
        .players(players)
        .exact(exact)
        .limits(limits(max_work, max_memory)?))
}

/// A simulation's configuration from the keyword arguments; the memory
/// limit defaults as [`limits`] says.
fn config(
    py: Python<'_>,
    games: u64,
    seed: u64,
    players: u32,
    threads: Option<usize>,
    max_memory: Option<u64>,
) -> PyResult<SimulationConfig> {
    let err = |e| errors::simulate_error(py, &e);
    let mut config = SimulationConfig::new(games, Seed::new(seed))
        .map_err(err)?
        .with_players(players)
        .map_err(err)?
        .with_max_memory(limits(None, max_memory)?.max_memory);
    if let Some(t) = threads {
        config = config.with_threads(t).map_err(err)?;
    }
    Ok(config)
}

#[pymethods]
impl PyBoard {
    /// The board of a JSON text; `file` names it in the problems.
    #[staticmethod]
    fn from_text(py: Python<'_>, text: &str, file: &str) -> PyResult<PyBoard> {
        match Board::from_json_str(text) {
            Ok(board) => Ok(PyBoard::new(board)),
            Err(e) => Err(errors::board_error_at(py, &e, file, text.as_bytes())),
        }
    }

    /// The board of a JSON file.
    #[staticmethod]
    fn from_path(py: Python<'_>, path: PathBuf) -> PyResult<PyBoard> {
        let file = snakeladder_render::escape::display_path(&path);
        let bytes = match snakeladder::Board::read_bytes(&path) {
            Ok(bytes) => bytes,
            Err(e) => return Err(errors::board_error(py, &e, &file)),
        };
        match Board::from_json_slice(&bytes) {
            Ok(board) => Ok(PyBoard::new(board)),
            Err(e) => Err(errors::board_error_at(
                py,
                &e.with_path(&path),
                &file,
                &bytes,
            )),
        }
    }

    /// The built-in default board (Milton Bradley, chute 48→26).
    #[staticmethod]
    fn builtin() -> PyBoard {
        PyBoard::new(Board::builtin_default())
    }

    /// The board's name, if its file gave one.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.board.name()
    }

    /// The last square N.
    #[getter]
    fn squares(&self) -> u32 {
        self.board.last().get()
    }

    /// Squares per row of the drawing.
    #[getter]
    fn width(&self) -> u32 {
        self.board.width()
    }

    /// The fingerprint of the layout and effective rules.
    #[getter]
    fn fingerprint(&self) -> String {
        self.board.fingerprint()
    }

    /// Every jump as `(kind, from, to)`, sorted by start square.
    #[getter]
    fn jumps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .board
            .jumps()
            .iter()
            .map(|j| {
                PyTuple::new(
                    py,
                    [
                        j.kind().as_str().into_pyobject(py)?.into_any(),
                        j.from().get().into_pyobject(py)?.into_any(),
                        j.to().get().into_pyobject(py)?.into_any(),
                    ],
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The effective rules, every default filled in, as a dict.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.board.rules().spec())?)
    }

    /// The board as its JSON file would hold it, as a dict.
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.board.spec())?)
    }

    /// The board's JSON text.
    fn to_json(&self, pretty: bool) -> PyResult<String> {
        let spec = self.board.spec();
        let text = if pretty {
            serde_json::to_string_pretty(&spec)
        } else {
            serde_json::to_string(&spec)
        };
        text.map_err(errors::value_error)
    }

    /// Every figure of the board (GIL released while it is computed).
    #[pyo3(signature = (players, exact, max_work, max_memory))]
    fn analyze(
        &self,
        py: Python<'_>,
        players: Vec<u32>,
        exact: bool,
        max_work: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<PyAnalysis> {
        let options = options(players, exact, max_work, max_memory)?;
        let board = Arc::clone(&self.board);
        // Ctrl-C sets the flag; the abandoned analysis ends at its next look.
        match run_interruptible(py, move |stop| {
            Analysis::new(&board, &options.with_stop(stop))
        })? {
            Ok(analysis) => Ok(PyAnalysis::new(analysis, Arc::clone(&self.board))),
            Err(e) => Err(errors::analysis_error(py, &e)),
        }
    }

    /// The mean number of turns alone: one compile and one solve, which
    /// the core cannot stop part way (Ctrl-C abandons it).
    fn mean_turns(&self, py: Python<'_>) -> PyResult<f64> {
        let board = Arc::clone(&self.board);
        run_interruptible(py, move |_| snakeladder::Analysis::mean_turns(&board))?
            .map_err(|e| errors::analysis_error(py, &e))
    }

    /// Plays `games` seeded games (`simulate --format json`'s figures, as a
    /// dict); Ctrl-C stops it.
    #[pyo3(signature = (games, seed, players, threads, max_memory))]
    fn simulate<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        seed: u64,
        players: u32,
        threads: Option<usize>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let config = config(py, games, seed, players, threads, max_memory)?;
        let board = Arc::clone(&self.board);
        let report = run_interruptible(py, move |stop| {
            simulate::simulate(&board, &config.with_stop(stop))
        })?
        .map_err(|e| errors::simulate_error(py, &e))?;
        Ok(pythonize::pythonize(py, &report)?)
    }

    /// Every exact figure against a simulation (`check --format json`'s
    /// figures, as a dict); Ctrl-C stops it.
    #[pyo3(signature = (games, seed, players, threads, max_memory))]
    fn check<'py>(
        &self,
        py: Python<'py>,
        games: u64,
        seed: u64,
        players: u32,
        threads: Option<usize>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let config = config(py, games, seed, players, threads, max_memory)?;
        let board = Arc::clone(&self.board);
        let report = run_interruptible(py, move |stop| {
            snakeladder::check::check(&board, &config.with_stop(stop))
        })?
        .map_err(|e| errors::simulate_error(py, &e))?;
        Ok(pythonize::pythonize(py, &report)?)
    }

    /// The review's findings on this board's JSON (a valid board has no
    /// errors; its own `limits` may add policy violations).
    fn validate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let text = self.to_json(true)?;
        let board_name = self.board.name().unwrap_or("<board>").to_string();
        let report = py.detach(|| Review::default().check_bytes(&board_name, text.as_bytes()));
        errors::findings(py, &report.findings)
    }

    /// What changing this board into `other` does to every figure.
    #[pyo3(signature = (other, old_name, new_name, max_work, max_memory))]
    fn diff(
        &self,
        py: Python<'_>,
        other: &PyBoard,
        old_name: String,
        new_name: String,
        max_work: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<PyDiff> {
        let options = options(vec![2, 3, 4, 5, 6], false, max_work, max_memory)?;
        let (old, new) = (Arc::clone(&self.board), Arc::clone(&other.board));
        let boards = (Arc::clone(&old), Arc::clone(&new));
        // Ctrl-C stops whichever analysis is running, as for `analyze`.
        let analyses =
            run_interruptible(py, move |stop| -> Result<_, snakeladder::AnalysisError> {
                let options = options.with_stop(stop);
                Ok((
                    Analysis::new(&boards.0, &options)?,
                    Analysis::new(&boards.1, &options)?,
                ))
            })?;
        let (old_a, new_a) = analyses.map_err(|e| errors::analysis_error(py, &e))?;
        let diff =
            snakeladder_render::diff::Diff::new((&old, &old_a, old_name), (&new, &new_a, new_name));
        Ok(PyDiff { diff, old, new })
    }

    /// The fewest jump moves that bring the mean into `min..=max` turns,
    /// within the limits `snakeladder tune` takes; Ctrl-C stops it.
    #[pyo3(signature = (min, max, max_changes, keep, seed, max_first_seat_advantage, max_work, max_memory, time_limit))]
    #[allow(clippy::too_many_arguments)]
    fn tune<'py>(
        &self,
        py: Python<'py>,
        min: f64,
        max: f64,
        max_changes: usize,
        keep: Vec<(u32, u32)>,
        seed: u64,
        max_first_seat_advantage: Option<f64>,
        max_work: Option<f64>,
        max_memory: Option<u64>,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let err = |e| errors::design_error(py, &e);
        let mut target = Target::new(min, max).map_err(err)?;
        if let Some(a) = max_first_seat_advantage {
            target = target.with_max_first_seat_advantage(a).map_err(err)?;
        }
        let mut options = TuneOptions::new(target, max_changes)
            .with_keep(keep)
            .with_seed(Seed::new(seed))
            .with_limits(limits(max_work, max_memory)?);
        if let Some(t) = self::time_limit(time_limit)? {
            options = options.with_time_limit(t);
        }
        let board = Arc::clone(&self.board);
        let tuned = run_interruptible(py, move |stop| {
            snakeladder::design::tune(&board, &options.with_stop(stop))
        })?
        .map_err(err)?;
        let d = PyDict::new(py);
        d.set_item("changes", pythonize::pythonize(py, &tuned.changes)?)?;
        d.set_item("mean_turns_before", tuned.mean_before)?;
        d.set_item("mean_turns", tuned.mean_turns)?;
        d.set_item("first_seat_advantage", tuned.first_seat_advantage)?;
        d.set_item("evaluated", tuned.evaluated)?;
        d.set_item("ruled_out", tuned.ruled_out)?;
        d.set_item("seconds", tuned.seconds)?;
        d.set_item("board", PyBoard::new(tuned.board))?;
        Ok(d)
    }

    /// The board drawn as an SVG document.
    fn svg(&self, title: &str) -> PyResult<String> {
        board_svg(&self.board, title, &Overlay::default()).map_err(errors::value_error)
    }
}
