//! Live odds: each player's probability of winning from where the tokens
//! stand now, between turns (for `play --odds`).
//!
//! Odds are asked between turns, when every token stands on a rest square
//! and no turn is half played: the state of the game is then only the
//! squares and whose turn it is. The players' remaining turn counts are
//! independent (tokens never interact and rolls are independent; see
//! [`players`]), each distributed as T from that player's
//! own square, so the winner is decided by the race of [`players::race`]
//! with the order starting at the player to move.
//!
//! [`players::race`]: super::players::race

use super::distribution;
use super::players;
use crate::Board;
use crate::Square;
use crate::markov::chain::{Chain, ChainError};

/// Why odds could not be given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OddsError {
    /// No players.
    #[error("no players")]
    NoPlayers,
    /// The player to move is not one of the players.
    #[error("player {to_move} is to move, but there are {players} players")]
    NoSuchPlayer {
        /// The player to move.
        to_move: usize,
        /// How many players there are.
        players: usize,
    },
    /// A token is on a square it cannot stand on between turns (a jump
    /// start, a square no turn ends on), or a token has finished and the
    /// game is over.
    #[error("player {player} stands on square {square}, where no turn can end a game still going")]
    NotARestSquare {
        /// The player.
        player: usize,
        /// The square.
        square: Square,
    },
}

/// The exact winning chances of players between turns, for any squares
/// they stand on: the board compiled once, asked as often as needed.
///
/// # Example
/// ```
/// use snakeladder::analysis::LiveOdds;
/// use snakeladder::{Board, Square};
///
/// let odds = LiveOdds::new(&Board::builtin_default())?;
/// // The second player is one roll from home and it is their turn.
/// let p = odds.odds(&[Square::new(10), Square::new(99)], 1)?;
/// assert!(p[1] > p[0]);
/// assert!((p[0] + p[1] - 1.0).abs() < 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct LiveOdds {
    chain: Chain,
}

impl LiveOdds {
    /// Compiles `board` for odds.
    ///
    /// # Errors
    /// [`ChainError`] when the board cannot be compiled.
    pub fn new(board: &Board) -> Result<LiveOdds, ChainError> {
        Ok(LiveOdds {
            chain: Chain::compile(board)?,
        })
    }

    /// Each player's exact probability of winning, players in seat order,
    /// `to_move` the seat whose turn is next.
    ///
    /// # Errors
    /// [`OddsError`] for no players, a `to_move` out of range, or a token not
    /// on a square of the chain (a finished token means the game is over).
    pub fn odds(&self, squares: &[Square], to_move: usize) -> Result<Vec<f64>, OddsError> {
        live_odds(&self.chain, squares, to_move)
    }

    /// [`LiveOdds::odds`] following the race for at most
    /// `max_work / (2·entries)` turns (two sparse products a turn), so a
    /// huge board answers within the budget; the result says how much of
    /// the race was left undecided.
    ///
    /// # Errors
    /// As [`LiveOdds::odds`].
    pub fn odds_within(
        &self,
        squares: &[Square],
        to_move: usize,
        max_work: f64,
    ) -> Result<BoundedOdds, OddsError> {
        live_odds_within(&self.chain, squares, to_move, max_work)
    }
}

/// Live odds computed within a budget of work, and what they leave out.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundedOdds {
    /// Each player's chance of winning, players in seat order.
    pub odds: Vec<f64>,
    /// The probability that the race is still undecided after the turns
    /// followed; below 1e-12 unless the budget or the turn cap cut the
    /// distributions short, when the odds are lower bounds and must be
    /// shown as such.
    pub left_out: f64,
    /// Turns followed.
    pub turns: usize,
}

/// Each player's exact probability of winning (see [`LiveOdds::odds`]).
pub(crate) fn live_odds(
    chain: &Chain,
    squares: &[Square],
    to_move: usize,
) -> Result<Vec<f64>, OddsError> {
    live_odds_within(chain, squares, to_move, f64::INFINITY).map(|o| o.odds)
}

/// [`live_odds`] within a budget of work (see [`LiveOdds::odds_within`]).
pub(crate) fn live_odds_within(
    chain: &Chain,
    squares: &[Square],
    to_move: usize,
    max_work: f64,
) -> Result<BoundedOdds, OddsError> {
    if squares.is_empty() {
        return Err(OddsError::NoPlayers);
    }
    if to_move >= squares.len() {
        return Err(OddsError::NoSuchPlayer {
            to_move,
            players: squares.len(),
        });
    }
    let k = squares.len();
    // Turn order from the player to move.
    let order: Vec<usize> = (0..k).map(|i| (to_move + i) % k).collect();
    let states = order
        .iter()
        .map(|&p| {
            chain.state_of(squares[p]).ok_or(OddsError::NotARestSquare {
                player: p,
                square: squares[p],
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let per_turn = 2.0 * chain.entries().max(1) as f64;
    let max_turns = (max_work / per_turn).min(usize::MAX as f64) as usize;
    let dists = distribution::from_states_within(chain, &states, max_turns.max(1));
    let turns = dists.iter().map(|d| d.pmf.len()).max().unwrap_or(0);
    let in_order = players::race(&dists);
    let mut odds = vec![0.0; k];
    for (i, &p) in order.iter().enumerate() {
        odds[p] = in_order[i];
    }
    // Undecided: every player still going after the turns followed.
    let left_out = dists.iter().map(|d| d.tail()).product::<f64>();
    Ok(BoundedOdds {
        odds,
        left_out,
        turns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn from_the_start_live_odds_are_the_seat_odds() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let start = chain.square(chain.start());
        let odds = live_odds(&chain, &[start, start], 0).unwrap();
        // The default board's figure: the first of two players wins with 0.507803.
        assert!((odds[0] - 0.507803).abs() < 5e-7);
        let swapped = live_odds(&chain, &[start, start], 1).unwrap();
        assert!((swapped[1] - odds[0]).abs() < 1e-15);
    }

    #[test]
    fn errors_name_the_player() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        assert_eq!(live_odds(&chain, &[], 0), Err(OddsError::NoPlayers));
        let on_ladder = live_odds(&chain, &[Square::new(0), Square::new(1)], 0);
        assert_eq!(
            on_ladder,
            Err(OddsError::NotARestSquare {
                player: 1,
                square: Square::new(1)
            })
        );
    }
}
