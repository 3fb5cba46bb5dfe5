//! The kernel's rows, held split as the sparse solver reads them: `Q` off
//! its diagonal in compressed rows, shared with the solver behind an `Arc`
//! (never copied: 800 MB on the 10,000,000-square board,
//! docs/sparse-solver.md §6), and apart from it each row's entry to its
//! own state (a stay) and to the finish, which only rows near the end of a
//! board have (docs/board-to-chain.md §4).

use super::{StateIndex, Target, Transition};
use crate::markov::sparse::Csr;
use std::sync::Arc;

/// A row's entry to its own state or to the finish.
#[derive(Copy, Clone, Debug, PartialEq)]
struct End {
    /// The row's state.
    state: u32,
    /// Whether the entry is the finish (else the row's own state).
    finish: bool,
    /// Its probability.
    probability: f64,
    /// Its rolls-weighted probability ([`Transition::rolls`]).
    rolls: f64,
}

/// A chain's rows: every entry of the kernel, each row's targets in
/// increasing order with the finish last, as [`Rows::row`] gives them.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Rows {
    /// `Q` off its diagonal: each row's moves to another state, targets
    /// increasing.
    off: Arc<Csr>,
    /// Each entry of `off`'s rolls-weighted probability; empty when every
    /// turn is one roll (no extra-turn rule), where it equals the
    /// probability.
    off_rolls: Vec<f64>,
    /// The stays and finishes, by state, a row's stay before its finish.
    ends: Vec<End>,
    /// How many of `ends` each row has (0, 1 or 2): most rows of a large
    /// board have none, and reading them is then a look at one byte, not
    /// a search of `ends`.
    end_count: Vec<u8>,
}

impl Rows {
    /// `Q` off its diagonal, to share.
    pub(super) fn off(&self) -> &Arc<Csr> {
        &self.off
    }

    /// The number of entries, every row's.
    pub(super) fn entries(&self) -> usize {
        self.off.nnz() + self.ends.len()
    }

    /// The number of entries of row `s`.
    pub(super) fn len_of(&self, s: usize) -> usize {
        self.off.row_range(s).len() + usize::from(self.end_count[s])
    }

    /// Row `s`'s stay and finish, those it has (at most two).
    #[inline]
    fn ends_of(&self, s: usize) -> &[End] {
        match self.end_count[s] {
            0 => &[],
            count => {
                let from = self.ends.partition_point(|e| (e.state as usize) < s);
                &self.ends[from..from + usize::from(count)]
            }
        }
    }

    /// Row `s`: its moves to earlier states, its stay, its moves to later
    /// states, its finish; the order the compiler made them in.
    #[inline(always)]
    pub(super) fn row(&self, s: usize) -> RowIter<'_> {
        let range = self.off.row_range(s);
        let (cols, vals) = self.off.slices(range.clone());
        let ends = self.ends_of(s);
        // The stay comes before the first move to a later state.
        let stay_at = match ends.first() {
            Some(e) if !e.finish => cols.partition_point(|&c| (c as usize) < s),
            _ => usize::MAX,
        };
        RowIter {
            cols,
            vals,
            rolls: self.off_rolls.get(range).unwrap_or(&[]),
            next: 0,
            stay_at,
            ends,
        }
    }

    /// The bytes these rows hold (as allocated).
    pub(super) fn held_bytes(&self) -> u64 {
        self.off.held_bytes()
            + (self.off_rolls.capacity() * 8
                + self.ends.capacity() * std::mem::size_of::<End>()
                + self.end_count.capacity()) as u64
    }
}

/// The entries of one row ([`Rows::row`]).
#[derive(Clone, Debug)]
pub(super) struct RowIter<'a> {
    /// The row's moves off the diagonal, their probabilities and (with
    /// extra rolls; else empty) their rolls-weighted probabilities.
    cols: &'a [u32],
    vals: &'a [f64],
    rolls: &'a [f64],
    /// The next move to give.
    next: usize,
    /// The move before which the stay comes (`usize::MAX`: none left).
    stay_at: usize,
    /// The stay and finish not given yet.
    ends: &'a [End],
}

impl RowIter<'_> {
    /// The transition of an end, taken from the front of `ends`.
    #[inline]
    fn take_end(&mut self) -> Option<Transition> {
        let (e, rest) = self.ends.split_first()?;
        self.ends = rest;
        Some(Transition {
            to: if e.finish {
                Target::Finish
            } else {
                Target::State(StateIndex(e.state))
            },
            probability: e.probability,
            rolls: e.rolls,
        })
    }
}

