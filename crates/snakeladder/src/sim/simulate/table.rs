//! The move table: every roll from every square, precomputed by calling
//! the move function, so the simulator's inner loop is a table look-up.
//!
//! The table does not re-implement a rule: each entry is the result of one
//! call of the rules of [`Board::play_roll`] (`Board::roll_end`: the same
//! move, without listing each chain's jumps, docs/chains.md), and a test
//! compares the table with [`Board::play_roll`] on every square, roll and
//! roll-within-turn.
//!
//! # Phases
//! A roll's effect can depend on how many rolls the turn has already made:
//! the `forfeit_after`-th consecutive bonus roll is forfeited, and a bonus
//! roll grants another only while the turn has made at most `max_extra`
//! extra rolls. `play_roll` reads `rolls_before` only through those two
//! numbers, so the rolls-before axis splits into at most four runs on which
//! every entry is the same (breaks at `0`, `forfeit_after − 1`,
//! `forfeit_after` and `max_extra`). The table keeps one layer per run — a
//! *phase* — built by calling `play_roll` with the run's first
//! `rolls_before`; the test checks every `rolls_before` of every run up to
//! a bound and both ends of each run.

use super::SimulateError;
use crate::{Board, Square};

/// "No next jump" in [`MoveTable::next`].
pub(crate) const NO_NEXT: u32 = u32::MAX;

/// Most entries (squares × rolls × phases) a table may hold: the entry
/// index, times the dice's totals, must fit the `u32` row offset of an
/// table entry. The memory a table needs is estimated and limited before
/// building it ([`super::estimate_memory`]); this bound only keeps the
/// packing exact.
pub const MAX_TABLE_ENTRIES: u64 = u32::MAX as u64;

/// Flag bit of [`TableEntry::info`]: the roll ends on the last square.
pub(crate) const FINISHED: u32 = 1 << 31;
/// Flag bit of [`TableEntry::info`]: the same player rolls again.
pub(crate) const EXTRA: u32 = 1 << 30;
/// Mask of [`TableEntry::info`]: 1 + the index of the roll's first jump, 0
/// for none. The rest of the roll's jumps are that jump's chain
/// ([`MoveTable::path`]), stored once per jump rather than once per roll, so
/// the table stays linear in the board's size however long its chains.
pub(crate) const PATH: u32 = EXTRA - 1;

/// One roll from one square, packed into one 64-bit word for the inner
/// loop: the look-up of the next entry then scales its index by 8, which
/// the address itself does, with no shift on the loop's critical path, and
/// one load gives both halves, the finished flag being the word's sign.
/// The end square is kept apart ([`MoveTable::ends`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TableEntry(u64);

impl TableEntry {
    fn new(row: u32, info: u32) -> TableEntry {
        TableEntry(u64::from(info) << 32 | u64::from(row))
    }

    /// `end × rolls`: the offset of the end square's row within a phase,
    /// kept so the inner loop need not multiply on its critical path.
    #[inline(always)]
    pub(crate) fn row(self) -> u32 {
        self.0 as u32
    }

