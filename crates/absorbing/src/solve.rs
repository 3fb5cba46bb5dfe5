//! Solving the linear systems of a chain: `(I − Q)·x = b` and
//! `(I − Q)ᵀ·y = c`.
//!
//! [`Solver`] has two implementations: the dense elimination without
//! subtraction (GTH, docs/figures.md §2a) for chains of at most
//! [`DENSE_MAX_STATES`] states, and the sparse [`SweepSolver`] (triangular
//! sweeps plus a dense Schur complement on the states moves go back to),
//! which never forms an `n × n` matrix. Both are factored once and reused
//! for every right-hand side.

use crate::gth::Gth;
use crate::sparse::{Csr, Plan, SparseError, Split, SweepSolver};
use nalgebra::DMatrix;

/// Chains of at most this many states are solved densely, larger ones
/// sparsely: below it the two are even, above it the sparse solver wins by
/// a factor that grows with the size (docs/performance.md).
pub const DENSE_MAX_STATES: usize = 24;

/// Most states the dense solver factors when asked for explicitly
/// ([`Method::Dense`]): a dense matrix of 4,000² `f64` is 128 MB, and a
/// solve holds about three (the matrix, its factors for transposed
/// solves, the inverse for its diagonal).
pub const MAX_DENSE_STATES: usize = 4_000;

/// Which implementation a [`Solver`] uses.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The dense subtraction-free elimination.
    Dense,
    /// The sparse [`SweepSolver`].
    Sparse,
}

impl Method {
    /// The implementation chosen for `n` states.
    pub fn for_states(n: usize) -> Method {
        if n <= DENSE_MAX_STATES {
            Method::Dense
        } else {
            Method::Sparse
        }
    }
}

/// Why `I − Q` could not be factored.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// A dense pivot was at most the smallest accepted (or not a number):
    /// `I − Q` is singular to working precision.
    #[error("the chain is singular to working precision (pivot {pivot:e})")]
    IllConditioned {
        /// The pivot met.
        pivot: f64,
    },
    /// The sparse factorisation failed.
    #[error(transparent)]
    Sparse(#[from] SparseError),
    /// The dense method was asked for past [`MAX_DENSE_STATES`].
    #[error("{states} states are too many for the dense solver (at most {limit})")]
    DenseTooLarge {
        /// States of the chain.
        states: usize,
        /// [`MAX_DENSE_STATES`].
        limit: usize,
    },
}

/// What factoring a chain will cost, before it is factored.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The implementation used.
    pub method: Method,
    /// Bytes the factorisation holds at its peak.
    pub bytes: u64,
    /// Bytes the factored solver keeps for the solves after it.
    pub held_bytes: u64,
    /// Extra bytes [`Solver::inverse_diagonal`] needs.
    pub diagonal_bytes: u64,
    /// Multiply-adds of one solve.
    pub solve_work: f64,
    /// Multiply-adds of the factorisation.
    pub factor_work: f64,
    /// Multiply-adds of [`Solver::inverse_diagonal`].
    pub diagonal_work: f64,
}

impl Estimate {
    /// The dense method on `n` states.
    pub fn dense(n: usize) -> Estimate {
        let n2 = (n as u64) * (n as u64);
        let nf = n as f64;
        Estimate {
            method: Method::Dense,
            // The matrix factored in place, then L and U kept apart.
            bytes: 3 * n2 * 8,
            held_bytes: 3 * n2 * 8,
            diagonal_bytes: n2 * 8,
            solve_work: 2.0 * nf * nf,
            factor_work: nf * nf * nf / 3.0,
            diagonal_work: nf * nf * nf,
        }
    }

    /// The sparse method, as its [`Plan`] states it.
    pub fn sparse(plan: &Plan) -> Estimate {
        Estimate {
            method: Method::Sparse,
            bytes: plan.factor_bytes,
            held_bytes: plan.held_bytes,
            diagonal_bytes: plan.diagonal_bytes,
            solve_work: plan.solve_work,
            factor_work: plan.factor_work,
            diagonal_work: plan.diagonal_work,
        }
    }

    /// The estimate of [`Solver::from_csr`] on `q`.
    pub fn of_csr(q: &Csr) -> Estimate {
        match Method::for_states(q.n()) {
            Method::Dense => Estimate::dense(q.n()),
            Method::Sparse => Estimate::sparse(&SweepSolver::plan(q)),
        }
    }
}

