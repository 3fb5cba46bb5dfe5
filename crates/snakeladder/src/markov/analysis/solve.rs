//! A board's chain factored by the solver crate (`absorbing::Solver`):
//! `(I − Q)·x = b` and `(I − Q)ᵀ·y = c`.
//!
//! Every figure of the analysis reaches `I − Q` only through the
//! [`Solver`] made here. The dense elimination without subtraction serves
//! chains of at most [`DENSE_MAX_STATES`] states, the sparse sweep the
//! rest; this module hands each the chain's own rows, without a copy, and
//! names the squares of a trapped chain.

use super::AnalysisError;
use crate::markov::chain::{Chain, StateIndex, Target};
use crate::markov::sparse::{Csr, SparseError, Split, SweepSolver};
use crate::{Square, markov::tolerance};
pub use absorbing::{DENSE_MAX_STATES, Estimate, MAX_DENSE_STATES, Method, Solver, SolverError};
use nalgebra::DMatrix;

pub(crate) fn show(squares: &[Square]) -> String {
    let numbers: Vec<u32> = squares.iter().map(|s| s.get()).collect();
    crate::model::problem::Squares(&numbers).to_string()
}

/// Factors `I − Q` of `chain`, with the implementation
/// [`Method::for_states`] picks.
///
/// # Errors
/// [`AnalysisError::Trapped`] naming the squares that never finish when
/// `I − Q` is singular; [`AnalysisError::IllConditioned`] when it is
/// singular to working precision although every square can finish.
pub fn factor(chain: &Chain) -> Result<Solver, AnalysisError> {
    factor_with(chain, Method::for_states(chain.len()))
}

/// Factors `I − Q` of `chain` with the given implementation (both give
/// the same figures; tests compare them).
///
/// # Errors
/// As [`factor`].
pub fn factor_with(chain: &Chain, method: Method) -> Result<Solver, AnalysisError> {
    let trapped = || match chain.trapped() {
        trapped if trapped.is_empty() => None,
        trapped => Some(AnalysisError::Trapped { trapped }),
    };
    match method {
        Method::Dense if chain.len() > MAX_DENSE_STATES => Err(AnalysisError::DenseTooLarge {
            states: chain.len(),
            limit: MAX_DENSE_STATES,
        }),
        Method::Dense => match trapped() {
            Some(error) => Err(error),
            // Every state can finish, so a small pivot is ill
            // conditioning, not a trap: the solve goes ahead and the
            // analysis bounds its error from the residual
            // (`accuracy`), recomputing the mean exactly when needed.
            None => dense(dense_form(chain), 0.0),
        },
        Method::Sparse => {
            let square = |state: usize| chain.squares()[state];
            // The sparse solver names as trapped the states with no path
            // to a row that visibly leaks; a chance of leaving of 1e-200
            // leaks nothing visible, so a trap is believed only when the
            // chain's own structure has one.
            // Q is built already split at its diagonal, never whole
            // beside the split copy; whole again only to name traps.
            let trapped_states = || crate::markov::sparse::trapped_states(&chain_csr(chain));
            let solver = match sparse(chain_split(chain), &square, &trapped_states) {
                Err(AnalysisError::Trapped { trapped }) if chain.trapped().is_empty() => {
                    Err(AnalysisError::SparseIllConditioned {
                        state: trapped
                            .first()
                            .and_then(|&s| chain.state_of(s))
                            .map_or(0, |s| s.get()),
                    })
                }
                other => other,
            };
            // The search for trapped squares is a pass over the whole
            // chain; it runs only when the factorisation failed or its
            // figures are as large as a trap makes them.
            let plausible = match &solver {
                Ok(s) => s
                    .expected_steps()
                    .iter()
                    .all(|&t| t <= tolerance::TRAP_SUSPECT_TURNS),
                _ => false,
            };
            if plausible {
                solver
            } else {
                trapped().map_or(solver, Err)
            }
        }
    }
}

/// What [`factor`] will cost on `chain`: linear in the chain's size, and
/// allocates seven bytes per state (never a copy of its kernel).
pub fn estimate(chain: &Chain) -> Estimate {
    match Method::for_states(chain.len()) {
        Method::Dense => Estimate::dense(chain.len()),
        Method::Sparse => {
            // The entries of `chain_csr(chain)`, row by row.
            let row = |s: usize| chain.q_row(StateIndex::new(s));
            let finish = |s: usize| chain.finish_probability(StateIndex::new(s));
            // The solver shares the chain's `Q` off its diagonal.
            Estimate::sparse(&SweepSolver::plan_rows(chain.len(), row, finish, true))
        }
    }
}

