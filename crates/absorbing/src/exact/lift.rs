//! p-adic (Dixon) lifting from one factorisation, rational reconstruction
//! with a common denominator, and the certificate: exact substitution into
//! the scaled integer system (docs/exact-modular.md §5–6).

use super::ExactError;
use super::factor::{Factors, Shape, Work};
use super::field::{Field, primes};
use super::system::{System, Values};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::sync::atomic::AtomicBool;

/// Primes tried before the matrix is called singular: a non-singular
/// matrix is singular modulo a prime only when the prime divides its
/// determinant, and a 62-bit prime does so by chance with odds like 2⁻⁶².
const PRIMES_TRIED: usize = 8;

/// A solution checked by exact substitution: `x = numerators / denominator`
/// satisfies every row of the scaled system over the integers.
#[derive(Clone, Debug)]
pub(crate) struct Certified {
    /// `D·x` for every state.
    pub numerators: Vec<BigInt>,
    /// D.
    pub denominator: BigInt,
}

/// What [`solve`] certified, and how.
#[derive(Clone, Debug)]
pub(crate) struct Lifted {
    /// The expected turns from every state.
    pub mean: Certified,
    /// The expected squared turns from every state, when asked for.
    pub second: Option<Certified>,
    /// The prime of the lifting (0 when no lifting was needed).
    pub prime: u64,
    /// The p-adic digits lifted.
    pub digits: usize,
}

/// The p-adic residual `(b − A·x_{<k})/pᵏ` of each block: small while the
/// system's numbers are (it never grows past a row's entries).
enum Residual {
    Small(Vec<i128>),
    Big(Vec<BigInt>),
}

impl Residual {
    fn start(system: &System) -> Residual {
        match (&system.values, &system.rhs) {
            (Values::Small { scale, .. }, None) => {
                Residual::Small(scale.iter().map(|&s| s as i128).collect())
            }
            // A right-hand side past machine words made the values big
            // (`System::set_rhs`): these fit.
            (Values::Small { .. }, Some(b)) => Residual::Small(
                b.iter()
                    .map(|b| num_traits::ToPrimitive::to_i128(b).unwrap_or(0))
                    .collect(),
            ),
            (Values::Big { .. }, _) => {
                Residual::Big((0..system.len()).map(|i| system.rhs(i)).collect())
            }
        }
    }

    fn enter(&self, field: &Field, out: &mut [u64]) {
        match self {
            Residual::Small(r) => out
                .iter_mut()
                .zip(r)
                .for_each(|(o, r)| *o = field.enter_i128(*r)),
            Residual::Big(r) => out
                .iter_mut()
                .zip(r)
                .for_each(|(o, r)| *o = field.enter_big(r)),
        }
    }

    /// `r ← (r + 2·C·u − A·v)/p` (`u` none for the first block, where
    /// the update is `r ← (r − A·v)/p`). False when a division is not
    /// exact, which a correct modular solve never leaves.
    fn update(&mut self, system: &System, p: u64, u: Option<&[u64]>, v: &[u64]) -> bool {
        let (offsets, cols) = (&system.offsets, &system.cols);
        match (self, &system.values) {
            (Residual::Small(r), Values::Small { scale, diag, off }) => {
                let p = p as i128;
                for (i, ri) in r.iter_mut().enumerate() {
                    let row = offsets[i]..offsets[i + 1];
                    let mut t = *ri - (scale[i] - diag[i]) as i128 * v[i] as i128;
                    for k in row.clone() {
                        t += off[k] as i128 * v[cols[k] as usize] as i128;
                    }
                    if let Some(u) = u {
                        let mut cu = diag[i] as i128 * u[i] as i128;
                        for k in row {
                            cu += off[k] as i128 * u[cols[k] as usize] as i128;
                        }
                        t += 2 * cu;
                    }
                    if t % p != 0 {
                        return false;
                    }
                    *ri = t / p;
                }
            }
            (Residual::Big(r), Values::Big { scale, diag, off }) => {
                let p = BigInt::from(p);
                for (i, ri) in r.iter_mut().enumerate() {
                    let row = offsets[i]..offsets[i + 1];
                    let mut t = &*ri - (&scale[i] - &diag[i]) * v[i];
                    for k in row.clone() {
                        t += &off[k] * v[cols[k] as usize];
                    }
                    if let Some(u) = u {
                        let mut cu = &diag[i] * u[i];
                        for k in row {
                            cu += &off[k] * u[cols[k] as usize];
                        }
                        t += cu * 2u32;
                    }
                    let (q, rem) = t.div_rem(&p);
                    if !rem.is_zero() {
                        return false;
                    }
                    *ri = q;
                }
            }
            _ => unreachable!("a residual is made from its own system's values"),
        }
        true
    }
}

