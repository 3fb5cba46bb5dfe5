//! `snakeladder._native.Chain`: any absorbing Markov chain, built from
//! Python values or read from PRISM's and Storm's explicit files or JSON,
//! and answered by the `absorbing` crate, as `snakeladder chain` is.
//!
//! The Python half (`python/snakeladder/_chain.py`) turns matrices, masks
//! and dicts into lists of `(from, to, value)` and checks their types; this
//! half builds the chain, names every problem of it at once, and hands the
//! answers to Python as plain values and `float64` bytes.

use crate::errors;
use crate::interrupt::run_interruptible;
use absorbing::answers::{AnswerError, Options};
use absorbing::read::Explicit;
use absorbing::{
    Answers, Chain, ChainBuilder, Error, ErrorKind, Expectation, Part, Place, Problem, Value,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

/// A number as Python gives it, after the Python half's conversion: a
/// fraction `(numerator, denominator)` (from an `int` or a `Fraction`),
/// text read exactly (`"1/3"`, `"0.1"`), or a float.
///
/// A float is tried first: the most common, and each variant tried in vain
/// costs an exception object.
#[derive(FromPyObject)]
pub enum Number {
    Float(f64),
    Ratio(BigInt, BigInt),
    Text(String),
}

impl Number {
    /// The value, or why it is none.
    fn value(self) -> Result<Value, String> {
        match self {
            Number::Ratio(_, d) if d.sign() == num_bigint::Sign::NoSign => {
                Err("a fraction with denominator 0".into())
            }
            Number::Ratio(n, d) => Ok(Value::Exact(BigRational::new(n, d))),
            Number::Text(text) => text.parse::<Value>().map_err(|e| e.to_string()),
            Number::Float(x) => Ok(Value::Float(x)),
        }
    }
}

/// An item of a list given to [`PyChain::build`]: its index in the list
/// the caller gave (the Python half may have left out items it found
/// wrong, so the builder's indices are not the caller's).
type Indexed<T> = (T, usize);

/// The name of a problem's kind: its variant, in snake case
/// (`RowSum { .. }` is `row_sum`), a stable name to match on.
fn kind_name(kind: &impl std::fmt::Debug) -> String {
    let debug = format!("{kind:?}");
    let mut name = String::new();
    for c in debug.chars().take_while(|c| c.is_alphanumeric()) {
        if c.is_uppercase() {
            if !name.is_empty() {
                name.push('_');
            }
            name.extend(c.to_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

fn part_name(part: Part) -> &'static str {
    match part {
        Part::Transition => "transitions",
        Part::Initial => "initial",
        Part::Target => "target",
        Part::Reward => "rewards",
        _ => "input",
    }
}

/// One problem as the dict `ChainProblem` is made from: `kind`,
/// `message`, `location` (as the command prints it), and where it is:
/// `file`, `line` and `column` in a file, or `part` and `index` in a list
/// given from Python (`index` mapped back to the caller's list).
fn problem_dict<'py>(
    py: Python<'py>,
    p: &Problem,
    indices: &dyn Fn(Part, usize) -> usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", kind_name(p.kind()))?;
    d.set_item("message", errors::message(&p.kind().to_string()))?;
    let file = p
        .location()
        .file()
        .map(snakeladder_render::escape::display_path);
    let (mut line, mut column, mut part, mut index) = (None, None, None, None);
    let location = match p.location().place() {
        Place::Line { line: l, column: c } => {
            (line, column) = (Some(*l), Some(*c));
            p.location().to_string()
        }
        Place::Item { part: pt, index: i } => {
            let i = indices(*pt, *i);
            (part, index) = (Some(part_name(*pt)), Some(i));
            match &file {
                Some(f) => format!("{f}: {}[{i}]", part_name(*pt)),
                None => format!("{}[{i}]", part_name(*pt)),
            }
        }
        _ => p.location().to_string(),
    };
    d.set_item("location", errors::message(&location))?;
    d.set_item("file", file)?;
    d.set_item("line", line)?;
    d.set_item("column", column)?;
    d.set_item("part", part)?;
    d.set_item("index", index)?;
    Ok(d)
}

/// A problem found outside the builder, in the same form.
fn own_problem<'py>(
    py: Python<'py>,
    kind: &str,
    message: &str,
    part: Option<&str>,
    index: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", kind)?;
    d.set_item("message", errors::message(message))?;
    let location = match (part, index) {
        (Some(p), Some(i)) => format!("{p}[{i}]"),
        (Some(p), None) => p.to_string(),
        _ => String::new(),
    };
    d.set_item("location", location)?;
    d.set_item("file", None::<String>)?;
    d.set_item("line", None::<u64>)?;
    d.set_item("column", None::<u64>)?;
    d.set_item("part", part)?;
    d.set_item("index", index)?;
    Ok(d)
}

/// `snakeladder._errors.ChainError` with every problem.
fn chain_error(py: Python<'_>, problems: Bound<'_, PyList>, omitted: usize) -> PyErr {
    let made = py
        .import("snakeladder._errors")
        .and_then(|m| m.getattr("ChainError"))
        .and_then(|c| c.call1((problems, omitted)));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(e) => e,
    }
}

/// The crate's error (a file that cannot be read, or an invalid chain) as
/// a `ChainError`, after the `earlier` problems the caller found.
fn read_error(
    py: Python<'_>,
    err: &Error,
    earlier: Bound<'_, PyList>,
    indices: &dyn Fn(Part, usize) -> usize,
    skip: &dyn Fn(&Problem) -> bool,
) -> PyErr {
    let made = (|| -> PyResult<Bound<'_, PyList>> {
        match err.kind() {
            ErrorKind::Io { path, source } => {
                let d = PyDict::new(py);
                let file = snakeladder_render::escape::display_path(path);
                d.set_item("kind", "io")?;
                d.set_item(
                    "message",
                    errors::message(&format!("cannot read: {source}")),
                )?;
                d.set_item("location", &file)?;
                d.set_item("file", &file)?;
                for key in ["line", "column", "part", "index"] {
                    d.set_item(key, None::<u64>)?;
                }
                earlier.append(d)?;
            }
            _ => {
                for p in err.problems().iter().filter(|p| !skip(p)) {
                    earlier.append(problem_dict(py, p, indices)?)?;
                }
            }
        }
        Ok(earlier)
    })();
    // The problems the crate did not list are counted, unless some it
    // listed were left out as repeats of the caller's: then the unlisted
    // ones may be repeats too, and counting them would claim problems that
    // are not there.
    let skipped = err.problems().iter().any(skip);
    let omitted = if skipped { 0 } else { err.omitted() };
    match made {
        Ok(list) => chain_error(py, list, omitted),
        Err(e) => e,
    }
}

