//! The transitions file (`.tra`) of PRISM's and Storm's explicit format.
//!
//! PRISM writes (`prism -exportmodel`, docs/chain-format.md):
//!
//! ```text
//! # Transitions (dtmc)        optional header comment; any '#' line is one
//! 3 4                         states and transitions
//! 0 1 0.5                     from to probability [action]
//! ```
//!
//! Storm reads (`storm --explicit`) a variant with a first line naming the
//! model type (`dtmc`) and no counts line; the number of states is then one
//! more than the largest state named. Both are read.

use super::number::{parse_number, parse_number_as_float, parse_state};
use super::text::{Field, fields, first_column, lines};
use crate::builder::{ChainBuilder, Pos};
use crate::error::{ProblemKind, quote};

/// What a transitions file says beyond its transitions.
#[derive(Debug, Default)]
pub(crate) struct TraExtras {
    /// Initial states given by `- s` lines (PRISM writes them for
    /// partially observable models; they are read wherever they appear).
    pub(crate) initial: Vec<(u64, Pos)>,
}

enum Phase {
    /// Nothing read but comments.
    Start,
    /// The model type line read.
    Typed,
    /// Transitions.
    Body,
}

/// Reads the transitions of `text` into `b`, naming every problem with its
/// line and column in `file`.
pub(crate) fn read_tra(b: &mut ChainBuilder, text: &[u8], file: u8) -> TraExtras {
    let mut extras = TraExtras::default();
    let mut phase = Phase::Start;
    let mut declared: Option<(u64, Pos)> = None;
    let mut found: u64 = 0;
    let at = |line: u64, column: u64| Pos::Line { file, line, column };
    for line in lines(text) {
        let mut fs = fields(line.text);
        let Some(first) = fs.next() else { continue };
        if first.text[0] == b'#' {
            if matches!(phase, Phase::Start) {
                model_type_comment(b, line.text, at(line.number, first.column));
            }
            continue;
        }
        let fs: Vec<Field> = std::iter::once(first).chain(fs.take(5)).collect();
        if matches!(phase, Phase::Start) && first.text[0].is_ascii_alphabetic() {
            // Storm's model type hint.
            phase = Phase::Typed;
            if !first.text.eq_ignore_ascii_case(b"dtmc") || fs.len() > 1 {
                let kind = ProblemKind::ModelType {
                    found: quote(line.text.trim_ascii()),
                };
                b.problem(kind, at(line.number, first.column));
            }
            continue;
        }
        if matches!(phase, Phase::Start | Phase::Typed) {
            phase = Phase::Body;
            if fs.len() == 2 {
                let states = state(
                    b,
                    fs[0],
                    "a number of states",
                    at(line.number, fs[0].column),
                );
                let count = state(
                    b,
                    fs[1],
                    "a number of transitions",
                    at(line.number, fs[1].column),
                );
                if let Some(states) = states {
                    b.set_states(states, Some(at(line.number, fs[0].column)));
                }
                if let Some(count) = count {
                    declared = Some((count, at(line.number, fs[1].column)));
                }
                continue;
            }
        }
        if first.text == b"-" {
            // An initial state: "- s" or "- s -".
            let ok = matches!(fs.len(), 2 | 3) && fs.get(2).is_none_or(|f| f.text == b"-");
            if !ok {
                let kind = ProblemKind::Syntax {
                    message: "expected an initial state line \"- state\"".into(),
                };
                b.problem(kind, at(line.number, first.column));
                continue;
            }
            let pos = at(line.number, fs[1].column);
            if let Some(s) = state(b, fs[1], "a state number", pos) {
                extras.initial.push((s, pos));
            }
            continue;
        }
        found += 1;
        transition(b, &fs, line.number, file, line.text);
    }
    if let Some((declared, pos)) = declared
        && declared != found
    {
        let kind = ProblemKind::CountMismatch {
            what: "transitions",
            declared,
            found,
        };
        b.problem(kind, pos);
    }
    if found == 0 && !b.read_problems_full() {
        let kind = ProblemKind::Syntax {
            message: "the file has no transition".into(),
        };
        let line = lines(text).count() as u64;
        b.problem(kind, at(line.max(1), 1));
    }
    extras
}

/// `# Transitions (type)`: PRISM's header names the model type.
fn model_type_comment(b: &mut ChainBuilder, line: &[u8], pos: Pos) {
    let line = line.trim_ascii();
    let Some(rest) = line.strip_prefix(b"# Transitions (") else {
        return;
    };
    let Some(kind) = rest.trim_ascii_end().strip_suffix(b")") else {
        return;
    };
    if !kind.eq_ignore_ascii_case(b"dtmc") {
        b.problem(ProblemKind::ModelType { found: quote(kind) }, pos);
    }
}

/// One transition line, `from to probability [action]`.
fn transition(b: &mut ChainBuilder, fs: &[Field], line: u64, file: u8, text: &[u8]) {
    let at = |column: u64| Pos::Line { file, line, column };
    let from = state(b, fs[0], "a state number", at(fs[0].column));
    if !(3..=4).contains(&fs.len()) {
        let found = if fs.len() > 4 {
            "more than 4".to_string()
        } else {
            fs.len().to_string()
        };
        let kind = ProblemKind::Syntax {
            message: format!("expected \"from to probability\", found {found} fields"),
        };
        b.problem(kind, at(first_column(text)));
        if let Some(from) = from {
            b.skip_row_sum(from);
        }
        return;
    }
    let to = state(b, fs[1], "a state number", at(fs[1].column));
    let parse = if b.floats {
        parse_number_as_float
    } else {
        parse_number
    };
    let value = match parse(fs[2].text) {
        Ok(v) => Some(v),
        Err(reason) => {
            let kind = ProblemKind::BadNumber {
                text: quote(fs[2].text),
                expected: "a probability",
                reason,
            };
            b.problem(kind, at(fs[2].column));
            None
        }
    };
    if let Some(action) = fs.get(3)
        && !is_identifier(action.text)
    {
        let kind = ProblemKind::Syntax {
            message: format!("\"{}\" is not an action name", quote(action.text)),
        };
        b.problem(kind, at(action.column));
    }
    match (from, to, value) {
        (Some(from), Some(to), Some((value, decimal))) => {
            b.push_transition(from, to, value, decimal, at(fs[0].column));
        }
        (Some(from), _, _) => b.skip_row_sum(from),
        _ => {}
    }
}

/// A state number (or a count), or `None` with its problem named.
pub(crate) fn state(
    b: &mut ChainBuilder,
    f: Field,
    expected: &'static str,
    pos: Pos,
) -> Option<u64> {
    match parse_state(f.text) {
        Ok(s) => Some(s),
        Err(reason) => {
            let kind = ProblemKind::BadNumber {
                text: quote(f.text),
                expected,
                reason,
            };
            b.problem(kind, pos);
            None
        }
    }
}

/// A PRISM identifier: a letter or `_`, then letters, digits and `_`.
pub(crate) fn is_identifier(text: &[u8]) -> bool {
    text.first()
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && text.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}
