//! How figures are written for people, in one place, so that every command
//! and report writes the same figure the same way.
//!
//! The rule for probabilities, in the text output and the reports alike:
//! at least three significant digits, never a rounded `0.0000`; zero is
//! `0`; scientific notation (`1.23e-5`) below [`SCIENTIFIC_BELOW`], plain
//! decimals from there up, as many as the caller asks and more when three
//! significant digits need them (`0.00157` at four decimals). Nothing is
//! ever written with an exponent of zero (`1.0e0`).

/// Below this, a probability is written in scientific notation with
/// [`SIGNIFICANT_DIGITS`] digits. One threshold for every output: from
/// 0.001 up, five decimals at most carry three significant digits
/// (`0.00157`), which still reads as a plain number in a table; below it
/// the leading zeros would outnumber the digits that say something.
pub const SCIENTIFIC_BELOW: f64 = 1e-3;

/// Significant digits a probability keeps, at the least.
pub const SIGNIFICANT_DIGITS: usize = 3;

/// A probability (or a signed difference of two) with `decimals`
/// decimals, or more where three significant digits need them, or in
/// scientific notation with three significant digits when its magnitude is
/// below [`SCIENTIFIC_BELOW`].
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::probability;
/// assert_eq!(probability(0.111_111_1, 6), "0.111111");
/// assert_eq!(probability(0.507_803, 4), "0.5078");
/// assert_eq!(probability(0.001_566, 4), "0.00157");
/// assert_eq!(probability(2.5e-7, 6), "2.50e-7");
/// assert_eq!(probability(0.0, 6), "0");
/// assert_eq!(probability(2.369e18, 4), "2.3690e18");
/// ```
pub fn probability(p: f64, decimals: usize) -> String {
    let magnitude = p.abs();
    if p == 0.0 {
        "0".to_string()
    } else if p.is_finite() && magnitude < SCIENTIFIC_BELOW {
        format!("{p:.*e}", SIGNIFICANT_DIGITS - 1)
    } else if p.is_finite() && magnitude >= QUANTITY_SCIENTIFIC_FROM {
        // An expected count written with this rule (uses of a jump on a
        // board of 1e19-turn games): its digits past the sixteenth are noise.
        format!("{p:.decimals$e}")
    } else {
        // The first significant digit's place after the point: 1 for
        // 0.1..1, 2 for 0.01..0.1, 3 for 0.001..0.01.
        let place = if !p.is_finite() || magnitude >= 0.1 {
            1
        } else if magnitude >= 0.01 {
            2
        } else {
            3
        };
        let decimals = decimals.max(place + SIGNIFICANT_DIGITS - 1);
        format!("{p:.decimals$}")
    }
}

/// A probability as a percentage with `decimals` decimals (`53.47%`), or,
/// when the probability is below [`SCIENTIFIC_BELOW`], the percentage in
/// scientific notation with three significant digits (`2.50e-5%`).
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::percent;
/// assert_eq!(percent(0.534_72, 2), "53.47%");
/// assert_eq!(percent(2.5e-7, 2), "2.50e-5%");
/// assert_eq!(percent(0.0, 2), "0%");
/// ```
pub fn percent(p: f64, decimals: usize) -> String {
    if p == 0.0 {
        "0%".to_string()
    } else if p.is_finite() && p.abs() < SCIENTIFIC_BELOW {
        format!("{:.2e}%", 100.0 * p)
    } else {
        format!("{:.decimals$}%", 100.0 * p)
    }
}

