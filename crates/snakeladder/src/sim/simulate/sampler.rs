//! Sampling the dice total, exactly and fast.
//!
//! Two samplers, both driven by [`Xoshiro256PlusPlus`]:
//! - one fair die of `f` faces: Lemire's multiply-and-reject on 16-bit
//!   slices of each 64-bit output (four rolls per generator call). A slice
//!   `x` gives `⌊x·f / 2^16⌋` unless the low half of `x·f` is below
//!   `2^16 mod f`, when the slice is rejected; every face then has exactly
//!   `⌊2^16 / f⌋` accepted slices, so the roll is exactly uniform.
//! - anything else (several dice, a loaded die): Walker's alias method over
//!   integer weights, built with Vose's algorithm in exact integer
//!   arithmetic and sampled with two exact uniform integers. Fair dice use
//!   their exact face-combination counts when `faces^count ≤ 2^53`, so the
//!   sample is exactly the distribution of the total; otherwise (and for a
//!   loaded die) each probability is rounded to a multiple of `2^-53`, an
//!   error below any simulation's reach.

use crate::Dice;
use num_traits::ToPrimitive;
use rand::RngCore;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Total weight used when probabilities must be rounded: `2^53`, the
/// resolution of an `f64` in [0.5, 1), so rounding loses nothing the `f64`
/// distribution had.
const ROUNDED_TOTAL: u64 = 1 << 53;

/// Draws the index (into [`Dice::outcomes`]) of each roll's total.
#[derive(Clone, Debug)]
pub(crate) enum Sampler {
    /// One six-faced die, the common case: the face count is a constant
    /// of the compiled loop, which frees two registers and a multiply.
    Six(Uniform16<Six>),
    /// One fair die of any other count of faces; see the module docs.
    Uniform(Uniform16<AnyFaces>),
    /// Anything else.
    Alias(Alias),
}

impl Sampler {
    /// The sampler for a dice set.
    pub(crate) fn new(dice: &Dice) -> Sampler {
        match dice.fair() {
            Some((1, 6)) => Sampler::Six(Uniform16::new(Six)),
            Some((1, faces)) if faces <= 1 << 15 => {
                Sampler::Uniform(Uniform16::new(AnyFaces::new(faces)))
            }
            _ => Sampler::Alias(Alias::new(&integer_weights(dice))),
        }
    }
}

/// Integer weights of the outcomes: exact counts for fair dice when they fit,
/// else probabilities rounded to multiples of 2^-53 (each at least 1).
fn integer_weights(dice: &Dice) -> Vec<u64> {
    if let Some((count, faces)) = dice.fair() {
        let fits = (f64::from(faces).log2() * f64::from(count)) <= 53.0;
        if fits {
            let exact = dice.exact_outcomes();
            let denominator = u64::from(faces).pow(count);
            let weights: Option<Vec<u64>> = exact
                .iter()
                .map(|(_, q)| {
                    // q = ways / faces^count, possibly reduced.
                    let scale = denominator / q.denom().to_u64()?;
                    Some(q.numer().to_u64()? * scale)
                })
                .collect();
            if let Some(w) = weights {
                return w;
            }
        }
    }
    dice.rolls()
        .iter()
        .map(|o| ((o.probability * ROUNDED_TOTAL as f64).round() as u64).max(1))
        .collect()
}

/// Draws a roll index.
///
/// Samplers are small `Copy` values (tables are borrowed), so that the game
/// loop can keep a copy in registers (see [`DiceStream`]).
pub(crate) trait Sample: Copy {
    /// One outcome index.
    fn sample(&mut self, rng: &mut Xoshiro256PlusPlus) -> usize;
}

/// A batch's source of rolls: its generator and the dice's sampler.
///
/// The game loop works on a local clone and stores it back when the token
/// finishes: a local whose address never escapes lives in registers, while
/// through a `&mut` the compiler writes the generator's four words back to
/// memory after every draw.
#[derive(Clone, Debug)]
pub(crate) struct DiceStream<S> {
    rng: Xoshiro256PlusPlus,
    sampler: S,
}

impl<S: Sample> DiceStream<S> {
    pub(crate) fn new(rng: Xoshiro256PlusPlus, sampler: S) -> DiceStream<S> {
        DiceStream { rng, sampler }
    }

    /// The next roll's outcome index.
    #[inline(always)]
    pub(crate) fn roll(&mut self) -> usize {
        self.sampler.sample(&mut self.rng)
    }
}

