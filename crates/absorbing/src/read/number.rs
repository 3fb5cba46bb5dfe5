//! Numbers as the explicit files write them: state indices, and values read
//! exactly (a decimal is the fraction it writes, `p/q` is a fraction).

use crate::chain::Value;
use crate::error::quote;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::str::FromStr;

/// The longest number read, in characters. A probability written with more
/// digits than this carries no information a chain could use, and the
/// bound keeps the cost of reading (and summing) one value small whatever
/// the input.
///
/// ```
/// use absorbing::{Value, read::MAX_NUMBER_CHARS};
/// assert!("1".repeat(MAX_NUMBER_CHARS).parse::<Value>().is_ok());
/// assert!("1".repeat(MAX_NUMBER_CHARS + 1).parse::<Value>().is_err());
/// ```
pub const MAX_NUMBER_CHARS: usize = 4096;

/// The largest decimal exponent read, in magnitude (`1e-4096` is read,
/// `1e-4097` is not). Beyond it a value is far outside `f64`'s range (about
/// 1e±308) and, read exactly, would only cost memory: `1e-1000000000`
/// written in nine characters would otherwise be a denominator of a
/// billion digits.
///
/// ```
/// use absorbing::Value;
/// assert!("1e-4096".parse::<Value>().is_ok());
/// assert!("1e-4097".parse::<Value>().is_err());
/// ```
pub const MAX_EXPONENT: u32 = 4096;

/// Why text is not a [`Value`].
///
/// ```
/// use absorbing::Value;
/// let err = "0.5.5".parse::<Value>().unwrap_err();
/// assert_eq!(err.to_string(), "\"0.5.5\" is not a number: a second '.'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{text}\" is not a number: {reason}")]
pub struct ParseValueError {
    /// The text (cut to [`MAX_QUOTE_CHARS`](crate::MAX_QUOTE_CHARS)).
    pub text: String,
    /// Why it is not a number.
    pub reason: String,
}

/// Reads a value as the explicit files write it: a decimal (`0.1`, `1e-3`,
/// `.5`, `-2`) read exactly as the fraction it writes, or a fraction `p/q`
/// of integers, also exact. `NaN` and `Infinity` (and `inf`, `-inf`, any
/// case) are read as floats, so that a builder can name them as not finite.
///
/// ```
/// use absorbing::Value;
/// use num_rational::BigRational;
///
/// let tenth: Value = "0.1".parse()?;
/// assert_eq!(tenth, Value::Exact(BigRational::new(1.into(), 10.into())));
/// let third: Value = "1/3".parse()?;
/// assert_eq!(third, Value::Exact(BigRational::new(1.into(), 3.into())));
/// assert!(matches!("NaN".parse::<Value>()?, Value::Float(x) if x.is_nan()));
/// # Ok::<(), absorbing::ParseValueError>(())
/// ```
impl FromStr for Value {
    type Err = ParseValueError;

    fn from_str(s: &str) -> Result<Value, ParseValueError> {
        parse_value(s.as_bytes()).map_err(|reason| ParseValueError {
            text: quote(s.as_bytes()),
            reason,
        })
    }
}

/// [`Value::from_str`] on bytes; the error is the reason alone.
pub(crate) fn parse_value(text: &[u8]) -> Result<Value, String> {
    parse_number(text).map(|(v, _)| v)
}

/// A value and whether it was written as a decimal (rather than a fraction
/// or a special): a row of decimals may be a float printer's rounding of
/// probabilities that sum to one, which the builder allows for.
pub(crate) fn parse_number(text: &[u8]) -> Result<(Value, bool), String> {
    if text.is_empty() {
        return Err("it is empty".into());
    }
    if text.len() > MAX_NUMBER_CHARS {
        return Err(format!("it is longer than {MAX_NUMBER_CHARS} characters"));
    }
    if let Some(x) = special(text) {
        return Ok((Value::Float(x), false));
    }
    if let Some(slash) = text.iter().position(|&b| b == b'/') {
        let (num, den) = (&text[..slash], &text[slash + 1..]);
        let (negative, num) = sign(num);
        let num = digits(num, "the numerator")?;
        let den = digits(den, "the denominator")?;
        if den.is_zero() {
            return Err("its denominator is 0".into());
        }
        let num = if negative { -num } else { num };
        return Ok((Value::Exact(reduced(num, den)), false));
    }
    decimal(text).map(|r| (Value::Exact(r), true))
}

