//! Factoring: the split of the states into `F` and `J`, the sweeps that
//! build `W = A_FF⁻¹ A_FJ` column by column, by site or in lanes, and the
//! Schur complement `S` on `J`, factored without subtraction.

use super::*;

impl SweepSolver {
    /// Factors `I − q`.
    ///
    /// # Errors
    /// [`SparseError::Singular`] naming the states that cannot reach the
    /// absorbing state when `I − q` is singular; [`SparseError::IllConditioned`]
    /// when it is numerically singular although every state can leave.
    pub fn new(q: &Csr) -> Result<SweepSolver, SparseError> {
        Self::with_finish(q, None)
    }

    /// Factors `I − q` given each state's chance of absorption in one step
    /// (`None`: what its row leaves of 1). The diagonal `1 − q(i, i)` is
    /// taken as that chance plus the rest of the row, and the Schur
    /// complement is factored by the subtraction-free (GTH) elimination with its own chances of absorption,
    /// so no step subtracts: a state left with a chance of 1e-200 keeps it
    /// where `1 − q(i, i)` is 0 in `f64` (docs/figures.md §2a).
    ///
    /// # Errors
    /// As [`SweepSolver::new`].
    ///
    /// # Panics
    /// If `finish` does not have one entry per state.
    pub fn with_finish(q: &Csr, finish: Option<Vec<f64>>) -> Result<SweepSolver, SparseError> {
        let (off, stay) = q.split_diagonal();
        Self::from_parts(off, stay, finish, &|| trapped_states(q))
    }

    /// [`SweepSolver::with_finish`] given `Q` already split into its part
    /// off the diagonal and its diagonal ([`Csr::split_diagonal`]), so that
    /// a caller that can build the two directly (a compiled chain) never
    /// holds a second copy of `Q`. `trapped` names the trapped states of
    /// `Q` when factoring fails.
    ///
    /// # Errors
    /// As [`SweepSolver::new`].
    ///
    /// # Panics
    /// If `finish` or `stay` does not have one entry per state.
    pub(crate) fn from_parts(
        off: Csr,
        stay: Vec<f64>,
        finish: Option<Vec<f64>>,
        trapped: &dyn Fn() -> Vec<usize>,
    ) -> Result<SweepSolver, SparseError> {
        let n = off.n();
        assert_eq!(stay.len(), n, "one diagonal entry per state");
        // The diagonal is never below it, so `Q`'s back targets are those
        // of its part off the diagonal.
        let back = back_targets(&off);
        let finish = match finish {
            Some(finish) => {
                assert_eq!(finish.len(), n, "one chance of finishing per state");
                finish
            }
            None => (0..n)
                .map(|i| (1.0 - stay[i] - off.row(i).map(|(_, v)| v).sum::<f64>()).max(0.0))
                .collect(),
        };
        drop(stay);
        // The diagonal of I − Q: the chance of leaving each state.
        let leave: Vec<f64> = (0..n)
            .map(|i| finish[i] + off.row(i).map(|(_, v)| v).sum::<f64>())
            .collect();
        let split = Split {
            off: Arc::new(off),
            finish,
            leave,
            back,
        };
        Self::from_split(split, trapped)
    }

