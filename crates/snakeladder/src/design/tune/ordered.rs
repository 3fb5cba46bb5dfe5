//! `tune`'s first level in the order it prefers answers, so that it can stop
//! at the first that checks out instead of evaluating every placement of
//! every jump first (about 300 million on a board of 1,500 squares and 400
//! jumps).
//!
//! # Why the answer is the same
//! On the first level the squares a candidate moves in all are its own
//! displacement, `|f − f′| + |e − e′|`, and the search takes the answers
//! (means in the band) by displacement first, then by distance from the
//! middle of the band, then by the seed's tie-break, then by jump and
//! placement (the order they are listed in; placements are listed by start,
//! then end). So the answers of displacement 1, then 2, … each sorted by the
//! rest, are the full level's answers in its own order, and checked in the
//! same chunks of eight. When the answers run out, or after
//! [`GIVE_UP_SHARE`] of the candidates, the full level runs as before,
//! checking from where this left off.
//!
//! # What it counts
//! Only the placements it evaluates, displacement by displacement
//! ([`Answers::evaluated`]): an answer found at displacement `d` leaves
//! every placement of a larger displacement unevaluated, and `tune`
//! reports those apart, as ruled out ([`count_admissible`] of the level
//! less those evaluated), never as evaluated. The full level run after it
//! counts only the placements beyond the displacements it tried
//! ([`Answers::tried`]), so that no board is counted twice
//! (docs/design-search.md §1).

use super::super::Target;
use super::super::budget::Meter;
use super::super::eval::{Base, ColumnKept, admissible};
#[cfg(any(test, doc))]
use super::super::placements_of;
use super::super::search::{self, Candidate};
use crate::par::*;
use crate::{Board, Chains, Jump, JumpKind, Square};

/// One in this share of a level's candidates is the most the ordered search
/// evaluates before it leaves the level to the full search.
pub(super) const GIVE_UP_SHARE: u64 = 8;

/// The admissible placements of jump `a` ([`placements_of`] filtered by
/// [`admissible`]), counted from the board's jumps in O(squares).
pub(super) fn count_admissible(board: &Board, a: usize) -> u64 {
    let jump = board.jumps()[a];
    let last = board.last().get() as usize;
    let ladder = jump.kind() == JumpKind::Ladder;
    let forbid = board.rules().chains() == Chains::Forbid;
    let (mut other_start, mut other_end) = (vec![false; last + 1], vec![false; last + 1]);
    for (b, j) in board.jumps().iter().enumerate() {
        if b != a {
            other_start[j.from().index()] = true;
            other_end[j.to().index()] = true;
        }
    }
    // starts_upto[s]: other jumps starting on squares 1..=s.
    let mut starts_upto = vec![0u64; last + 1];
    for s in 1..=last {
        starts_upto[s] = starts_upto[s - 1] + u64::from(other_start[s]);
    }
    let start = board.rules().start().index();
    let mut total = 0u64;
    for f2 in 1..last {
        if f2 == start || other_start[f2] || (forbid && other_end[f2]) {
            continue;
        }
        let (lo, hi) = if ladder { (f2 + 1, last) } else { (1, f2 - 1) };
        if lo > hi {
            continue;
        }
        let mut ends = (hi - lo + 1) as u64;
        if forbid {
            ends -= starts_upto[hi] - starts_upto[lo - 1];
        }
        total += ends;
    }
    // The jump itself is not one of its placements.
    total - u64::from(admissible(board, a, jump))
}

/// The placements of jump `a` at displacement exactly `d` that
/// [`placements_of`] lists and [`admissible`] allows, by start then end.
fn at_displacement(board: &Board, a: usize, d: u32) -> Vec<Jump> {
    let jump = board.jumps()[a];
    let last = i64::from(board.last().get());
    let ladder = jump.kind() == JumpKind::Ladder;
    let (f, e) = (i64::from(jump.from().get()), i64::from(jump.to().get()));
    let d = i64::from(d);
    let mut out = Vec::with_capacity(4 * d as usize);
    for df in -d..=d {
        let rest = d - df.abs();
        let f2 = f + df;
        if !(1..last).contains(&f2) {
            continue;
        }
        let ends: &[i64] = if rest == 0 { &[0] } else { &[-rest, rest] };
        for &de in ends {
            let e2 = e + de;
            if !(1..=last).contains(&e2) || (e2 > f2) != ladder || e2 == f2 {
                continue;
            }
            let j = Jump::new(Square::new(f2 as u32), Square::new(e2 as u32));
            if admissible(board, a, j) {
                out.push(j);
            }
        }
    }
    out
}

/// The first level's answers in the order the search prefers them, one
/// displacement at a time; `None` once they run out or the ordered search
/// has evaluated its share.
pub(super) struct Answers<'a> {
    base: &'a Base,
    spec: crate::BoardSpec,
    movable: Vec<usize>,
    target: Target,
    seed: u64,
    d: u32,
    max_d: u32,
    /// Placements evaluated, those of a displacement a limit cut short
    /// too.
    evaluated: u64,
    budget: u64,
    meter: &'a Meter,
    /// Whether each candidate is charged to the meter as it is evaluated
    /// (else the caller charged them all beforehand).
    charge: bool,
}

