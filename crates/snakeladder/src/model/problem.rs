//! Everything that can be wrong with a board file: one [`Problem`] per
//! fault, each naming the field, the jump or the squares involved. The
//! checks that find them are in the validation module.

use crate::JumpKind;
use crate::model::limits::{MAX_DICE, MAX_FACES, MAX_SQUARES, MAX_TOTALS};
use serde::Serialize;
use std::fmt;

/// A jump as written in a board file, named by its list and position so an
/// error can point at it.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, JumpKind, Problem};

let err = Board::from_json_str(r#"{"squares": 20, "snakes": [[4, 8]]}"#).unwrap_err();
let Problem::SnakeClimbs { jump } = &err.problems()[0] else { panic!("{err}") };
assert_eq!((jump.list, jump.index, jump.from, jump.to), (JumpKind::Snake, 0, 4, 8));
assert_eq!(jump.to_string(), "snakes[0] 4→8");
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct JumpRef {
    /// The list it was written in, by the kind that list declares: a jump
    /// of the `ladders` list is declared a [`JumpKind::Ladder`] (and must
    /// go up), one of `snakes` a [`JumpKind::Snake`] (and must go down).
    /// (In JSON the list's name: `"ladders"` or `"snakes"`.)
    #[serde(serialize_with = "list_name")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub list: JumpKind,
    /// Its 0-based position in that list.
    pub index: usize,
    /// Its first number.
    pub from: i64,
    /// Its second number.
    pub to: i64,
}

impl fmt::Display for JumpRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}] {}→{}",
            self.list_name(),
            self.index,
            self.from,
            self.to
        )
    }
}

impl JumpRef {
    /// The name of the board file's list the jump was written in:
    /// `"ladders"` or `"snakes"`.
    pub fn list_name(&self) -> &'static str {
        match self.list {
            JumpKind::Ladder => "ladders",
            JumpKind::Snake => "snakes",
        }
    }
}

/// [`JumpRef::list`] as its list's name.
fn list_name<S: serde::Serializer>(list: &JumpKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match list {
        JumpKind::Ladder => "ladders",
        JumpKind::Snake => "snakes",
    })
}

/// A list of squares, printed compactly (`94, 95, 97..99`): the squares of
/// [`Problem::ChainCycle`] and [`Problem::Unwinnable`] in their messages.
pub(crate) struct Squares<'a>(pub &'a [u32]);

impl fmt::Display for Squares<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 40;
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &s in self.0 {
            match runs.last_mut() {
                Some((_, hi)) if *hi + 1 == s => *hi = s,
                _ => runs.push((s, s)),
            }
        }
        for (i, (lo, hi)) in runs.iter().take(SHOWN).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match hi - lo {
                0 => write!(f, "{lo}")?,
                1 => write!(f, "{lo}, {hi}")?,
                _ => write!(f, "{lo}..{hi}")?,
            }
        }
        if runs.len() > SHOWN {
            write!(f, " and {} more runs", runs.len() - SHOWN)?;
        }
        Ok(())
    }
}

/// The first character of `text` that must not appear in a name or player
/// id: a control character (C0, DEL, C1: terminal escapes, `\r`, `\n`), a
/// bidirectional mark, embedding, override or isolate (U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069), a zero-width or invisible character
/// (U+200B–U+200D, U+2060–U+2064, U+FEFF) or a line or paragraph separator
/// (U+2028, U+2029). Printed, these rewrite a terminal, reorder or hide
/// text, or make two different ids look the same (`A\u{200B}B` and `AB`).
///
/// (Public as [`Problem::hidden_character`].)
pub(crate) fn hidden_character(text: &str) -> Option<char> {
    text.chars().find(|&c| is_hidden(c))
}

/// Whether `c` is one of the characters [`hidden_character`] looks for.
pub(crate) fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

impl Problem {
    /// The first character of `text` that must not appear in a name or player
    /// id: a control character (C0, DEL, C1: terminal escapes, `\r`, `\n`), a
    /// bidirectional mark, embedding, override or isolate (U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069), a zero-width or invisible character
    /// (U+200B–U+200D, U+2060–U+2064, U+FEFF) or a line or paragraph separator
    /// (U+2028, U+2029). Printed, these rewrite a terminal, reorder or hide
    /// text, or make two different ids look the same (`A\u{200B}B` and `AB`).
    ///
    /// # Example
    /// ```
    /// use snakeladder::Problem;
    /// assert_eq!(Problem::hidden_character("Ana"), None);
    /// assert_eq!(Problem::hidden_character("x\u{1b}[31m"), Some('\u{1b}'));
    /// assert_eq!(Problem::hidden_character("\u{202e}evil"), Some('\u{202e}'));
    /// ```
    pub fn hidden_character(text: &str) -> Option<char> {
        hidden_character(text)
    }
}

