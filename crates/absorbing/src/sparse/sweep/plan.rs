//! What factoring a chain will cost, found before anything large is
//! allocated: the states moves go back to, the plain stretches a sweep can
//! cross in one product, and the bytes and work of the factorisation.

use super::*;

impl SweepSolver {
    /// What factoring `q` will cost. Linear in the size of `q`; allocates
    /// seven bytes per state.
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
        Self::plan_rows(q.n(), |i| q.row(i), finish, false)
    }

    /// [`SweepSolver::plan`] of the `n × n` matrix whose row `i` has the
    /// entries `row(i)` (column, value; a repeat counts as an entry) and
    /// the chance of absorption `finish(i)`, read a few times over: a
    /// compiled chain is planned without building a copy of its `Q`
    /// (800 MB for ten million states). Finds the same plain stretches as
    /// the factorisation will (its stretches), so the work and memory
    /// of its column sweeps are those of the sweeps that will run.
    /// `shared`: the solver will share `Q` off its diagonal with its owner
    /// (a compiled chain holds its rows in that form, counted with the
    /// chain), so neither figure counts a copy of it.
    pub fn plan_rows<I: Iterator<Item = (usize, f64)>>(
        n: usize,
        row: impl Fn(usize) -> I,
        finish: impl Fn(usize) -> f64,
        shared: bool,
    ) -> Plan {
        let (in_j, nnz) = back_targets(n, &row);
        let k = in_j.iter().filter(|&&b| b).count() as u64;
        let threads = crate::par::current_num_threads() as u64;
        // The stretches the column sweeps will skip, found from `Q` off its
        // diagonal and the diagonal of `I − Q` computed as the solver does.
        let off = |i: usize| row(i).filter(move |&(c, _)| c != i);
        let sites = use_sites(n, k as usize).then(|| {
            Layout::find(n, &in_j, off, |i| {
                finish(i) + off(i).map(|(_, v)| v).sum::<f64>()
            })
        });
        let sites = sites.filter(|layout| skips_enough(n, layout));
        let (tops, fj_entries) = sweep_tops(n, &in_j, &row);
        let sweeps = SweepCost::count(n, &row, &in_j, &tops, sites.as_ref());
        let no_stretches = Vec::new();
        let (window, stretches) = sites
            .as_ref()
            .map_or((0, &no_stretches), |l| (l.window, &l.stretches));
        let kf = k as f64;
        let q_bytes = if shared { 0 } else { Csr::bytes_for(n, nnz) };
        let full_sweep = (nnz + n) as f64;
        let n64 = n as u64;
        let sweep_bytes = sweep_bytes(n, k, nnz, threads, sites.as_ref(), &sweeps);
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
            // Q off its diagonal (unless shared); each state's chance of
            // finishing and of leaving (8 bytes a state each), at most
            // three more vectors of a state at a time (its stay, the sweep
            // of the chances of finishing, the solve of ones and its
            // right-hand side: 24),
            // J's flags and positions (5), the factors of S (held once,
            // `Gth::from_transposed`), the column sweeps while S is built.
            factor_bytes: q_bytes + n64 * (5 * 8 + 5) + k * 4 + k * k * 8 + sweep_bytes,
            held_bytes: q_bytes
                + n64 * (8 + 1 + 8)
                + k * 4
                + k * k * 8
                + if use_sites(n, k as usize) {
                    (k + 1) * 8 + fj_entries as u64 * 12
                } else {
                    n64 * (k + 2) * 8
                },
            factor_work: sweeps.work + matrix_work + kf * kf * 6.0 + kf * kf * kf / 3.0,
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
}

/// The back targets J of the `n × n` matrix with rows `row(i)`: `in_j[c]`
/// when some row `i > c` has an entry in column `c` (a move goes back to
/// `c`). Also returns the number of entries, repeats counted.
fn back_targets<I: Iterator<Item = (usize, f64)>>(
    n: usize,
    row: &impl Fn(usize) -> I,
) -> (Vec<bool>, usize) {
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
    (in_j, nnz)
}

