//! How to write an amount of memory.

use std::fmt;

/// An amount of memory, printed with a binary unit (`1.5 GiB`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example the item's documentation gave while it was public.
    #[test]
    fn bytes_are_written_with_a_binary_unit() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
    }
}
