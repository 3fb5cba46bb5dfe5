//! The evaluator every design tool shares: the mean length of a board after
//! one of its jumps changes, from the solved chain of the board before, by a
//! low-rank update instead of a fresh compile and solve.
//!
//! # When an update is valid
//! Only when each turn is one move (no extra rolls) and no move takes two
//! jumps (no jump ends where another starts, before or after the change).
//! Then a turn from state s takes jump a (from f to e) with probability
//! `u(s)`, and that mass sits in column e of Q (or in R when e is the
//! finish). Write `A = I − Q`, `N = A⁻¹`, `t = N·1`, `z = N·u`.
//!
//! - **Moving the end** to e′ moves the mass `u` from column e to column e′:
//!   `A′ = A − u·vᵀ` with `v = δ_e′ − δ_e` (δ of the finish is 0), so by
//!   Sherman–Morrison `t′ = t + z·vᵀt / (1 − vᵀz)` (docs/figures.md §6,
//!   the same form as "mean length without jump a"). One solve per jump
//!   (`z`), then O(1) per candidate end.
//! - **Moving the start** to f′ (and the end to e′, possibly unchanged), or
//!   **removing** the jump: f becomes a rest square, a new state bordering
//!   the system, and the moves that took a now stop on it; every landing on
//!   f′ now goes on to e′. On the old states that is a rank-two change,
//!   `A′ = A + u·δ_eᵀ − q·(δ_e′ − δ_f′)ᵀ` with q the mass landing on f′
//!   (column f′ of Q, less `u` when f′ = e), solved by Woodbury with the
//!   2 × 2 capacitance matrix `C = I + Vᵀ·N·U`; `N·q` is column f′ of
//!   `N − I` (as `N·Q = N − I`), less `z`. The border (f's own row, from
//!   [`Board::play_roll`] on the board before) is then eliminated by one
//!   Schur complement: with `g = A′⁻¹·1`, `h = A′⁻¹·u`, the new state's mean
//!   is `y = (1 + r·g) / (1 − r_ff − r·h)` and the start's `g(s₀) + h(s₀)·y`.
//!
//! N, `t` and every `z` come from one sparse factorisation of `I − Q`
//! ([`Solver`]): N column by column up to [`MAX_UPDATE_STATES`] states,
//! past that only the column f′ a moved start needs, when it needs it.
//!
//! Anything else (extra rolls, chains, a new end on a square no token
//! reached before), and an update whose error bound (`bound.rs`) is over
//! [`MAX_UPDATE_ERROR`], is [`Update::Resolve`]: the caller validates,
//! compiles and solves the changed board. Every answer a search returns is
//! re-solved that way and must agree with the update within
//! [`tolerance::UPDATE_AGREEMENT`].

pub(crate) use super::JumpChange;
use crate::markov::analysis::AnalysisError;
use crate::markov::analysis::solve::{self, Solver};
use crate::markov::chain::{Chain, Target};
use crate::markov::tolerance;
use crate::par::*;
use crate::{Board, BoardSpec, Chains, Jump, JumpKind, Square};
use nalgebra::DMatrix;
use std::borrow::Cow;
use std::sync::Arc;

/// Chains with more states than this are not held as a dense inverse (a
/// 1,500² matrix of `f64` is 18 MB; the memory grows as N²). Up to it the
/// evaluator builds `N = (I − Q)⁻¹` column by column from one sparse
/// factorisation, `N` solves of a few multiply-adds per state each, in
/// parallel; past it a column is solved when an update needs one (a moved
/// start), which suits [`sensitivity`](super::sensitivity) (six columns
/// per jump) and `tune`'s first level taken in order of displacement
/// (a few columns per jump when an answer is near), but not a search over
/// every placement of a jump: `tune` charges each candidate of a larger
/// board as it goes and stops at its limits. `generate --target-turns`
/// never holds it ([`Base::on_demand`]): its steps take the moves to a new
/// start square by square, each column solved once for every jump
/// (`src/design/target/step.rs`).
pub const MAX_UPDATE_STATES: usize = 1_500;

const NO_STATE: u32 = u32::MAX;

/// A jump as a board file writes it.
fn pair(j: Jump) -> [i64; 2] {
    [i64::from(j.from().get()), i64::from(j.to().get())]
}