/// [`parse_number`] read straight into the nearest `f64`, without the
/// exact fraction: for a chain whose fractions nobody asked for. A short
/// decimal or a fraction of integers below 2⁵³ is rounded once by the
/// standard library (correctly, as the exact fraction's own conversion
/// is); anything else, and every malformed text, goes through
/// [`parse_number`], so the same texts are accepted and refused with the
/// same reasons.
pub(crate) fn parse_number_as_float(text: &[u8]) -> Result<(Value, bool), String> {
    /// Longest decimal read directly: 17 significant digits and room for a
    /// sign, a point and a small exponent, far from `f64`'s range.
    const SHORT: usize = 24;
    let plain = text.len() <= SHORT
        && text
            .iter()
            .all(|&b| b.is_ascii_digit() || matches!(b, b'.' | b'/' | b'+' | b'-'));
    if plain && let Ok(s) = std::str::from_utf8(text) {
        match s.split_once('/') {
            None => {
                if let Ok(x) = s.parse::<f64>()
                    && x.is_finite()
                    && s.bytes().any(|b| b.is_ascii_digit())
                    && !s.starts_with('+')
                {
                    return Ok((Value::Float(x), true));
                }
            }
            Some((n, d)) => {
                let exact = |t: &str| {
                    t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty() && t.len() <= 15
                };
                if exact(n)
                    && exact(d)
                    && let (Ok(n), Ok(d)) = (n.parse::<u64>(), d.parse::<u64>())
                    && d > 0
                {
                    return Ok((Value::Float(n as f64 / d as f64), false));
                }
            }
        }
    }
    parse_number(text).map(|(v, decimal)| (Value::Float(v.to_f64()), decimal))
}

/// NaN and the infinities, in the spellings of Java's and C's number
/// printers.
fn special(text: &[u8]) -> Option<f64> {
    let (negative, rest) = sign(text);
    let lower = rest.to_ascii_lowercase();
    let x = match lower.as_slice() {
        b"nan" => f64::NAN,
        b"inf" | b"infinity" => f64::INFINITY,
        _ => return None,
    };
    Some(if negative { -x } else { x })
}

