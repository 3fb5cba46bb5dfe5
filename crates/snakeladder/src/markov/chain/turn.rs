//! The turn kernel: the path of bonus rolls a turn follows from one square,
//! solved in closed form over any weight type (`f64` for the chain,
//! fractions for exact mode; see the parent module's docs).

use super::Chain;
#[cfg(doc)]
use crate::markov::tolerance;
use crate::{Board, Square};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Num, One, Signed, Zero};
use std::collections::HashMap;

/// One roll position along a turn's path of bonus rolls.
#[derive(Clone, Debug)]
pub(crate) struct Layer<W> {
    /// Where the token stands before this roll.
    pub square: Square,
    /// Rolls already made in the turn.
    pub rolls_before: u32,
    /// Probability that the turn reaches this roll.
    pub weight: W,
}

/// The path of a turn from one square: the rolls it may make, in order.
#[derive(Clone, Debug)]
pub(crate) struct TurnPath<W> {
    pub layers: Vec<Layer<W>>,
    /// When the bonus rolls return to a square already on the path
    /// (uncapped, never forfeited): the layers from this one on repeat
    /// forever, each repetition with its weight multiplied by `p(on)ᴸ` for
    /// the `L` layers of the cycle.
    pub cycle: Option<usize>,
    /// Probability of going on past the last layer, when the path was cut.
    pub cut: Option<W>,
}

/// Follows the bonus rolls of a turn from `from`, while `keep(weight)` allows
/// (see the module docs). `p_on` is the probability of the bonus total.
pub(crate) fn turn_path<W: Weight>(
    board: &Board,
    from: Square,
    p_on: &W,
    keep: impl FnMut(&W, usize) -> bool,
) -> TurnPath<W> {
    let mut path = TurnPath {
        layers: Vec::new(),
        cycle: None,
        cut: None,
    };
    follow_turn(board, from, p_on, keep, &mut path);
    path
}

/// [`turn_path`] into an existing path, reusing its memory: the compiler
/// follows one turn per state.
fn follow_turn<W: Weight>(
    board: &Board,
    from: Square,
    p_on: &W,
    mut keep: impl FnMut(&W, usize) -> bool,
    path: &mut TurnPath<W>,
) {
    path.layers.clear();
    path.layers.push(Layer {
        square: from,
        rolls_before: 0,
        weight: W::one(),
    });
    path.cycle = None;
    path.cut = None;
    let Some(extra) = board.rules().extra_turn() else {
        return;
    };
    let endless = extra.max_extra().is_none() && extra.forfeit_after().is_none();
    let mut seen: HashMap<Square, usize> = HashMap::new();
    if endless {
        seen.insert(from, 0);
    }
    loop {
        let here = path.layers.last().expect("a path has a layer");
        let (walk, extra_roll) = board.walk_roll(here.square, here.rolls_before, extra.on());
        if !extra_roll {
            return;
        }
        let weight = here.weight.times(p_on);
        let square = walk.end;
        if endless {
            if let Some(&c) = seen.get(&square) {
                path.cycle = Some(c);
                return;
            }
            seen.insert(square, path.layers.len());
        }
        if !keep(&weight, path.layers.len()) {
            path.cut = Some(weight);
            return;
        }
        let rolls_before = here.rolls_before + 1;
        path.layers.push(Layer {
            square,
            rolls_before,
            weight,
        });
    }
}

/// Whether the `f64` kernel follows a turn's bonus rolls to a layer reached
/// with probability `weight`: while that probability is a normal `f64`.
/// Below `f64::MIN_POSITIVE` (2.2e-308) every further roll is a subnormal
/// number whose products no longer carry the relative precision the error
/// bounds assume ([`tolerance::KERNEL_ROUNDING`]); the turns not followed
/// then have probability below it, which [`Chain::dropped`] reports.
pub(super) fn keep_float(weight: &f64, _rolls: usize) -> bool {
    *weight >= f64::MIN_POSITIVE
}

