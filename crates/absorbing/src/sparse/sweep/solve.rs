//! Solves with a factored chain: one backward sweep, a dense `|J|`-solve
//! and a product with `W`; the transposed solve; the diagonal of
//! `(I − Q)⁻¹`.

use super::*;

impl SweepSolver {
    /// For the states of `F` at or below `top`, in decreasing order:
    /// `x_i ← (x_i + Σ_{j≠i} Q_ij x_j) / (1 − Q_ii)`. Entries of `x` on `J`
    /// are inputs and are not changed.
    pub(super) fn back_sweep(&self, x: &mut [f64], top: usize) {
        for i in (0..=top).rev() {
            if self.in_j[i] {
                continue;
            }
            let (cols, vals) = self.off.row_slices(i);
            let mut s = x[i];
            for (&c, &v) in cols.iter().zip(vals) {
                s += v * x[c as usize];
            }
            // By the reciprocal, as [`Self::sweep_block`] (the same digits),
            // so that no division waits on the sum.
            x[i] = s * (1.0 / self.diag[i]);
        }
    }

    /// For the states of `F` in increasing order: `y_i ← acc_i / (1 − Q_ii)`,
    /// then `acc_j += Q_ij y_i` for every other entry of row `i` (on `J` too,
    /// where `acc` gathers `Q_FJᵀ y`).
    pub(super) fn forward_sweep(&self, acc: &mut [f64], from: usize) {
        for i in from..self.n {
            if self.in_j[i] {
                continue;
            }
            let y = acc[i] * (1.0 / self.diag[i]);
            acc[i] = y;
            if y != 0.0 {
                let (cols, vals) = self.off.row_slices(i);
                for (&c, &v) in cols.iter().zip(vals) {
                    acc[c as usize] += v * y;
                }
            }
        }
    }

