//! Skipping plain stretches of a board in the column sweeps that build the
//! Schur complement.
//!
//! On a long board most rows of `Q` are *plain*: a row's entries are at the
//! same offsets with the same values as the next row's, its chance of
//! leaving is the same, and nothing moves back to it. Across a run of `L`
//! such rows with nothing on the right-hand side, the back sweep
//! `x_i ← Σ_o (q_o / d) x_{i+o}` maps the `w` values just above the run to
//! the `w` at its bottom by a fixed `w × w` matrix, `Cᴸ`, where `C` is the
//! one-row step (a companion matrix: its first row `q_o / d`, then a shift)
//! and `w` the pattern's reach. `C` has non-negative entries, so `Cᴸ` (by
//! repeated squaring) and its products are sums of non-negative terms: no
//! subtraction, as everywhere else in the solver.
//!
//! A column sweep of `W = U⁻¹ Q_FJ` needs `W` only where something reads
//! it: every row that is not inside a stretch, and the rows that a row far
//! below reads (a ladder's top, the squares a row of `J` reaches). Those
//! rows are kept out of stretches, so a sweep reads and writes only the
//! *sites* (rows outside stretches and the bottom `w` rows of each
//! stretch), held in a compact vector: about 5 % of the rows of the
//! ten-million-square board, and a stretch costs `w²` multiply-adds
//! instead of `L·(entries + 1)`.
//!
//! Plainness is found from the matrix itself (the same offsets, values and
//! diagonal, bit for bit), so any dice or rules work; a board without long
//! plain runs has no stretches and sweeps every row as before.

use super::Csr;

/// The longest reach (largest offset) of a row that may belong to a
/// stretch: each stretch costs the square of the reach.
pub const MAX_WINDOW: usize = 24;

/// A stretch is used only where its `w²` multiply-adds are at most half
/// the row-by-row sweep's `L·(entries + 1)`, and it has at least this many
/// rows times the reach.
const MIN_LENGTH_IN_WINDOWS: usize = 2;

/// The stretches of a matrix: maximal runs of plain rows, long enough to
/// pay, with one reach `window` for all of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Layout {
    /// The reach `w`: the largest offset of a row in a stretch.
    pub window: usize,
    /// Each stretch's lowest and highest row, ascending.
    pub stretches: Vec<(u32, u32)>,
}

impl Layout {
    /// Finds the stretches of the `n × n` matrix whose row `i` has the
    /// off-diagonal entries `row(i)` (column, value) and the diagonal of
    /// `I − Q` `diag(i)`, with `in_j` its back targets. Linear in the
    /// entries; allocates two bytes per row.
    pub fn find<I: Iterator<Item = (usize, f64)>>(
        n: usize,
        in_j: &[bool],
        row: impl Fn(usize) -> I,
        diag: impl Fn(usize) -> f64,
    ) -> Layout {
        // Whether row i may be in a stretch: a row of F, every entry ahead
        // within MAX_WINDOW and outside J (so a column sweep's right-hand
        // side, which lives on rows with an entry in J, is zero on it).
        let flat =
            |i: usize| !in_j[i] && row(i).all(|(c, _)| c > i && c - i <= MAX_WINDOW && !in_j[c]);
        // `same[i]`: rows i and i + 1 are flat with the same entries (in
        // the same order, offsets and bits of values) and diagonal.
        let mut same = vec![false; n];
        let mut window = 0;
        let mut flat_next = n > 0 && flat(n - 1);
        for i in (0..n.saturating_sub(1)).rev() {
            let flat_here = flat(i);
            if flat_here && flat_next && diag(i).to_bits() == diag(i + 1).to_bits() {
                let (mut a, mut b) = (row(i), row(i + 1));
                let equal = loop {
                    match (a.next(), b.next()) {
                        (None, None) => break true,
                        (Some((ca, va)), Some((cb, vb))) => {
                            if ca - i != cb - (i + 1) || va.to_bits() != vb.to_bits() {
                                break false;
                            }
                        }
                        _ => break false,
                    }
                };
                if equal {
                    same[i] = true;
                    window = window.max(row(i).map(|(c, _)| c - i).max().unwrap_or(0));
                }
            }
            flat_next = flat_here;
        }
        if window == 0 {
            return Layout::default();
        }
        // Rows read from further than the reach below them must be known
        // one by one: they are kept out of stretches.
        let mut needed = vec![false; n];
        for r in 0..n {
            for (c, _) in row(r) {
                if c > r + window {
                    needed[c] = true;
                }
            }
        }
        let mut stretches = Vec::new();
        let mut i = 0;
        while i < n {
            if needed[i] || !same[i] {
                i += 1;
                continue;
            }
            // A run a..=b: consecutive rows equal to the next, none needed.
            let a = i;
            let mut b = i;
            while b + 1 < n && same[b] && !needed[b + 1] {
                b += 1;
            }
            let length = b - a + 1;
            let entries = row(a).count();
            if length >= MIN_LENGTH_IN_WINDOWS * window
                && length * (entries + 1) >= 2 * window * window
            {
                stretches.push((a as u32, b as u32));
            }
            i = b + 1;
        }
        Layout { window, stretches }
    }

