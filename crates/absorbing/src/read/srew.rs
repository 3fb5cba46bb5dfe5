//! The state rewards file (`.srew`).
//!
//! PRISM writes (`prism -exportstaterewards`) optional header comments, a
//! counts line (the number of states and of nonzero rewards), then
//! `state reward` lines for the nonzero rewards:
//!
//! ```text
//! # Reward structure "steps"
//! # State rewards
//! 3 2
//! 0 1
//! 1 1
//! ```
//!
//! Storm reads the same lines without the counts line. A first line of two
//! numbers whose first is the number of states cannot be a reward (state
//! numbers are below it), so it is read as PRISM's counts line.

use super::number::{parse_number_as_float, parse_value};
use super::text::{Field, fields, first_column, lines};
use super::tra::state;
use crate::builder::{ChainBuilder, Pos};
use crate::error::{ProblemKind, quote};

/// Reads state rewards into `b`; states not named earn zero.
pub(crate) fn read_srew(b: &mut ChainBuilder, text: &[u8], file: u8) {
    b.set_rewards_given();
    let at = |line: u64, column: u64| Pos::Line { file, line, column };
    let mut first = true;
    let mut declared: Option<(u64, Pos)> = None;
    let mut found = 0u64;
    for line in lines(text) {
        let fs: Vec<Field> = fields(line.text).take(3).collect();
        if fs.is_empty() || fs[0].text[0] == b'#' {
            continue;
        }
        if std::mem::take(&mut first)
            && fs.len() == 2
            && b.states()
                .is_some_and(|n| fs[0].text == n.to_string().as_bytes())
        {
            let pos = at(line.number, fs[1].column);
            if let Some(count) = state(b, fs[1], "a number of rewards", pos) {
                declared = Some((count, pos));
            }
            continue;
        }
        found += 1;
        if fs.len() != 2 {
            let kind = ProblemKind::Syntax {
                message: "expected \"state reward\"".into(),
            };
            b.problem(kind, at(line.number, first_column(line.text)));
            continue;
        }
        let s = state(b, fs[0], "a state number", at(line.number, fs[0].column));
        let parsed = if b.floats {
            parse_number_as_float(fs[1].text).map(|(v, _)| v)
        } else {
            parse_value(fs[1].text)
        };
        let value = match parsed {
            Ok(v) => Some(v),
            Err(reason) => {
                let kind = ProblemKind::BadNumber {
                    text: quote(fs[1].text),
                    expected: "a reward",
                    reason,
                };
                b.problem(kind, at(line.number, fs[1].column));
                None
            }
        };
        if let (Some(s), Some(v)) = (s, value) {
            b.push_reward(s, v, at(line.number, fs[0].column));
        }
    }
    if let Some((declared, pos)) = declared
        && declared != found
    {
        let kind = ProblemKind::CountMismatch {
            what: "rewards",
            declared,
            found,
        };
        b.problem(kind, pos);
    }
}
