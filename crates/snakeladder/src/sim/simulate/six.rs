//! The inner loop for the common board: one six-faced die, no extra-roll
//! rule, and squares and jumps that fit in [`Marks`] (the built-in board).
//!
//! It plays exactly the games [`super::engine`]'s marking loop plays, roll
//! for roll, with two costs per roll taken out (issue 29: every statistic
//! within 1.05× the instructions of a bare table-and-xoshiro loop):
//! - the sampler's "is the buffer empty?" test. A generator call gives four
//!   16-bit slices; the general sampler refills when the slices left are
//!   all zero, and here the four slices of a call are read in turn, a zero
//!   slice being rejected like any slice below `2^16 mod 6`. Both skip the
//!   same zero slices and accept the same others, so they draw the same
//!   faces and leave the generator in the same state;
//! - the bounds check of the table look-up: the table is copied into
//!   [`SIX_ENTRIES`] cells and the index masked, which the compiler sees is
//!   in bounds (one `and` instead of a compare and a branch);
//! - the separate arrays: a cell holds a table entry, its count and its
//!   marks, so one shifted index reaches all three, and each worker's copy
//!   of the cells holds its counts.
//!
//! The cap of [`MAX_ROLLS_PER_TOKEN`] rolls is checked once per generator
//! call instead of once per roll: a token that reaches it stops within
//! four rolls of it, with the same error.

use super::MAX_ROLLS_PER_TOKEN;
use super::marks::{MARK_WORDS, Marks};
use super::table::{FINISHED, MoveTable};
use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Entries of the padded table: a power of two at least 6 × 128, the most a
/// board whose squares fit in [`Marks`] has with one six-faced die.
pub(super) const SIX_ENTRIES: usize = 1024;

/// One table entry with everything the loop reads and writes for it, so
/// that one index (scaled by one shift) reaches all of it: the entry, the
/// rolls that used it in the current cluster, and its marks.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct Cell {
    /// The table entry's word: the next roll's row in the low half (the
    /// index masks off the high half), the finished flag as its sign.
    entry: u64,
    count: u64,
    marks: Marks,
}

/// The move table and its marks in cells of [`SIX_ENTRIES`], padded with
/// cells no roll reaches. Each worker plays on its own copy, which holds
/// its counts ([`SixTable::cells`]).
#[derive(Clone, Debug)]
pub(super) struct SixTable {
    cells: Box<[Cell; SIX_ENTRIES]>,
    start: u64,
}

impl SixTable {
    /// The padded table, when `table` is a one-roll table of six dice
    /// totals that fits (the engine uses it only if the dice are one
    /// six-faced die).
    pub(super) fn new(table: &MoveTable, marks: &[Marks]) -> Option<SixTable> {
        let len = table.entries().len();
        if table.has_extra_rolls() || table.rolls() != 6 || len > SIX_ENTRIES {
            return None;
        }
        let unused = Cell {
            entry: 0,
            count: 0,
            marks: [0; MARK_WORDS],
        };
        let mut cells = Box::new([unused; SIX_ENTRIES]);
        for ((cell, e), m) in cells.iter_mut().zip(table.entries()).zip(marks) {
            *cell = Cell {
                entry: e.bits(),
                count: 0,
                marks: *m,
            };
        }
        Some(SixTable {
            cells,
            start: (table.start().index() * 6) as u64,
        })
    }

    /// Moves the counts of the cells into `counts` (one per table entry)
    /// and clears them.
    pub(super) fn take_counts(&mut self, counts: &mut [u64]) {
        for (c, cell) in counts.iter_mut().zip(self.cells.iter_mut()) {
            *c += std::mem::take(&mut cell.count);
        }
    }
}

/// A face of the die from a 16-bit slice `x`, or `None` when the slice is
/// rejected: Lemire's multiply, exactly as the general sampler's
/// (`sampler::Uniform16`).
#[inline(always)]
fn face(x: u64) -> Option<usize> {
    let m = (x & 0xffff) as u32 * 6;
    ((m & 0xffff) >= (1 << 16) % 6).then_some((m >> 16) as usize)
}

/// Plays `games` games of `players` tokens each: `token(rolls, marks)`
/// after each token, `game(rounds, winner)` after each game (the fewest
/// rolls, and the first seat that made them); `Err(rolls)` past the cap.
/// `rng` and `buffer` are the dice stream's generator and unread slices,
/// kept in registers for all the games.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn six_games(
    table: &mut SixTable,
    rng: &mut Xoshiro256PlusPlus,
    buffer: &mut u64,
    games: u64,
    players: u64,
    mut token: impl FnMut(u64, Marks),
    mut game: impl FnMut(u64, u64),
) -> Result<(), u64> {
    let mut g = rng.clone();
    let mut left = *buffer;
    for _ in 0..games {
        let mut best = (u64::MAX, 0_u64);
        for seat in 0..players {
            let played = six_token(table, &mut g, &mut left);
            let Ok((rolls, seen)) = played else {
                *rng = g;
                *buffer = left;
                return played.map(|_| ());
            };
            token(rolls, seen);
            if rolls < best.0 {
                best = (rolls, seat);
            }
        }
        game(best.0, best.1);
    }
    *rng = g;
    *buffer = left;
    Ok(())
}

/// Plays one token: `Ok((rolls, marks))`, or `Err(rolls)` past the cap.
#[inline(always)]
fn six_token(
    table: &mut SixTable,
    g: &mut Xoshiro256PlusPlus,
    left: &mut u64,
) -> Result<(u64, Marks), u64> {
    let cells = &mut *table.cells;
    let mut at = table.start;
    let mut rolls = 0_u64;
    let mut seen: Marks = [0; MARK_WORDS];
    // One roll of `face`: whether it finishes.
    macro_rules! step {
        ($face:expr) => {{
            // The entry's high half is masked off with the padding.
            let cell = &mut cells[(at + $face as u64) as usize & (SIX_ENTRIES - 1)];
            cell.count += 1;
            rolls += 1;
            for (s, m) in seen.iter_mut().zip(cell.marks) {
                *s |= m;
            }
            at = cell.entry;
            // The finished flag is the word's sign.
            const _: () = assert!(FINISHED == 1 << 31);
            (at as i64) < 0
        }};
    }
    // The slices the token before left unread.
    while *left != 0 {
        let x = *left;
        *left >>= 16;
        if let Some(f) = face(x)
            && step!(f)
        {
            return Ok((rolls, seen));
        }
    }
    loop {
        if rolls >= MAX_ROLLS_PER_TOKEN {
            return Err(MAX_ROLLS_PER_TOKEN);
        }
        *left = g.next_u64();
        for _ in 0..4 {
            let x = *left;
            *left >>= 16;
            if let Some(f) = face(x)
                && step!(f)
            {
                return Ok((rolls, seen));
            }
        }
    }
}