/// `spec` with the changes made; a change whose jump is not in the spec is
/// ignored (the callers take changes from the board the spec came from).
pub(crate) fn apply(spec: &BoardSpec, changes: &[JumpChange]) -> BoardSpec {
    let mut out = spec.clone();
    for c in changes {
        let list = match c.before.kind() {
            JumpKind::Ladder => &mut out.ladders,
            JumpKind::Snake => &mut out.snakes,
        };
        if let Some(i) = list.iter().position(|p| *p == pair(c.before)) {
            match c.after {
                Some(a) => list[i] = pair(a),
                None => {
                    list.remove(i);
                }
            }
        }
        list.sort_unstable();
    }
    out
}

/// The mean length of a valid board by a fresh compile and solve.
pub(crate) fn solve_mean(board: &Board) -> Result<f64, AnalysisError> {
    crate::Analysis::mean_turns(board)
}

/// The mean length of a valid board by a fresh compile and solve, put to
/// the accuracy check of the board's own analysis: the float mean when its
/// error bound (the residual, forward and refined bounds of docs/figures.md
/// §2b and §2c) is within [`tolerance::MEAN_TRUST`], else the certified
/// fraction of exact mode within `max_work` and `max_memory`; `None` when
/// neither is available or the float solve fails (a way out below `f64`'s
/// range), so that no figure is given that the board's own analysis would
/// warn about.
///
/// # Errors
/// [`AnalysisError`] when the board cannot be compiled.
pub(crate) fn trusted_mean(
    board: &Board,
    max_work: f64,
    max_memory: u64,
) -> Result<Option<f64>, AnalysisError> {
    use crate::markov::{analysis::accuracy, modular};
    let chain = Chain::compile(board)?;
    // The board is valid, so a solve that fails is floating point's limit
    // (a way out below f64's range), as the analysis says of that board.
    let Ok(solver) = solve::factor(&chain) else {
        return Ok(None);
    };
    let t = solver.expected_steps();
    let mean = t[chain.start().get()];
    let mut bound = accuracy::mean_error_bound(&chain, &solver, &t);
    if bound > tolerance::MEAN_TRUST
        && chain.cut_paths()
        && modular::lists_every_square(board, &chain)
    {
        bound = accuracy::mean_error_bound_listed(&chain, &solver, &t, true);
    }
    if bound <= tolerance::MEAN_TRUST {
        return Ok(Some(mean));
    }
    Ok(
        modular::solve_within(board, &chain, false, max_work, max_memory)
            .ok()
            .and_then(|s| num_traits::ToPrimitive::to_f64(s.mean()))
            .filter(|m| m.is_finite()),
    )
}

/// The first seat's advantage with two players: `P(seat 1 wins) −
/// P(seat 2 wins)`.
///
/// # Formula
/// Seat 1 wins on its t-th turn if seat 2 has not finished within t − 1
/// turns, seat 2 if seat 1 has not within t (docs/figures.md §8), so the
/// difference is `Σ_t f(t)·(S(t−1) − S(t)) = Σ_t f(t)²`: the chance both
/// would finish on the same turn. It is summed along the forward recursion
/// of docs/figures.md §4 until `S(T)` is below [`tolerance::ADVANTAGE_TAIL`]; what is left out,
/// `Σ_{t>T} f(t)² ≤ S(T)²`, is below 1e-12. The tests check it against the
/// seat sums of the analysis. `None` when the games outlast
/// [`tolerance::MAX_DISTRIBUTION_TURNS`] with more than that tail left:
/// the sum so far is then only a lower bound (the analysis skips its seat
/// odds on the same board for the same reason).
pub(crate) fn first_seat_advantage(board: &Board) -> Result<Option<f64>, AnalysisError> {
    let chain = Chain::compile(board)?;
    let n = chain.len();
    // The chain's rows flat, in their order (the finish `FINISH`): the
    // loop below reads every row once a turn.
    const FINISH: u32 = u32::MAX;
    let mut offsets = Vec::with_capacity(n + 1);
    let mut targets = Vec::with_capacity(chain.entries());
    let mut probabilities = Vec::with_capacity(chain.entries());
    offsets.push(0);
    for s in chain.states() {
        for t in chain.row(s) {
            targets.push(match t.to {
                Target::State(e) => e.get() as u32,
                Target::Finish => FINISH,
            });
            probabilities.push(t.probability);
        }
        offsets.push(targets.len());
    }
    let start = chain.start().get();
    drop(chain);
    let mut pi = vec![0.0; n];
    pi[start] = 1.0;
    let mut next = vec![0.0; n];
    let mut ties = 0.0;
    for _ in 0..tolerance::MAX_DISTRIBUTION_TURNS {
        next.fill(0.0);
        let (mut finished, mut left) = (0.0, 0.0);
        for (s, &mass) in pi.iter().enumerate() {
            if mass == 0.0 {
                continue;
            }
            for k in offsets[s]..offsets[s + 1] {
                let moved = mass * probabilities[k];
                match targets[k] {
                    FINISH => finished += moved,
                    e => {
                        next[e as usize] += moved;
                        left += moved;
                    }
                }
            }
        }
        ties += finished * finished;
        std::mem::swap(&mut pi, &mut next);
        if left < tolerance::ADVANTAGE_TAIL {
            return Ok(Some(ties));
        }
    }
    Ok(None)
}

