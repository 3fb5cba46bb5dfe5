//! Tools for board designers: seeded random layouts that are valid by
//! construction ([`Layout::generate`]), how a board's length answers to each jump
//! ([`sensitivity()`]), the fewest jump moves that bring a board into a
//! target ([`tune()`]), and a board found by search inside a target
//! ([`generate_to_target()`]).
//!
//! The last three sit on one evaluator (`Base`, in `src/design/eval.rs`): a board compiled and
//! solved once, after which the mean length of the board with one jump moved
//! or removed comes from a rank-one (Sherman–Morrison) or rank-two
//! (Woodbury) update of the solved chain in O(1), rather than a compile and
//! a solve per candidate (`src/design/eval.rs` has the formulas and where
//! they do not apply). Every board a search returns is validated, compiled
//! and solved afresh, and must agree with the update.
//!
//! The searches run on every core (rayon) and are deterministic for a seed
//! whatever the number of threads: work is cut into pieces fixed in advance
//! (candidates of one step, restarts in batches of a fixed size), results
//! are gathered in order, and ties are broken by a hash of the seed, never
//! by which thread finished first.
//!
//! # Example
//! ```
//! use snakeladder::design::Layout;
//! use snakeladder::Seed;
//!
//! let layout = Layout::new(100, 8, 8, Seed::new(7));
//! let board = layout.generate()?;
//! assert_eq!(board.jumps().len(), 16);
//! # Ok::<(), snakeladder::design::DesignError>(())
//! ```
//!
//! ```
//! use snakeladder::Board;
//! use snakeladder::design::{Target, TuneOptions, tune};
//!
//! let board = Board::builtin_default();
//! // One move of one jump that makes the classic game last 42 to 43 turns.
//! let options = TuneOptions::new(Target::new(42.0, 43.0)?, 1);
//! let tuned = tune(&board, &options)?;
//! assert_eq!(tuned.changes.len(), 1);
//! assert!((42.0..=43.0).contains(&tuned.mean_turns));
//! # Ok::<(), snakeladder::design::DesignError>(())
//! ```

pub(crate) mod budget;
mod change;
pub(crate) mod eval;
pub(crate) mod random;
mod search;
pub(crate) mod sensitivity;
mod target;
mod tune;

pub(crate) use budget::Budget;
pub use change::JumpChange;
pub(crate) use eval::MAX_UPDATE_STATES;
pub use random::Layout;
pub use sensitivity::{Edit, Sensitivity, Variant, sensitivity};
pub use target::{GenerateOptions, Generated, generate_to_target};
pub use tune::{TuneOptions, Tuned, tune};

use crate::markov::analysis::AnalysisError;
use crate::model::limits::MAX_SQUARES;
use crate::{Board, Jump, JumpKind, Square};
use serde::Serialize;
use std::fmt;

/// What a search aims at: a band of mean lengths, and optionally a cap on
/// the first seat's advantage with two players.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::design::Target;

let target = Target::new(10.0, 12.0)?;
assert!(target.contains(11.6));
assert_eq!(target.distance(13.0), 1.0);
assert!(Target::new(5.0, 4.0).is_err());
let capped = target.with_max_first_seat_advantage(0.05)?;
assert_eq!(capped.max_first_seat_advantage(), Some(0.05));
# Ok::<(), snakeladder::design::DesignError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Target {
    /// The least mean length in turns, inclusive.
    pub(crate) min_turns: f64,
    /// The greatest mean length in turns, inclusive.
    pub(crate) max_turns: f64,
    /// The greatest `P(seat 1 wins) − P(seat 2 wins)` with two players.
    pub(crate) max_first_seat_advantage: Option<f64>,
}

impl Target {
    /// Mean lengths in `min..=max` turns, no cap on the advantage.
    ///
    /// # Errors
    /// [`DesignError::Target`] unless `1 ≤ min ≤ max` and both are finite.
    pub fn new(min: f64, max: f64) -> Result<Target, DesignError> {
        if !(min.is_finite() && max.is_finite() && min >= 1.0 && min <= max) {
            return Err(DesignError::Target { min, max });
        }
        Ok(Target {
            min_turns: min,
            max_turns: max,
            max_first_seat_advantage: None,
        })
    }