/// A chain's answers as the Python half reads them.
#[pyclass(frozen, module = "snakeladder._native", name = "ChainAnswers")]
pub struct PyChainAnswers {
    answers: Answers,
}

/// `f64`s as their bytes in native order (numpy's `frombuffer`).
fn f64_bytes<'py>(py: Python<'py>, values: impl Iterator<Item = f64>) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.flat_map(f64::to_ne_bytes).collect();
    PyBytes::new(py, &bytes)
}

/// A fraction as `(numerator, denominator)`, integers of any size (PyO3
/// converts them through bytes, never through decimal text).
fn ratio(r: &BigRational) -> (BigInt, BigInt) {
    (r.numer().clone(), r.denom().clone())
}

#[pymethods]
impl PyChainAnswers {
    /// The answers from the initial distribution, by the keys of
    /// `snakeladder chain --format json` (`None` for an infinite
    /// expectation), and `never_reaching` whole.
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.answers;
        let d = PyDict::new(py);
        let split = |e: &Expectation| match e.finite() {
            Some(b) => (Some(b.value), Some(b.error_bound)),
            None => (None, None),
        };
        d.set_item("reach_probability", a.reach_probability().value)?;
        d.set_item(
            "reach_probability_error_bound",
            a.reach_probability().error_bound,
        )?;
        let (steps, steps_bound) = split(a.expected_steps());
        d.set_item("expected_steps", steps)?;
        d.set_item("expected_steps_error_bound", steps_bound)?;
        d.set_item(
            "expected_steps_infinite_because",
            snakeladder_render::chain::infinite_because(a),
        )?;
        let (variance, variance_bound) = split(a.variance());
        d.set_item("variance", variance)?;
        d.set_item("variance_error_bound", variance_bound)?;
        d.set_item("has_rewards", a.expected_reward().is_some())?;
        let (reward, reward_bound) = a.expected_reward().map(split).unwrap_or((None, None));
        d.set_item("expected_reward", reward)?;
        d.set_item("expected_reward_error_bound", reward_bound)?;
        d.set_item("never_reaching", a.never_reached_from_initial().to_vec())?;
        Ok(d)
    }

    /// The per-state arrays, as `float64` bytes: `reach_probabilities`,
    /// `expected_steps_from` (inf where infinite) and `visits`, each with
    /// its `..._error_bounds` (0 where the value is inf: the classification
    /// that makes it infinite is exact).
    fn per_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.answers;
        let n = a.reach().len();
        let d = PyDict::new(py);
        let reach: Vec<_> = (0..n).map(|s| a.reach_probability_from(s)).collect();
        let steps: Vec<_> = (0..n).map(|s| a.expected_steps_from(s).finite()).collect();
        d.set_item(
            "reach_probabilities",
            f64_bytes(py, reach.iter().map(|b| b.value)),
        )?;
        d.set_item(
            "reach_probabilities_error_bounds",
            f64_bytes(py, reach.iter().map(|b| b.error_bound)),
        )?;
        d.set_item(
            "expected_steps_from",
            f64_bytes(
                py,
                steps.iter().map(|b| b.map_or(f64::INFINITY, |b| b.value)),
            ),
        )?;
        d.set_item(
            "expected_steps_from_error_bounds",
            f64_bytes(py, steps.iter().map(|b| b.map_or(0.0, |b| b.error_bound))),
        )?;
        d.set_item("visits", f64_bytes(py, a.visits().iter().copied()))?;
        d.set_item(
            "visits_error_bounds",
            f64_bytes(py, a.visits_error_bounds().iter().copied()),
        )?;
        Ok(d)
    }

    /// The steps' distribution: `(pmf, cdf, tail, never, error_bound)`
    /// with the arrays as `float64` bytes, or `None` when not asked for.
    #[allow(clippy::type_complexity)]
    fn distribution<'py>(
        &self,
        py: Python<'py>,
    ) -> Option<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, f64, f64, f64)> {
        self.answers.distribution().map(|d| {
            (
                f64_bytes(py, d.pmf.iter().copied()),
                f64_bytes(py, d.cdf.iter().copied()),
                d.tail,
                d.never,
                d.error_bound,
            )
        })
    }

    /// The certified fractions as `(numerator, denominator)` pairs:
    /// reach probability, expected steps, variance, expected reward (each
    /// `None` when infinite or not given), or `None` when not asked for.
    #[allow(clippy::type_complexity)]
    fn exact(
        &self,
    ) -> Option<(
        (BigInt, BigInt),
        Option<(BigInt, BigInt)>,
        Option<(BigInt, BigInt)>,
        Option<(BigInt, BigInt)>,
    )> {
        self.answers.exact().map(|e| {
            (
                ratio(&e.reach_probability),
                e.expected_steps.as_ref().map(ratio),
                e.variance.as_ref().map(ratio),
                e.expected_reward.as_ref().map(ratio),
            )
        })
    }
}