/// What the update says about a changed board.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Update {
    /// The changed board's mean length, by the update.
    Mean(f64),
    /// The changed system is singular (to [`tolerance::UPDATE_DENOMINATOR`]):
    /// some square could never finish, so the board is not valid.
    Singular,
    /// The update does not apply; validate, compile and solve instead.
    Resolve,
}

/// Where a move from a jump's start ends, on the board before a change.
#[derive(Copy, Clone, Debug)]
enum RowEnd {
    /// Back on the start (blocked, or round through the jump itself).
    Stay,
    /// A square a token rests on.
    Rest(Square),
    /// The finish.
    Finish,
}

/// A solved board, ready to evaluate changes of one jump.
#[derive(Clone, Debug)]
pub struct Base {
    board: Board,
    mean: f64,
    /// The relative error bound of `mean` (docs/figures.md §2b).
    mean_bound: f64,
    update: Option<Dense>,
    /// Multiply-adds building it took, by the solver's own estimate of its
    /// factorisation and of a solve: the factorisation, and one solve per jump
    /// and per column of a dense inverse.
    work: f64,
    /// Multiply-adds of one solve with the factorisation.
    solve_work: f64,
}

/// How the evaluator reaches a column of `N = (I − Q)⁻¹`.
#[derive(Clone, Debug)]
enum Inverse {
    /// All of N, column-major, solved column by column while building,
    /// and each column's error bound.
    Full(DMatrix<f64>, Vec<InputError>),
    /// One column at a time, solved when asked for, with its chain for
    /// the column's error bound.
    Solve(Arc<Solver>, Arc<Chain>),
}

/// What the updates need: the dense inverse and one solve per jump.
#[derive(Clone, Debug)]
struct Dense {
    start: usize,
    last: Square,
    /// N = (I − Q)⁻¹, held or solved by the column.
    inverse: Inverse,
    /// Bounds for the solves with this factorisation: `t̂`'s residual and
    /// the forward bound (`bound::InputError`).
    check: Check,
    /// The error bound of `t`.
    t_error: InputError,
    /// The error bound of each `z`.
    z_error: Vec<InputError>,
    /// N·1.
    t: Vec<f64>,
    /// The state of each square 0..=N, or `NO_STATE`.
    state_at: Vec<u32>,
    /// How many jumps end on each square.
    ends: Vec<u16>,
    /// N·u for each jump.
    z: Vec<Vec<f64>>,
    /// Each jump's start's row on the board before.
    rows: Vec<Vec<(RowEnd, f64)>>,
    /// The chain's transitions by column (the state moved to), over the
    /// states, then state `n`, left for a jump's old start, and the finish
    /// as state `n + 1`: those into column c are
    /// `from[column[c]..column[c + 1]]` with `probability` alike, by the
    /// state moved from; `n + 3` offsets.
    column: Vec<usize>,
    /// See `column`.
    from: Vec<u32>,
    /// See `column`.
    probability: Vec<f64>,
    /// For each jump, the chance a turn from each state takes it (`u`).
    u: Vec<Vec<f64>>,
}

