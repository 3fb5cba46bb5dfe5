//! The shortest game: the fewest turns, one roll sequence achieving it, and
//! its probability.

use crate::{Board, Square};
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

/// The map of [`Index::Sparse`], with a fixed hash: hashing pairs of
/// integers is several times faster than with SipHash. (The sums no longer
/// follow a map's order, which once changed the last digits of the
/// shortest game's probability from run to run: nodes are numbered in the
/// order the search meets them.)
type Map<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// The shortest game of one player.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default())?;
let shortest = analysis.shortest.unwrap();
assert_eq!(shortest.turns, 3);
assert_eq!(shortest.rolls, [vec![3], vec![3], vec![6]]);
assert_eq!(shortest.path.iter().map(|s| s.get()).collect::<Vec<_>>(), [11, 14, 20]);
// Any of 3 + 3 + 6, 3 + 6 + ... : 1/72 in all.
assert!((shortest.probability - 1.0 / 72.0).abs() < 1e-12);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
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

/// A node's number. The search numbers nodes in the order it meets them,
/// so that every figure, down to the order of its sums, is the same
/// whichever [`Index`] looks the numbers up.
type Id = u32;

/// How many rolls of a turn matter to [`Board::play_roll`]: none when no
/// cap or forfeit counts them (then a mid-turn square behaves exactly as a
/// turn's start), else up to the cap or the forfeit.
#[derive(Copy, Clone)]
struct RollCount(u32);

impl RollCount {
    fn of(board: &Board) -> RollCount {
        RollCount(board.rules().extra_turn().map_or(0, |x| {
            let cap = x.max_extra().unwrap_or(0);
            let rule = match (x.max_extra(), x.forfeit_after()) {
                (None, None) => 0,
                (Some(_), None) => cap,
                (None, Some(f)) => f.saturating_sub(1),
                (Some(_), Some(f)) => cap.min(f.saturating_sub(1)),
            };
            rule.min(Self::longest_counted(board))
        }))
    }

    /// The most rolls of a turn the search tells apart: past it, a roll
    /// count behaves as "this many or more", with bonus rolls still
    /// granted (issue 27: a cap of 10⁸ made the search grow with the cap).
    ///
    /// Exact for the fewest turns: a turn that reaches a square needs no
    /// more rolls than the board has squares (a path of bonus rolls that
    /// comes back to a square can be cut short there, with fewer rolls
    /// counted, which a cap or a forfeit never forbids). For the
    /// probabilities, a turn of more than `L` rolls, where `p(on)^L`
    /// leaves the normal range of `f64`, is what the chain's compiler
    /// leaves out too ([`crate::markov::chain`]): below 2.2e-308.
    fn longest_counted(board: &Board) -> u32 {
        let ln_p = crate::markov::chain::Bonus::of(board).ln_p();
        let normal = (f64::MIN_POSITIVE.ln() / ln_p)
            .ceil()
            .clamp(1.0, f64::from(u32::MAX - 1));
        (normal as u32)
            .saturating_add(1)
            .max(board.last().get().saturating_add(1))
    }

    /// The node reached by a bonus roll from `k` rolls.
    fn next(self, k: u32) -> u32 {
        (k + 1).min(self.0)
    }
}

/// The most entries of an [`Index::Dense`] table: 2²⁴ numbers (64 MiB),
/// room for every board whose rolls are not counted (ten million squares
/// at most) and for small boards however many rolls count. A larger table
/// would mostly hold nodes the search never meets, so those boards use a
/// map.
const DENSE_MAX_NODES: usize = 1 << 24;

/// How [`Nodes`] looks up the number of a node.
enum Index {
    /// A table of every node, at `square × counts + rolls`, where `counts`
    /// is [`RollCount`] + 1; [`Nodes::NOT_MET`] for a node not met yet.
    /// A lookup is an array read instead of a hash.
    Dense { counts: usize, ids: Vec<Id> },
    /// A map of the nodes met, for boards whose table would be larger than
    /// [`DENSE_MAX_NODES`].
    Sparse(Map<Node, Id>),
}

