//! A plain compressed-sparse-row matrix of `f64`.

use super::SparseError;

/// A square sparse matrix in compressed-sparse-row form.
///
/// Row `i` holds the entries `cols[row_ptr[i]..row_ptr[i + 1]]` with values
/// `vals[..]` at the same positions. Columns are `u32` (a chain has at most
/// ten million states) so that an entry costs 12 bytes. A `Csr` that exists
/// has every column in range and every value finite; entries need not be
/// sorted, and a column may repeat within a row (the repeats add up).
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    n: usize,
    row_ptr: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f64>,
}

impl Csr {
    /// Builds an `n × n` matrix from its three arrays.
    ///
    /// # Errors
    /// [`SparseError::Shape`] when `row_ptr` does not have `n + 1`
    /// non-decreasing entries ending at `cols.len() == vals.len()`,
    /// [`SparseError::TooLarge`] past `u32::MAX` states,
    /// [`SparseError::ColumnOutOfRange`] and [`SparseError::NotFinite`] for a
    /// bad entry.
    pub fn new(
        n: usize,
        row_ptr: Vec<usize>,
        cols: Vec<u32>,
        vals: Vec<f64>,
    ) -> Result<Csr, SparseError> {
        if n > u32::MAX as usize {
            return Err(SparseError::TooLarge { n });
        }
        let shape_ok = row_ptr.len() == n + 1
            && row_ptr[0] == 0
            && row_ptr.windows(2).all(|w| w[0] <= w[1])
            && row_ptr[n] == cols.len()
            && cols.len() == vals.len();
        if !shape_ok {
            return Err(SparseError::Shape {
                n,
                row_ptr: row_ptr.len(),
                entries: cols.len(),
                values: vals.len(),
            });
        }
        for row in 0..n {
            for k in row_ptr[row]..row_ptr[row + 1] {
                let col = cols[k] as usize;
                if col >= n {
                    return Err(SparseError::ColumnOutOfRange { row, col, n });
                }
                if !vals[k].is_finite() {
                    return Err(SparseError::NotFinite { row, col });
                }
            }
        }
        Ok(Csr {
            n,
            row_ptr,
            cols,
            vals,
        })
    }

    /// [`Csr::new`] for arrays valid by construction (a compiled chain's):
    /// the checks run in debug builds only.
    pub fn from_valid_parts(n: usize, row_ptr: Vec<usize>, cols: Vec<u32>, vals: Vec<f64>) -> Csr {
        if cfg!(debug_assertions) {
            Csr::new(n, row_ptr, cols, vals).expect("valid by construction")
        } else {
            Csr {
                n,
                row_ptr,
                cols,
                vals,
            }
        }
    }

    /// The part of `self` off its diagonal, and the diagonal apart (repeats
    /// summed): what every sweep over `I − Q` needs. Entries keep their
    /// order, so the result is a valid matrix without checking it again.
    pub fn split_diagonal(&self) -> (Csr, Vec<f64>) {
        let mut diagonal = vec![0.0; self.n];
        let mut row_ptr = Vec::with_capacity(self.n + 1);
        let mut cols = Vec::with_capacity(self.nnz());
        let mut vals = Vec::with_capacity(self.nnz());
        row_ptr.push(0);
        for (i, d) in diagonal.iter_mut().enumerate() {
            let (row_cols, row_vals) = self.row_slices(i);
            for (&c, &v) in row_cols.iter().zip(row_vals) {
                if c as usize == i {
                    *d += v;
                } else {
                    cols.push(c);
                    vals.push(v);
                }
            }
            row_ptr.push(cols.len());
        }
        let off = Csr {
            n: self.n,
            row_ptr,
            cols,
            vals,
        };
        (off, diagonal)
    }

