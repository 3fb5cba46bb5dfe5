//! The compiler from a [`Board`] to an absorbing Markov chain over turns.
//!
//! A [`Chain`] has one transient state per square a token can stand on
//! between turns (a rest square reachable from the start; jump starts never
//! are), numbered by [`StateIndex`] in increasing order of square, and one
//! absorbing state, the finish. One step of the chain is one **turn**: when
//! extra rolls are on, a row covers every roll sequence of the turn.
//!
//! The kernel is stored sparse, in compressed rows (CSR): each row holds at
//! most a few entries per roll of the turn, so a board of a million squares
//! compiles to a few million entries, never to a dense matrix. Beside the
//! kernel, the chain carries the per-turn rewards every figure needs:
//! expected rolls and squared rolls, expected uses of each jump, expected
//! rests on each square (mid-turn rests included).
//!
//! # How a row is built
//! Only by calling [`Board::play_roll`] over the exact distribution of the
//! dice total ([`Dice::outcomes`](crate::Dice::outcomes)); nothing here
//! re-implements movement. Within a turn, every roll but the last is a roll
//! of the bonus total `on`, so a turn that goes on follows one path: the
//! squares `s₀ = s, s₁, s₂, …` reached by successive bonus rolls, each
//! reached with probability `p(on)ᵏ`. Every other roll from `sₖ` ends the
//! turn. So the matrix B of docs/turn-kernel.md §4 (bonus rolls that do not finish) has
//! at most one entry per row, and `K = (I − B)⁻¹A = Σₖ BᵏA` is a sum along
//! that single path:
//! - with a cap (`max_extra`) or a forfeit (`forfeit_after`) the path is at
//!   most that long ([`Board::play_roll`] ends it);
//! - with neither, the path either finishes or returns to a square already
//!   on it (the state within the turn is only the square), after which it
//!   repeats forever with ratio `q = p(on)ᴸ` for a cycle of length L. The
//!   repetition is summed in closed form, `Σⱼ qʲ = 1/(1 − q)`, exactly.
//!
//! `1 − q` is computed from the complement of `p(on)` (the other totals'
//! probabilities), never as `1 − q` in `f64`, so a die whose bonus total
//! has probability within an ulp of 1 still gets rows that sum to 1.
//!
//! No path is left out while its probability is a normal `f64`: the `f64`
//! rows follow a turn until it ends, repeats, or the probability that it is
//! still going falls below `f64::MIN_POSITIVE` (2.2e-308), where rounding
//! of a row sum of 1 is 1e-16; that remainder is reported by
//! [`Chain::dropped`]. Exact mode builds its rows with the same function,
//! `turn_rolls`, over fractions (docs/turn-kernel.md).

use crate::{Board, Square, markov::tolerance};
use num_rational::BigRational;
use num_traits::{Num, One};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// The index of a transient state of a [`Chain`]: its position among the
/// chain's squares in increasing order. Not a [`Square`]: use
/// [`Chain::square`] and [`Chain::state_of`] to go between them.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct StateIndex(u32);

impl StateIndex {
    /// The state with the given position.
    ///
    /// # Panics
    /// If `index` does not fit in a `u32` (no chain has that many states).
    pub fn new(index: usize) -> StateIndex {
        StateIndex(u32::try_from(index).expect("a state index fits in u32"))
    }

    /// The position, for indexing vectors and matrices.
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StateIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "state {}", self.0)
    }
}

/// Where a turn ends: a transient state, or the finish.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A transient state.
    State(StateIndex),
    /// The last square: the game is over for this player.
    Finish,
}

/// One entry of a row of the turn kernel.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Transition {
    /// Where the turn ends.
    pub to: Target,
    /// The probability that a turn from the row's state ends there.
    pub probability: f64,
    /// `E[rolls of the turn · 1{the turn ends there}]`: the rolls made on the
    /// way, weighted. Summed over a row it is the expected rolls of a turn;
    /// the variance of rolls needs it per target (docs/figures.md §3).
    pub rolls: f64,
}

/// Expected uses of one jump within one turn.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct JumpUse {
    /// The jump's position in [`Board::jumps`].
    pub jump: u32,
    /// Expected number of times the turn takes it.
    pub expected: f64,
}

/// Expected rests on one square within one turn.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Rest {
    /// The square (never the finish).
    pub square: Square,
    /// Expected number of rolls of the turn after which the token stands on
    /// `square` (after any jump; a blocked or forfeited roll leaves it where
    /// it was, which counts as resting there again).
    pub expected: f64,
}

/// Why a board could not be compiled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// A row of the kernel does not sum to 1 within [`tolerance::ROW_SUM`]:
    /// a bug, reported rather than analysed.
    #[error("the turn kernel row of square {square} sums to {sum}, not 1")]
    RowSum {
        /// The row's square.
        square: Square,
        /// What it sums to.
        sum: f64,
    },
}

/// A board compiled to an absorbing Markov chain over turns, in sparse form.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    /// Square of each state, increasing.
    squares: Vec<Square>,
    start: StateIndex,
    finish: Square,
    /// Row s is `row_offsets[s]..row_offsets[s + 1]` of the next three.
    row_offsets: Vec<usize>,
    targets: Vec<Target>,
    probabilities: Vec<f64>,
    /// Each entry's rolls-weighted probability; empty when every turn is
    /// one roll (no extra-turn rule), where it equals the probability.
    rolls: Vec<f64>,
    expected_rolls: Vec<f64>,
    expected_rolls_squared: Vec<f64>,
    jump_offsets: Vec<usize>,
    /// Each row's jump uses, merged by jump, when no jump leads to another;
    /// otherwise each move's first jump with its weight, unmerged and in
    /// the order the moves were made, which [`Chain::jump_uses`] follows
    /// along `next_jump` and merges just as the compiler merged them before
    /// (the same sums, term for term). Listing every jump of every chain
    /// in every row made a follow board quadratic: 3.2 GB for 40,000
    /// squares of one long chain (issue 27, docs/chains.md).
    jump_uses: Vec<JumpUse>,
    /// The jump taken after each jump ([`NO_NEXT`] for none); empty when no
    /// jump leads to another.
    next_jump: Vec<u32>,
    /// Rests of each state (as `row_offsets`); both empty when every turn
    /// is one roll, where a turn rests only where it ends
    /// ([`Chain::rests`] reads them from the row). On a board of ten
    /// million squares the two copies would take 1.4 GB.
    rest_offsets: Vec<usize>,
    rests: Vec<Rest>,
    dropped: f64,
    cut: bool,
    entry_rounding: f64,
}

/// Boards of fewer squares keep the rows of [`Chain::compile`]'s search
/// and build the chain from them; larger ones build each row again rather
/// than hold every row twice. Below it the copy is at most about 20 MB
/// (counted by `limits::chain_bytes`), and it saves a third of a small
/// board's compile.
pub(crate) const KEEP_ROWS_BELOW: usize = 65_536;

/// In the compiler's table of found squares: a square not found (yet).
const UNSEEN: u32 = u32::MAX;

/// In [`Chain`]'s `next_jump`: the chain ends with this jump.
const NO_NEXT: u32 = u32::MAX;

/// The jump taken after each jump of `board`, or empty when no jump leads
/// to another (then a row's first jumps are its jump uses).
fn next_jumps(board: &Board) -> Vec<u32> {
    let index = board.chain_index();
    if !index.any_chained() {
        return Vec::new();
    }
    (0..board.jumps().len())
        .map(|j| index.next(j).map_or(NO_NEXT, |n| n as u32))
        .collect()
}

/// Numbers the states by square: the squares a search found (`found[square]
/// != UNSEEN`), read off in increasing order (one pass over a table the
/// search already needed, instead of a sort). Returns each state's square
/// (in `order`'s memory) and each square's state (`UNSEEN` for none).
fn number_states(found: &[u32], order: Vec<Square>) -> (Vec<Square>, Vec<u32>) {
    let mut squares = order;
    squares.clear();
    let mut state_at = vec![UNSEEN; found.len()];
    for (s, _) in found.iter().enumerate().filter(|&(_, &r)| r != UNSEEN) {
        state_at[s] = squares.len() as u32;
        squares.push(Square::new(s as u32));
    }
    (squares, state_at)
}

