//! Everything that can be wrong with a board file, and the checks that find it.
//!
//! Validation is a product, not a short circuit: [`Board::from_spec`]
//! collects every problem of a file before it refuses it.
//!
//! [`Board::from_spec`]: crate::Board::from_spec

use crate::Board;
use crate::board::MAX_SQUARES;
use crate::dice::{MAX_DICE, MAX_FACES, MAX_TOTALS};
use serde::Serialize;
use std::fmt;

/// Which list of a board file a jump was written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JumpList {
    /// The `ladders` list: each must go up.
    Ladders,
    /// The `snakes` list: each must go down.
    Snakes,
}

/// A jump as written in a board file, named by its list and position so an
/// error can point at it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct JumpRef {
    /// The list it was written in.
    pub list: JumpList,
    /// Its 0-based position in that list.
    pub index: usize,
    /// Its first number.
    pub from: i64,
    /// Its second number.
    pub to: i64,
}

impl fmt::Display for JumpRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = match self.list {
            JumpList::Ladders => "ladders",
            JumpList::Snakes => "snakes",
        };
        write!(f, "{list}[{}] {}→{}", self.index, self.from, self.to)
    }
}

/// A list of squares, printed compactly (`94, 95, 97..99`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Squares(pub Vec<u32>);

impl fmt::Display for Squares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 40;
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for &s in &self.0 {
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
/// # Example
/// ```
/// use snakeladder::validation::hidden_character;
/// assert_eq!(hidden_character("Ana"), None);
/// assert_eq!(hidden_character("x\u{1b}[31m"), Some('\u{1b}'));
/// assert_eq!(hidden_character("\u{202e}evil"), Some('\u{202e}'));
/// ```
pub fn hidden_character(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        c.is_control()
            || matches!(
                c,
                '\u{200B}'..='\u{200F}'
                    | '\u{2028}'..='\u{202E}'
                    | '\u{2060}'..='\u{2064}'
                    | '\u{2066}'..='\u{2069}'
                    | '\u{FEFF}'
            )
    })
}

/// `U+001B`.
fn code_point_name(code_point: u32) -> String {
    format!("U+{code_point:04X}")
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
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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
    #[error("jumps form a cycle through squares {squares}")]
    ChainCycle {
        /// The squares of the cycle, in order, starting from the smallest.
        squares: Squares,
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
    #[error("rules.dice: a die with {faces} faces is out of range (2..={MAX_FACES})")]
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
    /// A name holds a character that could rewrite a terminal or a page or
    /// make two names look alike: a control character (terminal escapes,
    /// `\r`, newlines), a bidirectional override or isolate, a zero-width
    /// character or a line separator ([`hidden_character`]).
    #[error("{field}: has the character {}, which is not allowed in a name ({})", code_point_name(*code_point), hidden_kind(*code_point))]
    NameCharacter {
        /// The field (`name`).
        field: String,
        /// The first such character's code point.
        code_point: u32,
    },
    /// Squares a token can reach from the start but from which the last square
    /// can never be reached.
    #[error("unwinnable: a token can reach squares {squares} but can never finish from them")]
    Unwinnable {
        /// The trapped rest squares, in increasing order.
        squares: Squares,
    },
}

impl Problem {
    /// A short stable name for the problem (`"ladder_descends"`), as in JSON output.
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::SquaresOutOfRange { .. } => "squares_out_of_range",
            Problem::WidthOutOfRange { .. } => "width_out_of_range",
            Problem::StartOutOfRange { .. } => "start_out_of_range",
            Problem::TooManyJumps { .. } => "too_many_jumps",
            Problem::JumpStartsOnStart { .. } => "jump_starts_on_start",
            Problem::JumpStartsOnLast { .. } => "jump_starts_on_last",
            Problem::JumpStartOffBoard { .. } => "jump_start_off_board",
            Problem::JumpEndOffBoard { .. } => "jump_end_off_board",
            Problem::JumpGoesNowhere { .. } => "jump_goes_nowhere",
            Problem::SnakeClimbs { .. } => "snake_climbs",
            Problem::LadderDescends { .. } => "ladder_descends",
            Problem::DuplicateStart { .. } => "duplicate_start",
            Problem::Chain { .. } => "chain",
            Problem::ChainCycle { .. } => "chain_cycle",
            Problem::DiceMixed => "dice_mixed",
            Problem::DiceCount { .. } => "dice_count",
            Problem::DiceFaces { .. } => "dice_faces",
            Problem::DiceTooWide { .. } => "dice_too_wide",
            Problem::WeightNegative { .. } => "weight_negative",
            Problem::WeightNotFinite { .. } => "weight_not_finite",
            Problem::WeightsAllZero => "weights_all_zero",
            Problem::WeightsOverflow => "weights_overflow",
            Problem::ExtraTurnUnrollable { .. } => "extra_turn_unrollable",
            Problem::ExtraTurnMaxExtra { .. } => "extra_turn_max_extra",
            Problem::ExtraTurnForfeitAfter { .. } => "extra_turn_forfeit_after",
            Problem::EndlessExtraRolls { .. } => "endless_extra_rolls",
            Problem::TooLargeToCheck { .. } => "too_large_to_check",
            Problem::Unwinnable { .. } => "unwinnable",
            Problem::NameCharacter { .. } => "name_character",
        }
    }
}

