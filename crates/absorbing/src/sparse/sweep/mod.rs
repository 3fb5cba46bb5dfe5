//! The structured solver: triangular sweeps plus a dense Schur complement on
//! the few states that moves go back to.
//!
//! # Why this solver
//! A board's moves go forward except along snakes (and the bounce at the
//! end). Order the states by square and split them into `J`, the states some
//! later state moves back to (a column with an entry below the diagonal of
//! `Q`), and `F`, all the others. Then `A = I − Q` restricted to `F` is upper
//! triangular, so it is solved by one backward sweep over the rows, and
//! everything that goes back is gathered in the `|J| × |J|` Schur complement
//!
//! ```text
//! S = A_JJ − A_JF · A_FF⁻¹ · A_FJ
//! ```
//!
//! which is small (about one state per snake) and factored densely without
//! subtraction ([`Gth`], docs/figures.md §2a; in blocks from 128 states).
//! Building `S` costs one sweep per state of `J`, each only as far up as
//! that column's last entry, and on a long board each sweep crosses plain
//! stretches of the track with one small matrix product apiece
//! ([`super::stretch`]); every later solve costs two sweeps and one dense
//! `|J|`-solve.
//!
//! Why this direct solver rather than a pivoting sparse LU (`faer`) or a
//! Krylov method, with the measurements that decided it: see
//! docs/performance.md, "The sparse solver against faer".
//!
//! # Accuracy
//! `A` is a nonsingular M-matrix: `A_FF⁻¹ ≥ 0`, the sweep only adds
//! non-negative terms for non-negative right-hand sides, the diagonal is
//! each state's chance of leaving summed from its row, and `S` is again an
//! M-matrix, factored from its off-diagonal magnitudes and its chances of
//! absorption with additions only. No step subtracts, so solves with
//! non-negative right-hand sides are accurate relative to themselves
//! however ill-conditioned `A` is (tested against the dense solver to 1e-9
//! relative, and against exact fractions on the boards of issue 13).

use super::stretch::{Layout, Stretches};
use super::{Csr, SparseError, trapped_states};
use crate::gth::Gth;
use crate::par::*;
use nalgebra::DMatrix;
use std::sync::Arc;

/// Multiply-adds (at most) of the column-by-column sweeps that build `S`
/// below which they run on the calling thread: a rayon hand-off costs tens
/// of microseconds on the 2-core machine, the time of about 10⁵
/// multiply-adds.
const PARALLEL_SCHUR_WORK: usize = 100_000;

/// Columns of `W = U⁻¹ Q_FJ` that [`SweepSolver`] sweeps together on a
/// large board: each row of `Q` is then read once for all of them, and
/// their running sums overlap instead of each waiting on its own last
/// division. Costs that many vectors of a state per thread.
const SWEEP_LANES: usize = 4;

/// Right-hand sides [`SweepSolver::solve_many`] sweeps together: eight
/// vectors of a small chain's states (at most 2 MiB: a small chain has
/// at most 32,768 states, [`use_sites`]).
const SOLVE_LANES: usize = 8;

/// Columns of a block that [`SweepSolver::sweep_rows`] sweeps together, a
/// row's sums held in registers (eight SSE2 registers).
const SWEEP_WIDTH: usize = 16;

/// Most entries (`n · |J|`) of the block `W = U⁻¹ Q_FJ` that
/// [`SweepSolver`] sweeps all at once (512 KiB of `f64`, within a core's
/// cache); larger boards sweep it a column at a time.
const BLOCK_SCHUR_ENTRIES: usize = 1 << 16;

/// What factoring a chain with [`SweepSolver`] will cost, known before any
/// large allocation.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Plan {
    /// States of the chain.
    pub states: usize,
    /// Stored entries of `Q`.
    pub entries: usize,
    /// `|J|`: states that some later state moves back to.
    pub back_targets: usize,
    /// Bytes the factorisation holds (with `Q` off its diagonal unless it
    /// shares the chain's, the dense factors of `S`, and
    /// the column sweeps that build it: their work vectors per thread,
    /// and their stretches when they skip any).
    pub factor_bytes: u64,
    /// Bytes the factored solver keeps for the solves after it: `Q` off
    /// its diagonal (unless it shares the chain's), the diagonal, J's flags and states, the factors of
    /// `S`, `Q_FJ` by columns (or `W`, for a small chain), and the
    /// expected steps it solved while factoring.
    pub held_bytes: u64,
    /// Multiply-adds to build and factor `S`.
    pub factor_work: f64,
    /// Multiply-adds of one solve after factoring.
    pub solve_work: f64,
    /// Extra bytes [`SweepSolver::inverse_diagonal`] needs.
    pub diagonal_bytes: u64,
    /// Multiply-adds of [`SweepSolver::inverse_diagonal`].
    pub diagonal_work: f64,
}