    /// [`FINISHED`] | [`EXTRA`] | (1 + jump path index, or 0).
    #[inline(always)]
    pub(crate) fn info(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// Whether the roll ends on the last square: the word's sign bit.
    #[inline(always)]
    pub(crate) fn finished(self) -> bool {
        const _: () = assert!(FINISHED == 1 << 31);
        (self.0 as i64) < 0
    }
}

/// Every roll from every square of a board, with its end square, the jumps
/// it takes, whether it finishes and whether it grants another roll.
#[derive(Clone, Debug)]
pub struct MoveTable {
    squares: usize,
    rolls: usize,
    /// First `rolls_before` of each phase, increasing, starting at 0.
    phase_starts: Vec<u32>,
    /// `entries[(phase * squares + square) * rolls + roll_index]`.
    entries: Vec<TableEntry>,
    /// The square each entry's roll ends on, at the same index.
    ends: Vec<u32>,
    /// Per jump, the jump its chain takes next ([`NO_NEXT`] for none).
    next: Vec<u32>,
    /// Every jump, each before the jump it leads to.
    upstream_first: Vec<u32>,
    /// Whether any entry grants an extra roll.
    has_extra: bool,
    /// Whether every move takes at most one jump (no jump leads to another).
    single_jumps: bool,
    start: u32,
}

impl MoveTable {
    /// Builds the table by calling the move function (as
    /// [`Board::play_roll`] does, without listing each chain) for every
    /// square, dice total and phase: time and memory linear in the squares
    /// and jumps.
    ///
    /// # Errors
    /// [`SimulateError::TooLarge`] past [`MAX_TABLE_ENTRIES`].
    pub fn new(board: &Board) -> Result<MoveTable, SimulateError> {
        let squares = board.last().index() + 1;
        let outcomes = board.rules().dice().rolls();
        let rolls = outcomes.len();
        let phase_starts = phase_starts(board);
        let entries_needed = Self::entries_needed(board);
        if entries_needed > MAX_TABLE_ENTRIES {
            return Err(SimulateError::TooLarge {
                squares: squares as u64,
                rolls: rolls as u64,
                phases: phase_starts.len() as u64,
                entries: entries_needed,
                limit: MAX_TABLE_ENTRIES,
            });
        }
        let mut entries = Vec::with_capacity(entries_needed as usize);
        let mut ends = Vec::with_capacity(entries_needed as usize);
        let mut has_extra = false;
        for &rolls_before in &phase_starts {
            for square in 0..squares {
                for outcome in outcomes {
                    let step =
                        board.roll_end(Square::new(square as u32), rolls_before, outcome.total);
                    let mut info = step.walk.first.map_or(0, |j| j as u32 + 1);
                    if step.finished {
                        info |= FINISHED;
                    }
                    if step.extra_roll {
                        info |= EXTRA;
                        has_extra = true;
                    }
                    entries.push(TableEntry::new(step.end.get() * rolls as u32, info));
                    ends.push(step.end.get());
                }
            }
        }
        let chains = board.chain_index();
        let next: Vec<u32> = (0..board.jumps().len())
            .map(|j| chains.next(j).map_or(NO_NEXT, |n| n as u32))
            .collect();
        Ok(MoveTable {
            single_jumps: !chains.any_chained(),
            squares,
            rolls,
            phase_starts,
            entries,
            ends,
            next,
            upstream_first: chains.upstream_first().to_vec(),
            has_extra,
            start: board.rules().start().get(),
        })
    }

    /// The entries (squares × rolls × phases) a table of `board` holds.
    pub fn entries_needed(board: &Board) -> u64 {
        (board.last().index() as u64 + 1)
            * board.rules().dice().rolls().len() as u64
            * phase_starts(board).len() as u64
    }

    /// Squares 0..=N: the number of rows of one phase.
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// Distinct dice totals: the number of columns, in the order of
    /// [`Dice::outcomes`](crate::Dice::outcomes).
    pub fn rolls(&self) -> usize {
        self.rolls
    }

    /// Layers for the extra-roll rule (1 without extra rolls or with neither
    /// a cap nor a forfeit).
    #[cfg(test)]
    pub fn phases(&self) -> usize {
        self.phase_starts.len()
    }

    /// The largest chance, over every square but the last and every phase,
    /// that one roll of `dice` (the dice the table was built for) finishes
    /// the game: every roll of a game finishes with at most this chance, so
    /// a game lasts at least `1 / chance` rolls on average.
    pub(crate) fn best_finishing_chance(&self, dice: &crate::Dice) -> f64 {
        let chances: Vec<f64> = dice.rolls().iter().map(|o| o.probability).collect();
        self.entries
            .chunks_exact(self.rolls)
            .enumerate()
            // A token on the last square has finished: its row is no roll
            // of a game.
            .filter(|(i, _)| i % self.squares != self.squares - 1)
            .map(|(_, row)| {
                row.iter()
                    .zip(&chances)
                    .filter(|(entry, _)| entry.finished())
                    .map(|(_, p)| p)
                    .sum::<f64>()
            })
            .fold(0.0, f64::max)
    }

    /// Whether any roll grants another roll.
    pub fn has_extra_rolls(&self) -> bool {
        self.has_extra
    }

    /// Whether every move takes at most one jump (then a path is its jump).
    pub(crate) fn single_jumps(&self) -> bool {
        self.single_jumps
    }

    /// Number of path ids: one per jump, the path being that jump's chain.
    pub(crate) fn paths(&self) -> usize {
        self.next.len()
    }