fn sparse(
    split: Split,
    square: &dyn Fn(usize) -> Square,
    trapped: &dyn Fn() -> Vec<usize>,
) -> Result<Solver, AnalysisError> {
    match Solver::sparse(split, trapped) {
        Ok(s) => Ok(s),
        Err(SparseError::Singular { trapped }) => Err(AnalysisError::Trapped {
            trapped: trapped.into_iter().map(square).collect(),
        }),
        Err(SparseError::IllConditioned { state }) => {
            Err(AnalysisError::SparseIllConditioned { state })
        }
        Err(other) => unreachable!("a compiled chain is a valid sparse matrix: {other}"),
    }
}

/// Factors `I − Q` for a substochastic `Q` given as `(row, column,
/// probability)` entries (repeats add up) over `n` states: used for
/// modified chains (a jump made absorbing).
///
/// # Errors
/// [`AnalysisError::IllConditioned`] when `I − Q` is singular to working
/// precision.
pub(crate) fn from_entries(
    n: usize,
    entries: impl IntoIterator<Item = (usize, usize, f64)>,
) -> Result<Solver, AnalysisError> {
    match Solver::from_entries(n, entries, tolerance::SINGULAR_PIVOT) {
        Ok(s) => Ok(s),
        Err(SolverError::IllConditioned { pivot }) => Err(AnalysisError::IllConditioned { pivot }),
        Err(other) => unreachable!("modified chains have their entries in range: {other}"),
    }
}

/// The subtraction-free factorisation of `I − Q` for `Q` and its rows'
/// chances of finishing, refused when a pivot is at most `min_pivot` (or
/// not a number).
fn dense((q, finish): (DMatrix<f64>, Vec<f64>), min_pivot: f64) -> Result<Solver, AnalysisError> {
    match Solver::dense(q, finish, min_pivot) {
        Ok(s) => Ok(s),
        Err(SolverError::IllConditioned { pivot }) => Err(AnalysisError::IllConditioned { pivot }),
        Err(SolverError::DenseTooLarge { states, limit }) => {
            Err(AnalysisError::DenseTooLarge { states, limit })
        }
        Err(other) => unreachable!("a dense solve meets no sparse error: {other}"),
    }
}

/// Each state's chance of finishing in one turn.
fn chain_finish(chain: &Chain) -> Vec<f64> {
    chain
        .states()
        .map(|s| chain.finish_probability(s))
        .collect()
}

/// `Q` of a chain, dense (its diagonal left out: [`Gth`] takes each
/// pivot from the rest of the row), with each state's chance of finishing.
fn dense_form(chain: &Chain) -> (DMatrix<f64>, Vec<f64>) {
    let n = chain.len();
    let mut q = DMatrix::<f64>::zeros(n, n);
    for s in chain.states() {
        for (t, p) in chain.q_row(s) {
            if t != s.get() {
                q[(s.get(), t)] += p;
            }
        }
    }
    (q, chain_finish(chain))
}

/// `Q` of a chain split at its diagonal, as [`Csr::split_diagonal`] of
/// [`chain_csr`] gives it (the same entries in the same order: the chain's
/// own, shared, [`Chain::off_diagonal`]), with what
/// `SweepSolver::from_parts` derives from it (each state's chance of
/// finishing, [`Chain::finish_probability`]'s sum, and of leaving; the back
/// targets), from one pass over the chain: a chain of ten million states
/// never holds a second copy of `Q` (800 MB), and a small one saves the
/// solver three passes.
fn chain_split(chain: &Chain) -> Split {
    let n = chain.len();
    let off = std::sync::Arc::clone(chain.off_diagonal());
    let mut finish = vec![0.0; n];
    let mut leave = vec![0.0; n];
    let mut back = vec![false; n];
    for s in 0..n {
        // As `Iterator::sum` adds: from -0.0, in the row's order.
        let leaves = chain
            .row(StateIndex::new(s))
            .filter(|t| t.to == Target::Finish)
            .fold(-0.0, |sum, t| sum + t.probability);
        let mut moves = -0.0;
        let (cols, vals) = off.row_slices(s);
        for (&t, &p) in cols.iter().zip(vals) {
            moves += p;
            back[t as usize] |= (t as usize) < s;
        }
        finish[s] = leaves;
        leave[s] = leaves + moves;
    }
    Split {
        off,
        finish,
        leave,
        back,
    }
}

