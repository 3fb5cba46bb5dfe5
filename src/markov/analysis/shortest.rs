//! The shortest game: the fewest turns, one roll sequence achieving it, and
//! its probability.

use crate::{Board, Square};
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};

/// A map with a fixed hash: the order in which the search visits nodes,
/// and so the order in which it adds probabilities, is the same in every
/// process (the standard map's random seed changed the last digits of the
/// shortest game's probability from run to run), and hashing pairs of
/// integers is several times faster than with SipHash.
type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;
/// The set of the same hash ([`Map`]).
type Set<K> = HashSet<K, foldhash::fast::FixedState>;

/// The shortest game of one player.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Shortest {
    /// The fewest turns that can finish.
    pub turns: usize,
    /// One roll sequence that finishes in that many turns, turn by turn (a
    /// turn has several rolls when extra rolls are on).
    pub rolls: Vec<Vec<u32>>,
    /// The squares where those turns end, the finish last.
    pub path: Vec<Square>,
    /// The probability of exactly that roll sequence (0 when it is below
    /// the range of `f64`; see `sequence_probability_log10`).
    pub sequence_probability: f64,
    /// Its base-10 logarithm, finite however small the probability.
    pub sequence_probability_log10: f64,
    /// `P(T = turns)`: the probability that a game takes exactly the fewest
    /// turns, over every roll sequence that does (0 only when it is below
    /// the range of `f64`; see `probability_log10`).
    pub probability: f64,
    /// Its base-10 logarithm, computed in log space (never underflows).
    pub probability_log10: f64,
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
    ///     sequence_probability_log10: -40.0 * 6f64.log10(),
    ///     probability: 6f64.powi(-40),
    ///     probability_log10: -40.0 * 6f64.log10(),
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

/// A node of the within-turn graph: a square and the rolls already made
/// in the turn (0 at a turn's start), as [`Board::play_roll`] needs them.
/// The rolls are clamped to the largest count that still changes what a
/// roll does (see [`RollCount`]), so the graph is finite.
type Node = (u32, u32);

/// A node waiting in the search: the node, its turns, and where it came
/// from (parent and roll).
type Pending = (Node, u32, Option<(Node, u32)>);

/// How many rolls of a turn matter to [`Board::play_roll`]: none when no
/// cap or forfeit counts them (then a mid-turn square behaves exactly as a
/// turn's start), else up to the cap or the forfeit.
#[derive(Copy, Clone)]
struct RollCount(u32);

impl RollCount {
    fn of(board: &Board) -> RollCount {
        RollCount(board.rules().extra_turn().map_or(0, |x| {
            let cap = x.max_extra().unwrap_or(0);
            match (x.max_extra(), x.forfeit_after()) {
                (None, None) => 0,
                (Some(_), None) => cap,
                (None, Some(f)) => f.saturating_sub(1),
                (Some(_), Some(f)) => cap.min(f.saturating_sub(1)),
            }
        }))
    }

    /// The node reached by a bonus roll from `k` rolls.
    fn next(self, k: u32) -> u32 {
        (k + 1).min(self.0)
    }
}

/// A 0-1 breadth-first search over the within-turn graph: a roll that
/// grants another costs no turn, any other roll ends the turn. Distances
/// are turns completed before the roll from a node; the search stops once
/// every node closer than the first finish is settled.
struct Search {
    /// Settled nodes: (turns completed, parent node, roll from the parent).
    settled: Map<Node, (u32, Option<(Node, u32)>)>,
    /// The fewest turns, and the node and roll that finish them.
    finish: Option<(u32, Node, u32)>,
}

fn search(board: &Board, count: RollCount) -> Search {
    let outcomes = board.rules().dice().outcomes();
    let start: Node = (board.rules().start().get(), 0);
    let mut settled: Map<Node, (u32, Option<(Node, u32)>)> = Map::default();
    let mut queue: VecDeque<Pending> = VecDeque::from([(start, 0, None)]);
    let mut finish: Option<(u32, Node, u32)> = None;
    while let Some((node, d, parent)) = queue.pop_front() {
        if settled.contains_key(&node) {
            continue;
        }
        if finish.is_some_and(|(m, _, _)| d + 1 > m) {
            break;
        }
        settled.insert(node, (d, parent));
        let (square, k) = node;
        for o in outcomes {
            let step = board.roll_end(Square::new(square), k, o.total);
            let end = step.end.get();
            if step.extra_roll {
                let next = (end, count.next(k));
                if !settled.contains_key(&next) {
                    queue.push_front((next, d, Some((node, o.total))));
                }
            } else if step.finished {
                if finish.is_none_or(|(m, _, _)| d + 1 < m) {
                    finish = Some((d + 1, node, o.total));
                }
            } else {
                let next = (end, 0);
                if !settled.contains_key(&next) {
                    queue.push_back((next, d + 1, Some((node, o.total))));
                }
            }
        }
    }
    Search { settled, finish }
}

