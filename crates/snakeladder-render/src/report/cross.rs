//! The cross-check section of a report: a seeded simulation of the board
//! beside the exact figures, each estimate with its standard error, and the
//! verdict of [`CheckReport::compare`](snakeladder::check::CheckReport::compare) on every figure it compares.

use crate::vocabulary::{Figure, JUMP_USES, MEAN_TURNS, ROUNDS, Unit, WIN_CHANCE};
use snakeladder::Analysis;
use snakeladder::check::{self, CheckReport};
use snakeladder::simulate::{self, SimulateError, SimulationConfig, SimulationReport};
use snakeladder::{Board, Seed};

/// Why a report cannot carry a cross-check.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CrossCheckError {
    /// The simulation could not run (e.g. too many games).
    #[error(transparent)]
    Simulate(#[from] SimulateError),
    /// The analysis left figures out (a large board): there is nothing
    /// exact to hold every simulated figure to.
    #[error(
        "the analysis skipped some exact figures ({skipped}), so there is nothing to compare the simulation with"
    )]
    Incomplete {
        /// The figures skipped, as listed.
        skipped: String,
    },
}

/// A simulation of the board and its comparison with the exact analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossCheck {
    /// What the simulation measured, each figure with its standard error.
    pub simulation: SimulationReport,
    /// Every comparison and the verdict.
    pub check: CheckReport,
}

impl CrossCheck {
    /// Simulates `games` games of `board` from `seed`, with as many players
    /// as the largest count `analysis` gives seat odds for, and compares
    /// every figure with `analysis`.
    ///
    /// # Errors
    /// [`CrossCheckError::Incomplete`] when the analysis skipped figures;
    /// [`CrossCheckError::Simulate`] when the simulation cannot run.
    pub fn run(
        board: &Board,
        analysis: &Analysis,
        games: u64,
        seed: Seed,
    ) -> Result<CrossCheck, CrossCheckError> {
        if !analysis.skipped.is_empty() {
            let skipped: Vec<String> = analysis
                .skipped
                .iter()
                .map(|s| s.figure.to_string())
                .collect();
            return Err(CrossCheckError::Incomplete {
                skipped: skipped.join("; "),
            });
        }
        let players = analysis.players.iter().map(|p| p.count).max().unwrap_or(1);
        let config = SimulationConfig::new(games, seed)?.with_players(players)?;
        let simulation = simulate::simulate(board, &config)?;
        let check = check::CheckReport::compare(analysis, &simulation);
        Ok(CrossCheck { simulation, check })
    }

