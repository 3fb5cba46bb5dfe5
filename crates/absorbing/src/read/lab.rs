//! The labels file (`.lab`) in PRISM's form and in Storm's.
//!
//! PRISM (`prism -exportlabels`): a first line declaring the labels by
//! index, then a line per labelled state listing the indices of its labels:
//!
//! ```text
//! # Labels                    optional; any '#' line is a comment
//! 0="init" 1="deadlock" 2="done"
//! 0: 0
//! 3: 1 2
//! ```
//!
//! Storm (`storm --explicit`): the label names between `#DECLARATION` and
//! `#END`, then a line per labelled state listing its labels by name:
//!
//! ```text
//! #DECLARATION
//! init deadlock done
//! #END
//! 0 init
//! 3 deadlock done
//! ```

use super::text::{fields, is_blank_or_comment, lines};
use super::tra::state;
use crate::builder::{ChainBuilder, Pos};
use crate::error::{ProblemKind, Role, quote};

/// The labels of a chain's states, as read from a labels file.
///
/// ```
/// use absorbing::read::labels;
///
/// let labels = labels(b"0=\"init\" 1=\"done\"\n0: 0\n2: 1\n3: 1\n", None, None)?;
/// assert_eq!(labels.names(), ["init", "done"]);
/// assert_eq!(labels.states("done"), Some(&[2, 3][..]));
/// assert_eq!(labels.states("nope"), None);
/// # Ok::<(), absorbing::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    names: Vec<String>,
    /// The states of each label, increasing, no repeats.
    states: Vec<Vec<u64>>,
}

impl Labels {
    /// The labels declared, in the order of their declaration.
    ///
    /// ```
    /// use absorbing::read::labels;
    /// let labels = labels(b"#DECLARATION\na b\n#END\n", None, None)?;
    /// assert_eq!(labels.names(), ["a", "b"]);
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The states a label holds in, increasing; `None` if it is not
    /// declared.
    ///
    /// ```
    /// use absorbing::read::labels;
    /// let labels = labels(b"#DECLARATION\ninit\n#END\n0 init\n", None, None)?;
    /// assert_eq!(labels.states("init"), Some(&[0][..]));
    /// # Ok::<(), absorbing::Error>(())
    /// ```
    pub fn states(&self, name: &str) -> Option<&[u64]> {
        let i = self.names.iter().position(|n| n == name)?;
        Some(&self.states[i])
    }
}

/// Reads a labels file into [`Labels`], naming its problems through `b`
/// (states are checked against `states` when it is known).
pub(crate) fn read_lab(b: &mut ChainBuilder, text: &[u8], file: u8, states: Option<u64>) -> Labels {
    let mut labels = Labels::default();
    let storm = lines(text)
        .find(|l| !l.text.trim_ascii().is_empty())
        .is_some_and(|l| l.text.trim_ascii() == b"#DECLARATION");
    if storm {
        read_storm(b, text, file, states, &mut labels);
    } else {
        read_prism(b, text, file, states, &mut labels);
    }
    for s in &mut labels.states {
        s.sort_unstable();
        s.dedup();
    }
    labels
}

fn declare(b: &mut ChainBuilder, labels: &mut Labels, name: &[u8], pos: Pos) {
    let name = String::from_utf8_lossy(name).into_owned();
    if labels.names.contains(&name) {
        b.problem(
            ProblemKind::DuplicateLabel {
                label: quote(name.as_bytes()),
            },
            pos,
        );
    } else {
        labels.names.push(name);
        labels.states.push(Vec::new());
    }
}

fn in_range(b: &mut ChainBuilder, s: u64, states: Option<u64>, pos: Pos) -> bool {
    match states {
        Some(n) if s >= n => {
            let kind = ProblemKind::StateOutOfRange {
                role: Role::Label,
                state: s,
                states: n,
            };
            b.problem(kind, pos);
            false
        }
        _ => true,
    }
}

