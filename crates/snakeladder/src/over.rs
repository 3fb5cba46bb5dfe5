//! An amount and the limit it passed, written so that the reader sees it
//! pass: "needs about 2.0 GiB, over the limit of 2.0 GiB" names no
//! reason. Each pair is written as its figures usually are, with more
//! decimals only when that reads the two the same, and at worst exactly.

/// `needed` and `limit` bytes, each in its own binary unit (`1.5 GiB`),
/// with as many decimals (one to six) as it takes for them to read
/// differently; in bytes (`2147483649 bytes`) when even six do not tell
/// them apart.
pub fn memory(needed: u64, limit: u64) -> (String, String) {
    for decimals in 1..=6 {
        let pair = (bytes(needed, decimals), bytes(limit, decimals));
        if pair.0 != pair.1 {
            return pair;
        }
    }
    (format!("{needed} bytes"), format!("{limit} bytes"))
}

/// `amount` bytes in the largest binary unit it reaches, to `decimals`
/// decimals; below a KiB in bytes (`512 B`).
fn bytes(amount: u64, decimals: usize) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = amount as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{amount} B")
    } else {
        format!("{value:.decimals$} {}", UNITS[unit])
    }
}

/// `needed` and `limit` in scientific notation (`2.00e10`), with as many
/// digits after the point (from `digits`) as it takes for them to read
/// differently: two distinct `f64`s always do by 16.
pub fn count(needed: f64, limit: f64, digits: usize) -> (String, String) {
    for digits in digits..=16 {
        let pair = (format!("{needed:.digits$e}"), format!("{limit:.digits$e}"));
        if pair.0 != pair.1 {
            return pair;
        }
    }
    (format!("{needed:e}"), format!("{limit:e}"))
}

/// `needed` and `limit` seconds, to a tenth (`10.0`), or to as many more
/// decimals (to the nanosecond) as it takes for them to read differently.
pub fn seconds(needed: f64, limit: f64) -> (String, String) {
    for decimals in 1..=9 {
        let pair = (
            format!("{needed:.decimals$}"),
            format!("{limit:.decimals$}"),
        );
        if pair.0 != pair.1 {
            return pair;
        }
    }
    (format!("{needed}"), format!("{limit}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_usual_when_they_differ() {
        assert_eq!(
            memory(3 << 29, 512 << 20),
            ("1.5 GiB".into(), "512.0 MiB".into())
        );
        assert_eq!(memory(40_000, 1000), ("39.1 KiB".into(), "1000 B".into()));
        assert_eq!(count(3e10, 2e10, 2), ("3.00e10".into(), "2.00e10".into()));
        assert_eq!(seconds(12.5, 10.0), ("12.5".into(), "10.0".into()));
    }

    #[test]
    fn close_figures_get_the_decimals_that_tell_them_apart() {
        let gib = 1u64 << 31;
        assert_eq!(
            memory(gib + (gib >> 12), gib),
            ("2.0005 GiB".into(), "2.0000 GiB".into())
        );
        assert_eq!(
            memory(gib + 1, gib),
            ("2147483649 bytes".into(), "2147483648 bytes".into())
        );
        assert_eq!(
            memory(163_216, 163_215),
            ("159.391 KiB".into(), "159.390 KiB".into())
        );
        assert_eq!(
            count(2.0001e10, 2e10, 2),
            ("2.0001e10".into(), "2.0000e10".into())
        );
        assert_eq!(seconds(10.04, 10.0), ("10.04".into(), "10.00".into()));
    }
}
