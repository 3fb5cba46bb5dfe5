//! How to read an amount of memory from the command line, and the default
//! memory limit (the core's, which the Python package uses too).

/// The default memory limit of every command: half the machine's memory,
/// or 4 GiB when it cannot be read ([`snakeladder::Limits::machine_max_memory`],
/// shared with the Python package so that both default alike).
pub fn default_limit() -> u64 {
    snakeladder::Limits::machine_max_memory()
}

/// Parses an amount such as `8G`, `512M`, `1.5GiB`, `100000` (bytes).
///
/// # Errors
/// [`ParseBytesError`] naming the text.
pub fn parse_bytes(text: &str) -> Result<u64, ParseBytesError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|_| ParseBytesError::Number {
        text: text.to_string(),
    })?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        other => {
            return Err(ParseBytesError::Unit {
                unit: other.to_string(),
                text: text.to_string(),
            });
        }
    };
    let bytes = number * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(ParseBytesError::Range {
            text: text.to_string(),
        });
    }
    Ok(bytes as u64)
}

/// Why a memory amount could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseBytesError {
    /// The number part is missing or malformed.
    #[error("`{text}` is not an amount of memory (say 8G, 512M or 100000)")]
    Number {
        /// The text given.
        text: String,
    },
    /// The unit is not one of B, K, M, G, T (with optional `B`/`iB`).
    #[error("unknown unit `{unit}` in `{text}` (use K, M, G or T)")]
    Unit {
        /// The unit found.
        unit: String,
        /// The text given.
        text: String,
    },
    /// Less than one byte, or more than 2^64.
    #[error("`{text}` is not a usable amount of memory")]
    Range {
        /// The text given.
        text: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts() {
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("lots").is_err());
    }
}

/// The largest `--max-work`: 10¹⁸ multiply-adds, some thirty years of one
/// core. Anything larger is a typo, and every work count stays exact in a
/// `u64`.
pub const MAX_WORK_LIMIT: f64 = 1e18;

/// Parses a `--max-work` value: a number of multiply-adds from 0 to
/// [`MAX_WORK_LIMIT`] (`2e10`, `5000000`). Infinity, NaN, negative and
/// larger values are refused with a message saying what is allowed.
///
/// # Errors
/// A message naming the text and the allowed range.
///
/// # Example
/// ```
/// assert_eq!(parse_work("2e10"), Ok(2e10));
/// assert!(parse_work("inf").is_err());
/// assert!(parse_work("nan").is_err());
/// assert!(parse_work("1e30").is_err());
/// ```
pub fn parse_work(text: &str) -> Result<f64, String> {
    let refuse = || format!("`{text}` is not a number of multiply-adds from 0 to 1e18 (e.g. 2e10)");
    let work: f64 = text.trim().parse().map_err(|_| refuse())?;
    if work.is_finite() && (0.0..=MAX_WORK_LIMIT).contains(&work) {
        Ok(work)
    } else {
        Err(refuse())
    }
}

#[cfg(test)]
mod work_tests {
    use super::parse_work;

    #[test]
    fn work_limits_are_finite_and_in_range() {
        assert_eq!(parse_work("2e10"), Ok(2e10));
        assert_eq!(parse_work("0"), Ok(0.0));
        for bad in ["inf", "nan", "1e30", "-5", "lots"] {
            assert!(parse_work(bad).is_err(), "{bad}");
        }
    }
}