/// Certifies the exact expected turns (and, with `moments`, the expected
/// squared turns) from every state: lifts p-adic digits of the solution
/// from one factorisation modulo a prime, reconstructs the fractions on J
/// at checkpoints, and stops when back substitution over F and
/// substitution into the rows of J hold exactly. `max_digits` bounds the
/// digits of the mean and of the second moment (the Hadamard bound, past
/// which reconstruction cannot fail, docs/exact-modular.md §6).
///
/// # Errors
/// [`ExactError::Singular`] when every prime tried leaves the matrix
/// singular; [`ExactError::Uncertified`] if `max_digits` pass without a
/// certificate (which the bound says cannot happen: a bug);
/// [`ExactError::Stopped`] at the next digit once `stop` is set.
pub(crate) fn solve(
    system: &System,
    shape: &Shape,
    moments: bool,
    max_digits: (usize, usize),
    stop: Option<&AtomicBool>,
) -> Result<Lifted, ExactError> {
    let n = system.len();
    let scales: Vec<BigInt> = (0..n).map(|i| system.rhs(i)).collect();
    // Every denominator of the solution divides det A (Cramer's rule): a
    // substitution whose widened denominator passes its Hadamard bound
    // started from a wrong reconstruction, and is given up at once.
    let give_up = GiveUp {
        den_bits: system.hadamard_log2().det.ceil() as u64 + DENOMINATOR_SLACK_BITS,
        stop,
    };
    if shape.back.is_empty() {
        return triangular(system, shape, moments, &scales, give_up);
    }
    let factors = primes()
        .take(PRIMES_TRIED)
        .find_map(|p| Factors::new(system, shape, Field::new(p)))
        .ok_or(ExactError::Singular)?;
    let field = factors.field;
    let p = field.prime();
    let k = shape.back.len();
    let mut work = Work::default();
    let (mut rhs, mut u, mut v) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
    let (mut plain_u, mut plain_v) = (vec![0u64; n], vec![0u64; n]);
    let mut first = Residual::start(system);
    let mut second_residual = moments.then(|| Residual::start(system));
    let (mut digits_u, mut digits_v): (Vec<u64>, Vec<u64>) = (Vec::new(), Vec::new());
    let mut powers = Powers::new(p);
    let mut mean: Option<Certified> = None;
    let mut second: Option<Certified> = None;
    let limit = if moments { max_digits.1 } else { max_digits.0 };
    let mut check = first_check(max_digits.0);
    let mut digits = 0;
    while digits < limit {
        // A digit is a solve over every state: a look at the flag is free.
        crate::stop::check(stop).map_err(|_| ExactError::Stopped)?;
        first.enter(&field, &mut rhs);
        factors.solve(&rhs, &mut u, &mut work);
        for (plain, &x) in plain_u.iter_mut().zip(&u) {
            *plain = field.leave(x);
        }
        if let Some(r2) = &mut second_residual {
            r2.enter(&field, &mut rhs);
            for i in 0..n {
                let cu = field.add(field.mul(factors.diag[i], u[i]), factors.row_sum(i, &u));
                rhs[i] = field.add(rhs[i], field.add(cu, cu));
            }
            factors.solve(&rhs, &mut v, &mut work);
            for (plain, &x) in plain_v.iter_mut().zip(&v) {
                *plain = field.leave(x);
            }
            if !r2.update(system, p, Some(&plain_u), &plain_v) {
                return Err(ExactError::Uncertified { digits });
            }
            digits_v.extend(shape.back.iter().map(|&j| plain_v[j]));
        }
        if !first.update(system, p, None, &plain_u) {
            return Err(ExactError::Uncertified { digits });
        }
        if mean.is_none() {
            digits_u.extend(shape.back.iter().map(|&j| plain_u[j]));
        }
        digits += 1;
        if digits == check || digits == limit {
            check = next_check(digits);
            if mean.is_none() {
                mean = reconstruct(&digits_u, k, digits, &BigInt::one(), give_up, &mut powers)
                    .and_then(|(on_j, e)| {
                        substitute(system, shape, &on_j, e, &scales, &BigInt::one(), give_up)
                    });
                if mean.is_some() {
                    digits_u = Vec::new();
                }
            }
            if let (Some(m), true, None) = (&mean, moments, &second) {
                second = reconstruct(&digits_v, k, digits, &m.denominator, give_up, &mut powers)
                    .and_then(|(on_j, e)| {
                        let g = second_rhs(&scales, m);
                        substitute(system, shape, &on_j, e, &g, &m.denominator, give_up)
                    });
            }
            if let Some(m) = &mean
                && (!moments || second.is_some())
            {
                return Ok(Lifted {
                    mean: m.clone(),
                    second,
                    prime: p,
                    digits,
                });
            }
        }
    }
    // A checkpoint given up on the stop flag is a stop, not a bug.
    crate::stop::check(stop).map_err(|_| ExactError::Stopped)?;
    Err(ExactError::Uncertified { digits })
}

