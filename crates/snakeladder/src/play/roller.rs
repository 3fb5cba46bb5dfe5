//! Where rolls come from: dice sources behind the [`Roller`] trait.
//!
//! A game never makes its own randomness: it is handed a `Roller`. Fair dice
//! and the loaded die own a [`Xoshiro256PlusPlus`] generator seeded from a
//! [`Seed`], so the same seed gives the same rolls on every platform and every
//! thread count; [`ScriptedDice`] hands out a fixed list of rolls for tests
//! and replays.

use crate::Dice;
use crate::model::dice::DiceSpec;
use crate::model::seed::Seed;
use crate::play::error::GameError;
use rand::Rng;
use rand::distr::Distribution;
use rand::distr::weighted::WeightedIndex;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A source of dice totals.
///
/// The game checks every total against the board's [`Dice`] and refuses one
/// they cannot roll, so a roller need not know the board.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, GameError, Roller, Square};
/// use std::sync::Arc;
///
/// /// Dice that always roll a six.
/// struct Sixes;
/// impl Roller for Sixes {
///     fn roll(&mut self) -> Result<u32, GameError> {
///         Ok(6)
///     }
/// }
/// let mut game = Game::new(Arc::new(Board::builtin_default()), ["Ana", "Bo"], Sixes, Finish::FirstWinner)?;
/// let first = game.roll()?;
/// assert_eq!(first.roll(), 6);
/// assert_eq!(first.end(), Square::new(6));
/// # Ok::<(), snakeladder::GameError>(())
/// ```
pub trait Roller {
    /// The next total.
    ///
    /// # Errors
    /// [`GameError`] when the source cannot give one (a scripted die ran out).
    fn roll(&mut self) -> Result<u32, GameError>;

    /// The seed that reproduces this source's rolls, if it has one.
    fn seed(&self) -> Option<Seed> {
        None
    }
}

impl<R: Roller + ?Sized> Roller for Box<R> {
    fn roll(&mut self) -> Result<u32, GameError> {
        (**self).roll()
    }
    fn seed(&self) -> Option<Seed> {
        (**self).seed()
    }
}

/// `count` fair dice of `faces` faces, summed; each die is sampled on its own
/// with `random_range(1..=faces)` from a seeded [`Xoshiro256PlusPlus`].
#[derive(Clone, Debug)]
struct FairDice {
    count: u32,
    faces: u32,
    seed: Seed,
    rng: Xoshiro256PlusPlus,
}

impl Roller for FairDice {
    fn roll(&mut self) -> Result<u32, GameError> {
        let mut total = 0u32;
        for _ in 0..self.count {
            total += self.rng.random_range(1..=self.faces);
        }
        Ok(total)
    }
    fn seed(&self) -> Option<Seed> {
        Some(self.seed)
    }
}

/// One loaded die: face `i` (1-based) comes up with probability
/// `weights[i-1] / sum(weights)`, sampled with rand's `WeightedIndex` from a
/// seeded [`Xoshiro256PlusPlus`].
#[derive(Clone, Debug)]
struct LoadedDie {
    index: WeightedIndex<f64>,
    seed: Seed,
    rng: Xoshiro256PlusPlus,
}

impl Roller for LoadedDie {
    fn roll(&mut self) -> Result<u32, GameError> {
        Ok(self.index.sample(&mut self.rng) as u32 + 1)
    }
    fn seed(&self) -> Option<Seed> {
        Some(self.seed)
    }
}

/// Dice made by the one validation every board's dice go through.
fn validated(spec: &DiceSpec) -> Result<Dice, GameError> {
    let mut problems = Vec::new();
    Dice::from_spec(spec, &mut problems).ok_or(GameError::BadDice { problems })
}

/// Seeded dice: the dice a board's rules name ([`SeededDice::for_dice`]),
/// or fair dice ([`SeededDice::fair`]) or one loaded die
/// ([`SeededDice::loaded`]) given directly. Fair dice are summed, each die
/// sampled on its own with `random_range(1..=faces)`; a loaded die's face
/// `i` (1-based) comes up with probability `weights[i-1] / sum(weights)`
/// (rand's `WeightedIndex`); both draw from a [`Xoshiro256PlusPlus`]
/// started from the seed, so one seed always rolls the same.
///
/// # Example
/// ```
/// use snakeladder::{Board, Roller, Seed, SeededDice};
/// let board = Board::builtin_default();
/// let mut dice = SeededDice::for_dice(board.rules().dice(), Seed::new(42));
/// assert!((1..=6).contains(&dice.roll()?));
/// assert_eq!(dice.seed(), Some(Seed::new(42)));
/// # Ok::<(), snakeladder::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SeededDice(Seeded);

/// The two kinds of seeded dice.
#[derive(Clone, Debug)]
enum Seeded {
    Fair(FairDice),
    Loaded(LoadedDie),
}

impl SeededDice {
    /// The dice of a validated rule set, driven from `seed`.
    pub fn for_dice(dice: &Dice, seed: Seed) -> SeededDice {
        SeededDice(match (dice.fair(), dice.weights()) {
            (Some((count, faces)), _) => Seeded::Fair(FairDice {
                count,
                faces,
                seed,
                rng: seed.generator(),
            }),
            (None, Some(weights)) => Seeded::Loaded(LoadedDie {
                // Validated weights: at least two, finite, non-negative, positive sum.
                index: WeightedIndex::new(weights)
                    .expect("a validated loaded die has usable weights"),
                seed,
                rng: seed.generator(),
            }),
            (None, None) => unreachable!("dice are either fair or loaded"),
        })
    }