    /// Rows that a sweep skips.
    pub fn skipped(&self) -> usize {
        self.stretches
            .iter()
            .map(|&(a, b)| (b - a + 1) as usize - self.window)
            .sum()
    }
}

/// One step of a sweep over the sites, highest first.
#[derive(Copy, Clone, Debug)]
enum Block {
    /// A row swept as usual: `x[at] ← (x[at] + Σ v·x[c]) / d` over the
    /// entries `lo..hi` of [`Stretches`]'s compact rows.
    Row { at: u32, lo: u32, hi: u32, d: f64 },
    /// A stretch: the `w` sites from `bottom` become `M` times the `w`
    /// sites from `bottom + w`, with `M` the `matrix`-th of
    /// [`Stretches::matrices`].
    Stretch { bottom: u32, matrix: u32 },
}

impl Block {
    fn site(&self) -> u32 {
        match *self {
            Block::Row { at, .. } => at,
            Block::Stretch { bottom, .. } => bottom,
        }
    }
}

/// The sweep over sites that a [`Layout`] allows, ready to run.
#[derive(Clone, Debug)]
pub(super) struct Stretches {
    window: usize,
    /// Sites, and `window` zero sites past the last row.
    sites: usize,
    /// Highest site first.
    blocks: Vec<Block>,
    cols: Vec<u32>,
    vals: Vec<f64>,
    /// `w × w` row-major, one per stretch.
    matrices: Vec<f64>,
}

/// A [`Stretches`] and each row's site (`u32::MAX` inside a stretch), which
/// the caller needs to place right-hand sides and read results.
pub(super) struct Built {
    pub stretches: Stretches,
    pub site: Vec<u32>,
}

impl Stretches {
    /// The sweep over the sites of `layout` for `off` (`Q` off its
    /// diagonal) with diagonal `diag` of `I − Q` and back targets `in_j`.
    pub fn build(layout: &Layout, off: &Csr, diag: &[f64], in_j: &[bool]) -> Built {
        let n = off.n();
        let w = layout.window;
        const SKIPPED: u32 = u32::MAX;
        let mut site = vec![0u32; n];
        for &(a, b) in &layout.stretches {
            for s in &mut site[a as usize + w..=b as usize] {
                *s = SKIPPED;
            }
        }
        let mut sites = 0u32;
        for s in &mut site {
            if *s != SKIPPED {
                *s = sites;
                sites += 1;
            }
        }
        let sites = sites as usize + w;
        let mut blocks = Vec::new();
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        let mut matrices = Vec::with_capacity(layout.stretches.len() * w * w);
        let mut next = layout.stretches.len();
        let mut i = n;
        while i > 0 {
            i -= 1;
            if next > 0 && layout.stretches[next - 1].1 as usize == i {
                next -= 1;
                let (a, b) = layout.stretches[next];
                let (a, b) = (a as usize, b as usize);
                blocks.push(Block::Stretch {
                    bottom: site[a],
                    matrix: (matrices.len() / (w * w)) as u32,
                });
                matrices.extend(stretch_matrix(off, diag[a], a, w, b - a + 1));
                i = a;
                continue;
            }
            if in_j[i] {
                continue;
            }
            let lo = cols.len() as u32;
            for (c, v) in off.row(i) {
                cols.push(site[c]);
                vals.push(v);
            }
            blocks.push(Block::Row {
                at: site[i],
                lo,
                hi: cols.len() as u32,
                d: diag[i],
            });
        }
        Built {
            stretches: Stretches {
                window: w,
                sites,
                blocks,
                cols,
                vals,
                matrices,
            },
            site,
        }
    }