    /// Per jump, the jump its chain takes next, or [`NO_NEXT`].
    pub(crate) fn next(&self) -> &[u32] {
        &self.next
    }

    /// Every jump, each before the jump it leads to.
    pub(crate) fn upstream_first(&self) -> &[u32] {
        &self.upstream_first
    }

    /// The square every token starts on.
    pub fn start(&self) -> Square {
        Square::new(self.start)
    }

    /// The phase a roll belongs to when the turn has made `rolls_before`
    /// rolls.
    #[cfg(test)]
    pub fn phase_of(&self, rolls_before: u32) -> usize {
        self.phase_starts.partition_point(|&s| s <= rolls_before) - 1
    }

    /// First `rolls_before` of each phase.
    pub(crate) fn phase_starts(&self) -> &[u32] {
        &self.phase_starts
    }

    /// Rewrites one roll (every phase) to end on `end` without a jump: a
    /// deliberately wrong transition for the tests of the cross-check.
    #[cfg(test)]
    pub(crate) fn perturb(&mut self, square: Square, roll: usize, end: Square, last: Square) {
        for phase in 0..self.phase_starts.len() {
            let i = (phase * self.squares + square.index()) * self.rolls + roll;
            let keep = self.entries[i].info() & EXTRA;
            self.entries[i] = TableEntry::new(
                end.get() * self.rolls as u32,
                keep | if end == last { FINISHED } else { 0 },
            );
            self.ends[i] = end.get();
        }
    }

    /// The whole table, phase-major, for the inner loop.
    pub(crate) fn entries(&self) -> &[TableEntry] {
        &self.entries
    }

    /// The square each entry of [`MoveTable::entries`] ends on.
    pub(crate) fn ends(&self) -> &[u32] {
        &self.ends
    }

    /// The jumps (indices into [`Board::jumps`]) of path `id` (1-based as in
    /// [`TableEntry::info`]): jump `id − 1` and the rest of its chain.
    pub(crate) fn path(&self, id: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(id - 1), |&j| {
            Some(self.next[j as usize]).filter(|&n| n != NO_NEXT)
        })
    }

    /// Where a roll of outcome index `roll` from `square`, made after
    /// `rolls_before` rolls of the same turn, ends; with the jumps it takes,
    /// whether it finishes and whether it grants another roll. The same as
    /// [`Board::play_roll`] reports.
    ///
    /// # Panics
    /// If `square` is past the last square or `roll` past the dice's totals.
    #[cfg(test)]
    pub fn lookup(&self, square: Square, rolls_before: u32, roll: usize) -> TableMove {
        assert!(square.index() < self.squares && roll < self.rolls);
        let i = (self.phase_of(rolls_before) * self.squares + square.index()) * self.rolls + roll;
        let e = self.entries[i];
        let path = e.info() & PATH;
        TableMove {
            end: Square::new(self.ends[i]),
            jumps: if path == 0 {
                Vec::new()
            } else {
                self.path(path).collect()
            },
            finished: e.finished(),
            extra_roll: e.info() & EXTRA != 0,
        }
    }
}

/// One roll as the table has it; see [`MoveTable::lookup`].
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableMove {
    /// Where the roll ends.
    pub end: Square,
    /// The jumps taken, as indices into [`Board::jumps`], in order.
    pub jumps: Vec<u32>,
    /// Whether the token reached the last square.
    pub finished: bool,
    /// Whether the same player rolls again.
    pub extra_roll: bool,
}

