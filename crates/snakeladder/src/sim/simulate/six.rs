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
//! - the bounds check of the table look-up: the table is copied into arrays
//!   of [`SIX_ENTRIES`] entries and the index masked, which the compiler
//!   sees is in bounds (one `and` instead of a compare and a branch).
//!
//! The cap of [`MAX_ROLLS_PER_TOKEN`] rolls is checked once per generator
//! call instead of once per roll: a token that reaches it stops within
//! four rolls of it, with the same error.

use super::MAX_ROLLS_PER_TOKEN;
use super::marks::{MARK_WORDS, Marks};
use super::table::{MoveTable, TableEntry};
use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Entries of the padded table: a power of two at least 6 × 128, the most a
/// board whose squares fit in [`Marks`] has with one six-faced die.
pub(super) const SIX_ENTRIES: usize = 1024;

/// The move table and its marks in arrays of [`SIX_ENTRIES`], padded with
/// entries no roll reaches.
#[derive(Clone, Debug)]
pub(super) struct SixTable {
    entries: Box<[TableEntry; SIX_ENTRIES]>,
    marks: Box<[Marks; SIX_ENTRIES]>,
    start: usize,
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
        let mut entries = Box::new([table.entries()[0]; SIX_ENTRIES]);
        entries[..len].copy_from_slice(table.entries());
        let mut padded = Box::new([[0; MARK_WORDS]; SIX_ENTRIES]);
        padded[..len].copy_from_slice(marks);
        Some(SixTable {
            entries,
            marks: padded,
            start: table.start().index() * 6,
        })
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

/// Plays one token: `Ok((rolls, marks))`, or `Err(rolls)` past the cap.
/// `rng` and `buffer` are the dice stream's generator and unread slices.
#[inline(always)]
pub(super) fn six_token(
    table: &SixTable,
    counts: &mut [u64; SIX_ENTRIES],
    rng: &mut Xoshiro256PlusPlus,
    buffer: &mut u64,
) -> Result<(u64, Marks), u64> {
    let entries = &*table.entries;
    let marks = &*table.marks;
    let mut at = table.start;
    let mut rolls = 0_u64;
    let mut seen: Marks = [0; MARK_WORDS];
    // One roll of `face`: whether it finishes.
    macro_rules! step {
        ($face:expr) => {{
            let idx = (at + $face) & (SIX_ENTRIES - 1);
            let e = entries[idx];
            counts[idx] += 1;
            rolls += 1;
            for (s, m) in seen.iter_mut().zip(marks[idx]) {
                *s |= m;
            }
            at = e.row() as usize;
            e.finished()
        }};
    }
    let mut g = rng.clone();
    let mut left = *buffer;
    'game: {
        // The slices the token before left unread.
        while left != 0 {
            let x = left;
            left >>= 16;
            if let Some(f) = face(x)
                && step!(f)
            {
                break 'game;
            }
        }
        loop {
            if rolls >= MAX_ROLLS_PER_TOKEN {
                *rng = g;
                *buffer = 0;
                return Err(MAX_ROLLS_PER_TOKEN);
            }
            left = g.next_u64();
            for _ in 0..4 {
                let x = left;
                left >>= 16;
                if let Some(f) = face(x)
                    && step!(f)
                {
                    break 'game;
                }
            }
        }
    }
    *rng = g;
    *buffer = left;
    Ok((rolls, seen))
}
