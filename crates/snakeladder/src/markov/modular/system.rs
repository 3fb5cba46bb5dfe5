//! `(I − Q)·x = 1` scaled row by row to integers (docs/exact-modular.md §2).
//!
//! Row i of Q is multiplied by an integer `sᵢ` that clears its
//! denominators: `cᵢⱼ = sᵢ·Qᵢⱼ` are non-negative integers and row i of the
//! system reads `(sᵢ − cᵢᵢ)·xᵢ − Σ_{j≠i} cᵢⱼ·xⱼ = sᵢ`. The rows come from the
//! same exact construction as the Bareiss mode's (`exact::exact_row`); a
//! board without extra rolls takes a shorter road to the same numbers: its
//! row is the dice totals' probabilities over their common denominator,
//! added up by where each total ends.

use crate::Board;
use crate::markov::analysis::AnalysisError;
use crate::markov::chain::{Chain, StateIndex};
use crate::markov::exact;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Largest row scale held in machine words: below 2⁶², so that a row's
/// entries times residues below 2⁶² sum to less than 2¹²⁶ in an `i128`.
const SMALL_LIMIT: u64 = 1 << 62;

/// The scaled integer system of a chain: for each state its scale `sᵢ`,
/// its diagonal `cᵢᵢ`, and its off-diagonal `cᵢⱼ` in compressed rows.
#[derive(Clone, Debug)]
pub(crate) struct System {
    /// Where each row's off-diagonal entries start in `cols` (n + 1).
    pub offsets: Vec<usize>,
    /// The column of each off-diagonal entry, increasing within a row.
    pub cols: Vec<u32>,
    /// The numbers.
    pub values: Values,
    /// The start state.
    pub start: usize,
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
    /// The scaled system of `chain`.
    ///
    /// # Errors
    /// As the exact rows: [`AnalysisError::ExactTurnTooLong`],
    /// [`AnalysisError::ExactUnlisted`].
    pub(crate) fn new(board: &Board, chain: &Chain) -> Result<System, AnalysisError> {
        if board.rules().extra_turn().is_none()
            && let Some(system) = one_roll(board, chain)?
        {
            return Ok(system);
        }
        let n = chain.len();
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        let (mut cols, mut scale, mut diag, mut off) = (
            Vec::new(),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::new(),
        );
        for s in chain.states() {
            let i = s.get();
            let q = exact::exact_row(board, chain, i)?;
            let sc = q.iter().fold(BigInt::one(), |l, (_, p)| l.lcm(p.denom()));
            let mut d = BigInt::zero();
            for (e, p) in q {
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
            scale.push(sc);
            diag.push(d);
            offsets.push(cols.len());
        }
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
        Ok(System {
            offsets,
            cols,
            values,
            start: chain.start().get(),
        })
    }

    /// The number of states.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len() - 1
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
    pub(crate) fn entries(&self) -> usize {
        self.cols.len()
    }

    /// log₂ of the Hadamard bound of the matrix's rows, and of its rows
    /// with the right-hand side `sᵢ` appended (bounds on |det A| and on
    /// the determinants of Cramer's rule, docs/exact-modular.md §6); and of
    /// the second-moment block's rows `[−2C | A | s]`.
    pub(crate) fn hadamard_log2(&self) -> Hadamard {
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
            h.add_row(terms, &diag_c, &self.pivot(i), &self.scale(i));
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
    /// `pivot` its `Aᵢᵢ` and `scale` its `sᵢ`.
    fn add_row(&mut self, mut terms: Vec<f64>, diag_c: &BigInt, pivot: &BigInt, scale: &BigInt) {
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
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hadamard {
    /// Bound on |det A|.
    pub det: f64,
    /// Bound on every numerator of Cramer's rule for `A·x = s`.
    pub cramer: f64,
    /// The rows of the second-moment block `[−2C | A | s]`, for its
    /// numerators (with `det` once more for the first block's rows).
    pub second: f64,
}

/// The rows of a board without extra rolls whose dice's probabilities
/// share a denominator below 2⁶²: every row has that scale, and its
/// entries are sums of the totals' numerators.
struct OneRoll {
    /// The common denominator, every row's `sᵢ`.
    scale: u64,
    /// Each dice total with its numerator over `scale` (none of them 0).
    totals: Vec<(u32, u64)>,
}

impl OneRoll {
    /// The rows of `board`, `None` when its dice's denominators are too
    /// large (the board then takes the general construction).
    fn of(board: &Board) -> Option<OneRoll> {
        let outcomes = board.rules().dice().exact_outcomes();
        let common = outcomes
            .iter()
            .fold(BigInt::one(), |l, (_, p)| l.lcm(p.denom()));
        let scale = common.to_u64().filter(|&s| s < SMALL_LIMIT)?;
        let totals = outcomes
            .iter()
            .map(|(t, p)| {
                (
                    *t,
                    (p.numer() * (&common / p.denom())).to_u64().unwrap_or(0),
                )
            })
            .filter(|&(_, c)| c > 0)
            .collect();
        Some(OneRoll { scale, totals })
    }

    /// Row `i` of `chain`: its entries off the diagonal, increasing by
    /// column and each column once, left in `out` (`row` is room for the
    /// totals' ends); returns its `cᵢᵢ`.
    fn row(
        &self,
        board: &Board,
        chain: &Chain,
        i: usize,
        row: &mut Vec<(u32, u64)>,
        out: &mut Vec<(u32, u64)>,
    ) -> Result<u64, AnalysisError> {
        let from = chain.square(StateIndex::new(i));
        row.clear();
        out.clear();
        for &(total, c) in &self.totals {
            let end = board.walk(from, total).end;
            if end == board.last() {
                continue;
            }
            match chain.state_of(end) {
                Some(e) => row.push((e.get() as u32, c)),
                None => return Err(AnalysisError::ExactUnlisted { from, to: end }),
            }
        }
        row.sort_unstable_by_key(|e| e.0);
        let mut d = 0;
        let mut k = 0;
        while k < row.len() {
            let (e, mut c) = row[k];
            k += 1;
            while k < row.len() && row[k].0 == e {
                c += row[k].1;
                k += 1;
            }
            if e as usize == i {
                d = c;
            } else {
                out.push((e, c));
            }
        }
        Ok(d)
    }
}

/// The system of a board without extra rolls, if its dice's probabilities
/// share a denominator below 2⁶² ([`OneRoll`]). `None` sends the board to
/// the general construction.
fn one_roll(board: &Board, chain: &Chain) -> Result<Option<System>, AnalysisError> {
    let Some(rows) = OneRoll::of(board) else {
        return Ok(None);
    };
    let n = chain.len();
    let width = rows.totals.len();
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0);
    let mut cols = Vec::with_capacity(n * width);
    let mut off = Vec::with_capacity(n * width);
    let mut diag = Vec::with_capacity(n);
    let (mut row, mut out) = (Vec::with_capacity(width), Vec::with_capacity(width));
    for i in 0..n {
        diag.push(rows.row(board, chain, i, &mut row, &mut out)?);
        for &(e, c) in &out {
            cols.push(e);
            off.push(c);
        }
        offsets.push(cols.len());
    }
    Ok(Some(System {
        offsets,
        cols,
        values: Values::Small {
            scale: vec![rows.scale; n],
            diag,
            off,
        },
        start: chain.start().get(),
    }))
}

/// What the estimate of a modular solve needs of its system
/// ([`System::hadamard_log2`], the entries, the states of J), found row by
/// row without holding the system: for a board without extra rolls
/// ([`OneRoll`]), `None` otherwise. On ten million states the system holds
/// about 1 GB, which a solve refused on its estimate never needed.
pub(crate) fn one_roll_sizes(board: &Board, chain: &Chain) -> Result<Option<Sizes>, AnalysisError> {
    if board.rules().extra_turn().is_some() {
        return Ok(None);
    }
    let Some(rows) = OneRoll::of(board) else {
        return Ok(None);
    };
    let n = chain.len();
    let width = rows.totals.len();
    let scale = BigInt::from(rows.scale);
    let mut back = vec![false; n];
    let mut sizes = Sizes {
        states: n,
        back_states: 0,
        entries: 0,
        hadamard: Hadamard::default(),
    };
    let (mut row, mut out) = (Vec::with_capacity(width), Vec::with_capacity(width));
    for i in 0..n {
        let d = rows.row(board, chain, i, &mut row, &mut out)?;
        let terms: Vec<f64> = out.iter().map(|&(_, c)| 2.0 * (c as f64).log2()).collect();
        sizes.hadamard.add_row(
            terms,
            &BigInt::from(d),
            &BigInt::from(rows.scale - d),
            &scale,
        );
        sizes.entries += out.len();
        for &(e, _) in &out {
            if (e as usize) < i {
                back[e as usize] = true;
            }
        }
    }
    sizes.back_states = back.iter().filter(|&&b| b).count();
    Ok(Some(sizes))
}

/// The sizes of a system of machine words, as [`one_roll_sizes`] finds them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    /// The states.
    pub states: usize,
    /// The states some later state goes back to (J).
    pub back_states: usize,
    /// The entries off the diagonal.
    pub entries: usize,
    /// [`System::hadamard_log2`].
    pub hadamard: Hadamard,
}
