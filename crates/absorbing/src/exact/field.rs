//! Arithmetic modulo a word-size prime p < 2⁶², in Montgomery form
//! (docs/exact-modular.md §3).
//!
//! A residue `a` is held as `a·2⁶⁴ mod p`; a product of two such is one
//! 64 × 64 → 128-bit multiplication and a Montgomery reduction (two more
//! multiplications), with no division. Sums of two residues stay below
//! 2⁶³, so they never overflow a `u64`.

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

/// The largest prime the modular solver uses: the first it tries.
/// Every prime is below 2⁶², so that a residue times a row's integer
/// entries, summed over the row, fits an `i128` (see `lift`).
const PRIME_CEILING: u64 = 1 << 62;

/// The integers modulo one odd prime, with Montgomery multiplication.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    /// The prime.
    p: u64,
    /// `−p⁻¹ mod 2⁶⁴`.
    neg_inv: u64,
    /// `2¹²⁸ mod p`: multiplying by it enters Montgomery form.
    r2: u64,
}

impl Field {
    /// The field of the odd prime `p < 2⁶²`.
    pub(crate) fn new(p: u64) -> Field {
        debug_assert!(p % 2 == 1 && p < PRIME_CEILING);
        // Newton's iteration doubles the correct low bits of p⁻¹ mod 2⁶⁴.
        let mut inv: u64 = 1;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
        }
        let r = (u128::from(u64::MAX) + 1) % u128::from(p);
        let r2 = (r * r % u128::from(p)) as u64;
        Field {
            p,
            neg_inv: inv.wrapping_neg(),
            r2,
        }
    }

    /// The prime.
    pub(crate) fn prime(&self) -> u64 {
        self.p
    }

    /// Montgomery reduction: `t·2⁻⁶⁴ mod p` for `t < p·2⁶⁴`.
    #[inline(always)]
    fn redc(&self, t: u128) -> u64 {
        let m = (t as u64).wrapping_mul(self.neg_inv);
        let s = (t + u128::from(m) * u128::from(self.p)) >> 64;
        let s = s as u64;
        if s >= self.p { s - self.p } else { s }
    }

    /// The product of two residues in Montgomery form.
    #[inline(always)]
    pub(crate) fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    /// The sum of two residues.
    #[inline(always)]
    pub(crate) fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.p { s - self.p } else { s }
    }

    /// The difference of two residues.
    #[inline(always)]
    pub(crate) fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.p - b }
    }

    /// A plain residue `a < p` into Montgomery form.
    #[inline(always)]
    pub(crate) fn enter(&self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }

    /// A Montgomery residue back to the plain residue in `[0, p)`.
    #[inline(always)]
    pub(crate) fn leave(&self, a: u64) -> u64 {
        self.redc(u128::from(a))
    }

    /// Any `u64`, reduced and in Montgomery form.
    pub(crate) fn enter_u64(&self, a: u64) -> u64 {
        self.enter(a % self.p)
    }

    /// Any `i128`, reduced and in Montgomery form.
    pub(crate) fn enter_i128(&self, a: i128) -> u64 {
        self.enter(a.rem_euclid(i128::from(self.p)) as u64)
    }

    /// Any big integer, reduced and in Montgomery form.
    pub(crate) fn enter_big(&self, a: &BigInt) -> u64 {
        let r = a.magnitude() % self.p;
        let r = r.to_u64().unwrap_or(0);
        let r = if a.sign() == Sign::Minus && r != 0 {
            self.p - r
        } else {
            r
        };
        self.enter(r)
    }

    /// The inverse of a Montgomery residue, or `None` for zero (by Fermat:
    /// `a^(p−2)`).
    pub(crate) fn inv(&self, a: u64) -> Option<u64> {
        if a == 0 {
            return None;
        }
        let mut result = self.enter(1);
        let mut base = a;
        let mut e = self.p - 2;
        while e > 0 {
            if e & 1 == 1 {
                result = self.mul(result, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        Some(result)
    }
}

/// `a·b mod m` for any `u64`s (for the primality test only).
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(m)) as u64
}

/// Whether `n` is prime: Miller–Rabin with the first twelve primes as
/// bases, which decides every `n < 3.3·10²⁴` without error.
pub(crate) fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for b in BASES {
        if n.is_multiple_of(b) {
            return n == b;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'bases: for b in BASES {
        let mut x = 1u64;
        let (mut base, mut e) = (b, d);
        while e > 0 {
            if e & 1 == 1 {
                x = mul_mod(x, base, n);
            }
            base = mul_mod(base, base, n);
            e >>= 1;
        }
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// The largest prime below 2⁶² (`primes_are_found_from_the_top` checks it):
/// named so that a solve does not spend its first microseconds testing
/// the 28 odd numbers above it.
const FIRST_PRIME: u64 = PRIME_CEILING - 57;

/// The primes below 2⁶², largest first.
pub(crate) fn primes() -> impl Iterator<Item = u64> {
    std::iter::once(FIRST_PRIME).chain(
        (30..PRIME_CEILING / 2)
            .map(|k| PRIME_CEILING - 2 * k + 1)
            .filter(|&n| is_prime(n)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_products_are_products() {
        let f = Field::new(primes().next().unwrap());
        let p = f.prime();
        for (a, b) in [
            (0, 5),
            (1, 1),
            (p - 1, p - 1),
            (123_456_789, p - 987_654_321),
        ] {
            let want = mul_mod(a, b, p);
            assert_eq!(f.leave(f.mul(f.enter(a), f.enter(b))), want);
        }
        let x = f.enter(987_654_321);
        assert_eq!(f.leave(f.mul(x, f.inv(x).unwrap())), 1);
        assert_eq!(f.inv(0), None);
        assert_eq!(f.leave(f.enter_big(&BigInt::from(-1))), p - 1);
        assert_eq!(f.leave(f.enter_i128(-(p as i128) - 2)), p - 2);
    }

    #[test]
    fn the_primality_test_knows_small_numbers() {
        let small: Vec<u64> = (0..60).filter(|&n| is_prime(n)).collect();
        assert_eq!(
            small,
            [
                2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59
            ]
        );
        // 2⁶² − 57 is the largest prime below 2⁶²; 2⁶¹ − 1 is a Mersenne prime.
        assert_eq!(primes().next(), Some((1 << 62) - 57));
        let searched = (1..=29)
            .map(|k| PRIME_CEILING - 2 * k + 1)
            .find(|&n| is_prime(n));
        assert_eq!(searched, Some(FIRST_PRIME));
        assert!(is_prime(primes().nth(1).unwrap()));
        assert!(primes().nth(1).unwrap() < FIRST_PRIME);
        assert!(is_prime((1 << 61) - 1));
        assert!(!is_prime(3_215_031_751)); // a strong pseudoprime to 2, 3, 5, 7
    }
}
