//! One roll within a turn: the extra-roll rule on top of the move function.
//!
//! A turn is a sequence of rolls by one player. Every roll but the last of a
//! turn is a bonus roll (its total is the extra-roll rule's `on`), so the
//! only state a turn carries between rolls is how many rolls it has made.

use crate::model::movement::{Blocked, Move, Walk};
use crate::{Board, Square};

impl Board {
    /// Plays the `rolls_before + 1`-th roll of a turn for a token on `from`.
    ///
    /// `rolls_before` is the number of rolls already made in this turn (0 for
    /// the turn's first roll); each of them was a bonus roll, or the turn would
    /// have ended. Under the extra-roll rule with bonus total `on`:
    /// - the `forfeit_after`-th consecutive roll of `on` is forfeited: the
    ///   token does not move and the turn ends;
    /// - otherwise the token moves ([`Board::move_token`]); a roll of `on`
    ///   that does not win grants another roll while the turn has made at most
    ///   `max_extra` extra rolls;
    /// - a winning roll never grants another.
    ///
    /// The [`Move`] says whether the same player rolls again
    /// ([`Move::extra_roll`]); its `blocked` is [`Blocked::Forfeit`] for a
    /// forfeited bonus roll.
    ///
    /// # Panics
    /// As [`Board::move_token`].
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Blocked, Board, Square};
    /// let board = Board::from_json_str(r#"{"squares": 100,
    ///     "rules": {"extra_turn": {"on": 6, "max_extra": 2, "forfeit_after": 3}}}"#)?;
    /// let first = board.play_roll(Square::new(10), 0, 6);
    /// assert!(first.extra_roll);
    /// let third = board.play_roll(Square::new(22), 2, 6);
    /// assert_eq!(third.blocked, Some(Blocked::Forfeit));
    /// assert!(!third.extra_roll);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn play_roll(&self, from: Square, rolls_before: u32, roll: u32) -> Move {
        let (walk, extra_roll) = self.walk_roll(from, rolls_before, roll);
        Move {
            extra_roll,
            ..walk.into_move(self, from, roll)
        }
    }

    /// What [`Board::play_roll`] reports, less its list of jumps, at a cost
    /// that does not grow with the chain the roll enters: for the callers
    /// that need only where the roll ends.
    pub(crate) fn roll_end(&self, from: Square, rolls_before: u32, roll: u32) -> RollEnd {
        let (walk, extra_roll) = self.walk_roll(from, rolls_before, roll);
        RollEnd {
            end: walk.end,
            finished: walk.end == self.last(),
            extra_roll,
            walk,
        }
    }

    /// The rules of [`Board::play_roll`] over [`Board::walk`]: no list of
    /// jumps, only the first jump taken. Returns the walk and whether the
    /// same player rolls again.
    pub(crate) fn walk_roll(&self, from: Square, rolls_before: u32, roll: u32) -> (Walk, bool) {
        let nth = rolls_before.saturating_add(1);
        let bonus = self.rules().extra_turn().filter(|x| x.on() == roll);
        if bonus.is_some_and(|x| x.forfeit_after() == Some(nth)) {
            let walk = Walk {
                landing: from,
                end: from,
                first: None,
                blocked: Some(Blocked::Forfeit),
            };
            return (walk, false);
        }
        let walk = self.walk(from, roll);
        let finished = walk.end == self.last();
        let extra_roll = !finished && bonus.is_some_and(|x| x.max_extra().is_none_or(|m| nth <= m));
        (walk, extra_roll)
    }
}

