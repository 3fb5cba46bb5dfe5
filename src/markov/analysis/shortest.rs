//! The shortest game: the fewest turns, one roll sequence achieving it, and
//! its probability.

use crate::markov::chain::{Chain, StateIndex, Target};
use crate::{Board, Square};
use serde::Serialize;
use std::collections::VecDeque;

/// The shortest game of one player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shortest {
    /// The fewest turns that can finish.
    pub turns: usize,
    /// One roll sequence that finishes in that many turns, turn by turn (a
    /// turn has several rolls when extra rolls are on).
    pub rolls: Vec<Vec<u32>>,
    /// The squares where those turns end, the finish last.
    pub path: Vec<Square>,
    /// The probability of exactly that roll sequence.
    pub sequence_probability: f64,
}

impl Shortest {
    /// Each turn's rolls as text for people: `"4"`, or `"6+6+3"` for a turn
    /// with extra rolls.
    pub fn turn_rolls(&self) -> Vec<String> {
        self.rolls
            .iter()
            .map(|turn| {
                turn.iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect()
    }

    /// The turns' rolls as one line of text, joined by `separator`; a game
    /// longer than `LISTED_TURNS` shows its first and last turns around
    /// a count of the ones left out, so that a huge board's line stays a
    /// line.
    ///
    /// ```
    /// use snakeladder::analysis::Shortest;
    ///
    /// let long = Shortest {
    ///     turns: 40,
    ///     rolls: vec![vec![6]; 40],
    ///     path: Vec::new(),
    ///     sequence_probability: 6f64.powi(-40),
    /// };
    /// let text = long.rolls_text(" ");
    /// assert!(text.contains("… 16 more turns …"));
    /// assert_eq!(text.split(' ').filter(|r| *r == "6").count(), 24);
    /// ```
    pub fn rolls_text(&self, separator: &str) -> String {
        let rolls = self.turn_rolls();
        if rolls.len() <= LISTED_TURNS {
            return rolls.join(separator);
        }
        let keep = LISTED_TURNS / 2;
        format!(
            "{first}{separator}… {left_out} more turns …{separator}{last}",
            first = rolls[..keep].join(separator),
            left_out = rolls.len() - 2 * keep,
            last = rolls[rolls.len() - keep..].join(separator),
        )
    }
}

/// The most turns [`Shortest::rolls_text`] lists in full.
pub const LISTED_TURNS: usize = 24;

/// A breadth-first search over the turns of the chain; the roll sequence of
/// each turn is recovered from [`Board::play_roll`]. `None` if the finish
/// cannot be reached (never, for a chain that solves).
pub fn shortest(board: &Board, chain: &Chain) -> Option<Shortest> {
    let n = chain.len();
    let mut parent: Vec<Option<StateIndex>> = vec![None; n];
    let mut seen = vec![false; n];
    let start = chain.start();
    seen[start.get()] = true;
    let mut queue = VecDeque::from([start]);
    let mut last = None;
    'search: while let Some(s) = queue.pop_front() {
        for tr in chain.row(s).filter(|t| t.probability > 0.0) {
            match tr.to {
                Target::Finish => {
                    last = Some(s);
                    break 'search;
                }
                Target::State(e) if !seen[e.get()] => {
                    seen[e.get()] = true;
                    parent[e.get()] = Some(s);
                    queue.push_back(e);
                }
                Target::State(_) => {}
            }
        }
    }
    let mut states = vec![last?];
    while let Some(p) = parent[states.last()?.get()] {
        states.push(p);
    }
    states.reverse();
    let mut ends: Vec<Square> = states[1..].iter().map(|&s| chain.square(s)).collect();
    ends.push(chain.finish());
    let mut rolls = Vec::new();
    let mut probability = 1.0;
    for (&s, &end) in states.iter().zip(&ends) {
        let (turn, p) = turn_to(board, chain.square(s), end)?;
        rolls.push(turn);
        probability *= p;
    }
    Some(Shortest {
        turns: rolls.len(),
        rolls,
        path: ends,
        sequence_probability: probability,
    })
}

/// The shortest roll sequence of one turn from `from` that ends on `end`,
/// and its probability: bonus rolls then a last roll.
fn turn_to(board: &Board, from: Square, end: Square) -> Option<(Vec<u32>, f64)> {
    let dice = board.rules().dice();
    let mut square = from;
    let mut rolls = Vec::new();
    let mut probability = 1.0;
    // A turn's bonus rolls follow one path; it is at most as long as the
    // board before it repeats.
    for before in 0..=board.last().get() {
        for o in dice.outcomes() {
            let step = board.play_roll(square, before, o.total);
            if !step.extra_roll && step.mv.end == end {
                rolls.push(o.total);
                return Some((rolls, probability * o.probability));
            }
        }
        let x = board.rules().extra_turn()?;
        let step = board.play_roll(square, before, x.on());
        if !step.extra_roll {
            return None;
        }
        rolls.push(x.on());
        probability *= dice.probability(x.on());
        square = step.mv.end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_board_finishes_in_seven_turns_at_best() {
        let board = Board::builtin_default();
        let chain = Chain::compile(&board).unwrap();
        let s = shortest(&board, &chain).unwrap();
        assert_eq!(s.turns, 7);
        assert_eq!(s.path.last(), Some(&Square::new(100)));
        // One roll a turn, each with probability 1/6.
        assert!(s.rolls.iter().all(|t| t.len() == 1));
        assert!((s.sequence_probability - 6f64.powi(-7)).abs() < 1e-18);
    }
}