/// A validated absorbing chain; it never changes.
#[pyclass(frozen, module = "snakeladder._native", name = "Chain")]
pub struct PyChain {
    chain: Arc<Chain>,
}

#[pymethods]
impl PyChain {
    /// The chain of PRISM's or Storm's explicit files, as `snakeladder
    /// chain FILE.tra --labels --state-rewards --init --target` reads them.
    #[staticmethod]
    #[pyo3(signature = (tra, labels, state_rewards, init, target))]
    fn from_explicit(
        py: Python<'_>,
        tra: PathBuf,
        labels: Option<PathBuf>,
        state_rewards: Option<PathBuf>,
        init: Option<String>,
        target: Option<String>,
    ) -> PyResult<PyChain> {
        if labels.is_none() && (init.is_some() || target.is_some()) {
            return Err(errors::value_error(
                "init and target name labels: give the labels file with labels=",
            ));
        }
        let mut explicit = Explicit::new(&tra);
        if let Some(lab) = &labels {
            explicit = explicit.labels(lab);
        }
        if let Some(srew) = &state_rewards {
            explicit = explicit.rewards(srew);
        }
        if let Some(init) = &init {
            explicit = explicit.initial_label(init);
        }
        if let Some(target) = &target {
            explicit = explicit.target_label(target);
        }
        let chain = py.detach(|| explicit.read());
        Self::made(py, chain)
    }

