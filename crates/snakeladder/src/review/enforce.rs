//! Checking a valid board against a layout policy ([`Thresholds`]) with its
//! exact analysis.
//!
//! Every threshold is compared with the exact figure (up to `f64`
//! rounding) named in [`crate::policy::Thresholds`]; a figure above a
//! maximum or below a minimum is a [`Violation`] that names the figure, the
//! threshold and where to look. A board whose analysis would pass the
//! memory or work limits is reported as unchecked, never passed.

use super::locate::FieldPath;
use crate::markov::analysis::Figure;
use crate::markov::analysis::{Analysis, Limits, Options};
use crate::model::vocabulary;
use crate::policy::Thresholds;
use crate::{Board, BoardSpec, JumpKind, JumpRef};

/// The kind of the problem raised when the policy could not be checked.
pub const UNCHECKED: &str = "policy_unchecked";

/// A threshold a board does not meet (or could not be checked against).
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The threshold's key ([`crate::policy::Thresholds::KEYS`]), or [`UNCHECKED`].
    pub kind: &'static str,
    /// Where to point: the board's `squares`, or the jump.
    pub field: FieldPath,
    /// The figure, the threshold and what they mean.
    pub message: String,
}

/// [`check_until`] without a stop flag.
#[cfg(test)]
pub fn check(board: &Board, spec: &BoardSpec, t: &Thresholds, limits: &Limits) -> Vec<Violation> {
    check_until(board, spec, t, limits, None)
}

