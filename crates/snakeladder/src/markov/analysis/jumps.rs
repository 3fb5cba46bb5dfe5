//! Per-jump figures (docs/figures.md §6): expected uses, the probability of using a
//! jump at least once, and the mean game length without it.

use super::solve::Solver;
use crate::markov::chain::{self, Chain, Target};
use crate::{Board, BoardSpec, JumpKind, Square, markov::tolerance};
use serde::Serialize;

/// The figures of one jump, from the start.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct JumpFigures {
    /// Where it starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// Ladder or snake.
    pub kind: JumpKind,
    /// Expected number of uses in one player's game.
    pub expected_uses: f64,
    /// Probability of using it at least once.
    pub use_probability: f64,
    /// Mean turns of the game if this jump were removed (its start becoming
    /// an ordinary square); `None` when the game without it may never end.
    pub mean_turns_without: Option<f64>,
}

/// States times jumps from which [`figures`] solves the jumps on every
/// core: about a millisecond of solves, where handing them out costs
/// microseconds.
const PARALLEL_SIZE: f64 = 1e6;

/// Figures of every jump, in board order.
///
/// `visits` is row s₀ of N, `turns` the expected turns from each state.
pub fn figures(
    board: &Board,
    chain: &Chain,
    solver: &Solver,
    visits: &[f64],
    turns: &[f64],
) -> Vec<JumpFigures> {
    let jumps = board.jumps();
    let n = chain.len();
    // u[a][s]: expected uses of jump a in one turn from s.
    let mut uses = vec![vec![0.0; n]; jumps.len()];
    for s in chain.states() {
        for u in chain.jump_uses(s).iter() {
            uses[u.jump as usize][s.get()] = u.expected;
        }
    }
    let start = chain.start().get();
    let one_roll = board.rules().extra_turn().is_none();
    let parallel = (n as f64) * (jumps.len() as f64) >= PARALLEL_SIZE;
    let expected: Vec<f64> = uses
        .iter()
        .map(|u| visits.iter().zip(u).map(|(v, u)| v * u).sum())
        .collect();
    // The solves of the one-roll figures below: a small chain's all at
    // once (the same digits as one by one, fewer passes over the factors);
    // a large chain's one by one, each jump on its own core.
    let mut solved: Vec<Option<Vec<f64>>> = vec![None; jumps.len()];
    if one_roll && !parallel {
        let wanted: Vec<usize> = (0..jumps.len()).filter(|&a| expected[a] != 0.0).collect();
        let rhs: Vec<&[f64]> = wanted.iter().map(|&a| uses[a].as_slice()).collect();
        for (a, z) in wanted.into_iter().zip(solver.solve_many(&rhs)) {
            solved[a] = Some(z);
        }
    }
    let figure = |(a, jump): (usize, &crate::Jump)| {
        let u = &uses[a];
        let expected_uses = expected[a];
        let (use_probability, mean_turns_without) = if expected_uses == 0.0 {
            (0.0, Some(turns[start]))
        } else if one_roll {
            // One move a turn: every use of the jump ends the turn on the
            // same square (its end, or its chain's end), so uses renew.
            let alone;
            let z = match &solved[a] {
                Some(z) => z,
                None => {
                    alone = solver.solve(u);
                    &alone
                }
            };
            let end = end_after(board, chain, a, u);
            let after = match end {
                Target::State(e) => z[e.get()],
                Target::Finish => 0.0,
            };
            let p = expected_uses / (1.0 + after);
            let without = without_one_move(board, chain, a, z, end, turns)
                .unwrap_or_else(|| recompiled_mean(board, a));
            (p, without)
        } else {
            (
                absorbed(board, chain, a).unwrap_or(f64::NAN),
                recompiled_mean(board, a),
            )
        };
        JumpFigures {
            from: jump.from(),
            to: jump.to(),
            kind: jump.kind(),
            expected_uses,
            use_probability: use_probability.clamp(0.0, 1.0),
            mean_turns_without,
        }
    };
    // Each jump is one solve with the shared factorisation, independent of
    // the others: on a large chain they are spread over every core, and
    // `collect` keeps board order, so the figures are the same on any
    // number of threads.
    if parallel {
        use rayon::prelude::*;
        jumps.par_iter().enumerate().map(figure).collect()
    } else {
        jumps.iter().enumerate().map(figure).collect()
    }
}

