//! One vocabulary: the name, short name, unit and written form of every
//! figure a person reads, and the order the jump kinds are counted in.
//!
//! Every command and format (`analyze`, `simulate`, `check`, `diff`,
//! `--sensitivity`, `report`, `validate` and its policy, `tune`,
//! `generate`) names a figure from [`FIGURES`] and writes its value with
//! [`Figure::format`], so a reviewer meets one name and one unit for one
//! figure everywhere. The table lives in the core rather than the render
//! crate because the core's own messages (policy violations, the design
//! searches' errors, the labels of a diff of two boards) name
//! figures too. JSON keys are not names from this table: they are an API
//! and keep their spelling (`first_seat_advantage`, `use_probability`,
//! `p90`).
//!
//! # Example
//! ```
//! use snakeladder::internals::vocabulary::{FIRST_SEAT_ADVANTAGE, JUMP_USED, P90};
//! assert_eq!(FIRST_SEAT_ADVANTAGE.format(0.015606), "+1.561 pp");
//! assert_eq!(JUMP_USED.format(1.0 / 6.0), "16.67%");
//! assert_eq!(P90.name, "90th percentile");
//! assert_eq!(P90.short, "p90");
//! ```

use super::jump::JumpKind;
use super::numbers;

/// The unit a figure is measured in, which fixes how it is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A number of turns, fractional for an expectation: `39.5984`.
    Turns,
    /// A whole number of turns (a quantile, the shortest game): `73`.
    WholeTurns,
    /// A number of rounds (every player one turn): `26.51`.
    Rounds,
    /// A probability written as a percentage: `16.67%`.
    Percent,
    /// A difference of two probabilities in percentage points, signed:
    /// `+1.561 pp`.
    Points,
    /// An expected count per game: `0.1667`.
    Count,
    /// A chance of winning as a percentage with three decimals (a seat's
    /// odds differ in the third): `50.780%`.
    Chance,
}

impl Unit {
    /// The unit's symbol after a value, or its word.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Turns | Unit::WholeTurns => "turns",
            Unit::Rounds => "rounds",
            Unit::Percent | Unit::Chance => "%",
            Unit::Points => "pp",
            Unit::Count => "a game",
        }
    }
}

/// One figure: what it is called and how its value is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The figure's name in prose and table headings.
    pub name: &'static str,
    /// Its short name, where a line holds several figures (`p90 73`).
    pub short: &'static str,
    /// Its unit.
    pub unit: Unit,
}

impl Figure {
    /// The value written in the figure's unit: turns with four decimals,
    /// whole turns as integers, rounds with two, percentages with two,
    /// percentage points signed with three, counts with four.
    pub fn format(&self, value: f64) -> String {
        match self.unit {
            Unit::Turns => numbers::quantity(value, 4),
            Unit::WholeTurns => numbers::fixed(value, 0, false),
            Unit::Rounds => numbers::quantity(value, 2),
            Unit::Percent => numbers::percent(value, 2),
            Unit::Points => points(value),
            Unit::Count => numbers::probability(value, 4),
            Unit::Chance => numbers::percent(value, 3),
        }
    }

    /// The signed change of the figure between two values, in its unit:
    /// `+1.0800` turns, `+0.100 pp`, `+2.50` points of a percentage.
    pub fn format_change(&self, change: f64) -> String {
        match self.unit {
            Unit::Turns | Unit::Count => numbers::fixed(change, 4, true),
            Unit::WholeTurns => numbers::fixed(change, 0, true),
            Unit::Rounds => numbers::fixed(change, 2, true),
            Unit::Percent | Unit::Points | Unit::Chance => points(change),
        }
    }
}

/// A difference of probabilities in signed percentage points with three
/// decimals: `0.015606` is `+1.561 pp`.
pub fn points(difference: f64) -> String {
    let p = 100.0 * difference;
    // A difference below a thousandth of a point keeps its digits in
    // scientific form rather than reading "+0.000 pp" (or "-0.000 pp").
    if p == 0.0 {
        "0 pp".to_string()
    } else if p.is_finite() && p.abs() < 0.000_5 {
        format!("{p:+.2e} pp")
    } else {
        format!("{p:+.3} pp")
    }
}

/// The mean number of turns one player takes to finish.
pub const MEAN_TURNS: Figure = Figure {
    name: "mean turns",
    short: "mean",
    unit: Unit::Turns,
};