    /// The chain of a JSON file (docs/chain-format.md).
    #[staticmethod]
    fn from_json_path(py: Python<'_>, path: PathBuf) -> PyResult<PyChain> {
        let chain = py.detach(|| absorbing::read::json_file(&path));
        Self::made(py, chain)
    }

    /// The chain of a JSON text.
    #[staticmethod]
    fn from_json_text(py: Python<'_>, text: &str) -> PyResult<PyChain> {
        let chain = py.detach(|| absorbing::read::json(text.as_bytes(), None));
        Self::made(py, chain)
    }

    /// A chain of `states` states from the Python half's lists: each
    /// transition `(from, to, number, index)` (and, for a float matrix,
    /// `floats`: its rows and columns as `int64` bytes and probabilities as
    /// `float64` bytes, entry `k` at index `k`, read without a Python
    /// object per entry), the initial state or
    /// distribution, the targets (and whether the absorbing states are
    /// targets too), the rewards `(state, number, index)`.
    /// `earlier` holds the problems the Python half found; the items it left
    /// out for them are not given here, and the sums of the rows (and of
    /// the initial distribution) they belonged to are not checked, since a
    /// wrong sum would only repeat that problem. Every problem, theirs
    /// first, is raised at once as a `ChainError`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (states, transitions, floats, initial_state, initial, targets, absorbing_targets, rewards, earlier, unchecked_rows, unchecked_initial))]
    fn build(
        py: Python<'_>,
        states: usize,
        transitions: Vec<(usize, usize, Number, usize)>,
        floats: Option<(Vec<u8>, Vec<u8>, Vec<u8>)>,
        initial_state: Option<usize>,
        initial: Vec<(usize, Number, usize)>,
        targets: Vec<Indexed<usize>>,
        absorbing_targets: bool,
        rewards: Option<Vec<(usize, Number, usize)>>,
        earlier: Bound<'_, PyList>,
        unchecked_rows: Vec<usize>,
        unchecked_initial: bool,
    ) -> PyResult<PyChain> {
        let mut b = ChainBuilder::new(states);
        let mut unchecked_rows: HashSet<usize> = unchecked_rows.into_iter().collect();
        let mut unchecked_initial = unchecked_initial;
        // Each builder index's index in the caller's list, by part.
        let mut transition_at = Vec::with_capacity(transitions.len());
        if let Some((from, to, p)) = &floats {
            let int = |b: &[u8]| i64::from_ne_bytes(b.try_into().expect("8 bytes")) as usize;
            let entries = from
                .chunks_exact(8)
                .zip(to.chunks_exact(8))
                .zip(p.chunks_exact(8));
            for (k, ((f, t), p)) in entries.enumerate() {
                let p = f64::from_ne_bytes(p.try_into().expect("8 bytes"));
                b.transition(int(f), int(t), p);
                transition_at.push(k);
            }
        }
        for (from, to, number, at) in transitions {
            match number.value() {
                Ok(v) => {
                    b.transition(from, to, v);
                    transition_at.push(at);
                }
                Err(why) => {
                    let message = format!(
                        "the probability of the transition {from} -> {to} is not a number: {why}"
                    );
                    earlier.append(own_problem(
                        py,
                        "not_a_number",
                        &message,
                        Some("transitions"),
                        Some(at),
                    )?)?;
                    unchecked_rows.insert(from);
                }
            }
        }
        let mut initial_at = Vec::new();
        match initial_state {
            Some(s) => {
                b.initial_state(s);
            }
            None => {
                let mut distribution = Vec::with_capacity(initial.len());
                for (s, number, at) in initial {
                    match number.value() {
                        Ok(v) => {
                            distribution.push((s, v));
                            initial_at.push(at);
                        }
                        Err(why) => {
                            let message = format!(
                                "the initial probability of state {s} is not a number: {why}"
                            );
                            earlier.append(own_problem(
                                py,
                                "not_a_number",
                                &message,
                                Some("initial"),
                                Some(at),
                            )?)?;
                            unchecked_initial = true;
                        }
                    }
                }
                if !distribution.is_empty() {
                    b.initial_distribution(&distribution);
                }
            }
        }
        let target_at: Vec<usize> = targets.iter().map(|&(_, at)| at).collect();
        b.targets(targets.into_iter().map(|(s, _)| s));
        if absorbing_targets {
            b.absorbing_targets();
        }
        let mut reward_at = Vec::new();
        for (s, number, at) in rewards.into_iter().flatten() {
            match number.value() {
                Ok(v) => {
                    b.state_reward(s, v);
                    reward_at.push(at);
                }
                Err(why) => {
                    let message = format!("the reward of state {s} is not a number: {why}");
                    earlier.append(own_problem(
                        py,
                        "not_a_number",
                        &message,
                        Some("rewards"),
                        Some(at),
                    )?)?;
                }
            }
        }
        let built = b.build();
        let indices = |part: Part, i: usize| {
            let list = match part {
                Part::Transition => &transition_at,
                Part::Initial => &initial_at,
                Part::Target => &target_at,
                Part::Reward => &reward_at,
                _ => return i,
            };
            list.get(i).copied().unwrap_or(i)
        };
        let skip = |p: &Problem| match p.kind() {
            absorbing::ProblemKind::RowSum { state, .. } => {
                unchecked_rows.contains(&(*state as usize))
            }
            absorbing::ProblemKind::Deadlock { state } => {
                unchecked_rows.contains(&(*state as usize))
            }
            absorbing::ProblemKind::InitialSum { .. } => unchecked_initial,
            absorbing::ProblemKind::NoInitial => unchecked_initial,
            _ => false,
        };
        match built {
            Ok(_) if !earlier.is_empty() => Err(chain_error(py, earlier, 0)),
            Ok(chain) => Ok(PyChain {
                chain: Arc::new(chain),
            }),
            Err(e) => Err(read_error(py, &e, earlier, &indices, &skip)),
        }
    }

