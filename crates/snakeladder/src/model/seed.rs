//! The seed of every random generator in the crate: dice, simulations and
//! random layouts all start from a [`Seed`], so the same seed gives the same
//! numbers on every platform.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The seed of a generator: not a count, not a square.
///
/// # Example
/// ```
/// use snakeladder::Seed;
/// let seed: Seed = "42".parse()?;
/// assert_eq!(seed, Seed::new(42));
/// assert_eq!(seed.to_string(), "42");
/// # Ok::<(), std::num::ParseIntError>(())
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seed(u64);

impl Seed {
    /// The seed with the given value.
    pub const fn new(value: u64) -> Seed {
        Seed(value)
    }

    /// The seed's value.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The pinned generator this seed starts: `Xoshiro256PlusPlus::seed_from_u64`.
    pub fn generator(self) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(self.0)
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Seed {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Seed, Self::Err> {
        s.parse().map(Seed)
    }
}
