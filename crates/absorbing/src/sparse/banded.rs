//! A hybrid diagonal + compressed-row form of `Q` for fast repeated
//! vector–matrix products (the length distribution).
//!
//! Most entries of a board's kernel lie on a few diagonals: from state i, a
//! roll of r usually ends r states later. Those diagonals are stored as
//! dense vectors, whose product is a contiguous multiply-add the compiler
//! vectorises; the few other entries (snakes, ladders, moves across a jump
//! start) stay in a [`Csr`](super::Csr). The product is the same sum as
//! [`Csr::vec_mul_into`](super::Csr::vec_mul_into), in another order.

#[cfg(test)]
use super::Csr;

/// A diagonal is stored densely when at least this fraction of its states
/// have an entry on it: below that, the zeros it stores cost more than the
/// indices it saves.
const DENSE_DIAGONAL_FILL: f64 = 0.25;

/// Diagonals within this distance of the main one are counted in an
/// array when splitting: a die's moves, and most of a turn's.
const NEAR: usize = 64;

/// `Q` split into dense diagonals and a sparse remainder.
#[derive(Clone, Debug)]
pub struct Banded {
    n: usize,
    /// `(d, v)`: `Q[i, i + d] = v[i]` (0 where absent), `d ≥ 0`.
    upper: Vec<(usize, Vec<f64>)>,
    /// `(d, v)`: `Q[i, i − d] = v[i]`, `d > 0`.
    lower: Vec<(usize, Vec<f64>)>,
    /// The other entries by column: column `rest_columns[g].0` has the
    /// entries `rest[rest_columns[g - 1].1..rest_columns[g].1]` (from 0
    /// for the first), each `(row, value)`, rows increasing.
    rest_columns: Vec<(u32, usize)>,
    rest: Vec<(u32, f64)>,
}

impl Banded {
    /// Splits `q`.
    #[cfg(test)]
    pub fn new(q: &Csr) -> Banded {
        Self::from_rows(q.n(), |i| q.row(i))
    }

    /// Splits the `n × n` matrix whose row `i` has the entries `row(i)`
    /// (`(column, value)`, repeats adding up), read twice: a compiled
    /// chain is split without first copying its `Q` into a [`Csr`](super::Csr)
    /// (800 MB for ten million states).
    pub fn from_rows<I: Iterator<Item = (usize, f64)>>(
        n: usize,
        row: impl Fn(usize) -> I,
    ) -> Banded {
        // Entries per diagonal: near ones (most of them) in an array, far
        // ones, rarely dense, in a map.
        let mut near = [0usize; 2 * NEAR + 1];
        let mut far: std::collections::HashMap<i64, usize> = Default::default();
        for i in 0..n {
            for (j, _) in row(i) {
                let d = j as i64 - i as i64;
                match usize::try_from(d + NEAR as i64) {
                    Ok(k) if k <= 2 * NEAR => near[k] += 1,
                    _ => *far.entry(d).or_default() += 1,
                }
            }
        }
        let counts = near
            .iter()
            .enumerate()
            .map(|(k, &c)| (k as i64 - NEAR as i64, c))
            .chain(far);
        let mut dense: Vec<i64> = counts
            .filter(|&(_, c)| c > 0 && c as f64 >= DENSE_DIAGONAL_FILL * n as f64)
            .map(|(d, _)| d)
            .collect();
        dense.sort_unstable();
        let mut upper: Vec<(usize, Vec<f64>)> = Vec::new();
        let mut lower: Vec<(usize, Vec<f64>)> = Vec::new();
        for &d in &dense {
            if d >= 0 {
                upper.push((d as usize, vec![0.0; n]));
            } else {
                lower.push(((-d) as usize, vec![0.0; n]));
            }
        }
        let mut rest: Vec<(u32, u32, f64)> = Vec::new();
        for i in 0..n {
            for (j, v) in row(i) {
                let d = j as i64 - i as i64;
                let slot = if d >= 0 {
                    upper.iter_mut().find(|(e, _)| *e as i64 == d)
                } else {
                    lower.iter_mut().find(|(e, _)| *e as i64 == -d)
                };
                match slot {
                    Some((_, diag)) => diag[i] += v,
                    None => rest.push((i as u32, j as u32, v)),
                }
            }
        }
        // By column, rows kept in order (a stable sort, whose scratch of at
        // most half the entries, 8 bytes an entry, stays within what
        // `limits::distribution_bytes` counts): a column's sum is then
        // gathered in a register instead of read and written back per
        // entry, with the same additions in the same order.
        rest.sort_by_key(|&(_, j, _)| j);
        let mut rest_columns: Vec<(u32, usize)> = Vec::new();
        for (k, &(_, j, _)) in rest.iter().enumerate() {
            match rest_columns.last_mut() {
                Some((last, end)) if *last == j => *end = k + 1,
                _ => rest_columns.push((j, k + 1)),
            }
        }
        Banded {
            n,
            upper,
            lower,
            rest_columns,
            // In place: the two kinds of entry take 16 bytes each.
            rest: rest.into_iter().map(|(i, _, v)| (i, v)).collect(),
        }
    }