/// The nodes the search has met, numbered in that order.
struct Nodes {
    index: Index,
    /// The node of each number.
    met: Vec<Node>,
}

impl Nodes {
    /// A node not met yet, in [`Index::Dense`].
    const NOT_MET: Id = Id::MAX;

    /// A table when the board's nodes fit in [`DENSE_MAX_NODES`], else a
    /// map.
    fn new(board: &Board, count: RollCount) -> Nodes {
        let counts = u64::from(count.0) + 1;
        let size = (u64::from(board.last().get()) + 1)
            .checked_mul(counts)
            .and_then(|size| usize::try_from(size).ok());
        match size {
            Some(size) if size <= DENSE_MAX_NODES => Nodes {
                index: Index::Dense {
                    counts: counts as usize,
                    ids: vec![Nodes::NOT_MET; size],
                },
                // Room for a node a square, all a board without counted
                // rolls can have, so that small boards never grow it.
                met: Vec::with_capacity(board.last().get() as usize + 1),
            },
            _ => Nodes::sparse(),
        }
    }

    /// Nodes looked up in a map, whatever the board.
    fn sparse() -> Nodes {
        Nodes {
            index: Index::Sparse(Map::default()),
            met: Vec::new(),
        }
    }

    /// The number of `node`, if met.
    fn get(&self, (square, k): Node) -> Option<Id> {
        match &self.index {
            Index::Dense { counts, ids } => {
                Some(ids[square as usize * counts + k as usize]).filter(|&id| id != Nodes::NOT_MET)
            }
            Index::Sparse(map) => map.get(&(square, k)).copied(),
        }
    }

    /// Numbers `node`, met for the first time.
    fn insert(&mut self, node: Node) -> Id {
        let id = Id::try_from(self.met.len())
            .ok()
            .filter(|&id| id != Nodes::NOT_MET)
            .expect("fewer than 2³² − 1 nodes");
        match &mut self.index {
            Index::Dense { counts, ids } => ids[node.0 as usize * *counts + node.1 as usize] = id,
            Index::Sparse(map) => {
                map.insert(node, id);
            }
        }
        self.met.push(node);
        id
    }

    /// The node numbered `id`.
    fn node(&self, id: Id) -> Node {
        self.met[id as usize]
    }

    /// How many nodes were met.
    fn len(&self) -> usize {
        self.met.len()
    }
}

/// A node the search has queued: where the entry that settles it comes
/// from, and whether it is settled.
#[derive(Copy, Clone)]
struct Visit {
    /// The turns completed before a roll from the node.
    turns: u32,
    /// The parent node and the roll from it.
    parent: Option<(Id, u32)>,
    settled: bool,
}

/// A 0-1 breadth-first search over the within-turn graph: a roll that
/// grants another costs no turn, any other roll ends the turn. Distances
/// are turns completed before the roll from a node; the search stops once
/// every node closer than the first finish is settled.
struct Search {
    /// The nodes met.
    nodes: Nodes,
    /// Each node met, once queued.
    visits: Vec<Option<Visit>>,
    /// The fewest turns, and the node and roll that finish them.
    finish: Option<(u32, Id, u32)>,
}

impl Search {
    /// The number of `node`, numbering it if it is met for the first time.
    fn meet(&mut self, node: Node) -> Id {
        self.nodes.get(node).unwrap_or_else(|| {
            self.visits.push(None);
            self.nodes.insert(node)
        })
    }

    /// The number of `node` if the search settled it at `turns`.
    fn at(&self, node: Node, turns: u32) -> Option<Id> {
        self.nodes
            .get(node)
            .filter(|&id| self.visits[id as usize].is_some_and(|v| v.settled && v.turns == turns))
    }
}