/// `ln(eᵃ + eᵇ)` without overflow or underflow.
fn ln_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// `ln P(T = m)` for the fewest turns `m`, by a forward pass over the
/// turns in log space: only nodes the search settled at the turn they are
/// reached can lie on a game of `m` turns (reaching a node later than its
/// distance leaves more than `m − t` turns to go), so each turn touches
/// only the nodes of its own distance. Within a turn the bonus rolls form a
/// graph in which each node has at most one successor; its trees are
/// summed in order and its cycles (uncapped bonus rolls that come back) in
/// closed form, `Σⱼ qʲ = 1/(1 − q)`.
fn ln_probability(board: &Board, count: RollCount, found: &Search, m: u32) -> f64 {
    let outcomes = board.rules().dice().outcomes();
    let bonus = crate::markov::chain::Bonus::of(board);
    let ln_p_on = if bonus.miss < 0.5 {
        (-bonus.miss).ln_1p()
    } else {
        bonus.p.ln()
    };
    let on = board.rules().extra_turn().map(|x| x.on());
    let at = |node: &Node| found.settled.get(node).map(|v| v.0);
    let mut starts: Map<Node, f64> = Map::from_iter([((board.rules().start().get(), 0), 0.0)]);
    let mut finished = f64::NEG_INFINITY;
    // The masses are kept relative to `offset`, renormalised every turn so
    // that they stay near 0 and keep their precision; `offset` itself is a
    // compensated sum (Neumaier), so thousands of turns do not accumulate
    // its rounding.
    let (mut offset, mut carry) = (0.0_f64, 0.0_f64);
    for t in 0..m {
        // The nodes of this turn: bonus successors of the starts, kept while
        // settled at t.
        let successor = |node: Node| -> Option<Node> {
            let on = on?;
            let step = board.roll_end(Square::new(node.0), node.1, on);
            let next = (step.end.get(), count.next(node.1));
            (step.extra_roll && at(&next) == Some(t)).then_some(next)
        };
        let mut mass: Map<Node, f64> = Map::default();
        let mut next_of: Map<Node, Option<Node>> = Map::default();
        let mut stack: Vec<Node> = starts.keys().copied().collect();
        while let Some(node) = stack.pop() {
            if next_of.contains_key(&node) {
                continue;
            }
            let next = successor(node);
            next_of.insert(node, next);
            mass.insert(
                node,
                starts.get(&node).copied().unwrap_or(f64::NEG_INFINITY),
            );
            if let Some(n) = next {
                stack.push(n);
            }
        }
        let mut indegree: Map<Node, u32> = next_of.keys().map(|&n| (n, 0)).collect();
        for n in next_of.values().flatten() {
            *indegree.get_mut(n).expect("a successor is a node") += 1;
        }
        let mut ready: Vec<Node> = indegree
            .iter()
            .filter(|(_, d)| **d == 0)
            .map(|(n, _)| *n)
            .collect();
        while let Some(node) = ready.pop() {
            if let Some(n) = next_of[&node] {
                let add = mass[&node] + ln_p_on;
                let to = mass.get_mut(&n).expect("a successor is a node");
                *to = ln_add(*to, add);
                let d = indegree.get_mut(&n).expect("a successor is a node");
                *d -= 1;
                if *d == 0 {
                    ready.push(n);
                }
            }
        }
        // What is left lies on cycles of bonus rolls.
        let mut on_cycle: Vec<Node> = indegree
            .iter()
            .filter(|(_, d)| **d > 0)
            .map(|(n, _)| *n)
            .collect();
        on_cycle.sort_unstable();
        let mut done: Set<Node> = Set::default();
        for &first in &on_cycle {
            if done.contains(&first) {
                continue;
            }
            let mut cycle = vec![first];
            while let Some(n) = next_of[cycle.last().expect("nonempty")] {
                if n == first {
                    break;
                }
                cycle.push(n);
            }
            let l = cycle.len();
            // M(u₀) = Σⱼ pʲ·in(u₋ⱼ) / (1 − pᴸ).
            let mut top = f64::NEG_INFINITY;
            for j in 0..l {
                let u = cycle[(l - j) % l];
                top = ln_add(top, j as f64 * ln_p_on + mass[&u]);
            }
            let ln_one_minus = (-(l as f64 * ln_p_on).exp_m1()).ln();
            let mut previous = top - ln_one_minus;
            let mut full = vec![previous];
            for &u in &cycle[1..] {
                previous = ln_add(mass[&u], ln_p_on + previous);
                full.push(previous);
            }
            for (u, v) in cycle.iter().zip(full) {
                mass.insert(*u, v);
                done.insert(*u);
            }
        }
        // The rolls that end the turn.
        let mut next_starts: Map<Node, f64> = Map::default();
        for (&(square, k), &ln_mass) in &mass {
            if ln_mass == f64::NEG_INFINITY {
                continue;
            }
            for o in outcomes {
                let step = board.roll_end(Square::new(square), k, o.total);
                if step.extra_roll {
                    continue;
                }
                let add = ln_mass + o.probability.ln();
                if step.finished {
                    if t + 1 == m {
                        finished = ln_add(finished, add);
                    }
                } else {
                    let node = (step.end.get(), 0);
                    if t + 1 < m && at(&node) == Some(t + 1) {
                        let to = next_starts.entry(node).or_insert(f64::NEG_INFINITY);
                        *to = ln_add(*to, add);
                    }
                }
            }
        }
        let shift = next_starts
            .values()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if shift.is_finite() {
            for v in next_starts.values_mut() {
                *v -= shift;
            }
            let sum = offset + shift;
            carry += if offset.abs() >= shift.abs() {
                (offset - sum) + shift
            } else {
                (shift - sum) + offset
            };
            offset = sum;
        }
        starts = next_starts;
    }
    finished + offset + carry
}