/// The median game length.
pub const MEDIAN: Figure = Figure {
    name: "median turns",
    short: "median",
    unit: Unit::WholeTurns,
};

/// The smallest t with P(T ≤ t) ≥ 0.9.
pub const P90: Figure = Figure {
    name: "90th percentile",
    short: "p90",
    unit: Unit::WholeTurns,
};

/// The smallest t with P(T ≤ t) ≥ 0.99.
pub const P99: Figure = Figure {
    name: "99th percentile",
    short: "p99",
    unit: Unit::WholeTurns,
};

/// The fewest turns a game can take.
pub const SHORTEST: Figure = Figure {
    name: "shortest game",
    short: "min",
    unit: Unit::WholeTurns,
};

/// P(seat 1 wins) − P(seat 2 wins).
pub const FIRST_SEAT_ADVANTAGE: Figure = Figure {
    name: "first-seat advantage",
    short: "seat 1 − seat 2",
    unit: Unit::Points,
};

/// The probability that a game uses a jump at least once.
pub const JUMP_USED: Figure = Figure {
    name: "used at least once",
    short: "used",
    unit: Unit::Percent,
};

/// The expected number of times a game uses a jump.
pub const JUMP_USES: Figure = Figure {
    name: "uses a game",
    short: "uses",
    unit: Unit::Count,
};

/// The expected number of times one player's token rests on a square in a
/// game.
pub const SQUARE_RESTS: Figure = Figure {
    name: "rests a game",
    short: "rests",
    unit: Unit::Count,
};

/// The probability that one player's token ever rests on a square.
pub const SQUARE_EVER_RESTS: Figure = Figure {
    name: "P(ever rests there)",
    short: "P(rest)",
    unit: Unit::Percent,
};

/// Expected rounds until the first winner.
pub const ROUNDS: Figure = Figure {
    name: "expected rounds",
    short: "rounds",
    unit: Unit::Rounds,
};

/// A seat's chance of winning a game of several players.
pub const WIN_CHANCE: Figure = Figure {
    name: "chance of winning",
    short: "wins",
    unit: Unit::Chance,
};

/// Every figure of the table.
pub const FIGURES: [Figure; 12] = [
    MEAN_TURNS,
    MEDIAN,
    P90,
    P99,
    SHORTEST,
    FIRST_SEAT_ADVANTAGE,
    JUMP_USED,
    JUMP_USES,
    SQUARE_RESTS,
    SQUARE_EVER_RESTS,
    ROUNDS,
    WIN_CHANCE,
];

/// The order the jump kinds are counted and listed in wherever both are
/// named: snakes, then ladders, as in the game's name.
pub const JUMP_ORDER: [JumpKind; 2] = [JumpKind::Snake, JumpKind::Ladder];

/// `n` and the noun, plural unless `n` is 1: `1 snake`, `9 ladders`.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The jump counts in [`JUMP_ORDER`], joined by `separator`:
/// `10 snakes, 9 ladders`.
pub fn jump_counts(snakes: usize, ladders: usize, separator: &str) -> String {
    JUMP_ORDER
        .iter()
        .map(|kind| match kind {
            JumpKind::Snake => count(snakes, "snake"),
            JumpKind::Ladder => count(ladders, "ladder"),
        })
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in FIGURES.iter().enumerate() {
            for b in &FIGURES[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.short, b.short);
            }
        }
    }

    #[test]
    fn values_in_their_units() {
        assert_eq!(FIRST_SEAT_ADVANTAGE.format(0.015_712), "+1.571 pp");
        assert_eq!(FIRST_SEAT_ADVANTAGE.format(-0.000_000_1), "-1.00e-5 pp");
        assert_eq!(FIRST_SEAT_ADVANTAGE.format(0.0), "0 pp");
        assert_eq!(JUMP_USED.format(0.166_667), "16.67%");
        assert_eq!(JUMP_USED.format_change(0.025), "+2.500 pp");
        assert_eq!(MEAN_TURNS.format(39.598_4), "39.5984");
        assert_eq!(P90.format(73.0), "73");
        assert_eq!(jump_counts(10, 9, ", "), "10 snakes, 9 ladders");
        assert_eq!(jump_counts(1, 1, " · "), "1 snake · 1 ladder");
    }
}
