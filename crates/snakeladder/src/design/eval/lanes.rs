//! The first seat's advantage of many one-jump variants of a solved board at
//! once: every variant is the board's chain with a few entries of Q changed,
//! so the forward recursion steps all of them together over the board's own
//! transitions, [`LANES`] variants wide, and then mends, variant by variant,
//! the few columns that differ.
//!
//! # Why it is the same sum
//! A turn of the recursion is `π_{t+1}(c) = Σ_s π_t(s)·Q(s, c)`, one sum
//! per column c (the state moved to). The variant's chain is the one
//! [`Base::mean_after`] updates (module docs of `eval`): from each state s
//! the chance `u(s)` of taking jump a leaves column e, the jump's end, for
//! the new end (an end moved) or for the old start f, a new state with f's
//! row on the board before (a start moved, or the jump removed); and every
//! landing on a moved start f′ goes on to the new end e′. So, from the
//! board's column sums, in this order ([`Patch`]):
//!
//! 1. column e is summed again with `Q(s, e) − u(s)`, without subtracting
//!    sums (the board's own probabilities less `u`, as [`Base::mean_after`]
//!    sees them);
//! 2. column f′ is added to column e′ and emptied;
//! 3. the mass `π_t(s)·u(s)` is added to the column it now goes to, and
//!    the old start's row (its mass is 0 on the board itself) to the
//!    columns it reaches.
//!
//! Every other column is the board's, summed once for all lanes; only the
//! order of a few additions differs from stepping the variant's own chain.
//! Each lane stops adding `P(T = t)²` on the turn its own survival falls
//! below [`tolerance::ADVANTAGE_TAIL`], as [`first_seat_advantage`] does,
//! or earlier, with the rest in closed form, once its tail is provably
//! geometric (`closed_tail`); either way on its own, so a variant's value
//! does not depend on which lanes it shared a pass with, nor on the number
//! of threads.

use super::{Base, Dense, RowEnd, Update};
use crate::Jump;
use crate::markov::analysis::distribution::{FIRST_DECAY_CHECK, next_decay_check, test_decay};
use crate::markov::tolerance;
use crate::par::*;

#[cfg(doc)]
use super::first_seat_advantage;

/// How many variants one pass of the recursion carries: sixteen `f64` per
/// state, so that each transition of the board is read once for sixteen
/// variants and its multiply-adds run as independent vector instructions.
pub(super) const LANES: usize = 16;

/// One variant as the recursion needs it, in the numbering of
/// [`Dense::column`]: applied in this order to the board's column sums, it
/// gives the variant's.
pub(super) struct Patch {
    /// Column e, the jump's end, recomputed with the mass that took the jump
    /// left out: its transitions `(from, probability)`.
    end: (u32, Vec<(u32, f64)>),
    /// `(f′, e′)`: column f′ added to column e′ and emptied (every landing
    /// on the moved start goes on to the new end).
    redirect: Option<(u32, u32)>,
    /// Transitions `(from, to, probability)` added last: the mass that took
    /// the jump, to its new end or to the old start, and the old start's
    /// own row.
    added: Vec<(u32, u32, f64)>,
}

