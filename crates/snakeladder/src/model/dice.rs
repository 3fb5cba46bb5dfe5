//! Dice: what a roll can total, and with what probability.

use crate::model::limits::{MAX_DICE, MAX_FACES, MAX_TOTALS};
use crate::model::problem::Problem;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

/// The dice as written in a board file: either `{"count": c, "faces": f}`
/// (c fair dice of f faces, summed; both default to one six-faced die) or
/// `{"weights": [w1, ..., wf]}` (one loaded die, face i with weight wi).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceSpec {
    /// Number of fair dice, summed (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// Faces of each fair die, numbered 1..=faces (default 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<i64>,
    /// Relative weights of the faces 1..=len of one loaded die.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<f64>>,
}

/// One total the dice can roll, with its probability (always positive).
/// The crate's own table; users see the pairs of [`Dice::outcomes`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Outcome {
    /// The total of the roll.
    pub total: u32,
    /// Its probability, in (0, 1].
    pub probability: f64,
}

/// What the dice are; kept so the effective rules can be written back out.
#[derive(Clone, Debug, PartialEq)]
enum DiceKind {
    Fair { count: u32, faces: u32 },
    Loaded { weights: Vec<f64> },
}

/// A validated dice set and the exact distribution of its total.
///
/// # Example
/// ```
/// use snakeladder::Board;
/// let board = Board::from_json_str(r#"{"squares": 30, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 6}}}"#)?;
/// let dice = board.rules().dice();
/// assert_eq!(dice.min_total(), 2);
/// assert_eq!(dice.max_total(), 12);
/// assert!((dice.probability(7) - 6.0 / 36.0).abs() < 1e-15);
/// # Ok::<(), snakeladder::BoardError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Dice {
    kind: DiceKind,
    outcomes: Vec<Outcome>,
}

impl Dice {
    /// Most dice in one set.
    pub const MAX_DICE: u32 = MAX_DICE;

    /// Most faces on one die (fair or loaded).
    pub const MAX_FACES: u32 = MAX_FACES;

    /// Most distinct totals a dice set may roll; it bounds the width of
    /// every row of the compiled chain.
    pub const MAX_TOTALS: u32 = MAX_TOTALS;