/// Where a move that takes jump `a` ends (one move a turn): found from an
/// actual move of the chain.
fn end_after(board: &Board, chain: &Chain, a: usize, u: &[f64]) -> Target {
    for s in chain.states().filter(|s| u[s.get()] > 0.0) {
        for o in board.rules().dice().outcomes() {
            let step = board.roll_end(chain.square(s), 0, o.total);
            if step.walk.takes(board, a) {
                return match chain.state_of(step.end) {
                    Some(e) => Target::State(e),
                    None => Target::Finish,
                };
            }
        }
    }
    unreachable!("a jump with positive expected uses is taken by some move")
}

/// The probability of taking jump `a` at least once, with `a` made
/// absorbing: `(I − Q_a)⁻¹·hit` at the start (the general form, for extra
/// rolls). `None` if the modified system is singular.
fn absorbed(board: &Board, chain: &Chain, a: usize) -> Option<f64> {
    let avoiding = chain::avoiding(board, chain, a);
    let solver = Solver::from_entries(chain.len(), avoiding.entries).ok()?;
    Some(solver.solve(&avoiding.hit)[chain.start().get()])
}

/// Mean turns without jump `a`, when each turn is one move, from the
/// existing factorisation: the start of `a` becomes a new state f, and every
/// move that took `a` now ends on f instead of on `end`. That is a rank-one
/// change of `I − Q` (column `end` loses `u`) bordered by f's row and column;
/// Sherman–Morrison gives the old states' means as `α + β·τ` with
/// `α = t − z·t(end)/(1 + z(end))`, `β = z/(1 + z(end))`, `z = N·u`, and f's
/// own equation `τ = 1 + Q_f·(α + β·τ) + Q_f(f)·τ` fixes `τ`.
///
/// `None` when f's moves reach a square that is not yet a state (the caller
/// recompiles).
fn without_one_move(
    board: &Board,
    chain: &Chain,
    a: usize,
    z: &[f64],
    end: Target,
    t: &[f64],
) -> Option<Option<f64>> {
    let from = board.jumps()[a].from();
    // f's row on the board without `a`.
    let mut to_f = 0.0;
    let mut row: Vec<(usize, f64)> = Vec::new();
    for o in board.rules().dice().outcomes() {
        let step = board.roll_end(from, 0, o.total);
        if step.walk.takes(board, a) || step.end == from {
            to_f += o.probability;
        } else if !step.finished {
            row.push((chain.state_of(step.end)?.get(), o.probability));
        }
    }
    let (alpha, beta): (Vec<f64>, Vec<f64>) = match end {
        Target::State(e) => {
            let d = 1.0 + z[e.get()];
            let t_end = t[e.get()];
            t.iter()
                .zip(z)
                .map(|(t, z)| (t - z * t_end / d, z / d))
                .unzip()
        }
        Target::Finish => (t.to_vec(), z.to_vec()),
    };
    let qa: f64 = row.iter().map(|(e, p)| p * alpha[*e]).sum();
    let qb: f64 = row.iter().map(|(e, p)| p * beta[*e]).sum();
    let denominator = 1.0 - to_f - qb;
    if denominator <= tolerance::SINGULAR_PIVOT {
        return Some(None);
    }
    let tau = (1.0 + qa) / denominator;
    let s0 = chain.start().get();
    Some(Some(alpha[s0] + beta[s0] * tau))
}

/// Mean turns of the board with jump `a` removed, by recompiling it; `None`
/// when that board is not valid or its game may never end.
fn recompiled_mean(board: &Board, a: usize) -> Option<f64> {
    let jump = board.jumps()[a];
    let mut spec: BoardSpec = board.spec();
    let pair = [i64::from(jump.from().get()), i64::from(jump.to().get())];
    spec.ladders.retain(|j| *j != pair);
    spec.snakes.retain(|j| *j != pair);
    let smaller = Board::from_spec(&spec).ok()?;
    super::mean_turns(&smaller).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_mean_without_a_jump_matches_recompiling() {
        let board = Board::builtin_default();
        let chain = Chain::compile(&board).unwrap();
        let solver = Solver::new(&chain).unwrap();
        let t = solver.solve(&vec![1.0; chain.len()]);
        let mut e = vec![0.0; chain.len()];
        e[chain.start().get()] = 1.0;
        let visits = solver.solve_transpose(&e);
        let figures = figures(&board, &chain, &solver, &visits, &t);
        for (a, f) in figures.iter().enumerate() {
            let slow = recompiled_mean(&board, a).unwrap();
            let fast = f.mean_turns_without.unwrap();
            assert!(
                ((fast - slow) / slow).abs() < 1e-10,
                "jump {a}: {fast} vs {slow}"
            );
            // The renewal form of P(use) is the absorbing chain's answer.
            let absorbing = absorbed(&board, &chain, a).unwrap();
            assert!((f.use_probability - absorbing).abs() < 1e-14, "jump {a}");
        }
    }
}