fn read_prism(
    b: &mut ChainBuilder,
    text: &[u8],
    file: u8,
    states: Option<u64>,
    labels: &mut Labels,
) {
    let at = |line: u64, column: u64| Pos::Line { file, line, column };
    let mut declared = false;
    for line in lines(text) {
        if is_blank_or_comment(line.text) {
            continue;
        }
        if !declared {
            declared = true;
            declarations(b, line.text, labels, |c| at(line.number, c));
            continue;
        }
        let Some(colon) = line.text.iter().position(|&c| c == b':') else {
            let kind = ProblemKind::Syntax {
                message: "expected \"state: label label ...\"".into(),
            };
            b.problem(kind, at(line.number, super::text::first_column(line.text)));
            continue;
        };
        let mut head = fields(&line.text[..colon]);
        let (Some(f), None) = (head.next(), head.next()) else {
            let kind = ProblemKind::Syntax {
                message: "expected one state number before ':'".into(),
            };
            b.problem(kind, at(line.number, super::text::first_column(line.text)));
            continue;
        };
        let pos = at(line.number, f.column);
        let Some(s) = state(b, f, "a state number", pos) else {
            continue;
        };
        let ok = in_range(b, s, states, pos);
        for f in fields(&line.text[colon + 1..]) {
            let column = f.column + colon as u64 + 1;
            let index = std::str::from_utf8(f.text)
                .ok()
                .filter(|t| t.bytes().all(|c| c.is_ascii_digit()))
                .and_then(|t| t.parse::<usize>().ok());
            match index {
                Some(i) if i < labels.names.len() => {
                    if ok {
                        labels.states[i].push(s);
                    }
                }
                _ => {
                    let kind = ProblemKind::UndeclaredLabel {
                        label: quote(f.text),
                    };
                    b.problem(kind, at(line.number, column));
                }
            }
        }
    }
    if !declared {
        let kind = ProblemKind::Syntax {
            message: "the labels file declares no label".into(),
        };
        b.problem(kind, at(1, 1));
    }
}

/// `0="init" 1="deadlock" ...`: indices from 0 in order, names quoted.
fn declarations(b: &mut ChainBuilder, line: &[u8], labels: &mut Labels, at: impl Fn(u64) -> Pos) {
    let mut i = 0;
    loop {
        while i < line.len() && line[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == line.len() {
            return;
        }
        let start = i;
        while i < line.len() && line[i].is_ascii_digit() {
            i += 1;
        }
        let index = std::str::from_utf8(&line[start..i])
            .ok()
            .and_then(|t| t.parse::<usize>().ok());
        let open = i + 1;
        let close = line
            .get(open + 1..)
            .and_then(|rest| rest.iter().position(|&c| c == b'"'))
            .map(|p| open + 1 + p);
        let (Some(index), Some(b'='), Some(b'"'), Some(close)) =
            (index, line.get(i).copied(), line.get(open).copied(), close)
        else {
            let kind = ProblemKind::Syntax {
                message: "expected a label declaration index=\"name\"".into(),
            };
            b.problem(kind, at(start as u64 + 1));
            return;
        };
        let name = &line[open + 1..close];
        if index != labels.names.len() {
            let kind = ProblemKind::Syntax {
                message: format!(
                    "the label index {index} is out of order: expected {}",
                    labels.names.len()
                ),
            };
            b.problem(kind, at(start as u64 + 1));
            return;
        }
        if name.is_empty() {
            let kind = ProblemKind::Syntax {
                message: "a label's name is empty".into(),
            };
            b.problem(kind, at(start as u64 + 1));
            return;
        }
        declare(b, labels, name, at(start as u64 + 1));
        if labels.names.len() == index {
            // A duplicate: keep the indices in step with the file's.
            labels.names.push(String::new());
            labels.states.push(Vec::new());
        }
        i = close + 1;
        if i < line.len() && !line[i].is_ascii_whitespace() {
            let kind = ProblemKind::Syntax {
                message: "expected a space after a label declaration".into(),
            };
            b.problem(kind, at(i as u64 + 1));
            return;
        }
    }
}

fn read_storm(
    b: &mut ChainBuilder,
    text: &[u8],
    file: u8,
    states: Option<u64>,
    labels: &mut Labels,
) {
    let at = |line: u64, column: u64| Pos::Line { file, line, column };
    #[derive(PartialEq)]
    enum Part {
        Before,
        Declaring,
        States,
    }
    let mut part = Part::Before;
    let mut last_line = 1;
    for line in lines(text) {
        last_line = line.number;
        let trimmed = line.text.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        match part {
            Part::Before => {
                // The first non-blank line is #DECLARATION (how the format
                // was recognised).
                part = Part::Declaring;
            }
            Part::Declaring => {
                if trimmed == b"#END" {
                    part = Part::States;
                    continue;
                }
                for f in fields(line.text) {
                    declare(b, labels, f.text, at(line.number, f.column));
                }
            }
            Part::States => {
                let mut fs = fields(line.text);
                let Some(f) = fs.next() else { continue };
                let pos = at(line.number, f.column);
                let Some(s) = state(b, f, "a state number", pos) else {
                    continue;
                };
                let ok = in_range(b, s, states, pos);
                for f in fs {
                    match labels.names.iter().position(|n| n.as_bytes() == f.text) {
                        Some(i) => {
                            if ok {
                                labels.states[i].push(s);
                            }
                        }
                        None => {
                            let kind = ProblemKind::UndeclaredLabel {
                                label: format!("\"{}\"", quote(f.text)),
                            };
                            b.problem(kind, at(line.number, f.column));
                        }
                    }
                }
            }
        }
    }
    if part != Part::States {
        let kind = ProblemKind::Syntax {
            message: "#DECLARATION is not followed by #END".into(),
        };
        b.problem(kind, at(last_line, 1));
    }
}