    /// The number of states.
    #[getter]
    fn states(&self) -> usize {
        self.chain.len()
    }

    /// The number of stored transitions.
    #[getter]
    fn transitions(&self) -> usize {
        self.chain.entries()
    }

    /// The number of target states.
    #[getter]
    fn targets(&self) -> usize {
        (0..self.chain.len())
            .filter(|&s| self.chain.is_target(s))
            .count()
    }

    /// Whether each state is a target, as one byte per state.
    fn target_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let mask: Vec<u8> = (0..self.chain.len())
            .map(|s| u8::from(self.chain.is_target(s)))
            .collect();
        PyBytes::new(py, &mask)
    }

    /// The initial distribution as `(state, probability)`.
    fn initial(&self) -> Vec<(u32, f64)> {
        self.chain.initial().to_vec()
    }

    /// The transitions as `(from, to, probability)` float bytes: `from` and
    /// `to` as `uint32`, `probability` as `float64`.
    fn coo<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
    ) {
        let c = &self.chain;
        let (mut from, mut to, mut p) = (Vec::new(), Vec::new(), Vec::new());
        for s in 0..c.len() {
            for (t, x) in c.row(s) {
                from.extend_from_slice(&(s as u32).to_ne_bytes());
                to.extend_from_slice(&(t as u32).to_ne_bytes());
                p.extend_from_slice(&x.to_ne_bytes());
            }
        }
        (
            PyBytes::new(py, &from),
            PyBytes::new(py, &to),
            PyBytes::new(py, &p),
        )
    }

    /// Whether every transition was given exactly (what `exact=True`
    /// needs, with exact initial probabilities and rewards).
    fn is_exact(&self) -> bool {
        self.chain.exact_row(0).is_some()
    }

    /// The chain as JSON (docs/chain-format.md).
    fn to_json(&self) -> String {
        absorbing::read::to_json(&self.chain)
    }

    /// Every answer (docs/chain-questions.md); Ctrl-C stops the work.
    #[pyo3(signature = (exact, distribution, max_work, max_memory))]
    fn answer(
        &self,
        py: Python<'_>,
        exact: bool,
        distribution: bool,
        max_work: Option<f64>,
        max_memory: Option<u64>,
    ) -> PyResult<PyChainAnswers> {
        let limits = crate::board::limits(max_work, max_memory)?;
        let options = Options {
            exact,
            distribution,
            max_work: max_work.unwrap_or(Options::default().max_work),
            max_memory: limits.max_memory,
        };
        let chain = Arc::clone(&self.chain);
        // Ctrl-C sets the flag; the abandoned work ends at its next look.
        let answered = run_interruptible(py, move |stop| chain.answer(&options, Some(&*stop)))?;
        match answered {
            Ok(answers) => Ok(PyChainAnswers { answers }),
            Err(e) => Err(answer_error(py, &e)),
        }
    }
}