/// The probability of a turn's weight type: `f64` for the compiled chain,
/// `BigRational` for exact mode. One construction, [`turn_rolls`], serves
/// both; only the closed form of a cycle differs in how it is evaluated.
pub(crate) trait Weight: Num + Clone {
    /// For a cycle of `length` bonus rolls: `q = p(on)ᴸ` and `Σⱼ qʲ =
    /// 1/(1 − q)`.
    fn repeat(bonus: &Bonus<Self>, length: usize) -> (Self, Self);

    /// `self · other`, the products a turn's path takes per layer and roll.
    fn times(&self, other: &Self) -> Self;

    /// A count of rolls (at most a path's length) as a weight.
    fn count(n: usize) -> Self;
}

impl Weight for f64 {
    /// `1 − q = −expm1(L·ln(1 − miss))`, so that no cancellation loses it
    /// when `q` is near 1.
    fn repeat(bonus: &Bonus<f64>, length: usize) -> (f64, f64) {
        let ln_p = bonus.ln_p();
        let l = length as f64;
        ((l * ln_p).exp(), 1.0 / -(l * ln_p).exp_m1())
    }

    fn times(&self, other: &f64) -> f64 {
        self * other
    }

    /// Exact: a count is below 2⁵³.
    fn count(n: usize) -> f64 {
        n as f64
    }
}

impl Weight for BigRational {
    fn repeat(bonus: &Bonus<BigRational>, length: usize) -> (BigRational, BigRational) {
        let q = (0..length).fold(BigRational::one(), |q, _| q.times(&bonus.p));
        let s0 = (BigRational::one() - &q).recip();
        (q, s0)
    }

    fn count(n: usize) -> BigRational {
        BigRational::from_integer(n.into())
    }

    /// The product of two reduced fractions `a/b · c/d`, reduced by the
    /// cross gcds `g = gcd(a, d)` and `h = gcd(b, c)` alone: `(a/g · c/h) /
    /// (b/h · d/g)` has no common factor left, so the gcd of the whole
    /// product that `Ratio`'s `*` also takes is not needed. Each gcd takes
    /// the larger operand modulo the smaller first ([`gcd`]).
    fn times(&self, other: &BigRational) -> BigRational {
        if self.is_zero() || other.is_zero() {
            return BigRational::zero();
        }
        let g = gcd(self.numer(), other.denom());
        let h = gcd(self.denom(), other.numer());
        BigRational::new_raw(
            self.numer() / &g * (other.numer() / &h),
            self.denom() / &h * (other.denom() / &g),
        )
    }
}

/// `gcd(x, y)` (non-negative), by one step of Euclid's algorithm before
/// num-bigint's binary gcd, which takes a step per bit of its larger
/// operand: a path's weight `99ⁿ/100ⁿ` times a roll's `99/100` asks
/// `gcd(99ⁿ, 100)`, a few thousand bits against seven.
fn gcd(x: &BigInt, y: &BigInt) -> BigInt {
    let (large, small) = if x.magnitude() >= y.magnitude() {
        (x, y)
    } else {
        (y, x)
    };
    if small.is_zero() {
        return large.abs();
    }
    (large % small).gcd(small)
}

/// The bonus total's probability `p` and its complement `1 − p`, the
/// complement summed from the other totals so that in `f64` it keeps its
/// precision when `p` is within an ulp of 1 (a die whose other faces weigh
/// 1e-16).
#[derive(Clone, Debug)]
pub(crate) struct Bonus<W = f64> {
    pub p: W,
    /// `1 − p`, from the other totals' probabilities.
    pub miss: W,
}

impl<W: Weight> Bonus<W> {
    /// The bonus of `board` over the given distribution of the dice total.
    pub(super) fn over(board: &Board, outcomes: &[(u32, W)]) -> Bonus<W> {
        let on = board.rules().extra_turn().map(|x| x.on());
        let (mut p, mut miss) = (W::zero(), W::zero());
        for (total, probability) in outcomes {
            if Some(*total) == on {
                p = p + probability.clone();
            } else {
                miss = miss + probability.clone();
            }
        }
        Bonus { p, miss }
    }
}

