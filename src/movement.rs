//! The move function: the one place the rules of movement live.
//!
//! The turn engine, the simulator and the Markov compiler all call
//! [`Board::move_token`] (through [`Board::play_roll`](crate::Board::play_roll)
//! for whole turns); nothing else re-implements movement.

use crate::rules::{Chains, Entry, Overshoot};
use crate::{Board, Jump, Square};
use serde::{Deserialize, Serialize};

/// Why a roll left the token where it was.
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
        let last = self.last();
        assert!(
            from <= last,
            "square {from} is not on a board of {last} squares"
        );
        let rules = self.rules();
        let stay = |blocked| Move {
            start: from,
            roll,
            landing: from,
            jumps: Vec::new(),
            end: from,
            blocked,
            finished: from == last,
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
        let mut jumps = Vec::new();
        let mut end = landing;
        while let Some(jump) = self.jump_from(end) {
            jumps.push(jump);
            end = jump.to();
            if rules.chains() == Chains::Forbid {
                break;
            }
        }
        Move {
            start: from,
            roll,
            landing,
            jumps,
            end,
            blocked: None,
            finished: end == last,
        }
    }
}