/// [`solve`] of a triangular system (no back target): back substitution
/// alone is the solution, with nothing to lift.
fn triangular(
    system: &System,
    shape: &Shape,
    moments: bool,
    scales: &[BigInt],
    give_up: GiveUp,
) -> Result<Lifted, ExactError> {
    let failed = || match give_up.stopped() {
        true => ExactError::Stopped,
        false => ExactError::Uncertified { digits: 0 },
    };
    let one = BigInt::one();
    let mean =
        substitute(system, shape, &[], one.clone(), scales, &one, give_up).ok_or_else(failed)?;
    let second = if moments {
        let g = second_rhs(scales, &mean);
        Some(
            substitute(system, shape, &[], one, &g, &mean.denominator, give_up)
                .ok_or_else(failed)?,
        )
    } else {
        None
    };
    Ok(Lifted {
        mean,
        second,
        prime: 0,
        digits: 0,
    })
}

/// The first checkpoint: half the digits the bound allows. On `boards/`
/// and generated boards the answer needed 65–98% of the bound's digits
/// (7 of 10 on the built-in board, 93 of 95 on a 920-state one), so
/// earlier attempts only failed: starting at a quarter made five
/// reconstructions of the built-in board where two do (docs/performance.md).
fn first_check(max: usize) -> usize {
    (max / 2).max(1)
}

/// Checkpoints grow by a quarter: reconstruction's cost stays a fraction
/// of the lifting's, and at most a quarter of the digits are lifted past
/// the ones needed.
fn next_check(digits: usize) -> usize {
    (digits + digits.div_ceil(4)).max(digits + 1)
}

/// The right-hand side of the second moment over the mean's denominator:
/// with `A·m₁ = s` certified, `A·m₂ = s + 2·C·m₁ = s·(2·m₁ − 1)`, so for
/// `m₂ = n₂/(D₁·E)` the rows read `A·n₂ = E·sᵢ·(2·n₁ᵢ − D₁)`.
fn second_rhs(scales: &[BigInt], mean: &Certified) -> Vec<BigInt> {
    scales
        .iter()
        .zip(&mean.numerators)
        .map(|(s, n)| s * (n * 2u32 - &mean.denominator))
        .collect()
}

/// p to the powers of two, kept as they are needed.
struct Powers {
    pows: Vec<BigInt>,
}

impl Powers {
    fn new(p: u64) -> Powers {
        Powers {
            pows: vec![BigInt::from(p)],
        }
    }

    /// `p^(2^l)`.
    fn get(&mut self, l: usize) -> &BigInt {
        while self.pows.len() <= l {
            let last = self.pows.last().expect("starts with p");
            let next = last * last;
            self.pows.push(next);
        }
        &self.pows[l]
    }

    /// `pᵏ`.
    fn power(&mut self, k: usize) -> BigInt {
        let mut out = BigInt::one();
        for l in 0..usize::BITS as usize {
            if k >> l & 1 == 1 {
                out *= self.get(l);
            }
        }
        out
    }

