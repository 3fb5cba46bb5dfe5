//! The move function: the one place the rules of movement live.
//!
//! The turn engine, the simulator and the Markov compiler all call
//! [`Board::move_token`] (through [`Board::play_roll`](crate::Board::play_roll)
//! for whole turns); nothing else re-implements movement. Its rules are
//! written once, in `Board::walk`, which reports the jumps taken one by one
//! instead of listing them: `move_token` lists them, and the chain compiler
//! calls `walk` directly so that its inner loop allocates nothing.

use crate::model::rules::{Entry, Overshoot};
use crate::{Board, Jump, Square};
use serde::{Deserialize, Serialize};

/// Why a roll left the token where it was.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Blocked, Board, Square};

let board = Board::from_json_str(r#"{"squares": 20, "rules": {"entry": "six"}}"#)?;
assert_eq!(board.move_token(Square::OFF_BOARD, 3).blocked, Some(Blocked::Entry));
assert_eq!(board.move_token(Square::OFF_BOARD, 6).blocked, None);
// Exact finish: 18 + 5 passes 20.
assert_eq!(board.move_token(Square::new(18), 5).blocked, Some(Blocked::Overshoot));
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocked {
    /// The roll would pass the last square and the overshoot rule is `stay`.
    Overshoot,
    /// The token is on the start square, the entry rule is `six` and the roll
    /// is not the dice's highest total.
    Entry,
    /// The roll was the forfeited bonus roll of an extra-roll rule (see
    /// [`ExtraTurn`](crate::ExtraTurn)); only [`Board::play_roll`] reports it.
    Forfeit,
}

/// What one roll did to a token.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Board, Square};

let board = Board::from_json_str(SMALL)?;
// 1 + 2 lands on the ladder 3→11.
let mv = board.move_token(Square::new(1), 2);
assert_eq!((mv.landing, mv.end), (Square::new(3), Square::new(11)));
assert_eq!(mv.jumps.len(), 1);
assert!(!mv.finished && !mv.extra_roll && mv.blocked.is_none());
# Ok::<(), snakeladder::BoardError>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Move {
    /// Where the token stood.
    pub start: Square,
    /// The dice total.
    pub roll: u32,
    /// Where the roll put the token, after the overshoot rule and before any
    /// jump.
    pub landing: Square,
    /// The jumps taken, in order: at most one under `chains: forbid`.
    pub jumps: Vec<Jump>,
    /// Where the token ends the move.
    pub end: Square,
    /// Why the token did not move, if it did not.
    pub blocked: Option<Blocked>,
    /// Whether the token ended on the last square.
    pub finished: bool,
    /// Whether the same player rolls again in this turn: only
    /// [`Board::play_roll`], which applies the extra-roll rule, grants
    /// one; [`Board::move_token`] never does.
    pub extra_roll: bool,
}

impl Board {
    /// Moves a token standing on `from` by a roll of `roll`.
    ///
    /// In order: the entry rule (from the start square under `entry: six`,
    /// only the dice's highest total moves), then the roll is added, then the
    /// overshoot rule (`stay`: no move and no jump; `bounce`: land on
    /// `max(1, N - (from + roll - N))`; `win`: land on N), then at most one
    /// jump, or under `chains: follow` every jump of the (validated, acyclic)
    /// chain. A token already on the last square stays there.
    ///
    /// The function is pure: it depends only on the board, `from` and `roll`.
    ///
    /// # Panics
    /// If `from` is past the last square (no square of this board).
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Blocked, Board, Square};
    /// let board = Board::from_json_str(r#"{"squares": 100, "snakes": [[98, 78]]}"#)?;
    /// // Exact finish: 96 + 4 wins, 96 + 5 stays put.
    /// assert!(board.move_token(Square::new(96), 4).finished);
    /// let over = board.move_token(Square::new(96), 5);
    /// assert_eq!((over.end, over.blocked), (Square::new(96), Some(Blocked::Overshoot)));
    /// // Landing on a snake's head slides down.
    /// assert_eq!(board.move_token(Square::new(95), 3).end, Square::new(78));
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn move_token(&self, from: Square, roll: u32) -> Move {
        let walk = self.walk(from, roll);
        walk.into_move(self, from, roll)
    }

    /// The rules of [`Board::move_token`], without building its list of
    /// jumps: the walk names only the first jump taken, and its end comes
    /// from the chain resolved once per board ([`Board::chain_index`]), so
    /// a move costs the same whatever the length of the chain it enters.
    /// The chain compiler and the simulator call this in their inner loops.
    ///
    /// # Panics
    /// As [`Board::move_token`].
    #[inline]
    pub(crate) fn walk(&self, from: Square, roll: u32) -> Walk {
        let last = self.last();
        assert!(
            from <= last,
            "square {from} is not on a board of {last} squares"
        );
        let rules = self.rules();
        let stay = |blocked| Walk {
            landing: from,
            end: from,
            first: None,
            blocked,
        };
        if from == last {
            return stay(None);
        }
        if rules.entry() == Entry::Six && from == rules.start() && roll != rules.dice().max_total()
        {
            return stay(Some(Blocked::Entry));
        }
        let target = u64::from(from.get()) + u64::from(roll);
        let n = u64::from(last.get());
        let landing = if target <= n {
            Square::new(target as u32)
        } else {
            match rules.overshoot() {
                Overshoot::Stay => return stay(Some(Blocked::Overshoot)),
                Overshoot::Win => last,
                Overshoot::Bounce => Square::new((2 * n).saturating_sub(target).max(1) as u32),
            }
        };
        // Under `forbid` the chain index holds each jump alone.
        let first = self.jump_index(landing);
        let end = first.map_or(landing, |j| self.chain_index().end(j));
        Walk {
            landing,
            end,
            first,
            blocked: None,
        }
    }
}