/// A factorisation of `I − Q` for one chain, reused for every right-hand
/// side.
///
/// # Example
/// ```
/// use absorbing::Solver;
/// use absorbing::sparse::Csr;
///
/// // From state 0 a coin moves to 1 or is absorbed; from 1 it goes back
/// // to 0 or is absorbed.
/// let q = Csr::from_triplets(2, &[(0, 1, 0.5), (1, 0, 0.5)])?;
/// let solver = Solver::from_csr(&q)?;
/// let steps = solver.expected_steps();
/// assert!((steps[0] - 2.0).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    inner: Inner,
}

#[derive(Clone, Debug)]
enum Inner {
    Dense(Gth),
    Sparse(Box<SweepSolver>),
}

impl Solver {
    /// Factors `I − Q` for a substochastic `Q`, with the implementation
    /// [`Method::for_states`] picks; each row's chance of absorption is
    /// what its entries leave of 1.
    ///
    /// # Errors
    /// [`SolverError::Sparse`] naming the trapped states when `I − Q` is
    /// singular (sparse), [`SolverError::IllConditioned`] (dense).
    pub fn from_csr(q: &Csr) -> Result<Solver, SolverError> {
        match Method::for_states(q.n()) {
            Method::Dense => {
                let n = q.n();
                let mut m = DMatrix::<f64>::zeros(n, n);
                for i in 0..n {
                    for (j, p) in q.row(i) {
                        if j != i {
                            m[(i, j)] += p;
                        }
                    }
                }
                let sums = q.row_sums();
                let finish = sums.iter().map(|s| (1.0 - s).max(0.0)).collect();
                if !crate::sparse::trapped_states(q).is_empty() {
                    return Err(SparseError::Singular {
                        trapped: crate::sparse::trapped_states(q),
                    }
                    .into());
                }
                Solver::dense(m, finish, 0.0)
            }
            Method::Sparse => Ok(Solver::from_sweep(SweepSolver::new(q)?)),
        }
    }

    /// Factors `I − Q` for a substochastic `Q` given as `(row, column,
    /// probability)` entries (repeats add up) over `n` states, refusing a
    /// dense pivot of at most `min_pivot`.
    ///
    /// # Errors
    /// [`SolverError::IllConditioned`] when `I − Q` is singular to working
    /// precision; [`SolverError::Sparse`] when an entry is out of range.
    pub fn from_entries(
        n: usize,
        entries: impl IntoIterator<Item = (usize, usize, f64)>,
        min_pivot: f64,
    ) -> Result<Solver, SolverError> {
        match Method::for_states(n) {
            Method::Dense => {
                let mut q = DMatrix::<f64>::zeros(n, n);
                for (s, t, p) in entries {
                    if s >= n || t >= n {
                        return Err(SparseError::ColumnOutOfRange { row: s, col: t, n }.into());
                    }
                    q[(s, t)] += p;
                }
                let finish = (0..n).map(|s| (1.0 - q.row(s).sum()).max(0.0)).collect();
                Solver::dense(q, finish, min_pivot)
            }
            Method::Sparse => {
                let entries: Vec<_> = entries.into_iter().collect();
                let q = Csr::from_triplets(n, &entries)?;
                // A failure here has no states of its own to name: it is
                // reported as a zero pivot.
                match SweepSolver::new(&q) {
                    Ok(s) => Ok(Solver::from_sweep(s)),
                    Err(_) => Err(SolverError::IllConditioned { pivot: 0.0 }),
                }
            }
        }
    }

    /// The dense subtraction-free factorisation (GTH) of `I − Q` for
    /// `Q` (its diagonal is ignored: each pivot is taken from the rest of
    /// the row) and each row's chance of absorption, refused when a pivot
    /// is at most `min_pivot` (or not a number).
    ///
    /// # Errors
    /// [`SolverError::IllConditioned`] with the pivot met;
    /// [`SolverError::DenseTooLarge`] past [`MAX_DENSE_STATES`].
    pub fn dense(q: DMatrix<f64>, finish: Vec<f64>, min_pivot: f64) -> Result<Solver, SolverError> {
        if q.nrows() > MAX_DENSE_STATES {
            return Err(SolverError::DenseTooLarge {
                states: q.nrows(),
                limit: MAX_DENSE_STATES,
            });
        }
        match Gth::new(q, finish, min_pivot) {
            Ok(gth) => Ok(Solver {
                inner: Inner::Dense(gth),
            }),
            Err(pivot) => Err(SolverError::IllConditioned { pivot }),
        }
    }

