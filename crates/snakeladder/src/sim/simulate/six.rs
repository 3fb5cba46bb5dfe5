//! The inner loop for the common board: one six-faced die, no extra-roll
//! rule, and squares and jumps that fit in [`Marks`] (the built-in board).
//!
//! It plays exactly the games of [`super::engine`]'s marking loop, roll for
//! roll and draw for draw, in a loop shaped for the roll-to-roll dependency
//! chain (issue 29; docs/performance.md, "Simulation against the bare
//! loop"). A roll depends on the one before only through the row it starts
//! from; everything else a roll does (count the entry, or its marks into
//! the token's) hangs off that chain. So:
//! - the rows are `u16` in a table of [`ROWS`] = 2^16 + 8 entries. A row
//!   is below 2^16 and a face below 8, so the compiler proves every index
//!   in bounds: no compare and branch, and no mask, between one load and
//!   the next. The chain is one add and one load per roll;
//! - each worker's counts and marks are [`Cell`]s of the same [`ROWS`]
//!   entries, indexed by the same index, again without a check: one
//!   scaled index reaches both, so the loop keeps two pointers in
//!   registers, not three;
//! - the last square's row is 0 (square `s` below it has row `6(s + 1)`,
//!   so a table entry's index here is its index in the move table plus
//!   [`OFFSET`]): a token finishes when its row is zero, a test of the
//!   loaded row beside the chain, with nothing to compare it to (the
//!   finished flag of the general table would need a mask on the chain);
//! - the four 16-bit slices of a generator call are read in turn, without
//!   the general sampler's "is the buffer empty?" test before each. The
//!   general sampler refills when the unread slices are all zero; here a
//!   zero slice is read and rejected like any slice below `2^16 mod 6`.
//!   Both skip the same zero slices and accept the same others, so they
//!   draw the same faces and leave the generator in the same state.
//!
//! Only the first [`OFFSET`] + [`MoveTable::entries`] of each array are
//! ever reached (a row plus a face is an entry of the table). The rows'
//! padding is zeroed by the allocator and never touched (address space,
//! not memory); the cells (2 MiB) are written once per worker and run, and
//! reused from batch to batch (the engine's `free_cells`).
//!
//! The cap of [`MAX_ROLLS_PER_TOKEN`] rolls is checked once per generator
//! call instead of once per roll: a token that reaches it stops within
//! four rolls of it, with the same error.

use super::MAX_ROLLS_PER_TOKEN;
use super::marks::{MARK_WORDS, Marks};
use super::sampler::{DiceStream, Six, Uniform16};
use super::table::MoveTable;
use crate::Dice;
use rand::RngCore;

/// Entries of each padded array: a `u16` row plus a face (below 8, as the
/// compiler can tell from the multiply that draws it) is below this.
pub(super) const ROWS: usize = (1 << 16) + 8;

/// Where the move table's entry `i` is in the padded arrays: `i + OFFSET`,
/// the last square's row (never rolled from) having moved to the front.
pub(super) const OFFSET: usize = 6;

/// One entry's count of rolls in the current cluster, and its [`Marks`].
/// 32 bytes, aligned: one shift scales the index, and the marks are
/// aligned for a vector `or` straight from memory.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(super) struct Cell {
    /// The entry's marks (first, so they are aligned).
    marks: Marks,
    /// Rolls that used the entry in the current cluster.
    pub(super) count: u64,
}

