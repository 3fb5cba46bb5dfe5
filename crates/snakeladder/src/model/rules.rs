//! The rule set: overshoot, chains, dice, extra rolls, entry and start.

use crate::Square;
use crate::model::dice::{Dice, DiceSpec};
use crate::model::problem::Problem;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a roll that would pass the last square does.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Overshoot, Square};

let board = Board::from_json_str(r#"{"squares": 20, "rules": {"overshoot": "bounce"}}"#)?;
assert_eq!(board.rules().overshoot(), Overshoot::Bounce);
// 18 + 5 is 3 past 20: the token bounces back to 17.
assert_eq!(board.move_token(Square::new(18), 5).end, Square::new(17));
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Overshoot {
    /// The token does not move and takes no jump; the roll is still used
    /// ("exact finish").
    #[default]
    Stay,
    /// The token walks to the last square and back by the excess, landing on
    /// `max(1, N - (target - N))`; that square's jump then applies.
    Bounce,
    /// The token lands on the last square and wins.
    Win,
}

/// Whether a jump that ends on the start of another jump goes on.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Chains, Square};

let layout = r#""squares": 30, "ladders": [[2, 10], [10, 20]]"#;
// By default a jump may not end where another starts.
assert!(Board::from_json_str(&format!("{{{layout}}}")).is_err());
let board = Board::from_json_str(&format!(r#"{{{layout}, "rules": {{"chains": "follow"}}}}"#))?;
assert_eq!(board.rules().chains(), Chains::Follow);
assert_eq!(board.move_token(Square::OFF_BOARD, 2).end, Square::new(20));
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Chains {
    /// No jump may end where another starts: a move takes at most one jump.
    #[default]
    Forbid,
    /// Jumps are followed until a square without one; cycles are invalid.
    Follow,
}

/// How a token leaves the start square.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Entry, Square};

let board = Board::from_json_str(r#"{"squares": 20, "rules": {"entry": "six"}}"#)?;
assert_eq!(board.rules().entry(), Entry::Six);
// Only a six brings a token onto the board.
assert_eq!(board.move_token(Square::OFF_BOARD, 5).end, Square::OFF_BOARD);
assert_eq!(board.move_token(Square::OFF_BOARD, 6).end, Square::new(6));
assert_eq!(Board::builtin_default().rules().entry(), Entry::Free);
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(
    Copy,
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Entry {
    /// Any roll moves the token off the start square.
    #[default]
    Free,
    /// From the start square the token moves only on the dice's highest total
    /// (a six on one die), and then moves that many squares as usual.
    Six,
}

/// Extra rolls as written in a board file.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraTurnSpec {
    /// The total that grants another roll.
    pub on: i64,
    /// Most extra rolls in one turn; `null` for no cap.
    #[serde(default)]
    pub max_extra: Option<i64>,
    /// The k-th consecutive bonus roll of a turn is forfeited: not moved, and
    /// the turn ends. `null` for never.
    #[serde(default)]
    pub forfeit_after: Option<i64>,
}

/// A validated extra-roll rule.
///
/// A roll whose total equals [`on`](ExtraTurn::on) grants the same player
/// another roll in the same turn, at most [`max_extra`](ExtraTurn::max_extra)
/// times per turn; the [`forfeit_after`](ExtraTurn::forfeit_after)-th
/// consecutive bonus roll is forfeited and ends the turn. A roll that wins never
/// grants another. A bonus roll grants another even when its move was blocked
/// (an overshoot under `stay`, or entry not met): the roll, not the move,
/// earns it.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::Board;

let json = r#"{"squares": 30, "rules": {"extra_turn": {"on": 6, "max_extra": 2}}}"#;
let rule = *Board::from_json_str(json)?.rules().extra_turn().unwrap();
assert_eq!((rule.on(), rule.max_extra(), rule.forfeit_after()), (6, Some(2), None));
assert!(Board::builtin_default().rules().extra_turn().is_none());
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ExtraTurn {
    on: u32,
    max_extra: Option<u32>,
    forfeit_after: Option<u32>,
}

impl ExtraTurn {
    /// The total that grants another roll.
    pub fn on(&self) -> u32 {
        self.on
    }
    /// Most extra rolls per turn, `None` for no cap.
    pub fn max_extra(&self) -> Option<u32> {
        self.max_extra
    }
    /// Which consecutive bonus roll is forfeited, `None` for never.
    pub fn forfeit_after(&self) -> Option<u32> {
        self.forfeit_after
    }
}

/// The rule set as written in a board file; every field is optional.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    /// Default `stay`.
    #[serde(default)]
    pub overshoot: Option<Overshoot>,
    /// Default `forbid`.
    #[serde(default)]
    pub chains: Option<Chains>,
    /// Default one fair six-faced die.
    #[serde(default)]
    pub dice: Option<DiceSpec>,
    /// Default `null`: no extra rolls.
    #[serde(default)]
    pub extra_turn: Option<ExtraTurnSpec>,
    /// Default `free`.
    #[serde(default)]
    pub entry: Option<Entry>,
    /// The start square, 0 (off the board, default) or 1.
    #[serde(default)]
    pub start: Option<i64>,
}

impl RulesSpec {
    /// The start square this spec asks for, or `None` when `start` is
    /// neither 0 nor 1. Validation reads it on its own so that the jumps are
    /// checked against the start square even when another rule is invalid.
    pub(crate) fn start_square(&self) -> Option<Square> {
        match self.start.unwrap_or(0) {
            0 => Some(Square::OFF_BOARD),
            1 => Some(Square::new(1)),
            _ => None,
        }
    }
}

/// A validated rule set. Serialises as the effective rules, every default
/// filled in.
///
/// # Example
/// ```
/// use snakeladder::{Board, Chains, Entry, Overshoot, Square};
///
/// let board = Board::from_json_str(r#"{"squares": 20, "rules": {"overshoot": "bounce"}}"#)?;
/// let rules = board.rules();
/// assert_eq!(rules.overshoot(), Overshoot::Bounce);
/// // Every rule not written has its default.
/// assert_eq!(rules.chains(), Chains::Forbid);
/// assert_eq!(rules.entry(), Entry::Free);
/// assert_eq!(rules.start(), Square::OFF_BOARD);
/// assert!(rules.extra_turn().is_none());
/// # Ok::<(), snakeladder::BoardError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Rules {
    overshoot: Overshoot,
    chains: Chains,
    dice: Dice,
    extra_turn: Option<ExtraTurn>,
    entry: Entry,
    start: Square,
}

impl Rules {
    /// Validates the parts of a rule set that do not depend on the layout.
    pub(crate) fn from_spec(spec: &RulesSpec, problems: &mut Vec<Problem>) -> Option<Rules> {
        let dice = Dice::from_spec(&spec.dice.clone().unwrap_or_default(), problems);
        let start = spec.start_square();
        if start.is_none() {
            problems.push(Problem::StartOutOfRange {
                start: spec.start.unwrap_or(0),
            });
        }
        let extra_turn = match (&spec.extra_turn, &dice) {
            (None, _) => Some(None),
            (Some(x), Some(dice)) => Self::validate_extra_turn(x, dice, problems).map(Some),
            // The dice are invalid, so `on` cannot be checked; the ranges
            // of the caps can, and an invalid die must not hide them.
            (Some(x), None) => {
                Self::extra_turn_caps(x, problems);
                None
            }
        };
        Some(Rules {
            overshoot: spec.overshoot.unwrap_or_default(),
            chains: spec.chains.unwrap_or_default(),
            dice: dice?,
            extra_turn: extra_turn?,
            entry: spec.entry.unwrap_or_default(),
            start: start?,
        })
    }

    fn validate_extra_turn(
        spec: &ExtraTurnSpec,
        dice: &Dice,
        problems: &mut Vec<Problem>,
    ) -> Option<ExtraTurn> {
        let before = problems.len();
        let on = u32::try_from(spec.on).ok().filter(|on| dice.can_roll(*on));
        if on.is_none() {
            problems.push(Problem::ExtraTurnUnrollable { on: spec.on });
        }
        let (max_extra, forfeit_after) = Self::extra_turn_caps(spec, problems);
        if problems.len() > before {
            return None;
        }
        let on = on?;
        if max_extra.is_none() && forfeit_after.is_none() && dice.rolls().len() == 1 {
            problems.push(Problem::EndlessExtraRolls { on });
            return None;
        }
        Some(ExtraTurn {
            on,
            max_extra,
            forfeit_after,
        })
    }

    /// The caps of an extra-turn rule (`max_extra`, `forfeit_after`), each
    /// checked against its range whatever the dice are; a problem for each
    /// one out of range.
    fn extra_turn_caps(
        spec: &ExtraTurnSpec,
        problems: &mut Vec<Problem>,
    ) -> (Option<u32>, Option<u32>) {
        let max_extra = match spec.max_extra {
            Some(m) if !(0..=i64::from(u32::MAX)).contains(&m) => {
                problems.push(Problem::ExtraTurnMaxExtra { max_extra: m });
                None
            }
            m => m.map(|m| m as u32),
        };
        let forfeit_after = match spec.forfeit_after {
            Some(k) if !(1..=i64::from(u32::MAX)).contains(&k) => {
                problems.push(Problem::ExtraTurnForfeitAfter { forfeit_after: k });
                None
            }
            k => k.map(|k| k as u32),
        };
        (max_extra, forfeit_after)
    }

    /// What an overshoot does.
    pub fn overshoot(&self) -> Overshoot {
        self.overshoot
    }
    /// Whether jumps chain.
    pub fn chains(&self) -> Chains {
        self.chains
    }
    /// The dice.
    pub fn dice(&self) -> &Dice {
        &self.dice
    }
    /// The extra-roll rule, if any.
    pub fn extra_turn(&self) -> Option<&ExtraTurn> {
        self.extra_turn.as_ref()
    }
    /// The entry rule.
    pub fn entry(&self) -> Entry {
        self.entry
    }
    /// The square every token starts on (0 or 1).
    pub fn start(&self) -> Square {
        self.start
    }

    /// The rules written back as a spec with every default filled in.
    #[doc(hidden)]
    pub fn spec(&self) -> RulesSpec {
        RulesSpec {
            overshoot: Some(self.overshoot),
            chains: Some(self.chains),
            dice: Some(self.dice.spec()),
            extra_turn: self.extra_turn.map(|x| ExtraTurnSpec {
                on: i64::from(x.on),
                max_extra: x.max_extra.map(i64::from),
                forfeit_after: x.forfeit_after.map(i64::from),
            }),
            entry: Some(self.entry),
            start: Some(i64::from(self.start.get())),
        }
    }
}

impl Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.spec().serialize(serializer)
    }
}

