//! `A = I − Q`, scaled to integers, factored modulo one prime in the sparse
//! solver's order (docs/exact-modular.md §4, docs/sparse-solver.md §2).
//!
//! J is the set of states that some row below them reaches (snake tails,
//! bounce targets); F is every other state. On F the matrix is upper
//! triangular, so a back sweep over F in decreasing order applies its
//! inverse with no fill-in at all; what is left is the dense Schur
//! complement `S = A_JJ − A_JF·A_FF⁻¹·A_FJ` on J, factored by Gaussian
//! elimination modulo p (any non-zero pivot will do: there is no rounding).

use super::field::Field;
use super::system::{System, Values};

/// The split of the states into F (swept) and J (the Schur complement).
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    /// J, increasing.
    pub back: Vec<usize>,
    /// F, decreasing: the order of a back sweep.
    pub forward: Vec<usize>,
    /// For each column of J, where in `forward` the sweep of its column of
    /// `A_FJ` starts (rows above its highest entry stay zero).
    starts: Vec<usize>,
}

impl Shape {
    /// The shape of `system`.
    pub(crate) fn new(system: &System) -> Shape {
        let n = system.len();
        let mut back_target = vec![false; n];
        for i in 0..n {
            for (_, j) in system.row(i) {
                if j < i {
                    back_target[j] = true;
                }
            }
        }
        let back: Vec<usize> = (0..n).filter(|&i| back_target[i]).collect();
        let mut place = vec![u32::MAX; n];
        for (k, &j) in back.iter().enumerate() {
            place[j] = k as u32;
        }
        let forward: Vec<usize> = (0..n).rev().filter(|&i| !back_target[i]).collect();
        // The highest row of F with an entry in each column of J.
        let mut top = vec![None::<usize>; back.len()];
        for &i in &forward {
            for (_, j) in system.row(i) {
                let k = place[j];
                if k != u32::MAX {
                    let t = &mut top[k as usize];
                    *t = Some(t.map_or(i, |t: usize| t.max(i)));
                }
            }
        }
        let starts = top
            .iter()
            .map(|t| match t {
                // `forward` decreases: the first position at or below t.
                Some(t) => forward.partition_point(|&i| i > *t),
                None => forward.len(),
            })
            .collect();
        Shape {
            back,
            forward,
            starts,
        }
    }
}

/// The factors of the scaled system modulo one prime, every residue in
/// Montgomery form.
pub(crate) struct Factors<'a> {
    system: &'a System,
    shape: &'a Shape,
    /// The field.
    pub field: Field,
    /// `cᵢⱼ mod p`, aligned with `System::cols`.
    pub off: Vec<u64>,
    /// `cᵢᵢ mod p`.
    pub diag: Vec<u64>,
    /// `1/Aᵢᵢ mod p` on F (zero on J).
    inverse: Vec<u64>,
    /// LU of S, row-major, L unit lower (below the diagonal), U's diagonal
    /// stored inverted.
    lu: Vec<u64>,
    /// Row i of the factored S is row `perm[i]` of S.
    perm: Vec<usize>,
}