impl Base {
    /// Compiles and solves `board`, and prepares the updates when they
    /// apply to its rules.
    ///
    /// # Errors
    /// [`AnalysisError`] when the board cannot be compiled or solved.
    pub fn new(board: Board) -> Result<Base, AnalysisError> {
        Base::holding(board, MAX_UPDATE_STATES)
    }

    /// [`Base::new`] that never holds the inverse: a column is solved when
    /// an update needs one ([`Base::column_work`]), whatever the board's
    /// size. Its updates are the same to the last bit (each column is the
    /// same solve either way); it suits a caller that needs few columns,
    /// or each column once for many jumps.
    ///
    /// # Errors
    /// [`AnalysisError`] when the board cannot be compiled or solved.
    pub(crate) fn on_demand(board: Board) -> Result<Base, AnalysisError> {
        Base::holding(board, 0)
    }

    /// [`Base::new`], holding the inverse up to `dense_limit` states.
    fn holding(board: Board, dense_limit: usize) -> Result<Base, AnalysisError> {
        let chain = Chain::compile(&board)?;
        let estimate = solve::estimate(&chain);
        let solver = solve::factor(&chain)?;
        let t = solver.expected_steps();
        let mean = t[chain.start().get()];
        // The updates start from `t` and solves like it: only on a board
        // whose own mean passes the analysis' accuracy check
        // (docs/figures.md §2b), else every variant is solved and checked.
        let mean_bound = crate::markov::analysis::accuracy::mean_error_bound(&chain, &solver, &t);
        let trusted = mean_bound <= tolerance::MEAN_TRUST;
        let update = if trusted {
            dense(&board, chain, solver, t, dense_limit)
        } else {
            None
        };
        let solves = match &update {
            Some(d) => d.z.len() + if d.full() { d.t.len() } else { 0 },
            None => 0,
        };
        Ok(Base {
            board,
            mean,
            mean_bound,
            update,
            work: estimate.factor_work + solves as f64 * estimate.solve_work,
            solve_work: estimate.solve_work,
        })
    }

    /// Multiply-adds building this evaluator took, by the solver's estimate:
    /// the factorisation, one solve per jump, and one per state when the
    /// inverse is held densely (boards of at most [`MAX_UPDATE_STATES`]
    /// states).
    pub fn work(&self) -> f64 {
        self.work
    }

