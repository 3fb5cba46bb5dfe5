//! One roll within a turn: the extra-roll rule on top of the move function.
//!
//! A turn is a sequence of rolls by one player. Every roll but the last of a
//! turn is a bonus roll (its total is the extra-roll rule's `on`), so the
//! only state a turn carries between rolls is how many rolls it has made.

use crate::movement::{Blocked, Move};
use crate::{Board, Square};
use serde::Serialize;

/// The result of one roll within a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollStep {
    /// What the roll did; `blocked` is [`Blocked::Forfeit`] for a forfeited
    /// bonus roll.
    #[serde(flatten)]
    pub mv: Move,
    /// Whether the same player rolls again in this turn.
    pub extra_roll: bool,
}

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
    /// assert_eq!(third.mv.blocked, Some(Blocked::Forfeit));
    /// assert!(!third.extra_roll);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn play_roll(&self, from: Square, rolls_before: u32, roll: u32) -> RollStep {
        let nth = rolls_before.saturating_add(1);
        let bonus = self.rules().extra_turn().filter(|x| x.on() == roll);
        if let Some(x) = bonus {
            if x.forfeit_after() == Some(nth) {
                let mv = Move {
                    start: from,
                    roll,
                    landing: from,
                    jumps: Vec::new(),
                    end: from,
                    blocked: Some(Blocked::Forfeit),
                    finished: false,
                };
                return RollStep {
                    mv,
                    extra_roll: false,
                };
            }
        }
        let mv = self.move_token(from, roll);
        let extra_roll =
            !mv.finished && bonus.is_some_and(|x| x.max_extra().is_none_or(|m| nth <= m));
        RollStep { mv, extra_roll }
    }
}