/// A small positive quantity (a tail mass, a relative error) in scientific
/// notation with two significant digits, `0` for zero; a value from 0.01 up
/// is written plainly (`0.25`, `1`) rather than as `2.5e-1` or `1.0e0`.
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::tiny;
/// assert_eq!(tiny(9.1e-13), "9.1e-13");
/// assert_eq!(tiny(1.0), "1");
/// assert_eq!(tiny(0.0), "0");
/// ```
pub fn tiny(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x.is_finite() && x.abs() < 0.01 {
        format!("{x:.1e}")
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Above this magnitude, [`quantity`] writes a figure in scientific
/// notation: a mean of 1e20 turns has no meaningful units digit in `f64`,
/// and its 21 digits would hide the exponent a reader needs.
pub const QUANTITY_SCIENTIFIC_FROM: f64 = 1e12;

/// A count-like figure (a mean, a variance, a number of turns) with
/// `decimals` decimals, or in scientific notation with `decimals` decimals
/// of mantissa from [`QUANTITY_SCIENTIFIC_FROM`] up; `inf` and `NaN` as
/// such.
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::quantity;
/// assert_eq!(quantity(39.598_365_64, 4), "39.5984");
/// assert_eq!(quantity(0.0, 4), "0.0000");
/// assert_eq!(quantity(-0.000_04, 4), "0.0000");
/// assert_eq!(quantity(1.705_817_281_795_782e19, 4), "1.7058e19");
/// assert_eq!(quantity(f64::INFINITY, 4), "inf");
/// ```
pub fn quantity(x: f64, decimals: usize) -> String {
    if x.is_finite() && x.abs() >= QUANTITY_SCIENTIFIC_FROM {
        format!("{x:.decimals$e}")
    } else {
        // A value that rounds to zero is written without a sign, never
        // `-0.00` (as `fixed` writes it).
        fixed(x, decimals, false)
    }
}

/// A rate per second with an SI prefix and one decimal: `3.2 M games/s`.
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::rate;
/// assert_eq!(rate(3_208_206.893_7, "games"), "3.2 M games/s");
/// assert_eq!(rate(950.0, "games"), "950.0 games/s");
/// ```
pub fn rate(per_second: f64, unit: &str) -> String {
    const PREFIXES: [(f64, &str); 4] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, prefix) in PREFIXES {
        if per_second >= scale {
            return format!("{:.1} {prefix} {unit}/s", per_second / scale);
        }
    }
    format!("{per_second:.1} {unit}/s")
}

/// `x` with `decimals` decimals, with a `+` on a positive figure when
/// `sign`: the one writer of a fixed-point figure that may be negative (a
/// change, a difference, an advantage). A figure that rounds to zero at the
/// decimals shown is written as zero, never `-0.0000` (issue 27): a
/// negative zero, or a change of `-0.00003` at four decimals, is the same
/// shown figure as `+0.0000`. From [`QUANTITY_SCIENTIFIC_FROM`] up it is
/// written in scientific notation, as [`quantity`] writes a figure.
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::fixed;
/// assert_eq!(fixed(-0.000_03, 4, true), "+0.0000");
/// assert_eq!(fixed(-0.0, 0, false), "0");
/// assert_eq!(fixed(-1.26, 1, false), "-1.3");
/// assert_eq!(fixed(0.5, 2, true), "+0.50");
/// assert_eq!(fixed(-2.5e15, 4, true), "-2.5000e15");
/// ```
pub fn fixed(x: f64, decimals: usize, sign: bool) -> String {
    let x = if x.is_finite()
        && format!("{:.decimals$}", x.abs())
            .bytes()
            .all(|b| b == b'0' || b == b'.')
    {
        0.0
    } else {
        x
    };
    match (sign, x.is_finite() && x.abs() >= QUANTITY_SCIENTIFIC_FROM) {
        (true, true) => format!("{x:+.decimals$e}"),
        (false, true) => format!("{x:.decimals$e}"),
        (true, false) => format!("{x:+.decimals$}"),
        (false, false) => format!("{x:.decimals$}"),
    }
}

/// The unit of the last digit [`fixed`]`(x, decimals, _)` writes:
/// `10^−decimals`, or from [`QUANTITY_SCIENTIFIC_FROM`] up the unit of the
/// mantissa's last decimal.
pub fn last_digit(x: f64, decimals: usize) -> f64 {
    let decimals = decimals as i32;
    if x.is_finite() && x.abs() >= QUANTITY_SCIENTIFIC_FROM {
        10f64.powi(x.abs().log10().floor() as i32 - decimals)
    } else {
        10f64.powi(-decimals)
    }
}

/// A change `x` whose distance from the exact change is at most `error`,
/// written only to the digits the error leaves: "within error (±e)" when
/// `|x| ≤ error` (its sign is not known), else `x` in scientific notation
/// to the last digit above the error's, followed by `(±e)`.
///
/// # Example
/// ```
/// use snakeladder::internals::numbers::change_with_error;
/// assert_eq!(change_with_error(-2048.0, 3.4e6), "within error (±3.4e6)");
/// assert_eq!(change_with_error(2.5e9, 3.4e6), "+2.500e9 (±3.4e6)");
/// assert_eq!(change_with_error(-123.456, 0.05), "-1.2346e2 (±5.0e-2)");
/// assert_eq!(change_with_error(1.0, f64::INFINITY), "within error (±inf)");
/// ```
pub fn change_with_error(x: f64, error: f64) -> String {
    let e = if error.is_finite() {
        format!("{error:.1e}")
    } else {
        "inf".to_string()
    };
    if error.is_nan() || x.abs() <= error {
        return format!("within error (±{e})");
    }
    // Digits of x down to the error's leading digit.
    let digits = (x.abs().log10().floor() - error.log10().floor()).clamp(0.0, 16.0) as usize;
    format!("{x:+.digits$e} (±{e})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_figure_is_written_as_a_rounded_zero_or_with_exponent_zero() {
        for p in [1e-300, 1e-12, 4.9e-7, 9.99e-4, 1e-3, 0.5, 1.0] {
            for text in [probability(p, 6), percent(p, 2), tiny(p)] {
                assert!(!text.starts_with("0.000"), "{p}: {text}");
                assert!(
                    !text.ends_with("e0") && !text.contains("e0%"),
                    "{p}: {text}"
                );
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                assert!(!digits.trim_matches('0').is_empty(), "{p}: {text}");
            }
        }
        assert_eq!(probability(9.99e-4, 6), "9.99e-4");
        assert_eq!(probability(1e-3, 6), "0.001000");
        assert_eq!(probability(1e-3, 4), "0.00100");
        assert_eq!(probability(0.009_996, 4), "0.01000");
        assert_eq!(probability(0.012_34, 4), "0.0123");
        assert_eq!(probability(-0.004_21, 4), "-0.00421");
        // Never a negative zero (issue 27).
        for (x, d) in [(-0.0, 0), (-0.0, 4), (-4e-5, 4), (-0.004, 2), (-4e-7, 6)] {
            assert!(!fixed(x, d, false).starts_with('-'), "{x} {d}");
            assert!(fixed(x, d, true).starts_with('+'), "{x} {d}");
        }
        assert_eq!(tiny(0.25), "0.25");
    }

    #[test]
    fn rates_take_the_largest_prefix_below_them() {
        assert_eq!(rate(999.94, "games"), "999.9 games/s");
        assert_eq!(rate(1_000.0, "games"), "1.0 k games/s");
        assert_eq!(rate(12_345_678_901.0, "rolls"), "12.3 G rolls/s");
    }
}