/// Every hidden character ([`Problem::hidden_character`]) of a text, for a message that
/// names them all: each distinct one with where it is, within caps, so a
/// name of a million escapes makes a message of a few lines.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HiddenCharacters {
    /// The distinct characters, in the order they first occur; at most
    /// [`HiddenCharacters::LISTED`].
    pub characters: Vec<HiddenAt>,
    /// How many hidden characters the text holds, listed or not.
    pub count: usize,
    /// How many distinct characters are not listed.
    pub unlisted: usize,
}

/// One hidden character of a text and where it occurs.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HiddenAt {
    /// Its code point.
    pub code_point: u32,
    /// Its first positions in the text, 1-based, in characters; at most
    /// [`HiddenCharacters::POSITIONS`].
    pub positions: Vec<usize>,
    /// How many times it occurs.
    pub count: usize,
}

impl HiddenCharacters {
    /// The most distinct characters listed.
    pub const LISTED: usize = 8;
    /// The most positions listed of one character.
    pub const POSITIONS: usize = 5;

    /// Every hidden character of `text`, or `None` when it has none.
    ///
    /// # Example
    /// ```
    /// use snakeladder::HiddenCharacters;
    /// let found = HiddenCharacters::of("a\u{1b}b\u{202e}c\u{1b}").unwrap();
    /// assert_eq!(found.count, 3);
    /// assert_eq!(found.to_string(), "U+001B (a control character) at positions 2 and 6, \
    ///     U+202E (a bidirectional control) at position 4");
    /// assert!(HiddenCharacters::of("plain").is_none());
    /// ```
    pub fn of(text: &str) -> Option<HiddenCharacters> {
        let mut found = HiddenCharacters {
            characters: Vec::new(),
            count: 0,
            unlisted: 0,
        };
        let mut unlisted: Vec<char> = Vec::new();
        for (i, c) in text.chars().enumerate() {
            if !is_hidden(c) {
                continue;
            }
            found.count += 1;
            let code_point = u32::from(c);
            let listed = found
                .characters
                .iter()
                .position(|h| h.code_point == code_point);
            match listed {
                Some(at) => {
                    let h = &mut found.characters[at];
                    h.count += 1;
                    if h.positions.len() < Self::POSITIONS {
                        h.positions.push(i + 1);
                    }
                }
                None if found.characters.len() < Self::LISTED => found.characters.push(HiddenAt {
                    code_point,
                    positions: vec![i + 1],
                    count: 1,
                }),
                // Hidden characters are a few hundred code points (C0, C1
                // and a few ranges), so this list stays short.
                None if !unlisted.contains(&c) => unlisted.push(c),
                None => {}
            }
        }
        found.unlisted = unlisted.len();
        (found.count > 0).then_some(found)
    }

    /// The first hidden character's code point.
    pub fn first(&self) -> u32 {
        self.characters.first().map_or(0, |h| h.code_point)
    }
}

/// `U+001B (a control character) at positions 2 and 6, U+202E (a
/// bidirectional control) at position 4`, then `and 3 other characters`
/// past the listed ones.
impl fmt::Display for HiddenCharacters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.characters.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(
                f,
                "{} ({}) at {}",
                code_point_name(h.code_point),
                hidden_kind(h.code_point),
                h.at()
            )?;
        }
        if self.unlisted > 0 {
            let s = if self.unlisted == 1 { "" } else { "s" };
            write!(f, ", and {} other character{s}", self.unlisted)?;
        }
        Ok(())
    }
}

impl HiddenAt {
    /// `position 4`, `positions 2 and 6`, `positions 1, 2, 3, 4, 5 and 95
    /// more`.
    fn at(&self) -> String {
        let shown: Vec<String> = self.positions.iter().map(ToString::to_string).collect();
        let s = if self.count == 1 { "" } else { "s" };
        let more = self.count - self.positions.len();
        match (shown.split_last(), more) {
            (Some((last, [])), 0) => format!("position{s} {last}"),
            (Some((last, rest)), 0) => format!("position{s} {} and {last}", rest.join(", ")),
            (_, more) => format!("position{s} {} and {more} more", shown.join(", ")),
        }
    }
}

/// `U+001B`.
fn code_point_name(code_point: u32) -> String {
    format!("U+{code_point:04X}")
}

/// The message of [`Problem::NameCharacter`] after its field: `has the
/// character U+001B, which is not allowed in a name (a control character),
/// at positions 4 and 9`, or for several distinct ones, `has 3 characters
/// not allowed in a name: U+001B (a control character) at position 4, …`.
fn hidden_in_name(hidden: &HiddenCharacters) -> String {
    match hidden.characters.as_slice() {
        [one] if hidden.unlisted == 0 => format!(
            "has the character {}, which is not allowed in a name ({}), at {}",
            code_point_name(one.code_point),
            hidden_kind(one.code_point),
            one.at()
        ),
        _ => format!(
            "has {} characters not allowed in a name: {hidden}",
            hidden.count
        ),
    }
}