/// Rows as the compiler builds them, keyed by square: one flat array per
/// kind with each row's start in it. The compiler keeps one row at a time
/// in it and clears it for the next, so a compile allocates a handful of
/// vectors rather than several per row.
#[derive(Default)]
struct RawRows {
    /// (end square, probability, rolls-weighted probability); the finish is
    /// the board's last square.
    ends: Vec<(Square, f64, f64)>,
    jumps: Vec<(u32, f64)>,
    rests: Vec<(Square, f64)>,
    /// Where row r starts in `ends`, `jumps` and `rests`; one more entry
    /// than rows, the last holding their lengths.
    starts: Vec<[usize; 3]>,
    rolls_squared: Vec<f64>,
    /// The probability each row's path left out, when it was cut (which
    /// may itself round to 0).
    dropped: Vec<Option<f64>>,
    /// Rounding steps behind the row's entries (see
    /// [`tolerance::KERNEL_ROUNDING`]).
    steps: Vec<usize>,
}

impl RawRows {
    /// Room for about `rows` rows of `entries` ends and rests in all
    /// (`rests` of them when rests are kept), and `jumps` jump uses.
    fn with_capacity(rows: usize, entries: usize, rests: usize, jumps: usize) -> RawRows {
        let mut starts = Vec::with_capacity(rows + 1);
        starts.push([0; 3]);
        RawRows {
            ends: Vec::with_capacity(entries),
            jumps: Vec::with_capacity(jumps),
            rests: Vec::with_capacity(rests),
            starts,
            rolls_squared: Vec::with_capacity(rows),
            dropped: Vec::with_capacity(rows),
            steps: Vec::with_capacity(rows),
        }
    }

    /// Forgets every row, keeping the room.
    fn clear(&mut self) {
        self.ends.clear();
        self.jumps.clear();
        self.rests.clear();
        self.starts.clear();
        self.starts.push([0; 3]);
        self.rolls_squared.clear();
        self.dropped.clear();
        self.steps.clear();
    }

    /// The ends of row `r`.
    fn ends(&self, r: usize) -> &[(Square, f64, f64)] {
        &self.ends[self.starts[r][0]..self.starts[r + 1][0]]
    }

    fn jumps(&self, r: usize) -> &[(u32, f64)] {
        &self.jumps[self.starts[r][1]..self.starts[r + 1][1]]
    }

    fn rests(&self, r: usize) -> &[(Square, f64)] {
        &self.rests[self.starts[r][2]..self.starts[r + 1][2]]
    }
}

impl Chain {
    /// Compiles a board.
    ///
    /// # Errors
    /// [`ChainError::RowSum`] if a row does not sum to 1 (a bug; every valid
    /// board compiles).
    pub fn compile(board: &Board) -> Result<Chain, ChainError> {
        let keep = board.last().index() < KEEP_ROWS_BELOW;
        if keep && board.rules().extra_turn().is_none() {
            return Chain::compile_one_roll(board);
        }
        Chain::compile_keeping(board, keep)
    }

    /// [`Chain::compile_keeping`] of a board whose turns are one roll each
    /// (no extra-turn rule), rows kept: the same chain, entry for entry and
    /// digit for digit (`one_roll_compile_makes_the_same_chain`), built with
    /// less bookkeeping. A turn is one [`Board::walk`] per dice total, so a
    /// row is 16-byte (square, probability) pairs, merged as `raw_row`
    /// merges them, and the chain's arrays are written by index (78,000
    /// instructions on the built-in board against the general compile's
    /// 114,000; docs/board-to-chain.md §4).
    fn compile_one_roll(board: &Board) -> Result<Chain, ChainError> {
        let last = board.last();
        let start = board.rules().start();
        let outcomes = float_outcomes(board);
        let size = last.index() + 1;
        let mut found = vec![UNSEEN; size];
        let mut order: Vec<Square> = Vec::with_capacity(size);
        // Row r of the search is `ends[row_at[r].0..row_at[r + 1].0]` and
        // `jumps[row_at[r].1..row_at[r + 1].1]`. The room for ends is capped
        // as `compile_keeping` caps it: most boards reach nearly every
        // square, and a board of many dice totals merges many ends.
        let mut ends: Vec<(u32, f64)> = Vec::with_capacity((size * outcomes.len()).min(1 << 20));
        let mut jumps: Vec<(u32, f64)> = Vec::with_capacity(board.jumps().len() * outcomes.len());
        // With chains, a row keeps each move's first jump (see `jump_uses`).
        let next_jump = next_jumps(board);
        let mut row_at: Vec<(u32, u32)> = Vec::with_capacity(size + 1);
        row_at.push((0, 0));
        order.push(start);
        found[start.index()] = 0;
        let mut next = 0;
        while let Some(&from) = order.get(next) {
            let (e0, j0) = (ends.len(), jumps.len());
            for &(total, p) in &outcomes {
                let walk = board.walk(from, total);
                if let Some(first) = walk.first {
                    jumps.push((first as u32, p));
                }
                ends.push((walk.end.get(), p));
            }
            merge_by(&mut ends, e0, |e| e.0, |a, b| a.1 += b.1);
            if next_jump.is_empty() {
                merge_by(&mut jumps, j0, |e| e.0, |a, b| a.1 += b.1);
            }
            for &(end, _) in &ends[e0..] {
                if end != last.get() && found[end as usize] == UNSEEN {
                    found[end as usize] = order.len() as u32;
                    order.push(Square::new(end));
                }
            }
            row_at.push((ends.len() as u32, jumps.len() as u32));
            next += 1;
        }
        let (squares, state_at) = number_states(&found, order);
        // Written by index, not pushed: a push that may grow its vector
        // keeps the vector's length in memory, and each entry then waits on
        // the last one's store.
        let n = squares.len();
        let mut row_offsets = vec![0; n + 1];
        let mut targets = vec![Target::Finish; ends.len()];
        let mut probabilities = vec![0.0; ends.len()];
        let mut expected_rolls = vec![0.0; n];
        // A turn is one roll: its square is 1 whatever the roll, so its
        // expectation is the dice's total probability, summed in the order
        // `raw_row` sums it (the same for every row).
        let squared = outcomes.iter().fold(0.0, |sum, &(_, p)| sum + p);
        let expected_rolls_squared = vec![squared; n];
        let mut jump_offsets = vec![0; n + 1];
        let mut jump_uses = Vec::with_capacity(jumps.len());
        let mut k = 0;
        for (s, &square) in squares.iter().enumerate() {
            let r = found[square.index()] as usize;
            let (from, to) = (row_at[r], row_at[r + 1]);
            let mut sum = 0.0;
            for &(end, p) in &ends[from.0 as usize..to.0 as usize] {
                targets[k] = if end == last.get() {
                    Target::Finish
                } else {
                    Target::State(StateIndex(state_at[end as usize]))
                };
                probabilities[k] = p;
                sum += p;
                k += 1;
            }
            if (sum - 1.0).abs() > tolerance::ROW_SUM {
                return Err(ChainError::RowSum { square, sum });
            }
            row_offsets[s + 1] = k;
            expected_rolls[s] = sum;
            jump_uses.extend(
                jumps[from.1 as usize..to.1 as usize]
                    .iter()
                    .map(|&(jump, expected)| JumpUse { jump, expected }),
            );
            jump_offsets[s + 1] = jump_uses.len();
        }
        let chain = Chain {
            start: StateIndex(state_at[start.index()]),
            finish: last,
            row_offsets,
            targets,
            probabilities,
            rolls: Vec::new(),
            expected_rolls,
            expected_rolls_squared,
            jump_offsets,
            jump_uses,
            next_jump,
            rest_offsets: Vec::new(),
            rests: Vec::new(),
            dropped: 0.0,
            cut: false,
            // Every row's path is one layer.
            entry_rounding: rounding_steps(1, outcomes.len()) as f64 * tolerance::KERNEL_ROUNDING,
            squares,
        };
        Ok(chain)
    }

