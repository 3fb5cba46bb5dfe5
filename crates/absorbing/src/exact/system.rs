//! `(I − Q)·x = b` scaled row by row to integers (docs/exact-modular.md §2).
//!
//! Row i of Q is multiplied by an integer `sᵢ` that clears its
//! denominators (and that of `bᵢ`): `cᵢⱼ = sᵢ·Qᵢⱼ` are non-negative integers
//! and row i of the system reads `(sᵢ − cᵢᵢ)·xᵢ − Σ_{j≠i} cᵢⱼ·xⱼ = sᵢ·bᵢ`.
//! For expected steps `b = 1`, and the right-hand side is the scale itself.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// Largest row scale held in machine words: below 2⁶², so that a row's
/// entries times residues below 2⁶² sum to less than 2¹²⁶ in an `i128`.
const SMALL_LIMIT: u64 = 1 << 62;

/// The scaled integer system of a chain: for each state its scale `sᵢ`,
/// its diagonal `cᵢᵢ`, and its off-diagonal `cᵢⱼ` in compressed rows.
///
/// Built from rational rows ([`System::from_rows`]) or from rows already
/// scaled to integers ([`System::from_scaled`], [`System::from_scaled_words`]).
#[derive(Clone, Debug)]
pub struct System {
    /// Where each row's off-diagonal entries start in `cols` (n + 1).
    pub(crate) offsets: Vec<usize>,
    /// The column of each off-diagonal entry, increasing within a row.
    pub(crate) cols: Vec<u32>,
    /// The numbers.
    pub(crate) values: Values,
    /// `sᵢ·bᵢ` when `b` is not all ones.
    pub(crate) rhs: Option<Vec<BigInt>>,
    /// The start state.
    pub(crate) start: usize,
}

/// The integers of a [`System`]: in machine words when every row scale is
/// below 2⁶², else big.
#[derive(Clone, Debug)]
pub(crate) enum Values {
    /// Every scale below 2⁶² (then every entry is too).
    Small {
        /// `sᵢ`.
        scale: Vec<u64>,
        /// `cᵢᵢ`.
        diag: Vec<u64>,
        /// `cᵢⱼ`, j ≠ i, aligned with `System::cols`.
        off: Vec<u64>,
    },
    /// Some scale of 2⁶² or more.
    Big {
        /// `sᵢ`.
        scale: Vec<BigInt>,
        /// `cᵢᵢ`.
        diag: Vec<BigInt>,
        /// `cᵢⱼ`, j ≠ i.
        off: Vec<BigInt>,
    },
}

