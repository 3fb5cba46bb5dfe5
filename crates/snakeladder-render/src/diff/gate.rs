//! `diff --fail-if` gates: small expressions on a [`Diff`] that fail a CI
//! step when a layout change goes too far.
//!
//! ```text
//! gate    := [ "abs(" ] name [ ")" ] op number [ "%" ]
//! name    := figure "_change" | "jumps_changed" | "rules_changed"
//! figure  := mean | median | p90 | p99 | shortest
//!          | seat1_advantage_N | rounds_N          (N = 2..6)
//! op      := ">" | ">=" | "<" | "<="
//! ```
//!
//! `mean_change` is `new − old`; with `%` the threshold is compared with the
//! relative change `(new − old) / |old|` in percent. `abs(...)` takes the
//! size of the change either way. `jumps_changed` and `rules_changed` count
//! the jumps added, removed or moved and the rules changed. A gate whose
//! figure is missing on either board fails: a gate never passes unchecked.
//!
//! # Example
//! ```
//! use snakeladder_render::diff::Gate;
//! let gate: Gate = "mean_change > 10%".parse()?;
//! assert_eq!(gate.to_string(), "mean_change > 10%");
//! assert!("mean > 10".parse::<Gate>().is_err());
//! # Ok::<(), snakeladder_render::diff::GateError>(())
//! ```

use super::data::Diff;
use std::fmt;
use std::str::FromStr;

/// A comparison.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `>`
    Greater,
    /// `>=`
    GreaterOrEqual,
    /// `<`
    Less,
    /// `<=`
    LessOrEqual,
}

impl Op {
    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Greater => a > b,
            Op::GreaterOrEqual => a >= b,
            Op::Less => a < b,
            Op::LessOrEqual => a <= b,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Op::Greater => ">",
            Op::GreaterOrEqual => ">=",
            Op::Less => "<",
            Op::LessOrEqual => "<=",
        }
    }
}

/// What a gate measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Metric {
    /// The change of a headline figure ([`super::FigureChange::name`]).
    Change(String),
    /// Jumps added, removed or moved.
    JumpsChanged,
    /// Rules (and size) changed.
    RulesChanged,
}

/// A parsed `--fail-if` expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Gate {
    abs: bool,
    metric: Metric,
    op: Op,
    threshold: f64,
    percent: bool,
}

/// Why a gate expression was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--fail-if {text:?}: {reason}")]
#[non_exhaustive]
pub struct GateError {
    /// The expression.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The figures whose change a gate may name.
pub fn figure_names() -> Vec<String> {
    let mut names: Vec<String> = ["mean", "median", "p90", "p99", "shortest"]
        .iter()
        .map(ToString::to_string)
        .collect();
    for n in 2..=6 {
        names.push(format!("seat1_advantage_{n}"));
        names.push(format!("rounds_{n}"));
    }
    names
}

impl FromStr for Gate {
    type Err = GateError;