    /// `SweepSolver::from_parts` given what it derives from its parts:
    /// a compiled chain builds them in one pass over its rows.
    ///
    /// # Errors
    /// As [`SweepSolver::new`].
    ///
    /// # Panics
    /// If a vector of `split` does not have one entry per state.
    pub fn from_split(
        split: Split,
        trapped: &dyn Fn() -> Vec<usize>,
    ) -> Result<SweepSolver, SparseError> {
        let Split {
            off,
            finish,
            leave: diag,
            back: in_j,
        } = split;
        let n = off.n();
        for v in [&finish, &diag] {
            assert_eq!(v.len(), n, "one entry per state");
        }
        assert_eq!(in_j.len(), n, "one flag per state");
        if diag.iter().any(|&d| d.is_nan() || d <= 0.0) {
            return Err(SparseError::Singular { trapped: trapped() });
        }
        let j: Vec<u32> = (0..n).filter(|&i| in_j[i]).map(|i| i as u32).collect();
        let k = j.len();
        let jpos = positions(n, &j);
        // A small chain builds W all at once from the rows of Q
        // ([`Self::sweep_block`]); only the column sweeps of a large one
        // read Q_FJ by columns.
        let (col_ptr, col_rows, col_vals) = if use_sites(n, k) {
            q_fj_columns(&off, &in_j, &jpos)
        } else {
            (Vec::new(), Vec::new(), Vec::new())
        };
        let mut solver = SweepSolver {
            n,
            off,
            diag,
            in_j,
            j,
            gth: Gth::empty(),
            col_ptr,
            col_rows,
            col_vals,
            w: Vec::new(),
            w_stride: 0,
            steps: Vec::new(),
        };
        // S's chance of absorption from each state of J: finishing at once,
        // or first through F (`g = U⁻¹ finish_F`, a sweep with J held at 0)
        // before coming back to J. A small chain sweeps it with W and with
        // the first half of the solve of ones, all in one pass over Q.
        // The ones are needed while S is built only by a small chain's
        // block; a large one makes them after S, when less is held.
        let mut ones = Vec::new();
        let (g, ones_swept) = if use_sites(n, k) {
            let mut g = finish.clone();
            for &j in &solver.j {
                g[j as usize] = 0.0;
            }
            if n > 0 {
                solver.back_sweep(&mut g, n - 1);
            }
            (g, None)
        } else {
            ones = vec![1.0; n];
            let (w, [g, ones_swept]) = solver.sweep_block([&finish, &ones], &jpos);
            if k > 0 {
                // Without J there is no W: the block is the two columns.
                solver.w_stride = k + 2;
                solver.w = w;
            }
            (g, Some(ones_swept))
        };
        let absorbed = solver.absorbed(&finish, &g);
        drop((g, finish));
        // Off its diagonal S is minus the chances of going from one state of
        // J to another (directly or through F): Gth takes their magnitudes,
        // transposed in place so that the k × k matrix is held once.
        let mut magnitudes = solver.schur_magnitudes(&jpos);
        drop(jpos);
        magnitudes.transpose_mut();
        match Gth::from_transposed(magnitudes, absorbed, 0.0) {
            Ok(gth) => solver.gth = gth,
            Err(_) => {
                // Singular to working precision: a trap if some state cannot
                // leave, else ill conditioning.
                let trapped = trapped();
                return Err(if trapped.is_empty() {
                    SparseError::IllConditioned {
                        state: solver.j.first().map_or(0, |&s| s as usize),
                    }
                } else {
                    SparseError::Singular { trapped }
                });
            }
        }
        // A nonsingular M-matrix has a non-negative inverse, so the expected
        // number of steps must come out finite and non-negative; anything
        // else means the factorisation lost all accuracy.
        let t = match ones_swept {
            Some(swept) => solver.solve_from(&ones, swept),
            None => solver.solve(&vec![1.0; n]),
        };
        drop(ones);
        if let Some(state) = t.iter().position(|x| !x.is_finite() || *x < 0.0) {
            let trapped = trapped();
            return Err(if trapped.is_empty() {
                SparseError::IllConditioned { state }
            } else {
                SparseError::Singular { trapped }
            });
        }
        solver.steps = t;
        Ok(solver)
    }

    /// S's chance of absorption from each state of J: `finish` at once, or
    /// through F, whose chances `g = U⁻¹ finish_F` are given.
    fn absorbed(&self, finish: &[f64], g: &[f64]) -> Vec<f64> {
        self.j
            .iter()
            .map(|&j| {
                let j = j as usize;
                finish[j]
                    + self
                        .off
                        .row(j)
                        .filter(|&(c, _)| !self.in_j[c])
                        .map(|(c, v)| v * g[c])
                        .sum::<f64>()
            })
            .collect()
    }

    /// `U⁻¹ Q_FJ e_a` for the `a`-th state of `J`, left in `x` (which must be
    /// zero on entry); returns the highest row written.
    pub(super) fn column_sweep(&self, a: usize, x: &mut [f64]) -> Option<usize> {
        let range = self.col_ptr[a]..self.col_ptr[a + 1];
        let mut top = None;
        for (&i, &v) in self.col_rows[range.clone()]
            .iter()
            .zip(&self.col_vals[range])
        {
            x[i as usize] += v;
            top = Some(top.map_or(i as usize, |t: usize| t.max(i as usize)));
        }
        if let Some(top) = top {
            self.back_sweep(x, top);
        }
        top
    }

    /// Off its diagonal, minus the Schur complement
    /// `S = A_JJ − Q_JF U⁻¹ Q_FJ` (with `A_JF = −Q_JF` and `A_FJ = −Q_FJ`
    /// the two signs cancel): `Q_JF U⁻¹ Q_FJ + Q_JJ`, the chances of going
    /// from one state of J to another, through F or directly. Its diagonal
    /// is left as it comes: [`Gth`] takes each pivot from the rest of the
    /// row. `jpos` is each state's place in J.
    pub(super) fn schur_magnitudes(&self, jpos: &[u32]) -> DMatrix<f64> {
        let mut s = if !use_sites(self.n, self.j.len()) {
            self.q_jf_times(&self.w, self.w_stride)
        } else {
            let layout = self.layout();
            if skips_enough(self.n, &layout) {
                self.q_jf_w_by_site(&self.site_sweep(&layout))
            } else {
                drop(layout);
                self.q_jf_w_by_column()
            }
        };
        for (a, &ja) in self.j.iter().enumerate() {
            for (c, v) in self.off.row(ja as usize) {
                if self.in_j[c] {
                    s[(a, jpos[c] as usize)] += v;
                }
            }
        }
        s
    }