/// Most moves (squares × totals) the reachability check will enumerate.
/// Each costs 8 bytes of edge list, so the check stays under about 1 GB.
pub const MAX_MOVES_TO_CHECK: u64 = 120_000_000;

/// The rolls that can move a token: every total with positive probability,
/// less the bonus total when its first occurrence is always forfeited.
pub(crate) fn moving_rolls(board: &Board) -> Vec<u32> {
    let rules = board.rules();
    let forfeits_first = rules
        .extra_turn()
        .is_some_and(|x| x.forfeit_after() == Some(1));
    rules
        .dice()
        .outcomes()
        .iter()
        .map(|o| o.total)
        .filter(|t| !(forfeits_first && Some(*t) == rules.extra_turn().map(|x| x.on())))
        .collect()
}

/// The rest squares reachable from the start from which the last square can
/// never be reached, in increasing order.
pub(crate) fn trapped_squares(board: &Board) -> Result<Vec<u32>, Problem> {
    let n = board.last().get();
    let rolls = moving_rolls(board);
    let work = u64::from(n + 1) * rolls.len() as u64;
    if work > MAX_MOVES_TO_CHECK {
        return Err(Problem::TooLargeToCheck {
            squares: n,
            totals: rolls.len() as u32,
            limit: MAX_MOVES_TO_CHECK,
        });
    }
    let size = n as usize + 1;
    // Forward search from the start, recording each edge once in reverse
    // (compressed rows) so the backward search from the finish is linear.
    let mut reached = vec![false; size];
    let mut stack = vec![board.rules().start()];
    reached[board.rules().start().index()] = true;
    let mut edges: Vec<(u32, u32)> = Vec::new();
    while let Some(s) = stack.pop() {
        if s == board.last() {
            continue;
        }
        for &r in &rolls {
            let to = board.move_token(s, r).end;
            if to != s {
                edges.push((to.get(), s.get()));
            }
            if !reached[to.index()] {
                reached[to.index()] = true;
                stack.push(to);
            }
        }
    }
    if !reached[n as usize] {
        // Nothing reachable finishes: every reached square is trapped.
        return Ok((0..=n).filter(|&s| reached[s as usize] && s != n).collect());
    }
    edges.sort_unstable();
    edges.dedup();
    let mut finishes = vec![false; size];
    finishes[n as usize] = true;
    let mut stack = vec![n];
    while let Some(s) = stack.pop() {
        let lo = edges.partition_point(|e| e.0 < s);
        let hi = edges.partition_point(|e| e.0 <= s);
        for &(_, from) in &edges[lo..hi] {
            if !finishes[from as usize] {
                finishes[from as usize] = true;
                stack.push(from);
            }
        }
    }
    Ok((0..n)
        .filter(|&s| reached[s as usize] && !finishes[s as usize])
        .collect())
}

#[cfg(test)]
mod tests {
    //! One test per validation rule: each builds a spec that breaks exactly
    //! that rule and asserts the one problem found, with what it names.

