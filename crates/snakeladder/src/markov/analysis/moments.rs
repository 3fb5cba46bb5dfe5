//! Mean and variance of the number of turns and of rolls (docs/figures.md §2–3).

use super::solve::Solver;
use crate::markov::chain::{Chain, Target};
use serde::Serialize;

/// Mean and variance of one count over a whole game, from every state.
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    /// Expected count from each state.
    pub mean: Vec<f64>,
    /// Variance of the count from each state.
    pub variance: Vec<f64>,
}

/// Mean and variance of a count from the start, as reported.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

// Without extra rolls a turn is one roll.
let plain = Analysis::new(&Board::from_json_str(SMALL)?, &Options::default())?;
assert_eq!(plain.rolls.mean, plain.turns.mean);
// A six rolls again: more rolls than turns.
let json = r#"{"squares": 20, "rules": {"extra_turn": {"on": 6}}}"#;
let bonus = Analysis::new(&Board::from_json_str(json)?, &Options::default())?;
assert!(bonus.rolls.mean > bonus.turns.mean);
assert!(bonus.rolls.variance > 0.0);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// Expected value.
    pub mean: f64,
    /// Variance.
    /// (JSON: `null` for infinity: a variance past the range of `f64`.)
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub variance: f64,
}

/// Turns until the finish, counting the finishing turn; also returns `N·t`
/// (the expected sum of the turns left over the turns of a game), which the
/// variance's error bound needs.
///
/// # Formula
/// `t = N·1`, `v = (2N − I)·t − t∘t`, solved with the factorisation rather
/// than forming N.
pub(crate) fn turns_and_visits(solver: &Solver) -> (Moments, Vec<f64>) {
    let t = solver.expected_steps();
    let nt = solver.solve(&t);
    let variance = nt
        .iter()
        .zip(&t)
        .map(|(nt, t)| (2.0 * nt - t - t * t).max(0.0))
        .collect();
    (Moments { mean: t, variance }, nt)
}

/// The rolls' mean and variance from the start with extra rolls ([`rolls`]);
/// `None` without them, when a turn is one roll and the rolls' figures are
/// the turns' as finally certified (recomputed exactly when the
/// floating-point ones could not be trusted), never the raw solve's.
pub(crate) fn rolls_from_start(
    board: &crate::Board,
    chain: &Chain,
    solver: &Solver,
) -> Option<Summary> {
    board.rules().extra_turn()?;
    let start = chain.start().get();
    let rolls = self::rolls(chain, solver);
    Some(Summary {
        mean: rolls.mean[start],
        variance: rolls.variance[start],
    })
}

/// Rolls until the finish (equal to turns without extra rolls).
///
/// # Formula
/// With `ρ(s)` the expected rolls of one turn from s and `m = N·ρ`, the
/// second moment is `w = N·(E[ρ²] + 2·E[ρ·m(end)])`, both expectations over
/// one turn from s with `m(finish) = 0`; the variance is `w − m∘m`. The
/// joint term uses the chain's rolls-weighted transitions
/// ([`Transition::rolls`](crate::markov::chain::Transition::rolls)).
pub fn rolls(chain: &Chain, solver: &Solver) -> Moments {
    let rho: Vec<f64> = chain.states().map(|s| chain.expected_rolls(s)).collect();
    let m = solver.solve(&rho);
    let second: Vec<f64> = chain
        .states()
        .map(|s| {
            let joint: f64 = chain
                .row(s)
                .map(|tr| match tr.to {
                    Target::State(e) => tr.rolls * m[e.get()],
                    Target::Finish => 0.0,
                })
                .sum();
            chain.expected_rolls_squared(s) + 2.0 * joint
        })
        .collect();
    let w = solver.solve(&second);
    let variance = w
        .iter()
        .zip(&m)
        .map(|(w, m)| (w - m * m).max(0.0))
        .collect();
    Moments { mean: m, variance }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn two_squares_is_geometric() {
        // Squares 2, one d6, exact finish, start 0: from 0 a 1 goes to 1, a 2
        // finishes, 3..6 stay. From 1 only a 1 finishes (p = 1/6).
        // t(1) = 6, Var(1) = (1 − p)/p² = 30.
        // t(0) = 1 + (1/6)·6 + (4/6)·t(0) → t(0) = 2·3 = 6.
        let b = Board::from_json_str(r#"{"squares": 2}"#).unwrap();
        let chain = Chain::compile(&b).unwrap();
        let solver = crate::markov::analysis::solve::factor(&chain).unwrap();
        let m = turns_and_visits(&solver).0;
        let one = chain.state_of(crate::Square::new(1)).unwrap();
        assert!((m.mean[one.get()] - 6.0).abs() < 1e-12);
        assert!((m.variance[one.get()] - 30.0).abs() < 1e-10);
        assert!((m.mean[chain.start().get()] - 6.0).abs() < 1e-12);
        let r = rolls(&chain, &solver);
        assert!((r.mean[0] - m.mean[0]).abs() < 1e-12);
        assert!((r.variance[0] - m.variance[0]).abs() < 1e-9);
    }
}