impl System {
    /// The system of rows given as exact fractions: `row(i)` lists row i
    /// of `Q` as `(column, probability)` (columns below `n`, each at most
    /// once, any order), and `rhs`, when given, the right-hand side `b`
    /// (else `b = 1`). Each row is scaled by the least common multiple of
    /// its denominators and that of `bᵢ`.
    ///
    /// # Panics
    /// If a column is not below `n`, `start` is not below `n`, or `rhs`
    /// does not have `n` entries.
    pub fn from_rows<'a, R>(
        n: usize,
        start: usize,
        mut row: impl FnMut(usize) -> R,
        rhs: Option<&[BigRational]>,
    ) -> System
    where
        R: IntoIterator<Item = (usize, &'a BigRational)>,
    {
        assert!(start < n, "the start state is a state");
        assert!(
            rhs.is_none_or(|b| b.len() == n),
            "one right-hand side per state"
        );
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        let (mut cols, mut scale, mut diag, mut off) = (
            Vec::new(),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::new(),
        );
        let mut scaled_rhs = rhs.map(|_| Vec::with_capacity(n));
        let mut entries: Vec<(usize, &BigRational)> = Vec::new();
        for i in 0..n {
            entries.clear();
            entries.extend(row(i));
            entries.sort_unstable_by_key(|e| e.0);
            let mut sc = entries
                .iter()
                .fold(BigInt::one(), |l, (_, p)| l.lcm(p.denom()));
            if let Some(b) = rhs {
                sc = sc.lcm(b[i].denom());
            }
            let mut d = BigInt::zero();
            for &(e, p) in &entries {
                assert!(e < n, "a column is a state");
                let c = p.numer() * (&sc / p.denom());
                if c.is_zero() {
                    continue;
                }
                if e == i {
                    d = c;
                } else {
                    cols.push(e as u32);
                    off.push(c);
                }
            }
            if let (Some(out), Some(b)) = (&mut scaled_rhs, rhs) {
                out.push(b[i].numer() * (&sc / b[i].denom()));
            }
            scale.push(sc);
            diag.push(d);
            offsets.push(cols.len());
        }
        let mut system = System::from_scaled(offsets, cols, scale, diag, off, start);
        if let Some(b) = scaled_rhs {
            system.set_rhs(b);
        }
        system
    }

    /// The system of rows already scaled to integers: row i's scale `sᵢ`,
    /// its diagonal `cᵢᵢ`, and its off-diagonal `cᵢⱼ` in compressed rows
    /// (`offsets` of n + 1 positions into `cols` and `off`, columns
    /// increasing within a row); the right-hand side is `sᵢ`.
    ///
    /// # Panics
    /// If the arrays do not fit together.
    pub fn from_scaled(
        offsets: Vec<usize>,
        cols: Vec<u32>,
        scale: Vec<BigInt>,
        diag: Vec<BigInt>,
        off: Vec<BigInt>,
        start: usize,
    ) -> System {
        assert_eq!(
            offsets.len(),
            scale.len() + 1,
            "one offset per row and one past"
        );
        assert_eq!(diag.len(), scale.len(), "one diagonal per row");
        assert_eq!(cols.len(), off.len(), "one value per column");
        let small = scale
            .iter()
            .all(|s| s.to_u64().is_some_and(|s| s < SMALL_LIMIT));
        let values = if small {
            let words = |v: Vec<BigInt>| v.iter().map(|x| x.to_u64().unwrap_or(0)).collect();
            Values::Small {
                scale: words(scale),
                diag: words(diag),
                off: words(off),
            }
        } else {
            Values::Big { scale, diag, off }
        };
        System {
            offsets,
            cols,
            values,
            rhs: None,
            start,
        }
    }

    /// [`System::from_scaled`] of machine words, every scale below 2⁶².
    ///
    /// # Panics
    /// If a scale is 2⁶² or more, or the arrays do not fit together.
    pub fn from_scaled_words(
        offsets: Vec<usize>,
        cols: Vec<u32>,
        scale: Vec<u64>,
        diag: Vec<u64>,
        off: Vec<u64>,
        start: usize,
    ) -> System {
        assert!(scale.iter().all(|&s| s < SMALL_LIMIT), "scales below 2⁶²");
        assert_eq!(
            offsets.len(),
            scale.len() + 1,
            "one offset per row and one past"
        );
        assert_eq!(diag.len(), scale.len(), "one diagonal per row");
        assert_eq!(cols.len(), off.len(), "one value per column");
        System {
            offsets,
            cols,
            values: Values::Small { scale, diag, off },
            rhs: None,
            start,
        }
    }

    /// Replaces the right-hand side `sᵢ` by `rhs` (already scaled). A
    /// right-hand side past machine words moves the whole system to big
    /// integers, so that the residuals of the lifting keep one kind.
    fn set_rhs(&mut self, rhs: Vec<BigInt>) {
        let wide = rhs
            .iter()
            .any(|b| b.to_u64().is_none_or(|b| b >= SMALL_LIMIT));
        if wide && let Values::Small { scale, diag, off } = &self.values {
            let big = |v: &[u64]| v.iter().map(|&x| BigInt::from(x)).collect();
            self.values = Values::Big {
                scale: big(scale),
                diag: big(diag),
                off: big(off),
            };
        }
        self.rhs = Some(rhs);
    }

    /// The right-hand side of row i, `sᵢ·bᵢ`.
    pub(crate) fn rhs(&self, i: usize) -> BigInt {
        match &self.rhs {
            Some(b) => b[i].clone(),
            None => self.scale(i),
        }
    }

    /// Whether the right-hand side is `b = 1` (the expected steps), the
    /// one the second moment is defined for.
    pub(crate) fn counts_steps(&self) -> bool {
        self.rhs.is_none()
    }

    /// The start state.
    pub fn start(&self) -> usize {
        self.start
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The off-diagonal entries of row i: (position in `cols`, column).
    pub(crate) fn row(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.offsets[i]..self.offsets[i + 1]).map(|k| (k, self.cols[k] as usize))
    }

    /// `sᵢ`, exactly.
    pub(crate) fn scale(&self, i: usize) -> BigInt {
        match &self.values {
            Values::Small { scale, .. } => BigInt::from(scale[i]),
            Values::Big { scale, .. } => scale[i].clone(),
        }
    }

    /// `Aᵢᵢ = sᵢ − cᵢᵢ`, exactly.
    pub(crate) fn pivot(&self, i: usize) -> BigInt {
        match &self.values {
            Values::Small { scale, diag, .. } => BigInt::from(scale[i] - diag[i]),
            Values::Big { scale, diag, .. } => &scale[i] - &diag[i],
        }
    }

    /// `c·x` for the off-diagonal entry at position k.
    pub(crate) fn off_times(&self, k: usize, x: &BigInt) -> BigInt {
        match &self.values {
            Values::Small { off, .. } => x * off[k],
            Values::Big { off, .. } => x * &off[k],
        }
    }

    /// Off-diagonal entries, all rows.
    pub fn entries(&self) -> usize {
        self.cols.len()
    }

    /// log₂ of the Hadamard bound of the matrix's rows, and of its rows
    /// with the right-hand side `sᵢ` appended (bounds on |det A| and on
    /// the determinants of Cramer's rule, docs/exact-modular.md §6); and of
    /// the second-moment block's rows `[−2C | A | s]`.
    pub fn hadamard_log2(&self) -> Hadamard {
        let mut h = Hadamard::default();
        for i in 0..self.len() {
            // Squares summed in log space: Σ 2^(2·log₂ v).
            let terms: Vec<f64> = self
                .row(i)
                .map(|(k, _)| {
                    2.0 * match &self.values {
                        Values::Small { off, .. } => (off[k] as f64).log2(),
                        Values::Big { off, .. } => log2(&off[k]),
                    }
                })
                .collect();
            let diag_c = match &self.values {
                Values::Small { diag, .. } => BigInt::from(diag[i]),
                Values::Big { diag, .. } => diag[i].clone(),
            };
            h.add_row(terms, &diag_c, &self.pivot(i), &self.rhs(i));
        }
        h
    }
}