/// A [`Move`] without its start, roll and list of jumps: what
/// [`Board::walk`] returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Walk {
    /// As [`Move::landing`].
    pub landing: Square,
    /// As [`Move::end`].
    pub end: Square,
    /// The first jump taken (its position in [`Board::jumps`]); the rest of
    /// [`Move::jumps`] is its chain ([`Board::chain_from`]).
    pub first: Option<usize>,
    /// As [`Move::blocked`].
    pub blocked: Option<Blocked>,
}

impl Walk {
    /// The full [`Move`], listing every jump of the chain taken.
    pub(crate) fn into_move(self, board: &Board, start: Square, roll: u32) -> Move {
        let jumps: Vec<Jump> = self
            .first
            .into_iter()
            .flat_map(|j| board.chain_from(j))
            .map(|j| board.jumps()[j])
            .collect();
        Move {
            start,
            roll,
            landing: self.landing,
            jumps,
            end: self.end,
            blocked: self.blocked,
            finished: self.end == board.last(),
            extra_roll: false,
        }
    }

    /// Whether the walk takes jump `a` (first or further down its chain).
    pub(crate) fn takes(&self, board: &Board, a: usize) -> bool {
        self.first
            .is_some_and(|first| board.chain_index().passes(first, a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Problem;

    fn board(json: &str) -> Board {
        Board::from_json_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    /// The design article's test board: ten squares, ladder 2→7, snake 9→3,
    /// one fair die, exact finish.
    fn ten() -> Board {
        board(r#"{"squares": 10, "ladders": [[2, 7]], "snakes": [[9, 3]]}"#)
    }

    fn sq(n: u32) -> Square {
        Square::new(n)
    }

    fn jump(board: &Board, from: u32) -> Jump {
        board.jump_from(sq(from)).expect("a jump starts there")
    }

    #[test]
    fn a_normal_move_adds_the_roll() {
        let mv = ten().move_token(Square::OFF_BOARD, 1);
        assert_eq!(
            mv,
            Move {
                start: sq(0),
                roll: 1,
                landing: sq(1),
                jumps: vec![],
                end: sq(1),
                blocked: None,
                finished: false,
                extra_roll: false,
            }
        );
        assert_eq!(ten().move_token(sq(3), 5).end, sq(8));
    }

    #[test]
    fn a_ladder_climbs() {
        let b = ten();
        let mv = b.move_token(Square::OFF_BOARD, 2);
        assert_eq!((mv.landing, mv.end), (sq(2), sq(7)));
        assert_eq!(mv.jumps, vec![jump(&b, 2)]);
        assert!(!mv.finished);
    }

    #[test]
    fn a_snake_slides_down() {
        let b = ten();
        let mv = b.move_token(sq(6), 3);
        assert_eq!((mv.landing, mv.end), (sq(9), sq(3)));
        assert_eq!(mv.jumps, vec![jump(&b, 9)]);
    }

    #[test]
    fn an_exact_roll_wins() {
        let mv = ten().move_token(sq(7), 3);
        assert_eq!((mv.landing, mv.end, mv.blocked), (sq(10), sq(10), None));
        assert!(mv.finished);
    }

    #[test]
    fn overshoot_stay_leaves_the_token_and_uses_the_roll() {
        let mv = ten().move_token(sq(7), 4);
        assert_eq!((mv.landing, mv.end), (sq(7), sq(7)));
        assert_eq!(mv.blocked, Some(Blocked::Overshoot));
        assert!(mv.jumps.is_empty() && !mv.finished);
    }

    /// The design article's overshoot table: 20 squares, from 18 a roll of 5
    /// aims at 23, three past home. Stay: 18; bounce: 20 - 3 = 17; win: 20.
    #[test]
    fn overshoot_under_each_rule() {
        for (rule, end, blocked) in [
            ("stay", 18, Some(Blocked::Overshoot)),
            ("bounce", 17, None),
            ("win", 20, None),
        ] {
            let b = board(&format!(
                r#"{{"squares": 20, "rules": {{"overshoot": "{rule}"}}}}"#
            ));
            let mv = b.move_token(sq(18), 5);
            assert_eq!((mv.end, mv.blocked), (sq(end), blocked), "{rule}");
            assert_eq!(mv.finished, end == 20, "{rule}");
        }
    }

    /// Bounce never goes below square 1: on a 2-square board, 0 + 6 aims at 6,
    /// four past home, and 2 - 4 = -2 is floored to 1.
    #[test]
    fn bounce_is_floored_at_square_one() {
        let b = board(r#"{"squares": 2, "rules": {"overshoot": "bounce"}}"#);
        assert_eq!(b.move_token(Square::OFF_BOARD, 6).end, sq(1));
        assert_eq!(b.move_token(Square::OFF_BOARD, 2).end, sq(2));
    }

    /// The design article's example: on 96 a roll of 6 aims at 102; bouncing
    /// back two lands on the snake's head at 98, which applies.
    #[test]
    fn a_bounce_onto_a_snake_takes_it() {
        let b =
            board(r#"{"squares": 100, "snakes": [[98, 78]], "rules": {"overshoot": "bounce"}}"#);
        let mv = b.move_token(sq(96), 6);
        assert_eq!((mv.landing, mv.end), (sq(98), sq(78)));
        assert_eq!(mv.jumps, vec![jump(&b, 98)]);
        assert!(!mv.finished);
    }

    #[test]
    fn a_ladder_to_the_last_square_wins() {
        let b = board(r#"{"squares": 10, "ladders": [[8, 10]]}"#);
        let mv = b.move_token(sq(5), 3);
        assert_eq!((mv.landing, mv.end), (sq(8), sq(10)));
        assert_eq!(mv.jumps, vec![jump(&b, 8)]);
        assert!(mv.finished);
    }

    /// Ladders 2→5 and 5→8: a chain. Under `forbid` the layout is refused (so
    /// no move can take two jumps); under `follow` a roll of 2 takes both.
    #[test]
    fn chains_are_refused_under_forbid_and_followed_under_follow() {
        let layout = r#""squares": 10, "ladders": [[2, 5], [5, 8]]"#;
        let forbid = Board::from_json_str(&format!("{{{layout}}}")).unwrap_err();
        assert_eq!(
            forbid
                .problems()
                .iter()
                .map(Problem::kind)
                .collect::<Vec<_>>(),
            ["chain"]
        );
        let follow = board(&format!(r#"{{{layout}, "rules": {{"chains": "follow"}}}}"#));
        let mv = follow.move_token(Square::OFF_BOARD, 2);
        assert_eq!(mv.jumps, vec![jump(&follow, 2), jump(&follow, 5)]);
        assert_eq!((mv.landing, mv.end), (sq(2), sq(8)));
    }

    /// The chains board of boards/: 27 → 3 → 16 → 25 is three jumps in one move.
    #[test]
    fn follow_takes_every_jump_of_the_chain() {
        let b = board(
            r#"{"squares": 36, "ladders": [[3, 16], [16, 25], [8, 20]],
                "snakes": [[33, 8], [27, 3], [35, 22]], "rules": {"chains": "follow"}}"#,
        );
        let mv = b.move_token(sq(24), 3);
        assert_eq!(mv.jumps, vec![jump(&b, 27), jump(&b, 3), jump(&b, 16)]);
        assert_eq!((mv.landing, mv.end), (sq(27), sq(25)));
        // A snake into a ladder: 33 → 8 → 20.
        assert_eq!(b.move_token(sq(30), 3).end, sq(20));
    }

    #[test]
    fn entry_on_six_needs_the_highest_total_from_the_start() {
        let b = board(r#"{"squares": 20, "ladders": [[6, 11]], "rules": {"entry": "six"}}"#);
        for roll in 1..6 {
            let mv = b.move_token(Square::OFF_BOARD, roll);
            assert_eq!(
                (mv.end, mv.blocked),
                (sq(0), Some(Blocked::Entry)),
                "{roll}"
            );
        }
        // The six enters and moves six squares as usual, jump included.
        let mv = b.move_token(Square::OFF_BOARD, 6);
        assert_eq!((mv.landing, mv.end, mv.blocked), (sq(6), sq(11), None));
        // Off the start square every roll moves.
        assert_eq!(b.move_token(sq(1), 1).end, sq(2));
    }

    #[test]
    fn entry_on_six_with_two_dice_needs_twelve_and_respects_start_one() {
        let b = board(
            r#"{"squares": 30, "rules": {"entry": "six", "start": 1, "overshoot": "win",
                "dice": {"count": 2, "faces": 6}}}"#,
        );
        assert_eq!(b.move_token(sq(1), 6).blocked, Some(Blocked::Entry));
        assert_eq!(b.move_token(sq(1), 11).blocked, Some(Blocked::Entry));
        assert_eq!(b.move_token(sq(1), 12).end, sq(13));
    }

    #[test]
    fn a_finished_token_stays_finished() {
        let mv = ten().move_token(sq(10), 3);
        assert_eq!((mv.end, mv.blocked, mv.finished), (sq(10), None, true));
    }

    #[test]
    #[should_panic(expected = "not on a board of 10 squares")]
    fn a_square_past_the_end_panics() {
        ten().move_token(sq(11), 1);
    }
}
