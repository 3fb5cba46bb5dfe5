//! A board's chain as the exact solver's scaled integer system
//! `(I − Q)·x = 1` (docs/exact-modular.md §2).
//!
//! Row i of Q is multiplied by an integer `sᵢ` that clears its
//! denominators. The rows come from the same exact construction as the
//! Bareiss mode's (`exact::exact_row`); a board without extra rolls takes a
//! shorter road to the same numbers: its row is the dice totals'
//! probabilities over their common denominator, added up by where each
//! total ends.

use crate::Board;
use crate::markov::analysis::AnalysisError;
use crate::markov::chain::{Chain, StateIndex};
use crate::markov::exact;
use absorbing::exact::{Hadamard, Sizes, System};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Largest row scale held in machine words: below 2⁶², so that a row's
/// entries times residues below 2⁶² sum to less than 2¹²⁶ in an `i128`.
const SMALL_LIMIT: u64 = 1 << 62;

/// The scaled system of `chain`.
///
/// # Errors
/// As the exact rows: [`AnalysisError::ExactTurnTooLong`],
/// [`AnalysisError::ExactUnlisted`].
pub(crate) fn scaled(board: &Board, chain: &Chain) -> Result<System, AnalysisError> {
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
    Ok(System::from_scaled(
        offsets,
        cols,
        scale,
        diag,
        off,
        chain.start().get(),
    ))
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
    Ok(Some(System::from_scaled_words(
        offsets,
        cols,
        vec![rows.scale; n],
        diag,
        off,
        chain.start().get(),
    )))
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
