//! Compiling a board: a search from the start finds the states, and each
//! state's row of the turn kernel is built from [`Board::play_roll`] (see
//! the parent module's docs).

use super::rows::RowsBuilder;
use super::turn::{Bonus, TurnPath, float_outcomes, keep_float, turn_rolls};
use super::{Chain, JumpUse, NO_NEXT, Rest, StateIndex, Target, merge_by};
use crate::markov::analysis::AnalysisError;
use crate::{Board, Square, markov::tolerance};

/// Boards of fewer squares keep the rows of [`Chain::compile`]'s search
/// and build the chain from them; larger ones build each row again rather
/// than hold every row twice. Below it the copy is at most about 20 MB
/// (counted by `limits::chain_bytes`), and it saves a third of a small
/// board's compile.
pub(crate) const KEEP_ROWS_BELOW: usize = 65_536;

/// In the compiler's table of found squares: a square not found (yet).
const UNSEEN: u32 = u32::MAX;

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

    /// Room for the rows of a search of `board` over `totals` dice totals:
    /// every row when `keep`, else one at a time.
    fn for_search(board: &Board, keep: bool, totals: usize) -> RawRows {
        if keep {
            let last = board.last();
            let one_roll = board.rules().extra_turn().is_none();
            // Most boards reach nearly every square; the cap keeps a board
            // of many dice totals from reserving more than it will use.
            let entries = ((last.index() + 1) * totals).min(1 << 20);
            let jumps = board.jumps().len() * totals;
            let rows = last.index() + 1;
            RawRows::with_capacity(rows, entries, if one_roll { 0 } else { entries }, jumps)
        } else {
            RawRows::with_capacity(1, 64, 64, 64)
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
    /// [`AnalysisError::RowSum`] if a row does not sum to 1 (a bug; every valid
    /// board compiles).
    pub fn compile(board: &Board) -> Result<Chain, AnalysisError> {
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
    pub(super) fn compile_one_roll(board: &Board) -> Result<Chain, AnalysisError> {
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
        let mut rows = RowsBuilder::with_capacity(n, ends.len(), false);
        let mut expected_rolls = vec![0.0; n];
        // A turn is one roll: its square is 1 whatever the roll, so its
        // expectation is the dice's total probability, summed in the order
        // `raw_row` sums it (the same for every row).
        let squared = outcomes.iter().fold(0.0, |sum, &(_, p)| sum + p);
        let expected_rolls_squared = vec![squared; n];
        let mut jump_offsets = vec![0; n + 1];
        let mut jump_uses = Vec::with_capacity(jumps.len());
        for (s, &square) in squares.iter().enumerate() {
            let r = found[square.index()] as usize;
            let (from, to) = (row_at[r], row_at[r + 1]);
            let mut sum = 0.0;
            for &(end, p) in &ends[from.0 as usize..to.0 as usize] {
                let target = if end == last.get() {
                    Target::Finish
                } else {
                    Target::State(StateIndex(state_at[end as usize]))
                };
                rows.push(target, p, p);
                sum += p;
            }
            if (sum - 1.0).abs() > tolerance::ROW_SUM {
                return Err(AnalysisError::RowSum { square, sum });
            }
            rows.end_row();
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
            rows: rows.build(),
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
    pub(super) fn compile_keeping(board: &Board, keep: bool) -> Result<Chain, AnalysisError> {
        let last = board.last();
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
        let mut raw = RawRows::for_search(board, keep, outcomes.len());
        let search = Search::run(board, keep, &outcomes, &bonus, &mut raw, &mut path);
        let (squares, state_at) = number_states(&search.found, search.order);
        let target = |square: Square| {
            if square == last {
                Target::Finish
            } else {
                Target::State(StateIndex(state_at[square.index()]))
            }
        };
        let start = StateIndex(state_at[board.rules().start().index()]);
        let (mut chain, mut rows) = Chain::with_room(board, start, squares.len(), search.sizes);
        for &square in &squares {
            let r = if keep {
                search.found[square.index()] as usize
            } else {
                raw.clear();
                raw_row(board, square, &outcomes, &bonus, &mut raw, &mut path);
                // `raw` holds this row alone.
                0
            };
            chain.push_row(&mut rows, square, (&raw, r), one_roll, &target)?;
        }
        chain.rows = rows.build();
        chain.squares = squares;
        Ok(chain)
    }

    /// An empty chain of `board` with room for `n` states and the entries
    /// `sizes` counts, its offset arrays started, and its rows to build;
    /// its rows and squares are set last.
    fn with_room(
        board: &Board,
        start: StateIndex,
        n: usize,
        sizes: EntryCounts,
    ) -> (Chain, RowsBuilder) {
        let one_roll = board.rules().extra_turn().is_none();
        let mut chain = Chain {
            start,
            finish: board.last(),
            rows: RowsBuilder::with_capacity(0, 0, false).build(),
            expected_rolls: Vec::with_capacity(n),
            expected_rolls_squared: Vec::with_capacity(n),
            jump_offsets: Vec::with_capacity(n + 1),
            jump_uses: Vec::with_capacity(sizes.jumps),
            next_jump: next_jumps(board),
            rest_offsets: Vec::with_capacity(if one_roll { 0 } else { n + 1 }),
            rests: Vec::with_capacity(sizes.rests),
            dropped: 0.0,
            cut: false,
            entry_rounding: 0.0,
            squares: Vec::new(),
        };
        chain.jump_offsets.push(0);
        if !one_roll {
            chain.rest_offsets.push(0);
        }
        (chain, RowsBuilder::with_capacity(n, sizes.ends, !one_roll))
    }

    /// Appends row `r` of `raw`, the row of `square`, as the chain's next
    /// state: its entries (their ends mapped by `target`) to `rows`, its rewards,
    /// jump uses and rests, and what it dropped and rounded. With
    /// `one_roll` (no extra-turn rule) the chain stores no rolls or rests.
    ///
    /// # Errors
    /// [`AnalysisError::RowSum`] if the row does not sum to 1 within the
    /// tolerance and what its path dropped.
    #[inline]
    fn push_row(
        &mut self,
        rows: &mut RowsBuilder,
        square: Square,
        (raw, r): (&RawRows, usize),
        one_roll: bool,
        target: &impl Fn(Square) -> Target,
    ) -> Result<(), AnalysisError> {
        let mut sum = 0.0;
        let mut rolls = 0.0;
        for &(end, p, w) in raw.ends(r) {
            rows.push(target(end), p, w);
            sum += p;
            rolls += w;
        }
        if (sum - 1.0).abs() > tolerance::ROW_SUM + raw.dropped[r].unwrap_or(0.0) {
            return Err(AnalysisError::RowSum { square, sum });
        }
        rows.end_row();
        self.expected_rolls.push(rolls);
        self.expected_rolls_squared.push(raw.rolls_squared[r]);
        self.jump_uses.extend(
            raw.jumps(r)
                .iter()
                .map(|&(jump, expected)| JumpUse { jump, expected }),
        );
        self.jump_offsets.push(self.jump_uses.len());
        if !one_roll {
            self.rests.extend(
                raw.rests(r)
                    .iter()
                    .map(|&(square, expected)| Rest { square, expected }),
            );
            self.rest_offsets.push(self.rests.len());
        }
        if let Some(dropped) = raw.dropped[r] {
            self.dropped = self.dropped.max(dropped);
            self.cut = true;
        }
        self.entry_rounding = self
            .entry_rounding
            .max(raw.steps[r] as f64 * tolerance::KERNEL_ROUNDING);
        Ok(())
    }
}

/// How many entries of each kind the rows of a chain hold in all, to
/// reserve its arrays once.
#[derive(Copy, Clone, Default)]
struct EntryCounts {
    ends: usize,
    jumps: usize,
    rests: usize,
}

/// The search from the start that discovers a chain's states: every square
/// a turn can end on, in the order found.
struct Search {
    /// Each square's position in `order` (its row in the kept rows), or
    /// `UNSEEN`.
    found: Vec<u32>,
    /// The squares found, the start first.
    order: Vec<Square>,
    /// The entries of all rows found.
    sizes: EntryCounts,
}

impl Search {
    /// Searches from the start, building each found square's row into
    /// `raw`: kept there in order when `keep`, else cleared before the
    /// next.
    fn run(
        board: &Board,
        keep: bool,
        outcomes: &[(u32, f64)],
        bonus: &Bonus,
        raw: &mut RawRows,
        path: &mut TurnPath<f64>,
    ) -> Search {
        let last = board.last();
        let start = board.rules().start();
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
            raw_row(board, order[next], outcomes, bonus, raw, path);
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
        Search {
            found,
            order,
            sizes: EntryCounts { ends, jumps, rests },
        }
    }
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
