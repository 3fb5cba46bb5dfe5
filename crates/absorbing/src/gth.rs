//! The dense factorisation of `I − Q` without subtraction (the
//! Grassmann–Taksar–Heyman form of Gaussian elimination), for chains of
//! up to [`DENSE_MAX_STATES`](crate::DENSE_MAX_STATES) states, and of
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
//! # Blocks
//! From [`BLOCKED_MIN_STATES`] states on, the elimination runs a panel of
//! pivots at a time and updates the trailing matrix by matrix products of
//! non-negative terms (nalgebra's `gemm`), split into blocks of a fixed
//! number of rows so that every digit is the same on any number of
//! threads: the same algorithm with its sums in another order
//! (docs/sparse-solver.md §2).
//!
//! # Storage
//! One `n × n` matrix `f`: on and above the diagonal, `U` (the pivot `d(k)`
//! on the diagonal, the magnitude `q(k, j)` above it, the entry of `U` being
//! `−q(k, j)`); below it, the multipliers `m(i, k) = q(i, k)/d(k)` (the entry
//! of the unit lower `L` being `−m(i, k)`). It is kept transposed, `f(i, j)`
//! at `[(j, i)]`, so that the row operations of the elimination and of the
//! solves run along nalgebra's contiguous columns.

use nalgebra::DMatrix;

/// States from which [`Gth::from_transposed`] eliminates a panel of
/// [`PANEL`] pivots at a time. Below it the matrix fits a core's cache
/// (128 states: 128 KiB), and the built-in board's handful of states keeps
/// the plain loop.
const BLOCKED_MIN_STATES: usize = 128;

/// Pivots per panel of the blocked elimination: the inner dimension of its
/// matrix products. Larger panels make the products more efficient and the
/// panel's own row-by-row elimination (about `n²·PANEL` multiply-adds in
/// all) more costly.
const PANEL: usize = 64;

/// Rows of the trailing matrix per task of the blocked elimination's
/// update, fixed so that the split, and therefore every digit, is the same
/// on any number of threads.
const TRAILING_COLUMNS: usize = 256;