/// The shortest game, found from the moves alone ([`Board::play_roll`]),
/// never from the compiled kernel's probabilities: a breadth-first search
/// over the turns (a roll that grants another costs no turn), then one roll
/// sequence that achieves it and `P(T = min)` in log space, so that neither
/// a dropped path nor an underflow can hide a game. `None` if the finish
/// cannot be reached.
pub fn shortest(board: &Board) -> Option<Shortest> {
    let count = RollCount::of(board);
    let found = search(board, count);
    let (m, mut node, roll) = found.finish?;
    let dice = board.rules().dice();
    // Walk back from the finishing roll, a turn ending at each roll that
    // was not a bonus roll.
    let mut turns: Vec<Vec<u32>> = vec![vec![roll]];
    let mut path = vec![board.last()];
    let mut ln_sequence = dice.probability(roll).ln();
    while let Some(&(_, Some((parent, parent_roll)))) = found.settled.get(&node) {
        ln_sequence += dice.probability(parent_roll).ln();
        if node.1 == 0 && !is_bonus(board, parent, parent_roll) {
            turns.push(Vec::new());
            path.push(Square::new(node.0));
        }
        turns.last_mut().expect("a turn").push(parent_roll);
        node = parent;
    }
    for turn in &mut turns {
        turn.reverse();
    }
    turns.reverse();
    path.reverse();
    let ln_min = ln_probability(board, count, &found, m);
    Some(Shortest {
        turns: m as usize,
        rolls: turns,
        path,
        sequence_probability: ln_sequence.exp(),
        sequence_probability_log10: ln_sequence / std::f64::consts::LN_10,
        probability: ln_min.exp(),
        probability_log10: ln_min / std::f64::consts::LN_10,
    })
}

/// Whether `roll` from `node` grants another roll.
fn is_bonus(board: &Board, node: Node, roll: u32) -> bool {
    board.roll_end(Square::new(node.0), node.1, roll).extra_roll
}