    /// Validates a spec, pushing every problem found onto `problems`.
    pub(crate) fn from_spec(spec: &DiceSpec, problems: &mut Vec<Problem>) -> Option<Dice> {
        match (&spec.weights, spec.count, spec.faces) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                problems.push(Problem::DiceMixed);
                None
            }
            (Some(weights), None, None) => Self::new_loaded(weights, problems),
            (None, count, faces) => {
                Self::new_fair(count.unwrap_or(1), faces.unwrap_or(6), problems)
            }
        }
    }

    fn new_fair(count: i64, faces: i64, problems: &mut Vec<Problem>) -> Option<Dice> {
        let before = problems.len();
        if count < 1 || count > i64::from(MAX_DICE) {
            problems.push(Problem::DiceCount { count });
        }
        if faces < 2 || faces > i64::from(MAX_FACES) {
            problems.push(Problem::DiceFaces { faces });
        }
        if problems.len() > before {
            return None;
        }
        let (count, faces) = (count as u32, faces as u32);
        let totals = u64::from(count) * u64::from(faces - 1) + 1;
        if totals > u64::from(MAX_TOTALS) {
            problems.push(Problem::DiceTooWide { totals });
            return None;
        }
        // Probabilities stay in [0, 1] throughout the convolution.
        let outcomes = fair_sum(count, faces, 1.0, 1.0 / f64::from(faces))
            .into_iter()
            .enumerate()
            .map(|(i, probability)| Outcome {
                total: count + i as u32,
                probability,
            })
            .collect();
        Some(Dice {
            kind: DiceKind::Fair { count, faces },
            outcomes,
        })
    }

    fn new_loaded(weights: &[f64], problems: &mut Vec<Problem>) -> Option<Dice> {
        let before = problems.len();
        if weights.len() < 2 || weights.len() > MAX_FACES as usize {
            problems.push(Problem::DiceFaces {
                faces: weights.len() as i64,
            });
        }
        for (face, &weight) in weights.iter().enumerate() {
            if !weight.is_finite() {
                problems.push(Problem::WeightNotFinite {
                    face: face as u32 + 1,
                });
            } else if weight < 0.0 {
                problems.push(Problem::WeightNegative {
                    face: face as u32 + 1,
                    weight,
                });
            }
        }
        if problems.len() > before {
            return None;
        }
        let sum: f64 = weights.iter().sum();
        if sum <= 0.0 {
            problems.push(Problem::WeightsAllZero);
            return None;
        }
        if !sum.is_finite() {
            problems.push(Problem::WeightsOverflow);
            return None;
        }
        for (face, &weight) in weights.iter().enumerate() {
            if weight > 0.0 && weight / sum < f64::MIN_POSITIVE {
                problems.push(Problem::WeightTooSmall {
                    face: face as u32 + 1,
                    weight,
                    total: sum,
                });
            }
        }
        if problems.len() > before {
            return None;
        }
        let outcomes = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0.0)
            .map(|(i, w)| Outcome {
                total: i as u32 + 1,
                probability: w / sum,
            })
            .collect();
        Some(Dice {
            kind: DiceKind::Loaded {
                weights: weights.to_vec(),
            },
            outcomes,
        })
    }

    /// Every total with positive probability and its probability, in
    /// increasing order of total: the same pairs as
    /// [`Dice::exact_outcomes`], in `f64`.
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    ///
    /// let json = r#"{"squares": 30, "rules": {"dice": {"count": 2, "faces": 6}, "overshoot": "win"}}"#;
    /// let board = Board::from_json_str(json)?;
    /// let outcomes: Vec<(u32, f64)> = board.rules().dice().outcomes().collect();
    /// assert_eq!(outcomes.len(), 11); // totals 2..=12
    /// let (_, seven) = outcomes.iter().find(|&&(total, _)| total == 7).unwrap();
    /// assert!((seven - 6.0 / 36.0).abs() < 1e-12);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn outcomes(&self) -> impl ExactSizeIterator<Item = (u32, f64)> + '_ {
        self.outcomes.iter().map(|o| (o.total, o.probability))
    }

    /// The table behind [`Dice::outcomes`], for the crate's own loops.
    pub(crate) fn rolls(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The probability of rolling `total` (0 when it cannot be rolled).
    pub fn probability(&self, total: u32) -> f64 {
        self.outcomes
            .iter()
            .find(|o| o.total == total)
            .map_or(0.0, |o| o.probability)
    }

    /// Whether `total` has positive probability.
    pub fn can_roll(&self, total: u32) -> bool {
        self.outcomes.iter().any(|o| o.total == total)
    }

    /// The smallest total with positive probability.
    pub fn min_total(&self) -> u32 {
        self.outcomes[0].total
    }

    /// The largest total with positive probability: the roll that `entry: six`
    /// asks for.
    pub fn max_total(&self) -> u32 {
        self.outcomes[self.outcomes.len() - 1].total
    }

    /// `Some((count, faces))` for fair dice, `None` for a loaded die.
    pub fn fair(&self) -> Option<(u32, u32)> {
        match self.kind {
            DiceKind::Fair { count, faces } => Some((count, faces)),
            DiceKind::Loaded { .. } => None,
        }
    }

    /// The weights of a loaded die, `None` for fair dice.
    pub fn weights(&self) -> Option<&[f64]> {
        match &self.kind {
            DiceKind::Fair { .. } => None,
            DiceKind::Loaded { weights } => Some(weights),
        }
    }

    /// The spec with every default filled in, as the effective rules show it.
    #[doc(hidden)]
    pub fn spec(&self) -> DiceSpec {
        match &self.kind {
            DiceKind::Fair { count, faces } => DiceSpec {
                count: Some(i64::from(*count)),
                faces: Some(i64::from(*faces)),
                weights: None,
            },
            DiceKind::Loaded { weights } => DiceSpec {
                weights: Some(weights.clone()),
                ..DiceSpec::default()
            },
        }
    }

    /// The exact distribution of the total, as fractions that sum to exactly 1,
    /// in the order of [`Dice::outcomes`].
    ///
    /// Fair dice give counts of face combinations over `faces^count`; a loaded
    /// die's weights are taken at their exact binary value (every finite `f64`
    /// is a fraction with a power-of-two denominator) and normalised.
    pub fn exact_outcomes(&self) -> Vec<(u32, BigRational)> {
        match &self.kind {
            DiceKind::Fair { count, faces } => {
                // Each face counts once: the ways to roll each total.
                let ways = fair_sum(*count, *faces, BigUint::one(), BigUint::one());
                let denominator = BigInt::from(BigUint::from(*faces).pow(*count));
                ways.into_iter()
                    .enumerate()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(i, w)| {
                        (
                            count + i as u32,
                            BigRational::new(BigInt::from(w), denominator.clone()),
                        )
                    })
                    .collect()
            }
            DiceKind::Loaded { weights } => {
                let exact: Vec<BigRational> = weights
                    .iter()
                    .map(|w| BigRational::from_float(*w).unwrap_or_else(BigRational::zero))
                    .collect();
                let sum = exact.iter().fold(BigRational::zero(), |a, b| a + b);
                exact
                    .into_iter()
                    .enumerate()
                    .filter(|(_, w)| !w.is_zero())
                    .map(|(i, w)| (i as u32 + 1, w / &sum))
                    .collect()
            }
        }
    }

    /// Largest relative gap between the `f64` and the exact distribution; used
    /// by tests and by the exact solver's self-check.
    pub fn exact_agreement(&self) -> f64 {
        self.exact_outcomes()
            .iter()
            .zip(&self.outcomes)
            .map(|((_, q), o)| {
                let q = q.to_f64().unwrap_or(f64::NAN);
                ((q - o.probability) / q).abs()
            })
            .fold(0.0, f64::max)
    }
}