fn sign(text: &[u8]) -> (bool, &[u8]) {
    match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

fn digits(text: &[u8], what: &str) -> Result<BigInt, String> {
    if text.is_empty() {
        return Err(format!("{what} is empty"));
    }
    if let Some(&b) = text.iter().find(|b| !b.is_ascii_digit()) {
        return Err(format!("{what} has the character {}", shown_byte(b)));
    }
    // Only digits: the parse cannot fail.
    BigInt::parse_bytes(text, 10).ok_or_else(|| format!("{what} is not an integer"))
}

fn shown_byte(b: u8) -> String {
    if b.is_ascii_graphic() || b == b' ' {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// `[+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?`, exactly.
fn decimal(text: &[u8]) -> Result<BigRational, String> {
    let (negative, rest) = sign(text);
    let (mantissa, exponent) = match rest.iter().position(|&b| b == b'e' || b == b'E') {
        Some(e) => (&rest[..e], Some(&rest[e + 1..])),
        None => (rest, None),
    };
    let mut int_digits = Vec::with_capacity(mantissa.len());
    let mut fraction_len: i64 = 0;
    let mut seen_dot = false;
    for &b in mantissa {
        match b {
            b'0'..=b'9' => {
                int_digits.push(b);
                if seen_dot {
                    fraction_len += 1;
                }
            }
            b'.' if !seen_dot => seen_dot = true,
            b'.' => return Err("a second '.'".into()),
            _ => return Err(format!("the character {}", shown_byte(b))),
        }
    }
    if int_digits.is_empty() {
        return Err("no digit".into());
    }
    let mut scale = -fraction_len;
    if let Some(exp) = exponent {
        let (exp_negative, exp_digits) = sign(exp);
        if exp_digits.is_empty() {
            return Err("no digit after the exponent's 'e'".into());
        }
        let mut e: u64 = 0;
        for &b in exp_digits {
            if !b.is_ascii_digit() {
                return Err(format!("the character {} in the exponent", shown_byte(b)));
            }
            e = e.saturating_mul(10).saturating_add(u64::from(b - b'0'));
        }
        if e > u64::from(MAX_EXPONENT) {
            return Err(format!(
                "its exponent is larger than {MAX_EXPONENT} in magnitude"
            ));
        }
        // Both terms are at most a few thousand: no overflow.
        scale += if exp_negative { -(e as i64) } else { e as i64 };
    }
    let mantissa = BigInt::parse_bytes(&int_digits, 10).ok_or("no digit")?;
    let mantissa = if negative { -mantissa } else { mantissa };
    if mantissa.is_zero() {
        return Ok(BigRational::zero());
    }
    let power = num_traits::pow(BigInt::from(10u8), scale.unsigned_abs() as usize);
    Ok(if scale >= 0 {
        BigRational::from_integer(mantissa * power)
    } else {
        reduced(mantissa, power)
    })
}

/// `num/den` in lowest terms, by a machine-word gcd when both fit (a real
/// model's entries almost always do; the big-integer gcd of `Ratio::new`
/// costs far more).
fn reduced(num: BigInt, den: BigInt) -> BigRational {
    use num_integer::Integer;
    use num_traits::ToPrimitive;
    match (num.to_i64(), den.to_i64()) {
        (Some(n), Some(d)) if d > 0 => {
            let g = n.unsigned_abs().gcd(&d.unsigned_abs()).max(1) as i64;
            BigRational::new_raw(BigInt::from(n / g), BigInt::from(d / g))
        }
        _ => BigRational::new(num, den),
    }
}

/// A state index: decimal digits only.
pub(crate) fn parse_state(text: &[u8]) -> Result<u64, String> {
    if text.is_empty() {
        return Err("it is empty".into());
    }
    let mut n: u64 = 0;
    for &b in text {
        if !b.is_ascii_digit() {
            return Err(format!("it has the character {}", shown_byte(b)));
        }
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .ok_or("it is larger than 2^64 - 1")?;
    }
    Ok(n)
}

/// Whether `v` is exactly one (or the float 1).
pub(crate) fn is_one(v: &Value) -> bool {
    match v {
        Value::Exact(r) => r.is_one(),
        Value::Float(x) => *x == 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(n: i64, d: i64) -> Value {
        Value::Exact(BigRational::new(n.into(), d.into()))
    }

    #[test]
    fn decimals_are_read_as_the_fraction_they_write() {
        assert_eq!(parse_value(b"0.1").unwrap(), exact(1, 10));
        assert_eq!(parse_value(b"1e-3").unwrap(), exact(1, 1000));
        assert_eq!(parse_value(b"2.50E+1").unwrap(), exact(25, 1));
        assert_eq!(parse_value(b".5").unwrap(), exact(1, 2));
        assert_eq!(parse_value(b"5.").unwrap(), exact(5, 1));
        assert_eq!(parse_value(b"-0.25").unwrap(), exact(-1, 4));
        assert_eq!(parse_value(b"+1").unwrap(), exact(1, 1));
        assert_eq!(parse_value(b"0.000").unwrap(), exact(0, 1));
        assert_eq!(parse_value(b"1e-4096").unwrap(), {
            let d = num_traits::pow(BigInt::from(10), 4096);
            Value::Exact(BigRational::new(1.into(), d))
        });
    }

    #[test]
    fn fractions_are_exact_and_reduced() {
        assert_eq!(parse_value(b"2/6").unwrap(), exact(1, 3));
        assert_eq!(parse_value(b"-1/2").unwrap(), exact(-1, 2));
        assert!(
            parse_value(b"1/0")
                .unwrap_err()
                .contains("denominator is 0")
        );
        assert!(parse_value(b"1/-2").is_err());
        assert!(parse_value(b"1/").is_err());
        assert!(parse_value(b"/2").is_err());
        assert!(parse_value(b"0.5/2").is_err());
    }

    #[test]
    fn malformed_numbers_are_refused() {
        for bad in [
            &b""[..],
            b".",
            b"-",
            b"1e",
            b"1e+",
            b"1.2.3",
            b"0x10",
            b"1,5",
            b"e5",
            b"1e5000",
            b"1 2",
            b"\xff",
        ] {
            assert!(
                parse_value(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        let long = vec![b'1'; MAX_NUMBER_CHARS + 1];
        assert!(parse_value(&long).unwrap_err().contains("longer"));
        // A huge exponent is refused without computing the power.
        assert!(parse_value(b"1e99999999999999999999999").is_err());
    }

    #[test]
    fn specials_are_floats() {
        assert!(matches!(parse_value(b"NaN").unwrap(), Value::Float(x) if x.is_nan()));
        assert_eq!(
            parse_value(b"Infinity").unwrap(),
            Value::Float(f64::INFINITY)
        );
        assert_eq!(
            parse_value(b"-inf").unwrap(),
            Value::Float(f64::NEG_INFINITY)
        );
    }

    #[test]
    fn states_are_plain_digits() {
        assert_eq!(parse_state(b"0"), Ok(0));
        assert_eq!(parse_state(b"18446744073709551615"), Ok(u64::MAX));
        assert!(parse_state(b"18446744073709551616").is_err());
        assert!(parse_state(b"-1").is_err());
        assert!(parse_state(b"+1").is_err());
        assert!(parse_state(b"1.0").is_err());
        assert!(parse_state(b"").is_err());
    }
}
