//! Moves in words, for transcripts: `Bo rolled 4: 10 → 14, ladder to 67`.
//!
//! The words follow the board's rules (how far an exact finish needs, where
//! a bounce turns), so they live in the library, beside the engine, rather
//! than in the binary.

use crate::model::movement::Blocked;
use crate::model::rules::{Overshoot, ordinal};
use crate::play::game::{Placing, RollResult, Standing};
use crate::{Board, Square};
use std::fmt::Write as _;

/// A square as a transcript shows it: the start off the board is `start`.
pub(crate) fn square(s: Square) -> String {
    if s == Square::OFF_BOARD {
        "start".to_string()
    } else {
        s.to_string()
    }
}

/// One roll in words (see [`RollResult::describe`]).
pub(crate) fn describe(board: &Board, turn: &RollResult) -> String {
    let mut s = format!("{} rolled {}: ", turn.player(), turn.roll());
    let start = turn.start();
    let last = board.last();
    match turn.blocked() {
        Some(Blocked::Entry) => {
            let _ = write!(
                s,
                "needs a {} to start, stays on {}",
                board.rules().dice().max_total(),
                square(start)
            );
        }
        Some(Blocked::Overshoot) => {
            let _ = write!(
                s,
                "needs exactly {}, stays on {}",
                last.get() - start.get(),
                square(start)
            );
        }
        Some(Blocked::Forfeit) => {
            let _ = write!(
                s,
                "{} {} in a row is forfeited, stays on {}",
                ordinal(turn.roll_in_turn() as usize),
                turn.roll(),
                square(start)
            );
        }
        None => {
            let passes = u64::from(start.get()) + u64::from(turn.roll()) > u64::from(last.get());
            let _ = write!(s, "{} → ", square(start));
            match (passes, board.rules().overshoot()) {
                (true, Overshoot::Bounce) => {
                    let _ = write!(s, "{last}, bounces back to {}", turn.landing());
                }
                (true, Overshoot::Win) => {
                    let _ = write!(s, "{last} (past the finish)");
                }
                _ => {
                    let _ = write!(s, "{}", turn.landing());
                }
            }
            for jump in turn.jumps() {
                let _ = write!(s, ", {} to {}", jump.kind(), jump.to());
            }
        }
    }
    match turn.place() {
        Some(1) => s.push_str(", wins!"),
        Some(place) => {
            let _ = write!(s, ", finishes {}", ordinal(place));
        }
        None => {}
    }
    if turn.extra_roll() {
        s.push_str(", rolls again");
    }
    s
}

/// One line of the ranking in words: `2. Bo on 96 (by square)`.
pub(crate) fn standing(st: &Standing) -> String {
    match st.how {
        Placing::Reached => format!("{}. {}", st.place, st.player),
        how => format!(
            "{}. {} on {} ({how})",
            st.place,
            st.player,
            square(st.square)
        ),
    }
}

impl RollResult {
    /// The roll in words, as `snakeladder play` prints it:
    /// `Bo rolled 4: start → 4, ladder to 14`.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Board, Finish, Game, ScriptedDice};
    /// use std::sync::Arc;
    /// let board = Arc::new(Board::builtin_default());
    /// let mut game = Game::new(board.clone(), ["Ana", "Bo"], ScriptedDice::new([2, 4]), Finish::FirstWinner)?;
    /// let t = game.roll()?;
    /// assert_eq!(t.describe(&board), "Ana rolled 2: start → 2");
    /// let t = game.roll()?;
    /// assert_eq!(t.describe(&board), "Bo rolled 4: start → 4, ladder to 14");
    /// # Ok::<(), snakeladder::GameError>(())
    /// ```
    pub fn describe(&self, board: &Board) -> String {
        describe(board, self)
    }
}

impl Standing {
    /// The line of the ranking in words: `2. Bo on 96 (by square)`.
    pub fn describe(&self) -> String {
        standing(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th"
            ]
        );
    }
}