/// The distribution of the sum of `count` fair dice of `faces` faces,
/// convolving one die at a time: element `i` is the weight of the total
/// `count + i`, starting from `start` for no dice and giving each face
/// `face` (a probability `1/faces`, or `1` to count the ways).
fn fair_sum<T>(count: u32, faces: u32, start: T, face: T) -> Vec<T>
where
    T: Clone + Zero + std::ops::Mul<Output = T> + std::ops::AddAssign,
{
    let mut dist = vec![start];
    for _ in 0..count {
        let mut next = vec![T::zero(); dist.len() + faces as usize - 1];
        for (i, p) in dist.iter().enumerate() {
            let share = p.clone() * face.clone();
            for slot in &mut next[i..i + faces as usize] {
                *slot += share.clone();
            }
        }
        dist = next;
    }
    dist
}

#[cfg(test)]
mod tests {
    use crate::Board;

    /// Each f64 probability of two dice is a sum of a few products of 1/6:
    /// a few ulps of 1 (2.2e-16 each) at most.
    const ROUNDING: f64 = 1e-15;

    /// A weight reads back as the very `f64` written (found by the property
    /// test: without serde_json's `float_roundtrip`, 1.9888777314421402 read
    /// as 1.98887773144214, one ulp off, and the exact distribution with it).
    #[test]
    fn loaded_weights_parse_exactly() {
        let b = Board::from_json_str(
            r#"{"squares": 10, "rules": {"dice": {"weights": [1.9888777314421402, 1]}}}"#,
        )
        .unwrap();
        let w = b.rules().dice().weights().unwrap();
        assert_eq!(w[0].to_bits(), 1.988_877_731_442_140_2_f64.to_bits());
    }

    /// Two fair dice: 1, 2, ..., 6, ..., 1 ways out of 36, exactly and as f64.
    #[test]
    fn two_dice_have_the_triangle_distribution() {
        let b = Board::from_json_str(
            r#"{"squares": 40, "rules": {"overshoot": "win", "dice": {"count": 2, "faces": 6}}}"#,
        )
        .unwrap();
        let dice = b.rules().dice();
        let ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];
        for ((total, p), w) in dice.outcomes().zip(ways) {
            assert!((p - f64::from(w) / 36.0).abs() < ROUNDING, "{total}: {p}");
        }
        let exact = dice.exact_outcomes();
        assert_eq!(exact.len(), 11);
        for ((total, q), w) in exact.iter().zip(ways) {
            assert_eq!(
                q,
                &num_rational::BigRational::new(w.into(), 36.into()),
                "{total}"
            );
        }
        assert!(dice.exact_agreement() < ROUNDING);
    }
}