    /// The same band with the first seat's advantage capped at `p` (a
    /// difference of probabilities, in 0..=1).
    ///
    /// # Errors
    /// [`DesignError::Advantage`] unless `0 ≤ p ≤ 1`.
    pub fn with_max_first_seat_advantage(self, p: f64) -> Result<Target, DesignError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(DesignError::Advantage { value: p });
        }
        Ok(Target {
            max_first_seat_advantage: Some(p),
            ..self
        })
    }

    /// The least mean length in turns, inclusive.
    pub fn min_turns(&self) -> f64 {
        self.min_turns
    }

    /// The greatest mean length in turns, inclusive.
    pub fn max_turns(&self) -> f64 {
        self.max_turns
    }

    /// The greatest `P(seat 1 wins) − P(seat 2 wins)` with two players, if
    /// capped.
    pub fn max_first_seat_advantage(&self) -> Option<f64> {
        self.max_first_seat_advantage
    }

    /// How far a mean lies outside the band; 0 inside.
    pub fn distance(&self, mean: f64) -> f64 {
        (self.min_turns - mean).max(mean - self.max_turns).max(0.0)
    }

    /// Whether a mean lies in the band.
    pub fn contains(&self, mean: f64) -> bool {
        self.distance(mean) == 0.0
    }

    fn center(&self) -> f64 {
        (self.min_turns + self.max_turns) / 2.0
    }

    /// Whether an advantage meets the cap (any does without one).
    pub fn fair_enough(&self, advantage: f64) -> bool {
        self.max_first_seat_advantage.is_none_or(|p| advantage <= p)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a mean of {}–{} turns", self.min_turns, self.max_turns)?;
        if let Some(p) = self.max_first_seat_advantage {
            write!(
                f,
                " and a first-seat advantage of at most {}",
                crate::model::vocabulary::FIRST_SEAT_ADVANTAGE.format(p)
            )?;
        }
        Ok(())
    }
}

/// Which of a target's constraints a search could not meet.
fn out_of_reach_why(target: &Target, closest: f64, fairest: Option<f64>) -> String {
    match (fairest, target.max_first_seat_advantage) {
        (Some(a), Some(cap)) => format!(
            "boards with a mean inside the band were found, but the first-seat advantage failed: \
             the fairest of them has {}, above the cap of {}",
            crate::model::vocabulary::FIRST_SEAT_ADVANTAGE.format(a),
            crate::model::vocabulary::FIRST_SEAT_ADVANTAGE.format(cap)
        ),
        // Every board checked inside the band names its advantage when it
        // has one (`fairest`): a closest mean inside the band with none means
        // their advantage was not known (games past the turn cap).
        (None, Some(_)) if target.contains(closest) => format!(
            "boards with a mean inside the band were found, but the first-seat advantage \
             of none of them could be computed: their games outlast {} turns",
            crate::markov::tolerance::MAX_DISTRIBUTION_TURNS
        ),
        _ => format!(
            "the closest found has a mean of {} turns",
            outside(closest, target)
        ),
    }
}