    /// [`Chain::compile`], keeping the search's rows (`keep`) or building
    /// each row again.
    fn compile_keeping(board: &Board, keep: bool) -> Result<Chain, ChainError> {
        let last = board.last();
        let start = board.rules().start();
        let one_roll = board.rules().extra_turn().is_none();
        let outcomes = float_outcomes(board);
        let bonus = Bonus::over(board, &outcomes);
        let mut path = TurnPath {
            layers: Vec::new(),
            cycle: None,
            cut: None,
        };
        // A large board's rows are built twice, one at a time: once to
        // discover the states by a search from the start, once in their
        // order (by square) straight into the chain. Keeping the rows of the
        // search, in its order, until the chain is built would hold every
        // row twice: 5.9 GB at the peak for a board of ten million squares,
        // against 2.9 GB then (1.4 GB since one-roll chains hold no rests).
        // A small board keeps them (building rows is
        // most of its compile, and the copy is a few megabytes):
        // `found[square]` is then the square's row in `raw`.
        let mut raw = if keep {
            // Most boards reach nearly every square; the cap keeps a board
            // of many dice totals from reserving more than it will use.
            let entries = ((last.index() + 1) * outcomes.len()).min(1 << 20);
            let jumps = board.jumps().len() * outcomes.len();
            let rows = last.index() + 1;
            RawRows::with_capacity(rows, entries, if one_roll { 0 } else { entries }, jumps)
        } else {
            RawRows::with_capacity(1, 64, 64, 64)
        };
        let mut found = vec![UNSEEN; last.index() + 1];
        let mut order: Vec<Square> = Vec::with_capacity(last.index() + 1);
        order.push(start);
        found[start.index()] = 0;
        let mut next = 0;
        let (mut ends, mut jumps, mut rests) = (0, 0, 0);
        while next < order.len() {
            if !keep {
                raw.clear();
            }
            let r = if keep { next } else { 0 };
            let before = (raw.ends.len(), raw.jumps.len(), raw.rests.len());
            raw_row(board, order[next], &outcomes, &bonus, &mut raw, &mut path);
            for &(end, _, _) in raw.ends(r) {
                if end != last && found[end.index()] == UNSEEN {
                    found[end.index()] = order.len() as u32;
                    order.push(end);
                }
            }
            ends += raw.ends.len() - before.0;
            jumps += raw.jumps.len() - before.1;
            rests += raw.rests.len() - before.2;
            next += 1;
        }
        let (squares, state_at) = number_states(&found, order);
        let target = |square: Square| {
            if square == last {
                Target::Finish
            } else {
                Target::State(StateIndex(state_at[square.index()]))
            }
        };
        let n = squares.len();
        let mut chain = Chain {
            start: StateIndex(state_at[start.index()]),
            finish: last,
            row_offsets: Vec::with_capacity(n + 1),
            targets: Vec::with_capacity(ends),
            probabilities: Vec::with_capacity(ends),
            rolls: Vec::with_capacity(if one_roll { 0 } else { ends }),
            expected_rolls: Vec::with_capacity(n),
            expected_rolls_squared: Vec::with_capacity(n),
            jump_offsets: Vec::with_capacity(n + 1),
            jump_uses: Vec::with_capacity(jumps),
            next_jump: next_jumps(board),
            rest_offsets: Vec::with_capacity(if one_roll { 0 } else { n + 1 }),
            rests: Vec::with_capacity(rests),
            dropped: 0.0,
            cut: false,
            entry_rounding: 0.0,
            squares: Vec::new(),
        };
        chain.row_offsets.push(0);
        chain.jump_offsets.push(0);
        if !one_roll {
            chain.rest_offsets.push(0);
        }
        for &square in &squares {
            let r = if keep {
                found[square.index()] as usize
            } else {
                raw.clear();
                raw_row(board, square, &outcomes, &bonus, &mut raw, &mut path);
                // `raw` holds this row alone.
                0
            };
            let mut sum = 0.0;
            let mut rolls = 0.0;
            for &(end, p, w) in raw.ends(r) {
                chain.targets.push(target(end));
                chain.probabilities.push(p);
                if !one_roll {
                    chain.rolls.push(w);
                }
                sum += p;
                rolls += w;
            }
            if (sum - 1.0).abs() > tolerance::ROW_SUM + raw.dropped[r].unwrap_or(0.0) {
                return Err(ChainError::RowSum { square, sum });
            }
            chain.row_offsets.push(chain.targets.len());
            chain.expected_rolls.push(rolls);
            chain.expected_rolls_squared.push(raw.rolls_squared[r]);
            chain.jump_uses.extend(
                raw.jumps(r)
                    .iter()
                    .map(|&(jump, expected)| JumpUse { jump, expected }),
            );
            chain.jump_offsets.push(chain.jump_uses.len());
            if !one_roll {
                chain.rests.extend(
                    raw.rests(r)
                        .iter()
                        .map(|&(square, expected)| Rest { square, expected }),
                );
                chain.rest_offsets.push(chain.rests.len());
            }
            if let Some(dropped) = raw.dropped[r] {
                chain.dropped = chain.dropped.max(dropped);
                chain.cut = true;
            }
            chain.entry_rounding = chain
                .entry_rounding
                .max(raw.steps[r] as f64 * tolerance::KERNEL_ROUNDING);
        }
        chain.squares = squares;
        Ok(chain)
    }

    /// Number of transient states.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Always false: the start is a state.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The start square's state.
    pub fn start(&self) -> StateIndex {
        self.start
    }

    /// The finish (the board's last square).
    pub fn finish(&self) -> Square {
        self.finish
    }

    /// The square of a state.
    ///
    /// # Panics
    /// If `state` is not a state of this chain.
    pub fn square(&self, state: StateIndex) -> Square {
        self.squares[state.get()]
    }

    /// The square of every state, in state order (increasing).
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The state of a square, `None` when a token never stands on it between
    /// turns (a jump start, an unreachable square, the finish).
    pub fn state_of(&self, square: Square) -> Option<StateIndex> {
        self.squares
            .binary_search(&square)
            .ok()
            .map(|i| StateIndex(i as u32))
    }