/// The first `rolls_before` of each run on which `play_roll` cannot change:
/// `play_roll` compares `rolls_before + 1` with `forfeit_after` (equality)
/// and with `max_extra` (`≤`), so the breaks are at `forfeit_after − 1`,
/// `forfeit_after` and `max_extra`.
fn phase_starts(board: &Board) -> Vec<u32> {
    let mut starts = vec![0_u32];
    if let Some(x) = board.rules().extra_turn() {
        if let Some(k) = x.forfeit_after() {
            starts.push(k - 1);
            starts.push(k);
        }
        if let Some(m) = x.max_extra() {
            starts.push(m);
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example the item's documentation gave while it was public.
    #[test]
    fn the_default_board_has_one_phase_of_six_rolls() {
        let board = Board::builtin_default();
        let table = MoveTable::new(&board).unwrap();
        assert_eq!(table.rolls(), 6);
        assert_eq!(table.phases(), 1);
    }

    /// Checks the table against `play_roll` on every square, every roll and
    /// every `rolls_before` up to `exhaustive`, plus both ends of every
    /// phase and a few far-off values.
    #[track_caller]
    fn assert_table_matches(board: &Board) {
        const EXHAUSTIVE: u32 = 40;
        let table = MoveTable::new(board).unwrap();
        let starts = table.phase_starts().to_vec();
        let mut probes: Vec<u32> = (0..EXHAUSTIVE).collect();
        for &s in &starts {
            probes.extend([s.saturating_sub(1), s, s.saturating_add(1)]);
        }
        probes.extend([1000, u32::MAX - 1, u32::MAX]);
        let outcomes = board.rules().dice().rolls();
        for square in 0..=board.last().get() {
            for (i, outcome) in outcomes.iter().enumerate() {
                for &before in &probes {
                    let step = board.play_roll(Square::new(square), before, outcome.total);
                    let got = table.lookup(Square::new(square), before, i);
                    let jumps: Vec<u32> = step
                        .jumps
                        .iter()
                        .map(|j| board.jump_index(j.from()).unwrap() as u32)
                        .collect();
                    assert_eq!(
                        (got.end, got.jumps, got.finished, got.extra_roll),
                        (step.end, jumps, step.finished, step.extra_roll),
                        "square {square}, roll {}, rolls before {before}",
                        outcome.total
                    );
                }
            }
        }
    }

    #[test]
    fn default_board_table_equals_play_roll() {
        let board = Board::builtin_default();
        assert_table_matches(&board);
        assert_eq!(MoveTable::new(&board).unwrap().phases(), 1);
    }

    #[test]
    fn every_rule_variant_table_equals_play_roll() {
        let rules = [
            r#"{"overshoot": "bounce", "chains": "follow"}"#,
            r#"{"overshoot": "win", "entry": "six", "start": 1}"#,
            r#"{"dice": {"count": 2, "faces": 4}, "extra_turn": {"on": 8}, "overshoot": "bounce"}"#,
            r#"{"extra_turn": {"on": 6, "max_extra": 2, "forfeit_after": 3}}"#,
            r#"{"extra_turn": {"on": 6, "max_extra": 5, "forfeit_after": 2}, "entry": "six"}"#,
            r#"{"extra_turn": {"on": 1, "max_extra": 0}, "overshoot": "bounce"}"#,
            r#"{"extra_turn": {"on": 6, "max_extra": 4294967295}}"#,
            r#"{"extra_turn": {"on": 2, "forfeit_after": 1}, "dice": {"weights": [1, 2, 0, 3]}}"#,
        ];
        for rules in rules {
            let json = format!(
                r#"{{"squares": 30, "ladders": [[3, 12], [12, 22]], "snakes": [[27, 12], [20, 5]], "rules": {rules}}}"#
            );
            let json = if rules.contains("follow") {
                json
            } else {
                // Without chains a jump may not end where another starts.
                json.replace("[[3, 12], [12, 22]]", "[[3, 13], [12, 22]]")
                    .replace("[27, 12]", "[27, 11]")
            };
            let board = Board::from_json_str(&json).unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert_table_matches(&board);
        }
    }

    #[test]
    fn phases_follow_the_extra_roll_rule() {
        let board = Board::from_json_str(
            r#"{"squares": 20, "rules": {"extra_turn": {"on": 6, "max_extra": 2, "forfeit_after": 3}}}"#,
        )
        .unwrap();
        let table = MoveTable::new(&board).unwrap();
        assert_eq!(table.phase_starts(), &[0, 2, 3]);
        assert_eq!(table.phase_of(0), 0);
        assert_eq!(table.phase_of(1), 0);
        assert_eq!(table.phase_of(2), 1);
        assert_eq!(table.phase_of(7), 2);
    }

    #[test]
    fn chained_jumps_are_recorded_in_order() {
        let board = Board::from_json_str(
            r#"{"squares": 30, "ladders": [[3, 12], [12, 22]], "rules": {"chains": "follow"}}"#,
        )
        .unwrap();
        let table = MoveTable::new(&board).unwrap();
        let mv = table.lookup(Square::OFF_BOARD, 0, 2);
        assert_eq!(mv.end, Square::new(22));
        assert_eq!(mv.jumps, [0, 1]);
    }
}