impl PyChain {
    fn made(py: Python<'_>, chain: Result<Chain, Error>) -> PyResult<PyChain> {
        match chain {
            Ok(chain) => Ok(PyChain {
                chain: Arc::new(chain),
            }),
            Err(e) => Err(read_error(py, &e, PyList::empty(py), &|_, i| i, &|_| false)),
        }
    }
}

/// Why a chain was not answered: a limit passed is a `LimitError`,
/// fractions asked of a chain given in floats a `ChainError` (the input
/// does not allow them), the rest an `AnalysisError`.
fn answer_error(py: Python<'_>, err: &AnswerError) -> PyErr {
    let raise = |class: &str| {
        let made = py
            .import("snakeladder._errors")
            .and_then(|m| m.getattr(class))
            .and_then(|c| c.call1((errors::message(&err.to_string()),)));
        match made {
            Ok(exception) => PyErr::from_value(exception),
            Err(e) => e,
        }
    };
    match err {
        AnswerError::TooMuchWork { .. } | AnswerError::TooMuchMemory { .. } => raise("LimitError"),
        AnswerError::NotExact { .. } => {
            match own_problem(py, "not_exact", &err.to_string(), None, None)
                .and_then(|p| PyList::new(py, [p]))
            {
                Ok(list) => chain_error(py, list, 0),
                Err(e) => e,
            }
        }
        AnswerError::Stopped => pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped"),
        _ => raise("AnalysisError"),
    }
}