    /// `count` fair dice of `faces` faces, summed, driven from `seed`: the
    /// dice of a board whose rules name them.
    ///
    /// # Errors
    /// [`GameError::BadDice`] when `count` is 0 or `faces` is below 2.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Roller, Seed, SeededDice};
    /// let mut a = SeededDice::fair(2, 6, Seed::new(7))?;
    /// let mut b = SeededDice::fair(2, 6, Seed::new(7))?;
    /// for _ in 0..10 {
    ///     let roll = a.roll()?;
    ///     assert!((2..=12).contains(&roll));
    ///     assert_eq!(roll, b.roll()?);
    /// }
    /// # Ok::<(), snakeladder::GameError>(())
    /// ```
    pub fn fair(count: u32, faces: u32, seed: Seed) -> Result<SeededDice, GameError> {
        let spec = DiceSpec {
            count: Some(i64::from(count)),
            faces: Some(i64::from(faces)),
            weights: None,
        };
        Ok(SeededDice::for_dice(&validated(&spec)?, seed))
    }

    /// One loaded die with the given face weights, driven from `seed`.
    ///
    /// # Errors
    /// [`GameError::BadDice`] when the weights are fewer than two, or any is
    /// negative or not finite, or all are zero.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Roller, Seed, SeededDice};
    /// let mut die = SeededDice::loaded(&[0.0, 1.0, 0.0], Seed::new(1))?;
    /// assert_eq!(die.roll()?, 2);
    /// # Ok::<(), snakeladder::GameError>(())
    /// ```
    pub fn loaded(weights: &[f64], seed: Seed) -> Result<SeededDice, GameError> {
        let spec = DiceSpec {
            weights: Some(weights.to_vec()),
            ..DiceSpec::default()
        };
        Ok(SeededDice::for_dice(&validated(&spec)?, seed))
    }
}

impl Roller for SeededDice {
    fn roll(&mut self) -> Result<u32, GameError> {
        match &mut self.0 {
            Seeded::Fair(d) => d.roll(),
            Seeded::Loaded(d) => d.roll(),
        }
    }
    fn seed(&self) -> Option<Seed> {
        match &self.0 {
            Seeded::Fair(d) => d.seed(),
            Seeded::Loaded(d) => d.seed(),
        }
    }
}

/// Dice that hand out a given list of rolls, then report
/// [`GameError::Exhausted`].
///
/// # Example
/// ```
/// use snakeladder::{GameError, Roller, ScriptedDice};
/// let mut dice = ScriptedDice::new([3, 6]);
/// assert_eq!(dice.roll(), Ok(3));
/// assert_eq!(dice.roll(), Ok(6));
/// assert_eq!(dice.roll(), Err(GameError::Exhausted { rolled: 2 }));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    rolls: Vec<u32>,
    next: usize,
}

impl ScriptedDice {
    /// Dice that roll `rolls` in order.
    pub fn new(rolls: impl IntoIterator<Item = u32>) -> ScriptedDice {
        ScriptedDice {
            rolls: rolls.into_iter().collect(),
            next: 0,
        }
    }

    /// Rolls not yet handed out.
    pub fn remaining(&self) -> usize {
        self.rolls.len() - self.next
    }
}

impl Roller for ScriptedDice {
    fn roll(&mut self) -> Result<u32, GameError> {
        let roll = *self
            .rolls
            .get(self.next)
            .ok_or(GameError::Exhausted { rolled: self.next })?;
        self.next += 1;
        Ok(roll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_dice_stay_in_range_and_hit_every_total() {
        let mut dice = SeededDice::fair(2, 3, Seed::new(9)).unwrap();
        let mut seen = [false; 7];
        for _ in 0..500 {
            let r = dice.roll().unwrap();
            assert!((2..=6).contains(&r), "{r}");
            seen[r as usize] = true;
        }
        assert_eq!(seen, [false, false, true, true, true, true, true]);
    }

    #[test]
    fn bad_dice_are_refused() {
        assert_eq!(
            SeededDice::fair(0, 6, Seed::new(1)).unwrap_err(),
            GameError::BadDice {
                problems: vec![crate::Problem::DiceCount { count: 0 }]
            }
        );
        assert!(SeededDice::fair(1, 1, Seed::new(1)).is_err());
        assert!(SeededDice::loaded(&[1.0], Seed::new(1)).is_err());
        assert!(SeededDice::loaded(&[0.0, 0.0], Seed::new(1)).is_err());
        assert!(SeededDice::loaded(&[1.0, -1.0], Seed::new(1)).is_err());
        assert!(SeededDice::loaded(&[1.0, f64::NAN], Seed::new(1)).is_err());
    }

    #[test]
    fn loaded_die_never_rolls_a_zero_weight_face() {
        let mut die = SeededDice::loaded(&[1.0, 0.0, 3.0], Seed::new(5)).unwrap();
        let rolls: Vec<u32> = (0..200).map(|_| die.roll().unwrap()).collect();
        assert!(rolls.iter().all(|&r| r == 1 || r == 3));
        assert!(rolls.contains(&1) && rolls.contains(&3));
    }

    #[test]
    fn different_seeds_give_different_streams() {
        let mut a = SeededDice::fair(1, 6, Seed::new(1)).unwrap();
        let mut b = SeededDice::fair(1, 6, Seed::new(2)).unwrap();
        let a: Vec<u32> = (0..20).map(|_| a.roll().unwrap()).collect();
        let b: Vec<u32> = (0..20).map(|_| b.roll().unwrap()).collect();
        assert_ne!(a, b);
    }
}
