//! A chain from PRISM's or Storm's explicit files: transitions (`.tra`),
//! and optionally labels (`.lab`) and state rewards (`.srew`), with the
//! initial state and the targets chosen by label.

use super::lab::{Labels, read_lab};
use super::srew::read_srew;
use super::tra::read_tra;
use crate::builder::{ChainBuilder, Pos};
use crate::chain::{Chain, Value};
use crate::error::{Error, Location, ProblemKind};
use num_rational::BigRational;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// How many of a label's states an [`ProblemKind::AmbiguousInitial`] lists.
const LISTED_STATES: usize = 10;

/// How many declared labels an [`ProblemKind::UnknownLabel`] lists.
const LISTED_LABELS: usize = 20;

#[derive(Clone, Debug)]
enum Source {
    Path(PathBuf),
    Text { text: Vec<u8>, name: PathBuf },
}

impl Source {
    fn bytes(&self) -> Result<(Cow<'_, [u8]>, &Path), Error> {
        match self {
            Source::Path(p) => std::fs::read(p)
                .map(|b| (Cow::Owned(b), p.as_path()))
                .map_err(|e| Error::io(p, e)),
            Source::Text { text, name } => Ok((Cow::Borrowed(text), name.as_path())),
        }
    }
}

#[derive(Clone, Debug)]
enum Pick {
    Default,
    Label(String),
    States(Vec<usize>),
}

/// A chain in PRISM's or Storm's explicit format: a transitions file, and
/// optionally a labels file and a state rewards file (docs/chain-format.md).
///
/// By default the initial state is the one labelled `init` when there is a
/// labels file (an error if it holds in no state or several), else the one
/// the transitions file gives with a `- s` line, else state 0, as PRISM
/// does; the targets are the absorbing states (those whose only transition
/// is a self-loop of probability one, see
/// [`ChainBuilder::absorbing_states`]).
///
/// # Example
/// ```
/// use absorbing::read::Explicit;
///
/// let chain = Explicit::from_text("3 4\n0 1 0.5\n0 2 0.5\n1 1 1\n2 2 1\n")
///     .labels_text("0=\"init\" 1=\"win\" 2=\"lose\"\n0: 0\n1: 1\n2: 2\n")
///     .target_label("win")
///     .read()?;
/// assert!(chain.is_target(1) && !chain.is_target(2));
/// assert_eq!(chain.initial(), [(0, 1.0)]);
/// # Ok::<(), absorbing::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Explicit {
    tra: Source,
    lab: Option<Source>,
    srew: Option<Source>,
    initial: Pick,
    target: Pick,
    floats: bool,
}

impl Explicit {
    /// The chain of the transitions file at `path`.
    ///
    /// ```
    /// use absorbing::{ErrorKind, read::Explicit};
    /// let err = Explicit::new("/no/such/file.tra").read().unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::Io { .. }));
    /// ```
    pub fn new(path: impl AsRef<Path>) -> Explicit {
        Explicit::with(Source::Path(path.as_ref().to_path_buf()))
    }