/// What kind of hidden character a code point is, in words.
fn hidden_kind(code_point: u32) -> &'static str {
    match code_point {
        0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069 => "a bidirectional control",
        0x2028 | 0x2029 => "a line or paragraph separator",
        0x200B..=0x200D | 0x2060..=0x2064 | 0xFEFF => "an invisible character",
        _ => "a control character",
    }
}

/// One thing wrong with a board file. Each names the field, the jump or the
/// squares involved.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Problem};

let err = Board::from_json_str(r#"{"squares": 10, "ladders": [[5, 3]]}"#).unwrap_err();
let problem = &err.problems()[0];
assert!(matches!(problem, Problem::LadderDescends { .. }));
assert_eq!(problem.kind(), "ladder_descends");
assert!(Problem::KINDS.contains(&problem.kind()));
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(
    Clone, Debug, PartialEq, thiserror::Error, Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
#[non_exhaustive]
pub enum Problem {
    /// `squares` is outside 2..=10,000,000.
    #[error("squares: {squares} is out of range (2..={MAX_SQUARES})")]
    SquaresOutOfRange {
        /// The value given.
        squares: i64,
    },
    /// `width` is outside 1..=squares.
    #[error("width: {width} is out of range (1..=squares)")]
    WidthOutOfRange {
        /// The value given.
        width: i64,
    },
    /// `rules.start` is neither 0 nor 1.
    #[error("rules.start: {start} is not a start square (0 or 1)")]
    StartOutOfRange {
        /// The value given.
        start: i64,
    },
    /// More jumps than squares they could start on (1..N-1): some must
    /// share a square.
    #[error(
        "{jumps} jumps, but a board of {squares} squares has only {} squares a jump can start on",
        .squares - 1
    )]
    TooManyJumps {
        /// Ladders and snakes written.
        jumps: u64,
        /// The last square N.
        squares: u32,
    },
    /// A jump starts on the start square.
    #[error("{jump}: starts on the start square {start}")]
    JumpStartsOnStart {
        /// The jump.
        jump: JumpRef,
        /// The start square.
        start: u32,
    },
    /// A jump starts on the last square.
    #[error("{jump}: starts on the last square {last}")]
    JumpStartsOnLast {
        /// The jump.
        jump: JumpRef,
        /// The last square.
        last: u32,
    },
    /// A jump starts off the board.
    #[error("{jump}: starts on {from}, off the board (1..={last})")]
    JumpStartOffBoard {
        /// The jump.
        jump: JumpRef,
        /// Its start.
        from: i64,
        /// The last square.
        last: u32,
    },
    /// A jump ends off the board.
    #[error("{jump}: ends on {to}, off the board (1..={last})")]
    JumpEndOffBoard {
        /// The jump.
        jump: JumpRef,
        /// Its end.
        to: i64,
        /// The last square.
        last: u32,
    },
    /// A jump ends where it starts.
    #[error("{jump}: goes nowhere")]
    JumpGoesNowhere {
        /// The jump.
        jump: JumpRef,
    },
    /// A snake that climbs.
    #[error("{jump}: a snake must go down")]
    SnakeClimbs {
        /// The jump.
        jump: JumpRef,
    },
    /// A ladder that descends.
    #[error("{jump}: a ladder must go up")]
    LadderDescends {
        /// The jump.
        jump: JumpRef,
    },
    /// Two jumps start on one square.
    #[error("{second}: starts on square {square}, where {first} already starts")]
    DuplicateStart {
        /// The square.
        square: u32,
        /// The jump written first.
        first: JumpRef,
        /// The jump written second.
        second: JumpRef,
    },
    /// Under `chains: forbid`, a jump ends on another jump's start.
    #[error("{jump}: ends on square {square}, where {next} starts (chains are forbidden)")]
    Chain {
        /// The jump that ends there.
        jump: JumpRef,
        /// The square.
        square: u32,
        /// The jump that starts there.
        next: JumpRef,
    },
    /// Under `chains: follow`, jumps that lead back to where they started.
    #[error("jumps form a cycle through squares {}", Squares(squares))]
    ChainCycle {
        /// The squares of the cycle, in order, starting from the smallest.
        squares: Vec<u32>,
    },
    /// `dice` gives both fair dice and weights.
    #[error("rules.dice: give either count and faces, or weights, not both")]
    DiceMixed,
    /// `dice.count` is outside 1..=100.
    #[error("rules.dice.count: {count} dice is out of range (1..={MAX_DICE})")]
    DiceCount {
        /// The value given.
        count: i64,
    },
    /// A die with fewer than 2 or more than 1000 faces.
    #[error(
        "rules.dice: a die with {faces} face{} is out of range (2..={MAX_FACES})",
        if *faces == 1 { "" } else { "s" }
    )]
    DiceFaces {
        /// The number of faces given.
        faces: i64,
    },
    /// So many dice that the totals are too many.
    #[error("rules.dice: the dice roll {totals} different totals, more than {MAX_TOTALS}")]
    DiceTooWide {
        /// Number of distinct totals.
        totals: u64,
    },
    /// A negative weight.
    #[error("rules.dice.weights: face {face} has negative weight {weight}")]
    WeightNegative {
        /// The face (1-based).
        face: u32,
        /// Its weight.
        weight: f64,
    },
    /// A weight that is NaN or infinite.
    #[error("rules.dice.weights: face {face} has a weight that is not a finite number")]
    WeightNotFinite {
        /// The face (1-based).
        face: u32,
    },
    /// A face whose chance, its weight over the sum of the weights, is
    /// below the smallest normal `f64` (2.2e-308): the analysis would hold
    /// it as 0 (or without precision) while the rules say it can be rolled.
    #[error(
        "rules.dice.weights: face {face} has weight {weight:e} of {total:e} in all, a chance below \
         2.2e-308, too small for the floating-point analysis; give it weight 0 or bring the \
         weights closer together"
    )]
    WeightTooSmall {
        /// The face (1-based).
        face: u32,
        /// Its weight.
        weight: f64,
        /// The sum of the weights.
        total: f64,
    },
    /// Every weight is zero.
    #[error("rules.dice.weights: every weight is zero")]
    WeightsAllZero,
    /// The weights sum past the largest `f64`.
    #[error("rules.dice.weights: the weights are too large to add up")]
    WeightsOverflow,
    /// `extra_turn.on` is a total the dice cannot roll.
    #[error("rules.extra_turn.on: the dice cannot roll {on}")]
    ExtraTurnUnrollable {
        /// The value given.
        on: i64,
    },
    /// A negative `max_extra`.
    #[error("rules.extra_turn.max_extra: {max_extra} is out of range (0 or more, or null)")]
    ExtraTurnMaxExtra {
        /// The value given.
        max_extra: i64,
    },
    /// A `forfeit_after` below 1.
    #[error("rules.extra_turn.forfeit_after: {forfeit_after} is out of range (1 or more, or null)")]
    ExtraTurnForfeitAfter {
        /// The value given.
        forfeit_after: i64,
    },
    /// The dice roll only the bonus total and nothing caps the extra rolls.
    #[error(
        "rules.extra_turn: the dice only ever roll {on} and nothing caps the extra rolls, so a turn could go on forever"
    )]
    EndlessExtraRolls {
        /// The bonus total.
        on: u32,
    },
    /// The board and dice need more work to check than this tool allows.
    #[error(
        "the board is too large for its dice: {squares} squares × {totals} totals is more than {limit} moves to check"
    )]
    TooLargeToCheck {
        /// Squares on the board.
        squares: u32,
        /// Totals the dice roll.
        totals: u32,
        /// The limit on their product.
        limit: u64,
    },
    /// A threshold of the board's own `limits` that cannot be a limit (a
    /// negative number of turns, a fraction past 1).
    #[error("limits.{key}: {value} is out of range ({range})")]
    LimitOutOfRange {
        /// The key.
        key: &'static str,
        /// The value given.
        value: f64,
        /// The values allowed.
        range: &'static str,
    },
    /// A name holds a character that could rewrite a terminal or a page or
    /// make two names look alike: a control character (terminal escapes,
    /// `\r`, newlines), a bidirectional override or isolate, a zero-width
    /// character or a line separator ([`Problem::hidden_character`]).
    #[error("{field}: {}", hidden_in_name(hidden))]
    NameCharacter {
        /// The field (`name`).
        field: String,
        /// The first such character's code point.
        code_point: u32,
        /// Every such character, with its positions.
        hidden: HiddenCharacters,
    },
    /// Squares a token can reach from the start but from which the last square
    /// can never be reached.
    #[error(
        "the game cannot be won from squares {}: a token can reach them but never the last square",
        Squares(squares)
    )]
    Unwinnable {
        /// The trapped rest squares, in increasing order.
        squares: Vec<u32>,
    },
}

impl Problem {
    /// Every [`Problem::kind`], in the order of the variants.
    pub const KINDS: &'static [&'static str] = <Problem as strum::VariantNames>::VARIANTS;

    /// A short stable name for the problem (`"ladder_descends"`), as in JSON
    /// output: the variant's name in snake case, the same rule serde uses for
    /// the `kind` field, so the two cannot drift apart.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}