    /// Every state, in order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateIndex> + use<> {
        (0..self.squares.len() as u32).map(StateIndex)
    }

    /// The row of `state`: where a turn from it ends, with what probability.
    /// Targets are distinct and in increasing order (the finish last).
    pub fn row(&self, state: StateIndex) -> impl Iterator<Item = Transition> + '_ {
        let range = self.row_offsets[state.get()]..self.row_offsets[state.get() + 1];
        range.map(|k| Transition {
            to: self.targets[k],
            probability: self.probabilities[k],
            rolls: self.rolls.get(k).copied().unwrap_or(self.probabilities[k]),
        })
    }

    /// CSR row offsets: row `s` is `offsets[s]..offsets[s + 1]` of
    /// [`Chain::targets`] and [`Chain::probabilities`]; `len() + 1` entries.
    pub fn row_offsets(&self) -> &[usize] {
        &self.row_offsets
    }

    /// CSR column of every entry.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// CSR probability of every entry.
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// Number of stored kernel entries.
    pub fn entries(&self) -> usize {
        self.targets.len()
    }

    /// Row `state` of Q, the transient part of the kernel: `(state index,
    /// probability)` of the turns that end on a state, the finish left out.
    pub fn q_row(&self, state: StateIndex) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = self.row_offsets[state.get()]..self.row_offsets[state.get() + 1];
        range.filter_map(|k| match self.targets[k] {
            Target::State(e) => Some((e.get(), self.probabilities[k])),
            Target::Finish => None,
        })
    }

    /// R(s): the probability that a turn from `state` finishes the game.
    pub fn finish_probability(&self, state: StateIndex) -> f64 {
        self.row(state)
            .filter(|t| t.to == Target::Finish)
            .map(|t| t.probability)
            .sum()
    }

    /// Expected rolls of one turn from `state` (1 without extra rolls).
    pub fn expected_rolls(&self, state: StateIndex) -> f64 {
        self.expected_rolls[state.get()]
    }

    /// Expected square of the rolls of one turn from `state`.
    pub fn expected_rolls_squared(&self, state: StateIndex) -> f64 {
        self.expected_rolls_squared[state.get()]
    }

    /// Expected uses of each jump in one turn from `state`, by jump position,
    /// increasing; jumps a turn cannot take are left out. Every jump of a
    /// followed chain counts. Borrowed when no jump leads to another; else
    /// built from the row's first jumps, in time the row's chains' length.
    pub fn jump_uses(&self, state: StateIndex) -> Cow<'_, [JumpUse]> {
        let row =
            &self.jump_uses[self.jump_offsets[state.get()]..self.jump_offsets[state.get() + 1]];
        if self.next_jump.is_empty() {
            return Cow::Borrowed(row);
        }
        // The uses the compiler listed before it kept first jumps only: each
        // move's chain in the order of the moves, then merged (the same
        // sort and sums, so the same digits).
        let mut uses: Vec<(u32, f64)> = Vec::new();
        for u in row {
            let mut j = u.jump;
            while j != NO_NEXT {
                uses.push((j, u.expected));
                j = self.next_jump[j as usize];
            }
        }
        merge_by(&mut uses, 0, |e| e.0, |a, b| a.1 += b.1);
        Cow::Owned(
            uses.into_iter()
                .map(|(jump, expected)| JumpUse { jump, expected })
                .collect(),
        )
    }

    /// The entries behind [`Chain::jump_uses`] that the chain stores for
    /// all states: one per jump a row takes, or with chains followed one per
    /// move's first jump, so their number grows with the board, never with
    /// the product of its squares and its chains' length.
    pub fn stored_jump_uses(&self) -> usize {
        self.jump_uses.len()
    }

    /// Expected rests on each square in one turn from `state`, by square,
    /// increasing; squares the turn cannot rest on are left out. The finish
    /// is never listed. Without extra rolls it is the turn's end square with
    /// its probability; with them, mid-turn rests count too.
    pub fn rests(&self, state: StateIndex) -> impl Iterator<Item = Rest> + '_ {
        let s = state.get();
        let (stored, ends) = if self.rest_offsets.is_empty() {
            // One roll a turn: the rests are the row's ends but the finish.
            (&[][..], self.row_offsets[s]..self.row_offsets[s + 1])
        } else {
            (
                &self.rests[self.rest_offsets[s]..self.rest_offsets[s + 1]],
                0..0,
            )
        };
        let from_row = ends.filter_map(move |k| match self.targets[k] {
            Target::State(e) => Some(Rest {
                square: self.squares[e.get()],
                expected: self.probabilities[k],
            }),
            Target::Finish => None,
        });
        stored.iter().copied().chain(from_row)
    }

    /// The bytes this chain holds in its arrays (as allocated).
    pub fn held_bytes(&self) -> u64 {
        fn bytes<T>(v: &Vec<T>) -> u64 {
            (v.capacity() * std::mem::size_of::<T>()) as u64
        }
        bytes(&self.squares)
            + bytes(&self.row_offsets)
            + bytes(&self.targets)
            + bytes(&self.probabilities)
            + bytes(&self.rolls)
            + bytes(&self.expected_rolls)
            + bytes(&self.expected_rolls_squared)
            + bytes(&self.jump_offsets)
            + bytes(&self.jump_uses)
            + bytes(&self.next_jump)
            + bytes(&self.rest_offsets)
            + bytes(&self.rests)
    }

    /// The largest probability left out of any row because a turn's bonus
    /// rolls went on past the normal range of `f64` (below 2.2e-308; 0 when
    /// no path was cut).
    pub fn dropped(&self) -> f64 {
        self.dropped
    }

    /// Whether any turn's path was cut for going on past the normal range
    /// of `f64`: then squares reached only that way may be missing from the
    /// chain, even where [`Chain::dropped`] rounds to 0.
    pub fn cut_paths(&self) -> bool {
        self.cut
    }

    /// A bound on the relative rounding error of any kernel entry: the
    /// kernel is the exact one (of the same dice) with every entry
    /// perturbed by at most this factor, plus [`Chain::dropped`].
    pub fn entry_rounding(&self) -> f64 {
        self.entry_rounding
    }

    /// The squares of the states from which the finish cannot be reached:
    /// empty for every board whose games end. (Validation rules out trapped
    /// squares by moves; a rule such as forfeiting every bonus roll can still
    /// trap a token turn by turn.)
    pub fn trapped(&self) -> Vec<Square> {
        let n = self.len();
        // The reverse edges in compressed form: `from[by_target[t]..
        // by_target[t + 1]]` are the states with a move to state t.
        let mut by_target = vec![0_u32; n + 1];
        let mut finishes = vec![false; n];
        for (s, finishes_now) in finishes.iter_mut().enumerate() {
            for k in self.row_offsets[s]..self.row_offsets[s + 1] {
                match self.targets[k] {
                    _ if self.probabilities[k] <= 0.0 => {}
                    Target::State(t) => by_target[t.get() + 1] += 1,
                    Target::Finish => *finishes_now = true,
                }
            }
        }
        for t in 0..n {
            by_target[t + 1] += by_target[t];
        }
        let mut fill = by_target.clone();
        let mut from = vec![0_u32; by_target[n] as usize];
        for s in 0..n {
            for k in self.row_offsets[s]..self.row_offsets[s + 1] {
                if let Target::State(t) = self.targets[k] {
                    if self.probabilities[k] > 0.0 {
                        from[fill[t.get()] as usize] = s as u32;
                        fill[t.get()] += 1;
                    }
                }
            }
        }
        let mut stack: Vec<usize> = (0..n).filter(|&s| finishes[s]).collect();
        while let Some(t) = stack.pop() {
            for &s in &from[by_target[t] as usize..by_target[t + 1] as usize] {
                if !finishes[s as usize] {
                    finishes[s as usize] = true;
                    stack.push(s as usize);
                }
            }
        }
        (0..n)
            .filter(|&s| !finishes[s])
            .map(|s| self.squares[s])
            .collect()
    }
}

/// One roll position along a turn's path of bonus rolls.
#[derive(Clone, Debug)]
pub(crate) struct Layer<W> {
    /// Where the token stands before this roll.
    pub square: Square,
    /// Rolls already made in the turn.
    pub rolls_before: u32,
    /// Probability that the turn reaches this roll.
    pub weight: W,
}

/// The path of a turn from one square: the rolls it may make, in order.
#[derive(Clone, Debug)]
pub(crate) struct TurnPath<W> {
    pub layers: Vec<Layer<W>>,
    /// When the bonus rolls return to a square already on the path
    /// (uncapped, never forfeited): the layers from this one on repeat
    /// forever, each repetition with its weight multiplied by `p(on)ᴸ` for
    /// the `L` layers of the cycle.
    pub cycle: Option<usize>,
    /// Probability of going on past the last layer, when the path was cut.
    pub cut: Option<W>,
}

/// Follows the bonus rolls of a turn from `from`, while `keep(weight)` allows
/// (see the module docs). `p_on` is the probability of the bonus total.
pub(crate) fn turn_path<W: Num + Clone>(
    board: &Board,
    from: Square,
    p_on: &W,
    keep: impl FnMut(&W, usize) -> bool,
) -> TurnPath<W> {
    let mut path = TurnPath {
        layers: Vec::new(),
        cycle: None,
        cut: None,
    };
    follow_turn(board, from, p_on, keep, &mut path);
    path
}

/// [`turn_path`] into an existing path, reusing its memory: the compiler
/// follows one turn per state.
fn follow_turn<W: Num + Clone>(
    board: &Board,
    from: Square,
    p_on: &W,
    mut keep: impl FnMut(&W, usize) -> bool,
    path: &mut TurnPath<W>,
) {
    path.layers.clear();
    path.layers.push(Layer {
        square: from,
        rolls_before: 0,
        weight: W::one(),
    });
    path.cycle = None;
    path.cut = None;
    let Some(extra) = board.rules().extra_turn() else {
        return;
    };
    let endless = extra.max_extra().is_none() && extra.forfeit_after().is_none();
    let mut seen: HashMap<Square, usize> = HashMap::new();
    if endless {
        seen.insert(from, 0);
    }
    loop {
        let here = path.layers.last().expect("a path has a layer");
        let (walk, extra_roll) = board.walk_roll(here.square, here.rolls_before, extra.on());
        if !extra_roll {
            return;
        }
        let weight = here.weight.clone() * p_on.clone();
        let square = walk.end;
        if endless {
            if let Some(&c) = seen.get(&square) {
                path.cycle = Some(c);
                return;
            }
            seen.insert(square, path.layers.len());
        }
        if !keep(&weight, path.layers.len()) {
            path.cut = Some(weight);
            return;
        }
        let rolls_before = here.rolls_before + 1;
        path.layers.push(Layer {
            square,
            rolls_before,
            weight,
        });
    }
}