    use super::*;
    use crate::{BoardSpec, DiceSpec};

    fn problems(json: &str) -> Vec<Problem> {
        let spec: BoardSpec = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let found = Board::problems(&spec);
        assert_eq!(found.is_empty(), Board::from_spec(&spec).is_ok(), "{json}");
        found
    }

    /// The one problem of a spec.
    #[track_caller]
    fn only(json: &str) -> Problem {
        match problems(json).as_slice() {
            [one] => one.clone(),
            other => panic!("{json}: expected one problem, found {other:?}"),
        }
    }

    fn ladder(index: usize, from: i64, to: i64) -> JumpRef {
        JumpRef {
            list: JumpList::Ladders,
            index,
            from,
            to,
        }
    }

    fn snake(index: usize, from: i64, to: i64) -> JumpRef {
        JumpRef {
            list: JumpList::Snakes,
            index,
            from,
            to,
        }
    }

    #[test]
    fn squares_out_of_range() {
        for n in [-5, 0, 1, 10_000_001, i64::MAX] {
            let p = only(&format!(r#"{{"squares": {n}}}"#));
            assert_eq!(p, Problem::SquaresOutOfRange { squares: n });
            assert_eq!(p.kind(), "squares_out_of_range");
        }
        assert!(problems(r#"{"squares": 2}"#).is_empty());
    }

    #[test]
    fn width_out_of_range() {
        assert_eq!(
            only(r#"{"squares": 10, "width": 0}"#),
            Problem::WidthOutOfRange { width: 0 }
        );
        assert_eq!(
            only(r#"{"squares": 10, "width": 11}"#),
            Problem::WidthOutOfRange { width: 11 }
        );
        assert!(problems(r#"{"squares": 10, "width": 10}"#).is_empty());
    }

    #[test]
    fn start_out_of_range() {
        let p = only(r#"{"squares": 10, "rules": {"start": 2}}"#);
        assert_eq!(p, Problem::StartOutOfRange { start: 2 });
        assert_eq!(p.kind(), "start_out_of_range");
    }

    /// Ten squares hold at most nine jumps (on 1..9).
    #[test]
    fn too_many_jumps() {
        let p = only(
            r#"{"squares": 10, "ladders": [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]],
                "snakes": [[6, 1], [7, 1], [8, 1], [9, 1], [9, 2]]}"#,
        );
        assert_eq!(
            p,
            Problem::TooManyJumps {
                jumps: 10,
                squares: 10
            }
        );
        assert_eq!(p.kind(), "too_many_jumps");
    }

    #[test]
    fn jump_starts_on_start() {
        let p = only(r#"{"squares": 10, "ladders": [[0, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnStart {
                jump: ladder(0, 0, 5),
                start: 0
            }
        );
        let p = only(r#"{"squares": 10, "ladders": [[1, 5]], "rules": {"start": 1}}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnStart {
                jump: ladder(0, 1, 5),
                start: 1
            }
        );
        assert_eq!(p.kind(), "jump_starts_on_start");
    }

    #[test]
    fn jump_starts_on_last() {
        let p = only(r#"{"squares": 10, "snakes": [[10, 1]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnLast {
                jump: snake(0, 10, 1),
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_starts_on_last");
    }

    #[test]
    fn jump_start_off_board() {
        let p = only(r#"{"squares": 10, "snakes": [[12, 3]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: snake(0, 12, 3),
                from: 12,
                last: 10
            }
        );
        let p = only(r#"{"squares": 10, "ladders": [[-3, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: ladder(0, -3, 5),
                from: -3,
                last: 10
            }
        );
        // Under start 1, square 0 is off the board too.
        let p = only(r#"{"squares": 10, "ladders": [[0, 5]], "rules": {"start": 1}}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: ladder(0, 0, 5),
                from: 0,
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_start_off_board");
    }

    #[test]
    fn jump_end_off_board() {
        let p = only(r#"{"squares": 10, "ladders": [[5, 12]]}"#);
        assert_eq!(
            p,
            Problem::JumpEndOffBoard {
                jump: ladder(0, 5, 12),
                to: 12,
                last: 10
            }
        );
        let p = only(r#"{"squares": 10, "snakes": [[5, 0]]}"#);
        assert_eq!(
            p,
            Problem::JumpEndOffBoard {
                jump: snake(0, 5, 0),
                to: 0,
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_end_off_board");
    }

    #[test]
    fn jump_goes_nowhere() {
        let p = only(r#"{"squares": 10, "ladders": [[5, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpGoesNowhere {
                jump: ladder(0, 5, 5)
            }
        );
        assert_eq!(p.kind(), "jump_goes_nowhere");
    }

    #[test]
    fn snake_climbs() {
        let p = only(r#"{"squares": 10, "snakes": [[3, 8]]}"#);
        assert_eq!(
            p,
            Problem::SnakeClimbs {
                jump: snake(0, 3, 8)
            }
        );
        assert_eq!(p.kind(), "snake_climbs");
    }

    #[test]
    fn ladder_descends() {
        let p = only(r#"{"squares": 10, "ladders": [[2, 7], [8, 3]]}"#);
        assert_eq!(
            p,
            Problem::LadderDescends {
                jump: ladder(1, 8, 3)
            }
        );
        assert_eq!(p.kind(), "ladder_descends");
    }

    #[test]
    fn duplicate_start() {
        let p = only(r#"{"squares": 10, "ladders": [[3, 8]], "snakes": [[3, 1]]}"#);
        assert_eq!(
            p,
            Problem::DuplicateStart {
                square: 3,
                first: ladder(0, 3, 8),
                second: snake(0, 3, 1)
            }
        );
        assert_eq!(p.kind(), "duplicate_start");
    }

    /// Which of two jumps on one square is written first must not change the
    /// other problems: a chain into that square is reported against both.
    /// (Found by the property test: the first-written jump alone was checked.)
    #[test]
    fn duplicates_do_not_make_validation_depend_on_order() {
        let a = problems(r#"{"squares": 10, "ladders": [[3, 8], [3, 9], [1, 3]]}"#);
        let b = problems(r#"{"squares": 10, "ladders": [[3, 9], [3, 8], [1, 3]]}"#);
        let chains = |found: &[Problem]| {
            let mut next: Vec<i64> = found
                .iter()
                .filter_map(|p| match p {
                    Problem::Chain {
                        next, square: 3, ..
                    } => Some(next.to),
                    _ => None,
                })
                .collect();
            next.sort();
            next
        };
        assert_eq!(chains(&a), [8, 9]);
        assert_eq!(chains(&b), [8, 9]);
        assert_eq!(a.len(), 3, "{a:?}");
        assert_eq!(b.len(), 3, "{b:?}");
        // Under follow, a cycle through a doubled square is not sought (the
        // duplicate is reported; the cycle shows once it is fixed).
        let follow = problems(
            r#"{"squares": 10, "ladders": [[3, 8], [3, 9]], "snakes": [[8, 3]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            follow.iter().map(Problem::kind).collect::<Vec<_>>(),
            ["duplicate_start"]
        );
    }

    /// The design article's example: 2 → 5 → 8 chains.
    #[test]
    fn chain_under_forbid() {
        let p = only(r#"{"squares": 10, "ladders": [[2, 5], [5, 8]]}"#);
        assert_eq!(
            p,
            Problem::Chain {
                jump: ladder(0, 2, 5),
                square: 5,
                next: ladder(1, 5, 8)
            }
        );
        assert_eq!(p.kind(), "chain");
    }

    /// The design article's example: 10 → 30 → 50 → 10 loops back.
    #[test]
    fn chain_cycle_under_follow() {
        let p = only(
            r#"{"squares": 60, "ladders": [[30, 50], [10, 30]], "snakes": [[50, 10]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            p,
            Problem::ChainCycle {
                squares: Squares(vec![10, 30, 50])
            }
        );
        assert_eq!(p.kind(), "chain_cycle");
        // Two separate cycles are two problems, each named.
        let found = problems(
            r#"{"squares": 60, "ladders": [[2, 6], [20, 40]], "snakes": [[6, 2], [40, 20]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            found,
            [
                Problem::ChainCycle {
                    squares: Squares(vec![2, 6])
                },
                Problem::ChainCycle {
                    squares: Squares(vec![20, 40])
                },
            ]
        );
    }

    #[test]
    fn dice_mixed() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"count": 1, "weights": [1, 1]}}}"#);
        assert_eq!(p, Problem::DiceMixed);
        assert_eq!(p.kind(), "dice_mixed");
    }

    #[test]
    fn dice_count() {
        for count in [0, -1, 101] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"dice": {{"count": {count}}}}}}}"#
            ));
            assert_eq!(p, Problem::DiceCount { count });
        }
    }

    #[test]
    fn dice_faces() {
        for faces in [1, 0, -6, 1001] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"dice": {{"faces": {faces}}}}}}}"#
            ));
            assert_eq!(p, Problem::DiceFaces { faces });
            assert_eq!(p.kind(), "dice_faces");
        }
        // A loaded die of one face is a die of fewer than two faces.
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1]}}}"#);
        assert_eq!(p, Problem::DiceFaces { faces: 1 });
    }

    /// 100 dice of 1000 faces roll 100 × 999 + 1 = 99,901 totals.
    #[test]
    fn dice_too_wide() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"count": 100, "faces": 1000}}}"#);
        assert_eq!(p, Problem::DiceTooWide { totals: 99_901 });
        assert_eq!(p.kind(), "dice_too_wide");
    }

    #[test]
    fn weight_negative() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1, -0.5, 1]}}}"#);
        assert_eq!(
            p,
            Problem::WeightNegative {
                face: 2,
                weight: -0.5
            }
        );
        assert_eq!(p.kind(), "weight_negative");
    }

    /// JSON has no NaN or infinity, so this rule is reachable only through a
    /// spec built in code.
    #[test]
    fn weight_not_finite() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let spec = BoardSpec {
                squares: 10,
                rules: Some(crate::rules::RulesSpec {
                    dice: Some(DiceSpec {
                        weights: Some(vec![1.0, 1.0, bad]),
                        ..DiceSpec::default()
                    }),
                    ..Default::default()
                }),
                ..BoardSpec::default()
            };
            let found = Board::problems(&spec);
            assert_eq!(found, [Problem::WeightNotFinite { face: 3 }], "{bad}");
            assert!(Board::from_spec(&spec).is_err());
        }
    }

    #[test]
    fn weights_all_zero() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [0, 0, 0]}}}"#);
        assert_eq!(p, Problem::WeightsAllZero);
        assert_eq!(p.kind(), "weights_all_zero");
    }

    #[test]
    fn weights_overflow() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1e308, 1e308]}}}"#);
        assert_eq!(p, Problem::WeightsOverflow);
        assert_eq!(p.kind(), "weights_overflow");
    }

    #[test]
    fn extra_turn_unrollable() {
        for on in [7, 0, -6] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"extra_turn": {{"on": {on}}}}}}}"#
            ));
            assert_eq!(p, Problem::ExtraTurnUnrollable { on });
        }
        // A face of weight zero cannot be rolled either.
        let p = only(
            r#"{"squares": 10, "rules": {"dice": {"weights": [1, 1, 0]}, "extra_turn": {"on": 3}}}"#,
        );
        assert_eq!(p, Problem::ExtraTurnUnrollable { on: 3 });
        assert_eq!(p.kind(), "extra_turn_unrollable");
    }

    #[test]
    fn extra_turn_max_extra() {
        let p = only(r#"{"squares": 10, "rules": {"extra_turn": {"on": 6, "max_extra": -1}}}"#);
        assert_eq!(p, Problem::ExtraTurnMaxExtra { max_extra: -1 });
        assert_eq!(p.kind(), "extra_turn_max_extra");
    }

    #[test]
    fn extra_turn_forfeit_after() {
        let p = only(r#"{"squares": 10, "rules": {"extra_turn": {"on": 6, "forfeit_after": 0}}}"#);
        assert_eq!(p, Problem::ExtraTurnForfeitAfter { forfeit_after: 0 });
        assert_eq!(p.kind(), "extra_turn_forfeit_after");
    }

    /// A die that only rolls six, a six rolls again, and nothing caps it.
    #[test]
    fn endless_extra_rolls() {
        let json = r#"{"squares": 10, "rules": {"dice": {"weights": [0, 0, 0, 0, 0, 1]},
            "extra_turn": {"on": 6}}}"#;
        let p = only(json);
        assert_eq!(p, Problem::EndlessExtraRolls { on: 6 });
        assert_eq!(p.kind(), "endless_extra_rolls");
        // A cap, or a forfeit, makes the same dice fine (the board must still
        // be winnable: 0 + 6 + ... never lands on 10 exactly, so use 12).
        for limit in [r#""max_extra": 3"#, r#""forfeit_after": 2"#] {
            let json = format!(
                r#"{{"squares": 12, "rules": {{"dice": {{"weights": [0, 0, 0, 0, 0, 1]}},
                    "extra_turn": {{"on": 6, {limit}}}}}}}"#
            );
            assert!(problems(&json).is_empty(), "{json}");
        }
    }

    /// 10,000,000 squares × 12 totals = 120,000,012 moves, just past the limit.
    #[test]
    fn too_large_to_check() {
        let p = only(r#"{"squares": 10000000, "rules": {"dice": {"faces": 12}}}"#);
        assert_eq!(
            p,
            Problem::TooLargeToCheck {
                squares: 10_000_000,
                totals: 12,
                limit: MAX_MOVES_TO_CHECK
            }
        );
        assert_eq!(p.kind(), "too_large_to_check");
    }

    /// Two dice and an exact finish on 20 squares: square 19 needs a 1, which
    /// two dice never roll; every other square can still finish (18 + 2).
    #[test]
    fn unwinnable_names_the_trapped_squares() {
        let p = only(r#"{"squares": 20, "rules": {"dice": {"count": 2, "faces": 6}}}"#);
        assert_eq!(
            p,
            Problem::Unwinnable {
                squares: Squares(vec![19])
            }
        );
        assert_eq!(p.kind(), "unwinnable");
    }

    /// The issue's example: snakes on every one of 94..99 under `stay`, so
    /// nothing reaches 100 and every square a token reaches is trapped.
    #[test]
    fn unwinnable_when_the_finish_cannot_be_reached_at_all() {
        let p = only(
            r#"{"squares": 100, "snakes": [[94, 1], [95, 1], [96, 1], [97, 1], [98, 1], [99, 1]]}"#,
        );
        let trapped: Vec<u32> = (0..=93).collect();
        assert_eq!(
            p,
            Problem::Unwinnable {
                squares: Squares(trapped)
            }
        );
        assert_eq!(
            p.to_string(),
            "unwinnable: a token can reach squares 0..93 but can never finish from them"
        );
    }

    /// Entry on six and the six always forfeited: no token ever leaves the start.
    #[test]
    fn unwinnable_when_the_entry_roll_is_always_forfeited() {
        let p = only(
            r#"{"squares": 10, "rules": {"entry": "six", "extra_turn": {"on": 6, "forfeit_after": 1}}}"#,
        );
        assert_eq!(
            p,
            Problem::Unwinnable {
                squares: Squares(vec![0])
            }
        );
    }

    #[test]
    fn every_problem_is_reported_not_just_the_first() {
        let found = problems(
            r#"{"squares": 10, "width": 0, "ladders": [[5, 3], [0, 4]], "snakes": [[4, 8], [10, 2]],
                "rules": {"dice": {"faces": 1}}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(
            kinds,
            [
                "dice_faces",
                "width_out_of_range",
                "ladder_descends",
                "jump_starts_on_start",
                "snake_climbs",
                "jump_starts_on_last",
            ]
        );
    }

    #[test]
    fn squares_display_compactly() {
        assert_eq!(
            Squares(vec![94, 95, 97, 98, 99]).to_string(),
            "94, 95, 97..99"
        );
        assert_eq!(Squares(vec![]).to_string(), "");
        let many = Squares((0..100).map(|i| i * 3).collect());
        assert!(many.to_string().ends_with(" and 60 more runs"), "{many}");
    }
}
