//! Solving the linear systems of a chain: `(I − Q)·x = b` and
//! `(I − Q)ᵀ·y = c`.
//!
//! Every figure of the analysis reaches `I − Q` only through [`Solver`],
//! which has two implementations, chosen by size in [`Solver::new`]:
//! a dense elimination without subtraction (the GTH form in `markov::gth`, docs/figures.md §2a)
//! for chains of at most [`DENSE_MAX_STATES`] states (the benchmarked
//! crossover), and above that
//! the sparse
//! `SweepSolver` (triangular sweeps plus a
//! dense Schur complement on the states snakes lead back to), which never
//! forms an `n × n` matrix. Both are factored once and reused for every
//! right-hand side.

use super::AnalysisError;
use crate::markov::chain::{Chain, StateIndex, Target};
use crate::markov::gth::Gth;
use crate::markov::sparse::{Csr, Plan, SparseError, Split, SweepSolver};
use crate::{Square, markov::tolerance};
use nalgebra::DMatrix;

/// Chains of at most this many states are solved densely, larger ones with
/// the sparse `SweepSolver`. Chosen from `benches/sparse.rs` (random
/// boards with N/25 jumps, one run, dense with its factors unpacked lazily):
/// the mean alone takes 9.35 µs dense and 9.28 µs sparse at 25 squares (24
/// states), 33.6 µs and 21.0 µs at 50, 168 µs and 60 µs at 100; the full
/// analysis is already faster sparse at 25 squares (53 µs against 83 µs)
/// and 18 times faster at 300 (0.96 ms against 17.4 ms); an earlier run
/// gave 126 ms against 9.9 s at 2,000 squares. The dense solver is kept
/// only for the smallest chains, where the two are even. Re-measured with
/// the subtraction-free elimination in both (full analysis, dense /
/// sparse): 60 / 50 µs at 25 squares, 21 / 0.84 ms at 300, 8.9 s / 45 ms
/// at 2,000, so the crossover stands.
pub const DENSE_MAX_STATES: usize = 24;

/// Most states the dense solver factors when asked for explicitly
/// ([`Solver::with_method`]): a dense matrix of 4,000² `f64` is 128 MB, and
/// the analysis holds about three (the matrix, its factors for transposed
/// solves, the inverse for its diagonal). [`Solver::new`] never meets it:
/// it switches to the sparse solver far below.
pub const MAX_DENSE_STATES: usize = 4_000;

/// Which implementation a [`Solver`] uses.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The dense subtraction-free elimination.
    Dense,
    /// The sparse `SweepSolver`.
    Sparse,
}

/// What factoring a chain will cost, before it is factored.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The implementation [`Solver::new`] will use.
    pub method: Method,
    /// Bytes the factorisation holds at its peak.
    pub bytes: u64,
    /// Bytes the factored solver keeps for the solves after it.
    pub held_bytes: u64,
    /// Extra bytes [`Solver::inverse_diagonal`] needs.
    pub diagonal_bytes: u64,
    /// Multiply-adds of one solve.
    pub solve_work: f64,
    /// Multiply-adds of the factorisation.
    pub factor_work: f64,
    /// Multiply-adds of [`Solver::inverse_diagonal`].
    pub diagonal_work: f64,
}

impl Estimate {
    /// The dense method on `n` states.
    fn dense(n: usize) -> Estimate {
        let n2 = (n as u64) * (n as u64);
        let nf = n as f64;
        Estimate {
            method: Method::Dense,
            // The matrix factored in place, then L and U kept apart.
            bytes: 3 * n2 * 8,
            held_bytes: 3 * n2 * 8,
            diagonal_bytes: n2 * 8,
            solve_work: 2.0 * nf * nf,
            factor_work: nf * nf * nf / 3.0,
            diagonal_work: nf * nf * nf,
        }
    }

    fn sparse(plan: &Plan) -> Estimate {
        Estimate {
            method: Method::Sparse,
            bytes: plan.factor_bytes,
            held_bytes: plan.held_bytes,
            diagonal_bytes: plan.diagonal_bytes,
            solve_work: plan.solve_work,
            factor_work: plan.factor_work,
            diagonal_work: plan.diagonal_work,
        }
    }
}

pub(crate) fn show(squares: &[Square]) -> String {
    let numbers: Vec<u32> = squares.iter().map(|s| s.get()).collect();
    crate::model::problem::Squares(&numbers).to_string()
}