/// The chain with one jump made absorbing (docs/figures.md §6): for each state, the
/// probability `hit[s]` that a turn from s takes `jump` at least once, and
/// the kernel entries `(s, e, p)` of turns that end on state e without
/// taking it. Built, like the chain, only from [`Board::play_roll`].
pub(crate) struct Avoiding {
    pub entries: Vec<(usize, usize, f64)>,
    pub hit: Vec<f64>,
}

pub(crate) fn avoiding(board: &Board, chain: &Chain, jump: usize) -> Avoiding {
    let dice = board.rules().dice();
    let extra = board.rules().extra_turn();
    let bonus = Bonus::of(board);
    let p_on = bonus.p;
    let mut out = Avoiding {
        entries: Vec::new(),
        hit: vec![0.0; chain.len()],
    };
    for s in chain.states() {
        let path = turn_path(board, chain.square(s), &p_on, keep_float);
        // alive[i]: probability of reaching layer i without taking the jump.
        let mut alive = vec![1.0];
        let mut cycle_clean = true;
        for (i, layer) in path.layers.iter().enumerate() {
            let bonus = extra.map(|x| board.walk_roll(layer.square, layer.rolls_before, x.on()).0);
            let clean = !bonus.is_some_and(|b| b.takes(board, jump));
            if path.cycle.is_some_and(|c| i >= c) && !clean {
                cycle_clean = false;
            }
            let next = if clean { alive[i] * p_on } else { 0.0 };
            alive.push(next);
        }
        let mut ends: Vec<(usize, f64)> = Vec::new();
        for (i, layer) in path.layers.iter().enumerate() {
            let m0 = match path.cycle {
                Some(c) if cycle_clean && i >= c => bonus.cycle(path.layers.len() - c).1,
                _ => 1.0,
            };
            for outcome in dice.outcomes() {
                let (walk, extra_roll) =
                    board.walk_roll(layer.square, layer.rolls_before, outcome.total);
                let mass = alive[i] * outcome.probability * m0;
                if mass == 0.0 {
                    continue;
                }
                if walk.takes(board, jump) {
                    out.hit[s.get()] += mass;
                } else if !extra_roll && walk.end != board.last() {
                    let e = chain
                        .state_of(walk.end)
                        .expect("a turn ends on a state of the chain");
                    ends.push((e.get(), mass));
                }
            }
        }
        merge_by(&mut ends, 0, |e| e.0, |a, b| a.1 += b.1);
        out.entries
            .extend(ends.into_iter().map(|(e, p)| (s.get(), e, p)));
    }
    out
}

/// Whether the `f64` kernel follows a turn's bonus rolls to a layer reached
/// with probability `weight`: while that probability is a normal `f64`.
/// Below `f64::MIN_POSITIVE` (2.2e-308) every further roll is a subnormal
/// number whose products no longer carry the relative precision the error
/// bounds assume ([`tolerance::KERNEL_ROUNDING`]); the turns not followed
/// then have probability below it, which [`Chain::dropped`] reports.
fn keep_float(weight: &f64, _rolls: usize) -> bool {
    *weight >= f64::MIN_POSITIVE
}

/// The probability of a turn's weight type: `f64` for the compiled chain,
/// `BigRational` for exact mode. One construction, [`turn_rolls`], serves
/// both; only the closed form of a cycle differs in how it is evaluated.
pub(crate) trait Weight: Num + Clone {
    /// For a cycle of `length` bonus rolls: `q = p(on)ᴸ` and `Σⱼ qʲ =
    /// 1/(1 − q)`.
    fn repeat(bonus: &Bonus<Self>, length: usize) -> (Self, Self);
}

impl Weight for f64 {
    /// `1 − q = −expm1(L·ln(1 − miss))`, so that no cancellation loses it
    /// when `q` is near 1.
    fn repeat(bonus: &Bonus<f64>, length: usize) -> (f64, f64) {
        let ln_p = bonus.ln_p();
        let l = length as f64;
        ((l * ln_p).exp(), 1.0 / -(l * ln_p).exp_m1())
    }
}

impl Weight for BigRational {
    fn repeat(bonus: &Bonus<BigRational>, length: usize) -> (BigRational, BigRational) {
        let q = (0..length).fold(BigRational::one(), |q, _| q * &bonus.p);
        let s0 = (BigRational::one() - &q).recip();
        (q, s0)
    }
}

/// The bonus total's probability `p` and its complement `1 − p`, the
/// complement summed from the other totals so that in `f64` it keeps its
/// precision when `p` is within an ulp of 1 (a die whose other faces weigh
/// 1e-16).
#[derive(Clone, Debug)]
pub(crate) struct Bonus<W = f64> {
    pub p: W,
    /// `1 − p`, from the other totals' probabilities.
    pub miss: W,
}

impl<W: Weight> Bonus<W> {
    /// The bonus of `board` over the given distribution of the dice total.
    fn over(board: &Board, outcomes: &[(u32, W)]) -> Bonus<W> {
        let on = board.rules().extra_turn().map(|x| x.on());
        let (mut p, mut miss) = (W::zero(), W::zero());
        for (total, probability) in outcomes {
            if Some(*total) == on {
                p = p + probability.clone();
            } else {
                miss = miss + probability.clone();
            }
        }
        Bonus { p, miss }
    }
}

impl Bonus<f64> {
    /// The bonus of `board`'s dice in `f64`.
    pub(crate) fn of(board: &Board) -> Bonus<f64> {
        Bonus::over(board, &float_outcomes(board))
    }

    /// `ln p`, from `ln(1 − miss)` when `p` is near 1, where `ln p` itself
    /// would lose the digits of `miss`.
    pub(crate) fn ln_p(&self) -> f64 {
        if self.miss < 0.5 {
            (-self.miss).ln_1p()
        } else {
            self.p.ln()
        }
    }

    /// For a cycle of `length` bonus rolls: `q = pᴸ` and `1/(1 − q)`.
    pub(crate) fn cycle(&self, length: usize) -> (f64, f64) {
        f64::repeat(self, length)
    }
}

/// The dice totals of `board` with their `f64` probabilities.
fn float_outcomes(board: &Board) -> Vec<(u32, f64)> {
    board
        .rules()
        .dice()
        .outcomes()
        .iter()
        .map(|o| (o.total, o.probability))
        .collect()
}

/// The multiplicities of the rolls of one layer of a turn's path: every
/// roll made from it contributes its probability times `mass` to the
/// kernel (and to jump uses and rests), times `rolls` to the expected rolls
/// and times `rolls_squared` to their square. They are `(1, ρ, ρ²)` for
/// the `ρ`-th roll of a turn, and sums over the repetitions of a cycle for
/// a layer on one (docs/turn-kernel.md §4).
pub(crate) struct Multiplicity<W> {
    pub mass: W,
    pub rolls: W,
    pub rolls_squared: W,
}