/// Why a design tool could not do what was asked.
///
/// # Example
/// ```
/// use snakeladder::design::{DesignError, Target};
///
/// let err = Target::new(40.0, 30.0).unwrap_err();
/// assert!(matches!(err, DesignError::Target { .. }));
/// assert_eq!(err.to_string(), "target: 40:30 is not a band of mean turns (need 1 ≤ A ≤ B)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DesignError {
    /// The band of a target is empty or out of range.
    #[error("target: {min}:{max} is not a band of mean turns (need 1 ≤ A ≤ B)")]
    Target {
        /// The least mean asked for.
        min: f64,
        /// The greatest.
        max: f64,
    },
    /// The advantage cap is not a difference of probabilities.
    #[error("max first-seat advantage: {value} is not in 0..=1")]
    Advantage {
        /// The cap asked for.
        value: f64,
    },
    /// A jump to keep is not on the board.
    #[error("keep: the board has no jump {from}→{to}")]
    KeepNotOnBoard {
        /// Its start.
        from: u32,
        /// Its end.
        to: u32,
    },
    /// The board (or one on the way) could not be analysed.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),

    /// The squares are outside 2..=[`Board::MAX_SQUARES`](crate::Board::MAX_SQUARES).
    #[error("squares: {squares} is out of range (2..={MAX_SQUARES})")]
    Squares {
        /// The squares asked for.
        squares: u32,
    },
    /// More jumps than the board has room for: each needs its own start
    /// square (1..N−1, not the start square), a snake needs a square below
    /// its start that starts no jump, and no jump may end where another
    /// starts.
    #[error("{jumps} jumps do not fit on {squares} squares (at most {room}{snakes_note})", snakes_note = if *.with_snakes { " when there are snakes" } else { "" })]
    TooManyJumps {
        /// Jumps asked for.
        jumps: u64,
        /// The board's squares.
        squares: u32,
        /// The most that fit.
        room: u64,
        /// Whether the room counts the square a snake needs below it.
        with_snakes: bool,
    },
    /// A maximum jump length of 0.
    #[error("the longest jump must be at least 1 square")]
    MaxLength,
    /// Every draw of start squares left some jump without a square it may
    /// end on within the longest jump's length (a board nearly full of
    /// jumps with short `--max-length`).
    #[error(
        "could not place {jumps} jumps on {squares} squares with jumps of at most {max_length} squares in {attempts} draws; try another seed, fewer jumps or a longer maximum length"
    )]
    NoLayout {
        /// Jumps asked for.
        jumps: u64,
        /// The board's squares.
        squares: u32,
        /// The longest jump allowed.
        max_length: u32,
        /// Draws of start squares tried.
        attempts: u32,
    },
    /// The generated layout broke a rule of the chosen rule set (for example
    /// dice that cannot finish from some square).
    #[error(transparent)]
    Invalid(#[from] crate::BoardError),
    /// No set of at most `max_changes` jump moves reaches the target. The
    /// message names the constraint that failed: the band of mean turns,
    /// or the first-seat advantage cap of boards inside it.
    #[error(
        "no set of at most {max_changes} jump move{} reaches {target}: {} ({evaluated} candidate boards evaluated)",
        if *max_changes == 1 { "" } else { "s" },
        out_of_reach_why(target, *closest, *fairest)
    )]
    OutOfReach {
        /// The limit on changes.
        max_changes: usize,
        /// The target.
        target: Target,
        /// The mean closest to the band that was found.
        closest: f64,
        /// The least first-seat advantage of a board found inside the band,
        /// when the target caps it and such a board was checked.
        fairest: Option<f64>,
        /// Candidate boards evaluated.
        evaluated: u64,
    },
    /// The generator's search found no board in the target.
    #[error(
        "no board with {target} found in {restarts} random starts: the closest reached a mean of {} turns{} ({evaluated} candidate boards evaluated)",
        outside(*closest, target),
        fairest.map_or_else(String::new, |a| format!(", the fairest in the band a first-seat advantage of {}", crate::model::vocabulary::FIRST_SEAT_ADVANTAGE.format(a)))
    )]
    NotFound {
        /// The target.
        target: Target,
        /// Random starts tried.
        restarts: u32,
        /// The mean closest to the band that was reached.
        closest: f64,
        /// The least first-seat advantage of a board reached in the band,
        /// when the target caps it.
        fairest: Option<f64>,
        /// Candidate boards evaluated.
        evaluated: u64,
    },
    /// A search stopped at a limit of its [`Budget`] before it was done:
    /// the limit, and the closest mean found so far.
    #[error("{}", stopped(limit, target.as_ref(), *closest, *evaluated))]
    Stopped {
        /// Which limit, with the amounts.
        limit: String,
        /// The target searched for (`None` for `analyze --sensitivity`).
        target: Option<Target>,
        /// The mean closest to the band found before the stop.
        closest: Option<f64>,
        /// Candidate boards evaluated.
        evaluated: u64,
    },
    /// The update and a fresh solve disagree past
    /// [`tolerance::UPDATE_AGREEMENT`](crate::markov::tolerance::UPDATE_AGREEMENT):
    /// a bug, reported rather than hidden.
    #[error("the updated mean {update} and the re-solved mean {solved} disagree")]
    Disagrees {
        /// The mean by the update.
        update: f64,
        /// The mean by a fresh solve.
        solved: f64,
    },
}

/// The moves of jump `a` (its position in [`Board::jumps`]) that the
/// searches consider: its end to any other square, its start to any other
/// square, and both ends shifted together, each keeping the jump's kind.
/// Moves that break a rule are left for [`eval::admissible`] to drop.
pub(crate) fn moves_of(board: &Board, a: usize) -> Vec<Jump> {
    let jump = board.jumps()[a];
    let last = board.last().get();
    let (f, e) = (jump.from().get(), jump.to().get());
    let ladder = jump.kind() == JumpKind::Ladder;
    let goes = |from: u32, to: u32| from != to && (to > from) == ladder;
    let mut out = Vec::with_capacity(3 * last as usize);
    for s in 1..=last {
        if s != e && goes(f, s) {
            out.push(Jump::new(jump.from(), Square::new(s)));
        }
        if s != f && s < last && goes(s, e) {
            out.push(Jump::new(Square::new(s), jump.to()));
        }
    }
    let length = i64::from(e) - i64::from(f);
    for from in 1..last {
        let to = i64::from(from) + length;
        if from != f && (1..=i64::from(last)).contains(&to) {
            out.push(Jump::new(Square::new(from), Square::new(to as u32)));
        }
    }
    out
}

/// Every placement of jump `a` other than its own: any start and any end
/// that keep its kind (about N²/2 on N squares). `tune` tries all of them
/// for one move; `generate` takes the smaller [`moves_of`] per step.
pub(crate) fn placements_of(board: &Board, a: usize) -> Vec<Jump> {
    placements_iter(board, a).collect()
}