/// A factorisation of `I − Q` for one chain, reused for every right-hand
/// side.
#[derive(Clone, Debug)]
pub struct Solver {
    inner: Inner,
}

#[derive(Clone, Debug)]
enum Inner {
    Dense(Dense),
    Sparse(Box<SweepSolver>),
}

#[derive(Clone, Debug)]
struct Dense {
    gth: Gth,
}

impl Solver {
    /// Factors `I − Q` of `chain`.
    ///
    /// # Errors
    /// [`AnalysisError::Trapped`] naming the squares that never finish when
    /// `I − Q` is singular; [`AnalysisError::IllConditioned`] when it is
    /// singular to working precision although every square can finish.
    pub fn new(chain: &Chain) -> Result<Solver, AnalysisError> {
        Self::with_method(chain, Self::method_for(chain.len()))
    }

    /// The implementation [`Solver::new`] picks for `n` states.
    pub fn method_for(n: usize) -> Method {
        if n <= DENSE_MAX_STATES {
            Method::Dense
        } else {
            Method::Sparse
        }
    }

    /// Factors `I − Q` of `chain` with the given implementation (both give
    /// the same figures; tests compare them).
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn with_method(chain: &Chain, method: Method) -> Result<Solver, AnalysisError> {
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
                None => Self::factor_dense(dense_form(chain), 0.0),
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
                let solver = match Self::sparse(chain_split(chain), &square, &trapped_states) {
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
                    Ok(Solver {
                        inner: Inner::Sparse(s),
                    }) => s
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

    /// What [`Solver::new`] will cost on `chain`: linear in the chain's size,
    /// and allocates seven bytes per state (never a copy of its kernel).
    pub fn estimate(chain: &Chain) -> Estimate {
        match Self::method_for(chain.len()) {
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
        match SweepSolver::from_split(split, trapped) {
            Ok(s) => Ok(Solver {
                inner: Inner::Sparse(Box::new(s)),
            }),
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
        match Self::method_for(n) {
            Method::Dense => Self::from_entries_dense(n, entries, tolerance::SINGULAR_PIVOT),
            Method::Sparse => {
                let entries: Vec<_> = entries.into_iter().collect();
                let q = Csr::from_triplets(n, &entries)
                    .expect("modified chains have their entries in range");
                // A modified chain (a jump made absorbing) has no squares of
                // its own to name; a failure is reported as a zero pivot.
                match SweepSolver::new(&q) {
                    Ok(s) => Ok(Solver {
                        inner: Inner::Sparse(Box::new(s)),
                    }),
                    Err(_) => Err(AnalysisError::IllConditioned { pivot: 0.0 }),
                }
            }
        }
    }

    /// The dense factorisation of a substochastic `Q` given as entries
    /// (repeats add up): each row's chance of leaving `Q` (finishing, or a
    /// jump made absorbing) is what its entries leave of 1. Refused when a
    /// pivot is at most `min_pivot` (or not a number).
    fn from_entries_dense(
        n: usize,
        entries: impl IntoIterator<Item = (usize, usize, f64)>,
        min_pivot: f64,
    ) -> Result<Solver, AnalysisError> {
        let mut q = DMatrix::<f64>::zeros(n, n);
        for (s, t, p) in entries {
            q[(s, t)] += p;
        }
        let finish = (0..n).map(|s| (1.0 - q.row(s).sum()).max(0.0)).collect();
        Self::factor_dense((q, finish), min_pivot)
    }

    /// The subtraction-free factorisation ([`Gth`]) of `I − Q` for `Q` and
    /// its rows' chances of finishing, refused when a pivot is at most
    /// `min_pivot` (or not a number).
    fn factor_dense(
        (q, finish): (DMatrix<f64>, Vec<f64>),
        min_pivot: f64,
    ) -> Result<Solver, AnalysisError> {
        match Gth::new(q, finish, min_pivot) {
            Ok(gth) => Ok(Solver {
                inner: Inner::Dense(Dense { gth }),
            }),
            Err(pivot) => Err(AnalysisError::IllConditioned { pivot }),
        }
    }

    /// The implementation in use.
    pub fn method(&self) -> Method {
        match self.inner {
            Inner::Dense(_) => Method::Dense,
            Inner::Sparse(_) => Method::Sparse,
        }
    }

    /// The states eliminated densely by the subtraction-free (GTH) form:
    /// every state on the dense path, the Schur complement's states `J` on
    /// the sparse one (docs/sparse-solver.md §2). The rest are swept.
    pub(crate) fn dense_states(&self) -> usize {
        match &self.inner {
            Inner::Dense(d) => d.gth.len(),
            Inner::Sparse(s) => s.back_targets(),
        }
    }

    /// Number of unknowns (the chain's states).
    pub fn len(&self) -> usize {
        match &self.inner {
            Inner::Dense(d) => d.gth.len(),
            Inner::Sparse(s) => s.n(),
        }
    }

    /// Whether there are no unknowns (never, for a compiled chain).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `x` with `(I − Q)·x = b`: for a per-turn reward `b`, the expected
    /// total over the game from each state (`N·b`).
    ///
    /// # Panics
    /// If `b` does not have one entry per state.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        assert_eq!(b.len(), self.len(), "one entry per state");
        let d = match &self.inner {
            Inner::Dense(d) => d,
            Inner::Sparse(s) => return s.solve(b),
        };
        d.gth.solve(b)
    }

    /// [`Solver::solve`] of `b` read at the states `at` only, with the same
    /// digits; the sparse solver of a small chain computes no other entry.
    ///
    /// # Panics
    /// If `b` does not have one entry per state, or a state of `at` is out
    /// of range.
    pub fn solve_at(&self, b: &[f64], at: &[usize]) -> Vec<f64> {
        match &self.inner {
            Inner::Sparse(s) => s.solve_at(b, at),
            Inner::Dense(_) => {
                let x = self.solve(b);
                at.iter().map(|&i| x[i]).collect()
            }
        }
    }

    /// [`Solver::solve`] of each of `bs`, with the same digits; the sparse
    /// solver of a small chain sweeps several at once.
    ///
    /// # Panics
    /// If a right-hand side does not have one entry per state.
    pub fn solve_many(&self, bs: &[&[f64]]) -> Vec<Vec<f64>> {
        match &self.inner {
            Inner::Sparse(s) => s.solve_many(bs),
            Inner::Dense(_) => bs.iter().map(|b| self.solve(b)).collect(),
        }
    }

    /// `N·1`: the expected number of turns to the finish from each state,
    /// `solve` of all ones. The sparse solver keeps it from factoring (it
    /// checks its factors with it), so there it costs one copy.
    pub fn expected_turns(&self) -> Vec<f64> {
        match &self.inner {
            Inner::Sparse(s) => s.expected_steps().to_vec(),
            Inner::Dense(_) => self.solve(&vec![1.0; self.len()]),
        }
    }

    /// `y` with `(I − Q)ᵀ·y = c`: for `c = e_i`, row i of N, the expected
    /// turns started on each state from state i.
    ///
    /// # Panics
    /// If `c` does not have one entry per state.
    pub fn solve_transpose(&self, c: &[f64]) -> Vec<f64> {
        assert_eq!(c.len(), self.len(), "one entry per state");
        let d = match &self.inner {
            Inner::Dense(d) => d,
            Inner::Sparse(s) => return s.solve_transpose(c),
        };
        d.gth.solve_transpose(c)
    }

    /// The diagonal of N = (I − Q)⁻¹. The dense solver forms the inverse;
    /// the sparse one uses its block structure
    /// (`SweepSolver::inverse_diagonal`), whose cost
    /// [`Solver::estimate`] gives: check it first on a large chain.
    /// `None` only if the dense inverse fails (it cannot once factored).
    pub fn inverse_diagonal(&self) -> Option<Vec<f64>> {
        match &self.inner {
            Inner::Dense(d) => Some(d.gth.inverse_diagonal()),
            Inner::Sparse(s) => Some(s.inverse_diagonal()),
        }
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
        let solver = Solver::new(&chain).unwrap();
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
        let solver = Solver::new(&chain).unwrap();
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
        use crate::markov::analysis::solve::Solver;
        use crate::markov::chain::Chain;

        let chain = Chain::compile(&Board::builtin_default())?;
        let solver = Solver::new(&chain)?;
        let turns = solver.solve(&vec![1.0; chain.len()]);
        assert!((turns[chain.start().get()] - 39.5984).abs() < 1e-4);
        Ok(())
    }
}