    #[cfg(test)]
    /// Entries kept outside the dense diagonals.
    pub fn sparse_entries(&self) -> usize {
        self.rest.len()
    }

    #[cfg(test)]
    /// Dense diagonals.
    pub fn diagonals(&self) -> usize {
        self.upper.len() + self.lower.len()
    }

    /// The product `xᵀ·Q` written into `out` (overwritten).
    ///
    /// # Panics
    /// If `x` or `out` is not of length `n`.
    pub fn vec_mul_into(&self, x: &[f64], out: &mut [f64]) {
        assert_eq!(x.len(), self.n, "vector length");
        assert_eq!(out.len(), self.n, "output length");
        out.fill(0.0);
        let mut from = 0;
        for &(j, to) in &self.rest_columns {
            out[j as usize] = self.rest[from..to]
                .iter()
                .fold(0.0, |sum, &(i, v)| sum + x[i as usize] * v);
            from = to;
        }
        for (d, v) in &self.upper {
            // out[i + d] += x[i]·v[i]
            let m = self.n - d;
            for ((o, xi), vi) in out[*d..].iter_mut().zip(&x[..m]).zip(&v[..m]) {
                *o += xi * vi;
            }
        }
        for (d, v) in &self.lower {
            // out[i − d] += x[i]·v[i]
            for ((o, xi), vi) in out[..self.n - d].iter_mut().zip(&x[*d..]).zip(&v[*d..]) {
                *o += xi * vi;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_compressed_rows() {
        let q = crate::sparse::tests::chain_like(500, 6, 0.05, 3);
        let banded = Banded::new(&q);
        assert!(banded.diagonals() >= 6);
        assert!(banded.sparse_entries() < q.nnz() / 5);
        let x: Vec<f64> = (0..500)
            .map(|i| ((i * 7919) % 101) as f64 / 101.0)
            .collect();
        let (mut a, mut b) = (vec![0.0; 500], vec![0.0; 500]);
        banded.vec_mul_into(&x, &mut a);
        q.vec_mul_into(&x, &mut b);
        for (a, b) in a.iter().zip(&b) {
            // The same terms summed in another order: rounding only.
            assert!((a - b).abs() <= 1e-15 * b.abs().max(1.0));
        }
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_21() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::{Banded, Csr};
        let q = Csr::from_triplets(3, &[(0, 1, 0.5), (1, 2, 0.5), (2, 0, 0.25)])?;
        let banded = Banded::new(&q);
        let (mut a, mut b) = (vec![0.0; 3], vec![0.0; 3]);
        banded.vec_mul_into(&[1.0, 2.0, 4.0], &mut a);
        q.vec_mul_into(&[1.0, 2.0, 4.0], &mut b);
        assert_eq!(a, b);
        Ok(())
    }
}