    /// The rows of the section: figure, exact, simulated ± standard error,
    /// verdict. The main figures only; `snakeladder check` lists every one.
    pub(super) fn rows(&self, a: &Analysis) -> Vec<Vec<String>> {
        let sim = &self.simulation;
        let mut rows = Vec::new();
        // Each figure written in its unit, as every other table writes it
        // (a seat's chance as a percentage, rounds with two decimals); the
        // standard error with the digits it needs, in the same unit.
        let mut row =
            |name: &str, figure: Figure, exact: f64, est: f64, se: f64, compared: &str| {
                let verdict = match self.check.verdict(compared) {
                    Ok(c) if c.agrees => {
                        format!("agrees ({:.2} ≤ {:.2})", c.statistic, c.threshold)
                    }
                    Ok(c) => format!("DIFFERS ({:.2} > {:.2})", c.statistic, c.threshold),
                    Err(why) => why,
                };
                let spread = match figure.unit {
                    Unit::Percent | Unit::Chance | Unit::Points => crate::numbers::percent(se, 3),
                    _ => super::text::probability(se),
                };
                rows.push(vec![
                    name.to_string(),
                    figure.format(exact),
                    figure.format(est),
                    format!("± {spread}"),
                    verdict,
                ]);
            };
        row(
            MEAN_TURNS.name,
            MEAN_TURNS,
            a.turns.mean,
            sim.turns.mean,
            sim.turns.std_error,
            CheckReport::MEAN_TURNS,
        );
        if sim.has_extra_rolls {
            row(
                "mean rolls",
                MEAN_TURNS,
                a.rolls.mean,
                sim.rolls.mean,
                sim.rolls.std_error,
                CheckReport::MEAN_ROLLS,
            );
        }
        if let (Some(game), Some(exact)) = (
            sim.players.first().filter(|g| g.count > 1),
            a.players
                .iter()
                .find(|p| sim.players.first().is_some_and(|g| g.count == p.count)),
        ) {
            for (seat, (&w, (&est, &se))) in exact
                .win_probability
                .iter()
                .zip(
                    game.win_probability
                        .iter()
                        .zip(&game.win_probability_std_error),
                )
                .enumerate()
            {
                let name = CheckReport::seat_wins(seat + 1);
                row(
                    &format!("seat {} of {}: {}", seat + 1, game.count, WIN_CHANCE.name),
                    WIN_CHANCE,
                    w,
                    est,
                    se,
                    &name,
                );
            }
            row(
                ROUNDS.name,
                ROUNDS,
                exact.expected_rounds,
                game.expected_rounds,
                game.expected_rounds_std_error,
                CheckReport::MEAN_ROUNDS,
            );
        }
        // The most used jumps, in board order; `check` compares them all.
        let mut jumps: Vec<_> = a.jumps.iter().zip(&sim.jumps).collect();
        jumps.sort_by(|x, y| y.0.expected_uses.total_cmp(&x.0.expected_uses));
        jumps.truncate(super::CHART_JUMPS);
        jumps.sort_by_key(|(j, _)| j.from);
        for (j, est) in jumps {
            let name = format!("{} {}→{}", j.kind, j.from, j.to);
            row(
                &format!("{name}: {}", JUMP_USES.name),
                JUMP_USES,
                j.expected_uses,
                est.expected_uses,
                est.expected_uses_std_error,
                &CheckReport::jump_uses(&name),
            );
        }
        rows
    }

    /// One sentence: what was simulated and whether everything agrees.
    pub(super) fn summary(&self) -> String {
        let c = &self.check;
        let failed = c.failures().count();
        let verdict = if c.passed {
            format!("all {} comparisons agree", c.comparisons.len())
        } else {
            format!("{failed} of {} comparisons DISAGREE", c.comparisons.len())
        };
        format!(
            "{} simulated games (seed {}, {} player{}) beside the exact figures: {verdict} at a family-wise error rate of {:e} ({} figures too rare to compare). Each estimate is shown with its standard error; snakeladder check lists every comparison.",
            c.games,
            c.seed,
            self.simulation.players.first().map_or(1, |g| g.count),
            if self.simulation.players.first().map_or(1, |g| g.count) == 1 {
                ""
            } else {
                "s"
            },
            c.family_error_rate,
            c.skipped.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakeladder::Options;

    /// Every row of the section carries the verdict `check` gives the same
    /// figure for the same seed: a comparison's when it was made, else why
    /// it was not (issue 27: every row read "too rare to compare" above
    /// "all comparisons agree").
    #[test]
    fn each_row_has_the_verdict_of_check() {
        let board = Board::builtin_default();
        let analysis = Analysis::new(&board, &Options::default()).unwrap();
        let cross = CrossCheck::run(&board, &analysis, 100_000, Seed::new(7)).unwrap();
        let rows = cross.rows(&analysis);
        assert!(rows.len() > 5);
        let mut compared = 0;
        for row in &rows {
            let verdict = &row[4];
            assert_ne!(verdict, "not compared", "{row:?}");
            if verdict.starts_with("agrees") || verdict.starts_with("DIFFERS") {
                compared += 1;
            }
        }
        // The mean, every seat, the rounds and the most used jumps are all
        // common enough to compare at 100,000 games.
        assert!(rows[0][4].starts_with("agrees"), "{:?}", rows[0]);
        assert_eq!(compared, rows.len(), "{rows:?}");
        let mean = cross.check.verdict(CheckReport::MEAN_TURNS).unwrap();
        assert_eq!(
            rows[0][4],
            format!("agrees ({:.2} ≤ {:.2})", mean.statistic, mean.threshold)
        );
    }
}