    /// Solves `(I − Q) x = b`.
    ///
    /// # Panics
    /// If `b.len() != n`.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        assert_eq!(b.len(), self.n, "right-hand side length");
        let mut x = b.to_vec();
        for &j in &self.j {
            x[j as usize] = 0.0;
        }
        if self.n > 0 {
            self.back_sweep(&mut x, self.n - 1);
        }
        self.solve_from(b, x)
    }

    /// [`Self::solve`] given `x = U⁻¹ b_F` (zero on J), its first sweep.
    pub(super) fn solve_from(&self, b: &[f64], mut x: Vec<f64>) -> Vec<f64> {
        if self.j.is_empty() {
            return x;
        }
        let r = self.solve_j(b, &x);
        let k = self.j.len();
        if self.w.is_empty() {
            // x_F = U⁻¹ (b_F + Q_FJ x_J): a second sweep.
            x.copy_from_slice(b);
            for (&j, &z) in self.j.iter().zip(r.iter()) {
                x[j as usize] = z;
            }
            self.back_sweep(&mut x, self.n - 1);
        } else {
            // The same, as x_F = w + W x_J (non-negative terms only).
            for (i, (x, w)) in x.iter_mut().zip(self.w.chunks(self.w_stride)).enumerate() {
                if !self.in_j[i] {
                    *x += w[..k].iter().zip(&r).map(|(w, r)| w * r).sum::<f64>();
                }
            }
            for (&j, &z) in self.j.iter().zip(r.iter()) {
                x[j as usize] = z;
            }
        }
        x
    }

    /// `x_J = S⁻¹ r_J` with `r_J = b_J − A_JF w = b_J + Q_JF w`, given
    /// `w = U⁻¹ b_F` (zero on J).
    fn solve_j(&self, b: &[f64], w: &[f64]) -> Vec<f64> {
        let r: Vec<f64> = self
            .j
            .iter()
            .map(|&j| {
                let j = j as usize;
                b[j] + self.off.row(j).map(|(c, v)| v * w[c]).sum::<f64>()
            })
            .collect();
        self.gth.solve(&r)
    }

    /// [`Self::solve`] read at the states `at` only, with the same digits:
    /// the first sweep starts at the last state where `b` is not zero, and
    /// with `W` kept only the rows of `at` take their product with `x_J`
    /// (the per-jump figures read a few entries, docs/figures.md §6).
    ///
    /// # Panics
    /// If `b.len() != n` or a state of `at` is not below `n`.
    pub fn solve_at(&self, b: &[f64], at: &[usize]) -> Vec<f64> {
        if self.w.is_empty() {
            let x = self.solve(b);
            return at.iter().map(|&i| x[i]).collect();
        }
        assert_eq!(b.len(), self.n, "right-hand side length");
        let mut x = b.to_vec();
        for &j in &self.j {
            x[j as usize] = 0.0;
        }
        if let Some(top) = x.iter().rposition(|&v| v != 0.0) {
            self.back_sweep(&mut x, top);
        }
        let r = self.solve_j(b, &x);
        let k = self.j.len();
        at.iter()
            .map(|&i| match self.j.binary_search(&(i as u32)) {
                Ok(a) => r[a],
                Err(_) => {
                    let w = &self.w[i * self.w_stride..][..k];
                    x[i] + w.iter().zip(&r).map(|(w, r)| w * r).sum::<f64>()
                }
            })
            .collect()
    }

    /// Solves `(I − Q)ᵀ y = c`.
    ///
    /// # Panics
    /// If `c.len() != n`.
    pub fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        assert_eq!(c.len(), self.n, "right-hand side length");
        let mut acc = c.to_vec();
        let k = self.j.len();
        let r: Vec<f64> = if self.w.is_empty() {
            self.forward_sweep(&mut acc, 0);
            if k == 0 {
                return acc;
            }
            // r_J = c_J + Q_FJᵀ v, gathered by the sweep on J.
            self.j.iter().map(|&j| acc[j as usize]).collect()
        } else {
            // The same without a sweep: Q_FJᵀ U⁻ᵀ c_F = Wᵀ c_F.
            let mut r: Vec<f64> = self.j.iter().map(|&j| c[j as usize]).collect();
            for (i, w) in self.w.chunks(self.w_stride).enumerate() {
                if !self.in_j[i] && c[i] != 0.0 {
                    for (r, w) in r.iter_mut().zip(&w[..k]) {
                        *r += w * c[i];
                    }
                }
            }
            r
        };
        let r = self.gth.solve_transpose(&r);
        acc.copy_from_slice(c);
        for (&j, &y) in self.j.iter().zip(r.iter()) {
            for (col, v) in self.off.row(j as usize) {
                if !self.in_j[col] {
                    acc[col] += v * y;
                }
            }
        }
        self.forward_sweep(&mut acc, 0);
        for (&j, &y) in self.j.iter().zip(r.iter()) {
            acc[j as usize] = y;
        }
        acc
    }

    /// The diagonal of `(I − Q)⁻¹`: `N(i, i)`, the expected number of turns
    /// that start on `i` from `i` (so `1 − 1/N(i, i)` is the probability of
    /// coming back). Costs [`Plan::diagonal_bytes`] and
    /// [`Plan::diagonal_work`]; check them first on a large chain.
    ///
    /// # Formula
    /// With `W = U⁻¹ Q_FJ` and `V = Q_JF U⁻¹`, the block inverse gives
    /// `N_FF = U⁻¹ + W S⁻¹ V` and `N_JJ = S⁻¹`; the diagonal of `U⁻¹` is
    /// `1 / (1 − Q_ii)` since `U` is triangular.
    pub fn inverse_diagonal(&self) -> Vec<f64> {
        let k = self.j.len();
        let mut out: Vec<f64> = self.diag.iter().map(|d| 1.0 / d).collect();
        if k == 0 {
            return out;
        }
        // Small boards stay on this thread, as in `q_jf_w_by_column`.
        let parallel = k * (self.off.nnz() + self.n) >= PARALLEL_SCHUR_WORK;
        // W, column by column (kept from factoring on a small chain).
        let w_column = |a: usize| {
            if self.w.is_empty() {
                let mut x = vec![0.0; self.n];
                self.column_sweep(a, &mut x);
                x
            } else {
                column(&self.w, self.w_stride, a)
            }
        };
        let w: Vec<Vec<f64>> = if parallel {
            (0..k).into_par_iter().map(w_column).collect()
        } else {
            (0..k).map(w_column).collect()
        };
        // V, row by row: row b is (U⁻ᵀ Q_JFᵀ e_b)ᵀ.
        let v_row = |&jb: &u32| {
            let mut acc = vec![0.0; self.n];
            let mut from = self.n;
            for (c, v) in self.off.row(jb as usize) {
                if !self.in_j[c] {
                    acc[c] += v;
                    from = from.min(c);
                }
            }
            self.forward_sweep(&mut acc, from);
            for &j in &self.j {
                acc[j as usize] = 0.0;
            }
            acc
        };
        let v_rows: Vec<Vec<f64>> = if parallel {
            self.j.par_iter().map(v_row).collect()
        } else {
            self.j.iter().map(v_row).collect()
        };
        // Vᵀ, one row per state of F: column b is row b of V.
        let mut m = DMatrix::from_iterator(self.n, k, v_rows.into_iter().flatten());
        // Row f becomes column f of S⁻¹ V.
        self.gth.solve_rows(&mut m);
        for (f, o) in out.iter_mut().enumerate() {
            if !self.in_j[f] {
                *o += (0..k).map(|a| w[a][f] * m[(f, a)]).sum::<f64>();
            }
        }
        drop(m);
        for (&ja, d) in self.j.iter().zip(self.gth.inverse_diagonal()) {
            out[ja as usize] = d;
        }
        out
    }
}
