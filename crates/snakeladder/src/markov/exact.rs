//! Exact mode: the mean number of turns as a reduced fraction, computed
//! without floating point (docs/figures.md §10).
//!
//! Every kernel entry is rational: it is built, like the `f64` chain, only
//! from [`Board::play_roll`], but over the exact distribution of the dice
//! total ([`Dice::exact_outcomes`](crate::Dice::exact_outcomes)), and the
//! closed form of a bonus-roll cycle, `1/(1 − p(on)ᴸ)`, is a fraction too.
//! `(I − Q)·x = 1` is then scaled row by row to integers and solved by
//! fraction-free (Bareiss) elimination over big integers: every division in
//! it is exact, and intermediate numbers stay as small as the minors of the
//! matrix. The start state is eliminated last, so its unknown comes out of
//! the last pivot alone without back substitution.

use crate::markov::analysis::AnalysisError;
use crate::markov::chain::{self, Chain};
use crate::{Board, markov::tolerance};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Most states exact mode will eliminate. The work grows as the cube of the
/// states times the cost of arithmetic on numbers that grow with the states
/// too: 81 states take ~20 ms, 400 about 2 s on the development machine, so
/// 1,000 is about a minute; beyond it the command refuses rather than run
/// for hours.
pub const MAX_EXACT_STATES: usize = 1_000;

/// Most rolls of one turn exact mode follows along a path of bonus rolls
/// (a cap on extra rolls larger than this, on a path that does not repeat,
/// cannot be summed in closed form).
pub const MAX_EXACT_ROLLS_PER_TURN: usize = 100_000;

/// The exact mean number of turns from the start, as a reduced fraction.
///
/// # Errors
/// [`AnalysisError`] when the board is too large for exact mode or its system
/// is singular.
pub fn mean_turns(board: &Board, chain: &Chain) -> Result<BigRational, AnalysisError> {
    mean_turns_within(board, chain, f64::INFINITY)
}

/// An upper estimate of the 64-bit word operations of the elimination of
/// `n` rows whose integer entries have at most `bits` bits: step k updates
/// `(n − k)²` entries with two products of numbers of about `k·(bits +
/// log₂ n)` bits (Bareiss's entries are minors, bounded by Hadamard), each
/// product costing `w^1.585` word operations for `w` words (Karatsuba). It
/// assumes a dense matrix; a sparse one skips its zeros and costs less.
pub fn elimination_work(n: usize, bits: u64) -> f64 {
    let per = bits as f64 + (n.max(2) as f64).log2();
    (0..n)
        .map(|k| {
            let words = ((k + 1) as f64 * per / 64.0).max(1.0);
            let rest = (n - k) as f64;
            2.0 * rest * rest * words.powf(1.585)
        })
        .sum()
}

/// The number of states of `chain`, or [`AnalysisError::ExactTooLarge`] past
/// [`MAX_EXACT_STATES`].
fn exact_size(chain: &Chain) -> Result<usize, AnalysisError> {
    let n = chain.len();
    if n > MAX_EXACT_STATES {
        return Err(AnalysisError::ExactTooLarge {
            states: n,
            limit: MAX_EXACT_STATES,
        });
    }
    Ok(n)
}

/// Position of each state in an elimination that keeps the start last.
fn start_last(chain: &Chain) -> impl Fn(usize) -> usize {
    let (start, n) = (chain.start().get(), chain.len());
    move |s: usize| {
        if s == start {
            n - 1
        } else if s < start {
            s
        } else {
            s - 1
        }
    }
}