impl Bonus<f64> {
    /// The bonus of `board`'s dice in `f64`.
    pub(crate) fn of(board: &Board) -> Bonus<f64> {
        Bonus::over(board, &float_outcomes(board))
    }

    /// `ln p`, from `ln(1 − miss)` when `p` is near 1, where `ln p` itself
    /// would lose the digits of `miss`.
    pub(crate) fn ln_p(&self) -> f64 {
        if self.miss < 0.5 {
            (-self.miss).ln_1p()
        } else {
            self.p.ln()
        }
    }

    /// For a cycle of `length` bonus rolls: `q = pᴸ` and `1/(1 − q)`.
    pub(crate) fn cycle(&self, length: usize) -> (f64, f64) {
        f64::repeat(self, length)
    }
}

/// The dice totals of `board` with their `f64` probabilities.
pub(super) fn float_outcomes(board: &Board) -> Vec<(u32, f64)> {
    board
        .rules()
        .dice()
        .rolls()
        .iter()
        .map(|o| (o.total, o.probability))
        .collect()
}

/// The multiplicities of the rolls of one layer of a turn's path: every
/// roll made from it contributes its probability times `mass` to the
/// kernel (and to jump uses and rests), times `rolls` to the expected rolls
/// and times `rolls_squared` to their square. They are `(1, ρ, ρ²)` for
/// the `ρ`-th roll of a turn, and sums over the repetitions of a cycle for
/// a layer on one (docs/turn-kernel.md §4).
pub(crate) struct Multiplicity<W> {
    pub mass: W,
    pub rolls: W,
    pub rolls_squared: W,
}

/// The within-turn absorbing chain of a turn from `from`, solved: calls
/// `visit(layer, total, p(total), multiplicity)` for every roll the turn can
/// make, each weighted so that the sum of `layer.weight · p · mass` over
/// the rolls that end the turn on a square is the kernel entry to that
/// square, with no path left out (docs/turn-kernel.md §2–4). Returns false
/// when `keep` cut the path (see [`TurnPath::cut`]); the rows built are
/// then short by that much.
///
/// Both the `f64` compiler and exact mode build their rows with it, over
/// their own distribution of the dice total.
pub(crate) fn turn_rolls<W: Weight>(
    board: &Board,
    from: Square,
    outcomes: &[(u32, W)],
    bonus: &Bonus<W>,
    keep: impl FnMut(&W, usize) -> bool,
    path: &mut TurnPath<W>,
    mut visit: impl FnMut(&Layer<W>, u32, &W, &Multiplicity<W>),
) {
    follow_turn(board, from, &bonus.p, keep, path);
    if let ([layer], None) = (path.layers.as_slice(), path.cycle) {
        // A turn of one roll (every turn without an extra-turn rule): each
        // multiplicity is 1, as the general form below computes it, without
        // its bookkeeping (most of a small board's compile).
        let one = Multiplicity {
            mass: W::one(),
            rolls: W::one(),
            rolls_squared: W::one(),
        };
        for (total, p) in outcomes {
            visit(layer, *total, p, &one);
        }
        return;
    }
    // Σⱼ qʲ(ρ + jL)ᵏ for k = 0, 1, 2 from s₀ = 1/(1 − q), s₁ = q·s₀²,
    // s₂ = q(1 + q)·s₀³.
    let cycle = path.cycle.map(|c| {
        let length = path.layers.len() - c;
        let (q, s0) = W::repeat(bonus, length);
        let s1 = q.times(&s0).times(&s0);
        let s2 = q
            .times(&(W::one() + q.clone()))
            .times(&s0)
            .times(&s0)
            .times(&s0);
        (c, W::count(length), s0, s1, s2)
    });
    for (i, layer) in path.layers.iter().enumerate() {
        let rolls = W::count(layer.rolls_before as usize + 1);
        let two = W::one() + W::one();
        let m = match &cycle {
            Some((c, l, s0, s1, s2)) if i >= *c => Multiplicity {
                mass: s0.clone(),
                rolls: rolls.times(s0) + l.times(s1),
                rolls_squared: rolls.times(&rolls).times(s0)
                    + two.times(&rolls).times(l).times(s1)
                    + l.times(l).times(s2),
            },
            _ => Multiplicity {
                mass: W::one(),
                rolls: rolls.clone(),
                rolls_squared: rolls.times(&rolls),
            },
        };
        for (total, p) in outcomes {
            visit(layer, *total, p, &m);
        }
    }
}

