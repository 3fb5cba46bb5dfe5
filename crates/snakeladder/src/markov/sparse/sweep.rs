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
//! Measured against the `faer` crate's sparse LU (0.24, COLAMD ordering,
//! partial pivoting) on the same random one-die boards in one session of
//! the shared 2-core machine (factorisation only; faer / this solver):
//! 10,000 squares and 400 jumps, 61–183 ms / 70–93 ms; 100,000 and 1,000,
//! 0.8–1.6 s / 1.9 s; 1,000,000 and 2,000, 19 s / 36 s, with faer's test
//! program peaking at 870 MB against this solver's planned 128 MB. So faer
//! is up to twice as fast on the largest boards. This solver was kept
//! because it meets the targets with room (the mean of a million-square
//! board in about 13 s), states its memory exactly before allocating
//! ([`Plan`]) where a pivoting sparse LU learns its fill only while it
//! factors, gives the diagonal of `(I − Q)⁻¹` from its block form (rest
//! probabilities), and adds no dependency (faer 0.24 took 5 min 21 s to
//! build here, for every build and CI run). Its weak case is a chain with
//! many back-edge targets (an extra-roll rule spreads each snake's tail
//! over the squares a bonus roll reaches): `|J|` grows, and [`Plan`] says
//! so before any large allocation. A Krylov method was not chosen: the
//! systems are nonsymmetric and badly conditioned (mean game lengths of
//! 10⁵–10⁶ turns), so reaching 1e-9 would need a preconditioner about as
//! costly as this direct solve, and a direct solve needs no convergence
//! criterion. The next speed-up, if one is needed, is to sweep several
//! columns of `Q_FJ` at once (one pass over `Q` for a block of columns).
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
use crate::markov::gth::Gth;
use nalgebra::DMatrix;
use rayon::prelude::*;

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
    /// Bytes the factorisation holds (with the dense factors of `S`, and
    /// the column sweeps that build it: their work vectors per thread,
    /// and their stretches when they skip any).
    pub factor_bytes: u64,
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
    /// `Q` without its diagonal.
    off: Csr,
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
/// it, as [`SweepSolver::from_parts`] derives them.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    /// `Q` off its diagonal.
    pub off: Csr,
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

impl SweepSolver {
    /// What factoring `q` will cost. Linear in the size of `q`; allocates
    /// seven bytes per state.
    #[cfg(test)]
    pub fn plan(q: &Csr) -> Plan {
        let finish = |i: usize| {
            let (stay, off) = q.row(i).fold((0.0, 0.0), |(stay, off), (c, v)| {
                if c == i {
                    (stay + v, off)
                } else {
                    (stay, off + v)
                }
            });
            (1.0 - stay - off).max(0.0)
        };
        Self::plan_rows(q.n(), |i| q.row(i), finish)
    }