    fn from_str(text: &str) -> Result<Gate, GateError> {
        let fail = |reason: &str| GateError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let s = text.trim();
        let at = s
            .find(['<', '>'])
            .ok_or_else(|| fail("no comparison (>, >=, <, <=)"))?;
        let (left, rest) = s.split_at(at);
        let (op, right) = if let Some(r) = rest.strip_prefix(">=") {
            (Op::GreaterOrEqual, r)
        } else if let Some(r) = rest.strip_prefix("<=") {
            (Op::LessOrEqual, r)
        } else if let Some(r) = rest.strip_prefix('>') {
            (Op::Greater, r)
        } else {
            (Op::Less, &rest[1..])
        };
        let left = left.trim();
        let (abs, name) = match left.strip_prefix("abs(").and_then(|l| l.strip_suffix(')')) {
            Some(inner) => (true, inner.trim()),
            None => (false, left),
        };
        let metric = match name {
            "jumps_changed" => Metric::JumpsChanged,
            "rules_changed" => Metric::RulesChanged,
            _ => match name.strip_suffix("_change") {
                Some(figure) if figure_names().iter().any(|n| n == figure) => {
                    Metric::Change(figure.to_string())
                }
                _ => {
                    return Err(fail(&format!(
                        "unknown name {name:?}; names are FIGURE_change ({}), jumps_changed, rules_changed",
                        figure_names().join(", ")
                    )));
                }
            },
        };
        let right = right.trim();
        let (number, percent) = match right.strip_suffix('%') {
            Some(n) => (n.trim(), true),
            None => (right, false),
        };
        let threshold: f64 = number
            .parse()
            .ok()
            .filter(|t: &f64| t.is_finite())
            .ok_or_else(|| fail(&format!("{number:?} is not a number")))?;
        if percent && !matches!(metric, Metric::Change(_)) {
            return Err(fail("a count cannot be a percentage"));
        }
        Ok(Gate {
            abs,
            metric,
            op,
            threshold,
            percent,
        })
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match &self.metric {
            Metric::Change(n) => format!("{n}_change"),
            Metric::JumpsChanged => "jumps_changed".to_string(),
            Metric::RulesChanged => "rules_changed".to_string(),
        };
        let name = if self.abs {
            format!("abs({name})")
        } else {
            name
        };
        let pct = if self.percent { "%" } else { "" };
        write!(f, "{name} {} {}{pct}", self.op.symbol(), self.threshold)
    }
}

impl Gate {
    /// `Some(why)` when the gate trips on this diff (or cannot be
    /// evaluated), `None` when it passes.
    pub fn trips(&self, diff: &Diff) -> Option<String> {
        let value = match &self.metric {
            Metric::JumpsChanged => Some(diff.jumps.len() as f64),
            Metric::RulesChanged => Some(diff.rules.len() as f64),
            Metric::Change(name) => diff.figure(name).and_then(|figure| {
                if self.percent {
                    figure.relative_change().map(|r| r * 100.0)
                } else {
                    figure.change()
                }
            }),
        };
        let Some(value) = value else {
            let zero = matches!(&self.metric, Metric::Change(name)
                if self.percent && diff.figure(name).is_some_and(|f| f.old == Some(0.0)));
            let why = if zero {
                "the old value is 0, so it has no relative change".to_string()
            } else if diff.skipped.is_empty() {
                "the figure is missing on one board".to_string()
            } else {
                format!("the figure is missing ({})", diff.skipped.join("; "))
            };
            return Some(format!("{self}: {why}, so the gate fails"));
        };
        let value = if self.abs { value.abs() } else { value };
        // The value as the gate compares it, and in the figure's unit: a
        // seat's advantage is a difference of probabilities, which diff
        // shows in percentage points.
        let shown = match (&self.metric, self.percent) {
            (Metric::Change(_), true) => format!("{value:.4}%"),
            (Metric::Change(name), false) if name.starts_with("seat1") => format!(
                "{} ({})",
                crate::numbers::probability(value, 6),
                crate::vocabulary::points(value)
            ),
            (Metric::Change(name), false) if name.starts_with("rounds") => {
                format!("{} rounds", crate::numbers::fixed(value, 4, false))
            }
            (Metric::Change(_), false) => {
                format!("{} turns", crate::numbers::fixed(value, 4, false))
            }
            _ => format!("{value}"),
        };
        self.op
            .holds(value, self.threshold)
            .then(|| format!("{self}: the value is {shown}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_parse_and_print_back() {
        for text in [
            "mean_change > 10%",
            "abs(mean_change) >= 2",
            "p99_change <= -5",
            "seat1_advantage_2_change > 0.01",
            "jumps_changed > 3",
            "rules_changed > 0",
        ] {
            let gate: Gate = text.parse().unwrap();
            assert_eq!(gate.to_string(), text);
        }
        assert_eq!(
            "mean_change>10%".parse::<Gate>().unwrap().to_string(),
            "mean_change > 10%"
        );
    }

    #[test]
    fn bad_expressions_are_refused() {
        for text in [
            "mean_change",
            "mean > 10",
            "mean_change > x",
            "jumps_changed > 1%",
            "mean_change > inf",
            "seat1_advantage_7_change > 0",
        ] {
            assert!(text.parse::<Gate>().is_err(), "{text}");
        }
    }
}