/// The within-turn absorbing chain of a turn from `from`, solved: calls
/// `visit(layer, total, p(total), multiplicity)` for every roll the turn can
/// make, each weighted so that the sum of `layer.weight · p · mass` over
/// the rolls that end the turn on a square is the kernel entry to that
/// square, with no path left out (docs/turn-kernel.md §2–4). Returns false
/// when `keep` cut the path (see [`TurnPath::cut`]); the rows built are
/// then short by that much.
///
/// Both the `f64` compiler and exact mode build their rows with it, over
/// their own distribution of the dice total.
pub(crate) fn turn_rolls<W: Weight>(
    board: &Board,
    from: Square,
    outcomes: &[(u32, W)],
    bonus: &Bonus<W>,
    keep: impl FnMut(&W, usize) -> bool,
    path: &mut TurnPath<W>,
    mut visit: impl FnMut(&Layer<W>, u32, &W, &Multiplicity<W>),
) {
    follow_turn(board, from, &bonus.p, keep, path);
    if let ([layer], None) = (path.layers.as_slice(), path.cycle) {
        // A turn of one roll (every turn without an extra-turn rule): each
        // multiplicity is 1, as the general form below computes it, without
        // its bookkeeping (most of a small board's compile).
        let one = Multiplicity {
            mass: W::one(),
            rolls: W::one(),
            rolls_squared: W::one(),
        };
        for (total, p) in outcomes {
            visit(layer, *total, p, &one);
        }
        return;
    }
    // Σⱼ qʲ(ρ + jL)ᵏ for k = 0, 1, 2 from s₀ = 1/(1 − q), s₁ = q·s₀²,
    // s₂ = q(1 + q)·s₀³.
    let cycle = path.cycle.map(|c| {
        let length = path.layers.len() - c;
        let (q, s0) = W::repeat(bonus, length);
        let s1 = q.clone() * s0.clone() * s0.clone();
        let s2 = q.clone() * (W::one() + q) * s0.clone() * s0.clone() * s0.clone();
        (c, from_count::<W>(length), s0, s1, s2)
    });
    for (i, layer) in path.layers.iter().enumerate() {
        let rolls = from_count::<W>(layer.rolls_before as usize + 1);
        let two = W::one() + W::one();
        let m = match &cycle {
            Some((c, l, s0, s1, s2)) if i >= *c => Multiplicity {
                mass: s0.clone(),
                rolls: rolls.clone() * s0.clone() + l.clone() * s1.clone(),
                rolls_squared: rolls.clone() * rolls.clone() * s0.clone()
                    + two * rolls * l.clone() * s1.clone()
                    + l.clone() * l.clone() * s2.clone(),
            },
            _ => Multiplicity {
                mass: W::one(),
                rolls: rolls.clone(),
                rolls_squared: rolls.clone() * rolls,
            },
        };
        for (total, p) in outcomes {
            visit(layer, *total, p, &m);
        }
    }
}

/// A count as a weight, by doubling (counts are at most a path's length).
fn from_count<W: Weight>(n: usize) -> W {
    let mut out = W::zero();
    let mut unit = W::one();
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            out = out + unit.clone();
        }
        unit = unit.clone() + unit;
        n >>= 1;
    }
    out
}

/// Builds the row of one square, keyed by square, as the next row of `rows`.
fn raw_row(
    board: &Board,
    from: Square,
    outcomes: &[(u32, f64)],
    bonus: &Bonus,
    rows: &mut RawRows,
    path: &mut TurnPath<f64>,
) {
    let last = board.last();
    // With one roll a turn the rests are the ends, and the chain reads them
    // from its rows.
    let one_roll = board.rules().extra_turn().is_none();
    let [ends, jumps, rests] = *rows.starts.last().expect("starts has a sentinel");
    let mut rolls_squared = 0.0;
    if one_roll {
        // No extra-turn rule: a turn is one walk per total, which is what
        // `turn_rolls` visits (one layer of weight 1, multiplicities 1),
        // without following a path or multiplying by 1 (a sixth of a
        // one-roll row's instructions); the entries are the same.
        for &(total, p) in outcomes {
            let walk = board.walk(from, total);
            if let Some(first) = walk.first {
                rows.jumps.push((first as u32, p));
            }
            rows.ends.push((walk.end, p, p));
            rolls_squared += p;
        }
        path.cut = None;
    } else {
        turn_rolls(
            board,
            from,
            outcomes,
            bonus,
            keep_float,
            path,
            |layer, total, p, m| {
                let mass = layer.weight * p;
                let (walk, extra_roll) = board.walk_roll(layer.square, layer.rolls_before, total);
                if let Some(first) = walk.first {
                    rows.jumps.push((first as u32, mass * m.mass));
                }
                if walk.end != last && !one_roll {
                    rows.rests.push((walk.end, mass * m.mass));
                }
                if !extra_roll {
                    rows.ends.push((walk.end, mass * m.mass, mass * m.rolls));
                    rolls_squared += mass * m.rolls_squared;
                }
            },
        );
    }
    merge_by(
        &mut rows.ends,
        ends,
        |e| e.0,
        |a, b| {
            a.1 += b.1;
            a.2 += b.2;
        },
    );
    // With chains, each move's first jump stays as made (see `Chain::jump_uses`).
    if !board.chain_index().any_chained() {
        merge_by(&mut rows.jumps, jumps, |e| e.0, |a, b| a.1 += b.1);
    }
    merge_by(&mut rows.rests, rests, |e| e.0, |a, b| a.1 += b.1);
    rows.starts
        .push([rows.ends.len(), rows.jumps.len(), rows.rests.len()]);
    rows.rolls_squared.push(rolls_squared);
    rows.dropped.push(path.cut);
    let layers = if one_roll { 1 } else { path.layers.len() };
    rows.steps.push(rounding_steps(layers, outcomes.len()));
}

/// Rounding steps behind the entries of a row whose turn path has `layers`
/// layers, over `totals` dice totals (see [`tolerance::KERNEL_ROUNDING`]):
/// a layer's weight is a product of as many roundings as its rolls, a
/// cycle sum adds a few, and merging adds one per term merged.
fn rounding_steps(layers: usize, totals: usize) -> usize {
    layers * (totals + 1) + 8
}

/// Why [`exact_row`] has no row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExactRowGap {
    /// A turn makes more than `max_rolls` rolls along a path that does not
    /// repeat: it cannot be summed in closed form.
    TooLong,
    /// A turn ends on this square, which is not a state of the `f64` chain:
    /// every way there has a chance below the smallest normal `f64`, so the
    /// `f64` construction left it out ([`Chain::dropped`]).
    Unlisted(Square),
}

/// The exact row of Q from the state of `from`: (state, probability),
/// merged by state, built by [`turn_rolls`] like the `f64` rows.
pub(crate) fn exact_row(
    board: &Board,
    chain: &Chain,
    from: Square,
    outcomes: &[(u32, BigRational)],
    max_rolls: usize,
) -> Result<Vec<(usize, BigRational)>, ExactRowGap> {
    let bonus = Bonus::over(board, outcomes);
    let mut unlisted = None;
    let mut path = TurnPath {
        layers: Vec::new(),
        cycle: None,
        cut: None,
    };
    let mut row: Vec<(usize, BigRational)> = Vec::new();
    turn_rolls(
        board,
        from,
        outcomes,
        &bonus,
        |_, len| len < max_rolls,
        &mut path,
        |layer, total, p, m| {
            let step = board.roll_end(layer.square, layer.rolls_before, total);
            if step.extra_roll || step.finished {
                return;
            }
            match chain.state_of(step.end) {
                Some(e) => row.push((e.get(), &layer.weight * p * &m.mass)),
                None => unlisted = Some(step.end),
            }
        },
    );
    if path.cut.is_some() {
        return Err(ExactRowGap::TooLong);
    }
    if let Some(square) = unlisted {
        return Err(ExactRowGap::Unlisted(square));
    }
    row.sort_by_key(|(e, _)| *e);
    let mut merged: Vec<(usize, BigRational)> = Vec::with_capacity(row.len());
    for (e, p) in row {
        match merged.last_mut() {
            Some((last, q)) if *last == e => *q += p,
            _ => merged.push((e, p)),
        }
    }
    Ok(merged)
}