    /// Sites of the compact vector, padding included.
    pub fn sites(&self) -> usize {
        self.sites
    }

    /// The back sweep of `LANES` vectors over the sites, stored site by
    /// site (`x[s · LANES + lane]`), from the site `top` (a row swept as
    /// usual) down. Each lane gets the same operations as a sweep of it
    /// alone.
    pub fn sweep_lanes<const LANES: usize>(&self, x: &mut [f64], top: u32) {
        let w = self.window;
        let start = self.blocks.partition_point(|b| b.site() > top);
        for block in &self.blocks[start..] {
            match *block {
                Block::Row { at, lo, hi, d } => {
                    let at = at as usize;
                    let mut s = [0.0; LANES];
                    s.copy_from_slice(&x[at * LANES..][..LANES]);
                    let (lo, hi) = (lo as usize, hi as usize);
                    for (&c, &v) in self.cols[lo..hi].iter().zip(&self.vals[lo..hi]) {
                        let from = &x[c as usize * LANES..][..LANES];
                        for (s, y) in s.iter_mut().zip(from) {
                            *s += v * y;
                        }
                    }
                    for (x, s) in x[at * LANES..][..LANES].iter_mut().zip(s) {
                        *x = s / d;
                    }
                }
                Block::Stretch { bottom, matrix } => {
                    let bottom = bottom as usize;
                    let m = &self.matrices[matrix as usize * w * w..][..w * w];
                    let (low, high) = x.split_at_mut((bottom + w) * LANES);
                    let above = &high[..w * LANES];
                    let out = &mut low[bottom * LANES..];
                    for (r, m_row) in m.chunks_exact(w).enumerate() {
                        let mut s = [0.0; LANES];
                        for (&mv, from) in m_row.iter().zip(above.chunks_exact(LANES)) {
                            for (s, y) in s.iter_mut().zip(from) {
                                *s += mv * y;
                            }
                        }
                        out[r * LANES..][..LANES].copy_from_slice(&s);
                    }
                }
            }
        }
    }

    /// Bytes held by the sweep of a layout with `blocks` blocks, `entries`
    /// entries in its rows and `stretches` stretches of reach `window`.
    pub fn bytes_for(blocks: usize, entries: usize, stretches: usize, window: usize) -> u64 {
        (blocks * std::mem::size_of::<Block>() + entries * 12 + stretches * window * window * 8)
            as u64
    }
}

/// `Cᴸ` for the stretch of `length` rows from row `a` of `off`, reach `w`:
/// `C` maps the window `(x_{i+1}, …, x_{i+w})` to `(x_i, …, x_{i+w−1})`,
/// its first row `q(i, i + o) / d` in column `o − 1`, then a shift.
/// Row-major, non-negative: products of non-negative matrices by
/// repeated squaring.
fn stretch_matrix(off: &Csr, d: f64, a: usize, w: usize, length: usize) -> Vec<f64> {
    let mut step = vec![0.0; w * w];
    for (c, v) in off.row(a) {
        step[c - a - 1] += v / d;
    }
    for r in 1..w {
        step[r * w + r - 1] = 1.0;
    }
    let multiply = |x: &[f64], y: &[f64]| {
        let mut out = vec![0.0; w * w];
        for r in 0..w {
            for k in 0..w {
                let xv = x[r * w + k];
                if xv != 0.0 {
                    for c in 0..w {
                        out[r * w + c] += xv * y[k * w + c];
                    }
                }
            }
        }
        out
    };
    let mut result: Option<Vec<f64>> = None;
    let mut power = step;
    let mut left = length;
    loop {
        if left & 1 == 1 {
            result = Some(match result {
                None => power.clone(),
                Some(r) => multiply(&r, &power),
            });
        }
        left >>= 1;
        if left == 0 {
            break;
        }
        power = multiply(&power, &power);
    }
    result.expect("a stretch has rows")
}