impl DiceStream<Uniform16<Six>> {
    /// The generator and the unread slices of its last output, for the
    /// six-faced loop (`super::six`), which reads them as this sampler does.
    #[inline(always)]
    pub(crate) fn parts(&mut self) -> (&mut Xoshiro256PlusPlus, &mut u64) {
        (&mut self.rng, &mut self.sampler.buffer)
    }
}

/// The number of faces of a [`Uniform16`] die, and its rejection bound.
pub(crate) trait FaceCount: Copy {
    fn faces(self) -> u32;
    /// `2^16 mod faces`: slices whose low half of `x·faces` is below it
    /// are rejected.
    fn reject_below(self) -> u32;

    /// Whether the slice 0 is always rejected (`reject_below() > 0`), known
    /// when the loop is compiled. Then the slices left in a buffer that
    /// has become zero would all be rejected, so the sampler refills when
    /// the buffer is zero, skipping them, and needs no count of slices
    /// left: the same faces, one register and one decrement fewer.
    const ZERO_REJECTED: bool;
}

/// Six faces, known when the loop is compiled.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Six;

impl FaceCount for Six {
    #[inline(always)]
    fn faces(self) -> u32 {
        6
    }

    #[inline(always)]
    fn reject_below(self) -> u32 {
        (1 << 16) % 6
    }

    const ZERO_REJECTED: bool = (1 << 16) % 6 > 0;
}

/// Any count of faces from 2 to 2^15, known when the dice are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AnyFaces {
    faces: u32,
    reject_below: u32,
}

impl AnyFaces {
    fn new(faces: u32) -> AnyFaces {
        AnyFaces {
            faces,
            reject_below: (1 << 16) % faces,
        }
    }
}

impl FaceCount for AnyFaces {
    #[inline(always)]
    fn faces(self) -> u32 {
        self.faces
    }

    #[inline(always)]
    fn reject_below(self) -> u32 {
        self.reject_below
    }

    /// Not known when compiling: the count of slices left is kept.
    const ZERO_REJECTED: bool = false;
}

/// One fair die of up to 2^15 faces, four 16-bit slices per generator call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Uniform16<F> {
    count: F,
    /// The unread slices, lowest first.
    buffer: u64,
    /// How many slices `buffer` holds (unused if [`FaceCount::ZERO_REJECTED`]).
    left: u32,
}

impl<F: FaceCount> Uniform16<F> {
    fn new(count: F) -> Uniform16<F> {
        Uniform16 {
            count,
            buffer: 0,
            left: 0,
        }
    }
}

impl<F: FaceCount> Sample for Uniform16<F> {
    #[inline(always)]
    fn sample(&mut self, rng: &mut Xoshiro256PlusPlus) -> usize {
        loop {
            let empty = if F::ZERO_REJECTED {
                self.buffer == 0
            } else {
                self.left == 0
            };
            if empty {
                self.buffer = rng.next_u64();
                if !F::ZERO_REJECTED {
                    self.left = 4;
                }
            }
            let x = (self.buffer & 0xffff) as u32;
            self.buffer >>= 16;
            if !F::ZERO_REJECTED {
                self.left -= 1;
            }
            let m = x * self.count.faces();
            if (m & 0xffff) >= self.count.reject_below() {
                return (m >> 16) as usize;
            }
        }
    }
}

/// Walker's alias table over integer weights.
#[derive(Clone, Debug)]
pub(crate) struct Alias {
    /// Each column is accepted when a uniform draw in [0, total) is below it.
    accept: Vec<u64>,
    alias: Vec<u32>,
    total: u64,
}

impl Alias {
    /// Vose's construction: column i keeps `accept[i] / total` of its own
    /// outcome and gives the rest to `alias[i]`; all arithmetic is on
    /// integers scaled by the number of columns, so it is exact.
    pub(crate) fn new(weights: &[u64]) -> Alias {
        let n = weights.len();
        let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
        let total = u64::try_from(total).expect("weights sum below 2^64");
        // Scaled: column capacity is `total`, weights are `n * w`.
        let mut scaled: Vec<u128> = weights.iter().map(|&w| w as u128 * n as u128).collect();
        let cap = u128::from(total);
        let mut accept = vec![total; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < cap);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            accept[s] = scaled[s] as u64;
            alias[s] = l as u32;
            scaled[l] -= cap - scaled[s];
            if scaled[l] < cap {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left is exactly full (integer arithmetic leaves no
        // rounding crumbs): accept it always.
        Alias {
            accept,
            alias,
            total,
        }
    }

    /// The table as a [`Sample`]r.
    pub(crate) fn view(&self) -> AliasView<'_> {
        AliasView {
            accept: &self.accept,
            alias: &self.alias,
            total: self.total,
        }
    }
}

/// An [`Alias`] table, borrowed: what the game loop samples from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AliasView<'a> {
    accept: &'a [u64],
    alias: &'a [u32],
    total: u64,
}

