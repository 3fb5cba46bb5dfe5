//! What [`tune`](super::tune) and [`generate_to_target`](super::generate_to_target) share: the
//! candidates of one step (every admissible move of every movable jump of a
//! solved board, with its mean) and the fresh check of a chosen board.

use super::budget::Meter;
use super::eval::{self, Base, ColumnKept, JumpChange, Update};
use super::{
    DesignError, MAX_UPDATE_STATES, Target, mix, moves_of, placements_iter, placements_of,
};
use crate::markov::tolerance;
use crate::par::*;
use crate::{Board, BoardSpec, Jump};

/// Most moves per jump re-solved one by one when the update does not apply
/// to a board (extra rolls, chains): a fresh solve costs about as much as a
/// thousand updates, so a step samples these many, chosen by the seed.
pub const RESOLVE_SAMPLE: usize = 24;

/// One candidate: jump `jump` of the step's board moved to `after`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Candidate {
    pub jump: usize,
    pub after: Jump,
    /// Its mean, by the update or a fresh solve.
    pub mean: f64,
    /// A number from the seed, to break ties.
    pub tie: u64,
}

impl Candidate {
    pub fn change(&self, board: &Board) -> JumpChange {
        JumpChange {
            before: board.jumps()[self.jump],
            after: Some(self.after),
        }
    }
}

/// Every candidate of one step from `base`, for the jumps `movable`
/// allows, jump by jump, the jumps on every core: `each` is given
/// each movable jump's position and its candidates and may keep what it needs of them, so that
/// the candidates of all jumps are never held at once (on a board of 1,500
/// squares a jump has about a million placements). The results come back
/// in the order of the jumps, with how many boards were evaluated: every
/// placement whose mean was taken, except those at most `counted_beyond`
/// squares from their jump ([`JumpChange::displacement`]), which `tune`'s
/// first level in order of preference evaluated already
/// (`design/tune/ordered.rs`); 0 counts every one, as each moves at least
/// one square.
///
/// With `meter`, a jump's candidates stop once it is spent (its work or
/// its time), so that a limit stops the step within a few candidates: a
/// placement the update does not serve is a fresh solve, so even a small
/// board's step can outlast a time limit. On a board of more than
/// [`MAX_UPDATE_STATES`] squares (where a moved start solves a column of
/// the inverse, and a jump has tens of millions of placements) each
/// candidate is also charged to it as it is evaluated; up to that size the
/// caller charges the step as a whole.
/// How many uncharged candidates are evaluated between two readings of the
/// meter's clock.
const CHECK_EVERY: u64 = 64;

pub(crate) fn candidates_by_jump<R: Send>(
    base: &Base,
    movable: &(dyn Fn(usize) -> bool + Sync),
    wide: bool,
    seed: u64,
    meter: Option<&Meter>,
    counted_beyond: u64,
    each: &(dyn Fn(usize, Vec<Candidate>) -> R + Sync),
) -> (Vec<R>, u64) {
    let board = base.board();
    let spec = board.spec();
    let jumps: Vec<usize> = (0..board.jumps().len()).filter(|&a| movable(a)).collect();
    let found: Vec<(R, u64)> = jumps
        .par_iter()
        .map(|&a| {
            let (out, evaluated) =
                jump_candidates(base, &spec, a, wide, seed, meter, counted_beyond);
            (each(a, out), evaluated)
        })
        .collect();
    let evaluated = found.iter().map(|f| f.1).sum();
    (found.into_iter().map(|f| f.0).collect(), evaluated)
}

/// The candidates of jump `a` of `base`'s board (whose spec is `spec`), and
/// how many boards were evaluated, not counting those within
/// `counted_beyond` squares of the jump; with `meter` on a large board, each
/// charged as it goes and none after it is spent ([`candidates_by_jump`]).
fn jump_candidates(
    base: &Base,
    spec: &BoardSpec,
    a: usize,
    wide: bool,
    seed: u64,
    meter: Option<&Meter>,
    counted_beyond: u64,
) -> (Vec<Candidate>, u64) {
    let board = base.board();
    let squares = board.last().get();
    let charge = squares as usize > MAX_UPDATE_STATES;
    let mut out = Vec::new();
    let mut evaluated = 0;
    let jump = board.jumps()[a];
    let from = jump.from();
    // Whether a placement is counted: not one evaluated before.
    let counted = |after: Jump| {
        counted_beyond == 0
            || JumpChange {
                before: jump,
                after: Some(after),
            }
            .displacement()
                > counted_beyond
    };
    let mut kept = ColumnKept::default();
    let mut last_start = from;
    let mut tried: u64 = 0;
    let mut evaluate = |after: Jump, tie: u64| -> bool {
        tried += 1;
        if let Some(m) = meter {
            // Uncharged candidates are an update each (a few hundred
            // nanoseconds): the clock is read every CHECK_EVERY of them.
            if (charge || tried % CHECK_EVERY == 1) && m.spent().is_some() {
                return false;
            }
            if charge && !base.updates() {
                m.charge_candidates(squares, 0, 1);
            } else if charge {
                m.charge_candidates(squares, 1, 0);
                // A column solved per new start (kept for the next move).
                if after.from() != from && after.from() != last_start {
                    m.charge(base.column_work());
                }
                last_start = after.from();
            }
        }
        evaluated += u64::from(counted(after));
        if let Some(mean) = mean_of(base, spec, a, after, &mut kept) {
            out.push(Candidate {
                jump: a,
                after,
                mean,
                tie,
            });
        }
        true
    };
    if wide && base.updates() {
        // Not listed first: a jump of a large board has tens of millions
        // of placements.
        for after in placements_iter(board, a).filter(|&j| eval::admissible(board, a, j)) {
            if !evaluate(after, tie(seed, a, after)) {
                break;
            }
        }
        return (out, evaluated);
    }
    if meter.is_some_and(|m| m.spent().is_some()) {
        return (out, evaluated);
    }
    let all = if wide {
        placements_of(board, a)
    } else {
        moves_of(board, a)
    };
    let mut moves: Vec<(Jump, u64)> = all
        .into_iter()
        .filter(|&j| eval::admissible(board, a, j))
        .map(|j| (j, tie(seed, a, j)))
        .collect();
    if !base.updates() && moves.len() > RESOLVE_SAMPLE {
        moves.sort_by_key(|m| m.1);
        moves.truncate(RESOLVE_SAMPLE);
    }
    for (after, tie) in moves {
        if !evaluate(after, tie) {
            break;
        }
    }
    (out, evaluated)
}