/// Eliminates pivot `k` (of value `pivot`) from row `i > k` of the
/// transposed factors `a` (`n × n`, column-major, column `i` holding row
/// `i` of the logical `f`): `m = f(i, k)/pivot` is stored in place of
/// `f(i, k)`, the chance of finishing from `i` gains `m·finish(k)`, and
/// `f(i, j)` gains `m·f(k, j)` for every `j > k` but `i` (its diagonal,
/// never read).
fn eliminate_row(a: &mut [f64], n: usize, k: usize, i: usize, pivot: f64, finish: &mut [f64]) {
    let to_k = a[i * n + k];
    if to_k == 0.0 {
        return;
    }
    let m = to_k / pivot;
    a[i * n + k] = m;
    finish[i] += m * finish[k];
    // Column i gains m times column k below row k, but for its diagonal:
    // two plain slices either side of it, so the loop compiles to vector
    // instructions (the same sums as one loop over j ≠ i, element by
    // element).
    let (left, right) = a.split_at_mut(i * n);
    let from = &left[k * n..][..n];
    let to = &mut right[..n];
    for (x, y) in to[k + 1..i].iter_mut().zip(&from[k + 1..i]) {
        *x += m * y;
    }
    for (x, y) in to[i + 1..].iter_mut().zip(&from[i + 1..]) {
        *x += m * y;
    }
}

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
    pub fn from_transposed(qt: DMatrix<f64>, finish: Vec<f64>, min_pivot: f64) -> Result<Gth, f64> {
        if qt.nrows() >= BLOCKED_MIN_STATES {
            Self::from_transposed_blocked(qt, finish, min_pivot, PANEL)
        } else {
            Self::from_transposed_unblocked(qt, finish, min_pivot)
        }
    }

    /// [`Gth::from_transposed`] one pivot at a time: each pivot updates
    /// the whole trailing matrix, which streams it from memory once per
    /// pivot. Used below [`BLOCKED_MIN_STATES`], where that matrix is in
    /// cache anyway.
    fn from_transposed_unblocked(
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
            let pivot = take_pivot(&mut a, &finish, k, min_pivot, &mut smallest)?;
            for i in k + 1..n {
                eliminate_row(a.as_mut_slice(), n, k, i, pivot, &mut finish);
            }
        }
        Ok(Gth { factors: a })
    }

    /// [`Gth::from_transposed`] a panel of `panel` pivots at a time
    /// (right-looking blocked elimination): the same algorithm, every
    /// update an addition of a non-negative product, with the sums in
    /// another order.
    ///
    /// For the pivots `k0..k1` of a panel:
    /// 1. rows `k0..k1` are eliminated among themselves as in the unblocked
    ///    form, across all their columns, so each pivot is still
    ///    `finish(k) + Σ_{j>k} f(k, j)` of a fully updated row;
    /// 2. each later row `i` takes its multipliers `m(i, k)` for the panel
    ///    (updating its panel columns and its chance of finishing as it
    ///    goes);
    /// 3. the trailing block gains `Σ_k m(i, k)·f(k, j)` in one matrix
    ///    product per block of [`TRAILING_COLUMNS`] rows (nalgebra's
    ///    `gemm`, cache-blocked), in parallel over those blocks. Their
    ///    split does not depend on the thread count, so neither does any
    ///    digit. The product also adds to the trailing diagonal, which is
    ///    never read: each pivot is recomputed from the rest of its row.
    fn from_transposed_blocked(
        qt: DMatrix<f64>,
        mut finish: Vec<f64>,
        min_pivot: f64,
        panel: usize,
    ) -> Result<Gth, f64> {
        use crate::par::*;
        let n = qt.nrows();
        assert!(qt.is_square() && finish.len() == n, "one row per state");
        assert!(panel > 0, "a panel has a pivot");
        let mut a = qt;
        let mut smallest = f64::INFINITY;
        let mut k0 = 0;
        while k0 < n {
            let k1 = (k0 + panel).min(n);
            // 1. The panel's rows, among themselves, across all columns.
            for k in k0..k1 {
                let pivot = take_pivot(&mut a, &finish, k, min_pivot, &mut smallest)?;
                for i in k + 1..k1 {
                    eliminate_row(a.as_mut_slice(), n, k, i, pivot, &mut finish);
                }
            }
            if k1 == n {
                break;
            }
            let b = k1 - k0;
            let rest = n - k1;
            let (done, trailing) = a.as_mut_slice().split_at_mut(k1 * n);
            let done: &[f64] = done;
            // f(k, j) for the panel's k and j ≥ k1, as a (j, k) block.
            let upper =
                nalgebra::DMatrixView::from_slice_with_strides(&done[k0 * n + k1..], rest, b, 1, n);
            let (finish_done, finish_trailing) = finish.split_at_mut(k1);
            let finish_panel = &finish_done[k0..];
            trailing
                .par_chunks_mut(TRAILING_COLUMNS * n)
                .zip(finish_trailing.par_chunks_mut(TRAILING_COLUMNS))
                .for_each(|(rows, finish_rows)| {
                    let width = finish_rows.len();
                    // 2. Multipliers of each row for the panel's pivots.
                    let mut multipliers = vec![0.0; b * width];
                    for ((row, fin), m_out) in rows
                        .chunks_exact_mut(n)
                        .zip(finish_rows.iter_mut())
                        .zip(multipliers.chunks_exact_mut(b))
                    {
                        for k in k0..k1 {
                            let to_k = row[k];
                            if to_k == 0.0 {
                                continue;
                            }
                            let pivot_row = &done[k * n..][..n];
                            let m = to_k / pivot_row[k];
                            row[k] = m;
                            m_out[k - k0] = m;
                            *fin += m * finish_panel[k - k0];
                            for (x, y) in row[k + 1..k1].iter_mut().zip(&pivot_row[k + 1..k1]) {
                                *x += m * y;
                            }
                        }
                    }
                    // 3. The trailing block: f(i, j) += Σ_k m(i, k)·f(k, j).
                    let m = nalgebra::DMatrixView::from_slice(&multipliers, b, width);
                    let mut target = nalgebra::DMatrixViewMut::from_slice_with_strides_mut(
                        &mut rows[k1..],
                        rest,
                        width,
                        1,
                        n,
                    );
                    target.gemm(1.0, &upper, &m, 1.0);
                });
            k0 = k1;
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

    /// The diagonal of `(I − Q)⁻¹`, a column at a time: entry j is entry j
    /// of [`Gth::solve`] of the unit vector `e_j`, with the same digits.
    /// `L` being unit lower triangular, that solve's `y` is zero above j,
    /// and `x(j)` needs `x` below j only: each column is solved on the
    /// states `j..n` alone, so the diagonal costs about `n³/3` multiply-adds
    /// rather than `n³`. The products skipped are exact zeros (`+0` terms
    /// added to a sum leave it as it was), and every other sum runs in the
    /// order of [`Gth::solve`].
    pub fn inverse_diagonal(&self) -> Vec<f64> {
        let a = &self.factors;
        let n = self.len();
        let mut x = vec![0.0; n];
        (0..n)
            .map(|j| {
                x[j] = 1.0;
                for i in j + 1..n {
                    let column = a.column(i);
                    let mut s = 0.0;
                    for k in j..i {
                        s += column[k] * x[k];
                    }
                    x[i] = s;
                }
                for i in (j..n).rev() {
                    let column = a.column(i);
                    let mut s = x[i];
                    for k in i + 1..n {
                        s += column[k] * x[k];
                    }
                    x[i] = s / column[i];
                }
                x[j]
            })
            .collect()
    }
}

/// Column `target` of `x`, mutable, beside column `source` (`target ≠ source`).
/// The pivot of row k (transposed storage, `a[(j, k)] = f(k, j)`): its chance
/// of finishing plus the rest of its fully updated row, summed, never
/// subtracted; stored on the diagonal. `Err` with the smallest pivot so far
/// (kept in `smallest`) when it is at most `min_pivot`, or with the pivot
/// when it is not a number.
fn take_pivot(
    a: &mut DMatrix<f64>,
    finish: &[f64],
    k: usize,
    min_pivot: f64,
    smallest: &mut f64,
) -> Result<f64, f64> {
    let pivot = finish[k] + a.column(k).rows_range(k + 1..).sum();
    *smallest = smallest.min(pivot);
    if pivot.is_nan() || pivot <= min_pivot {
        return Err(if pivot.is_nan() { pivot } else { *smallest });
    }
    a[(k, k)] = pivot;
    Ok(pivot)
}

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

    /// A random substochastic chain of `n` states, transposed, with its
    /// chances of finishing: each row has about `density` of its entries
    /// set, and finishes with a chance that is one of `leaks` (so that a
    /// tiny one makes the chain badly conditioned).
    fn random_chain(n: usize, density: f64, leaks: &[f64], seed: u64) -> (DMatrix<f64>, Vec<f64>) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut q = DMatrix::zeros(n, n);
        let mut finish = vec![0.0; n];
        for i in 0..n {
            for j in 0..n {
                if j != i && rng.random_bool(density) {
                    q[(i, j)] = rng.random_range(0.0..1.0);
                }
            }
            let leak = leaks[rng.random_range(0..leaks.len())];
            let total: f64 = q.row(i).sum();
            if total > 0.0 {
                q.row_mut(i)
                    .iter_mut()
                    .for_each(|v| *v *= (1.0 - leak) / total);
                finish[i] = leak;
            } else {
                finish[i] = 1.0;
            }
        }
        (q.transpose(), finish)
    }

    /// The blocked elimination is the unblocked one with its sums in
    /// another order, so both factors agree to rounding: 1e-12 relative to
    /// each entry, since every entry is a sum of non-negative terms (a
    /// wrong or missing term is off by far more). Panels that divide the
    /// size and panels that do not, a sparse and a dense chain, and one
    /// that finishes only with chances of 1e-200 and 1e-12 (an expected
    /// length of about 1e12 turns, where any subtraction would lose every
    /// digit).
    #[test]
    fn blocked_and_unblocked_elimination_agree() {
        let cases: [(usize, f64, &[f64], usize); 5] = [
            (150, 0.3, &[0.01, 0.1], 64),
            (300, 0.05, &[0.001, 0.0], 64),
            (97, 1.0, &[0.2], 16),
            (200, 0.2, &[1e-200, 1e-12], 7),
            (260, 0.5, &[1e-200, 1e-12, 0.0], 64),
        ];
        for (seed, (n, density, leaks, panel)) in cases.into_iter().enumerate() {
            let (qt, finish) = random_chain(n, density, leaks, seed as u64);
            let plain = Gth::from_transposed_unblocked(qt.clone(), finish.clone(), 0.0).unwrap();
            let blocked = Gth::from_transposed_blocked(qt, finish, 0.0, panel).unwrap();
            for (p, b) in plain.factors.iter().zip(blocked.factors.iter()) {
                assert!(
                    (p - b).abs() <= 1e-12 * p.abs(),
                    "seed {seed}: {p:e} vs {b:e}"
                );
            }
            let ones = vec![1.0; n];
            let (t_plain, t_blocked) = (plain.solve(&ones), blocked.solve(&ones));
            for (p, b) in t_plain.iter().zip(&t_blocked) {
                assert!((p - b).abs() <= 1e-12 * p, "seed {seed}: {p:e} vs {b:e}");
            }
        }
    }

    /// The back and forth left with a chance of 1e-200, many times over, in
    /// a matrix large enough for the blocked elimination: every state sends
    /// its token to its partner with `1 − 1e-200`, so each expected length
    /// is `1e200` exactly as in the two-state case.
    #[test]
    fn blocked_elimination_keeps_a_chance_of_1e_minus_200() {
        let n = 2 * BLOCKED_MIN_STATES;
        let eps = 1e-200;
        let mut q = DMatrix::zeros(n, n);
        for i in 0..n {
            q[(i, i ^ 1)] = 1.0;
        }
        let gth = Gth::new(q, vec![eps; n], 0.0).unwrap();
        for v in gth.solve(&vec![1.0; n]) {
            assert!((v - 1e200).abs() <= 1e-14 * 1e200, "{v:e}");
        }
    }

    /// The split of the trailing update is fixed, so one thread and two
    /// give the same digits.
    #[cfg(feature = "parallel")]
    #[test]
    fn blocked_elimination_has_the_same_digits_on_one_thread() {
        let (qt, finish) = random_chain(700, 0.3, &[0.01, 1e-9], 11);
        let two = Gth::from_transposed(qt.clone(), finish.clone(), 0.0).unwrap();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| Gth::from_transposed(qt, finish, 0.0).unwrap());
        assert_eq!(one.factors, two.factors);
    }

    #[test]
    fn a_trapped_state_is_a_zero_pivot() {
        let q = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0]);
        assert_eq!(Gth::new(q, vec![0.0, 0.0], 0.0).unwrap_err(), 0.0);
    }
}