    /// `Σ_{t<len} digit(t)·pᵗ`, by halves (so that the products are
    /// balanced and fast multiplication pays).
    fn assemble(&mut self, digit: &dyn Fn(usize) -> u64, lo: usize, len: usize) -> BigInt {
        if len <= 8 {
            let p = self.pows[0].clone();
            return (lo..lo + len)
                .rev()
                .fold(BigInt::zero(), |acc, t| acc * &p + digit(t));
        }
        // The largest power of two below len.
        let l = (usize::BITS - 1 - (len - 1).leading_zeros()) as usize;
        let half = 1 << l;
        let low = self.assemble(digit, lo, half);
        let high = self.assemble(digit, lo + half, len - half);
        low + high * self.get(l)
    }
}

/// The fractions on J from `digits` p-adic digits (entry j of step t at
/// `t·k + j`), as numerators over `base·E` for one common E: each entry
/// times the denominator so far is tried as a small integer first, and
/// reconstructed (Wang's rational reconstruction, half-size bounds) only
/// when it is not. `None` when some entry does not reconstruct, or E
/// passes `den_bits` bits: more digits are needed.
///
/// Every true E divides det A (Cramer's rule), so an E past det A's bound
/// comes from a wrong reconstruction; without that test a wrong one went
/// on through every entry, each a full Euclid on numbers whose size the
/// wrong factors keep growing.
fn reconstruct(
    digits: &[u64],
    k: usize,
    count: usize,
    base: &BigInt,
    give_up: GiveUp,
    powers: &mut Powers,
) -> Option<(Vec<BigInt>, BigInt)> {
    let m = powers.power(count);
    let half = &m >> 1u32;
    let bound = (&m >> 1u32).sqrt();
    let mut d = base.clone();
    let mut e = BigInt::one();
    let mut out: Vec<BigInt> = Vec::with_capacity(k);
    for j in 0..k {
        if give_up.stopped() {
            return None;
        }
        let x = powers.assemble(&|t| digits[t * k + j], 0, count);
        let mut y = (&d * x).mod_floor(&m);
        if y > half {
            y -= &m;
        }
        if y.abs() <= bound {
            out.push(y);
            continue;
        }
        let (a, b) = rational(&y.mod_floor(&m), &m, &bound)?;
        d *= &b;
        e *= &b;
        if give_up.past(&e) {
            return None;
        }
        out.iter_mut().for_each(|n| *n *= &b);
        out.push(a);
    }
    Some((out, e))
}

/// The fraction `a/b` with `|a|, b ≤ bound` and `a ≡ b·u (mod m)`, by the
/// extended Euclidean algorithm stopped halfway, if there is one.
fn rational(u: &BigInt, m: &BigInt, bound: &BigInt) -> Option<(BigInt, BigInt)> {
    let (mut r0, mut r1) = (m.clone(), u.clone());
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::one());
    while &r1 > bound {
        let (q, r) = r0.div_rem(&r1);
        r0 = std::mem::replace(&mut r1, r);
        let t = &t0 - &q * &t1;
        t0 = std::mem::replace(&mut t1, t);
    }
    if t1.is_zero() || &t1.abs() > bound || !r1.gcd(&t1).is_one() {
        return None;
    }
    Some(if t1.is_negative() {
        (-r1, -t1)
    } else {
        (r1, t1)
    })
}

/// Bits a certificate's denominator may have past the Hadamard bound on
/// det A before it is given up: room for the bound's rounding only, since
/// the true denominator divides det A.
const DENOMINATOR_SLACK_BITS: u64 = 64;

/// Rows of a substitution between looks at the stop flag.
const STOP_EVERY_ROWS: usize = 256;

/// When a reconstruction or a substitution gives up (returns `None`): once
/// its denominator passes `den_bits` (det A's bound, so a wrong
/// reconstruction), or once the caller's stop flag is set.
#[derive(Clone, Copy)]
struct GiveUp<'a> {
    den_bits: u64,
    stop: Option<&'a AtomicBool>,
}

impl GiveUp<'_> {
    fn past(&self, denominator: &BigInt) -> bool {
        denominator.bits() > self.den_bits
    }

    fn stopped(&self) -> bool {
        crate::stop::check(self.stop).is_err()
    }
}

