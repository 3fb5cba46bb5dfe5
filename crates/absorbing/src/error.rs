//! The crate's error: a file that could not be read, or every problem found
//! in the input, each with the values involved and where it came from.

use crate::chain::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The most problems an [`Error`] lists; past it, only their number is kept,
/// so that a huge bad input gives a message (and uses memory) of bounded
/// size.
///
/// ```
/// use absorbing::{ChainBuilder, MAX_PROBLEMS};
/// let err = ChainBuilder::new(1_000).build().unwrap_err();
/// assert_eq!(err.problems().len(), MAX_PROBLEMS);
/// assert!(err.to_string().ends_with(&format!("and {} more", err.omitted())));
/// ```
pub const MAX_PROBLEMS: usize = 100;

/// The longest text of the input a problem quotes, in characters; longer
/// text is cut and ends in `…`.
///
/// ```
/// use absorbing::read::Explicit;
/// let err = Explicit::from_text(format!("1 1\n0 0 {}\n", "x".repeat(1000))).read().unwrap_err();
/// assert!(err.to_string().contains(&format!("\"{}…\"", "x".repeat(absorbing::MAX_QUOTE_CHARS))));
/// ```
pub const MAX_QUOTE_CHARS: usize = 40;

/// Why a chain could not be read or built.
///
/// [`kind`](Error::kind) tells what went wrong, to match on;
/// [`problems`](Error::problems) lists what is wrong with the input.
///
/// # Example
/// ```
/// use absorbing::{ChainBuilder, ErrorKind, ProblemKind};
///
/// let err = ChainBuilder::new(2)
///     .transition(0, 1, 0.5)
///     .transition(1, 1, 1.0)
///     .initial_state(0)
///     .targets([1])
///     .build()
///     .unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Invalid { .. }));
/// assert!(matches!(err.problems()[0].kind(), ProblemKind::RowSum { state: 0, .. }));
/// ```
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Error(Box<ErrorKind>);

/// What went wrong; see [`Error::kind`].
///
/// ```
/// use absorbing::{ErrorKind, read::Explicit};
/// let err = Explicit::new("/no/such.tra").read().unwrap_err();
/// match err.kind() {
///     ErrorKind::Io { path, .. } => assert_eq!(path.to_str(), Some("/no/such.tra")),
///     other => panic!("{other}"),
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The input is not a valid chain; every problem found is listed (up to
    /// [`MAX_PROBLEMS`]).
    #[error("{}", summary(problems, *omitted))]
    Invalid {
        /// The first [`MAX_PROBLEMS`] problems found.
        problems: Vec<Problem>,
        /// How many more problems were found and not listed.
        omitted: usize,
    },
}

impl Error {
    /// What went wrong.
    ///
    /// ```
    /// use absorbing::{ChainBuilder, ErrorKind};
    ///
    /// let err = ChainBuilder::new(1).build().unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::Invalid { .. }));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.0
    }

    /// The error's kind, owned.
    ///
    /// ```
    /// use absorbing::{ChainBuilder, ErrorKind};
    ///
    /// let err = ChainBuilder::new(1).build().unwrap_err();
    /// let ErrorKind::Invalid { problems, omitted } = err.into_kind() else { panic!() };
    /// assert_eq!(omitted, 0);
    /// assert!(!problems.is_empty());
    /// ```
    pub fn into_kind(self) -> ErrorKind {
        *self.0
    }

    /// The problems found in the input, empty for an error of reading.
    ///
    /// ```
    /// use absorbing::{ChainBuilder, ProblemKind};
    ///
    /// let err = ChainBuilder::new(1).transition(0, 0, 1.0).build().unwrap_err();
    /// let kinds: Vec<_> = err.problems().iter().map(|p| p.kind().clone()).collect();
    /// assert_eq!(kinds, [ProblemKind::NoTarget, ProblemKind::NoInitial]);
    /// ```
    pub fn problems(&self) -> &[Problem] {
        match &*self.0 {
            ErrorKind::Invalid { problems, .. } => problems,
            ErrorKind::Io { .. } => &[],
        }
    }

    /// How many problems were found beyond the listed
    /// [`problems`](Error::problems).
    ///
    /// ```
    /// use absorbing::{ChainBuilder, MAX_PROBLEMS};
    ///
    /// let mut b = ChainBuilder::new(1);
    /// for _ in 0..150 {
    ///     b.transition(0, 0, -1.0);
    /// }
    /// let err = b.initial_state(0).targets([0]).build().unwrap_err();
    /// assert_eq!(err.problems().len(), MAX_PROBLEMS);
    /// assert!(err.omitted() > 0);
    /// ```
    pub fn omitted(&self) -> usize {
        match &*self.0 {
            ErrorKind::Invalid { omitted, .. } => *omitted,
            ErrorKind::Io { .. } => 0,
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Error {
        Error(Box::new(ErrorKind::Io {
            path: path.to_path_buf(),
            source,
        }))
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error(Box::new(kind))
    }
}

fn summary(problems: &[Problem], omitted: usize) -> String {
    match (problems, omitted) {
        ([one], 0) => one.to_string(),
        _ => {
            let mut s = format!("{} problems:", problems.len() + omitted);
            for p in problems {
                s.push_str("\n  ");
                s.push_str(&p.to_string());
            }
            if omitted > 0 {
                s.push_str(&format!("\n  and {omitted} more"));
            }
            s
        }
    }
}

/// Which list of the input an item belongs to, for a [`Location`] that
/// names an item by its index.
///
/// ```
/// use absorbing::{ChainBuilder, Part, Place};
/// let err = ChainBuilder::new(1).transition(0, 0, 1.0).initial_state(0).targets([3]).build().unwrap_err();
/// assert_eq!(err.problems()[0].location().place(), &Place::Item { part: Part::Target, index: 0 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part {
    /// The transitions, in the order given.
    Transition,
    /// The initial distribution.
    Initial,
    /// The target states.
    Target,
    /// The state rewards.
    Reward,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Transition => "transitions",
            Part::Initial => "initial",
            Part::Target => "target",
            Part::Reward => "rewards",
        }
    }
}