    /// Builds an `n × n` matrix from `(row, column, value)` entries in any
    /// order; repeated positions add up.
    ///
    /// # Errors
    /// As [`Csr::new`]; a row out of range is a [`SparseError::ColumnOutOfRange`]
    /// of the transposed position.
    pub fn from_triplets(n: usize, entries: &[(usize, usize, f64)]) -> Result<Csr, SparseError> {
        let mut counts = vec![0usize; n + 1];
        for &(row, col, _) in entries {
            if row >= n {
                return Err(SparseError::ColumnOutOfRange {
                    row: col,
                    col: row,
                    n,
                });
            }
            counts[row + 1] += 1;
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut next = counts.clone();
        let mut cols = vec![0u32; entries.len()];
        let mut vals = vec![0.0; entries.len()];
        for &(row, col, val) in entries {
            let at = next[row];
            next[row] += 1;
            cols[at] = u32::try_from(col).unwrap_or(u32::MAX);
            vals[at] = val;
        }
        Csr::new(n, counts, cols, vals)
    }

    /// The number of rows (and columns).
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of stored entries.
    pub fn nnz(&self) -> usize {
        self.cols.len()
    }

    /// Row `i`'s columns and values as slices.
    #[inline]
    pub fn row_slices(&self, i: usize) -> (&[u32], &[f64]) {
        let (lo, hi) = (self.row_ptr[i], self.row_ptr[i + 1]);
        (&self.cols[lo..hi], &self.vals[lo..hi])
    }

    /// The columns and values of the entries `range` ([`Csr::row_range`]).
    #[inline]
    pub fn slices(&self, range: std::ops::Range<usize>) -> (&[u32], &[f64]) {
        (&self.cols[range.clone()], &self.vals[range])
    }

    /// The positions of row `i`'s entries among all entries (in the order
    /// of [`Csr::row_slices`]), for arrays kept parallel to them.
    #[inline]
    pub fn row_range(&self, i: usize) -> std::ops::Range<usize> {
        self.row_ptr[i]..self.row_ptr[i + 1]
    }

    /// The bytes this matrix holds in its arrays (as allocated).
    pub fn held_bytes(&self) -> u64 {
        (self.row_ptr.capacity() * 8 + self.cols.capacity() * 4 + self.vals.capacity() * 8) as u64
    }

    /// The stored entries of row `i` as `(column, value)` pairs.
    ///
    /// # Panics
    /// If `i >= n`.
    #[inline]
    pub fn row(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let range = self.row_ptr[i]..self.row_ptr[i + 1];
        self.cols[range.clone()]
            .iter()
            .zip(&self.vals[range])
            .map(|(&c, &v)| (c as usize, v))
    }

    /// The sum of each row's entries.
    pub fn row_sums(&self) -> Vec<f64> {
        (0..self.n)
            .map(|i| self.row(i).map(|(_, v)| v).sum())
            .collect()
    }

    #[cfg(test)]
    /// The product `M·x`.
    ///
    /// # Panics
    /// If `x.len() != n`.
    pub fn mul_vec(&self, x: &[f64]) -> Vec<f64> {
        assert_eq!(x.len(), self.n, "vector length");
        (0..self.n)
            .map(|i| self.row(i).map(|(j, v)| v * x[j]).sum())
            .collect()
    }

    /// The product `xᵀ·M` written into `out` (overwritten).
    ///
    /// # Panics
    /// If `x` or `out` is not of length `n`.
    pub fn vec_mul_into(&self, x: &[f64], out: &mut [f64]) {
        assert_eq!(x.len(), self.n, "vector length");
        assert_eq!(out.len(), self.n, "output length");
        out.fill(0.0);
        for (i, &xi) in x.iter().enumerate() {
            let (lo, hi) = (self.row_ptr[i], self.row_ptr[i + 1]);
            if xi != 0.0 && lo < hi {
                for (&j, &v) in self.cols[lo..hi].iter().zip(&self.vals[lo..hi]) {
                    out[j as usize] += xi * v;
                }
            }
        }
    }

    /// The transpose, in the same form.
    pub fn transpose(&self) -> Csr {
        let mut counts = vec![0usize; self.n + 1];
        for &c in &self.cols {
            counts[c as usize + 1] += 1;
        }
        for i in 0..self.n {
            counts[i + 1] += counts[i];
        }
        let mut next = counts.clone();
        let mut cols = vec![0u32; self.nnz()];
        let mut vals = vec![0.0; self.nnz()];
        for i in 0..self.n {
            for (j, v) in self.row(i) {
                let at = next[j];
                next[j] += 1;
                cols[at] = i as u32;
                vals[at] = v;
            }
        }
        Csr {
            n: self.n,
            row_ptr: counts,
            cols,
            vals,
        }
    }

    /// Bytes held by a matrix of `n` rows and `nnz` entries.
    pub fn bytes_for(n: usize, nnz: usize) -> u64 {
        (n as u64 + 1) * 8 + nnz as u64 * 12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_malformed_arrays() {
        let bad_ptr = Csr::new(2, vec![0, 2, 1], vec![0], vec![1.0]);
        assert!(matches!(bad_ptr, Err(SparseError::Shape { .. })));
        let bad_col = Csr::new(2, vec![0, 1, 1], vec![2], vec![1.0]);
        assert!(matches!(
            bad_col,
            Err(SparseError::ColumnOutOfRange {
                row: 0,
                col: 2,
                n: 2
            })
        ));
        let nan = Csr::new(2, vec![0, 0, 1], vec![1], vec![f64::NAN]);
        assert!(matches!(
            nan,
            Err(SparseError::NotFinite { row: 1, col: 1 })
        ));
    }

    #[test]
    fn products_and_transpose_agree() {
        let m =
            Csr::from_triplets(3, &[(0, 1, 2.0), (2, 0, 3.0), (2, 0, 1.0), (1, 2, 5.0)]).unwrap();
        // Row 2 has 3 + 1 = 4 in column 0.
        assert_eq!(m.mul_vec(&[1.0, 10.0, 100.0]), vec![20.0, 500.0, 4.0]);
        let mut out = vec![0.0; 3];
        m.vec_mul_into(&[1.0, 10.0, 100.0], &mut out);
        assert_eq!(out, vec![400.0, 2.0, 50.0]);
        assert_eq!(m.transpose().mul_vec(&[1.0, 10.0, 100.0]), out);
        assert_eq!(m.row_sums(), vec![2.0, 5.0, 4.0]);
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_14() -> Result<(), Box<dyn std::error::Error>> {
        use crate::sparse::Csr;
        // 0 → 1 with probability 1/2, 1 → 0 with probability 1/4.
        let q = Csr::from_triplets(2, &[(0, 1, 0.5), (1, 0, 0.25)])?;
        assert_eq!(q.n(), 2);
        assert_eq!(q.nnz(), 2);
        assert_eq!(q.mul_vec(&[1.0, 1.0]), vec![0.5, 0.25]);
        Ok(())
    }
}