    /// The sparse factorisation of `Q` already split at its diagonal
    /// ([`Split`]); `trapped` names the trapped states when the
    /// factorisation fails (a pass over the whole chain, made only then).
    ///
    /// # Errors
    /// As [`SweepSolver::from_split`].
    pub fn sparse(split: Split, trapped: &dyn Fn() -> Vec<usize>) -> Result<Solver, SparseError> {
        SweepSolver::from_split(split, trapped).map(Solver::from_sweep)
    }

    fn from_sweep(s: SweepSolver) -> Solver {
        Solver {
            inner: Inner::Sparse(Box::new(s)),
        }
    }

    /// The implementation in use.
    pub fn method(&self) -> Method {
        match self.inner {
            Inner::Dense(_) => Method::Dense,
            Inner::Sparse(_) => Method::Sparse,
        }
    }

    /// The states eliminated densely by the subtraction-free (GTH) form:
    /// every state on the dense path, the Schur complement's states on the
    /// sparse one (docs/sparse-solver.md §2). The rest are swept.
    pub fn dense_states(&self) -> usize {
        match &self.inner {
            Inner::Dense(d) => d.len(),
            Inner::Sparse(s) => s.back_targets(),
        }
    }

    /// Number of unknowns (the chain's states).
    pub fn len(&self) -> usize {
        match &self.inner {
            Inner::Dense(d) => d.len(),
            Inner::Sparse(s) => s.n(),
        }
    }

    /// Whether there are no unknowns.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `x` with `(I − Q)·x = b`: for a reward `b` per step, the expected
    /// total until absorption from each state (`N·b`).
    ///
    /// # Panics
    /// If `b` does not have one entry per state.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        assert_eq!(b.len(), self.len(), "one entry per state");
        match &self.inner {
            Inner::Dense(d) => d.solve(b),
            Inner::Sparse(s) => s.solve(b),
        }
    }

    /// [`Solver::solve`] of `b` read at the states `at` only, with the same
    /// digits; the sparse solver computes no other entry it can skip.
    ///
    /// # Panics
    /// If `b` does not have one entry per state, or a state of `at` is out
    /// of range.
    pub fn solve_at(&self, b: &[f64], at: &[usize]) -> Vec<f64> {
        match &self.inner {
            Inner::Sparse(s) => s.solve_at(b, at),
            Inner::Dense(_) => {
                let x = self.solve(b);
                at.iter().map(|&i| x[i]).collect()
            }
        }
    }

    /// [`Solver::solve`] of each of `bs`, with the same digits; the sparse
    /// solver sweeps several at once.
    ///
    /// # Panics
    /// If a right-hand side does not have one entry per state.
    pub fn solve_many(&self, bs: &[&[f64]]) -> Vec<Vec<f64>> {
        match &self.inner {
            Inner::Sparse(s) => s.solve_many(bs),
            Inner::Dense(_) => bs.iter().map(|b| self.solve(b)).collect(),
        }
    }

    /// `N·1`: the expected steps to absorption from each state. The sparse
    /// solver keeps it from factoring (it checks its factors with it).
    pub fn expected_steps(&self) -> Vec<f64> {
        match &self.inner {
            Inner::Sparse(s) => s.expected_steps().to_vec(),
            Inner::Dense(_) => self.solve(&vec![1.0; self.len()]),
        }
    }

    /// `y` with `(I − Q)ᵀ·y = c`: for `c = e_i`, row i of N, the expected
    /// visits to each state from state i.
    ///
    /// # Panics
    /// If `c` does not have one entry per state.
    pub fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        assert_eq!(c.len(), self.len(), "one entry per state");
        match &self.inner {
            Inner::Dense(d) => d.solve_transpose(c),
            Inner::Sparse(s) => s.solve_transpose(c),
        }
    }

    /// The diagonal of N = (I − Q)⁻¹: the dense solver forms the inverse,
    /// the sparse one uses its block structure, at the cost its
    /// [`Estimate::diagonal_work`] gives.
    pub fn inverse_diagonal(&self) -> Vec<f64> {
        match &self.inner {
            Inner::Dense(d) => d.inverse_diagonal(),
            Inner::Sparse(s) => s.inverse_diagonal(),
        }
    }
}