/// [`mean_turns`], refused before the elimination when its estimated
/// work ([`elimination_work`]) is above `max_work`.
///
/// # Errors
/// As [`mean_turns`], and [`AnalysisError::ExactTooMuchWork`].
pub fn mean_turns_within(
    board: &Board,
    chain: &Chain,
    max_work: f64,
) -> Result<BigRational, AnalysisError> {
    let n = exact_size(chain)?;
    let position = start_last(chain);
    let mut rows: Vec<Vec<BigInt>> = Vec::with_capacity(n);
    rows.resize_with(n, Vec::new);
    for s in chain.states() {
        let q = exact_row(board, chain, s.get())?;
        // Row of (I − Q | 1), scaled by the lcm of its denominators.
        let scale = q.iter().fold(BigInt::one(), |l, (_, p)| l.lcm(p.denom()));
        let mut row = vec![BigInt::zero(); n + 1];
        let i = position(s.get());
        row[i] = scale.clone();
        row[n] = scale.clone();
        for (e, p) in q {
            row[position(e)] -= p.numer() * (&scale / p.denom());
        }
        rows[i] = row;
    }
    let bits = rows
        .iter()
        .flat_map(|row| row.iter().map(BigInt::bits))
        .max()
        .unwrap_or(1);
    let needed = elimination_work(n, bits);
    if needed > max_work {
        return Err(AnalysisError::ExactTooMuchWork {
            needed,
            limit: max_work,
        });
    }
    let (numerator, denominator) = bareiss_last(rows)?;
    Ok(BigRational::new(numerator, denominator))
}

/// The exact mean and variance of the turns from the start, refused before
/// any elimination when their estimated work is above `max_work`.
///
/// # Formula
/// With `A = I − Q`, the mean solves `A·m₁ = 1` and the second moment
/// `A·m₂ = 1 + 2·Q·m₁` (docs/figures.md §2). Both are one block-triangular system
/// of 2n unknowns, `[A 0; −2Q A]·[m₁; m₂] = [1; 1]`, eliminated fraction-free
/// like the mean's ([`mean_turns_within`]) with the start's `m₂` last; the
/// variance is `m₂ − m₁²`. The work is [`elimination_work`] of n and of 2n
/// unknowns (a sparse system skips its zeros and costs less).
///
/// # Errors
/// As [`mean_turns_within`].
pub fn moments_within(
    board: &Board,
    chain: &Chain,
    max_work: f64,
) -> Result<(BigRational, BigRational), AnalysisError> {
    let n = exact_size(chain)?;
    let position = start_last(chain);
    // Each row of Q in integers over its own scale.
    let mut scaled: Vec<(BigInt, Vec<(usize, BigInt)>)> = Vec::with_capacity(n);
    for s in chain.states() {
        let q = exact_row(board, chain, s.get())?;
        let scale = q.iter().fold(BigInt::one(), |l, (_, p)| l.lcm(p.denom()));
        let entries = q
            .into_iter()
            .map(|(e, p)| (position(e), p.numer() * (&scale / p.denom())))
            .collect();
        scaled.push((scale, entries));
    }
    let bits = scaled
        .iter()
        .flat_map(|(scale, row)| {
            std::iter::once(scale.bits()).chain(row.iter().map(|(_, v)| v.bits()))
        })
        .max()
        .unwrap_or(1)
        + 1;
    let needed = elimination_work(n, bits) + elimination_work(2 * n, bits);
    if needed > max_work {
        return Err(AnalysisError::ExactTooMuchWork {
            needed,
            limit: max_work,
        });
    }
    let mut first: Vec<Vec<BigInt>> = vec![Vec::new(); n];
    let mut both: Vec<Vec<BigInt>> = vec![Vec::new(); 2 * n];
    for (s, (scale, entries)) in scaled.iter().enumerate() {
        let i = position(s);
        let mut row = vec![BigInt::zero(); n + 1];
        row[i] = scale.clone();
        row[n] = scale.clone();
        for (e, v) in entries {
            row[*e] -= v;
        }
        let mut wide = vec![BigInt::zero(); 2 * n + 1];
        wide[..n].clone_from_slice(&row[..n]);
        wide[2 * n] = scale.clone();
        first[i] = row;
        // m₂ row: A in the second block, −2Q in the first.
        let mut second = vec![BigInt::zero(); 2 * n + 1];
        second[n + i] = scale.clone();
        second[2 * n] = scale.clone();
        for (e, v) in entries {
            second[n + *e] -= v;
            second[*e] -= v * 2;
        }
        both[i] = wide;
        both[n + i] = second;
    }
    let (num, den) = bareiss_last(first)?;
    let mean = BigRational::new(num, den);
    let (num, den) = bareiss_last(both)?;
    let second = BigRational::new(num, den);
    let variance = &second - &mean * &mean;
    Ok((mean, variance))
}