/// Sorts `v[from..]` by key and merges its entries with equal keys.
fn merge_by<E: Copy, K: Ord>(
    v: &mut Vec<E>,
    from: usize,
    key: impl Fn(&E) -> K,
    add: impl Fn(&mut E, &E),
) {
    let tail = &mut v[from..];
    if tail.len() < 2 {
        return;
    }
    tail.sort_by_key(|e| key(e));
    let mut out = 0;
    for i in 1..tail.len() {
        if key(&tail[i]) == key(&tail[out]) {
            let e = tail[i];
            add(&mut tail[out], &e);
        } else {
            out += 1;
            tail[out] = tail[i];
        }
    }
    v.truncate(from + out + 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(json: &str) -> Board {
        Board::from_json_str(json).expect("valid test board")
    }

    /// Every one-roll board of `boards/` (bounce, win, stay, an entry rule,
    /// chains followed, a loaded die, two dice) and generated ones, with
    /// snakes and ladders landing on each other: the one-roll compile gives
    /// the general compile's chain, equal in every field and digit.
    #[test]
    fn one_roll_compile_makes_the_same_chain() {
        use crate::design::{Layout, generate};
        let mut boards: Vec<Board> = Board::shipped()
            .into_iter()
            .filter(|b| b.rules().extra_turn().is_none())
            .collect();
        assert!(boards.len() >= 8, "{}", boards.len());
        for (squares, seed) in [(30, 1), (100, 2), (1_000, 3), (5_000, 4)] {
            let jumps = squares / 8;
            boards.push(
                generate(&Layout::new(squares, jumps, jumps, crate::Seed::new(seed))).unwrap(),
            );
        }
        boards.push(board(
            r#"{"squares": 40, "ladders": [[3, 20], [20, 33]], "snakes": [[38, 2], [39, 3]],
                "rules": {"chains": "follow", "overshoot": "bounce", "start": 1,
                          "dice": {"count": 3, "faces": 4}}}"#,
        ));
        for b in &boards {
            let one = Chain::compile_one_roll(b).unwrap();
            assert!(
                one == Chain::compile_keeping(b, true).unwrap(),
                "{:?}",
                b.name()
            );
            assert!(one == Chain::compile(b).unwrap());
        }
    }

    /// With chains followed, a row stores each move's first jump and
    /// [`Chain::jump_uses`] follows the chains when read: every jump a
    /// chain passes counts, as a tally over the moves finds (one roll a
    /// turn, and extra rolls along a turn's path of bonus rolls).
    #[test]
    fn jump_uses_follow_chains_when_read() {
        let boards = [
            board(
                r#"{"squares": 40, "ladders": [[3, 20], [20, 33]], "snakes": [[38, 2], [39, 3]],
                    "rules": {"chains": "follow", "overshoot": "bounce", "start": 1,
                              "dice": {"count": 3, "faces": 4}}}"#,
            ),
            board(
                r#"{"squares": 30, "ladders": [[2, 4], [4, 6], [6, 8], [11, 13], [13, 25]],
                    "snakes": [[28, 13]], "rules": {"chains": "follow"}}"#,
            ),
        ];
        for b in &boards {
            let chain = Chain::compile(b).unwrap();
            for s in chain.states() {
                let mut tally = vec![0.0; b.jumps().len()];
                for o in b.rules().dice().outcomes() {
                    let walk = b.walk(chain.square(s), o.total);
                    for j in walk.first.into_iter().flat_map(|f| b.chain_from(f)) {
                        tally[j] += o.probability;
                    }
                }
                let uses = chain.jump_uses(s);
                let listed: Vec<usize> = uses.iter().map(|u| u.jump as usize).collect();
                let expected: Vec<usize> = (0..tally.len()).filter(|&j| tally[j] > 0.0).collect();
                assert_eq!(listed, expected, "{}", chain.square(s));
                for u in uses.iter() {
                    assert!((u.expected - tally[u.jump as usize]).abs() < 1e-15);
                }
            }
        }
        // Extra rolls: one jump of a chain of three is always taken with the
        // other two, so their expected uses agree.
        let b = board(
            r#"{"squares": 30, "ladders": [[2, 4], [4, 6], [6, 8]],
                "rules": {"chains": "follow", "extra_turn": {"on": 6}}}"#,
        );
        let chain = Chain::compile(&b).unwrap();
        let mut took = 0;
        for s in chain.states() {
            let uses = chain.jump_uses(s);
            if uses.iter().any(|u| u.jump == 0) {
                took += 1;
                let first = uses.iter().find(|u| u.jump == 0).unwrap().expected;
                let last = uses.iter().find(|u| u.jump == 2).unwrap().expected;
                assert!(last >= first, "{}", chain.square(s));
            }
        }
        assert!(took > 0);
    }

    /// Keeping the search's rows (small boards) and building each row
    /// again (large ones) make the same chain, entry for entry.
    #[test]
    fn kept_and_rebuilt_rows_make_the_same_chain() {
        let boards = [
            Board::builtin_default(),
            board(
                r#"{"squares": 40, "ladders": [[3, 20], [20, 33]], "snakes": [[38, 2]],
                    "rules": {"chains": "follow", "overshoot": "bounce",
                              "extra_turn": {"on": 6, "max_extra": 2}}}"#,
            ),
            board(
                r#"{"squares": 30, "snakes": [[29, 1]], "rules": {"entry": "six",
                    "dice": {"weights": [1, 2, 3]}, "extra_turn": {"on": 3, "forfeit_after": 3}}}"#,
            ),
        ];
        for b in &boards {
            let kept = Chain::compile_keeping(b, true).unwrap();
            let rebuilt = Chain::compile_keeping(b, false).unwrap();
            assert!(kept == rebuilt, "{:?}", b.name());
        }
    }

    #[test]
    fn default_board_states_are_reachable_rest_squares() {
        let b = Board::builtin_default();
        let chain = Chain::compile(&b).unwrap();
        // 0..=99 minus the 19 jump starts; every one is reachable.
        assert_eq!(chain.len(), 100 - 19);
        assert!(chain.squares().iter().all(|&s| b.is_rest_square(s)));
        for s in chain.states() {
            let sum: f64 = chain.row(s).map(|t| t.probability).sum();
            assert!((sum - 1.0).abs() < 1e-15);
            // One roll a turn; six sixths sum to 1 within rounding.
            assert!((chain.expected_rolls(s) - 1.0).abs() < 1e-15);
            assert!((chain.expected_rolls_squared(s) - 1.0).abs() < 1e-15);
        }
        assert!(chain.trapped().is_empty());
    }

    #[test]
    fn unreachable_squares_are_dropped() {
        // Start 0, ladder 1→5 on a 2-faced die: square 1 is a jump start,
        // 2..=6 reachable; with squares 8 everything from 2 on is reachable.
        // A die that only rolls 2 (weights [0, 1]) never stands on odd squares.
        let b = board(r#"{"squares": 8, "rules": {"dice": {"weights": [0, 1]}}}"#);
        let chain = Chain::compile(&b).unwrap();
        let squares: Vec<u32> = chain.squares().iter().map(|s| s.get()).collect();
        assert_eq!(squares, vec![0, 2, 4, 6]);
    }

    #[test]
    fn uncapped_bonus_rolls_sum_a_geometric_series() {
        // Squares 3, die of two faces, a 2 rolls again, no cap, no forfeit.
        // From 0: roll 1 (1/2) → 1, turn ends. Roll 2 (1/2) → 2, roll again:
        // from 2 a 1 finishes; a 2 overshoots (stay), stays on 2 and rolls
        // again: a cycle of length 1 with ratio 1/2. So from 0:
        // P(end on 1) = 1/2, P(finish) = 1/2 · (1/2)/(1 − 1/2) = 1/2.
        // Rolls: end on 1 after 1 roll; finish after 1 + j + 1 rolls, j ≥ 0
        // stays, with probability 1/2 · (1/2)^j · 1/2, so E[rolls; finish] =
        // Σ_j (j + 2)/2^(j+2).
        let b = board(
            r#"{"squares": 3, "rules": {"dice": {"count": 1, "faces": 2},
                "extra_turn": {"on": 2}}}"#,
        );
        let chain = Chain::compile(&b).unwrap();
        let s0 = chain.start();
        let row: Vec<Transition> = chain.row(s0).collect();
        let one = chain.state_of(Square::new(1)).unwrap();
        assert_eq!(row.len(), 2);
        assert_eq!(row[0].to, Target::State(one));
        assert!((row[0].probability - 0.5).abs() < 1e-15);
        assert_eq!(row[1].to, Target::Finish);
        assert!((row[1].probability - 0.5).abs() < 1e-15);
        // Σ_{j≥0} (j+2)/2^(j+2) = Σ_{m≥2} m/2^m = 2 − 1/2 = 3/2.
        assert!((row[1].rolls - 1.5).abs() < 1e-15);
        // Expected rolls: 1/2 · 1 + 3/2 = 2.
        assert!((chain.expected_rolls(s0) - 2.0).abs() < 1e-15);
        // Σ_{m≥2} m²/2^m = 6 − 1/2 = 11/2; plus 1/2 · 1.
        assert!((chain.expected_rolls_squared(s0) - 6.0).abs() < 1e-14);
        // Mid-turn rests on 2: it is reached after the first 2 (1/2) and after
        // each stay (1/4 + 1/8 + …), so 1/2 · 1/(1 − 1/2) = 1.
        let on2 = chain
            .rests(s0)
            .find(|r| r.square == Square::new(2))
            .unwrap();
        assert!((on2.expected - 1.0).abs() < 1e-15);
        // A turn from 0 never ends on 2, but one from 1 does (a roll of 1).
        assert_eq!(chain.len(), 3);
    }

    #[test]
    fn a_bonus_total_within_an_ulp_of_certain_still_sums_to_one() {
        // Face 1 weighs 1e-16 against 1 for face 2: p(2) rounds to 1.0 in
        // f64, so 1 − p(2)ᴸ computed directly would be 0 and a cycle's sum
        // infinite. From 10 on 11 squares a 2 overshoots and rolls again
        // (a cycle of length 1) until a 1 finishes: every turn from 10
        // finishes.
        let b = board(
            r#"{"squares": 11, "rules": {"dice": {"weights": [1e-16, 1]},
                "extra_turn": {"on": 2}}}"#,
        );
        let chain = Chain::compile(&b).unwrap();
        for s in chain.states() {
            let sum: f64 = chain.row(s).map(|t| t.probability).sum();
            assert!((sum - 1.0).abs() < 1e-14, "{s}: {sum}");
        }
        let ten = chain.state_of(Square::new(10)).unwrap();
        assert!((chain.finish_probability(ten) - 1.0).abs() < 1e-15);
        assert!(chain.trapped().is_empty());
        assert_eq!(chain.dropped(), 0.0);
    }

    #[test]
    fn a_long_run_of_unlikely_bonus_rolls_is_kept() {
        // Ten 1s (probability 1e-20) then a 2, or twelve 1s, finish 12
        // squares in one turn: far below the cutoff, but within the rolls
        // always followed.
        let b = board(
            r#"{"squares": 12, "rules": {"dice": {"weights": [1, 99]},
                "extra_turn": {"on": 1}}}"#,
        );
        let chain = Chain::compile(&b).unwrap();
        let p = chain.finish_probability(chain.start());
        let expected = 0.01_f64.powi(10) * 0.99 + 0.01_f64.powi(12);
        assert!((p - expected).abs() < 1e-12 * expected, "{p:e}");
        assert_eq!(chain.dropped(), 0.0);
    }

    #[test]
    fn a_turn_of_a_hundred_bonus_rolls_is_kept() {
        // 600 squares, a 6 rolls again without a cap: a hundred sixes in a
        // row (probability 6⁻¹⁰⁰ ≈ 1.5e-78) finish in the first turn, and no
        // other turn from 0 does (the finish is reached only by a 6 from 594).
        let b = board(r#"{"squares": 600, "rules": {"extra_turn": {"on": 6}}}"#);
        let chain = Chain::compile(&b).unwrap();
        let p = chain.finish_probability(chain.start());
        let expected = 6.0_f64.powi(-100);
        assert!((p - expected).abs() < 1e-13 * expected, "{p:e}");
        assert_eq!(chain.dropped(), 0.0);
    }

    #[test]
    fn exact_rows_are_the_float_rows_in_fractions() {
        // One construction for both: every entry of the f64 kernel is the
        // exact one to rounding, on capped, forfeited and uncapped rules
        // with cycles (overshoot stay near the end) and long runs.
        for json in [
            r#"{"squares": 30, "snakes": [[17, 4]], "rules": {"extra_turn": {"on": 6}}}"#,
            r#"{"squares": 20, "rules": {"dice": {"weights": [1, 3, 0, 2]},
                "extra_turn": {"on": 2, "max_extra": 3}}}"#,
            r#"{"squares": 20, "ladders": [[3, 9]], "rules": {"dice": {"faces": 3},
                "extra_turn": {"on": 3, "forfeit_after": 2}, "overshoot": "bounce"}}"#,
            r#"{"squares": 400, "rules": {"dice": {"weights": [1, 99]},
                "extra_turn": {"on": 2}}}"#,
        ] {
            let b = board(json);
            let chain = Chain::compile(&b).unwrap();
            let outcomes = b.rules().dice().exact_outcomes();
            for s in chain.states() {
                let exact = exact_row(&b, &chain, chain.square(s), &outcomes, 100_000).unwrap();
                let float: Vec<(usize, f64)> = chain
                    .row(s)
                    .filter_map(|t| match t.to {
                        Target::State(e) => Some((e.get(), t.probability)),
                        Target::Finish => None,
                    })
                    .collect();
                assert_eq!(exact.len(), float.len(), "{json} {s}");
                for ((e, q), (f, p)) in exact.iter().zip(&float) {
                    use num_traits::ToPrimitive;
                    let q = q.to_f64().unwrap();
                    assert_eq!(e, f);
                    assert!((p - q).abs() <= 1e-13 * q, "{json} {s}: {p:e} vs {q:e}");
                }
            }
        }
    }

    #[test]
    fn capped_bonus_rolls_stop_at_the_cap() {
        // 100 squares, d6, a 6 rolls again at most once. From 0 the turn makes
        // two rolls with probability 1/6, so E[rolls] = 7/6, E[rolls²] =
        // 5/6 + 4/6 = 9/6.
        let b = board(r#"{"squares": 100, "rules": {"extra_turn": {"on": 6, "max_extra": 1}}}"#);
        let chain = Chain::compile(&b).unwrap();
        let s0 = chain.start();
        assert!((chain.expected_rolls(s0) - 7.0 / 6.0).abs() < 1e-15);
        assert!((chain.expected_rolls_squared(s0) - 1.5).abs() < 1e-15);
        // Ends on 7..=12 (6 then 1..6) with 1/36 each, 1..=5 with 1/6.
        let seven = chain.state_of(Square::new(7)).unwrap();
        let p: f64 = chain
            .row(s0)
            .filter(|t| t.to == Target::State(seven))
            .map(|t| t.probability)
            .sum();
        assert!((p - 1.0 / 36.0).abs() < 1e-16);
    }

    #[test]
    fn forfeit_leaves_the_token_in_place() {
        // A 6 rolls again; the second consecutive 6 is forfeited. From 0:
        // 6 then 6 (1/36) ends on 6; 6 then 1..5 ends on 7..11.
        let b =
            board(r#"{"squares": 100, "rules": {"extra_turn": {"on": 6, "forfeit_after": 2}}}"#);
        let chain = Chain::compile(&b).unwrap();
        let six = chain.state_of(Square::new(6)).unwrap();
        let p: f64 = chain
            .row(chain.start())
            .filter(|t| t.to == Target::State(six))
            .map(|t| t.probability)
            .sum();
        assert!((p - 1.0 / 36.0).abs() < 1e-16);
    }

    #[test]
    fn jump_uses_are_counted_per_turn() {
        let b = Board::builtin_default();
        let chain = Chain::compile(&b).unwrap();
        let uses = chain.jump_uses(chain.start());
        // From 0 a 1 takes 1→38, a 4 takes 4→14: positions 0 and 1.
        assert_eq!(uses.len(), 2);
        assert_eq!((uses[0].jump, uses[1].jump), (0, 1));
        assert!((uses[0].expected - 1.0 / 6.0).abs() < 1e-16);
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_132() -> Result<(), Box<dyn std::error::Error>> {
        use crate::markov::chain::{Chain, Target};
        use crate::{Board, Square};

        let board = Board::builtin_default();
        let chain = Chain::compile(&board)?;
        // The start (off the board) is state 0; jump starts are not states.
        assert_eq!(chain.square(chain.start()), Square::OFF_BOARD);
        assert!(chain.state_of(Square::new(1)).is_none());
        // From the start, a roll of 1 takes the ladder 1→38.
        let to38 = chain.state_of(Square::new(38)).unwrap();
        let p: f64 = chain
            .row(chain.start())
            .filter(|t| t.to == Target::State(to38))
            .map(|t| t.probability)
            .sum();
        assert!((p - 1.0 / 6.0).abs() < 1e-15);
        Ok(())
    }
}
