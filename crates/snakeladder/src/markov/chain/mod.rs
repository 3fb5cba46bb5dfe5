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

mod avoiding;
mod compile;
mod rows;
mod turn;

use crate::Square;
use crate::markov::sparse::Csr;
use rows::Rows;
// Named by the docs above (and the tests); the code that uses them moved
// to `compile` and `turn`.
#[cfg(any(doc, test))]
use crate::Board;
#[cfg(doc)]
use crate::markov::tolerance;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

pub(crate) use avoiding::avoiding;
pub(crate) use compile::KEEP_ROWS_BELOW;
pub(crate) use turn::{Bonus, ExactRowGap, exact_row};

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

/// A board compiled to an absorbing Markov chain over turns, in sparse form.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    /// Square of each state, increasing.
    squares: Vec<Square>,
    start: StateIndex,
    finish: Square,
    /// The kernel's rows, `Q` off its diagonal in the form the sparse
    /// solver reads and shares ([`Chain::off_diagonal`]).
    rows: Rows,
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
    /// Rests of each state (as `jump_offsets`); both empty when every turn
    /// is one roll, where a turn rests only where it ends
    /// ([`Chain::rests`] reads them from the row). On a board of ten
    /// million squares the two copies would take 1.4 GB.
    rest_offsets: Vec<usize>,
    rests: Vec<Rest>,
    dropped: f64,
    cut: bool,
    entry_rounding: f64,
}

/// In [`Chain`]'s `next_jump`: the chain ends with this jump.
const NO_NEXT: u32 = u32::MAX;

impl Chain {
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
    /// Inlined always, as its loops are: what a caller does not read of a
    /// transition (its rolls, say) is then never looked up.
    #[inline(always)]
    pub fn row(&self, state: StateIndex) -> impl Iterator<Item = Transition> + '_ {
        self.rows.row(state.get())
    }

    /// The number of entries of the row of `state`.
    pub fn row_len(&self, state: StateIndex) -> usize {
        self.rows.len_of(state.get())
    }

    /// `Q` off its diagonal, in compressed rows: each row's moves to other
    /// states, as stored (the stays and finishes are kept apart). The
    /// sparse solver shares it rather than build a copy.
    pub(crate) fn off_diagonal(&self) -> &Arc<Csr> {
        self.rows.off()
    }

    /// Number of stored kernel entries.
    pub fn entries(&self) -> usize {
        self.rows.entries()
    }

    /// Row `state` of Q, the transient part of the kernel: `(state index,
    /// probability)` of the turns that end on a state, the finish left out.
    #[inline(always)]
    pub fn q_row(&self, state: StateIndex) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.row(state).filter_map(|t| match t.to {
            Target::State(e) => Some((e.get(), t.probability)),
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
            (&[][..], Some(self.row(state)))
        } else {
            (
                &self.rests[self.rest_offsets[s]..self.rest_offsets[s + 1]],
                None,
            )
        };
        let from_row = ends.into_iter().flatten().filter_map(move |t| match t.to {
            Target::State(e) => Some(Rest {
                square: self.squares[e.get()],
                expected: t.probability,
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
            + self.rows.held_bytes()
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
        for (s, finishes_now) in self.states().zip(finishes.iter_mut()) {
            for t in self.row(s) {
                match t.to {
                    _ if t.probability <= 0.0 => {}
                    Target::State(to) => by_target[to.get() + 1] += 1,
                    Target::Finish => *finishes_now = true,
                }
            }
        }
        for t in 0..n {
            by_target[t + 1] += by_target[t];
        }
        let mut fill = by_target.clone();
        let mut from = vec![0_u32; by_target[n] as usize];
        for s in self.states() {
            for t in self.row(s) {
                if let Target::State(to) = t.to
                    && t.probability > 0.0
                {
                    from[fill[to.get()] as usize] = s.0;
                    fill[to.get()] += 1;
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

/// Sorts `v[from..]` by key and merges its entries with equal keys.
/// Inlined always: called once or twice a row by the compile, where a
/// call costs about a tenth of the compile of a small board (callgrind,
/// docs/performance.md).
#[inline(always)]
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
        use crate::design::Layout;
        let mut boards: Vec<Board> = Board::shipped()
            .into_iter()
            .filter(|b| b.rules().extra_turn().is_none())
            .collect();
        assert!(boards.len() >= 8, "{}", boards.len());
        for (squares, seed) in [(30, 1), (100, 2), (1_000, 3), (5_000, 4)] {
            let jumps = squares / 8;
            boards.push(
                Layout::new(squares, jumps, jumps, crate::Seed::new(seed))
                    .generate()
                    .unwrap(),
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
                for o in b.rules().dice().rolls() {
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

    /// Rows read back from their split storage (moves off the diagonal
    /// apart from stays and finishes) come in the order they were made:
    /// targets increasing, the stay among them, the finish last; and
    /// their count is the row's length.
    #[test]
    fn split_rows_read_back_in_order() {
        let (mut stays, mut finishes) = (0, 0);
        for b in Board::shipped() {
            let chain = Chain::compile(&b).unwrap();
            let mut entries = 0;
            for s in chain.states() {
                let row: Vec<Transition> = chain.row(s).collect();
                assert_eq!(row.len(), chain.row_len(s));
                assert!(row.windows(2).all(|w| w[0].to < w[1].to), "{s}");
                stays += row.iter().filter(|t| t.to == Target::State(s)).count();
                finishes += row.iter().filter(|t| t.to == Target::Finish).count();
                entries += row.len();
            }
            assert_eq!(entries, chain.entries());
        }
        assert!(stays > 0 && finishes > 0);
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