/// The exact mean, checked against the `f64` mean `float`.
///
/// # Errors
/// As [`mean_turns`], and [`AnalysisError::ExactDisagrees`] past
/// [`tolerance::EXACT_AGREEMENT`].
pub fn checked_mean_turns(
    board: &Board,
    chain: &Chain,
    float: f64,
) -> Result<BigRational, AnalysisError> {
    let exact = mean_turns(board, chain)?;
    let value = exact.to_f64().unwrap_or(f64::NAN);
    let gap = ((value - float) / value).abs();
    if gap.is_nan() || gap > tolerance::EXACT_AGREEMENT {
        return Err(AnalysisError::ExactDisagrees {
            exact: value,
            float,
        });
    }
    Ok(exact)
}

/// The turn kernel in integers: `Q = q / scale`, `R = r / scale`, with
/// `scale` the least common multiple of every entry's denominator. The
/// length distribution is then `P(T = t) = (v_{t−1}·r) / scaleᵗ` with
/// integer vectors `v_t = v_{t−1}·q`, `v_0 = e_start`: no fraction is
/// reduced along the way.
#[derive(Clone, Debug)]
pub struct IntegerKernel {
    scale: BigInt,
    q: Vec<Vec<(usize, BigInt)>>,
    r: Vec<BigInt>,
    start: usize,
}

impl IntegerKernel {
    /// The exact kernel of a compiled chain, built like [`mean_turns`]'s.
    ///
    /// # Errors
    /// [`AnalysisError::ExactTooLarge`] past [`MAX_EXACT_STATES`],
    /// [`AnalysisError::ExactTurnTooLong`] for a turn that cannot be summed.
    pub fn new(board: &Board, chain: &Chain) -> Result<IntegerKernel, AnalysisError> {
        let n = exact_size(chain)?;
        let mut rows = Vec::with_capacity(n);
        let mut finish = Vec::with_capacity(n);
        let mut scale = BigInt::one();
        for s in chain.states() {
            let row = exact_row(board, chain, s.get())?;
            let stay: BigRational = row.iter().map(|(_, p)| p.clone()).sum();
            let r = BigRational::one() - stay;
            for (_, p) in &row {
                scale = scale.lcm(p.denom());
            }
            scale = scale.lcm(r.denom());
            rows.push(row);
            finish.push(r);
        }
        let int = |p: &BigRational| p.numer() * (&scale / p.denom());
        Ok(IntegerKernel {
            q: rows
                .iter()
                .map(|row| row.iter().map(|(e, p)| (*e, int(p))).collect())
                .collect(),
            r: finish.iter().map(int).collect(),
            scale,
            start: chain.start().get(),
        })
    }

    /// The common denominator of every entry.
    pub fn scale(&self) -> &BigInt {
        &self.scale
    }

    /// Multiply-adds on 64-bit words that [`IntegerKernel::pmf`] needs for
    /// `terms` terms: the numbers of term t have about `t·bits(scale)` bits.
    pub fn pmf_work(&self, terms: usize) -> f64 {
        let entries: usize = self.q.iter().map(Vec::len).sum::<usize>() + self.r.len();
        let bits = self.scale.bits() as f64;
        let t = terms as f64;
        entries as f64 * t * (t * bits / 128.0 + 1.0)
    }

