//! The value parsers of options that read more than a number: the design
//! commands' bands, advantages and jumps, and `diff`'s board arguments.
//! This file uses only the standard library and the core crate, so the
//! fuzz targets (fuzz/fuzz_targets/options.rs, diff_source.rs) compile the
//! very same code.

use snakeladder::design::Target;

/// A band of mean turns as written, `A:B`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Band {
    min: f64,
    max: f64,
}

/// Parses `A:B` into a band (clap value parser).
pub fn parse_band(text: &str) -> Result<Band, String> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| format!("'{text}' is not a band A:B of mean turns, e.g. 30:35"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("'{s}' in '{text}' is not a number of turns"))
    };
    let band = Band {
        min: number(a)?,
        max: number(b)?,
    };
    Target::new(band.min, band.max).map_err(|e| e.to_string())?;
    Ok(band)
}

impl Band {
    /// The lower end, in mean turns.
    pub fn min(self) -> f64 {
        self.min
    }

    /// The upper end, in mean turns.
    pub fn max(self) -> f64 {
        self.max
    }
}

/// Parses a probability or a share of games, as every option that takes
/// one writes it: a number (`0.02`) or a percentage (`2%`). The range is
/// the caller's to check, so that each names its own.
pub fn parse_share(text: &str) -> Result<f64, String> {
    let (number, percent) = match text.trim().strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (text.trim(), false),
    };
    let value = number
        .parse::<f64>()
        .map_err(|_| format!("'{text}' is not a number or a percentage (0.02 or 2%)"))?;
    // Divided, not multiplied by 0.01: `7%` is then the same double as `0.07`.
    Ok(if percent { value / 100.0 } else { value })
}

/// Parses an advantage: a difference of probabilities (`0.02`) or a
/// percentage (`2%`).
pub fn parse_advantage(text: &str) -> Result<f64, String> {
    let p = parse_share(text)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("'{text}' is not between 0 and 1 (0% and 100%)"));
    }
    Ok(p)
}

/// Parses a jump to keep: `48→26`, `48->26` or `48:26`.
pub fn parse_jump(text: &str) -> Result<(u32, u32), String> {
    let t = text.trim();
    let (a, b) = t
        .split_once('→')
        .or_else(|| t.split_once("->"))
        .or_else(|| t.split_once(':'))
        .ok_or_else(|| format!("'{text}' is not a jump START→END, e.g. 48→26"))?;
    let square = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}' in '{text}' is not a square"))
    };
    Ok((square(a)?, square(b)?))
}

/// Where a board argument of `diff` is read from.
#[derive(Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// A file, or `-` for standard input.
    Path(&'a str),
    /// `REV:path`, read from git's object database.
    Git {
        /// The revision, never starting with `-`.
        rev: &'a str,
        /// The path after the colon.
        file: &'a str,
    },
}

/// Reads a board argument: a path that exists (even with a colon in its
/// name) or `-`, else `REV:path` when both sides are non-empty, else a
/// path (whose error then names the missing file).
///
/// # Errors
/// A message when the revision starts with `-`: git would read it as an
/// option (`--output=FILE` writes a file), so it can never be one.
pub fn parse_source<'a>(
    source: &'a str,
    exists: impl Fn(&str) -> bool,
) -> Result<Source<'a>, String> {
    if source == "-" || exists(source) {
        return Ok(Source::Path(source));
    }
    match source.split_once(':') {
        Some((rev, file)) if !rev.is_empty() && !file.is_empty() => {
            if rev.starts_with('-') {
                return Err(format!(
                    "no such file, and `{rev}` cannot be a git revision: a revision never starts with `-`"
                ));
            }
            Ok(Source::Git { rev, file })
        }
        _ => Ok(Source::Path(source)),
    }
}

/// Parses a `--time-limit`: seconds (`90`, `2.5`), or a number with `s`,
/// `m` or `h` (`30s`, `5m`, `1h`), from a millisecond to a year.
///
/// # Errors
/// A message naming the text and what is allowed.
pub fn parse_time_limit(text: &str) -> Result<std::time::Duration, String> {
    let refuse =
        || format!("`{text}` is not a time limit (say 90, 30s, 5m or 1h; from 0.001 s to a year)");
    let t = text.trim();
    let (number, scale) = match t.char_indices().last() {
        Some((i, 's')) => (&t[..i], 1.0),
        Some((i, 'm')) => (&t[..i], 60.0),
        Some((i, 'h')) => (&t[..i], 3600.0),
        _ => (t, 1.0),
    };
    let seconds: f64 = number.trim().parse::<f64>().map_err(|_| refuse())? * scale;
    if seconds.is_finite() && (0.001..=366.0 * 86_400.0).contains(&seconds) {
        Ok(std::time::Duration::from_secs_f64(seconds))
    } else {
        Err(refuse())
    }
}

#[cfg(test)]
mod tests {
    use super::{Source, parse_source, parse_time_limit};

    #[test]
    fn a_revision_never_starts_with_a_dash() {
        let none = |_: &str| false;
        for evil in [
            "--output=victim.txt:a.json",
            "--pretty=format:x:a.json",
            "-p:a.json",
        ] {
            assert!(parse_source(evil, none).is_err(), "{evil}");
        }
        assert_eq!(
            parse_source("HEAD~1:boards/a.json", none),
            Ok(Source::Git {
                rev: "HEAD~1",
                file: "boards/a.json"
            })
        );
        assert_eq!(parse_source("-", none), Ok(Source::Path("-")));
        assert_eq!(parse_source("a.json", none), Ok(Source::Path("a.json")));
        assert_eq!(parse_source(":a.json", none), Ok(Source::Path(":a.json")));
        // A file that exists is a file, whatever its name.
        assert_eq!(
            parse_source("--x:a.json", |_| true),
            Ok(Source::Path("--x:a.json"))
        );
    }

    #[test]
    fn time_limits_are_finite_and_in_range() {
        assert_eq!(
            parse_time_limit("1h"),
            Ok(std::time::Duration::from_secs(3600))
        );
        assert_eq!(
            parse_time_limit("2.5"),
            Ok(std::time::Duration::from_millis(2500))
        );
        assert_eq!(
            parse_time_limit("90"),
            Ok(std::time::Duration::from_secs(90))
        );
        assert_eq!(
            parse_time_limit("5m"),
            Ok(std::time::Duration::from_secs(300))
        );
        assert!(parse_time_limit("-1s").is_err());
        for bad in ["inf", "nan", "-1", "0", "1e30", "5x", ""] {
            assert!(parse_time_limit(bad).is_err(), "{bad}");
        }
    }
}
