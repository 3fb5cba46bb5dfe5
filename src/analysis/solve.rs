//! Solving the linear systems of a chain: `(I − Q)·x = b` and
//! `(I − Q)ᵀ·y = c`.
//!
//! **This is the seam for issue 6 (large boards).** Every figure of the
//! analysis reaches `I − Q` only through [`Solver`], so a sparse
//! factorisation fits in as another variant, chosen by size in
//! [`Solver::new`], without touching the figures. Today the only
//! implementation is nalgebra's dense LU with partial pivoting, factored
//! once and reused for every right-hand side.

use crate::chain::{Chain, Target};
use crate::{Square, tolerance};
use nalgebra::{DMatrix, DVector};

/// Why `I − Q` could not be solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// `I − Q` is singular: from these squares a token never finishes, so
    /// the expected length of a game is infinite.
    #[error("the game may never end: from {} a token can never finish", show(.trapped))]
    Trapped {
        /// The squares from which the finish cannot be reached.
        trapped: Vec<Square>,
    },
    /// `I − Q` is numerically singular although every state can finish: the
    /// chance of finishing from some square is below what `f64` resolves.
    #[error("the linear system is numerically singular (a pivot of {pivot:e})")]
    IllConditioned {
        /// The smallest pivot met.
        pivot: f64,
    },
}

fn show(squares: &[Square]) -> String {
    let numbers = squares.iter().map(|s| s.get()).collect();
    crate::validation::Squares(numbers).to_string()
}

/// A factorisation of `I − Q` for one chain, reused for every right-hand
/// side.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::analysis::solve::Solver;
/// use snakeladder::chain::Chain;
///
/// let chain = Chain::compile(&Board::builtin_default())?;
/// let solver = Solver::new(&chain)?;
/// let turns = solver.solve(&vec![1.0; chain.len()]);
/// assert!((turns[chain.start().get()] - 39.5984).abs() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    inner: Dense,
}

#[derive(Clone, Debug)]
struct Dense {
    lu: nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>,
    /// The factors again, for transposed solves.
    l: DMatrix<f64>,
    u: DMatrix<f64>,
}

impl Solver {
    /// Factors `I − Q` of `chain`.
    ///
    /// # Errors
    /// [`SolveError::Trapped`] naming the squares that never finish when
    /// `I − Q` is singular; [`SolveError::IllConditioned`] when it is
    /// singular to working precision although every square can finish.
    pub fn new(chain: &Chain) -> Result<Solver, SolveError> {
        let trapped = chain.trapped();
        if !trapped.is_empty() {
            return Err(SolveError::Trapped { trapped });
        }
        let offsets = chain.row_offsets();
        let (targets, probabilities) = (chain.targets(), chain.probabilities());
        let entries = (0..chain.len()).flat_map(|s| {
            (offsets[s]..offsets[s + 1]).filter_map(move |k| match targets[k] {
                Target::State(t) => Some((s, t.get(), probabilities[k])),
                Target::Finish => None,
            })
        });
        Self::from_entries(chain.len(), entries)
    }

    /// Factors `I − Q` for a substochastic `Q` given as `(row, column,
    /// probability)` entries (repeats add up) over `n` states: used for
    /// modified chains (a jump made absorbing).
    ///
    /// # Errors
    /// [`SolveError::IllConditioned`] when `I − Q` is singular to working
    /// precision.
    pub(crate) fn from_entries(
        n: usize,
        entries: impl IntoIterator<Item = (usize, usize, f64)>,
    ) -> Result<Solver, SolveError> {
        let mut m = DMatrix::<f64>::identity(n, n);
        for (s, t, p) in entries {
            m[(s, t)] -= p;
        }
        let lu = m.lu();
        let u = lu.u();
        let pivot = u
            .diagonal()
            .iter()
            .fold(f64::INFINITY, |a, b| a.min(b.abs()));
        if pivot.is_nan() || pivot <= tolerance::SINGULAR_PIVOT {
            return Err(SolveError::IllConditioned { pivot });
        }
        let l = lu.l();
        Ok(Solver {
            inner: Dense { lu, l, u },
        })
    }

    /// Number of unknowns (the chain's states).
    pub fn len(&self) -> usize {
        self.inner.u.nrows()
    }

    /// Whether there are no unknowns (never, for a compiled chain).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `x` with `(I − Q)·x = b`: for a per-turn reward `b`, the expected
    /// total over the game from each state (`N·b`).
    ///
    /// # Panics
    /// If `b` does not have one entry per state.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        assert_eq!(b.len(), self.len(), "one entry per state");
        let mut x = DVector::from_column_slice(b);
        let solved = self.inner.lu.solve_mut(&mut x);
        debug_assert!(solved, "the pivots were checked at construction");
        x.as_slice().to_vec()
    }

    /// `y` with `(I − Q)ᵀ·y = c`: for `c = e_i`, row i of N, the expected
    /// turns started on each state from state i.
    ///
    /// # Panics
    /// If `c` does not have one entry per state.
    pub fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        assert_eq!(c.len(), self.len(), "one entry per state");
        // P·A = L·U, so Aᵀ = Uᵀ·Lᵀ·P and Aᵀ·y = c is solved from the left.
        let mut y = DVector::from_column_slice(c);
        let solved = self.inner.u.tr_solve_upper_triangular_mut(&mut y)
            && self.inner.l.tr_solve_lower_triangular_mut(&mut y);
        debug_assert!(solved, "the pivots were checked at construction");
        self.inner.lu.p().inv_permute_rows(&mut y);
        y.as_slice().to_vec()
    }

    /// The diagonal of N = (I − Q)⁻¹, `None` when forming it is not
    /// affordable (reserved for large boards; the dense solver always forms
    /// it).
    pub fn inverse_diagonal(&self) -> Option<Vec<f64>> {
        let inverse = self.inner.lu.try_inverse()?;
        Some(inverse.diagonal().as_slice().to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn transposed_solve_agrees_with_the_inverse() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let solver = Solver::new(&chain).unwrap();
        let n = chain.len();
        let mut e = vec![0.0; n];
        e[chain.start().get()] = 1.0;
        let row = solver.solve_transpose(&e);
        // Column j of N, picked by solving with e_j, has N(s0, j) at s0.
        for j in [0, 7, n - 1] {
            let mut ej = vec![0.0; n];
            ej[j] = 1.0;
            let column = solver.solve(&ej);
            assert!((column[chain.start().get()] - row[j]).abs() < 1e-12);
        }
        // Row of N from the start sums to the mean length.
        let mean: f64 = row.iter().sum();
        let t = solver.solve(&vec![1.0; n]);
        assert!((mean - t[chain.start().get()]).abs() < 1e-10);
    }

    #[test]
    fn validation_leaves_no_trapped_state_even_with_forfeits() {
        // Only 6s, and the second 6 of a turn is forfeited: each turn moves
        // exactly 6 (the bonus roll moves, the next is forfeited), so the
        // token reaches 12 in two turns and the system is regular.
        let b = Board::from_json_str(
            r#"{"squares": 12, "rules": {"dice": {"weights": [0, 0, 0, 0, 0, 1]},
                "extra_turn": {"on": 6, "forfeit_after": 2}}}"#,
        )
        .unwrap();
        let chain = Chain::compile(&b).unwrap();
        assert!(chain.trapped().is_empty());
        let solver = Solver::new(&chain).unwrap();
        let t = solver.solve(&vec![1.0; chain.len()]);
        assert!((t[chain.start().get()] - 2.0).abs() < 1e-12);
    }
}