impl<'a> Answers<'a> {
    /// The answers of `base`'s board moving the jumps `movable` allows, of
    /// which there are `count` admissible placements in all. The order
    /// stops once `meter` is spent (its work or its time: a candidate the
    /// update does not serve is a fresh solve, so even a small board's
    /// order can outlast a time limit); with `charge`, each candidate is
    /// charged to it as it is evaluated (a moved start at the cost of a
    /// solve, [`Base::column_work`]).
    pub fn new(
        base: &'a Base,
        movable: &dyn Fn(usize) -> bool,
        target: Target,
        seed: u64,
        count: u64,
        meter: &'a Meter,
        charge: bool,
    ) -> Answers<'a> {
        let board = base.board();
        Answers {
            base,
            spec: board.spec(),
            movable: (0..board.jumps().len()).filter(|&a| movable(a)).collect(),
            target,
            seed,
            d: 0,
            max_d: 2 * board.last().get(),
            evaluated: 0,
            budget: count / GIVE_UP_SHARE,
            meter,
            charge,
        }
    }

    /// Whether every displacement was tried (else the search gave up at
    /// its share, or has not yet reached the end).
    pub fn tried_all(&self) -> bool {
        self.d >= self.max_d
    }

    /// The largest displacement tried: every placement of every movable
    /// jump within it was evaluated, unless a limit cut the last one short
    /// (which then stops the level: nothing more is evaluated).
    pub fn tried(&self) -> u32 {
        self.d
    }

    /// Placements evaluated so far (each by the update of the board's
    /// solve, or a fresh solve where it does not apply).
    pub fn evaluated(&self) -> u64 {
        self.evaluated
    }

    /// The answers of the next displacement, best first; `None` when there
    /// is none left to try or the share is spent (the caller then runs the
    /// full level).
    pub fn next_displacement(&mut self) -> Option<Vec<Candidate>> {
        if self.d >= self.max_d || self.evaluated > self.budget || self.meter.spent().is_some() {
            return None;
        }
        self.d += 1;
        let (base, spec, target, seed, d) = (self.base, &self.spec, self.target, self.seed, self.d);
        let (meter, charge) = (self.meter, self.charge);
        let squares = base.board().last().get();
        let found: Vec<(Vec<Candidate>, u64)> = self
            .movable
            .par_iter()
            .map(|&a| {
                let moves = at_displacement(base.board(), a, d);
                let n = moves.len() as u64;
                // A displacement a limit cut short is dropped below.
                if meter.spent().is_some() {
                    return (Vec::new(), 0);
                }
                if charge {
                    let m = meter;
                    let from = base.board().jumps()[a].from();
                    // One solve per start other than the jump's own.
                    let mut starts: Vec<_> = moves.iter().map(|j| j.from()).collect();
                    starts.dedup();
                    let columns = starts.iter().filter(|&&f| f != from).count();
                    m.charge_candidates(squares, n, 0);
                    m.charge(columns as f64 * base.column_work());
                }
                // Moves are listed by start: those with one start share
                // its column of the inverse.
                let mut kept = ColumnKept::default();
                let inside = moves
                    .into_iter()
                    .filter_map(|after| {
                        let mean = search::mean_of(base, spec, a, after, &mut kept)?;
                        target.contains(mean).then(|| Candidate {
                            jump: a,
                            after,
                            mean,
                            tie: search::tie(seed, a, after),
                        })
                    })
                    .collect();
                (inside, n)
            })
            .collect();
        // Evaluated, even when the displacement is dropped below.
        self.evaluated += found.iter().map(|f| f.1).sum::<u64>();
        if self.meter.spent().is_some() {
            // Some jumps may be missing: not the level's order.
            return None;
        }
        let mut answers = Vec::new();
        for (inside, _) in found {
            answers.extend(inside);
        }
        let center = (target.min_turns + target.max_turns) / 2.0;
        answers.sort_by(|x, y| {
            (x.mean - center)
                .abs()
                .total_cmp(&(y.mean - center).abs())
                .then(x.tie.cmp(&y.tie))
                .then(x.jump.cmp(&y.jump))
                .then((x.after.from(), x.after.to()).cmp(&(y.after.from(), y.after.to())))
        });
        Some(answers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seed;
    use crate::design::Layout;

    /// The count is the length of the filtered list, under each chain rule.
    #[test]
    fn admissible_placements_are_counted_without_listing_them() {
        let mut boards = vec![Board::builtin_default()];
        for seed in 1..4 {
            boards.push(Layout::new(60, 5, 5, Seed::new(seed)).generate().unwrap());
        }
        boards.push(
            Board::from_json_str(
                r#"{"squares": 40, "ladders": [[4, 20], [20, 35]], "snakes": [[38, 5]],
                    "rules": {"start": 1, "chains": "follow"}}"#,
            )
            .unwrap(),
        );
        for board in &boards {
            for a in 0..board.jumps().len() {
                let listed = placements_of(board, a)
                    .into_iter()
                    .filter(|&j| admissible(board, a, j))
                    .count() as u64;
                assert_eq!(count_admissible(board, a), listed, "jump {a}");
                let by_d: usize = (1..=2 * board.last().get())
                    .map(|d| at_displacement(board, a, d).len())
                    .sum();
                assert_eq!(by_d as u64, listed, "jump {a}");
            }
        }
    }
}
