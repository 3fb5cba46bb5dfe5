//! The dense factorisation of `I − Q` without subtraction (the
//! Grassmann–Taksar–Heyman form of Gaussian elimination), for chains of
//! up to [`DENSE_MAX_STATES`](crate::markov::analysis::solve::DENSE_MAX_STATES) states, and of
//! the sparse solver's Schur complement on the states moves go back to.
//!
//! # Why
//! `I − Q` is an M-matrix: off the diagonal `−q(i, j) ≤ 0`, and each row's
//! diagonal is the chance of leaving the state, `e(i) + Σ_{j≠i} q(i, j)`
//! with `e(i)` the chance of finishing from it. Ordinary elimination forms
//! the new diagonal `d(i) − q(i, k)·q(k, i)/d(k)` by subtraction, and on a
//! chain where two squares send a token back and forth with a chance of
//! `1 − 1e-200` it cancels to 0: a valid board refused as "numerically
//! singular". Here the elimination keeps the finishing chances `e` as well,
//! updates them and the off-diagonal magnitudes by additions only, and takes
//! every pivot as `e(k) + Σ_{j>k} q(k, j)`: no step subtracts, so every
//! factor, and every solve with a right-hand side of one sign (the mean, the
//! variance's second solve, a row of N), is accurate to a few ulps relative
//! to itself however ill-conditioned the chain (docs/figures.md §2a).
//!
//! # Storage
//! One `n × n` matrix `f`: on and above the diagonal, `U` (the pivot `d(k)`
//! on the diagonal, the magnitude `q(k, j)` above it, the entry of `U` being
//! `−q(k, j)`); below it, the multipliers `m(i, k) = q(i, k)/d(k)` (the entry
//! of the unit lower `L` being `−m(i, k)`). It is kept transposed, `f(i, j)`
//! at `[(j, i)]`, so that the row operations of the elimination and of the
//! solves run along nalgebra's contiguous columns.

use nalgebra::DMatrix;

/// `I − Q` factored as `L·U` without pivoting or subtraction.
#[derive(Clone, Debug)]
pub(crate) struct Gth {
    factors: DMatrix<f64>,
}

impl Gth {
    /// Factors `I − Q` given `Q`'s off-diagonal entries in `q` (its diagonal
    /// ignored) and each state's chance of finishing in `finish`. `Err` with
    /// the smallest pivot when one is at most `min_pivot` or not a number.
    ///
    /// # Panics
    /// If `q` is not square or `finish` has another length.
    pub fn new(q: DMatrix<f64>, finish: Vec<f64>, min_pivot: f64) -> Result<Gth, f64> {
        assert!(q.is_square(), "one row per state");
        Self::from_transposed(q.transpose(), finish, min_pivot)
    }

    /// [`Gth::new`] given `Qᵀ` rather than `Q` (`qt[(j, i)] = q(i, j)`),
    /// factored in place: the sparse solver builds its Schur complement
    /// this way round, so that a `k × k` matrix is held once, not twice.
    ///
    /// # Panics
    /// If `qt` is not square or `finish` has another length.
    pub fn from_transposed(
        qt: DMatrix<f64>,
        mut finish: Vec<f64>,
        min_pivot: f64,
    ) -> Result<Gth, f64> {
        let n = qt.nrows();
        assert!(qt.is_square() && finish.len() == n, "one row per state");
        // `a[(j, i)]` is the logical `f(i, j)`.
        let mut a = qt;
        let mut smallest = f64::INFINITY;
        for k in 0..n {
            let pivot = finish[k] + a.column(k).rows_range(k + 1..).sum();
            smallest = smallest.min(pivot);
            if pivot.is_nan() || pivot <= min_pivot {
                return Err(if pivot.is_nan() { pivot } else { smallest });
            }
            a[(k, k)] = pivot;
            for i in k + 1..n {
                let to_k = a[(k, i)];
                if to_k == 0.0 {
                    continue;
                }
                let m = to_k / pivot;
                a[(k, i)] = m;
                finish[i] += m * finish[k];
                // Column i gains m times column k below row k, but for its
                // diagonal: two plain slices either side of it, so the loop
                // compiles to vector instructions (the same sums as one
                // loop over j ≠ i, element by element).
                let (left, right) = a.as_mut_slice().split_at_mut(i * n);
                let from = &left[k * n..][..n];
                let to = &mut right[..n];
                for (x, y) in to[k + 1..i].iter_mut().zip(&from[k + 1..i]) {
                    *x += m * y;
                }
                for (x, y) in to[i + 1..].iter_mut().zip(&from[i + 1..]) {
                    *x += m * y;
                }
            }
        }
        Ok(Gth { factors: a })
    }