/// Why [`exact_row`] has no row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExactRowGap {
    /// A turn makes more than `max_rolls` rolls along a path that does not
    /// repeat: it cannot be summed in closed form.
    TooLong,
    /// A turn ends on this square, which is not a state of the `f64` chain:
    /// every way there has a chance below the smallest normal `f64`, so the
    /// `f64` construction left it out ([`Chain::dropped`]).
    Unlisted(Square),
}

/// The exact row of Q from the state of `from`: (state, probability),
/// merged by state, built by [`turn_rolls`] like the `f64` rows.
pub(crate) fn exact_row(
    board: &Board,
    chain: &Chain,
    from: Square,
    outcomes: &[(u32, BigRational)],
    max_rolls: usize,
) -> Result<Vec<(usize, BigRational)>, ExactRowGap> {
    let bonus = Bonus::over(board, outcomes);
    let mut unlisted = None;
    let mut path = TurnPath {
        layers: Vec::new(),
        cycle: None,
        cut: None,
    };
    let mut row: Vec<(usize, BigRational)> = Vec::new();
    turn_rolls(
        board,
        from,
        outcomes,
        &bonus,
        |_, len| len < max_rolls,
        &mut path,
        |layer, total, p, m| {
            let step = board.roll_end(layer.square, layer.rolls_before, total);
            if step.extra_roll || step.finished {
                return;
            }
            match chain.state_of(step.end) {
                Some(e) => row.push((e.get(), layer.weight.times(p).times(&m.mass))),
                None => unlisted = Some(step.end),
            }
        },
    );
    if path.cut.is_some() {
        return Err(ExactRowGap::TooLong);
    }
    if let Some(square) = unlisted {
        return Err(ExactRowGap::Unlisted(square));
    }
    row.sort_by_key(|(e, _)| *e);
    let mut merged: Vec<(usize, BigRational)> = Vec::with_capacity(row.len());
    for (e, p) in row {
        match merged.last_mut() {
            Some((last, q)) if *last == e => *q += p,
            _ => merged.push((e, p)),
        }
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::Weight;
    use num_bigint::BigInt;
    use num_rational::BigRational;
    use num_traits::Pow;

    fn q(n: BigInt, d: BigInt) -> BigRational {
        BigRational::new(n, d)
    }

    #[test]
    fn exact_products_are_num_rationals_products() {
        // Every pair from a set with zeros, signs, integers, shared factors,
        // and a path weight's powers against a roll's probability.
        let big = |b: u32, e: u32| BigInt::from(b).pow(e);
        let values = [
            q(0.into(), 1.into()),
            q(1.into(), 1.into()),
            q((-3).into(), 4.into()),
            q(6.into(), 35.into()),
            q(99.into(), 100.into()),
            q(big(99, 300), big(100, 300)),
            q(big(2, 200) * 3, big(5, 90) * 7),
            q(-big(10, 50), big(3, 40)),
            q(12.into(), 1.into()),
        ];
        for a in &values {
            for b in &values {
                let ours = a.times(b);
                assert_eq!(ours, a * b, "{a} · {b}");
                // Reduced as num-rational reduces: the same numerator and
                // denominator, not only an equal value.
                assert_eq!(
                    (ours.numer(), ours.denom()),
                    ((a * b).numer(), (a * b).denom())
                );
            }
        }
    }
}