impl Base {
    /// The first seat's advantage ([`first_seat_advantage`]) of each change
    /// `(jump, after)` of the board, by the patched recursion; `None` for a
    /// change that [`Base::mean_after`] does not answer with a mean, or whose
    /// patch needs a square without a state (the caller analyses those
    /// afresh), and for every change when updates do not apply at all.
    ///
    /// The changes are ordered by their mean length (from the update) and
    /// cut into passes of [`LANES`] in that order, so that the lanes of a
    /// pass stop at about the same turn; the passes run in parallel. The
    /// values do not depend on the order or the cut. `done(k)` is told of
    /// each pass's `k` variants as it ends; once `stop()` says so, the
    /// passes not yet begun are skipped and their changes left `None`.
    ///
    /// # Panics
    /// If a change's jump is not the position of a jump of the board.
    pub(crate) fn advantages_of(
        &self,
        changes: &[(usize, Option<Jump>)],
        done: &(dyn Fn(u64) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<Option<f64>> {
        let Some(d) = &self.update else {
            return vec![None; changes.len()];
        };
        let mut ready: Vec<(usize, f64, Patch)> = changes
            .iter()
            .enumerate()
            .filter_map(|(i, &(a, after))| match self.mean_after(a, after) {
                Update::Mean(mean) => Some((i, mean, self.patch(d, a, after)?)),
                Update::Singular | Update::Resolve => None,
            })
            .collect();
        // Stable, and a total order: the same passes on every run.
        ready.sort_by(|x, y| x.1.total_cmp(&y.1));
        let values: Vec<Option<[f64; LANES]>> = ready
            .par_chunks(LANES)
            .map(|pass| {
                if stop() {
                    return None;
                }
                let patches: Vec<&Patch> = pass.iter().map(|(_, _, p)| p).collect();
                let values = lanes_advantage(d, &patches);
                done(pass.len() as u64);
                Some(values)
            })
            .collect();
        let mut out = vec![None; changes.len()];
        for (pass, values) in ready.chunks(LANES).zip(values) {
            let Some(values) = values else { continue };
            for ((i, _, _), value) in pass.iter().zip(values) {
                out[*i] = Some(value);
            }
        }
        out
    }

    /// The columns of Q that change when jump `a` becomes `after`, with the
    /// variant's transitions into each; `None` when a square the change
    /// needs has no state.
    fn patch(&self, d: &Dense, a: usize, after: Option<Jump>) -> Option<Patch> {
        let n = d.t.len() as u32;
        let (sink, old_start) = (n + 1, n);
        let jump = self.board.jumps()[a];
        let index = |s: crate::Square| -> Option<u32> {
            if s == d.last {
                Some(sink)
            } else {
                match d.state_at[s.index()] {
                    super::NO_STATE => None,
                    i => Some(i),
                }
            }
        };
        let e = index(jump.to())?;
        let moved_start = after.is_none_or(|j| j.from() != jump.from());
        // Where the mass that took the jump goes, and which column (a
        // landing on the new start) goes on to the new end.
        let (taken, redirect) = match after {
            None => (old_start, None),
            Some(j) if !moved_start => (index(j.to())?, None),
            Some(j) => match d.state_at[j.from().index()] {
                super::NO_STATE => (old_start, None),
                f2 => (old_start, Some((f2, index(j.to())?))),
            },
        };
        // f's row on the board before, in the new numbering.
        let mut row = Vec::new();
        if moved_start {
            for &(end, p) in &d.rows[a] {
                let to = match end {
                    RowEnd::Stay => old_start,
                    RowEnd::Finish => sink,
                    RowEnd::Rest(square) => match after {
                        Some(j) if square == j.from() => index(j.to())?,
                        _ => index(square)?,
                    },
                };
                row.push((to, p));
            }
        }
        let u = &d.u[a];
        let into_end = d.column[e as usize]..d.column[e as usize + 1];
        let mut end = Vec::with_capacity(into_end.len());
        let mut added = Vec::new();
        for (&s, &p) in d.from[into_end.clone()]
            .iter()
            .zip(&d.probability[into_end])
        {
            let took = u[s as usize];
            if took == 0.0 {
                end.push((s, p));
            } else {
                end.push((s, p - took));
                added.push((s, taken, took));
            }
        }
        added.extend(row.into_iter().map(|(to, p)| (old_start, to, p)));
        Some(Patch {
            end: (e, end),
            redirect,
            added,
        })
    }
}

/// `Σ_t P(T = t)²` for up to [`LANES`] variants of the board of `d`, all
/// started on its start, each summed until its own survival is below
/// [`tolerance::ADVANTAGE_TAIL`] (as [`first_seat_advantage`]) or its tail
/// is provably geometric ([`closed_tail`]); the values of lanes past
/// `patches.len()` are 0.
fn lanes_advantage(d: &Dense, patches: &[&Patch]) -> [f64; LANES] {
    let (column, from, probability) = (&d.column, &d.from, &d.probability);
    // The states, the old start of a moved jump, the finish.
    let width = d.t.len() + 2;
    let sink = width - 1;
    let mut pi = vec![[0.0; LANES]; width];
    let mut next = vec![[0.0; LANES]; width];
    let mut done = [true; LANES];
    for l in 0..patches.len() {
        pi[d.start][l] = 1.0;
        done[l] = false;
    }
    let mut ties = [0.0; LANES];
    // The geometric tail (see `closed_tail`): each lane's survival by turn,
    // the sum and the largest of its `P(T = t)²` since the last test, and
    // the states kept at that test.
    let mut survival: Vec<Vec<f64>> = vec![vec![1.0]; LANES];
    let (mut block, mut block_top) = ([0.0; LANES], [0.0f64; LANES]);
    let mut kept: Option<(usize, Vec<[f64; LANES]>)> = None;
    let mut check = FIRST_DECAY_CHECK;
    for turn in 1..=tolerance::MAX_DISTRIBUTION_TURNS {
        // The board's columns, for every lane at once.
        for (c, into) in next.iter_mut().enumerate() {
            let mut sum = [0.0; LANES];
            let range = column[c]..column[c + 1];
            for (&s, &p) in from[range.clone()].iter().zip(&probability[range]) {
                let mass = &pi[s as usize];
                for l in 0..LANES {
                    sum[l] += mass[l] * p;
                }
            }
            *into = sum;
        }
        // Each variant's own changes.
        for (l, patch) in patches.iter().enumerate() {
            let (e, into) = &patch.end;
            let mut sum = 0.0;
            for &(s, p) in into {
                sum += pi[s as usize][l] * p;
            }
            next[*e as usize][l] = sum;
            if let Some((f2, e2)) = patch.redirect {
                let landed = std::mem::take(&mut next[f2 as usize][l]);
                next[e2 as usize][l] += landed;
            }
            for &(s, to, p) in &patch.added {
                next[to as usize][l] += pi[s as usize][l] * p;
            }
        }
        let mut left = [0.0; LANES];
        for mass in &next[..sink] {
            for l in 0..LANES {
                left[l] += mass[l];
            }
        }
        for l in 0..LANES {
            if !done[l] {
                let finished = next[sink][l];
                ties[l] += finished * finished;
                block[l] += finished * finished;
                block_top[l] = block_top[l].max(finished);
                survival[l].push(left[l]);
                done[l] = left[l] < tolerance::ADVANTAGE_TAIL;
            }
        }
        if turn == check {
            if let Some((t, old)) = &kept {
                for l in 0..LANES {
                    if done[l] {
                        continue;
                    }
                    if let Some(tail) = closed_tail(old, &next[..sink], l, *t, &survival[l]) {
                        if let Some(rest) = tail(block[l], block_top[l]) {
                            ties[l] += rest;
                            done[l] = true;
                        }
                    }
                }
            }
            kept = Some((turn, next.clone()));
            block = [0.0; LANES];
            block_top = [0.0; LANES];
            // The lanes share their tests: spaced for the slowest of those
            // still running.
            check = (0..patches.len())
                .filter(|&l| !done[l])
                .map(|l| next_decay_check(turn, &survival[l]))
                .max()
                .unwrap_or(2 * turn);
        }
        std::mem::swap(&mut pi, &mut next);
        if done.iter().all(|&x| x) {
            break;
        }
    }
    ties
}

/// The part of lane `l`'s `Σ_t P(T = t)²` after the current turn `now`, in
/// closed form, when its tail is provably geometric: a function of the sum
/// `b` and the largest `P(T = t)` of the block of turns `t + 1 ..= now` that
/// gives the tail, or `None` when its error could reach
/// [`tolerance::GEOMETRIC_ERROR`].
///
/// # The bound
/// [`test_decay`] compares `π_t` (`old`) with `π_now` (`new`) over `m = now
/// − t` turns, as the length distribution does (docs/figures.md §4a): every
/// later term is `P(T = t + jm + i + 1) = Rʲ·P(T = t + i + 1) + δ`, j ≥ 1,
/// with `Σ|δ| ≤ E`, its `error`. Then `Σ_{τ>now} P(T = τ)² = b·R²/(1 − R²)`
/// up to `Σ|δ|·(2·P + |δ|) ≤ E·(2·top + E)`, as every later term is at
/// most `top`, the largest of the block (R⁺ < 1); that is required below
/// `GEOMETRIC_ERROR`, 1e-13, under the 1e-12 that stopping on a survival
/// of 1e-6 may leave out.
fn closed_tail(
    old: &[[f64; LANES]],
    new: &[[f64; LANES]],
    l: usize,
    t: usize,
    survival: &[f64],
) -> Option<impl Fn(f64, f64) -> Option<f64>> {
    let old: Vec<f64> = old[..new.len()].iter().map(|x| x[l]).collect();
    let new: Vec<f64> = new.iter().map(|x| x[l]).collect();
    let (decay, ratio) = test_decay(&old, &new, t, survival)?;
    let error = decay.error;
    Some(move |b: f64, top: f64| {
        let bound = error * (2.0 * top + error);
        (bound <= tolerance::GEOMETRIC_ERROR).then(|| {
            let square = ratio * ratio;
            b * square / (1.0 - square)
        })
    })
}