/// The search queues a node once per bonus roll that reaches it (each goes
/// to the front, so the latest is taken first) and at most once for the
/// rolls that end a turn (they go to the back, behind any entry of the
/// node already queued, which is at most one turn closer): so each node's
/// [`Visit`] can hold the turns and parent of the entry taken first, and
/// the queue only node numbers. Each node is settled at the same turns,
/// from the same parent, as if every entry carried its own.
fn search(board: &Board, count: RollCount, nodes: Nodes) -> Search {
    let outcomes = board.rules().dice().rolls();
    let mut found = Search {
        visits: Vec::with_capacity(nodes.met.capacity()),
        nodes,
        finish: None,
    };
    let start = found.meet((board.rules().start().get(), 0));
    found.visits[start as usize] = Some(Visit {
        turns: 0,
        parent: None,
        settled: false,
    });
    let mut queue: VecDeque<Id> = VecDeque::with_capacity(found.visits.capacity());
    queue.push_back(start);
    while let Some(id) = queue.pop_front() {
        let visit = found.visits[id as usize].as_mut().expect("a queued node");
        if visit.settled {
            continue;
        }
        let d = visit.turns;
        if found.finish.is_some_and(|(m, _, _)| d + 1 > m) {
            break;
        }
        visit.settled = true;
        let (square, k) = found.nodes.node(id);
        for o in outcomes {
            let step = board.roll_end(Square::new(square), k, o.total);
            let end = step.end.get();
            let from = Some((id, o.total));
            if step.extra_roll {
                let next = found.meet((end, count.next(k)));
                let visit = &mut found.visits[next as usize];
                if !visit.is_some_and(|v| v.settled) {
                    *visit = Some(Visit {
                        turns: d,
                        parent: from,
                        settled: false,
                    });
                    queue.push_front(next);
                }
            } else if step.finished {
                if found.finish.is_none_or(|(m, _, _)| d + 1 < m) {
                    found.finish = Some((d + 1, id, o.total));
                }
            } else {
                let next = found.meet((end, 0));
                let visit = &mut found.visits[next as usize];
                if visit.is_none() {
                    *visit = Some(Visit {
                        turns: d + 1,
                        parent: from,
                        settled: false,
                    });
                    queue.push_back(next);
                }
            }
        }
    }
    found
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

/// The log masses of the nodes of the shortest games. A node lies in one
/// turn only (the turn it was settled at), so the per-node arrays are
/// written in that turn alone and never cleared: a turn costs the nodes it
/// touches, not the board's size.
struct Masses {
    /// Each node's log mass relative to the turn's offset (−∞ until
    /// reached).
    ln: Vec<f64>,
    /// Whether a node is already in its turn's list.
    listed: Vec<bool>,
}

impl Masses {
    /// Lists node `id` in `turn` unless it is there already.
    fn list(&mut self, id: Id, turn: &mut Vec<Id>) {
        if !self.listed[id as usize] {
            self.listed[id as usize] = true;
            turn.push(id);
        }
    }

    /// Adds `ln_mass` to node `id`, listing it in `turn`.
    fn add(&mut self, id: Id, ln_mass: f64, turn: &mut Vec<Id>) {
        self.list(id, turn);
        self.ln[id as usize] = ln_add(self.ln[id as usize], ln_mass);
    }
}

/// The bonus rolls within a turn, for boards with an extra-turn rule: each
/// node has at most one bonus successor (its roll of [`ExtraTurn::on`]),
/// so a turn's nodes form trees, summed in order, and cycles (uncapped
/// bonus rolls that come back), summed in closed form,
/// `Σⱼ qʲ = 1/(1 − q)`.
///
/// [`ExtraTurn::on`]: crate::ExtraTurn::on
struct BonusRolls {
    /// The total that rolls again.
    on: u32,
    /// Its log probability.
    ln_p_on: f64,
    /// Each node's bonus successor in its turn, if any.
    successor: Vec<Option<Id>>,
    /// How many of a node's bonus predecessors are not summed yet.
    waiting: Vec<u32>,
    /// The nodes ready to pass their mass on, then the nodes on cycles:
    /// kept from turn to turn, so that a turn allocates nothing.
    ready: Vec<Id>,
    /// One cycle.
    cycle: Vec<Id>,
}

impl BonusRolls {
    fn of(board: &Board, nodes: usize) -> Option<BonusRolls> {
        let on = board.rules().extra_turn()?.on();
        Some(BonusRolls {
            on,
            ln_p_on: crate::markov::chain::Bonus::of(board).ln_p(),
            successor: vec![None; nodes],
            waiting: vec![0; nodes],
            ready: Vec::new(),
            cycle: Vec::new(),
        })
    }

    /// Lists the nodes of turn `t` after its starts (`turn`): the bonus
    /// successors settled at `t`, in the order met. Then adds to each node
    /// the mass its bonus predecessors pass on.
    fn spread(
        &mut self,
        board: &Board,
        count: RollCount,
        found: &Search,
        t: u32,
        turn: &mut Vec<Id>,
        masses: &mut Masses,
    ) {
        let mut i = 0;
        while i < turn.len() {
            let u = turn[i];
            i += 1;
            let (square, k) = found.nodes.node(u);
            let step = board.roll_end(Square::new(square), k, self.on);
            let next = if step.extra_roll {
                found.at((step.end.get(), count.next(k)), t)
            } else {
                None
            };
            self.successor[u as usize] = next;
            if let Some(v) = next {
                self.waiting[v as usize] += 1;
                masses.list(v, turn);
            }
        }
        // The trees, each node once all its predecessors are summed.
        let ready = &mut self.ready;
        ready.clear();
        ready.extend(turn.iter().filter(|&&u| self.waiting[u as usize] == 0));
        while let Some(u) = ready.pop() {
            if let Some(v) = self.successor[u as usize] {
                let (u, v) = (u as usize, v as usize);
                masses.ln[v] = ln_add(masses.ln[v], masses.ln[u] + self.ln_p_on);
                self.waiting[v] -= 1;
                if self.waiting[v] == 0 {
                    ready.push(v as Id);
                }
            }
        }
        // What is left lies on cycles of bonus rolls, each taken from its
        // first node (square, then rolls).
        let on_cycle = &mut self.ready;
        on_cycle.extend(turn.iter().filter(|&&u| self.waiting[u as usize] > 0));
        on_cycle.sort_unstable_by_key(|&u| found.nodes.node(u));
        for &first in on_cycle.iter() {
            if self.waiting[first as usize] == 0 {
                continue;
            }
            let cycle = &mut self.cycle;
            cycle.clear();
            cycle.push(first);
            while let Some(n) = self.successor[*cycle.last().expect("nonempty") as usize] {
                if n == first {
                    break;
                }
                cycle.push(n);
            }
            let l = cycle.len();
            let ln = &mut masses.ln;
            // M(u₀) = Σⱼ pʲ·in(u₋ⱼ) / (1 − pᴸ).
            let mut top = f64::NEG_INFINITY;
            for j in 0..l {
                let u = cycle[(l - j) % l] as usize;
                top = ln_add(top, j as f64 * self.ln_p_on + ln[u]);
            }
            let ln_one_minus = (-(l as f64 * self.ln_p_on).exp_m1()).ln();
            let mut previous = top - ln_one_minus;
            ln[first as usize] = previous;
            for &u in &cycle[1..] {
                previous = ln_add(ln[u as usize], self.ln_p_on + previous);
                ln[u as usize] = previous;
            }
            for &u in cycle.iter() {
                self.waiting[u as usize] = 0;
            }
        }
    }
}

/// `ln P(T = m)` for the fewest turns `m`, by a forward pass over the
/// turns in log space: only nodes the search settled at the turn they are
/// reached can lie on a game of `m` turns (reaching a node later than its
/// distance leaves more than `m − t` turns to go), so each turn touches
/// only the nodes of its own distance. Within a turn the bonus rolls move
/// mass along their own graph ([`BonusRolls`]). Each node's mass is summed
/// in the order its turn's nodes were reached (the turn before in its own
/// order, each node's rolls in the dice's order), the same in every
/// process.
fn ln_probability(board: &Board, count: RollCount, found: &Search, m: u32) -> f64 {
    let outcomes = board.rules().dice().rolls();
    let ln_p: Vec<f64> = outcomes.iter().map(|o| o.probability.ln()).collect();
    let mut bonus = BonusRolls::of(board, found.nodes.len());
    let mut masses = Masses {
        ln: vec![f64::NEG_INFINITY; found.nodes.len()],
        listed: vec![false; found.nodes.len()],
    };
    let start = found
        .at((board.rules().start().get(), 0), 0)
        .expect("the search settles the start first");
    let mut turn = Vec::with_capacity(found.nodes.len());
    masses.add(start, 0.0, &mut turn);
    let mut next = Vec::with_capacity(found.nodes.len());
    let mut finished = f64::NEG_INFINITY;
    // The masses are kept relative to `offset`, renormalised every turn so
    // that they stay near 0 and keep their precision; `offset` itself is a
    // compensated sum (Neumaier), so thousands of turns do not accumulate
    // its rounding.
    let (mut offset, mut carry) = (0.0_f64, 0.0_f64);
    for t in 0..m {
        if let Some(bonus) = &mut bonus {
            bonus.spread(board, count, found, t, &mut turn, &mut masses);
        }
        // The rolls that end the turn.
        next.clear();
        for &u in &turn {
            let ln_mass = masses.ln[u as usize];
            if ln_mass == f64::NEG_INFINITY {
                continue;
            }
            let (square, k) = found.nodes.node(u);
            for (o, ln_p) in outcomes.iter().zip(&ln_p) {
                let step = board.roll_end(Square::new(square), k, o.total);
                if step.extra_roll {
                    continue;
                }
                let add = ln_mass + ln_p;
                if step.finished {
                    if t + 1 == m {
                        finished = ln_add(finished, add);
                    }
                } else if t + 1 < m
                    && let Some(v) = found.at((step.end.get(), 0), t + 1)
                {
                    masses.add(v, add, &mut next);
                }
            }
        }
        let shift = next
            .iter()
            .map(|&v| masses.ln[v as usize])
            .fold(f64::NEG_INFINITY, f64::max);
        if shift.is_finite() {
            for &v in &next {
                masses.ln[v as usize] -= shift;
            }
            let sum = offset + shift;
            carry += if offset.abs() >= shift.abs() {
                (offset - sum) + shift
            } else {
                (shift - sum) + offset
            };
            offset = sum;
        }
        std::mem::swap(&mut turn, &mut next);
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
    shortest_in(board, Nodes::new(board, RollCount::of(board)))
}

/// [`shortest`], numbering the nodes in `nodes`.
fn shortest_in(board: &Board, nodes: Nodes) -> Option<Shortest> {
    let count = RollCount::of(board);
    let found = search(board, count, nodes);
    let (m, mut id, roll) = found.finish?;
    let dice = board.rules().dice();
    // Walk back from the finishing roll, a turn ending at each roll that
    // was not a bonus roll.
    let mut turns: Vec<Vec<u32>> = vec![vec![roll]];
    let mut path = vec![board.last()];
    let mut ln_sequence = dice.probability(roll).ln();
    while let Some(Visit {
        parent: Some((parent, parent_roll)),
        ..
    }) = found.visits[id as usize]
    {
        ln_sequence += dice.probability(parent_roll).ln();
        let node = found.nodes.node(id);
        if node.1 == 0 && !is_bonus(board, found.nodes.node(parent), parent_roll) {
            turns.push(Vec::new());
            path.push(Square::new(node.0));
        }
        turns.last_mut().expect("a turn").push(parent_roll);
        id = parent;
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
/// use snakeladder::internals::probability_text;
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

    /// A game longer than `LISTED_TURNS` shows its first and last turns
    /// around a count of the ones left out (the example `rolls_text` gave).
    #[test]
    fn a_long_shortest_game_is_one_line() {
        let long = Shortest {
            turns: 40,
            rolls: vec![vec![6]; 40],
            path: Vec::new(),
            sequence_probability: 6f64.powi(-40),
            sequence_probability_log10: -40.0 * 6f64.log10(),
            probability: 6f64.powi(-40),
            probability_log10: -40.0 * 6f64.log10(),
        };
        let text = long.rolls_text(" ");
        assert!(text.contains("… 16 more turns …"));
        assert_eq!(text.split(' ').filter(|r| *r == "6").count(), 24);
    }

    fn board(json: &str) -> Board {
        Board::from_json_str(json).expect("valid test board")
    }

    /// A cap or a forfeit of 10⁸ or 2³²−1 rolls is searched as fast as a
    /// cap of a thousand, and gives its figures (issue 27: the search grew
    /// with the cap and hung).
    #[test]
    fn a_huge_roll_cap_is_searched_as_a_bounded_one() {
        let json = |rule: &str| {
            board(&format!(
                r#"{{"squares": 100, "snakes": [[98, 2], [50, 3]],
                    "rules": {{"extra_turn": {{"on": 6, {rule}}}}}}}"#
            ))
        };
        let start = std::time::Instant::now();
        let bounded = shortest(&json(r#""max_extra": 1000"#)).unwrap();
        for rule in [
            r#""max_extra": 100000000"#,
            r#""max_extra": 4294967295"#,
            r#""forfeit_after": 4294967295"#,
        ] {
            let s = shortest(&json(rule)).unwrap();
            assert_eq!(s.turns, bounded.turns, "{rule}");
            assert_eq!(s.probability, bounded.probability, "{rule}");
        }
        assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
        assert!(RollCount::of(&json(r#""max_extra": 4294967295"#)).0 < 1000);
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
    fn a_bonus_roll_that_stays_put_is_a_cycle_summed_in_closed_form() {
        // 10 squares, a 6 rolls again without cap: a 6 from 0 reaches 6,
        // where a 6 overshoots and stays, rolling again, until a 4 finishes.
        // P(T = 1) = 1/6 · Σⱼ (1/6)ʲ · 1/6 = 1/30.
        let b = board(r#"{"squares": 10, "rules": {"extra_turn": {"on": 6}}}"#);
        let s = shortest(&b).unwrap();
        assert_eq!(s.turns, 1);
        assert_eq!(s.rolls, vec![vec![6, 4]]);
        let p = 1.0 / 30.0;
        assert!((s.probability - p).abs() < 1e-14 * p, "{:e}", s.probability);
    }

    #[test]
    fn a_map_numbers_the_nodes_as_the_table_does() {
        // Boards too large for the table look nodes up in a map; both
        // number them in the order met, so every figure is bit for bit the
        // same: plain moves, a cap, a forfeit, bonus rolls that merge and
        // cycles.
        for json in [
            include_str!("../../../boards/milton-bradley.json"),
            include_str!("../../../boards/variant-extra-turn.json"),
            include_str!("../../../boards/variant-three-sixes.json"),
            include_str!("../../../boards/variant-two-dice.json"),
            r#"{"squares": 10, "rules": {"extra_turn": {"on": 6}}}"#,
            r#"{"squares": 60, "snakes": [[13, 7], [31, 1]], "ladders": [[2, 19], [4, 19]],
                "rules": {"extra_turn": {"on": 6}}}"#,
        ] {
            let b = board(json);
            let count = RollCount::of(&b);
            assert!(matches!(Nodes::new(&b, count).index, Index::Dense { .. }));
            let table = shortest(&b).unwrap();
            let map = shortest_in(&b, Nodes::sparse()).unwrap();
            assert_eq!(table, map, "{json}");
            assert_eq!(table.probability.to_bits(), map.probability.to_bits());
        }
    }

    #[test]
    fn a_million_counted_rolls_look_nodes_up_in_a_map() {
        // A million roll counts are searched as at most max(squares + 1,
        // the rolls f64 can tell apart) (`RollCount::longest_counted`), so
        // 5,001 squares × 5,001 counts is over the table's size while 101 ×
        // 100 is not (the map's figures are the table's: see the test above).
        let index = |squares: u32, forfeit_after: u32| {
            let b = board(&format!(
                r#"{{"squares": {squares}, "rules": {{"extra_turn": {{"on": 6, "forfeit_after": {forfeit_after}}}}}}}"#
            ));
            Nodes::new(&b, RollCount::of(&b)).index
        };
        assert!(matches!(index(100, 100), Index::Dense { counts: 100, .. }));
        assert!(matches!(index(5_000, 1_000_000), Index::Sparse(_)));
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