/// The mean of `base`'s board with jump `a` moved to `after`: by the
/// update, else (when it does not apply) validated, compiled and solved;
/// `None` when that board is not valid or cannot be won. A column of the
/// inverse the update solves is left in `kept` for the next call
/// ([`Base::mean_after_kept`]): moves with the same start share it.
pub(crate) fn mean_of(
    base: &Base,
    spec: &BoardSpec,
    a: usize,
    after: Jump,
    kept: &mut ColumnKept,
) -> Option<f64> {
    #[cfg(test)]
    MEANS_TAKEN.with(|n| n.set(n.get() + 1));
    match base.mean_after_kept(a, Some(after), kept) {
        Update::Mean(m) => Some(m),
        Update::Singular => None,
        Update::Resolve => {
            let change = JumpChange {
                before: base.board().jumps()[a],
                after: Some(after),
            };
            let board = Board::from_spec(&eval::apply(spec, &[change])).ok()?;
            eval::solve_mean(&board).ok()
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Calls of [`mean_of`] on this thread: every candidate's mean the
    /// searches take, counted apart from the counts they report.
    static MEANS_TAKEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// `f` run on one thread, with the candidates' means it took
/// ([`mean_of`] calls), for tests of the counts the searches report.
#[cfg(test)]
pub(crate) fn means_taken<T: Send>(f: impl FnOnce() -> T + Send) -> (T, u64) {
    let counted = || {
        let before = MEANS_TAKEN.with(std::cell::Cell::get);
        let out = f();
        (out, MEANS_TAKEN.with(std::cell::Cell::get) - before)
    };
    #[cfg(feature = "parallel")]
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool of one thread");
        pool.install(counted)
    }
    #[cfg(not(feature = "parallel"))]
    counted()
}

/// The tie-break of moving jump `a` to `j` under `seed`.
pub(crate) fn tie(seed: u64, a: usize, j: Jump) -> u64 {
    let key = (u64::from(j.from().get()) << 32) | u64::from(j.to().get());
    mix(seed, key ^ ((a as u64) << 58))
}

/// A board checked afresh: valid, its mean solved (and agreeing with the
/// update's), and its advantage when the target caps it and its mean is in
/// the band (`None` there when the games are too long to sum it:
/// [`eval::first_seat_advantage`]).
pub(crate) struct Checked {
    pub board: Board,
    pub mean: f64,
    pub advantage: Option<f64>,
}

impl Checked {
    /// Whether it meets the target: a capped advantage must be known to be
    /// within the cap.
    pub fn meets(&self, target: &Target) -> bool {
        target.contains(self.mean)
            && (target.max_first_seat_advantage.is_none()
                || self.advantage.is_some_and(|a| target.fair_enough(a)))
    }
}

/// Compiles and solves a (validated) board; `None` when it cannot be
/// analysed.
///
/// # Errors
/// [`DesignError::Disagrees`] when the fresh mean is not `expected`.
pub(crate) fn check(
    board: &Board,
    expected: f64,
    target: &Target,
) -> Result<Option<Checked>, DesignError> {
    let Ok(mean) = eval::solve_mean(board) else {
        return Ok(None);
    };
    if (mean - expected).abs() > tolerance::UPDATE_AGREEMENT * mean {
        return Err(DesignError::Disagrees {
            update: expected,
            solved: mean,
        });
    }
    let advantage = match target.max_first_seat_advantage {
        Some(_) if target.contains(mean) => eval::first_seat_advantage(board)?,
        _ => None,
    };
    Ok(Some(Checked {
        board: board.clone(),
        mean,
        advantage,
    }))
}