    /// The factorisation of no states.
    pub fn empty() -> Gth {
        Gth {
            factors: DMatrix::zeros(0, 0),
        }
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.factors.nrows()
    }

    /// `x` with `(I − Q)·x = b`.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let a = &self.factors;
        let n = self.len();
        let mut x = b.to_vec();
        // L·y = b: y(i) = b(i) + Σ_{k<i} m(i, k)·y(k).
        for i in 0..n {
            let column = a.column(i);
            let mut s = x[i];
            for k in 0..i {
                s += column[k] * x[k];
            }
            x[i] = s;
        }
        // U·x = y: x(i) = (y(i) + Σ_{j>i} q(i, j)·x(j)) / d(i).
        for i in (0..n).rev() {
            let column = a.column(i);
            let mut s = x[i];
            for j in i + 1..n {
                s += column[j] * x[j];
            }
            x[i] = s / column[i];
        }
        x
    }

    /// Solves `(I − Q)·x = b` for many right-hand sides at once, in place:
    /// row `r` of `x` is one right-hand side on entry and its solution on
    /// return (`x` has one column per state). Each step is an update of a
    /// whole column, which runs along contiguous memory.
    ///
    /// # Panics
    /// If `x` does not have one column per state.
    pub fn solve_rows(&self, x: &mut DMatrix<f64>) {
        let a = &self.factors;
        let n = self.len();
        assert_eq!(x.ncols(), n, "one column per state");
        for i in 0..n {
            for k in 0..i {
                let m = a[(k, i)];
                if m != 0.0 {
                    let (mut target, source) = columns(x, i, k);
                    target.axpy(m, &source, 1.0);
                }
            }
        }
        for i in (0..n).rev() {
            for j in i + 1..n {
                let q = a[(j, i)];
                if q != 0.0 {
                    let (mut target, source) = columns(x, i, j);
                    target.axpy(q, &source, 1.0);
                }
            }
            let pivot = a[(i, i)];
            x.column_mut(i).iter_mut().for_each(|v| *v /= pivot);
        }
    }

    /// `y` with `(I − Q)ᵀ·y = c`.
    pub fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        let a = &self.factors;
        let n = self.len();
        let mut y = c.to_vec();
        // Uᵀ·z = c: z(i) = (c(i) + Σ_{k<i} q(k, i)·z(k)) / d(i).
        for i in 0..n {
            let mut s = y[i];
            for k in 0..i {
                s += a[(i, k)] * y[k];
            }
            y[i] = s / a[(i, i)];
        }
        // Lᵀ·y = z: y(i) = z(i) + Σ_{j>i} m(j, i)·y(j).
        for i in (0..n).rev() {
            let mut s = y[i];
            for j in i + 1..n {
                s += a[(i, j)] * y[j];
            }
            y[i] = s;
        }
        y
    }

    /// The diagonal of `(I − Q)⁻¹`, a column at a time.
    pub fn inverse_diagonal(&self) -> Vec<f64> {
        let n = self.len();
        (0..n)
            .map(|j| {
                let mut e = vec![0.0; n];
                e[j] = 1.0;
                self.solve(&e)[j]
            })
            .collect()
    }
}

