//! Live odds: each player's probability of winning from where the tokens
//! stand now, between turns (for `play --odds`).
//!
//! Odds are asked between turns, when every token stands on a rest square
//! and no turn is half played: the state of the game is then only the
//! squares and whose turn it is. The players' remaining turn counts are
//! independent (tokens never interact and rolls are independent; see
//! [`players`](super::players)), each distributed as T from that player's
//! own square, so the winner is decided by the race of `players::race`
//! (docs/figures.md §8) with the order starting at the player to move,
//! summed turn by turn as the distributions are stepped.

use super::AnalysisError;
use super::distribution;
use crate::Board;
use crate::Square;
use crate::markov::chain::Chain;

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
    /// [`AnalysisError::RowSum`] when the board cannot be compiled (a bug).
    pub fn new(board: &Board) -> Result<LiveOdds, AnalysisError> {
        Ok(LiveOdds {
            chain: Chain::compile(board)?,
        })
    }

    /// Each player's exact probability of winning, players in seat order,
    /// `to_move` the seat whose turn is next.
    ///
    /// # Errors
    /// [`AnalysisError::NoPlayers`], [`AnalysisError::NoSuchPlayer`] for a
    /// `to_move` out of range, or [`AnalysisError::NotARestSquare`] for a
    /// token not on a square of the chain (a finished token means the game is over).
    pub fn odds(&self, squares: &[Square], to_move: usize) -> Result<Vec<f64>, AnalysisError> {
        live_odds(&self.chain, squares, to_move)
    }

    /// [`LiveOdds::odds`] following the race for at most
    /// `max_work / (2·entries + states + players²)` turns (two sparse
    /// products a turn, a pass over the states and the race's products),
    /// in memory that does not grow with the turns, so a huge board or a
    /// game of many players on a board of long games answers within the
    /// budget; the result says how much of the race was left undecided.
    ///
    /// # Errors
    /// As [`LiveOdds::odds`].
    pub fn odds_within(
        &self,
        squares: &[Square],
        to_move: usize,
        max_work: f64,
    ) -> Result<BoundedOdds, AnalysisError> {
        live_odds_within(&self.chain, squares, to_move, max_work)
    }
}

/// Live odds computed within a budget of work, and what they leave out.
///
/// # Example
/// ```
/// use snakeladder::analysis::LiveOdds;
/// use snakeladder::{Board, Square};
///
/// let odds = LiveOdds::new(&Board::builtin_default())?;
/// let bounded = odds.odds_within(&[Square::new(10), Square::new(99)], 1, 1e9)?;
/// assert!(bounded.left_out < 1e-12);
/// assert!(bounded.odds[1] > bounded.odds[0]);
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
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
) -> Result<Vec<f64>, AnalysisError> {
    live_odds_within(chain, squares, to_move, f64::INFINITY).map(|o| o.odds)
}