/// Where in the input a problem is: a line and column of a file, or the
/// index of an item given to [`ChainBuilder`](crate::ChainBuilder) (or in a
/// JSON file's list).
///
/// ```
/// use absorbing::{Location, Place};
///
/// let at = Location::line(Some("m.tra".as_ref()), 3, 5);
/// assert_eq!(at.to_string(), "m.tra:3:5");
/// assert_eq!(at.place(), &Place::Line { line: 3, column: 5 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    file: Option<Arc<Path>>,
    place: Place,
}

/// The place of a [`Location`] within its input.
///
/// ```
/// use absorbing::{Place, read::Explicit};
/// let err = Explicit::from_text("1 1\n0 0 0.5\n").read().unwrap_err();
/// assert_eq!(err.problems()[0].location().place(), &Place::Line { line: 2, column: 1 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// The input as a whole (such as a missing target set).
    Whole,
    /// The item of this index (from 0) in a list of the input.
    Item {
        /// The list.
        part: Part,
        /// The index, from 0.
        index: usize,
    },
    /// A line and column of a file, both from 1 (column 1 also for a
    /// problem of a whole line).
    Line {
        /// The line, from 1.
        line: u64,
        /// The column in bytes, from 1.
        column: u64,
    },
}

impl Location {
    /// The input as a whole, in `file` when there is one.
    ///
    /// ```
    /// use absorbing::Location;
    /// assert_eq!(Location::whole(None).to_string(), "");
    /// ```
    pub fn whole(file: Option<&Path>) -> Location {
        Location {
            file: file.map(Arc::from),
            place: Place::Whole,
        }
    }

    /// A line and column (from 1) of `file`.
    ///
    /// ```
    /// use absorbing::Location;
    /// assert_eq!(Location::line(None, 2, 1).to_string(), "line 2, column 1");
    /// ```
    pub fn line(file: Option<&Path>, line: u64, column: u64) -> Location {
        Location {
            file: file.map(Arc::from),
            place: Place::Line { line, column },
        }
    }

    /// The item `index` (from 0) of a list.
    ///
    /// ```
    /// use absorbing::{Location, Part};
    /// assert_eq!(Location::item(None, Part::Transition, 4).to_string(), "transitions[4]");
    /// ```
    pub fn item(file: Option<&Path>, part: Part, index: usize) -> Location {
        Location {
            file: file.map(Arc::from),
            place: Place::Item { part, index },
        }
    }

    pub(crate) fn with_file(file: Option<Arc<Path>>, place: Place) -> Location {
        Location { file, place }
    }