/// For each column of J, the highest row of F with an entry there: the
/// sweep for that column runs from that row down. Returned sorted, one
/// per column of J that F reaches, with the number of entries of `Q_FJ`.
fn sweep_tops<I: Iterator<Item = (usize, f64)>>(
    n: usize,
    in_j: &[bool],
    row: &impl Fn(usize) -> I,
) -> (Vec<u32>, usize) {
    const NONE: u32 = u32::MAX;
    let mut top = vec![NONE; n];
    let mut entries = 0;
    for i in (0..n).filter(|&i| !in_j[i]) {
        for (c, _) in row(i) {
            if in_j[c] && c != i {
                entries += 1;
                if top[c] == NONE || (top[c] as usize) < i {
                    top[c] = i as u32;
                }
            }
        }
    }
    let mut tops: Vec<u32> = top.into_iter().filter(|&t| t != NONE).collect();
    tops.sort_unstable();
    (tops, entries)
}

/// The work of the column sweeps, and the sizes of the compact sweep's
/// rows they imply.
struct SweepCost {
    /// Multiply-adds of every column sweep.
    work: f64,
    /// Rows of F swept (the compact sweep's row blocks).
    row_blocks: usize,
    /// Their entries off the diagonal.
    row_entries: usize,
    /// The entries off the diagonal of J's rows.
    j_entries: usize,
}

impl SweepCost {
    /// Counts the sweeps that start at `tops` ([`sweep_tops`]) over the
    /// rows `row(i)`, crossing the stretches of `sites` in one product.
    fn count<I: Iterator<Item = (usize, f64)>>(
        n: usize,
        row: &impl Fn(usize) -> I,
        in_j: &[bool],
        tops: &[u32],
        sites: Option<&Layout>,
    ) -> SweepCost {
        let off = |i: usize| row(i).filter(move |&(c, _)| c != i);
        // Each sweep costs what lies up to its top: by row, its entries
        // and the row; a stretch, the `w²` of its matrix (no top is inside
        // one: a top has an entry in J). One more pass, counting as it
        // goes. Every term is a whole number far below 2⁵³, so the order of
        // the sum is exact.
        let no_stretches = Vec::new();
        let (window, stretches) = sites.map_or((0, &no_stretches), |l| (l.window, &l.stretches));
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
        SweepCost {
            work: sweep_work,
            row_blocks,
            row_entries,
            j_entries,
        }
    }
}

/// Bytes held while the columns are swept, for `n` states with `k` back
/// targets and `nnz` entries on `threads` threads: `SWEEP_LANES` columns
/// per thread, of a state each or of a site each; with stretches, their
/// sweep, each row's site while it is built (4 bytes a state), the
/// layout's two flags a state while it is found, the sites of Q_FJ's
/// entries and of J's rows.
fn sweep_bytes(
    n: usize,
    k: u64,
    nnz: usize,
    threads: u64,
    sites: Option<&Layout>,
    sweeps: &SweepCost,
) -> u64 {
    let n64 = n as u64;
    match sites {
        // The block of `W` with two more columns, kept as `W`, and
        // the two columns copied out of it
        // ([`SweepSolver::sweep_block`]).
        None if !use_sites(n, k as usize) => n64 * (k + 4) * 8,
        None => threads * n64 * 8 * SWEEP_LANES as u64,
        Some(layout) => {
            let site_count = (n - layout.skipped() + layout.window) as u64;
            threads * site_count * 8 * SWEEP_LANES as u64
                + Stretches::bytes_for(
                    sweeps.row_blocks + layout.stretches.len(),
                    sweeps.row_entries,
                    layout.stretches.len(),
                    layout.window,
                )
                + n64 * (4 + 2)
                + nnz as u64 * 4
                + sweeps.j_entries as u64 * 12
                + k * 8
        }
    }
}
