//! One step of the local search of [`generate_to_target`](super::generate_to_target):
//! every admissible move of every jump ([`moves_of`]) evaluated, of which
//! the step keeps only what it uses: the [`CHECKS_PER_STEP`] moves into the
//! band nearest its middle, and the move that brings the mean closest to
//! the band. Neither depends on the order the moves are evaluated in (each
//! is the first by a total order: its measure, the seed's tie-break, the
//! jump; within a jump the tie-breaks differ), so the moves are evaluated
//! in the order that suits the evaluator:
//!
//! - moves of a jump's end (its start kept) need no column of the inverse,
//!   jump by jump;
//! - moves to a new start need column f′ of the inverse; they are taken
//!   start by start, all jumps at once, so that each column is solved once
//!   a step however many jumps move there. On a board past
//!   [`MAX_UPDATE_STATES`](super::super::MAX_UPDATE_STATES) squares, where
//!   columns are solved on demand instead of held, that is one solve per
//!   square a step, as many as building the dense inverse takes, in memory
//!   of one column per thread.
//!
//! When updates do not apply (extra rolls, chains) the moves are sampled
//! and solved jump by jump ([`search::candidates_by_jump`]).

use super::super::budget::Meter;
use super::super::eval::{Base, ColumnKept, admissible};
use super::super::search::{self, Candidate};
use super::super::{MAX_UPDATE_STATES, Target, moves_of};
use super::CHECKS_PER_STEP;
use crate::par::*;
use crate::{BoardSpec, Jump, JumpKind, Square};
use std::cmp::Ordering;

/// What one step keeps of its moves.
pub(super) struct Step {
    /// Moves into the band, nearest its middle first, at most
    /// [`CHECKS_PER_STEP`].
    pub inside: Vec<Candidate>,
    /// The move that brings the mean closest to the band, if any brings it
    /// closer than the board's own distance.
    pub closer: Option<Candidate>,
    /// Moves evaluated.
    pub evaluated: u64,
    /// Whether a spent budget (or the caller) cut the step short: what it
    /// kept is then not the step's.
    pub cut: bool,
}

/// The best kept so far of some of a step's moves.
struct Best {
    inside: Vec<Candidate>,
    closer: Option<Candidate>,
    evaluated: u64,
}

/// The order of the kept moves: `measure`, then the seed's tie-break, then
/// the jump.
fn by(measure: impl Fn(&Candidate) -> f64) -> impl Fn(&Candidate, &Candidate) -> Ordering {
    move |x, y| {
        measure(x)
            .total_cmp(&measure(y))
            .then(x.tie.cmp(&y.tie))
            .then(x.jump.cmp(&y.jump))
    }
}

impl Best {
    fn new() -> Best {
        Best {
            inside: Vec::new(),
            closer: None,
            evaluated: 0,
        }
    }

    /// Keeps `c` if it is among the best, for a board `here` from the band.
    fn add(&mut self, c: Candidate, target: &Target, here: f64) {
        let distance = target.distance(c.mean);
        if distance == 0.0 {
            self.inside.push(c);
            if self.inside.len() >= 4 * CHECKS_PER_STEP {
                self.trim(target);
            }
        }
        let closest = by(|c| target.distance(c.mean));
        if distance < here
            && self
                .closer
                .as_ref()
                .is_none_or(|k| closest(&c, k) == Ordering::Less)
        {
            self.closer = Some(c);
        }
    }

    fn trim(&mut self, target: &Target) {
        let center = target.center();
        self.inside.sort_by(by(|c| (c.mean - center).abs()));
        self.inside.truncate(CHECKS_PER_STEP);
    }

    /// Both kept sets together.
    fn merge(mut self, other: Best, target: &Target) -> Best {
        self.evaluated += other.evaluated;
        self.inside.extend(other.inside);
        self.trim(target);
        let closest = by(|c| target.distance(c.mean));
        self.closer = match (self.closer, other.closer) {
            (Some(x), Some(y)) => Some(if closest(&y, &x) == Ordering::Less {
                y
            } else {
                x
            }),
            (x, y) => x.or(y),
        };
        self
    }
}

/// What every part of one step shares.
struct Context<'a> {
    base: &'a Base,
    spec: BoardSpec,
    target: &'a Target,
    /// The board's distance from the band.
    here: f64,
    seed: u64,
    meter: Option<&'a Meter>,
    /// Whether the step's outcome is no longer wanted.
    stop: &'a (dyn Fn() -> bool + Sync),
}