    /// The numerators of `P(T = t)` for t = 1..=terms, each over
    /// `scale^t`.
    pub fn pmf(&self, terms: usize) -> Vec<BigInt> {
        let n = self.r.len();
        let mut v = vec![BigInt::zero(); n];
        v[self.start] = BigInt::one();
        let mut out = Vec::with_capacity(terms);
        for _ in 0..terms {
            let mut next = vec![BigInt::zero(); n];
            let mut finished = BigInt::zero();
            for (s, mass) in v.iter().enumerate() {
                if mass.is_zero() {
                    continue;
                }
                finished += mass * &self.r[s];
                for (e, q) in &self.q[s] {
                    next[*e] += mass * q;
                }
            }
            out.push(finished);
            v = next;
        }
        out
    }
}

/// The exact length distribution `P(T = t)` for t = 1..=terms, reduced.
///
/// # Errors
/// As [`IntegerKernel::new`].
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder::internals::Chain;
/// use snakeladder::internals::exact::pmf;
///
/// // Squares 2, a d10, overshoot wins: anything but a 1 wins at once.
/// let board = Board::from_json_str(
///     r#"{"squares": 2, "rules": {"dice": {"faces": 10}, "overshoot": "win"}}"#)?;
/// let chain = Chain::compile(&board)?;
/// let p = pmf(&board, &chain, 2)?;
/// assert_eq!(p[0].to_string(), "9/10");
/// assert_eq!(p[1].to_string(), "1/10");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pmf(board: &Board, chain: &Chain, terms: usize) -> Result<Vec<BigRational>, AnalysisError> {
    let kernel = IntegerKernel::new(board, chain)?;
    let mut power = BigInt::one();
    Ok(kernel
        .pmf(terms)
        .into_iter()
        .map(|num| {
            power *= &kernel.scale;
            BigRational::new(num, power.clone())
        })
        .collect())
}

/// The exact variance of the turns from the start, by rational Gaussian
/// elimination of `(I − Q)·m₁ = 1` and `(I − Q)·m₂ = 1 + 2·Q·m₁`
/// (docs/figures.md §2): `Var = m₂ − m₁²` at the start. Meant for small chains
/// (tests and exact checks): the work is cubic in the states.
///
/// # Errors
/// As [`IntegerKernel::new`], and [`AnalysisError::ExactSingular`].
pub fn moments(board: &Board, chain: &Chain) -> Result<(BigRational, BigRational), AnalysisError> {
    let n = exact_size(chain)?;
    let rows: Vec<Vec<(usize, BigRational)>> = chain
        .states()
        .map(|s| exact_row(board, chain, s.get()))
        .collect::<Result<_, _>>()?;
    // [I − Q | 1] reduced to [I | m₁], then the second right-hand side.
    let mut a = vec![vec![BigRational::zero(); n]; n];
    for (i, row) in rows.iter().enumerate() {
        a[i][i] = BigRational::one();
        for (e, p) in row {
            a[i][*e] -= p;
        }
    }
    let solve = |b: Vec<BigRational>| -> Result<Vec<BigRational>, AnalysisError> {
        let mut a = a.clone();
        let mut b = b;
        for k in 0..n {
            let pivot = (k..n)
                .find(|&i| !a[i][k].is_zero())
                .ok_or(AnalysisError::ExactSingular)?;
            a.swap(k, pivot);
            b.swap(k, pivot);
            let inv = a[k][k].recip();
            for v in &mut a[k][k..n] {
                *v = &*v * &inv;
            }
            b[k] = &b[k] * &inv;
            for i in 0..n {
                if i != k && !a[i][k].is_zero() {
                    let f = a[i][k].clone();
                    let pivot_row = a[k].clone();
                    for (v, p) in a[i][k..n].iter_mut().zip(&pivot_row[k..n]) {
                        *v -= &f * p;
                    }
                    let d = &f * &b[k];
                    b[i] -= d;
                }
            }
        }
        Ok(b)
    };
    let m1 = solve(vec![BigRational::one(); n])?;
    let rhs: Vec<BigRational> = rows
        .iter()
        .map(|row| {
            let qm: BigRational = row.iter().map(|(e, p)| p * &m1[*e]).sum();
            BigRational::one() + qm * BigRational::from_integer(2.into())
        })
        .collect();
    let m2 = solve(rhs)?;
    let s = chain.start().get();
    let mean = m1[s].clone();
    let variance = &m2[s] - &mean * &mean;
    Ok((mean, variance))
}

