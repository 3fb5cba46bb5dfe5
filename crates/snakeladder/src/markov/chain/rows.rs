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
        self.off.row_range(s).len() + self.ends_of(s).len()
    }

    /// Row `s`'s stay and finish, those it has (at most two).
    #[inline]
    fn ends_of(&self, s: usize) -> &[End] {
        let from = self.ends.partition_point(|e| (e.state as usize) < s);
        let count = self.ends[from..]
            .iter()
            .take(2)
            .take_while(|e| e.state as usize == s)
            .count();
        &self.ends[from..from + count]
    }

    /// Row `s`: its moves to earlier states, its stay, its moves to later
    /// states, its finish; the order the compiler made them in.
    #[inline]
    pub(super) fn row(&self, s: usize) -> impl Iterator<Item = Transition> + '_ {
        let range = self.off.row_range(s);
        let (cols, vals) = self.off.row_slices(s);
        let rolls = self.off_rolls.get(range.clone()).unwrap_or(&[]);
        let below = cols.partition_point(|&c| (c as usize) < s);
        let ends = self.ends_of(s);
        let stays = ends.iter().take_while(|e| !e.finish).count();
        let entry = move |i: usize| Transition {
            to: Target::State(StateIndex(cols[i])),
            probability: vals[i],
            rolls: rolls.get(i).copied().unwrap_or(vals[i]),
        };
        let end = |e: &End| Transition {
            to: if e.finish {
                Target::Finish
            } else {
                Target::State(StateIndex(e.state))
            },
            probability: e.probability,
            rolls: e.rolls,
        };
        (0..below)
            .map(entry)
            .chain(ends[..stays].iter().map(end))
            .chain((below..cols.len()).map(entry))
            .chain(ends[stays..].iter().map(end))
    }

    /// The bytes these rows hold (as allocated).
    pub(super) fn held_bytes(&self) -> u64 {
        self.off.held_bytes()
            + (self.off_rolls.capacity() * 8 + self.ends.capacity() * std::mem::size_of::<End>())
                as u64
    }
}

/// [`Rows`] being built, row by row, each row's entries in increasing
/// order of target (the finish last).
#[derive(Debug)]
pub(super) struct RowsBuilder {
    row_ptr: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    /// `Some` when entries keep their rolls (an extra-turn rule).
    rolls: Option<Vec<f64>>,
    ends: Vec<End>,
    /// The last target pushed in the current row (debug builds check the
    /// order the rows are read in).
    last: Option<Target>,
}

impl RowsBuilder {
    /// Room for `n` rows and `entries` entries; `keep_rolls` when the
    /// entries' rolls differ from their probabilities (extra rolls).
    pub(super) fn with_capacity(n: usize, entries: usize, keep_rolls: bool) -> RowsBuilder {
        let mut row_ptr = Vec::with_capacity(n + 1);
        row_ptr.push(0);
        RowsBuilder {
            row_ptr,
            cols: Vec::with_capacity(entries),
            vals: Vec::with_capacity(entries),
            rolls: keep_rolls.then(|| Vec::with_capacity(entries)),
            ends: Vec::new(),
            last: None,
        }
    }

    /// The current row's next entry, to `to` with probability `p` and
    /// rolls-weighted probability `w`.
    #[inline]
    pub(super) fn push(&mut self, to: Target, p: f64, w: f64) {
        debug_assert!(
            self.last.is_none_or(|last| last < to),
            "{to:?} out of order"
        );
        if cfg!(debug_assertions) {
            self.last = Some(to);
        }
        let state = self.row_ptr.len() - 1;
        match to {
            Target::State(t) if t.get() != state => {
                self.cols.push(t.0);
                self.vals.push(p);
                if let Some(rolls) = &mut self.rolls {
                    rolls.push(w);
                }
            }
            _ => self.ends.push(End {
                state: state as u32,
                finish: to == Target::Finish,
                probability: p,
                rolls: if self.rolls.is_some() { w } else { p },
            }),
        }
    }

    /// Ends the current row.
    #[inline]
    pub(super) fn end_row(&mut self) {
        self.row_ptr.push(self.cols.len());
        self.last = None;
    }

    /// The rows built.
    pub(super) fn build(self) -> Rows {
        let n = self.row_ptr.len() - 1;
        Rows {
            // Columns are state indices below n, probabilities finite.
            off: Arc::new(Csr::from_valid_parts(n, self.row_ptr, self.cols, self.vals)),
            off_rolls: self.rolls.unwrap_or_default(),
            ends: self.ends,
        }
    }
}