    /// The file, when the input was read from one.
    ///
    /// ```
    /// use absorbing::Location;
    /// use std::path::Path;
    /// let at = Location::line(Some(Path::new("a.lab")), 1, 1);
    /// assert_eq!(at.file(), Some(Path::new("a.lab")));
    /// ```
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The place within the input.
    ///
    /// ```
    /// use absorbing::{Location, Place};
    /// assert_eq!(Location::whole(None).place(), &Place::Whole);
    /// ```
    pub fn place(&self) -> &Place {
        &self.place
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, &self.place) {
            (Some(file), Place::Whole) => write!(f, "{}", file.display()),
            (Some(file), Place::Line { line, column }) => {
                write!(f, "{}:{line}:{column}", file.display())
            }
            (Some(file), Place::Item { part, index }) => {
                write!(f, "{}: {}[{index}]", file.display(), part.name())
            }
            (None, Place::Whole) => Ok(()),
            (None, Place::Line { line, column }) => write!(f, "line {line}, column {column}"),
            (None, Place::Item { part, index }) => write!(f, "{}[{index}]", part.name()),
        }
    }
}

/// The role a state number plays where it is out of range.
///
/// ```
/// use absorbing::{ChainBuilder, ProblemKind, Role};
/// let err = ChainBuilder::new(1).transition(0, 0, 1.0).initial_state(2).targets([0]).build().unwrap_err();
/// assert!(matches!(err.problems()[0].kind(), ProblemKind::StateOutOfRange { role: Role::Initial, state: 2, .. }));
/// assert_eq!(Role::Initial.to_string(), "the initial state");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// The state a transition leaves.
    From,
    /// The state a transition enters.
    To,
    /// A state of the initial distribution.
    Initial,
    /// A target state.
    Target,
    /// A state given a reward.
    Reward,
    /// A state given a label.
    Label,
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::From => "the source state",
            Role::To => "the destination state",
            Role::Initial => "the initial state",
            Role::Target => "the target state",
            Role::Reward => "the rewarded state",
            Role::Label => "the labelled state",
        })
    }
}

/// One thing wrong with the input, and where it is.
///
/// ```
/// use absorbing::{ChainBuilder, Place, ProblemKind};
///
/// let err = ChainBuilder::new(2)
///     .transition(0, 5, 1.0)
///     .transition(1, 1, 1.0)
///     .initial_state(0)
///     .targets([1])
///     .build()
///     .unwrap_err();
/// let p = &err.problems()[0];
/// assert!(matches!(p.kind(), ProblemKind::StateOutOfRange { state: 5, states: 2, .. }));
/// assert!(matches!(p.location().place(), Place::Item { index: 0, .. }));
/// assert_eq!(p.to_string(), "transitions[0]: the destination state 5 is out of range: the chain has 2 states, 0 to 1");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    kind: ProblemKind,
    location: Location,
}

impl Problem {
    /// A problem of `kind` at `location`.
    ///
    /// ```
    /// use absorbing::{Location, Problem, ProblemKind};
    /// let p = Problem::new(ProblemKind::NoTarget, Location::whole(None));
    /// assert_eq!(p.to_string(), "no target state is given");
    /// ```
    pub fn new(kind: ProblemKind, location: Location) -> Problem {
        Problem { kind, location }
    }

    /// What is wrong, with the values involved.
    ///
    /// ```
    /// use absorbing::{Location, Problem, ProblemKind};
    /// let p = Problem::new(ProblemKind::NoInitial, Location::whole(None));
    /// assert_eq!(p.kind(), &ProblemKind::NoInitial);
    /// ```
    pub fn kind(&self) -> &ProblemKind {
        &self.kind
    }

    /// Where it is.
    ///
    /// ```
    /// use absorbing::{Location, Problem, ProblemKind};
    /// let p = Problem::new(ProblemKind::NoInitial, Location::line(None, 1, 1));
    /// assert_eq!(p.location(), &Location::line(None, 1, 1));
    /// ```
    pub fn location(&self) -> &Location {
        &self.location
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.location.to_string();
        if at.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{at}: {}", self.kind)
        }
    }
}