impl Iterator for RowIter<'_> {
    type Item = Transition;

    #[inline]
    fn next(&mut self) -> Option<Transition> {
        let i = self.next;
        if i == self.stay_at {
            self.stay_at = usize::MAX;
            return self.take_end();
        }
        if i < self.cols.len() {
            self.next = i + 1;
            let p = self.vals[i];
            return Some(Transition {
                to: Target::State(StateIndex(self.cols[i])),
                probability: p,
                rolls: self.rolls.get(i).copied().unwrap_or(p),
            });
        }
        self.take_end()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.cols.len() - self.next + self.ends.len();
        (left, Some(left))
    }
}

impl ExactSizeIterator for RowIter<'_> {}

/// [`Rows`] being built, row by row, each row's entries in increasing
/// order of target (the finish last). The arrays are sized once for
/// every entry and written by index: a push that may grow its vector
/// keeps the vector's length in memory, and each entry then waits on the
/// last one's store.
#[derive(Debug)]
pub(super) struct RowsBuilder {
    row_ptr: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    /// Empty unless entries keep their rolls (an extra-turn rule).
    rolls: Vec<f64>,
    /// The moves off the diagonal written.
    written: usize,
    ends: Vec<End>,
    end_count: Vec<u8>,
    /// The current row's state, and its ends so far.
    row: u32,
    row_ends: u8,
    /// The last target pushed in the current row (debug builds check the
    /// order the rows are read in).
    last: Option<Target>,
}

impl RowsBuilder {
    /// Room for exactly `n` rows and `entries` entries in all (at least
    /// as many as will be pushed); `keep_rolls` when the entries' rolls differ from
    /// their probabilities (extra rolls).
    pub(super) fn with_capacity(n: usize, entries: usize, keep_rolls: bool) -> RowsBuilder {
        RowsBuilder {
            row_ptr: vec![0; n + 1],
            cols: vec![0; entries],
            vals: vec![0.0; entries],
            rolls: if keep_rolls {
                vec![0.0; entries]
            } else {
                Vec::new()
            },
            written: 0,
            ends: Vec::new(),
            end_count: vec![0; n],
            row: 0,
            row_ends: 0,
            last: None,
        }
    }

    /// The current row's next entry, to `to` with probability `p` and
    /// rolls-weighted probability `w`.
    ///
    /// # Panics
    /// Past the entries the builder was sized for.
    #[inline]
    pub(super) fn push(&mut self, to: Target, p: f64, w: f64) {
        debug_assert!(
            self.last.is_none_or(|last| last < to),
            "{to:?} out of order"
        );
        if cfg!(debug_assertions) {
            self.last = Some(to);
        }
        match to {
            Target::State(t) if t.0 != self.row => {
                let k = self.written;
                self.cols[k] = t.0;
                self.vals[k] = p;
                if let Some(rolls) = self.rolls.get_mut(k) {
                    *rolls = w;
                }
                self.written = k + 1;
            }
            _ => {
                let keep_rolls = !self.rolls.is_empty();
                self.ends.push(End {
                    state: self.row,
                    finish: to == Target::Finish,
                    probability: p,
                    rolls: if keep_rolls { w } else { p },
                });
                self.row_ends += 1;
            }
        }
    }

    /// Ends the current row.
    #[inline]
    ///
    /// # Panics
    /// Past the rows the builder was sized for.
    pub(super) fn end_row(&mut self) {
        let row = self.row as usize;
        self.end_count[row] = self.row_ends;
        self.row_ptr[row + 1] = self.written;
        self.row += 1;
        self.row_ends = 0;
        self.last = None;
    }

    /// The rows built.
    ///
    /// # Panics
    /// If fewer rows were ended than the builder was sized for.
    pub(super) fn build(mut self) -> Rows {
        let n = self.row_ptr.len() - 1;
        assert_eq!(self.row as usize, n, "every row ended");
        self.cols.truncate(self.written);
        self.vals.truncate(self.written);
        self.rolls.truncate(self.written);
        Rows {
            // Columns are state indices below n, probabilities finite.
            off: Arc::new(Csr::from_valid_parts(n, self.row_ptr, self.cols, self.vals)),
            off_rolls: self.rolls,
            ends: self.ends,
            end_count: self.end_count,
        }
    }
}