/// The exact row of Q from state `s`: (state, probability), merged, by the
/// same construction as the `f64` kernel ([`chain::exact_row`]).
pub(crate) fn exact_row(
    board: &Board,
    chain: &Chain,
    s: usize,
) -> Result<Vec<(usize, BigRational)>, AnalysisError> {
    let outcomes = board.rules().dice().exact_outcomes();
    let square = chain.square(chain::StateIndex::new(s));
    chain::exact_row(board, chain, square, &outcomes, MAX_EXACT_ROLLS_PER_TURN).map_err(|gap| {
        match gap {
            chain::ExactRowGap::TooLong => AnalysisError::ExactTurnTooLong {
                square,
                limit: MAX_EXACT_ROLLS_PER_TURN,
            },
            chain::ExactRowGap::Unlisted(to) => AnalysisError::ExactUnlisted { from: square, to },
        }
    })
}

/// Fraction-free elimination of an augmented integer system `[A | b]`
/// (n rows of n + 1); returns the last unknown as (numerator, denominator).
///
/// # Formula
/// Bareiss: `a⁽ᵏ⁾ᵢⱼ = (a⁽ᵏ⁻¹⁾ₖₖ·a⁽ᵏ⁻¹⁾ᵢⱼ − a⁽ᵏ⁻¹⁾ᵢₖ·a⁽ᵏ⁻¹⁾ₖⱼ) / a⁽ᵏ⁻²⁾ₖ₋₁,ₖ₋₁`,
/// every division exact. After the last step, row n − 1 reads
/// `a·x = b`. Entries that are zero and stay zero (`aᵢⱼ = aₖⱼ = 0`) are
/// skipped.
fn bareiss_last(mut a: Vec<Vec<BigInt>>) -> Result<(BigInt, BigInt), AnalysisError> {
    let n = a.len();
    let mut previous = BigInt::one();
    for k in 0..n.saturating_sub(1) {
        if a[k][k].is_zero() {
            let swap = (k + 1..n)
                .find(|&i| !a[i][k].is_zero())
                .ok_or(AnalysisError::ExactSingular)?;
            a.swap(k, swap);
        }
        let (done, rest) = a.split_at_mut(k + 1);
        let pivot_row = &done[k];
        let pivot = &pivot_row[k];
        for row in rest.iter_mut() {
            let factor = std::mem::take(&mut row[k]);
            for j in k + 1..=n {
                let both_zero = row[j].is_zero();
                if factor.is_zero() || pivot_row[j].is_zero() {
                    if !both_zero {
                        row[j] = (&row[j] * pivot) / &previous;
                    }
                } else {
                    row[j] = (&row[j] * pivot - &factor * &pivot_row[j]) / &previous;
                }
            }
        }
        previous = pivot.clone();
    }
    let last = &a[n - 1];
    if last[n - 1].is_zero() {
        return Err(AnalysisError::ExactSingular);
    }
    let (mut num, mut den) = (last[n].clone(), last[n - 1].clone());
    if den.is_negative() {
        num = -num;
        den = -den;
    }
    Ok((num, den))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(json: &str) -> BigRational {
        let b = Board::from_json_str(json).unwrap();
        let c = Chain::compile(&b).unwrap();
        mean_turns(&b, &c).unwrap()
    }

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn two_squares_by_hand() {
        // From 1 only a 1 finishes: 6 turns. From 0: t = 1 + t(1)/6 + 4t/6,
        // so t = 6.
        assert_eq!(exact(r#"{"squares": 2}"#), ratio(6, 1));
    }

    #[test]
    fn three_squares_with_a_coin() {
        // A coin (faces 1, 2), squares 3, exact finish, start 0.
        // t(2) = 1 + t(2)/2 (a 2 overshoots) → t(2) = 2.
        // t(1) = 1 + t(2)/2 (a 1 → 2, a 2 finishes) → 2.
        // t(0) = 1 + t(1)/2 + t(2)/2 = 3.
        assert_eq!(
            exact(r#"{"squares": 3, "rules": {"dice": {"faces": 2}}}"#),
            ratio(3, 1)
        );
        // With a ladder 1→3, a 1 from 0 wins at once: t(0) = 1 + t(2)/2 = 2.
        assert_eq!(
            exact(r#"{"squares": 3, "ladders": [[1, 3]], "rules": {"dice": {"faces": 2}}}"#),
            ratio(2, 1)
        );
    }

    #[test]
    fn moments_by_elimination_match_the_rational_solve() {
        // Two independent exact computations of the variance: the
        // fraction-free block system and rational Gauss–Jordan.
        for json in [
            r#"{"squares": 2}"#,
            r#"{"squares": 12, "snakes": [[4, 1], [10, 1]], "rules": {"dice": {"weights": [1, 0.001]}}}"#,
            r#"{"squares": 3, "rules": {"dice": {"faces": 2}, "extra_turn": {"on": 2}}}"#,
            r#"{"squares": 20, "snakes": [[13, 2]], "ladders": [[3, 11]],
                "rules": {"extra_turn": {"on": 6, "max_extra": 2}, "overshoot": "bounce"}}"#,
        ] {
            let b = Board::from_json_str(json).unwrap();
            let c = Chain::compile(&b).unwrap();
            let (mean, variance) = moments_within(&b, &c, f64::INFINITY).unwrap();
            assert_eq!((mean, variance), moments(&b, &c).unwrap(), "{json}");
        }
        // Squares 2 by hand: from 0 and from 1 alike a turn finishes with
        // 1/6 (a 2 from 0, a 1 from 1), so T is geometric: (5/6)/(1/6)² = 30.
        let b = Board::from_json_str(r#"{"squares": 2}"#).unwrap();
        let c = Chain::compile(&b).unwrap();
        assert_eq!(
            moments_within(&b, &c, f64::INFINITY).unwrap().1,
            ratio(30, 1)
        );
        assert!(matches!(
            moments_within(&b, &c, 1.0),
            Err(AnalysisError::ExactTooMuchWork { .. })
        ));
    }

    #[test]
    fn a_bonus_cycle_is_summed_exactly() {
        // The chain module's board: coin, squares 3, a 2 rolls again without
        // cap. From 2 every turn finishes (a 1 wins; a 2 stays and rolls
        // again until a 1): t(2) = 1. From 1: a 1 → 2, a 2 wins: t(1) =
        // 1 + t(2)/2 = 3/2. From 0: a 1 → 1 ends the turn, a 2 → 2 rolls on
        // and finishes: t(0) = 1 + t(1)/2 = 7/4.
        assert_eq!(
            exact(r#"{"squares": 3, "rules": {"dice": {"faces": 2}, "extra_turn": {"on": 2}}}"#),
            ratio(7, 4)
        );
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_77() -> Result<(), Box<dyn std::error::Error>> {
        use crate::Board;
        use crate::markov::chain::Chain;
        use crate::markov::exact::mean_turns;

        // Squares 2, one d6, exact finish: 6 turns on average (see the tests).
        let board = Board::from_json_str(r#"{"squares": 2}"#)?;
        let chain = Chain::compile(&board)?;
        assert_eq!(mean_turns(&board, &chain)?.to_string(), "6");
        Ok(())
    }
}