    /// The chain of a transitions file's text; problems name it `<tra>`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("dtmc\n0 1 1\n1 1 1\n").read()?;
    /// assert_eq!(chain.len(), 2);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn from_text(text: impl Into<Vec<u8>>) -> Explicit {
        Explicit::with(Source::Text {
            text: text.into(),
            name: PathBuf::from("<tra>"),
        })
    }

    fn with(tra: Source) -> Explicit {
        Explicit {
            tra,
            lab: None,
            srew: None,
            initial: Pick::Default,
            target: Pick::Default,
            floats: false,
        }
    }

    /// Reads every transition as the nearest float, keeping no fraction:
    /// faster, for a chain whose answers are wanted as floats only. Rows
    /// are then checked within the float tolerance, and
    /// [`Chain::answer`](crate::Chain::answer) refuses fractions.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 3\n0 0 1/3\n0 1 2/3\n1 1 1\n").floats().read()?;
    /// assert_eq!(chain.row(0).collect::<Vec<_>>(), [(0, 1.0 / 3.0), (1, 2.0 / 3.0)]);
    /// assert!(chain.exact_row(0).is_none());
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn floats(mut self) -> Explicit {
        self.floats = true;
        self
    }

    /// Reads labels from the file at `path`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let err = Explicit::from_text("1 1\n0 0 1\n").labels("/no/such.lab").read().unwrap_err();
    /// assert!(err.to_string().contains("/no/such.lab"));
    /// ```
    pub fn labels(mut self, path: impl AsRef<Path>) -> Explicit {
        self.lab = Some(Source::Path(path.as_ref().to_path_buf()));
        self
    }

    /// Reads labels from text; problems name it `<lab>`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 2\n0 1 1\n1 1 1\n")
    ///     .labels_text("#DECLARATION\ninit\n#END\n1 init\n")
    ///     .read()?;
    /// assert_eq!(chain.initial(), [(1, 1.0)]);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn labels_text(mut self, text: impl Into<Vec<u8>>) -> Explicit {
        self.lab = Some(Source::Text {
            text: text.into(),
            name: PathBuf::from("<lab>"),
        });
        self
    }

    /// Reads state rewards from the file at `path`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let err = Explicit::from_text("1 1\n0 0 1\n").rewards("/no/such.srew").read().unwrap_err();
    /// assert!(err.to_string().contains("/no/such.srew"));
    /// ```
    pub fn rewards(mut self, path: impl AsRef<Path>) -> Explicit {
        self.srew = Some(Source::Path(path.as_ref().to_path_buf()));
        self
    }

    /// Reads state rewards from text; problems name it `<srew>`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 2\n0 1 1\n1 1 1\n")
    ///     .rewards_text("2 1\n0 5\n")
    ///     .read()?;
    /// assert_eq!(chain.rewards(), Some(&[5.0, 0.0][..]));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn rewards_text(mut self, text: impl Into<Vec<u8>>) -> Explicit {
        self.srew = Some(Source::Text {
            text: text.into(),
            name: PathBuf::from("<srew>"),
        });
        self
    }

    /// Starts in the one state with the label `name`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 2\n0 1 1\n1 1 1\n")
    ///     .labels_text("0=\"start\"\n0: 0\n")
    ///     .initial_label("start")
    ///     .read()?;
    /// assert_eq!(chain.initial(), [(0, 1.0)]);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn initial_label(mut self, name: impl Into<String>) -> Explicit {
        self.initial = Pick::Label(name.into());
        self
    }

    /// Starts in `state`, whatever the labels say.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 2\n0 1 1\n1 1 1\n").initial_state(1).read()?;
    /// assert_eq!(chain.initial(), [(1, 1.0)]);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn initial_state(mut self, state: usize) -> Explicit {
        self.initial = Pick::States(vec![state]);
        self
    }

    /// The targets are the states with the label `name`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let err = Explicit::from_text("2 2\n0 1 1\n1 1 1\n")
    ///     .labels_text("0=\"init\"\n0: 0\n")
    ///     .target_label("goal")
    ///     .read()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("there is no label \"goal\""));
    /// ```
    pub fn target_label(mut self, name: impl Into<String>) -> Explicit {
        self.target = Pick::Label(name.into());
        self
    }

    /// The targets are `states`.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 3\n0 1 1\n1 0 0.5\n1 1 0.5\n")
    ///     .target_states([1])
    ///     .read()?;
    /// assert!(chain.is_target(1));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn target_states(mut self, states: impl IntoIterator<Item = usize>) -> Explicit {
        self.target = Pick::States(states.into_iter().collect());
        self
    }

    /// Reads the files and checks the chain, naming every problem of every
    /// file at once.
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let err = Explicit::from_text("2 2\n0 1 0.5\n1 1 1\n").read().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "<tra>:2:1: the transitions out of state 0 sum to 1/2, not 1 (every entry exact)"
    /// );
    /// ```
    pub fn read(&self) -> Result<Chain, Error> {
        self.builder()?.build()
    }

    /// The files read into a [`ChainBuilder`], to add to before building;
    /// an error only when a file cannot be read (the builder carries the
    /// problems found in the files, and [`build`](ChainBuilder::build)
    /// names them).
    ///
    /// ```
    /// use absorbing::read::Explicit;
    /// let chain = Explicit::from_text("2 2\n0 1 1\n1 1 1\n")
    ///     .builder()?
    ///     .state_rewards(vec![1.0, 0.0])
    ///     .build()?;
    /// assert_eq!(chain.rewards(), Some(&[1.0, 0.0][..]));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn builder(&self) -> Result<ChainBuilder, Error> {
        let mut b = ChainBuilder::uncounted();
        b.floats = self.floats;
        let (tra, tra_path) = self.tra.bytes()?;
        let tra_file = b.add_file(Some(tra_path));
        let extras = read_tra(&mut b, &tra, tra_file);
        let labels = match &self.lab {
            None => None,
            Some(src) => {
                let (text, path) = src.bytes()?;
                let file = b.add_file(Some(path));
                let states = b.states();
                Some((read_lab(&mut b, &text, file, states), file))
            }
        };
        if let Some(src) = &self.srew {
            let (text, path) = src.bytes()?;
            let file = b.add_file(Some(path));
            read_srew(&mut b, &text, file);
        }
        let one = || Value::Exact(BigRational::from_integer(1.into()));
        let whole = |b: &ChainBuilder, file: u8| {
            Location::with_file(b.file_path(file), crate::error::Place::Whole)
        };

        // The initial state.
        match &self.initial {
            Pick::States(states) => {
                for (i, &s) in states.iter().enumerate() {
                    b.push_initial(s as u64, one(), Pos::Item(i));
                }
            }
            Pick::Label(name) => {
                initial_from_label(&mut b, labels.as_ref(), name, tra_file);
            }
            Pick::Default => match &labels {
                Some(_) => initial_from_label(&mut b, labels.as_ref(), "init", tra_file),
                None if !extras.initial.is_empty() => {
                    if extras.initial.len() > 1 {
                        let kind = ProblemKind::Syntax {
                            message: format!(
                                "the file gives {} initial states (\"- state\" lines); a chain starts in one, or in a distribution given with the API",
                                extras.initial.len()
                            ),
                        };
                        b.problem(kind, extras.initial[1].1);
                    } else {
                        let (s, pos) = extras.initial[0];
                        b.push_initial(s, one(), pos);
                    }
                }
                None => b.push_initial(0, one(), Pos::Item(0)),
            },
        }
        // A failed label lookup is named as such; it is not also "no
        // initial state".
        if !b.has_initial() {
            b.push_initial(0, one(), Pos::Item(0));
        }

        // The targets.
        match &self.target {
            Pick::Default => {
                b.absorbing_targets();
            }
            Pick::States(states) => {
                for (i, &s) in states.iter().enumerate() {
                    b.push_target(s as u64, Pos::Item(i));
                }
            }
            Pick::Label(name) => match label_states(&b, labels.as_ref(), name, tra_file) {
                Err(e) => {
                    let (kind, at) = *e;
                    b.problem_at(kind, at);
                    // Named above: not also "no target".
                    b.push_target(0, Pos::Item(0));
                }
                Ok(states) if states.is_empty() => {
                    let file = labels.as_ref().map_or(tra_file, |l| l.1);
                    let at = whole(&b, file);
                    b.problem_at(
                        ProblemKind::EmptyLabel {
                            label: name.clone(),
                        },
                        at,
                    );
                    b.push_target(0, Pos::Item(0));
                }
                Ok(states) => {
                    for (i, s) in states.into_iter().enumerate() {
                        b.push_target(s, Pos::Item(i));
                    }
                }
            },
        }
        Ok(b)
    }
}