/// `(I − Q)` factored for repeated solves, `Q` a substochastic matrix whose
/// states are ordered so that most moves go to a later state.
#[derive(Clone, Debug)]
pub struct SweepSolver {
    n: usize,
    /// `Q` without its diagonal: shared with the chain it was built from
    /// (a compiled chain holds its rows in this form), never copied.
    off: Arc<Csr>,
    /// `1 − Q_ii`.
    diag: Vec<f64>,
    /// Whether each state is in `J`.
    in_j: Vec<bool>,
    /// The states of `J`, ascending.
    j: Vec<u32>,
    /// `S`, factored without subtraction ([`Gth`]).
    gth: Gth,
    /// For each state of `J`, the rows of `F` with an entry in its column:
    /// `col_ptr` into `col_rows`/`col_vals`.
    col_ptr: Vec<usize>,
    col_rows: Vec<u32>,
    col_vals: Vec<f64>,
    /// `W = U⁻¹ Q_FJ`, `n × k` row by row, kept when it was built all at
    /// once (a small chain, [`use_sites`]); empty otherwise. With it a
    /// solve is one sweep and a product with `W` instead of two sweeps.
    /// Kept in the block it was swept in: row `i` of `W` is the first `k`
    /// of `w[i · w_stride..]`.
    w: Vec<f64>,
    w_stride: usize,
    /// `(I − Q)⁻¹ · 1`, solved while factoring to check the factors.
    steps: Vec<f64>,
}

/// The column sweeps over sites only ([`super::stretch`]): the sweep, and
/// where the right-hand sides go and the rows of `J` read, in sites.
#[derive(Clone, Debug)]
struct SiteSweep {
    stretches: Stretches,
    /// Parallel to `SweepSolver::col_rows`: each row's site.
    col_sites: Vec<u32>,
    /// Rows of `J`, each entry's site: `j_ptr` into `j_cols`/`j_vals`.
    j_ptr: Vec<usize>,
    j_cols: Vec<u32>,
    j_vals: Vec<f64>,
}

/// Stretches are used when they skip at least this share of the rows
/// (one in `SKIP_SHARE`); otherwise building them costs more than they
/// save.
const SKIP_SHARE: usize = 4;

/// Whether the Schur complement of `n` states, `k` of them in `J`, is built
/// column by column, where stretches may be skipped (else all at once, with
/// two more columns beside it: [`SweepSolver::sweep_block`], at most
/// [`BLOCK_SCHUR_ENTRIES`] entries).
fn use_sites(n: usize, k: usize) -> bool {
    n * (k + 2) > BLOCK_SCHUR_ENTRIES
}

/// Whether `layout` skips enough of `n` rows to be used ([`SKIP_SHARE`]).
fn skips_enough(n: usize, layout: &Layout) -> bool {
    layout.skipped() * SKIP_SHARE >= n
}

/// What [`SweepSolver::from_split`] factors: `Q` and what it derives from
/// it, as `SweepSolver::from_parts` derives them.
#[derive(Clone, Debug)]
pub struct Split {
    /// `Q` off its diagonal, shared with its owner (a compiled chain's
    /// rows, docs/sparse-solver.md §6).
    pub off: Arc<Csr>,
    /// Each state's chance of absorption in one step.
    pub finish: Vec<f64>,
    /// Each state's chance of leaving, `1 − Q_ii`: its `finish` plus the
    /// sum of its row of `off` (from −0.0, in the row's order).
    pub leave: Vec<f64>,
    /// Whether each state is a back target: some entry of `off` below the
    /// diagonal is in its column.
    pub back: Vec<bool>,
}

/// The back-edge targets of `q`: columns with an entry below the diagonal.
fn back_targets(q: &Csr) -> Vec<bool> {
    let mut in_j = vec![false; q.n()];
    for i in 0..q.n() {
        for (c, _) in q.row(i) {
            if c < i {
                in_j[c] = true;
            }
        }
    }
    in_j
}