/// Checks a valid board against thresholds. `spec` is the board as written,
/// so that a jump is named by its place in the file. The analysis stops
/// once `stop` is set (the thresholds are then reported as unchecked,
/// saying so).
///
/// Returns nothing when no threshold is set (no analysis is run).
pub(crate) fn check_until(
    board: &Board,
    spec: &BoardSpec,
    t: &Thresholds,
    limits: &Limits,
    stop: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Vec<Violation> {
    if t.is_empty() {
        return Vec::new();
    }
    // A threshold of -0 is 0 in every message (issue 27).
    let t = &t.unsigned();
    let squares = FieldPath::key("squares");
    let unchecked = |message: String| {
        vec![Violation {
            kind: UNCHECKED,
            field: FieldPath::key("squares"),
            message,
        }]
    };
    let players = if t.max_first_seat_advantage.is_some() {
        vec![2]
    } else {
        Vec::new()
    };
    let mut options = Options::default().players(players).limits(*limits);
    if let Some(stop) = stop {
        options = options.with_stop(std::sync::Arc::clone(stop));
    }
    let a = match Analysis::new(board, &options) {
        Ok(a) => a,
        Err(e) => return unchecked(format!("the policy could not be checked: {e}")),
    };
    let mut findings = Findings {
        a: &a,
        squares,
        found: Vec::new(),
        skipped: Vec::new(),
    };
    findings.mean(t);
    findings.p99(t);
    findings.first_seat(t);
    findings.jump_use(t, spec);
    findings.shortest(t);
    findings.finish()
}

/// What checking one analysis against thresholds finds: the violations in
/// the thresholds' order, and the thresholds that could not be checked
/// with why (reported after them).
struct Findings<'a> {
    a: &'a Analysis,
    /// Where a board-wide violation points.
    squares: FieldPath,
    found: Vec<Violation>,
    skipped: Vec<(&'static str, String)>,
}

impl<'a> Findings<'a> {
    /// Why `figure` was left out of the analysis, if it was.
    fn needs(&self, figure: Figure) -> Option<&'a crate::analysis::Skipped> {
        self.a.skipped.iter().find(|s| s.figure == figure)
    }

    /// Adds a violation of threshold `kind` at `field`.
    fn push(&mut self, kind: &'static str, field: FieldPath, message: String) {
        self.found.push(Violation {
            kind,
            field,
            message,
        })
    }

    /// The mean against `max_mean_turns` and `min_mean_turns`.
    fn mean(&mut self, t: &Thresholds) {
        let mean = self.a.turns.mean;
        if let Some(max) = t.max_mean_turns
            && mean > max
        {
            self.push(
                "max_mean_turns",
                self.squares.clone(),
                format!("mean game length {mean:.4} turns is above max_mean_turns = {max}"),
            );
        }
        if let Some(min) = t.min_mean_turns
            && mean < min
        {
            self.push(
                "min_mean_turns",
                self.squares.clone(),
                format!("mean game length {mean:.4} turns is below min_mean_turns = {min}"),
            );
        }
    }

    /// The 99th percentile of the length against `max_p99_turns`.
    fn p99(&mut self, t: &Thresholds) {
        if let Some(max) = t.max_p99_turns {
            match (self.needs(Figure::Distribution), self.a.turns.p99) {
                (None, Some(p99)) if p99 as f64 > max => self.push(
                    "max_p99_turns",
                    self.squares.clone(),
                    format!(
                        "99% of games are over within {p99} turns, more than max_p99_turns = {max}"
                    ),
                ),
                (None, Some(_)) => {}
                (Some(skip), _) => self.skipped.push(("max_p99_turns", skip.to_string())),
                (None, None) => self.skipped.push((
                    "max_p99_turns",
                    "the length distribution does not reach 99%".to_string(),
                )),
            }
        }
    }

    /// Seat 1's advantage over seat 2 against `max_first_seat_advantage`.
    fn first_seat(&mut self, t: &Thresholds) {
        if let Some(max) = t.max_first_seat_advantage {
            match self.a.players.iter().find(|p| p.count == 2) {
                Some(two) => {
                    let (p1, p2) = (two.win_probability[0], two.win_probability[1]);
                    let advantage = p1 - p2;
                    if advantage > max {
                        self.push(
                            "max_first_seat_advantage",
                            self.squares.clone(),
                            format!(
                                "with two players seat 1's {} is {} and seat 2's {}: \
                                 a {} of {}, above max_first_seat_advantage = {max} ({})",
                                vocabulary::WIN_CHANCE.name,
                                vocabulary::WIN_CHANCE.format(p1),
                                vocabulary::WIN_CHANCE.format(p2),
                                vocabulary::FIRST_SEAT_ADVANTAGE.name,
                                vocabulary::FIRST_SEAT_ADVANTAGE.format(advantage),
                                vocabulary::FIRST_SEAT_ADVANTAGE.format(max),
                            ),
                        );
                    }
                }
                None => {
                    let why = self
                        .needs(Figure::Players)
                        .map_or_else(|| "seat odds are missing".to_string(), ToString::to_string);
                    self.skipped.push(("max_first_seat_advantage", why));
                }
            }
        }
    }

    /// Each jump's chance of being used against `min_jump_use`, the jump
    /// named as written in `spec`.
    fn jump_use(&mut self, t: &Thresholds, spec: &BoardSpec) {
        if let Some(min) = t.min_jump_use {
            match self.needs(Figure::Jumps) {
                Some(skip) => self.skipped.push(("min_jump_use", skip.to_string())),
                None => {
                    for j in &self.a.jumps {
                        if j.use_probability < min {
                            let (jump, field) = written(spec, j.kind, j.from.get(), j.to.get());
                            self.push(
                                "min_jump_use",
                                field,
                                format!(
                                    "{jump}: {} in {} of games, below min_jump_use = {min} ({})",
                                    vocabulary::JUMP_USED.name,
                                    vocabulary::JUMP_USED.format(j.use_probability),
                                    vocabulary::JUMP_USED.format(min)
                                ),
                            );
                        }
                    }
                }
            }
        }
    }

    /// The chance of the shortest game against
    /// `max_shortest_game_probability`.
    fn shortest(&mut self, t: &Thresholds) {
        if let Some(max) = t.max_shortest_game_probability {
            match (self.needs(Figure::Distribution), self.a.turns.min) {
                (None, Some(fewest)) => {
                    let p = self.a.turns.pmf[fewest - 1];
                    if p > max {
                        self.push(
                            "max_shortest_game_probability",
                            self.squares.clone(),
                            format!(
                                "a game is over in the fewest turns ({fewest}) with probability {}, \
                                 above max_shortest_game_probability = {max}",
                                crate::model::numbers::probability(p, 6)
                            ),
                        );
                    }
                }
                (Some(skip), _) => self
                    .skipped
                    .push(("max_shortest_game_probability", skip.to_string())),
                (None, None) => self.skipped.push((
                    "max_shortest_game_probability",
                    "the length distribution is empty".to_string(),
                )),
            }
        }
    }

    /// The violations, then one [`UNCHECKED`] per threshold not checked.
    fn finish(self) -> Vec<Violation> {
        let (mut found, squares) = (self.found, self.squares);
        for (key, why) in self.skipped {
            found.push(Violation {
                kind: UNCHECKED,
                field: squares.clone(),
                message: format!("{key} could not be checked: {why}"),
            });
        }
        found
    }
}