fn ambiguous(label: &str, states: Vec<u64>) -> ProblemKind {
    ProblemKind::AmbiguousInitial {
        label: label.to_string(),
        count: states.len(),
        states: states.into_iter().take(LISTED_STATES).collect(),
    }
}

/// The states of label `name`, or the problem of finding it.
fn label_states(
    b: &ChainBuilder,
    labels: Option<&(Labels, u8)>,
    name: &str,
    tra_file: u8,
) -> Result<Vec<u64>, Box<(ProblemKind, Location)>> {
    let unknown = |known: Vec<String>, file: u8| {
        let kind = ProblemKind::UnknownLabel {
            label: name.to_string(),
            known,
        };
        Box::new((
            kind,
            Location::with_file(b.file_path(file), crate::error::Place::Whole),
        ))
    };
    match labels {
        None => Err(unknown(Vec::new(), tra_file)),
        Some((labels, file)) => match labels.states(name) {
            None => Err(unknown(
                labels
                    .names()
                    .iter()
                    .take(LISTED_LABELS)
                    .map(|n| crate::error::quote(n.as_bytes()))
                    .collect(),
                *file,
            )),
            Some(states) => Ok(states.to_vec()),
        },
    }
}

fn initial_from_label(
    b: &mut ChainBuilder,
    labels: Option<&(Labels, u8)>,
    name: &str,
    tra_file: u8,
) {
    let file = labels.map_or(tra_file, |l| l.1);
    let whole = Location::with_file(b.file_path(file), crate::error::Place::Whole);
    match label_states(b, labels, name, tra_file) {
        Err(e) => b.problem_at(e.0, e.1),
        Ok(states) => match states.as_slice() {
            [] => b.problem_at(
                ProblemKind::EmptyLabel {
                    label: name.to_string(),
                },
                whole,
            ),
            [s] => {
                let one = Value::Exact(BigRational::from_integer(1.into()));
                b.push_initial(*s, one, Pos::Item(0));
            }
            _ => b.problem_at(ambiguous(name, states), whole),
        },
    }
}