impl<'a> Factors<'a> {
    /// Factors `system` modulo the prime of `field`, or `None` when the
    /// matrix is singular modulo it (a pivot of F divisible by p, or S
    /// singular modulo p).
    pub(crate) fn new(system: &'a System, shape: &'a Shape, field: Field) -> Option<Factors<'a>> {
        let n = system.len();
        let (off, diag, pivot): (Vec<u64>, Vec<u64>, Vec<u64>) = match &system.values {
            Values::Small { scale, diag, off } => (
                off.iter().map(|&c| field.enter_u64(c)).collect(),
                diag.iter().map(|&c| field.enter_u64(c)).collect(),
                scale
                    .iter()
                    .zip(diag)
                    .map(|(&s, &c)| field.enter_u64(s - c))
                    .collect(),
            ),
            Values::Big { scale, diag, off } => (
                off.iter().map(|c| field.enter_big(c)).collect(),
                diag.iter().map(|c| field.enter_big(c)).collect(),
                scale
                    .iter()
                    .zip(diag)
                    .map(|(s, c)| field.enter_big(&(s - c)))
                    .collect(),
            ),
        };
        // Every pivot of F inverted with one inversion (Montgomery's trick:
        // invert the product, then peel the factors off).
        let mut inverse = vec![0; n];
        let mut running = field.enter(1);
        for &i in &shape.forward {
            inverse[i] = running;
            running = field.mul(running, pivot[i]);
        }
        let mut all = field.inv(running)?;
        for &i in shape.forward.iter().rev() {
            let before = inverse[i];
            inverse[i] = field.mul(all, before);
            all = field.mul(all, pivot[i]);
        }
        let mut factors = Factors {
            system,
            shape,
            field,
            off,
            diag,
            inverse,
            lu: Vec::new(),
            perm: Vec::new(),
        };
        factors.schur(&pivot)?;
        Some(factors)
    }

    /// `x_i ← (b_i + Σ_{j≠i} cᵢⱼ·x_j)/Aᵢᵢ` for the rows of F from position
    /// `from` of the sweep order on: `A_FF⁻¹` applied, with x on J held.
    #[inline]
    fn sweep(&self, x: &mut [u64], b: &[u64], from: usize) {
        let f = self.field;
        let (offsets, cols) = (&self.system.offsets, &self.system.cols);
        for &i in &self.shape.forward[from..] {
            let mut acc = b[i];
            for k in offsets[i]..offsets[i + 1] {
                acc = f.add(acc, f.mul(self.off[k], x[cols[k] as usize]));
            }
            x[i] = f.mul(acc, self.inverse[i]);
        }
    }

    /// `Σ_{j≠i} cᵢⱼ·x_j`.
    #[inline]
    pub(crate) fn row_sum(&self, i: usize, x: &[u64]) -> u64 {
        let f = self.field;
        let mut acc = 0;
        for k in self.system.offsets[i]..self.system.offsets[i + 1] {
            acc = f.add(acc, f.mul(self.off[k], x[self.system.cols[k] as usize]));
        }
        acc
    }

    /// Builds S column by column (one sweep from each column's highest
    /// entry) and factors it.
    fn schur(&mut self, pivot: &[u64]) -> Option<()> {
        let f = self.field;
        let back = &self.shape.back;
        let k = back.len();
        let n = self.system.len();
        let mut s = vec![0u64; k * k];
        let mut x = vec![0u64; n];
        let zero = vec![0u64; n];
        let one = f.enter(1);
        for (a, &state) in back.iter().enumerate() {
            x.fill(0);
            x[state] = one;
            self.sweep(&mut x, &zero, self.shape.starts[a]);
            for (r, &i) in back.iter().enumerate() {
                let own = if i == state { pivot[i] } else { 0 };
                s[r * k + a] = f.sub(own, self.row_sum(i, &x));
            }
        }
        // Gaussian elimination with a row exchange when a pivot is zero.
        let mut perm: Vec<usize> = (0..k).collect();
        for c in 0..k {
            let r = (c..k).find(|&r| s[r * k + c] != 0)?;
            if r != c {
                for j in 0..k {
                    s.swap(r * k + j, c * k + j);
                }
                perm.swap(r, c);
            }
            let inv = f.inv(s[c * k + c])?;
            s[c * k + c] = inv;
            let (top, rest) = s.split_at_mut((c + 1) * k);
            let pivot_row = &top[c * k..];
            for row in rest.chunks_exact_mut(k) {
                if row[c] == 0 {
                    continue;
                }
                let m = f.mul(row[c], inv);
                row[c] = m;
                for j in c + 1..k {
                    row[j] = f.sub(row[j], f.mul(m, pivot_row[j]));
                }
            }
        }
        self.lu = s;
        self.perm = perm;
        Some(())
    }

    /// Solves `S·z = r` in place.
    fn solve_schur(&self, r: &mut [u64], scratch: &mut Vec<u64>) {
        let f = self.field;
        let k = r.len();
        scratch.clear();
        scratch.extend(self.perm.iter().map(|&i| r[i]));
        for i in 0..k {
            let row = &self.lu[i * k..i * k + i];
            let mut acc = scratch[i];
            for (j, &l) in row.iter().enumerate() {
                acc = f.sub(acc, f.mul(l, scratch[j]));
            }
            scratch[i] = acc;
        }
        for i in (0..k).rev() {
            let row = &self.lu[i * k..(i + 1) * k];
            let mut acc = scratch[i];
            for j in i + 1..k {
                acc = f.sub(acc, f.mul(row[j], scratch[j]));
            }
            scratch[i] = f.mul(acc, row[i]);
        }
        r.copy_from_slice(scratch);
    }

    /// Solves `A·x = b` modulo p: a sweep with x on J zero, the Schur
    /// complement's right-hand side and solve, a second sweep.
    pub(crate) fn solve(&self, b: &[u64], x: &mut [u64], work: &mut Work) {
        let back = &self.shape.back;
        x.fill(0);
        self.sweep(x, b, 0);
        work.r.clear();
        work.r.extend(
            back.iter()
                .map(|&i| self.field.add(b[i], self.row_sum(i, x))),
        );
        let mut r = std::mem::take(&mut work.r);
        self.solve_schur(&mut r, &mut work.scratch);
        for (&i, &z) in back.iter().zip(&r) {
            x[i] = z;
        }
        work.r = r;
        self.sweep(x, b, 0);
    }
}

/// Scratch vectors of [`Factors::solve`].
#[derive(Default)]
pub(crate) struct Work {
    r: Vec<u64>,
    scratch: Vec<u64>,
}