    /// [`SweepSolver::plan`] of the `n × n` matrix whose row `i` has the
    /// entries `row(i)` (column, value; a repeat counts as an entry) and
    /// the chance of absorption `finish(i)`, read a few times over: a
    /// compiled chain is planned without building a copy of its `Q`
    /// (800 MB for ten million states). Finds the same plain stretches as
    /// the factorisation will ([`super::stretch`]), so the work and memory
    /// of its column sweeps are those of the sweeps that will run.
    pub(crate) fn plan_rows<I: Iterator<Item = (usize, f64)>>(
        n: usize,
        row: impl Fn(usize) -> I,
        finish: impl Fn(usize) -> f64,
    ) -> Plan {
        let mut in_j = vec![false; n];
        let mut nnz = 0;
        for i in 0..n {
            for (c, _) in row(i) {
                nnz += 1;
                if c < i {
                    in_j[c] = true;
                }
            }
        }
        let k = in_j.iter().filter(|&&b| b).count() as u64;
        let threads = rayon::current_num_threads() as u64;
        // The stretches the column sweeps will skip, found from `Q` off its
        // diagonal and the diagonal of `I − Q` computed as the solver does.
        let off = |i: usize| row(i).filter(move |&(c, _)| c != i);
        let sites = use_sites(n, k as usize).then(|| {
            Layout::find(n, &in_j, off, |i| {
                finish(i) + off(i).map(|(_, v)| v).sum::<f64>()
            })
        });
        let sites = sites.filter(|layout| skips_enough(n, layout));
        // For each column of J, the highest row of F with an entry there:
        // the sweep for that column runs from that row down.
        const NONE: u32 = u32::MAX;
        let mut top = vec![NONE; n];
        for i in (0..n).filter(|&i| !in_j[i]) {
            for (c, _) in row(i) {
                if in_j[c] && c != i && (top[c] == NONE || (top[c] as usize) < i) {
                    top[c] = i as u32;
                }
            }
        }
        let mut tops: Vec<u32> = top.into_iter().filter(|&t| t != NONE).collect();
        tops.sort_unstable();
        // Each sweep costs what lies up to its top: by row, its entries
        // and the row; a stretch, the `w²` of its matrix (no top is inside
        // one: a top has an entry in J). One more pass, counting as it
        // goes. Every term is a whole number far below 2⁵³, so the order of
        // the sum is exact.
        let no_stretches = Vec::new();
        let (window, stretches) = sites
            .as_ref()
            .map_or((0, &no_stretches), |l| (l.window, &l.stretches));
        let mut sweep_work = 0.0;
        let mut cost_so_far = 0;
        let mut next = 0;
        let mut stretch = 0;
        // The compact sweep's rows (blocks and their entries).
        let (mut row_blocks, mut row_entries, mut j_entries) = (0, 0, 0);
        let mut i = 0;
        while i < n {
            if next == tops.len() && sites.is_none() {
                break;
            }
            if stretch < stretches.len() && stretches[stretch].0 as usize == i {
                i = stretches[stretch].1 as usize + 1;
                stretch += 1;
                cost_so_far += window * window;
                continue;
            }
            let entries = row(i).count();
            cost_so_far += entries + 1;
            if in_j[i] {
                j_entries += off(i).count();
            } else {
                row_blocks += 1;
                row_entries += off(i).count();
            }
            while next < tops.len() && tops[next] as usize == i {
                sweep_work += cost_so_far as f64;
                next += 1;
            }
            i += 1;
        }
        let kf = k as f64;
        let full_sweep = (nnz + n) as f64;
        let n64 = n as u64;
        // Held while the columns are swept: `SWEEP_LANES` columns per
        // thread, of a state each or of a site each; with stretches, their
        // sweep, each row's site while it is built (4 bytes a state), the
        // layout's two flags a state while it is found, the sites of
        // Q_FJ's entries and of J's rows.
        let sweep_bytes = match &sites {
            // The block of `W` with two more columns, kept as `W`, and
            // the two columns copied out of it
            // ([`SweepSolver::sweep_block`]).
            None if !use_sites(n, k as usize) => n64 * (k + 4) * 8,
            None => threads * n64 * 8 * SWEEP_LANES as u64,
            Some(layout) => {
                let site_count = (n - layout.skipped() + layout.window) as u64;
                threads * site_count * 8 * SWEEP_LANES as u64
                    + Stretches::bytes_for(
                        row_blocks + layout.stretches.len(),
                        row_entries,
                        layout.stretches.len(),
                        layout.window,
                    )
                    + n64 * (4 + 2)
                    + nnz as u64 * 4
                    + j_entries as u64 * 12
                    + k * 8
            }
        };
        // Each stretch's matrix: at most 2·log₂(L) products of w × w.
        let matrix_work: f64 = stretches
            .iter()
            .map(|&(a, b)| {
                2.0 * f64::from(32 - (b - a + 1).leading_zeros())
                    * (window * window * window) as f64
            })
            .sum();
        Plan {
            states: n,
            entries: nnz,
            back_targets: k as usize,
            // Q off its diagonal; each state's chance of finishing and of
            // leaving (8 bytes a state each), at most three more vectors of
            // a state at a time (its stay, the sweep of the chances of
            // finishing, the solve of ones and its right-hand side: 24),
            // J's flags and positions (5), the factors of S (held once,
            // `Gth::from_transposed`), the column sweeps while S is built.
            factor_bytes: Csr::bytes_for(n, nnz)
                + n64 * (5 * 8 + 5)
                + k * 4
                + k * k * 8
                + sweep_bytes,
            factor_work: sweep_work + matrix_work + kf * kf * 6.0 + kf * kf * kf / 3.0,
            // One sweep and a product with the kept `W`, or two sweeps.
            solve_work: if use_sites(n, k as usize) {
                2.0 * full_sweep + 2.0 * kf * kf
            } else {
                full_sweep + (n as f64) * kf + 2.0 * kf * kf
            },
            diagonal_bytes: 3 * n64 * k * 8,
            diagonal_work: 2.0 * kf * full_sweep + kf * kf * n as f64,
        }
    }

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
    /// complement is factored by [`Gth`] with its own chances of absorption,
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
            off,
            finish,
            leave,
            back,
        };
        Self::from_split(split, trapped)
    }

    /// [`SweepSolver::from_parts`] given what it derives from its parts:
    /// a compiled chain builds them in one pass over its rows.
    ///
    /// # Errors
    /// As [`SweepSolver::new`].
    ///
    /// # Panics
    /// If a vector of `split` does not have one entry per state.
    pub(crate) fn from_split(
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
        let ones = vec![1.0; n];
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
            let (w, [g, ones_swept]) = solver.sweep_block([&finish, &ones], &jpos);
            if k > 0 {
                // Without J there is no W: the block is the two columns.
                solver.w_stride = k + 2;
                solver.w = w;
            }
            (g, Some(ones_swept))
        };
        let absorbed: Vec<f64> = solver
            .j
            .iter()
            .map(|&j| {
                let j = j as usize;
                finish[j]
                    + solver
                        .off
                        .row(j)
                        .filter(|&(c, _)| !solver.in_j[c])
                        .map(|(c, v)| v * g[c])
                        .sum::<f64>()
            })
            .collect();
        drop(g);
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
            None => solver.solve(&ones),
        };
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

    #[cfg(test)]
    /// `|J|`, the states some later state moves back to.
    pub fn back_targets(&self) -> usize {
        self.j.len()
    }

    /// `U⁻¹ Q_FJ e_a` for the `a`-th state of `J`, left in `x` (which must be
    /// zero on entry); returns the highest row written.
    fn column_sweep(&self, a: usize, x: &mut [f64]) -> Option<usize> {
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
    fn schur_magnitudes(&self, jpos: &[u32]) -> DMatrix<f64> {
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
    fn layout(&self) -> Layout {
        Layout::find(self.n, &self.in_j, |i| self.off.row(i), |i| self.diag[i])
    }

    /// The column sweeps over the sites of `layout`.
    fn site_sweep(&self, layout: &Layout) -> SiteSweep {
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
    fn q_jf_w_by_site(&self, sweep: &SiteSweep) -> DMatrix<f64> {
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
    fn q_jf_w_by_column(&self) -> DMatrix<f64> {
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
    fn q_jf_w_in_lanes<P: Iterator<Item = usize>>(
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
    fn back_sweep_lanes(&self, x: &mut [f64], top: usize) {
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

    /// `W = U⁻¹ Q_FJ` and `U⁻¹ v_F` for each `v` of `extra` (zero on J),
    /// the first as the first `k` columns of the `n × (k + E)` block they
    /// were swept in, row by row, from one sweep over many columns at once
    /// ([`Self::sweep_rows`]): each row of `Q` is read once per
    /// [`SWEEP_WIDTH`] columns and its update runs over that many adjacent
    /// numbers, where a sweep of one column waits on each row's sum before
    /// the next row can start. `jpos` is each state's place in J.
    fn sweep_block<const E: usize>(
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
    fn place_columns(&self, block: &mut [f64], m: usize, first: usize, columns: &[&[f64]]) {
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
    fn sweep_rows(&self, block: &mut [f64], m: usize) {
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
    fn sweep_columns<const W: usize>(&self, block: &mut [f64], m: usize, first: usize) {
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
    /// [`SOLVE_LANES`] at a time ([`Self::sweep_rows`]).
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

    /// `Q_JF · W` for `W` given row by row, row `i` the first `k` of
    /// `w[i · stride..]`.
    fn q_jf_times(&self, w: &[f64], stride: usize) -> DMatrix<f64> {
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
    fn q_jf_w_blocked(&self) -> DMatrix<f64> {
        let (w, []) = self.sweep_block([], &self.positions_in_j());
        self.q_jf_times(&w, self.j.len())
    }

    /// For the states of `F` at or below `top`, in decreasing order:
    /// `x_i ← (x_i + Σ_{j≠i} Q_ij x_j) / (1 − Q_ii)`. Entries of `x` on `J`
    /// are inputs and are not changed.
    fn back_sweep(&self, x: &mut [f64], top: usize) {
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
    fn forward_sweep(&self, acc: &mut [f64], from: usize) {
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
    fn solve_from(&self, b: &[f64], mut x: Vec<f64>) -> Vec<f64> {
        if self.j.is_empty() {
            return x;
        }
        // r_J = b_J − A_JF w = b_J + Q_JF w, with w = U⁻¹ b_F (zero on J).
        let r: Vec<f64> = self
            .j
            .iter()
            .map(|&j| {
                let j = j as usize;
                b[j] + self.off.row(j).map(|(c, v)| v * x[c]).sum::<f64>()
            })
            .collect();
        let r = self.gth.solve(&r);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markov::sparse::tests::chain_like;

    /// The two ways of building `Q_JF · W` are the same sums in another
    /// order, so they agree to rounding (1e-12 relative to the largest
    /// entry, far below any mistake in which entries are summed).
    #[test]
    fn blocked_and_column_sweeps_agree() {
        for (seed, (n, width, jumps)) in
            [(40, 6, 0.05), (300, 6, 0.03), (200, 36, 0.05), (90, 2, 0.2)]
                .into_iter()
                .enumerate()
        {
            let q = chain_like(n, width, jumps, seed as u64);
            let solver = SweepSolver::new(&q).unwrap().with_columns();
            assert!(solver.back_targets() > 0, "seed {seed} has no back edges");
            let blocked = solver.q_jf_w_blocked();
            let by_column = solver.q_jf_w_by_column();
            let scale = by_column.amax();
            assert!(scale > 0.0);
            assert!(
                (blocked - &by_column).amax() <= 1e-12 * scale,
                "seed {seed}"
            );
        }
    }

    /// A board of `squares` squares with `jumps` snakes and as many
    /// ladders, spread by a fixed linear congruential sequence, under
    /// `rules` (JSON).
    fn long_board(squares: u32, jumps: u32, rules: &str, seed: u64) -> crate::Board {
        let mut state = seed;
        let mut next = |below: u32| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % u64::from(below)) as u32
        };
        let mut used = std::collections::BTreeSet::new();
        let (mut snakes, mut ladders) = (Vec::new(), Vec::new());
        while snakes.len() + ladders.len() < 2 * jumps as usize {
            let (a, b) = (1 + next(squares - 20), 1 + next(squares - 20));
            if a == b || used.contains(&a) || used.contains(&b) {
                continue;
            }
            let (low, high) = (a.min(b), a.max(b));
            if snakes.len() < jumps as usize {
                snakes.push(format!("[{high}, {low}]"));
            } else {
                ladders.push(format!("[{low}, {high}]"));
            }
            used.insert(a);
            used.insert(b);
        }
        let json = format!(
            r#"{{"squares": {squares}, "snakes": [{}], "ladders": [{}], "rules": {rules}}}"#,
            snakes.join(", "),
            ladders.join(", ")
        );
        crate::Board::from_json_str(&json).expect("a valid test board")
    }

    /// The generated boards' chains: one die, 2d6, extra rolls on a six,
    /// bouncing overshoot, and a loaded die with forfeits.
    fn long_boards() -> Vec<(&'static str, Csr)> {
        [
            ("one die", 6000, 20, r#"{}"#),
            (
                "2d6, overshoot wins",
                6000,
                20,
                r#"{"dice": {"count": 2, "faces": 6}, "overshoot": "win"}"#,
            ),
            (
                "extra roll on a six",
                4000,
                10,
                r#"{"extra_turn": {"on": 6, "max_extra": 2}}"#,
            ),
            ("bounce", 5000, 15, r#"{"overshoot": "bounce"}"#),
            (
                "loaded die, forfeits",
                4000,
                10,
                r#"{"dice": {"weights": [1, 2, 3]}, "extra_turn": {"on": 3, "forfeit_after": 3}}"#,
            ),
        ]
        .into_iter()
        .enumerate()
        .map(|(seed, (name, squares, jumps, rules))| {
            let board = long_board(squares, jumps, rules, seed as u64 + 1);
            let chain = crate::markov::chain::Chain::compile(&board).unwrap();
            (name, crate::markov::analysis::solve::chain_csr(&chain))
        })
        .collect()
    }

    /// Skipping stretches computes the same Schur complement as sweeping
    /// every row: each entry is a sum of non-negative terms either way, so
    /// they agree to rounding, 1e-12 relative to each entry (a stretch's
    /// matrix carries about `2·log₂(L)·w` roundings where the row-by-row
    /// sweep carries about `L·(entries + 1)`, both far below 1e-12 on
    /// these boards; a wrong or missing term is off by whole percents).
    /// Each board must skip most of its rows, so the test cannot pass by
    /// sweeping every row both times.
    #[test]
    fn stretches_give_the_schur_complement_of_plain_sweeps() {
        for (name, q) in long_boards() {
            let solver = SweepSolver::new(&q).unwrap().with_columns();
            let layout = solver.layout();
            assert!(
                layout.skipped() * 2 > q.n(),
                "{name}: skips only {} of {} rows",
                layout.skipped(),
                q.n()
            );
            let plain = solver.q_jf_w_by_column();
            let skipping = solver.q_jf_w_by_site(&solver.site_sweep(&layout));
            assert!(plain.amax() > 0.0, "{name}");
            let mut worst: f64 = 0.0;
            for (p, s) in plain.iter().zip(skipping.iter()) {
                assert!((p - s).abs() <= 1e-12 * p.abs(), "{name}: {p:e} vs {s:e}");
                if *p > 0.0 {
                    worst = worst.max((p - s).abs() / p);
                }
            }
            eprintln!(
                "{name}: window {}, {} stretches, worst relative gap {worst:e}",
                layout.window,
                layout.stretches.len()
            );
        }
    }

    /// The solver (with stretches) solves `(I − Q)·t = 1` on every board:
    /// `t_i − Σ_j Q_ij t_j` is 1 to 1e-10 relative to `t_i` (the rounding
    /// of the difference of two numbers of the size of `t` is about
    /// 1e-16·t; a wrong Schur complement leaves residuals of order 1).
    #[test]
    fn stretched_solves_leave_no_residual() {
        for (name, q) in long_boards() {
            let solver = SweepSolver::new(&q).unwrap();
            assert!(
                skips_enough(q.n(), &solver.layout()),
                "{name}: no stretches"
            );
            let t = solver.expected_steps();
            let qt = q.mul_vec(t);
            for (i, (ti, qti)) in t.iter().zip(&qt).enumerate() {
                assert!(
                    (ti - qti - 1.0).abs() <= 1e-10 * ti,
                    "{name}, state {i}: t = {ti}, Qt = {qti}"
                );
            }
        }
    }

    /// The sweeps over sites run in parallel on a board this size, and
    /// give the same digits on one thread: each column is the same sums
    /// whichever thread sweeps it and whatever columns go with it.
    #[test]
    fn stretched_sweeps_have_the_same_digits_on_one_thread() {
        let board = long_board(30_000, 60, "{}", 9);
        let chain = crate::markov::chain::Chain::compile(&board).unwrap();
        let q = crate::markov::analysis::solve::chain_csr(&chain);
        let solver = SweepSolver::new(&q).unwrap();
        let sweep = solver.site_sweep(&solver.layout());
        assert!(
            solver.back_targets() * sweep.stretches.sites() >= PARALLEL_SCHUR_WORK,
            "the sweeps run in parallel"
        );
        let two = solver.q_jf_w_by_site(&sweep);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| solver.q_jf_w_by_site(&sweep));
        assert_eq!(one, two);
    }

    /// Where no row is plain (random probabilities on every row), there are
    /// no stretches and the sweep is the plain one.
    #[test]
    fn random_rows_have_no_stretches() {
        let q = chain_like(3000, 6, 0.01, 4);
        let solver = SweepSolver::new(&q).unwrap();
        assert_eq!(solver.layout().skipped(), 0);
    }

    /// The plan finds the factorisation's stretches: its sweep work is far
    /// below that of sweeping every row.
    #[test]
    fn plan_counts_the_stretched_sweeps() {
        let (_, q) = long_boards().swap_remove(0);
        let plan = SweepSolver::plan(&q);
        let k = plan.back_targets as f64;
        let rows_only = plan.factor_work - 6.0 * k * k - k * k * k / 3.0;
        let every_row = (q.nnz() + q.n()) as f64 * k;
        assert!(
            rows_only > 0.0 && rows_only < every_row / 2.0,
            "{rows_only:e} vs {every_row:e}"
        );
    }

    /// Several right-hand sides swept together give each the digits of
    /// its own solve (the figures must not depend on which jumps are
    /// solved together), across more than one group of lanes.
    #[test]
    fn many_solves_have_the_digits_of_one() {
        let q = chain_like(150, 6, 0.05, 5);
        let solver = SweepSolver::new(&q).unwrap();
        assert!(!solver.w.is_empty() && solver.back_targets() > 0);
        let bs: Vec<Vec<f64>> = (0..SOLVE_LANES + 3)
            .map(|r| (0..150).map(|i| ((i * 31 + r * 17) % 11) as f64).collect())
            .collect();
        let refs: Vec<&[f64]> = bs.iter().map(Vec::as_slice).collect();
        let many = solver.solve_many(&refs);
        assert_eq!(many.len(), bs.len());
        for (b, x) in bs.iter().zip(&many) {
            assert_eq!(x, &solver.solve(b));
        }
    }

    #[test]
    fn expected_steps_are_the_solve_of_ones() {
        let q = chain_like(120, 6, 0.05, 3);
        let solver = SweepSolver::new(&q).unwrap();
        assert_eq!(solver.expected_steps(), solver.solve(&vec![1.0; 120]));
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_69() -> Result<(), Box<dyn std::error::Error>> {
        use crate::markov::sparse::{Csr, SweepSolver};
        // 0 → 1 → 2, and 2 falls back to 0 half the time.
        let q = Csr::from_triplets(3, &[(0, 1, 1.0), (1, 2, 1.0), (2, 0, 0.5)])?;
        let plan = SweepSolver::plan(&q);
        assert_eq!(plan.back_targets, 1);
        assert!(plan.factor_bytes > 0);
        Ok(())
    }

    #[test]
    fn example_at_line_103() -> Result<(), Box<dyn std::error::Error>> {
        use crate::markov::sparse::{Csr, SweepSolver};
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