/// What is wrong, with the values involved. A value is shown as it was
/// given: a fraction when exact, a float otherwise.
///
/// ```
/// use absorbing::{ChainBuilder, ProblemKind, Value};
/// let err = ChainBuilder::new(1).transition(0, 0, 0.5).initial_state(0).targets([0]).build().unwrap_err();
/// let ProblemKind::RowSum { state, sum, .. } = err.problems()[0].kind() else { panic!() };
/// assert_eq!((*state, sum), (0, &Value::Float(0.5)));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The chain has no state.
    #[error("the chain has no state")]
    NoStates,
    /// More states than [`MAX_STATES`](crate::MAX_STATES).
    #[error(
        "the chain has {states} states, more than the {} a chain may have",
        crate::MAX_STATES
    )]
    TooManyStates {
        /// The number of states given.
        states: u64,
    },
    /// A state number not below the number of states.
    #[error("{role} {state} is out of range: the chain has {states} states, 0 to {}", states.saturating_sub(1))]
    StateOutOfRange {
        /// What the state is for.
        role: Role,
        /// The state given.
        state: u64,
        /// The number of states.
        states: u64,
    },
    /// A transition probability that is NaN or infinite.
    #[error(
        "the probability {} of the transition {from} -> {to} is not a finite number",
        shown(value)
    )]
    TransitionNotFinite {
        /// The source state.
        from: u64,
        /// The destination state.
        to: u64,
        /// The value given.
        value: Value,
    },
    /// A negative transition probability.
    #[error(
        "the probability {} of the transition {from} -> {to} is negative",
        shown(value)
    )]
    NegativeTransition {
        /// The source state.
        from: u64,
        /// The destination state.
        to: u64,
        /// The value given.
        value: Value,
    },
    /// The same transition given twice.
    #[error("the transition {from} -> {to} is given twice (first at {first})")]
    DuplicateTransition {
        /// The source state.
        from: u64,
        /// The destination state.
        to: u64,
        /// Where it was first given.
        first: Location,
    },
    /// A row whose probabilities do not sum to one: exactly, when every
    /// entry of the row was given exactly, or within
    /// [`row_sum_tolerance`](crate::row_sum_tolerance) of its entries.
    #[error("the transitions out of state {state} sum to {}, not 1{}", shown(sum), tolerance_note(*tolerance, *entries))]
    RowSum {
        /// The state.
        state: u64,
        /// The sum: exact when every entry was exact, else the float sum.
        sum: Value,
        /// The number of entries in the row.
        entries: usize,
        /// The tolerance allowed, `None` for an exact row.
        tolerance: Option<f64>,
    },
    /// An exact row sum whose denominator grew past
    /// [`MAX_EXACT_BITS`](crate::MAX_EXACT_BITS) bits: it is not checked,
    /// and the chain is refused rather than accepted unchecked.
    #[error("the exact sum of {} has a denominator of more than {} bits", sum_of(*state), crate::MAX_EXACT_BITS)]
    ExactSumTooLarge {
        /// The state whose row it is, `None` for the initial distribution.
        state: Option<u64>,
    },
    /// A non-target state with no outgoing transition (a deadlock).
    #[error("state {state} has no outgoing transition and is not a target")]
    Deadlock {
        /// The state.
        state: u64,
    },
    /// No initial state or distribution was given.
    #[error("no initial state or distribution is given")]
    NoInitial,
    /// An initial probability that is NaN or infinite.
    #[error(
        "the initial probability {} of state {state} is not a finite number",
        shown(value)
    )]
    InitialNotFinite {
        /// The state.
        state: u64,
        /// The value given.
        value: Value,
    },
    /// A negative initial probability.
    #[error(
        "the initial probability {} of state {state} is negative",
        shown(value)
    )]
    NegativeInitial {
        /// The state.
        state: u64,
        /// The value given.
        value: Value,
    },
    /// A state given two initial probabilities.
    #[error("state {state} is given two initial probabilities (first at {first})")]
    DuplicateInitial {
        /// The state.
        state: u64,
        /// Where it was first given.
        first: Location,
    },
    /// An initial distribution not summing to one.
    #[error("the initial distribution sums to {}, not 1{}", shown(sum), tolerance_note(*tolerance, *entries))]
    InitialSum {
        /// The sum.
        sum: Value,
        /// The number of entries.
        entries: usize,
        /// The tolerance allowed, `None` when every entry was exact.
        tolerance: Option<f64>,
    },
    /// More than one state of the label naming the initial state.
    #[error("the label \"{label}\" names {count} states ({}), and the initial state must be one", listed(states, *count))]
    AmbiguousInitial {
        /// The label.
        label: String,
        /// How many states it holds in.
        count: usize,
        /// The first of them (at most ten).
        states: Vec<u64>,
    },
    /// The target set is empty.
    #[error("no target state is given")]
    NoTarget,
    /// A reward that is NaN or infinite.
    #[error("the reward {} of state {state} is not a finite number", shown(value))]
    RewardNotFinite {
        /// The state.
        state: u64,
        /// The value given.
        value: Value,
    },
    /// A negative reward.
    #[error("the reward {} of state {state} is negative", shown(value))]
    NegativeReward {
        /// The state.
        state: u64,
        /// The value given.
        value: Value,
    },
    /// A state given two rewards.
    #[error("state {state} is given two rewards (first at {first})")]
    DuplicateReward {
        /// The state.
        state: u64,
        /// Where it was first given.
        first: Location,
    },
    /// A list of rewards, one per state, of the wrong length.
    #[error("{given} rewards are given for {states} states")]
    RewardCount {
        /// The number of rewards given.
        given: usize,
        /// The number of states.
        states: u64,
    },
    /// Text that does not fit the file's format.
    #[error("{message}")]
    Syntax {
        /// What was expected and what was found.
        message: String,
    },
    /// A number that cannot be read.
    #[error("\"{text}\" is not {expected}: {reason}")]
    BadNumber {
        /// The text (cut to [`MAX_QUOTE_CHARS`]).
        text: String,
        /// What was expected there.
        expected: &'static str,
        /// Why it is not.
        reason: String,
    },
    /// A header line's count that the file's lines do not match.
    #[error("the header declares {declared} {what}, but the file has {found}")]
    CountMismatch {
        /// What is counted.
        what: &'static str,
        /// The count in the header.
        declared: u64,
        /// The count found.
        found: u64,
    },
    /// A model that is not a discrete-time Markov chain.
    #[error(
        "the file holds a model of type \"{found}\"; only a discrete-time Markov chain (dtmc) is read"
    )]
    ModelType {
        /// The type named in the file.
        found: String,
    },
    /// A label used in a state line, but not declared.
    #[error("the label {label} is not declared")]
    UndeclaredLabel {
        /// The label as written (its index or name).
        label: String,
    },
    /// A label declared twice.
    #[error("the label \"{label}\" is declared twice")]
    DuplicateLabel {
        /// The label's name.
        label: String,
    },
    /// A label asked for that the labels file does not declare (or no
    /// labels file was given).
    #[error("there is no label \"{label}\"{}", known_note(known))]
    UnknownLabel {
        /// The label asked for.
        label: String,
        /// The labels declared (at most twenty).
        known: Vec<String>,
    },
    /// A label asked for that holds in no state.
    #[error("the label \"{label}\" holds in no state")]
    EmptyLabel {
        /// The label.
        label: String,
    },
    /// A JSON file that is malformed or does not fit the format.
    #[error("{message}")]
    Json {
        /// serde_json's message.
        message: String,
    },
}