/// Column `target` of `x`, mutable, beside column `source` (`target ≠ source`).
fn columns(
    x: &mut DMatrix<f64>,
    target: usize,
    source: usize,
) -> (
    nalgebra::DVectorViewMut<'_, f64>,
    nalgebra::DVectorView<'_, f64>,
) {
    let rows = x.nrows();
    let (low, high) = x.as_mut_slice().split_at_mut(target.max(source) * rows);
    let (t, s) = if target < source {
        (&mut low[target * rows..(target + 1) * rows], &high[..rows])
    } else {
        (&mut high[..rows], &low[source * rows..(source + 1) * rows])
    };
    (
        nalgebra::DVectorViewMut::from_slice(t, rows),
        nalgebra::DVectorView::from_slice(s, rows),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3-state chain, factored and solved, against nalgebra's LU of the
    /// same matrix.
    #[test]
    fn agrees_with_an_lu_on_a_well_conditioned_chain() {
        let q = DMatrix::from_row_slice(3, 3, &[0.1, 0.3, 0.2, 0.25, 0.0, 0.5, 0.1, 0.6, 0.2]);
        let finish: Vec<f64> = (0..3).map(|i| 1.0 - q.row(i).sum()).collect();
        let gth = Gth::new(q.clone(), finish, 0.0).unwrap();
        let a = DMatrix::identity(3, 3) - &q;
        let lu = a.clone().lu();
        let b = nalgebra::DVector::from_vec(vec![1.0, 2.0, 3.0]);
        let want = lu.solve(&b).unwrap();
        let got = gth.solve(b.as_slice());
        let want_t = a.transpose().lu().solve(&b).unwrap();
        let got_t = gth.solve_transpose(b.as_slice());
        let inverse = a.try_inverse().unwrap();
        // Two right-hand sides at once, as rows.
        let mut rows = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 0.0, 1.0, 0.0]);
        gth.solve_rows(&mut rows);
        let second = gth.solve(&[0.0, 1.0, 0.0]);
        for i in 0..3 {
            assert!((rows[(0, i)] - got[i]).abs() <= 1e-14 * got[i].abs(), "{i}");
            assert!(
                (rows[(1, i)] - second[i]).abs() <= 1e-14 * second[i].abs(),
                "{i}"
            );
        }
        for i in 0..3 {
            assert!((got[i] - want[i]).abs() <= 1e-14 * want[i].abs(), "{i}");
            assert!(
                (got_t[i] - want_t[i]).abs() <= 1e-14 * want_t[i].abs(),
                "{i}"
            );
            let d = gth.inverse_diagonal()[i];
            assert!((d - inverse[(i, i)]).abs() <= 1e-14 * d, "{i}");
        }
    }

    /// Two states that send a token to each other with a chance of
    /// `1 − 1e-200`, each finishing with 1e-200: `N·1` is `1e200` from both
    /// (exactly: `t = 1 + (1 − ε)·t`). An LU forms `1 − (1 − ε)²`, which is
    /// 0 in `f64`.
    #[test]
    fn a_back_and_forth_left_with_chance_1e_minus_200_is_solved() {
        let eps = 1e-200;
        let q = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0]);
        let gth = Gth::new(q, vec![eps, eps], 0.0).unwrap();
        let t = gth.solve(&[1.0, 1.0]);
        for v in t {
            assert!((v - 1e200).abs() <= 1e-14 * 1e200, "{v:e}");
        }
        let lu =
            (DMatrix::identity(2, 2) - DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0])).lu();
        assert!(!lu.is_invertible());
    }

    #[test]
    fn a_trapped_state_is_a_zero_pivot() {
        let q = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0]);
        assert_eq!(Gth::new(q, vec![0.0, 0.0], 0.0).unwrap_err(), 0.0);
    }
}
