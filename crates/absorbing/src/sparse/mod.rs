//! Sparse solving for large boards: chains of up to millions of states,
//! never a dense `n × n` matrix.
//!
//! A chain's `Q` has at most as many entries per row as the dice have totals
//! (times the rolls of a turn under an extra-roll rule), so it is stored as a
//! [`Csr`]. [`SweepSolver`] factors `I − Q` once by exploiting the board's
//! shape (moves go forward except along snakes); its module documentation
//! says why it was chosen over a general sparse LU. [`Plan`] states the
//! memory and work of a factorisation before anything large is allocated,
//! and [`memory`] reads the machine's memory for the default limit.

mod banded;
mod csr;
pub mod memory;
mod stretch;
pub use stretch::MAX_WINDOW;
mod sweep;

pub use banded::Banded;
pub use csr::Csr;
pub use sweep::Split;
pub use sweep::{Plan, SweepSolver};

/// A row of `Q` missing less probability than this is taken to be a full
/// row: the chain compiler checks that rows of `K` sum to 1 to about this
/// accuracy, so a smaller gap is rounding, not a way out.
pub const LEAK_TOLERANCE: f64 = 1e-12;

/// Why a sparse matrix could not be built or factored.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SparseError {
    /// The three arrays of a [`Csr`] do not fit together.
    #[error(
        "a sparse matrix of {n} rows needs {} row pointers ending at the entry count; got {row_ptr} pointers, {entries} columns and {values} values",
        n + 1
    )]
    Shape {
        /// Rows.
        n: usize,
        /// Row pointers given.
        row_ptr: usize,
        /// Column indices given.
        entries: usize,
        /// Values given.
        values: usize,
    },
    /// More states than a `u32` column index can name.
    #[error(
        "a sparse matrix of {n} rows is larger than the {} supported",
        u32::MAX
    )]
    TooLarge {
        /// Rows.
        n: usize,
    },
    /// An entry's column (or row) is not below `n`.
    #[error("entry ({row}, {col}) is outside a {n} × {n} matrix")]
    ColumnOutOfRange {
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
        /// The size.
        n: usize,
    },
    /// An entry is NaN or infinite.
    #[error("entry ({row}, {col}) is not a finite number")]
    NotFinite {
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
    },
    /// `I − Q` is singular: these states never leave the chain.
    #[error("the chain is singular: {} state(s) can never be absorbed (first: {:?})", trapped.len(), &trapped[..trapped.len().min(10)])]
    Singular {
        /// The trapped states, ascending.
        trapped: Vec<usize>,
    },
    /// Every state can be absorbed, yet the solve lost all accuracy.
    #[error(
        "the chain is too badly conditioned to solve: the result for state {state} is not a finite non-negative number"
    )]
    IllConditioned {
        /// The first state whose result is meaningless.
        state: usize,
    },
}

/// The states of `q` that can never reach absorption: those with no path to
/// a row missing more than [`LEAK_TOLERANCE`] of its probability.
pub fn trapped_states(q: &Csr) -> Vec<usize> {
    let n = q.n();
    let qt = q.transpose();
    let sums = q.row_sums();
    let mut escapes: Vec<bool> = sums.iter().map(|s| 1.0 - s > LEAK_TOLERANCE).collect();
    let mut stack: Vec<usize> = (0..n).filter(|&i| escapes[i]).collect();
    while let Some(j) = stack.pop() {
        for (i, v) in qt.row(j) {
            if v > 0.0 && !escapes[i] {
                escapes[i] = true;
                stack.push(i);
            }
        }
    }
    (0..n).filter(|&i| !escapes[i]).collect()
}

/// `Σ a_i·b_i` in eight interleaved partial sums, so that the compiler can
/// use vector instructions (a single running sum is sequential).
///
/// # Panics
/// If the lengths differ.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "vector lengths");
    let mut acc = [0.0; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f64>() + tail
}

/// `Σ a_i` in eight interleaved partial sums (see [`dot`]).
pub fn sum(a: &[f64]) -> f64 {
    let mut acc = [0.0; 8];
    let chunks = a.chunks_exact(8);
    let tail: f64 = chunks.remainder().iter().sum();
    for x in chunks {
        for k in 0..8 {
            acc[k] += x[k];
        }
    }
    acc.iter().sum::<f64>() + tail
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_13() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::{Csr, SweepSolver};
        // A three-square track: from 0 a coin moves 1 or 2 squares, from 1 it
        // finishes or falls back to 0.
        let q = Csr::from_triplets(2, &[(0, 1, 0.5), (1, 0, 0.5)])?;
        let solver = SweepSolver::new(&q)?;
        // Expected visits to each state from state 0: a transposed solve.
        let visits = solver.solve_transpose(&[1.0, 0.0]);
        assert!((visits[0] - 4.0 / 3.0).abs() < 1e-12);
        assert!((visits[1] - 2.0 / 3.0).abs() < 1e-12);
        Ok(())
    }

    #[test]
    fn example_at_line_106() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::{Csr, trapped_states};
        // State 0 leaks half its mass; 1 and 2 only move between themselves.
        let q = Csr::from_triplets(3, &[(0, 1, 0.5), (1, 2, 1.0), (2, 1, 1.0)])?;
        assert_eq!(trapped_states(&q), vec![1, 2]);
        Ok(())
    }
}