/// A uniform integer in [0, n), exactly (Lemire's method on 64 bits).
#[inline]
fn below(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    let threshold = n.wrapping_neg() % n; // 2^64 mod n
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

impl Sample for AliasView<'_> {
    #[inline]
    fn sample(&mut self, rng: &mut Xoshiro256PlusPlus) -> usize {
        let column = below(rng, self.accept.len() as u64) as usize;
        if below(rng, self.total) < self.accept[column] {
            column
        } else {
            self.alias[column] as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use rand::SeedableRng;

    /// The probability each alias outcome gets, computed exactly from the
    /// table: column i contributes accept[i]/total to i and the rest to
    /// alias[i], each column chosen with probability 1/n.
    fn alias_weights(a: &Alias) -> Vec<u128> {
        let n = a.accept.len();
        let mut w = vec![0_u128; n];
        for i in 0..n {
            w[i] += u128::from(a.accept[i]);
            w[a.alias[i] as usize] += u128::from(a.total - a.accept[i]);
        }
        w
    }

    #[test]
    fn alias_table_reproduces_integer_weights_exactly() {
        for weights in [
            vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1],
            vec![7, 1],
            vec![1, 1, 1],
            vec![1 << 52, 3, 1 << 40, 17],
        ] {
            let a = Alias::new(&weights);
            let n = weights.len() as u128;
            // Each outcome's mass over the n columns equals n · w_i.
            let expected: Vec<u128> = weights.iter().map(|&w| u128::from(w) * n).collect();
            assert_eq!(alias_weights(&a), expected, "{weights:?}");
        }
    }

    #[test]
    fn two_fair_dice_use_exact_counts() {
        let board = Board::from_json_str(
            r#"{"squares": 40, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 6}}}"#,
        )
        .unwrap();
        let w = integer_weights(board.rules().dice());
        assert_eq!(w, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
    }

    #[test]
    fn uniform16_accepts_equally_many_slices_per_face() {
        // Enumerate all 2^16 slices: each face must get exactly ⌊2^16/f⌋.
        for faces in [2_u32, 3, 6, 7, 10, 20, 1000] {
            let reject_below = AnyFaces::new(faces).reject_below();
            let mut counts = vec![0_u32; faces as usize];
            for x in 0..(1_u32 << 16) {
                let m = x * faces;
                if (m & 0xffff) >= reject_below {
                    counts[(m >> 16) as usize] += 1;
                }
            }
            assert!(
                counts.iter().all(|&c| c == (1 << 16) / faces),
                "{faces}: {counts:?}"
            );
        }
    }

    #[test]
    fn samplers_stay_in_range_and_are_seeded() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut u = Uniform16::new(AnyFaces::new(6));
        let draws: Vec<usize> = (0..1000).map(|_| u.sample(&mut rng)).collect();
        assert!(draws.iter().all(|&d| d < 6));
        let mut rng2 = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut u2 = Uniform16::new(AnyFaces::new(6));
        let again: Vec<usize> = (0..1000).map(|_| u2.sample(&mut rng2)).collect();
        assert_eq!(draws, again);
        let a = Alias::new(&[1, 0, 3]);
        let mut a = a.view();
        assert!((0..1000).all(|_| a.sample(&mut rng) != 1));
    }

    #[test]
    fn the_six_faced_die_draws_what_any_six_faces_draw() {
        // The constant-faces fast path must be the same die, roll for roll.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut six = Uniform16::new(Six);
        let fast: Vec<usize> = (0..100_000).map(|_| six.sample(&mut rng)).collect();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut any = Uniform16::new(AnyFaces::new(6));
        let general: Vec<usize> = (0..100_000).map(|_| any.sample(&mut rng)).collect();
        assert_eq!(fast, general);
        assert_eq!(Six.reject_below(), 4);
    }
}