impl Context<'_> {
    /// Whether a spent budget, or `stop`, stops the step.
    fn spent(&self) -> bool {
        self.meter.is_some_and(|m| m.spent().is_some()) || (self.stop)()
    }

    /// Evaluates the moves `moves` of jump `a` into `best`, charging them;
    /// a column of the inverse solved is left in `kept`.
    fn evaluate(&self, a: usize, moves: &[Jump], kept: &mut ColumnKept, best: &mut Best) {
        let n = moves.len() as u64;
        if let Some(m) = self.meter {
            m.charge_candidates(self.base.board().last().get(), n, 0);
        }
        best.evaluated += n;
        for &after in moves {
            // One jump's moves on a large board are minutes of work in
            // all: a stop flag is read between them.
            if self.meter.is_some_and(Meter::stopped) {
                break;
            }
            if let Some(mean) = search::mean_of(self.base, &self.spec, a, after, kept) {
                let tie = search::tie(self.seed, a, after);
                let c = Candidate {
                    jump: a,
                    after,
                    mean,
                    tie,
                };
                best.add(c, self.target, self.here);
            }
        }
    }
}

/// The step from `base`'s board, `here` from the band: each move and each
/// column solved is charged to `meter` as it goes (on a board of at most
/// [`MAX_UPDATE_STATES`] squares whose moves are solved afresh, the step
/// as a whole), and no more are evaluated once it is spent or `stop()`
/// says so.
pub(super) fn step(
    base: &Base,
    target: &Target,
    here: f64,
    seed: u64,
    meter: &Meter,
    stop: &(dyn Fn() -> bool + Sync),
) -> Step {
    let meter = Some(meter);
    let context = Context {
        base,
        spec: base.board().spec(),
        target,
        here,
        seed,
        meter,
        stop,
    };
    let parts: Vec<Best> = if base.updates() {
        let mut parts = end_moves(&context);
        parts.extend(start_moves(&context));
        parts
    } else {
        let keep = |_, cands: Vec<Candidate>| {
            let mut best = Best::new();
            for c in cands {
                best.add(c, target, here);
            }
            best
        };
        let (mut parts, evaluated) =
            search::candidates_by_jump(base, &|_| true, false, seed, meter, 0, &keep);
        let squares = base.board().last().get();
        if squares as usize <= MAX_UPDATE_STATES {
            // Charged as a whole: only larger boards are charged as they go.
            context
                .meter
                .inspect(|m| m.charge_candidates(squares, 0, evaluated));
        }
        parts.push(Best {
            evaluated,
            ..Best::new()
        });
        parts
    };
    let mut best = Best::new();
    for p in parts {
        best = best.merge(p, target);
    }
    Step {
        inside: best.inside,
        closer: best.closer,
        evaluated: best.evaluated,
        cut: context.spent(),
    }
}

/// The moves of each jump's end, its start kept: no column needed.
fn end_moves(context: &Context) -> Vec<Best> {
    let board = context.base.board();
    (0..board.jumps().len())
        .into_par_iter()
        .map(|a| {
            let mut best = Best::new();
            if context.spent() {
                return best;
            }
            let from = board.jumps()[a].from();
            let moves: Vec<Jump> = moves_of(board, a)
                .into_iter()
                .filter(|j| j.from() == from && admissible(board, a, *j))
                .collect();
            context.evaluate(a, &moves, &mut ColumnKept::default(), &mut best);
            best
        })
        .collect()
}

/// The moves to each new start f′, every jump's at once, sharing column f′
/// of the inverse: the jump's start moved there (its end kept), and the
/// jump shifted there whole.
fn start_moves(context: &Context) -> Vec<Best> {
    let board = context.base.board();
    let last = board.last().get();
    (1..last)
        .into_par_iter()
        .map(|f2| {
            let mut best = Best::new();
            if context.spent() {
                return best;
            }
            let start = Square::new(f2);
            let mut kept = ColumnKept::default();
            for (a, jump) in board.jumps().iter().enumerate() {
                if jump.from() == start {
                    continue;
                }
                let ladder = jump.kind() == JumpKind::Ladder;
                let end = jump.to().get();
                let shifted = i64::from(f2) + i64::from(end) - i64::from(jump.from().get());
                let mut moves = Vec::with_capacity(2);
                if f2 != end && (end > f2) == ladder {
                    moves.push(Jump::new(start, jump.to()));
                }
                if (1..=i64::from(last)).contains(&shifted) {
                    moves.push(Jump::new(start, Square::new(shifted as u32)));
                }
                moves.retain(|&j| admissible(board, a, j));
                context.evaluate(a, &moves, &mut kept, &mut best);
            }
            if let Some(m) = context.meter.filter(|_| kept.solved()) {
                m.charge(context.base.column_work());
            }
            best
        })
        .collect()
}