/// log₂ of `|x|`, also past `f64`'s range.
fn log2(x: &BigInt) -> f64 {
    let bits = x.bits();
    if bits <= 1000 {
        x.to_f64().unwrap_or(0.0).abs().log2()
    } else {
        let shifted: BigInt = x >> (bits - 64);
        shifted.to_f64().unwrap_or(1.0).log2() + (bits - 64) as f64
    }
}

impl Hadamard {
    /// Adds one row to the bounds: `terms` are twice the log₂ of its
    /// entries off the diagonal, in the row's order, `diag_c` its `cᵢᵢ`,
    /// `pivot` its `Aᵢᵢ` and `scale` its right-hand side `sᵢ`.
    pub fn add_row(
        &mut self,
        mut terms: Vec<f64>,
        diag_c: &BigInt,
        pivot: &BigInt,
        scale: &BigInt,
    ) {
        let pivot = 2.0 * log2(pivot);
        let rhs = 2.0 * log2(scale);
        let row_a = log_sum(&terms, pivot);
        self.det += row_a / 2.0;
        self.cramer += log_sum(&[row_a], rhs) / 2.0;
        // [−2C | A | s]: 2C has every cᵢⱼ twice over, and cᵢᵢ.
        terms.iter_mut().for_each(|t| *t += 2.0);
        if !diag_c.is_zero() {
            terms.push(2.0 + 2.0 * log2(diag_c));
        }
        let c2 = log_sum(&terms, f64::NEG_INFINITY);
        self.second += log_sum(&[row_a, c2], rhs) / 2.0;
    }
}

/// `log₂(2^a + Σ 2^tᵢ)`, without overflow.
fn log_sum(terms: &[f64], a: f64) -> f64 {
    let top = terms.iter().copied().fold(a, f64::max);
    if top == f64::NEG_INFINITY {
        return top;
    }
    let sum: f64 = terms.iter().map(|t| (t - top).exp2()).sum::<f64>() + (a - top).exp2();
    top + sum.log2()
}

/// The Hadamard bounds of [`System::hadamard_log2`], as log₂.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Hadamard {
    /// Bound on |det A|.
    pub det: f64,
    /// Bound on every numerator of Cramer's rule for `A·x = s`.
    pub cramer: f64,
    /// The rows of the second-moment block `[−2C | A | s]`, for its
    /// numerators (with `det` once more for the first block's rows).
    pub second: f64,
}

/// What the estimate of a solve needs of its system, which a caller may
/// also find row by row without building it ([`Hadamard::add_row`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sizes {
    /// The states.
    pub states: usize,
    /// The states some later state goes back to (J).
    pub back_states: usize,
    /// The entries off the diagonal.
    pub entries: usize,
    /// [`System::hadamard_log2`].
    pub hadamard: Hadamard,
}