/// A zeroed array of [`ROWS`] entries on the heap (never on the stack).
fn padded<T: Copy + Default>() -> Box<[T; ROWS]> {
    vec![T::default(); ROWS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the vector has ROWS entries"))
}

/// The move table as the six-faced loop reads it: next rows, padded to
/// [`ROWS`] entries, and the marks its workers' cells start with.
#[derive(Clone, Debug)]
pub(super) struct SixTable {
    /// Per entry, the row of the square the roll ends on.
    next: Box<[u16; ROWS]>,
    /// Per entry (from index 0, so the first [`OFFSET`] are empty), the
    /// [`Marks`] of its end square and jumps.
    marks: Vec<Marks>,
    /// The start square's row.
    start: u16,
}

impl SixTable {
    /// The padded table, when the board is one the loop plays exactly as
    /// the marking loop: one fair six-faced die, no extra rolls, every row
    /// below 2^16, and a roll finishing exactly when it ends on the last
    /// square (never the start).
    pub(super) fn new(table: &MoveTable, marks: &[Marks], dice: &Dice) -> Option<SixTable> {
        let entries = table.entries();
        let last = table.squares() - 1;
        let start = table.start().index();
        let finishes_at_last = entries
            .iter()
            .zip(table.ends())
            .all(|(e, &end)| e.finished() == (end as usize == last));
        if dice.fair() != Some((1, 6))
            || table.rolls() != 6
            || table.has_extra_rolls()
            || !finishes_at_last
            || start == last
            || OFFSET + entries.len() > 1 << 16
        {
            return None;
        }
        let row = |square: usize| {
            let row = if square == last { 0 } else { (square + 1) * 6 };
            u16::try_from(row).expect("rows fit: checked above")
        };
        let mut next = padded::<u16>();
        for (n, &end) in next[OFFSET..].iter_mut().zip(table.ends()) {
            *n = row(end as usize);
        }
        let mut padded_marks = vec![[0; MARK_WORDS]; OFFSET];
        padded_marks.extend_from_slice(marks);
        Some(SixTable {
            next,
            marks: padded_marks,
            start: row(start),
        })
    }

    /// A worker's cells: zero counts, and every entry's marks.
    pub(super) fn cells(&self) -> Box<[Cell; ROWS]> {
        let mut cells = padded::<Cell>();
        for (cell, m) in cells.iter_mut().zip(&self.marks) {
            cell.marks = *m;
        }
        cells
    }
}

/// Plays `games` games of `players` tokens each from `stream`, counting
/// each roll in its entry's cell: `token(rolls, marks)` after each token,
/// `game(rounds, winner)` after each game (the fewest rolls, and the first
/// seat that made them); `Err(rolls)` past the cap. The generator and its
/// unread slices stay in registers for all the games.
#[inline(never)]
pub(super) fn six_games(
    six: &SixTable,
    cells: &mut [Cell; ROWS],
    stream: &mut DiceStream<Uniform16<Six>>,
    games: u64,
    players: u64,
    mut token: impl FnMut(u64, Marks),
    mut game: impl FnMut(u64, u64),
) -> Result<(), u64> {
    let (rng, buffer) = stream.parts();
    let mut g = rng.clone();
    let mut left = *buffer;
    let mut result = Ok(());
    'games: for _ in 0..games {
        let mut best = (u64::MAX, 0_u64);
        for seat in 0..players {
            match six_token(six, cells, &mut g, &mut left) {
                Ok((rolls, seen)) => {
                    token(rolls, seen);
                    if rolls < best.0 {
                        best = (rolls, seat);
                    }
                }
                Err(rolls) => {
                    result = Err(rolls);
                    break 'games;
                }
            }
        }
        game(best.0, best.1);
    }
    let (rng, buffer) = stream.parts();
    *rng = g;
    *buffer = left;
    result
}

/// Plays one token: `Ok((rolls, marks))`, or `Err(rolls)` past the cap.
#[inline(always)]
fn six_token(
    six: &SixTable,
    cells: &mut [Cell; ROWS],
    g: &mut impl RngCore,
    left: &mut u64,
) -> Result<(u64, Marks), u64> {
    let next = &*six.next;
    // A row, widened once where it is loaded (the compiler still sees it
    // is below 2^16).
    let mut at = usize::from(six.start);
    let mut rolls = 0_u64;
    let mut seen: Marks = [0; MARK_WORDS];
    // One 16-bit slice `$x`: a face by Lemire's multiply, exactly as the
    // general sampler (`sampler::Uniform16`), or rejected; then the roll of
    // that face. Whether the token finished.
    macro_rules! slice {
        ($x:expr) => {{
            let m = ($x & 0xffff) as usize * 6;
            if (m & 0xffff) >= (1 << 16) % 6 {
                // Below 2^16 + 6: in bounds, as the compiler sees.
                let idx = at + (m >> 16);
                at = usize::from(next[idx]);
                let cell = &mut cells[idx];
                cell.count += 1;
                for (s, bits) in seen.iter_mut().zip(cell.marks) {
                    *s |= bits;
                }
                rolls += 1;
                at == 0
            } else {
                false
            }
        }};
    }
    // The slices the token before left unread.
    while *left != 0 {
        let x = *left;
        *left >>= 16;
        if slice!(x) {
            return Ok((rolls, seen));
        }
    }
    loop {
        if rolls >= MAX_ROLLS_PER_TOKEN {
            return Err(MAX_ROLLS_PER_TOKEN);
        }
        let x = g.next_u64();
        for i in 0..4 {
            if slice!(x >> (16 * i)) {
                *left = x >> 16 >> (16 * i);
                return Ok((rolls, seen));
            }
        }
    }
}