/// The certificate. Given numerators on J over `base·e`, computes those on
/// F by exact back substitution, `Aᵢᵢ·nᵢ = e·gᵢ + Σ_{j≠i} cᵢⱼ·nⱼ`, widening e
/// when a division is not exact; then checks every row of J exactly. A
/// result satisfies every row of `A·n = e·g` over the integers, so (A being
/// non-singular modulo a prime, hence over the rationals) `n/(base·e)` is
/// the solution of `A·x = g/base`.
///
/// A widening does not multiply every numerator already found: each keeps
/// the count of widenings it is scaled to ([`Scaled`]), and is brought up
/// to date when a row reads it and once at the end. Most numerators are
/// read only by the next few rows, so the cost is that of the reads, not of
/// every state done times every widening (docs/exact-modular.md §5).
fn substitute(
    system: &System,
    shape: &Shape,
    on_j: &[BigInt],
    mut e: BigInt,
    g: &[BigInt],
    base: &BigInt,
    give_up: GiveUp,
) -> Option<Certified> {
    let n = system.len();
    let mut x = Scaled::new(n);
    for (&j, v) in shape.back.iter().zip(on_j) {
        x.numerators[j] = v.clone();
    }
    for (row, &i) in shape.forward.iter().enumerate() {
        // Rows of numbers of thousands of words take seconds on a large
        // board: a stop is seen within a few hundred of them, and the
        // caller ([`solve`]) turns the `None` into the stop.
        if row % STOP_EVERY_ROWS == 0 && give_up.stopped() {
            return None;
        }
        let mut acc = &e * &g[i];
        for (k, j) in system.row(i) {
            acc += system.off_times(k, x.current(j));
        }
        let pivot = system.pivot(i);
        let (q, r) = acc.div_rem(&pivot);
        x.numerators[i] = if r.is_zero() {
            q
        } else {
            let widen = &pivot / acc.gcd(&pivot);
            e *= &widen;
            // Past det A's bound the reconstruction was wrong: every later
            // row would widen again (20 minutes and more on a board of
            // 10,000 squares before this bound).
            if give_up.past(&e) {
                return None;
            }
            x.widen(widen);
            (acc * x.widens.last().expect("just pushed")) / &pivot
        };
        x.epoch[i] = x.widens.len();
    }
    let x = x.finish();
    for &i in &shape.back {
        let mut lhs = system.pivot(i) * &x[i];
        for (k, j) in system.row(i) {
            lhs -= system.off_times(k, &x[j]);
        }
        if lhs != &e * &g[i] {
            return None;
        }
    }
    Some(Certified {
        numerators: x,
        denominator: base * e,
    })
}

/// The numerators of [`substitute`], each over the denominator of its own
/// epoch: `numerators[i]` is scaled to the first `epoch[i]` widenings, and
/// the common denominator is the product of all of them.
struct Scaled {
    numerators: Vec<BigInt>,
    epoch: Vec<usize>,
    widens: Vec<BigInt>,
}

impl Scaled {
    fn new(n: usize) -> Scaled {
        Scaled {
            numerators: vec![BigInt::zero(); n],
            epoch: vec![0; n],
            widens: Vec::new(),
        }
    }

    fn widen(&mut self, by: BigInt) {
        self.widens.push(by);
    }

    /// Numerator `j` scaled to every widening so far.
    fn current(&mut self, j: usize) -> &BigInt {
        let now = self.widens.len();
        if self.epoch[j] < now {
            let x = &mut self.numerators[j];
            if !x.is_zero() {
                for w in &self.widens[self.epoch[j]..] {
                    *x *= w;
                }
            }
            self.epoch[j] = now;
        }
        &self.numerators[j]
    }

    /// Every numerator scaled to every widening: those of each epoch times
    /// the product of the widenings after it, built from the last one back
    /// (one multiplication a numerator, which fast multiplication makes
    /// cheaper than one per widening).
    fn finish(mut self) -> Vec<BigInt> {
        let now = self.widens.len();
        let mut by_epoch: Vec<Vec<usize>> = vec![Vec::new(); now];
        for (i, &t) in self.epoch.iter().enumerate() {
            if t < now && !self.numerators[i].is_zero() {
                by_epoch[t].push(i);
            }
        }
        let mut after = BigInt::one();
        for t in (0..now).rev() {
            after *= &self.widens[t];
            for &i in &by_epoch[t] {
                self.numerators[i] *= &after;
            }
        }
        self.numerators
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numerators scaled lazily, read at any time and finished, equal the
    /// ones every widening multiplies at once: the substitution's
    /// numerators before this bookkeeping.
    #[test]
    fn lazy_scaling_equals_scaling_every_numerator_at_each_widening() {
        let n = 40;
        let mut lazy = Scaled::new(n);
        let mut eager: Vec<BigInt> = vec![BigInt::zero(); n];
        // A fixed pseudo-random walk: set a numerator, widen, read.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for step in 0..400 {
            let i = (next() % n as u64) as usize;
            match next() % 4 {
                0 => {
                    let v = BigInt::from(next() % 1000) - BigInt::from(500);
                    lazy.current(i);
                    lazy.numerators[i] = v.clone();
                    eager[i] = v;
                }
                1 => {
                    let w = BigInt::from(2 + next() % 30);
                    for x in eager.iter_mut() {
                        *x *= &w;
                    }
                    lazy.widen(w);
                }
                _ => assert_eq!(lazy.current(i), &eager[i], "step {step}"),
            }
        }
        assert!(lazy.widens.len() > 50);
        assert_eq!(lazy.finish(), eager);
    }