/// `Q_FJ` by columns (`off` is `Q` off its diagonal, `jpos` each state's
/// place in J, `u32::MAX` off it): for the `a`-th state of J, the rows of F with an
/// entry in its column are `rows[ptr[a]..ptr[a + 1]]`, increasing, with
/// their values in `vals`.
fn q_fj_columns(off: &Csr, in_j: &[bool], jpos: &[u32]) -> (Vec<usize>, Vec<u32>, Vec<f64>) {
    let n = off.n();
    let k = in_j.iter().filter(|&&b| b).count();
    // Count, then fill.
    let mut ptr = vec![0usize; k + 1];
    for i in (0..n).filter(|&i| !in_j[i]) {
        for (c, _) in off.row(i) {
            if in_j[c] {
                ptr[jpos[c] as usize + 1] += 1;
            }
        }
    }
    for a in 0..k {
        ptr[a + 1] += ptr[a];
    }
    let mut next = ptr.clone();
    let mut rows = vec![0u32; ptr[k]];
    let mut vals = vec![0.0; ptr[k]];
    for i in (0..n).filter(|&i| !in_j[i]) {
        for (c, v) in off.row(i) {
            if in_j[c] {
                let a = jpos[c] as usize;
                rows[next[a]] = i as u32;
                vals[next[a]] = v;
                next[a] += 1;
            }
        }
    }
    (ptr, rows, vals)
}

/// Each of `n` states' place in `j` (ascending states), `u32::MAX` for a
/// state not in it.
fn positions(n: usize, j: &[u32]) -> Vec<u32> {
    let mut place = vec![u32::MAX; n];
    for (a, &s) in j.iter().enumerate() {
        place[s as usize] = a as u32;
    }
    place
}

/// Column `e` of an `n × m` block held row by row.
fn column(block: &[f64], m: usize, e: usize) -> Vec<f64> {
    block.chunks(m).map(|row| row[e]).collect()
}

mod block;
mod factor;
mod plan;
mod solve;

impl SweepSolver {
    /// The number of states.
    pub fn n(&self) -> usize {
        self.n
    }

    /// `(I − Q)⁻¹ · 1`: the expected number of steps to absorption from
    /// each state. Solved once while factoring (it checks the factors), so
    /// asking for it costs nothing.
    pub fn expected_steps(&self) -> &[f64] {
        &self.steps
    }

    /// The solver with `Q_FJ` by columns, which a small chain does without
    /// ([`q_fj_columns`]): to compare the column sweeps of a large chain
    /// with the block sweep of a small one.
    #[cfg(test)]
    fn with_columns(mut self) -> SweepSolver {
        if self.col_ptr.is_empty() {
            (self.col_ptr, self.col_rows, self.col_vals) =
                q_fj_columns(&self.off, &self.in_j, &self.positions_in_j());
        }
        self
    }

    /// Each state's place in J, `u32::MAX` off J.
    #[cfg(test)]
    fn positions_in_j(&self) -> Vec<u32> {
        positions(self.n, &self.j)
    }

    /// `|J|`, the states some later state moves back to.
    pub fn back_targets(&self) -> usize {
        self.j.len()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_69() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::{Csr, SweepSolver};
        // 0 → 1 → 2, and 2 falls back to 0 half the time.
        let q = Csr::from_triplets(3, &[(0, 1, 1.0), (1, 2, 1.0), (2, 0, 0.5)])?;
        let plan = SweepSolver::plan(&q);
        assert_eq!(plan.back_targets, 1);
        assert!(plan.factor_bytes > 0);
        Ok(())
    }

    #[test]
    fn example_at_line_103() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::{Csr, SweepSolver};
        // A fair coin: heads finishes, tails moves 0 → 1; from 1, heads finishes
        // and tails goes back to 0. Expected turns from 0: t0 = 1 + t1/2 and
        // t1 = 1 + t0/2, so t0 = t1 = 2.
        let q = Csr::from_triplets(2, &[(0, 1, 0.5), (1, 0, 0.5)])?;
        let solver = SweepSolver::new(&q)?;
        let t = solver.solve(&[1.0, 1.0]);
        assert!((t[0] - 2.0).abs() < 1e-12 && (t[1] - 2.0).abs() < 1e-12);
        Ok(())
    }
}