    /// Multiply-adds of an update that must solve a column of `N` first
    /// (a moved start on a board past [`MAX_UPDATE_STATES`] states, or on
    /// any board with [`Base::on_demand`]); 0 when the inverse is held and
    /// an update costs O(1).
    pub fn column_work(&self) -> f64 {
        match &self.update {
            Some(d) if !d.full() => self.solve_work,
            _ => 0.0,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Its mean length in turns.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The relative error bound of [`Base::mean`] (docs/figures.md §2b):
    /// over [`tolerance::MEAN_TRUST`] the board's own analysis warns
    /// about its mean.
    pub fn mean_error_bound(&self) -> f64 {
        self.mean_bound
    }

    /// Whether updates apply to this board at all.
    pub fn updates(&self) -> bool {
        self.update.is_some()
    }

    /// The mean length after jump `a` (its position in
    /// [`Board::jumps`]) becomes `after` (`None`: removed).
    ///
    /// The caller checks that the changed board is valid apart from being
    /// winnable ([`admissible`]); a board that cannot be won shows here as
    /// [`Update::Singular`].
    ///
    /// # Panics
    /// If `a` is not the position of a jump of the board.
    pub fn mean_after(&self, a: usize, after: Option<Jump>) -> Update {
        self.mean_after_kept(a, after, &mut ColumnKept::default())
    }

    /// [`Base::mean_after`], keeping in `kept` the last column of the
    /// inverse it solved (boards past [`MAX_UPDATE_STATES`] states), so
    /// that the next update with the same moved start does not solve it
    /// again: the same column, so the same mean to the last bit.
    pub(crate) fn mean_after_kept(
        &self,
        a: usize,
        after: Option<Jump>,
        kept: &mut ColumnKept,
    ) -> Update {
        match self.bounded_after(a, after, kept) {
            Ok(mean) => checked(mean),
            Err(update) => update,
        }
    }

    /// [`Base::mean_after`] before its check: the updated mean with its
    /// error bound (`bound.rs`), or the answer that is not a mean.
    fn bounded_after(
        &self,
        a: usize,
        after: Option<Jump>,
        kept: &mut ColumnKept,
    ) -> Result<Bounded, Update> {
        let Some(d) = &self.update else {
            return Err(Update::Resolve);
        };
        let before = self.board.jumps()[a];
        let (f, e) = (before.from(), before.to());
        let index = |s: Square| -> Option<Option<usize>> {
            if s == d.last {
                Some(None)
            } else {
                match d.state_at[s.index()] {
                    NO_STATE => None,
                    i => Some(Some(i as usize)),
                }
            }
        };
        let Some(ei) = index(e) else {
            return Err(Update::Resolve);
        };
        let z = &d.z[a];
        let t = &d.t;
        let s0 = d.start;
        let Some(j) = after else {
            return self.bordered(d, a, ei, None, kept);
        };
        let (f2, e2) = (j.from(), j.to());
        if f2 >= d.last || e2 > d.last || f2.get() == 0 || e2.get() == 0 {
            return Err(Update::Resolve);
        }
        // A new chain (the new end on a jump's start, or another jump's end
        // on the new start) is not a rank-one change.
        let others_ending = d.ends[f2.index()] - u16::from(f2 == e);
        if self.board.jump_index(e2).is_some_and(|b| b != a) || others_ending > 0 || e2 == f {
            return Err(Update::Resolve);
        }
        let Some(e2i) = index(e2) else {
            return Err(Update::Resolve);
        };
        if f2 != f {
            return self.bordered(d, a, ei, Some((j, e2i)), kept);
        }
        let ze = &d.z_error[a];
        let bz = |i: Option<usize>| i.map_or(Bounded::exact(0.0), |i| ze.at(z[i], t[i]));
        let bt = |i: Option<usize>| i.map_or(Bounded::exact(0.0), |i| d.t_error.at(t[i], t[i]));
        let denominator = Bounded::exact(1.0) - (bz(e2i) - bz(ei));
        if denominator.v <= tolerance::UPDATE_DENOMINATOR {
            return Err(Update::Singular);
        }
        let mean = bt(Some(s0)) + bz(Some(s0)) * (bt(e2i) - bt(ei)) / denominator;
        Ok(mean)
    }

    /// The start moved or the jump removed: Woodbury on the old states,
    /// then the Schur complement of the old start's new state.
    fn bordered(
        &self,
        d: &Dense,
        a: usize,
        ei: Option<usize>,
        after: Option<(Jump, Option<usize>)>,
        kept: &mut ColumnKept,
    ) -> Result<Bounded, Update> {
        let e = self.board.jumps()[a].to();
        let z = &d.z[a];
        let t = &d.t;
        // f′'s state, when tokens landed on it before (else q = 0).
        let f2i = after.and_then(|(j, _)| match d.state_at[j.from().index()] {
            NO_STATE => None,
            i => Some(i as usize),
        });
        let f2_is_e = after.is_some_and(|(j, _)| j.from() == e);
        // N·q at state p, from column f′ of N.
        let column = f2i.map(|c| (c, d.column_kept(c, kept)));
        let ze = &d.z_error[a];
        let exact = Bounded::exact;
        let zf = |p: usize| ze.at(z[p], t[p]);
        let tf = |p: usize| d.t_error.at(t[p], t[p]);
        let w = |p: usize| match &column {
            Some((c, (n, ne))) => {
                ne.at(n[p], t[p])
                    - exact(f64::from(u8::from(p == *c)))
                    - if f2_is_e { zf(p) } else { exact(0.0) }
            }
            None => exact(0.0),
        };
        let v1 = |x: &dyn Fn(usize) -> Bounded| ei.map_or(exact(0.0), x);
        let v2 = |x: &dyn Fn(usize) -> Bounded| match after {
            Some((_, e2i)) => e2i.map_or(exact(0.0), x) - f2i.map_or(exact(0.0), x),
            None => exact(0.0),
        };
        let c00 = exact(1.0) + v1(&zf);
        let c01 = -v1(&w);
        let c10 = v2(&zf);
        let c11 = exact(1.0) - v2(&w);
        let det = c00 * c11 - c01 * c10;
        if det.v <= tolerance::UPDATE_DENOMINATOR {
            return Err(Update::Singular);
        }
        // k = C⁻¹·Vᵀ·β for β = t and β = z.
        let k = |beta: &dyn Fn(usize) -> Bounded| {
            let (b0, b1) = (v1(beta), v2(beta));
            ((c11 * b0 - c01 * b1) / det, (-c10 * b0 + c00 * b1) / det)
        };
        let (kt, kz) = (k(&tf), k(&zf));
        let g = |p: usize| tf(p) - zf(p) * kt.0 + w(p) * kt.1;
        let h = |p: usize| zf(p) - zf(p) * kz.0 + w(p) * kz.1;
        let mut stay = exact(0.0);
        let (mut rg, mut rh) = (exact(0.0), exact(0.0));
        for &(end, p) in &d.rows[a] {
            let square = match end {
                RowEnd::Stay => {
                    stay = stay + exact(p);
                    continue;
                }
                RowEnd::Finish => continue,
                RowEnd::Rest(s) => s,
            };
            let square = match after {
                Some((j, _)) if square == j.from() => j.to(),
                _ => square,
            };
            if square == d.last {
                continue;
            }
            match d.state_at[square.index()] {
                NO_STATE => return Err(Update::Resolve),
                i => {
                    rg = rg + exact(p) * g(i as usize);
                    rh = rh + exact(p) * h(i as usize);
                }
            }
        }
        let denominator = exact(1.0) - stay - rh;
        if denominator.v <= tolerance::UPDATE_DENOMINATOR {
            return Err(Update::Singular);
        }
        let y = (exact(1.0) + rg) / denominator;
        Ok(g(d.start) + h(d.start) * y)
    }
}

/// Most relative error bound (`src/design/eval/bound.rs`) an updated mean
/// may carry; one with a larger bound is [`Update::Resolve`]d. Half of
/// [`tolerance::UPDATE_AGREEMENT`], so that an updated mean and a fresh
/// solve of the same board (itself accurate to far less) agree within it.
pub const MAX_UPDATE_ERROR: f64 = tolerance::UPDATE_AGREEMENT / 2.0;

fn checked(mean: Bounded) -> Update {
    if !(mean.v.is_finite() && mean.v >= 1.0 - tolerance::UPDATE_DENOMINATOR) {
        Update::Singular
    } else if mean.relative().is_nan() || mean.relative() > MAX_UPDATE_ERROR {
        // Also a bound that is not a number.
        Update::Resolve
    } else {
        Update::Mean(mean.v)
    }
}

impl Dense {
    /// Whether all of N is held.
    fn full(&self) -> bool {
        matches!(self.inverse, Inverse::Full(..))
    }

    /// Column `c` of N: the expected visits to state `c` from each state,
    /// and its error bound.
    fn column(&self, c: usize) -> (Cow<'_, [f64]>, InputError) {
        match &self.inverse {
            Inverse::Full(m, errors) => {
                let n = m.nrows();
                (Cow::Borrowed(&m.as_slice()[c * n..(c + 1) * n]), errors[c])
            }
            Inverse::Solve(solver, chain) => {
                let mut b = vec![0.0; solver.len()];
                b[c] = 1.0;
                let x = solver.solve(&b);
                let error = self.check.of(chain, &x, &|s| f64::from(u8::from(s == c)));
                (Cow::Owned(x), error)
            }
        }
    }
}

/// Right-hand sides solved together by one task: the sparse solver of a
/// small chain sweeps eight at once, and a task is long enough to be worth
/// handing to another thread.
const SOLVE_GROUP: usize = 8;

/// `solver.solve` of each of `bs`, in groups of [`SOLVE_GROUP`] on every
/// core, in order (each the same digits as solved alone).
fn solve_all(solver: &Solver, bs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    bs.par_chunks(SOLVE_GROUP)
        .map(|group| {
            let refs: Vec<&[f64]> = group.iter().map(Vec::as_slice).collect();
            solver.solve_many(&refs)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

/// `N = (I − Q)⁻¹` solved column by column: `N·δ_c` for each state `c`,
/// non-negative right-hand sides, which the sparse solver takes without
/// subtraction (module docs of `markov::sparse::sweep`), and each column's
/// error bound. `None` if some entry is not finite.
fn inverse_by_columns(
    solver: &Solver,
    chain: &Chain,
    check: &Check,
    n: usize,
) -> Option<(DMatrix<f64>, Vec<InputError>)> {
    let mut data = Vec::with_capacity(n * n);
    for first in (0..n).step_by(SOLVE_GROUP * 64) {
        let units: Vec<Vec<f64>> = (first..(first + SOLVE_GROUP * 64).min(n))
            .map(|c| {
                let mut b = vec![0.0; n];
                b[c] = 1.0;
                b
            })
            .collect();
        for column in solve_all(solver, &units) {
            data.extend(column);
        }
    }
    if !data.iter().all(|x| x.is_finite()) {
        return None;
    }
    let errors = data
        .par_chunks(n.max(1))
        .enumerate()
        .map(|(c, column)| check.of(chain, column, &|s| f64::from(u8::from(s == c))))
        .collect();
    Some((DMatrix::from_vec(n, n, data), errors))
}

/// What bounds the error of a solve with one factorisation
/// ([`InputError`]): `t̂`'s residual and the solver's forward bound.
#[derive(Clone, Debug)]
struct Check {
    /// `1/(1 − ρₜ)`, with `ρₜ` the bound on `t̂`'s residual: `tₚ` is at most
    /// `t̂ₚ` times this (infinite when `ρₜ ≥ 1/2`).
    t_scale: f64,
    /// `τ`, the forward bound relative to the solution for the stored
    /// kernel (docs/figures.md §2b with the kernel's own rounding left
    /// out), or infinite.
    tau: f64,
}

impl Check {
    /// The check of `t̂` solved with `solver`, and `t̂`'s own bound. A
    /// residual of `t̂` of 1/2 or more bounds nothing (a game of 10¹⁹
    /// turns leaves one of about 10³); then only the forward bound speaks.
    fn new(chain: &Chain, solver: &Solver, t: &[f64]) -> (Check, InputError) {
        let (rho, _) = accuracy::residual_bound_of(chain, t, &|_| 1.0);
        let e = accuracy::stored_forward_bound(chain, solver);
        let tau = if e.is_finite() && e < 0.5 {
            e.exp_m1()
        } else {
            f64::INFINITY
        };
        let check = Check {
            t_scale: if rho < 0.5 {
                1.0 / (1.0 - rho)
            } else {
                f64::INFINITY
            },
            tau,
        };
        let t_error = check.of(chain, t, &|_| 1.0);
        (check, t_error)
    }

    /// The error bound of `x̂`, solved from the right-hand side `b`: its
    /// residual (one pass over the kernel in double-double, rounding
    /// bounded) times `t`'s bound, or the forward bound where the residual
    /// is consistent with it.
    fn of(&self, chain: &Chain, x: &[f64], b: &dyn Fn(usize) -> f64) -> InputError {
        let (r, of_terms) = accuracy::residual_bound_of(chain, x, b);
        let relative = if self.tau.is_finite() && accuracy::consistent_with(of_terms, self.tau) {
            self.tau / (1.0 - self.tau)
        } else {
            f64::INFINITY
        };
        InputError {
            residual: if self.t_scale.is_finite() {
                r * self.t_scale
            } else {
                f64::INFINITY
            },
            relative,
        }
    }
}

/// The parts of the update, or `None` when it does not apply.
fn dense(
    board: &Board,
    chain: Chain,
    solver: Solver,
    t: Vec<f64>,
    dense_limit: usize,
) -> Option<Dense> {
    let n = chain.len();
    let jumps = board.jumps();
    if board.rules().extra_turn().is_some()
        || jumps.iter().any(|j| board.jump_index(j.to()).is_some())
    {
        return None;
    }
    let last = board.last();
    let mut state_at = vec![NO_STATE; last.index() + 1];
    for (i, s) in chain.squares().iter().enumerate() {
        state_at[s.index()] = i as u32;
    }
    let mut ends = vec![0u16; last.index() + 1];
    for j in jumps {
        ends[j.to().index()] = ends[j.to().index()].saturating_add(1);
    }
    let mut u = vec![vec![0.0; n]; jumps.len()];
    for s in chain.states() {
        for use_ in chain.jump_uses(s).iter() {
            u[use_.jump as usize][s.get()] += use_.expected;
        }
    }
    let z = solve_all(&solver, &u);
    if z.iter().flatten().any(|x| !x.is_finite()) {
        return None;
    }
    let (check, t_error) = Check::new(&chain, &solver, &t);
    let z_error = z
        .par_iter()
        .zip(&u)
        .map(|(z, u)| check.of(&chain, z, &|s| u[s]))
        .collect();
    let full = if n <= dense_limit {
        Some(inverse_by_columns(&solver, &chain, &check, n)?)
    } else {
        None
    };
    let sink = n as u32 + 1;
    let mut entries = Vec::with_capacity(chain.entries());
    for s in chain.states() {
        for tr in chain.row(s) {
            let to = match tr.to {
                Target::State(e) => e.get() as u32,
                Target::Finish => sink,
            };
            entries.push((s.get() as u32, to, tr.probability));
        }
    }
    let (column, from, probability) = by_column(n + 2, &entries);
    let rows = jumps
        .iter()
        .map(|jump| {
            let f = jump.from();
            board
                .rules()
                .dice()
                .rolls()
                .iter()
                .map(|o| {
                    let step = board.roll_end(f, 0, o.total);
                    let takes = board
                        .jump_index(f)
                        .is_some_and(|a| step.walk.takes(board, a));
                    let end = if step.end == f || takes {
                        RowEnd::Stay
                    } else if step.finished {
                        RowEnd::Finish
                    } else {
                        RowEnd::Rest(step.end)
                    };
                    (end, o.probability)
                })
                .collect()
        })
        .collect();
    let start = chain.start().get();
    // Past MAX_UPDATE_STATES a column is solved, and its bound checked
    // against the chain, when an update asks for it.
    let inverse = match full {
        Some((m, errors)) => Inverse::Full(m, errors),
        None => Inverse::Solve(Arc::new(solver), Arc::new(chain)),
    };
    Some(Dense {
        start,
        last,
        inverse,
        check,
        t_error,
        z_error,
        t,
        state_at,
        ends,
        z,
        rows,
        column,
        from,
        probability,
        u,
    })
}

/// `entries` `(from, to, probability)` over `width` states by column: the
/// offsets of each column (`width + 1` of them), then the states moved from
/// and the probabilities, by column and, within one, by the state moved
/// from.
fn by_column(width: usize, entries: &[(u32, u32, f64)]) -> (Vec<usize>, Vec<u32>, Vec<f64>) {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|&(s, to, _)| (to, s));
    let mut column = vec![0usize; width + 1];
    for &(_, to, _) in &sorted {
        column[to as usize + 1] += 1;
    }
    for c in 0..width {
        column[c + 1] += column[c];
    }
    let from = sorted.iter().map(|&(s, _, _)| s).collect();
    let probability = sorted.iter().map(|&(_, _, p)| p).collect();
    (column, from, probability)
}

/// Whether jump `a` of `board` may become `after` as far as the rules of a
/// layout go, checked in O(1): on the board, the same kind, not on the
/// start or the last square, no other jump starting on its start, and under
/// `chains: forbid` no chain. Whether the changed board can be won is left
/// to the update ([`Update::Singular`]) or to validation.
pub fn admissible(board: &Board, a: usize, after: Jump) -> bool {
    let before = board.jumps()[a];
    let (f2, e2) = (after.from(), after.to());
    let last = board.last();
    if f2 == board.rules().start()
        || f2.get() == 0
        || f2 >= last
        || e2.get() == 0
        || e2 > last
        || f2 == e2
        || after.kind() != before.kind()
    {
        return false;
    }
    if board.jump_index(f2).is_some_and(|b| b != a) {
        return false;
    }
    if board.rules().chains() == Chains::Forbid {
        // The new end may be the old start: that is a rest square now.
        if board.jump_index(e2).is_some_and(|b| b != a) {
            return false;
        }
        if board
            .jumps()
            .iter()
            .enumerate()
            .any(|(b, j)| b != a && j.to() == f2)
        {
            return false;
        }
    }
    true
}

mod bound;
mod kept;
mod lanes;
#[cfg(test)]
pub(crate) use lanes::CLOSED_BY_MODES;
mod modes;

use crate::markov::analysis::accuracy;
use bound::{Bounded, InputError};
pub(crate) use kept::ColumnKept;

#[cfg(test)]
mod tests;