    /// The base-p digits of `x mod p^count`, entry j of digit t at
    /// `t·k + j`, as [`reconstruct`] reads them.
    fn digits_of(values: &[BigInt], p: u64, count: usize) -> Vec<u64> {
        let big_p = BigInt::from(p);
        let m = Powers::new(p).power(count);
        let mut rest: Vec<BigInt> = values.iter().map(|v| v.mod_floor(&m)).collect();
        let mut out = Vec::new();
        for _ in 0..count {
            for r in rest.iter_mut() {
                let (q, d) = r.div_rem(&big_p);
                out.push(u64::try_from(d).unwrap());
                *r = q;
            }
        }
        out
    }

    fn bits(den_bits: u64) -> GiveUp<'static> {
        GiveUp {
            den_bits,
            stop: None,
        }
    }

    /// A triangular system (no move goes back) is solved by substitution
    /// alone, with no digit to look at the stop flag between: the
    /// substitution looks at it itself.
    #[test]
    fn a_set_flag_stops_a_substitution() {
        // 600 states, each moving 1 to 6 ahead with 1/6, past the last
        // out of the system: nothing goes back.
        let sixth = num_rational::BigRational::new(1.into(), 6.into());
        let system = System::from_rows(
            600,
            0,
            |i| (i + 1..=i + 6).filter(|&j| j < 600).map(|j| (j, &sixth)),
            None,
        );
        let shape = Shape::new(&system);
        assert!(shape.back.is_empty());
        let stop = AtomicBool::new(true);
        let got = solve(&system, &shape, true, (1, 1), Some(&stop));
        assert_eq!(got.unwrap_err(), ExactError::Stopped);
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(solve(&system, &shape, true, (1, 1), Some(&stop)).is_ok());
    }

    /// `numerators/den` as p-adic digits, `count` of them.
    fn fraction_digits(numerators: &[BigInt], den: &BigInt, p: u64, count: usize) -> Vec<u64> {
        let m = Powers::new(p).power(count);
        // den⁻¹ mod p by Fermat, lifted to p^count by Newton's steps (each
        // doubles the digits that are right).
        let mut inv = den.modpow(&BigInt::from(p - 2), &BigInt::from(p));
        for _ in 0..usize::BITS - count.leading_zeros() {
            inv = (&inv * (BigInt::from(2) - den * &inv)).mod_floor(&m);
        }
        let values: Vec<BigInt> = numerators
            .iter()
            .map(|n| (n * &inv).mod_floor(&m))
            .collect();
        digits_of(&values, p, count)
    }

    /// A reconstruction is refused once its common denominator passes
    /// `den_bits`: a true one divides det A and never does, so past it the
    /// reconstruction is wrong (and went on through every entry).
    #[test]
    fn a_denominator_past_the_bound_ends_a_reconstruction() {
        let p = primes().next().unwrap();
        let count = 8;
        // 20 entries over one denominator of 101 bits: the digits hold
        // 8·62 bits, room for numerators and denominator of 200 each.
        let den = (BigInt::one() << 100u32) + BigInt::from(3);
        let numerators: Vec<BigInt> = (0..20).map(|j| BigInt::from(7 - 3 * j)).collect();
        let digits = fraction_digits(&numerators, &den, p, count);
        let mut powers = Powers::new(p);
        let (on_j, e) =
            reconstruct(&digits, 20, count, &BigInt::one(), bits(128), &mut powers).unwrap();
        assert_eq!(e, den);
        assert_eq!(on_j, numerators);
        assert!(reconstruct(&digits, 20, count, &BigInt::one(), bits(100), &mut powers).is_none());
    }
}