/// [`live_odds`] within a budget of work (see [`LiveOdds::odds_within`]).
pub(crate) fn live_odds_within(
    chain: &Chain,
    squares: &[Square],
    to_move: usize,
    max_work: f64,
) -> Result<BoundedOdds, AnalysisError> {
    if squares.is_empty() {
        return Err(AnalysisError::NoPlayers);
    }
    if to_move >= squares.len() {
        return Err(AnalysisError::NoSuchPlayer {
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
            chain
                .state_of(squares[p])
                .ok_or(AnalysisError::NotARestSquare {
                    player: p,
                    square: squares[p],
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Two sparse products a turn, a pass over the states, and the race's
    // k² products (issue 27: the race and the stored distributions were not
    // counted, so many players on a board of long games took gigabytes
    // and minutes within the budget of a line).
    let per_turn = 2.0 * chain.entries().max(1) as f64 + chain.len() as f64 + (k * k) as f64;
    let max_turns = (max_work / per_turn).min(usize::MAX as f64) as usize;
    let (in_order, left_out, turns) = race_within(chain, &states, max_turns.max(1));
    let mut odds = vec![0.0; k];
    for (i, &p) in order.iter().enumerate() {
        odds[p] = in_order[i];
    }
    Ok(BoundedOdds {
        odds,
        left_out,
        turns,
    })
}

/// The race of `players::race` (kept for tests) over the distributions of
/// `distribution::from_states_within` from `states` (in turn order), summed
/// turn by turn as the distributions are stepped, the same products in the
/// same order, so that memory does not grow with the turns followed (at
/// ten million turns each player's distribution took 160 MB). Returns each
/// player's chance of winning, the probability that every player is still
/// going after the turns followed, and those turns.
fn race_within(
    chain: &Chain,
    states: &[crate::markov::chain::StateIndex],
    max_turns: usize,
) -> (Vec<f64>, f64, usize) {
    use crate::markov::tolerance;
    let n = chain.len();
    let q = distribution::split(chain);
    let mut f: Vec<f64> = chain
        .states()
        .map(|s| chain.finish_probability(s))
        .collect();
    let mut g = vec![1.0; n];
    let (mut f_next, mut g_next) = (vec![0.0; n], vec![0.0; n]);
    let mut win = vec![0.0; states.len()];
    let mut turns = 0;
    for _ in 0..max_turns.min(tolerance::MAX_DISTRIBUTION_TURNS) {
        q.step(&f, &g, &mut f_next, &mut g_next);
        turns += 1;
        // Turn t: f is P(T = t), g P(T > t − 1) and g_next P(T > t), each
        // from every state. Player i wins at t if the players before it
        // are still going after t turns and those after it after t − 1.
        for (i, me) in states.iter().enumerate() {
            let mut p = f[me.get()];
            if p == 0.0 {
                continue;
            }
            for (j, other) in states.iter().enumerate() {
                if j < i {
                    p *= g_next[other.get()];
                } else if j > i {
                    p *= g[other.get()];
                }
            }
            win[i] += p;
        }
        std::mem::swap(&mut g, &mut g_next);
        std::mem::swap(&mut f, &mut f_next);
        if states.iter().all(|s| g[s.get()] < tolerance::TAIL) {
            break;
        }
    }
    let left_out = states.iter().map(|s| g[s.get()]).product::<f64>();
    (win, left_out, turns)
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

    /// The race summed turn by turn gives the digits of the race over the
    /// stored distributions.
    #[test]
    fn the_streamed_race_is_the_stored_one() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let squares = [0, 10, 40, 60].map(crate::markov::chain::StateIndex::new);
        let stored = distribution::from_states_within(&chain, &squares, 1_000_000);
        let (win, left_out, turns) = race_within(&chain, &squares, 1_000_000);
        assert_eq!(win, super::super::players::race(&stored));
        assert_eq!(turns, stored[0].pmf.len());
        assert_eq!(left_out, stored.iter().map(|d| d.tail()).product::<f64>());
    }

    /// 52 squares and 38 snakes to square 1 (a mean of ten billion turns):
    /// a line's budget covers the race of many players too, and memory does
    /// not grow with the turns (issue 27: sixteen players were followed for
    /// the budget of two sparse products a turn alone, and each player's
    /// distribution was stored, 160 MB a player at ten million turns).
    #[test]
    fn a_line_of_odds_stays_within_its_work() {
        let snakes: Vec<String> = (2..52)
            .filter(|s| s % 4 != 0)
            .take(38)
            .map(|s| format!("[{s}, 1]"))
            .collect();
        let board = Board::from_json_str(&format!(
            r#"{{"squares": 52, "snakes": [{}]}}"#,
            snakes.join(",")
        ))
        .unwrap();
        let odds = LiveOdds::new(&board).unwrap();
        let players = 16;
        let max_work = 1e6;
        let live = odds
            .odds_within(&vec![Square::new(0); players], 0, max_work)
            .unwrap();
        let race = (live.turns * players * players) as f64;
        let stepping = live.turns as f64 * 2.0 * odds.chain.entries() as f64;
        assert!(race + stepping <= max_work, "{race} + {stepping}");
        assert!(live.left_out > 0.5, "{}", live.left_out);
    }

    #[test]
    fn errors_name_the_player() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        assert_eq!(live_odds(&chain, &[], 0), Err(AnalysisError::NoPlayers));
        let on_ladder = live_odds(&chain, &[Square::new(0), Square::new(1)], 0);
        assert_eq!(
            on_ladder,
            Err(AnalysisError::NotARestSquare {
                player: 1,
                square: Square::new(1)
            })
        );
    }
}