/// [`placements_of`] one at a time, in the same order.
pub(crate) fn placements_iter(board: &Board, a: usize) -> impl Iterator<Item = Jump> {
    let jump = board.jumps()[a];
    let last = board.last().get();
    let ladder = jump.kind() == JumpKind::Ladder;
    (1..last)
        .flat_map(move |from| {
            let ends = if ladder {
                from + 1..=last
            } else {
                1..=from - 1
            };
            ends.map(move |to| Jump::new(Square::new(from), Square::new(to)))
        })
        .filter(move |&j| j != jump)
}

/// A 64-bit mix of a seed and a number (SplitMix64's finaliser): ties in the
/// searches are broken by it, so that a seed picks among equal candidates.
pub(crate) fn mix(seed: u64, n: u64) -> u64 {
    let mut x = seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_checked() {
        assert!(Target::new(30.0, 32.0).is_ok());
        assert!(matches!(
            Target::new(32.0, 30.0),
            Err(DesignError::Target { .. })
        ));
        assert!(Target::new(0.5, 3.0).is_err());
        assert!(Target::new(f64::NAN, 3.0).is_err());
        let t = Target::new(30.0, 32.0).unwrap();
        assert_eq!(t.distance(29.0), 1.0);
        assert_eq!(t.distance(33.5), 1.5);
        assert!(t.contains(30.0) && t.contains(32.0));
        assert!(t.with_max_first_seat_advantage(1.5).is_err());
        assert_eq!(
            t.with_max_first_seat_advantage(0.02).unwrap().to_string(),
            "a mean of 30–32 turns and a first-seat advantage of at most +2.000 pp"
        );
    }

    #[test]
    fn placements_are_every_jump_of_the_kind() {
        let board =
            Board::from_json_str(r#"{"squares": 10, "ladders": [[2, 5]], "snakes": [[9, 3]]}"#)
                .unwrap();
        // 1 ≤ from < to ≤ 10: 45 ladders, less the one there; 36 snakes
        // 1 ≤ to < from ≤ 9, less the one there.
        assert_eq!(placements_of(&board, 0).len(), 44);
        assert_eq!(placements_of(&board, 1).len(), 35);
        let moves = moves_of(&board, 0);
        assert!(moves.iter().all(|m| placements_of(&board, 0).contains(m)));
    }

    #[test]
    fn moves_keep_the_kind_and_stay_on_the_board() {
        let board = Board::builtin_default();
        for (a, j) in board.jumps().iter().enumerate() {
            let moves = moves_of(&board, a);
            assert!(moves.len() > 50);
            for m in moves {
                assert_eq!(m.kind(), j.kind());
                assert!(m.from() < board.last() && m.to() <= board.last());
                assert!(m.from().get() >= 1 && m.to().get() >= 1);
                assert_ne!(m, *j);
            }
        }
    }
}

/// The message of [`DesignError::Stopped`].
fn stopped(limit: &str, target: Option<&Target>, closest: Option<f64>, evaluated: u64) -> String {
    let what = target.map_or_else(String::new, |t| format!(" before finding {t}"));
    let best = match (target, closest) {
        (Some(t), Some(c)) => format!("; the closest found has a mean of {} turns", outside(c, t)),
        _ => String::new(),
    };
    format!("the search stopped{what}: {limit}{best} ({evaluated} candidate boards evaluated)")
}

/// A mean that missed the band, with as many decimals as it takes to show
/// it outside (a mean of 29.99997 against a band of 30–30 reads
/// `29.99997`, never `30.0000`), at least four.
fn outside(mean: f64, target: &Target) -> String {
    for decimals in 4..=15 {
        let text = format!("{mean:.decimals$}");
        let read: f64 = text.parse().unwrap_or(mean);
        if !(target.min_turns..=target.max_turns).contains(&read) {
            return text;
        }
    }
    format!("{mean:e}")
}

#[cfg(test)]
mod outside_tests {
    use super::*;

    /// Boards inside the band whose advantage is unknown (games past the
    /// turn cap) are named as such, not as the closest mean, which is in
    /// the band.
    #[test]
    fn a_band_met_with_unknown_advantages_says_so() {
        let target = Target::new(9e6, 1.1e7)
            .unwrap()
            .with_max_first_seat_advantage(0.5)
            .unwrap();
        let why = out_of_reach_why(&target, 1.0000001e7, None);
        assert!(why.contains("could be computed"), "{why}");
        assert!(!why.contains("closest"), "{why}");
        // Outside the band, the closest mean is still what is named.
        assert!(out_of_reach_why(&target, 8e6, None).contains("closest"));
    }

    #[test]
    fn a_missed_mean_never_reads_as_inside_the_band() {
        let band = Target {
            min_turns: 30.0,
            max_turns: 30.0,
            max_first_seat_advantage: None,
        };
        assert_eq!(outside(29.999_97, &band), "29.99997");
        assert_eq!(outside(30.000_000_4, &band), "30.0000004");
        assert_eq!(outside(41.5, &band), "41.5000");
    }
}