/// A probability given by its base-10 logarithm, as people read it: fixed
/// point when it is at least 1e-4, else scientific notation with four
/// significant digits (`9.901e-21`, `3.517e-129710`), however small: the
/// exponent is not bound by the range of `f64`.
///
/// ```
/// use snakeladder::analysis::probability_text;
/// assert_eq!(probability_text(0.5f64.log10()), "0.500000");
/// assert_eq!(probability_text(9.901e-21f64.log10()), "9.901e-21");
/// assert_eq!(probability_text(-129709.5), "3.162e-129710");
/// assert_eq!(probability_text(f64::NEG_INFINITY), "0");
/// ```
pub fn probability_text(log10: f64) -> String {
    if log10 == f64::NEG_INFINITY {
        return "0".to_string();
    }
    if log10 >= -4.0 {
        return format!("{:.6}", 10f64.powf(log10));
    }
    let mut exponent = log10.floor();
    let mut mantissa = 10f64.powf(log10 - exponent);
    if format!("{mantissa:.3}").starts_with("10") {
        mantissa /= 10.0;
        exponent += 1.0;
    }
    format!("{mantissa:.3}e{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markov::chain::Chain;

    fn board(json: &str) -> Board {
        Board::from_json_str(json).expect("valid test board")
    }

    #[test]
    fn default_board_finishes_in_seven_turns_at_best() {
        let board = Board::builtin_default();
        let s = shortest(&board).unwrap();
        assert_eq!(s.turns, 7);
        assert_eq!(s.path.last(), Some(&Square::new(100)));
        assert_eq!(s.path.len(), 7);
        // One roll a turn, each with probability 1/6.
        assert!(s.rolls.iter().all(|t| t.len() == 1));
        assert!((s.sequence_probability - 6f64.powi(-7)).abs() < 1e-18);
        // P(T = 7) = 73/46656 (the distribution's test).
        let p = 73.0 / 46656.0;
        assert!((s.probability - p).abs() < 1e-14 * p);
        assert!((s.probability_log10 - p.log10()).abs() < 1e-13);
    }

    #[test]
    fn a_game_won_by_a_long_run_of_unlikely_bonus_rolls() {
        // Ten 1s then a 2, or twelve 1s: one turn, with probability
        // 0.99e-20 + 1e-24 (issue 13's first board).
        let b = board(
            r#"{"squares": 12, "rules": {"dice": {"weights": [1, 99]},
                "extra_turn": {"on": 1}}}"#,
        );
        let s = shortest(&b).unwrap();
        assert_eq!(s.turns, 1);
        assert_eq!(s.rolls[0].len(), 11);
        let p = 0.99e-20 + 1e-24;
        assert!((s.probability - p).abs() < 1e-12 * p, "{:e}", s.probability);
        assert_eq!(probability_text(s.probability_log10), "9.901e-21");
    }

    #[test]
    fn twenty_five_sixes_finish_in_one_turn() {
        // 150 squares, a 6 rolls again without cap: 24 sixes reach 144, a
        // 6 more reaches 150 in the same turn.
        let b = board(r#"{"squares": 150, "rules": {"extra_turn": {"on": 6}}}"#);
        let s = shortest(&b).unwrap();
        assert_eq!(s.turns, 1);
        // The kernel keeps every path of this board: P(T = 1) agrees.
        let chain = Chain::compile(&b).unwrap();
        let p = chain.finish_probability(chain.start());
        assert!(p > 0.0);
        assert!(
            (s.probability - p).abs() < 1e-12 * p,
            "{:e} {p:e}",
            s.probability
        );
    }

    #[test]
    fn a_huge_board_has_a_tiny_but_positive_shortest_game() {
        // 100,000 squares of nothing, d6: 16,667 turns at best, with a
        // probability far below the range of f64.
        let b = board(r#"{"squares": 100000}"#);
        let s = shortest(&b).unwrap();
        assert_eq!(s.turns, 16_667);
        assert_eq!(s.probability, 0.0);
        // 16,667 rolls summing to 100,000 fall 2 short of all sixes: one 4
        // or two 5s, n + n(n − 1)/2 = n(n + 1)/2 sequences for n = 16,667.
        let n = 16_667.0_f64;
        let expected = (n * (n + 1.0) / 2.0).log10() - n * 6f64.log10();
        assert!(
            (s.probability_log10 - expected).abs() < 1e-11,
            "{} {expected}",
            s.probability_log10
        );
    }

    #[test]
    fn probability_text_rounds_into_the_next_decade() {
        assert_eq!(probability_text((9.99999e-7f64).log10()), "1.000e-6");
        assert_eq!(probability_text((1e-4f64).log10()), "0.000100");
    }
}