/// [`Board::roll_end`]: a [`Move`] without the list of jumps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RollEnd {
    /// As [`Move::end`](crate::Move::end).
    pub end: Square,
    /// As [`Move::finished`](crate::Move::finished).
    pub finished: bool,
    /// As [`Move::extra_roll`].
    pub extra_roll: bool,
    /// The walk itself, for its first jump.
    pub walk: Walk,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Move;

    /// 30 squares without jumps, one fair die, exact finish, and the given
    /// extra-roll rule.
    fn board(extra_turn: &str) -> Board {
        let json = format!(r#"{{"squares": 30, "rules": {{"extra_turn": {extra_turn}}}}}"#);
        Board::from_json_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn sq(n: u32) -> Square {
        Square::new(n)
    }

    #[test]
    fn without_the_rule_no_roll_grants_another() {
        let b = board("null");
        for roll in 1..=6 {
            let step = b.play_roll(sq(5), 0, roll);
            assert!(!step.extra_roll, "{roll}");
            assert_eq!(step, b.move_token(sq(5), roll));
        }
    }

    #[test]
    fn a_bonus_roll_moves_and_grants_another() {
        let b = board(r#"{"on": 6}"#);
        let step = b.play_roll(sq(5), 0, 6);
        assert_eq!((step.end, step.extra_roll), (sq(11), true));
        // The same move as without the rule, but for the extra roll.
        let plain = b.move_token(sq(5), 6);
        assert!(!plain.extra_roll);
        assert_eq!(
            step,
            Move {
                extra_roll: true,
                ..plain
            }
        );
        // Another total moves and ends the turn.
        let step = b.play_roll(sq(5), 0, 5);
        assert_eq!((step.end, step.extra_roll), (sq(10), false));
        // With no cap, the bonus keeps coming.
        assert!(b.play_roll(sq(5), 40, 6).extra_roll);
    }

    /// `max_extra: 2`: the first and second rolls of a turn may each grant one
    /// more; the third roll, even a six, is the turn's last.
    #[test]
    fn the_cap_limits_extra_rolls_per_turn() {
        let b = board(r#"{"on": 6, "max_extra": 2}"#);
        let grants: Vec<bool> = (0..4)
            .map(|before| b.play_roll(sq(1), before, 6).extra_roll)
            .collect();
        assert_eq!(grants, [true, true, false, false]);
        // A cap of 0 makes the rule inert.
        let b = board(r#"{"on": 6, "max_extra": 0}"#);
        assert!(!b.play_roll(sq(1), 0, 6).extra_roll);
    }

    /// `forfeit_after: 3`: the third six in a row is not moved and ends the
    /// turn; the first two move as usual and grant another roll.
    #[test]
    fn the_kth_bonus_roll_in_a_row_is_forfeited() {
        let b = board(r#"{"on": 6, "forfeit_after": 3}"#);
        for before in 0..2 {
            let step = b.play_roll(sq(4), before, 6);
            assert_eq!(
                (step.end, step.blocked, step.extra_roll),
                (sq(10), None, true)
            );
        }
        let third = b.play_roll(sq(4), 2, 6);
        assert_eq!(third.blocked, Some(Blocked::Forfeit));
        assert_eq!((third.landing, third.end), (sq(4), sq(4)));
        assert!(third.jumps.is_empty() && !third.finished && !third.extra_roll);
        // A non-bonus third roll moves as usual.
        assert_eq!(b.play_roll(sq(4), 2, 5), b.move_token(sq(4), 5));
    }

    /// A token already home stays finished even when its roll is forfeited
    /// (found by the property test: the forfeit said `finished: false`).
    #[test]
    fn a_forfeit_on_the_last_square_is_still_finished() {
        let b = board(r#"{"on": 6, "forfeit_after": 1}"#);
        let step = b.play_roll(sq(30), 0, 6);
        assert_eq!((step.end, step.blocked), (sq(30), Some(Blocked::Forfeit)));
        assert!(step.finished);
    }

    #[test]
    fn forfeit_after_one_forfeits_every_bonus_roll() {
        let b = board(r#"{"on": 6, "forfeit_after": 1}"#);
        let step = b.play_roll(sq(4), 0, 6);
        assert_eq!(
            (step.blocked, step.extra_roll),
            (Some(Blocked::Forfeit), false)
        );
    }

    #[test]
    fn a_winning_bonus_roll_grants_no_other() {
        let b = board(r#"{"on": 6}"#);
        let step = b.play_roll(sq(24), 0, 6);
        assert!(step.finished);
        assert!(!step.extra_roll);
    }

    /// The roll, not the move, earns the bonus: a six that overshoots under
    /// `stay` does not move but still rolls again.
    #[test]
    fn a_blocked_bonus_roll_still_grants_another() {
        let b = board(r#"{"on": 6}"#);
        let step = b.play_roll(sq(27), 0, 6);
        assert_eq!((step.end, step.blocked), (sq(27), Some(Blocked::Overshoot)));
        assert!(step.extra_roll);
    }

    /// The bonus total need not be the highest: with two dice, seven.
    #[test]
    fn the_bonus_total_is_whatever_on_says() {
        let b = Board::from_json_str(
            r#"{"squares": 40, "rules": {"overshoot": "win",
                "dice": {"count": 2, "faces": 6}, "extra_turn": {"on": 7, "max_extra": 1}}}"#,
        )
        .unwrap();
        assert!(b.play_roll(sq(3), 0, 7).extra_roll);
        assert!(!b.play_roll(sq(3), 0, 12).extra_roll);
        assert!(!b.play_roll(sq(3), 1, 7).extra_roll);
    }
}
