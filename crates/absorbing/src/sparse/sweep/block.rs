//! The block sweep: several right-hand sides swept together, so each row
//! of `Q` is read once per block and a row's sums stay in registers.

use super::*;

impl SweepSolver {
    /// `W = U⁻¹ Q_FJ` and `U⁻¹ v_F` for each `v` of `extra` (zero on J),
    /// the first as the first `k` columns of the `n × (k + E)` block they
    /// were swept in, row by row, from one sweep over many columns at once
    /// ([`Self::sweep_rows`]): each row of `Q` is read once per
    /// [`SWEEP_WIDTH`] columns and its update runs over that many adjacent
    /// numbers, where a sweep of one column waits on each row's sum before
    /// the next row can start. `jpos` is each state's place in J.
    pub(super) fn sweep_block<const E: usize>(
        &self,
        extra: [&[f64]; E],
        jpos: &[u32],
    ) -> (Vec<f64>, [Vec<f64>; E]) {
        let k = self.j.len();
        let m = k + E;
        let mut block = vec![0.0; self.n * m];
        // Q_FJ from the rows of F, each cell's entries added in the order
        // its column would hold them (by row, then by place in the row).
        for i in (0..self.n).filter(|&i| !self.in_j[i]) {
            for (c, v) in self.off.row(i).filter(|&(c, _)| self.in_j[c]) {
                block[i * m + jpos[c] as usize] += v;
            }
        }
        self.place_columns(&mut block, m, k, &extra);
        self.sweep_rows(&mut block, m);
        let swept = std::array::from_fn(|e| column(&block, m, k + e));
        (block, swept)
    }

    /// Writes the vectors of `columns` into columns `first..` of an
    /// `n × m` block held row by row, on the rows of F only (a sweep's
    /// block is zero on J).
    ///
    /// # Panics
    /// If a vector does not have `n` entries.
    pub(super) fn place_columns(
        &self,
        block: &mut [f64],
        m: usize,
        first: usize,
        columns: &[&[f64]],
    ) {
        for (e, v) in columns.iter().enumerate() {
            assert_eq!(v.len(), self.n, "one entry per state");
            for (i, &x) in v.iter().enumerate().filter(|&(i, _)| !self.in_j[i]) {
                block[i * m + first + e] = x;
            }
        }
    }

    /// [`Self::back_sweep`] of the `m` columns of an `n × m` block held row
    /// by row, zero on the rows of J, many at once: each row of `Q` is read
    /// once per group of columns and its update runs over the group's
    /// adjacent numbers. Each column gets
    /// the operations of a sweep of it alone, in the same order (the sweep
    /// alone also adds the entries that go back to J, where it holds 0), so
    /// the digits do not depend on which columns go together.
    ///
    /// The columns go [`SWEEP_WIDTH`] at a time, each group by a copy of
    /// the loop made for its width, which holds a row's sums in registers
    /// across the row's entries: adding each entry's products into the row
    /// in memory made every entry wait on the store of the one before.
    pub(super) fn sweep_rows(&self, block: &mut [f64], m: usize) {
        for first in (0..m).step_by(SWEEP_WIDTH) {
            macro_rules! widths {
                ($($w:literal)*) => {
                    match (m - first).min(SWEEP_WIDTH) {
                        $($w => self.sweep_columns::<$w>(block, m, first),)*
                        _ => unreachable!("1 to SWEEP_WIDTH columns"),
                    }
                };
            }
            widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
        }
    }

    /// [`Self::sweep_rows`] of the `W` columns `first..first + W` of an
    /// `n × m` block.
    pub(super) fn sweep_columns<const W: usize>(&self, block: &mut [f64], m: usize, first: usize) {
        for i in (0..self.n).rev().filter(|&i| !self.in_j[i]) {
            let (done, rest) = block.split_at_mut((i + 1) * m);
            let row: &mut [f64; W] = (&mut done[i * m + first..][..W])
                .try_into()
                .expect("W numbers");
            let mut sum = *row;
            let (cols, vals) = self.off.row_slices(i);
            for (&c, &v) in cols.iter().zip(vals) {
                // Entries before i go back to J, where the block is zero.
                if let Some(offset) = (c as usize).checked_sub(i + 1) {
                    let from: &[f64; W] = rest[offset * m + first..][..W]
                        .try_into()
                        .expect("W numbers");
                    for (s, y) in sum.iter_mut().zip(from) {
                        *s += v * y;
                    }
                }
            }
            let inverse = 1.0 / self.diag[i];
            for (x, s) in row.iter_mut().zip(sum) {
                *x = s * inverse;
            }
        }
    }

    /// [`Self::solve`] of each right-hand side of `bs`, the same digits as
    /// one at a time; on a small chain (`W` kept) their first sweeps run
    /// `SOLVE_LANES` at a time (`Self::sweep_rows`).
    ///
    /// # Panics
    /// If a right-hand side does not have `n` entries.
    pub fn solve_many(&self, bs: &[&[f64]]) -> Vec<Vec<f64>> {
        if self.w.is_empty() {
            return bs.iter().map(|b| self.solve(b)).collect();
        }
        let mut out = Vec::with_capacity(bs.len());
        for group in bs.chunks(SOLVE_LANES) {
            let m = group.len();
            let mut block = vec![0.0; self.n * m];
            self.place_columns(&mut block, m, 0, group);
            self.sweep_rows(&mut block, m);
            for (e, b) in group.iter().enumerate() {
                out.push(self.solve_from(b, column(&block, m, e)));
            }
        }
        out
    }
}