/// `Q` of a chain as a `Csr` (the finish column left out).
pub fn chain_csr(chain: &Chain) -> Csr {
    let n = chain.len();
    let mut row_ptr = Vec::with_capacity(n + 1);
    let mut cols = Vec::with_capacity(chain.entries());
    let mut vals = Vec::with_capacity(chain.entries());
    row_ptr.push(0);
    for s in chain.states() {
        for (t, p) in chain.q_row(s) {
            cols.push(t as u32);
            vals.push(p);
        }
        row_ptr.push(cols.len());
    }
    // Columns are state indices below n and probabilities are finite.
    Csr::from_valid_parts(n, row_ptr, cols, vals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    /// The solver's input from one pass over the chain is, bit for bit,
    /// what `SweepSolver::from_parts` derives from `chain_csr`: the same
    /// `Q` off its diagonal, chances of finishing and of leaving, and back
    /// targets (on boards with stays, bounces, extra rolls and two dice).
    #[test]
    fn the_chain_split_is_what_the_solver_derives() {
        let mut boards = vec![Board::builtin_default()];
        for name in ["variant-bounce", "variant-extra-turn", "variant-two-dice"] {
            let path = format!("{}/boards/{name}.json", env!("CARGO_MANIFEST_DIR"));
            boards.push(Board::from_path(path).unwrap());
        }
        let mut stays = false;
        for board in &boards {
            let chain = Chain::compile(board).unwrap();
            let split = chain_split(&chain);
            let (off, stay) = chain_csr(&chain).split_diagonal();
            let finish = chain_finish(&chain);
            assert_eq!(*split.off, off);
            // Shared with the chain, not copied.
            assert!(std::sync::Arc::ptr_eq(&split.off, chain.off_diagonal()));
            // The built-in board stays put on an overshoot: the diagonal
            // left out is not empty.
            stays |= stay.iter().any(|&d| d > 0.0);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&split.finish), bits(&finish));
            let leave: Vec<f64> = (0..chain.len())
                .map(|i| finish[i] + off.row(i).map(|(_, v)| v).sum::<f64>())
                .collect();
            assert_eq!(bits(&split.leave), bits(&leave));
            let back: Vec<bool> = (0..chain.len())
                .map(|c| (0..chain.len()).any(|i| off.row(i).any(|(col, _)| col == c && c < i)))
                .collect();
            assert_eq!(split.back, back);
            assert!(split.back.iter().any(|&b| b));
        }
        assert!(stays);
    }

    #[test]
    fn transposed_solve_agrees_with_the_inverse() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let solver = factor(&chain).unwrap();
        let n = chain.len();
        let mut e = vec![0.0; n];
        e[chain.start().get()] = 1.0;
        let row = solver.solve_transpose(&e);
        // Column j of N, picked by solving with e_j, has N(s0, j) at s0.
        for j in [0, 7, n - 1] {
            let mut ej = vec![0.0; n];
            ej[j] = 1.0;
            let column = solver.solve(&ej);
            assert!((column[chain.start().get()] - row[j]).abs() < 1e-12);
        }
        // Row of N from the start sums to the mean length.
        let mean: f64 = row.iter().sum();
        let t = solver.solve(&vec![1.0; n]);
        assert!((mean - t[chain.start().get()]).abs() < 1e-10);
    }

    #[test]
    fn validation_leaves_no_trapped_state_even_with_forfeits() {
        // Only 6s, and the second 6 of a turn is forfeited: each turn moves
        // exactly 6 (the bonus roll moves, the next is forfeited), so the
        // token reaches 12 in two turns and the system is regular.
        let b = Board::from_json_str(
            r#"{"squares": 12, "rules": {"dice": {"weights": [0, 0, 0, 0, 0, 1]},
                "extra_turn": {"on": 6, "forfeit_after": 2}}}"#,
        )
        .unwrap();
        let chain = Chain::compile(&b).unwrap();
        assert!(chain.trapped().is_empty());
        let solver = factor(&chain).unwrap();
        let t = solver.solve(&vec![1.0; chain.len()]);
        assert!((t[chain.start().get()] - 2.0).abs() < 1e-12);
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_137() -> Result<(), Box<dyn std::error::Error>> {
        use crate::Board;
        use crate::markov::analysis::solve::factor;
        use crate::markov::chain::Chain;

        let chain = Chain::compile(&Board::builtin_default())?;
        let solver = factor(&chain)?;
        let turns = solver.solve(&vec![1.0; chain.len()]);
        assert!((turns[chain.start().get()] - 39.5984).abs() < 1e-4);
        Ok(())
    }
}
