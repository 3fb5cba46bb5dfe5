//! Per-jump figures (docs/figures.md §6): expected uses, the probability of using a
//! jump at least once, and the mean game length without it.

use super::solve::{self, Solver};
use crate::markov::chain::{self, Chain, Target};
use crate::{Board, BoardSpec, JumpKind, Square, markov::tolerance};
use serde::Serialize;

/// The figures of one jump, from the start.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default())?;
let ladder = &analysis.jumps[0]; // 3→11
assert_eq!((ladder.from.get(), ladder.to.get()), (3, 11));
// Reached from the start by 3, 1 + 2, 2 + 1 or 1 + 1 + 1: 49/216.
assert!((ladder.use_probability - 49.0 / 216.0).abs() < 1e-12);
// Without the ladder games are longer.
assert!(ladder.mean_turns_without.unwrap() > analysis.turns.mean);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
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
    let figure = |(a, jump): (usize, &crate::Jump)| {
        let u = &uses[a];
        let expected_uses: f64 = visits.iter().zip(u).map(|(v, u)| v * u).sum();
        let (use_probability, mean_turns_without) = if expected_uses == 0.0 {
            (0.0, Some(turns[start]))
        } else if one_roll {
            // One move a turn: every use of the jump ends the turn on the
            // same square (its end, or its chain's end), so uses renew.
            let end = end_after(board, chain, a, u);
            let row = row_without(board, chain, a);
            // z = N·u is needed at the start, at the end and on the row of
            // the jump's start alone: one solve read there.
            let mut at = vec![start];
            at.extend(match end {
                Target::State(e) => Some(e.get()),
                Target::Finish => None,
            });
            if let Some((_, row)) = &row {
                at.extend(row.iter().map(|&(e, _)| e));
            }
            let z = solver.solve_at(u, &at);
            let end = match end {
                Target::State(e) => Some((e.get(), z[1])),
                Target::Finish => None,
            };
            let p = expected_uses / (1.0 + end.map_or(0.0, |(_, z)| z));
            let without = match row {
                Some((to_f, row)) => {
                    let z_row = &z[z.len() - row.len()..];
                    without_one_move(turns, (start, z[0]), end, &row, z_row, to_f)
                }
                None => recompiled_mean(board, a),
            };
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
        use crate::par::*;
        jumps.par_iter().enumerate().map(figure).collect()
    } else {
        jumps.iter().enumerate().map(figure).collect()
    }
}

/// Where a move that takes jump `a` ends (one move a turn): found from an
/// actual move of the chain.
fn end_after(board: &Board, chain: &Chain, a: usize, u: &[f64]) -> Target {
    for s in chain.states().filter(|s| u[s.get()] > 0.0) {
        for o in board.rules().dice().rolls() {
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
    let solver = solve::from_entries(chain.len(), avoiding.entries).ok()?;
    Some(solver.solve(&avoiding.hit)[chain.start().get()])
}

/// The row of jump `a`'s start on the board without `a`, when each turn is
/// one move: the chance of staying on it (or of taking `a`, which now
/// ends there) and the states its other moves end on. `None` when a move
/// ends on a square that is not yet a state (the caller recompiles).
fn row_without(board: &Board, chain: &Chain, a: usize) -> Option<(f64, Vec<(usize, f64)>)> {
    let from = board.jumps()[a].from();
    let mut to_f = 0.0;
    let mut row: Vec<(usize, f64)> = Vec::new();
    for o in board.rules().dice().rolls() {
        let step = board.roll_end(from, 0, o.total);
        if step.walk.takes(board, a) || step.end == from {
            to_f += o.probability;
        } else if !step.finished {
            row.push((chain.state_of(step.end)?.get(), o.probability));
        }
    }
    Some((to_f, row))
}

/// Mean turns without a jump, when each turn is one move, from the
/// existing factorisation: its start becomes a new state f, and every move
/// that took it now ends on f instead of on its end. That is a rank-one
/// change of `I − Q` (column `end` loses `u`) bordered by f's row and
/// column; Sherman–Morrison gives the old states' means as `α + β·τ` with
/// `α = t − z·t(end)/(1 + z(end))`, `β = z/(1 + z(end))`, `z = N·u`, and
/// f's own equation `τ = 1 + Q_f·(α + β·τ) + Q_f(f)·τ` fixes `τ`. z is
/// given at s₀, at the end when it is a state, and on f's `row` (`z_row`).
fn without_one_move(
    t: &[f64],
    (start, z_start): (usize, f64),
    end: Option<(usize, f64)>,
    row: &[(usize, f64)],
    z_row: &[f64],
    to_f: f64,
) -> Option<f64> {
    // (α, β) at state s where z = N·u is z.
    let alpha_beta = |s: usize, z: f64| match end {
        Some((e, z_end)) => {
            let d = 1.0 + z_end;
            (t[s] - z * t[e] / d, z / d)
        }
        None => (t[s], z),
    };
    let (mut qa, mut qb) = (0.0, 0.0);
    for (&(s, p), &z) in row.iter().zip(z_row) {
        let (alpha, beta) = alpha_beta(s, z);
        qa += p * alpha;
        qb += p * beta;
    }
    let denominator = 1.0 - to_f - qb;
    if denominator <= tolerance::SINGULAR_PIVOT {
        return None;
    }
    let tau = (1.0 + qa) / denominator;
    let (alpha, beta) = alpha_beta(start, z_start);
    Some(alpha + beta * tau)
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
    super::Analysis::mean_turns(&smaller).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_mean_without_a_jump_matches_recompiling() {
        let board = Board::builtin_default();
        let chain = Chain::compile(&board).unwrap();
        let solver = solve::factor(&chain).unwrap();
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