/// The jump as written in the file (list and place), and its path.
fn written(spec: &BoardSpec, kind: JumpKind, from: u32, to: u32) -> (JumpRef, FieldPath) {
    let pairs = match kind {
        JumpKind::Ladder => &spec.ladders,
        JumpKind::Snake => &spec.snakes,
    };
    let pair = [i64::from(from), i64::from(to)];
    let index = pairs.iter().position(|p| *p == pair).unwrap_or(0);
    let jump = JumpRef {
        list: kind,
        index,
        from: pair[0],
        to: pair[1],
    };
    let path = FieldPath::key(jump.list_name()).index(index);
    (jump, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin() -> (Board, BoardSpec) {
        let spec: BoardSpec = serde_json::from_str(crate::model::read::DEFAULT_BOARD_JSON).unwrap();
        (Board::from_spec(&spec).unwrap(), spec)
    }

    fn kinds(v: &[Violation]) -> Vec<&str> {
        v.iter().map(|v| v.kind).collect()
    }

    /// The built-in board's mean is 39.5984 (docs/figures.md §12): above 30, below 45.
    #[test]
    fn mean_turns_thresholds_on_the_built_in_board() {
        let (board, spec) = builtin();
        let limits = Limits::default();
        let at = |max| Thresholds {
            max_mean_turns: Some(max),
            ..Thresholds::default()
        };
        let v = check(&board, &spec, &at(30.0), &limits);
        assert_eq!(kinds(&v), ["max_mean_turns"]);
        assert_eq!(
            v[0].message,
            "mean game length 39.5984 turns is above max_mean_turns = 30"
        );
        assert!(check(&board, &spec, &at(45.0), &limits).is_empty());
        let min = Thresholds {
            min_mean_turns: Some(45.0),
            ..Thresholds::default()
        };
        assert_eq!(
            kinds(&check(&board, &spec, &min, &limits)),
            ["min_mean_turns"]
        );
    }

    /// Exactly the jumps the analysis finds used in fewer games than the
    /// threshold are named, each by its list and place in the file.
    #[test]
    fn jump_use_names_each_jump_as_written() {
        let (board, spec) = builtin();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let threshold = 0.3;
        let expected: Vec<(u32, u32)> = a
            .jumps
            .iter()
            .filter(|j| j.use_probability < threshold)
            .map(|j| (j.from.get(), j.to.get()))
            .collect();
        assert!(!expected.is_empty() && expected.len() < a.jumps.len());
        let t = Thresholds {
            min_jump_use: Some(threshold),
            ..Thresholds::default()
        };
        let v = check(&board, &spec, &t, &Limits::default());
        assert_eq!(v.len(), expected.len());
        for (violation, (from, to)) in v.iter().zip(&expected) {
            assert_eq!(violation.kind, "min_jump_use");
            let list = if to > from {
                &spec.ladders
            } else {
                &spec.snakes
            };
            let index = list
                .iter()
                .position(|p| *p == [i64::from(*from), i64::from(*to)])
                .unwrap();
            let key = if to > from { "ladders" } else { "snakes" };
            assert_eq!(violation.field.to_string(), format!("{key}[{index}]"));
            assert!(
                violation.message.starts_with(&format!(
                    "{key}[{index}] {from}→{to}: used at least once in"
                )),
                "{}",
                violation.message
            );
        }
    }

    /// Ten squares, no jumps, a fair d6 from square 0 with overshoot
    /// `stay`: the fewest turns is 2 (e.g. 4 + 6), and P(T = 2) counts the
    /// pairs summing to exactly 10 with a first roll below 10: (4,6),
    /// (5,5), (6,4) = 3/36.
    #[test]
    fn shortest_game_probability_by_hand() {
        let spec: BoardSpec = serde_json::from_str(r#"{"squares": 10}"#).unwrap();
        let board = Board::from_spec(&spec).unwrap();
        let t = |max| Thresholds {
            max_shortest_game_probability: Some(max),
            ..Thresholds::default()
        };
        let v = check(&board, &spec, &t(0.08), &Limits::default());
        assert_eq!(kinds(&v), ["max_shortest_game_probability"]);
        assert!(
            v[0].message
                .contains("fewest turns (2) with probability 0.083333"),
            "{}",
            v[0].message
        );
        assert!(check(&board, &spec, &t(0.0834), &Limits::default()).is_empty());
    }

    /// Seat 1 of the built-in board wins 0.507803 of two-player games
    /// (the analysis' own doc example): an advantage of about 0.0156.
    #[test]
    fn first_seat_advantage() {
        let (board, spec) = builtin();
        let t = |max| Thresholds {
            max_first_seat_advantage: Some(max),
            ..Thresholds::default()
        };
        assert_eq!(
            kinds(&check(&board, &spec, &t(0.01), &Limits::default())),
            ["max_first_seat_advantage"]
        );
        assert!(check(&board, &spec, &t(0.02), &Limits::default()).is_empty());
    }

    #[test]
    fn a_board_past_the_limits_is_unchecked_not_passed() {
        let (board, spec) = builtin();
        let tight = Limits {
            max_memory: 1,
            ..Limits::default()
        };
        let t = Thresholds {
            max_mean_turns: Some(1000.0),
            ..Thresholds::default()
        };
        let v = check(&board, &spec, &t, &tight);
        assert_eq!(kinds(&v), [UNCHECKED]);
        assert!(v[0].message.contains("max-memory"), "{}", v[0].message);
        let no_work = Limits {
            max_work: 1.0,
            ..Limits::default()
        };
        let t = Thresholds {
            max_p99_turns: Some(1000.0),
            ..Thresholds::default()
        };
        let v = check(&board, &spec, &t, &no_work);
        assert_eq!(kinds(&v), [UNCHECKED]);
        assert!(
            v[0].message
                .starts_with("max_p99_turns could not be checked: skipped"),
            "{}",
            v[0].message
        );
    }

    #[test]
    fn no_threshold_no_analysis() {
        let (board, spec) = builtin();
        let tight = Limits {
            max_memory: 1,
            ..Limits::default()
        };
        assert!(check(&board, &spec, &Thresholds::default(), &tight).is_empty());
    }
}