    /// The plain stretches of this solver's `Q` ([`super::stretch`]).
    pub(super) fn layout(&self) -> Layout {
        Layout::find(self.n, &self.in_j, |i| self.off.row(i), |i| self.diag[i])
    }

    /// The column sweeps over the sites of `layout`.
    pub(super) fn site_sweep(&self, layout: &Layout) -> SiteSweep {
        let built = Stretches::build(layout, &self.off, &self.diag, &self.in_j);
        let site = built.site;
        let col_sites = self.col_rows.iter().map(|&i| site[i as usize]).collect();
        let mut j_ptr = Vec::with_capacity(self.j.len() + 1);
        let (mut j_cols, mut j_vals) = (Vec::new(), Vec::new());
        j_ptr.push(0);
        for &ja in &self.j {
            for (c, v) in self.off.row(ja as usize) {
                j_cols.push(site[c]);
                j_vals.push(v);
            }
            j_ptr.push(j_cols.len());
        }
        SiteSweep {
            stretches: built.stretches,
            col_sites,
            j_ptr,
            j_cols,
            j_vals,
        }
    }

    /// [`Self::q_jf_w_by_column`] over the sites of `sweep` only: the same
    /// columns of `W` where any row reads them, with each plain stretch
    /// crossed by one `w × w` product. Each column is again the same sums
    /// in the same order whatever columns go with it.
    pub(super) fn q_jf_w_by_site(&self, sweep: &SiteSweep) -> DMatrix<f64> {
        let k = self.j.len();
        // Sites grow with rows, so a column's highest site is its top row's.
        let tops: Vec<Option<usize>> = (0..k)
            .map(|b| {
                sweep.col_sites[self.col_ptr[b]..self.col_ptr[b + 1]]
                    .iter()
                    .map(|&i| i as usize)
                    .max()
            })
            .collect();
        let sites = sweep.stretches.sites();
        self.q_jf_w_in_lanes(
            sites,
            k * sites,
            &tops,
            |b| {
                sweep.col_sites[self.col_ptr[b]..self.col_ptr[b + 1]]
                    .iter()
                    .map(|&i| i as usize)
            },
            |x, top| sweep.stretches.sweep_lanes::<SWEEP_LANES>(x, top as u32),
            |x, a, lane| {
                let range = sweep.j_ptr[a]..sweep.j_ptr[a + 1];
                sweep.j_cols[range.clone()]
                    .iter()
                    .zip(&sweep.j_vals[range])
                    .map(|(&c, &v)| v * x[c as usize * SWEEP_LANES + lane])
                    .sum()
            },
        )
    }

    /// `Q_JF · W` with `W = U⁻¹ Q_FJ` built [`SWEEP_LANES`] columns at a
    /// time: memory of that many columns per thread, in parallel when the
    /// sweeps are long. Each column is the same sums in the same order as
    /// a sweep of it alone ([`Self::column_sweep`]), so the result does not
    /// depend on which columns go together.
    pub(super) fn q_jf_w_by_column(&self) -> DMatrix<f64> {
        let k = self.j.len();
        // Each column's sweep starts at the highest row of F with an entry
        // in it.
        let tops: Vec<Option<usize>> = (0..k)
            .map(|b| {
                self.col_rows[self.col_ptr[b]..self.col_ptr[b + 1]]
                    .iter()
                    .map(|&i| i as usize)
                    .max()
            })
            .collect();
        self.q_jf_w_in_lanes(
            self.n,
            k * (self.off.nnz() + self.n),
            &tops,
            |b| {
                self.col_rows[self.col_ptr[b]..self.col_ptr[b + 1]]
                    .iter()
                    .map(|&i| i as usize)
            },
            |x, top| self.back_sweep_lanes(x, top),
            |x, a, lane| {
                self.off
                    .row(self.j[a] as usize)
                    .map(|(c, v)| v * x[c * SWEEP_LANES + lane])
                    .sum()
            },
        )
    }