/// A value as a problem shows it: a fraction when exact, the shortest
/// decimal that reads back as the float otherwise.
pub(crate) fn shown(v: &Value) -> String {
    match v {
        Value::Exact(r) => r.to_string(),
        Value::Float(x) => format!("{x:?}"),
    }
}

fn sum_of(state: Option<u64>) -> String {
    match state {
        Some(s) => format!("the transitions out of state {s}"),
        None => "the initial distribution".to_string(),
    }
}

fn tolerance_note(tolerance: Option<f64>, entries: usize) -> String {
    match tolerance {
        None => " (every entry exact)".to_string(),
        Some(t) => format!(" within the tolerance {t:e} for {entries} entries"),
    }
}

fn listed(states: &[u64], count: usize) -> String {
    let mut s: Vec<String> = states.iter().map(u64::to_string).collect();
    if count > states.len() {
        s.push("…".to_string());
    }
    s.join(", ")
}

fn known_note(known: &[String]) -> String {
    if known.is_empty() {
        " (no label is declared)".to_string()
    } else {
        format!(
            " (the labels are {})",
            known
                .iter()
                .map(|k| format!("\"{k}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

/// `text`, cut to [`MAX_QUOTE_CHARS`] characters, for a problem to quote.
pub(crate) fn quote(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(text);
    let mut chars = s.chars();
    let mut out: String = chars.by_ref().take(MAX_QUOTE_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// Problems as they are found: the first [`MAX_PROBLEMS`] kept, the rest
/// counted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Problems {
    list: Vec<Problem>,
    omitted: usize,
}

impl Problems {
    pub(crate) fn push(&mut self, kind: ProblemKind, location: Location) {
        if self.list.len() < MAX_PROBLEMS {
            self.list.push(Problem::new(kind, location));
        } else {
            self.omitted += 1;
        }
    }

    /// Counts `n` problems not listed (found by counting, not one by one).
    pub(crate) fn omit(&mut self, n: usize) {
        self.omitted = self.omitted.saturating_add(n);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    pub(crate) fn is_full(&self) -> bool {
        self.list.len() >= MAX_PROBLEMS
    }

    pub(crate) fn into_result(self) -> Result<(), Error> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.into_error())
        }
    }

    pub(crate) fn into_error(self) -> Error {
        Error::from(ErrorKind::Invalid {
            problems: self.list,
            omitted: self.omitted,
        })
    }
}