/// One line for people: `1d6, overshoot stay, chains forbid, entry free,
/// start on 0, no extra rolls`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [dice, overshoot, chains, entry, start, extra] = self.in_words().map(|(_, w)| w);
        write!(
            f,
            "{dice}, overshoot {overshoot}, chains {chains}, entry {entry}, start on {start}, {extra}"
        )
    }
}

impl Rules {
    /// Each rule in the words of the one-line description (`1d6, overshoot
    /// stay, …`, the header of `analyze`), by its key in a board file's
    /// `rules`: `dice` (`1d6`, `a loaded 6-faced die`), `overshoot`,
    /// `chains` and `entry` (their values), `start` (`0` or `1`) and
    /// `extra_turn` (`no extra rolls`, `a 6 rolls again (at most 2
    /// extra)`). A diff of two boards shows a changed rule so.
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    /// let rules = Board::builtin_default().rules().in_words();
    /// assert_eq!(rules[0], ("dice", "1d6".to_string()));
    /// assert_eq!(rules[1], ("overshoot", "stay".to_string()));
    /// assert_eq!(rules[5], ("extra_turn", "no extra rolls".to_string()));
    /// ```
    pub fn in_words(&self) -> [(&'static str, String); 6] {
        let dice = match self.dice.fair() {
            Some((count, faces)) => format!("{count}d{faces}"),
            None => format!(
                "a loaded {}-faced die",
                self.dice.weights().map_or(0, <[f64]>::len)
            ),
        };
        let extra = match &self.extra_turn {
            None => "no extra rolls".to_string(),
            Some(x) => {
                let mut words = format!("a {} rolls again", x.on);
                if let Some(m) = x.max_extra {
                    words.push_str(&format!(" (at most {m} extra)"));
                }
                if let Some(k) = x.forfeit_after {
                    words.push_str(&format!(
                        ", the {} in a row is forfeited",
                        ordinal(k as usize)
                    ));
                }
                words
            }
        };
        [
            ("dice", dice),
            ("overshoot", self.overshoot.to_string()),
            ("chains", self.chains.to_string()),
            ("entry", self.entry.to_string()),
            ("start", self.start.to_string()),
            ("extra_turn", extra),
        ]
    }
}

/// An ordinal in words: `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub(crate) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