    /// The driver of [`Self::q_jf_w_by_column`] and [`Self::q_jf_w_by_site`]:
    /// the columns of `W`, [`SWEEP_LANES`] at a time over vectors of `len`
    /// positions stored position by position (`work` multiply-adds in all),
    /// grouped in order of `tops`
    /// (each column's highest position, so that a group's columns start
    /// about as high). For column b, `places(b)` gives the positions of its
    /// entries of `Q_FJ` (added with their values, in `col_vals` order),
    /// `sweep(x, top)` applies `U⁻¹` to the lanes from `top` down, and
    /// `product(x, a, lane)` is row a of `Q_JF` times a lane (x is zero on
    /// J, so it sums over F only). Each lane gets the operations of a sweep
    /// of it alone, so the result does not depend on which columns go
    /// together, nor on the threads: groups run in parallel when the work
    /// passes [`PARALLEL_SCHUR_WORK`] (waking the thread pool costs tens of
    /// microseconds, more than all the sweeps of a board of a few hundred
    /// states).
    pub(super) fn q_jf_w_in_lanes<P: Iterator<Item = usize>>(
        &self,
        len: usize,
        work: usize,
        tops: &[Option<usize>],
        places: impl Fn(usize) -> P + Sync,
        sweep: impl Fn(&mut [f64], usize) + Sync,
        product: impl Fn(&[f64], usize, usize) -> f64 + Sync,
    ) -> DMatrix<f64> {
        const L: usize = SWEEP_LANES;
        let k = self.j.len();
        let mut s = DMatrix::zeros(k, k);
        if k == 0 {
            return s;
        }
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by_key(|&b| tops[b]);
        let out = std::sync::Mutex::new(s.as_mut_slice());
        let group = |x: &mut Vec<f64>, lanes: &[usize]| {
            for (lane, &b) in lanes.iter().enumerate() {
                let values = &self.col_vals[self.col_ptr[b]..self.col_ptr[b + 1]];
                for (i, &v) in places(b).zip(values) {
                    x[i * L + lane] += v;
                }
            }
            let top = lanes.iter().filter_map(|&b| tops[b]).max();
            if let Some(top) = top {
                sweep(x, top);
            }
            let mut columns = vec![0.0; lanes.len() * k];
            for (lane, column) in columns.chunks_mut(k).enumerate() {
                for (a, o) in column.iter_mut().enumerate() {
                    *o = product(x, a, lane);
                }
            }
            if let Some(top) = top {
                x[..(top + 1) * L].fill(0.0);
            }
            let mut out = out
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for (&b, column) in lanes.iter().zip(columns.chunks(k)) {
                out[b * k..][..k].copy_from_slice(column);
            }
        };
        if work < PARALLEL_SCHUR_WORK {
            let mut x = vec![0.0; len * L];
            for lanes in order.chunks(L) {
                group(&mut x, lanes);
            }
        } else {
            order
                .par_chunks(L)
                .for_each_init(|| vec![0.0; len * L], group);
        }
        s
    }

    /// [`Self::back_sweep`] of [`SWEEP_LANES`] vectors at once, stored row
    /// by row (`x[i · SWEEP_LANES + lane]`): each row of `Q` is read once
    /// for all of them, and their sums, independent of one another, overlap
    /// instead of each waiting on its last division. Each lane gets the
    /// operations of a sweep of it alone, in the same order.
    pub(super) fn back_sweep_lanes(&self, x: &mut [f64], top: usize) {
        const L: usize = SWEEP_LANES;
        for i in (0..=top).rev() {
            if self.in_j[i] {
                continue;
            }
            let (cols, vals) = self.off.row_slices(i);
            let mut s = [0.0; L];
            s.copy_from_slice(&x[i * L..][..L]);
            for (&c, &v) in cols.iter().zip(vals) {
                let from = &x[c as usize * L..][..L];
                for (s, y) in s.iter_mut().zip(from) {
                    *s += v * y;
                }
            }
            let inverse = 1.0 / self.diag[i];
            for (x, s) in x[i * L..][..L].iter_mut().zip(s) {
                *x = s * inverse;
            }
        }
    }

    /// `Q_JF · W` for `W` given row by row, row `i` the first `k` of
    /// `w[i · stride..]`.
    pub(super) fn q_jf_times(&self, w: &[f64], stride: usize) -> DMatrix<f64> {
        let k = self.j.len();
        let mut s = DMatrix::zeros(k, k);
        for (a, &ja) in self.j.iter().enumerate() {
            for (c, v) in self.off.row(ja as usize) {
                for (b, y) in w[c * stride..][..k].iter().enumerate() {
                    s[(a, b)] += v * y;
                }
            }
        }
        s
    }

    /// `Q_JF · W` as [`Self::q_jf_w_by_column`], with every column of `W`
    /// swept at once ([`Self::sweep_block`]).
    #[cfg(test)]
    pub(super) fn q_jf_w_blocked(&self) -> DMatrix<f64> {
        let (w, []) = self.sweep_block([], &self.positions_in_j());
        self.q_jf_times(&w, self.j.len())
    }
}
