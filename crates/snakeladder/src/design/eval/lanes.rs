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
//! geometric (`closed_tail`, tested on the lane's own schedule) or
//! provably the continuation of its slowest few modes ([`modes_tail`],
//! every `lag` turns); either way on its own, so a variant's value does
//! not depend on which lanes it shared turns with, nor on the number of
//! threads. A lane whose variant is done takes the next variant at once.

use super::modes::{MAX_MODES, Window, modes_tail};
use super::{Base, Dense, RowEnd, Update};
use crate::Jump;
use crate::markov::analysis::distribution::{FIRST_DECAY_CHECK, next_decay_check, test_decay};
use crate::markov::tolerance;
use crate::par::*;

#[cfg(doc)]
use super::first_seat_advantage;

/// How many lanes closed by [`modes_tail`] (so that tests can tell that
/// they exercise it).
#[cfg(test)]
pub(crate) static CLOSED_BY_MODES: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// How many variants the recursion carries at once: sixteen `f64` per
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
    /// cut into streams of [`STREAM`] in that order, run in parallel, each
    /// [`LANES`] variants at a time ([`stream_advantages`]). The values do
    /// not depend on the order or the cut. `done(1)` is told of each
    /// variant as it ends; once `stop()` says so, the variants not yet
    /// begun are skipped and their changes left `None` (those begun run to
    /// their end). A variant answered is `Some(None)` when its games outlast
    /// [`tolerance::MAX_DISTRIBUTION_TURNS`] ([`Lane::advance`]).
    ///
    /// # Panics
    /// If a change's jump is not the position of a jump of the board.
    pub(crate) fn advantages_of(
        &self,
        changes: &[(usize, Option<Jump>)],
        done: &(dyn Fn(u64) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<Option<Option<f64>>> {
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
        // Stable, and a total order: the same streams on every run (and
        // variants of about the same length drain together at the end).
        ready.sort_by(|x, y| x.1.total_cmp(&y.1));
        let values: Vec<Vec<Option<Option<f64>>>> = ready
            .par_chunks(STREAM)
            .map(|stream| {
                let patches: Vec<(&Patch, f64)> = stream.iter().map(|(_, m, p)| (p, *m)).collect();
                stream_advantages(d, &patches, done, stop)
            })
            .collect();
        let mut out = vec![None; changes.len()];
        for ((i, _, _), value) in ready.iter().zip(values.into_iter().flatten()) {
            out[*i] = value;
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

/// How many variants one stream of lanes ([`stream_advantages`]) is given:
/// enough that the lanes left idle while its last variants drain are a few
/// per cent of its run, few enough that the streams spread over the threads.
const STREAM: usize = 16 * LANES;

/// One variant in a lane: its patch and its own recursion's state.
struct Lane<'a> {
    /// Its position among the stream's variants.
    item: usize,
    patch: &'a Patch,
    /// The turns stepped.
    turn: usize,
    /// `Σ P(T = t)²` so far.
    ties: f64,
    /// `P(T > t)` for `t = 0..=turn`.
    survival: Vec<f64>,
    /// `P(T = t)` for `t = 1..=turn` (at `t − 1`).
    finished: Vec<f64>,
    /// The modes test's lag, and the lane's states at the last
    /// [`MAX_MODES`] multiples of it (oldest first).
    lag: usize,
    past: Vec<Vec<f64>>,
    /// The sum and the largest of `P(T = t)²`, `P(T = t)` since the last
    /// test of a geometric tail, and the lane's states kept at that test.
    block: (f64, f64),
    kept: Option<(usize, Vec<f64>)>,
    /// The turn of its next test (`next_decay_check`).
    check: usize,
}

impl<'a> Lane<'a> {
    /// A lane for the variant of mean length `mean`: its modes test
    /// comes every sixteenth of that (at least [`FIRST_DECAY_CHECK`]
    /// turns), long enough that the slowest mode is apart from the next
    /// over one lag, short enough that the states fitted span a fraction of
    /// the turns a tail needs and a lane closes soon after its bound holds
    /// (an eighth took 5–8% more CPU in alternating runs on 4,000 squares,
    /// a twenty-fourth more still; docs/performance.md).
    fn new(item: usize, patch: &'a Patch, mean: f64) -> Lane<'a> {
        let lag = (mean / 16.0).ceil();
        let lag = if lag.is_finite() && lag < 1e9 {
            (lag as usize).max(FIRST_DECAY_CHECK)
        } else {
            usize::MAX / 4
        };
        Lane {
            item,
            patch,
            turn: 0,
            ties: 0.0,
            survival: vec![1.0],
            finished: Vec::new(),
            lag,
            past: Vec::new(),
            block: (0.0, 0.0),
            kept: None,
            check: FIRST_DECAY_CHECK,
        }
    }

    /// One turn more, with the lane's states after it (`next`, lane `l`,
    /// the finish last) and their sum `left`: the lane's value once it is done, by survival
    /// under [`tolerance::ADVANTAGE_TAIL`], a provably geometric tail
    /// (`closed_tail`), a tail of two or three modes ([`modes_tail`]), or
    /// `None` at [`tolerance::MAX_DISTRIBUTION_TURNS`] (the sum so far is
    /// then only a lower bound, as in [`first_seat_advantage`]); the
    /// geometric tests come at the turns [`next_decay_check`] picks from its
    /// own survival, as for the length distribution, and the modes' every
    /// `lag` turns, whatever its neighbours.
    fn advance(&mut self, next: &[[f64; LANES]], l: usize, left: f64) -> Option<Option<f64>> {
        let sink = next.len() - 1;
        let finished = next[sink][l];
        self.turn += 1;
        self.ties += finished * finished;
        self.block.0 += finished * finished;
        self.block.1 = self.block.1.max(finished);
        self.survival.push(left);
        self.finished.push(finished);
        if left < tolerance::ADVANTAGE_TAIL {
            return Some(Some(self.ties));
        }
        if self.turn.is_multiple_of(self.lag) {
            let new: Vec<f64> = next[..sink].iter().map(|x| x[l]).collect();
            // Two modes, then three: the first whose bound holds (one mode
            // is `closed_tail`'s test).
            for k in 2..=self.past.len() {
                let past: Vec<&[f64]> = self.past[self.past.len() - k..]
                    .iter()
                    .map(Vec::as_slice)
                    .collect();
                let window = Window {
                    past: &past,
                    now: &new,
                    finished: &self.finished,
                    m: self.lag,
                };
                if let Some(tail) = modes_tail(&window, tolerance::GEOMETRIC_ERROR) {
                    #[cfg(test)]
                    CLOSED_BY_MODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return Some(Some(self.ties + tail.sum));
                }
            }
            if self.past.len() == MAX_MODES {
                self.past.remove(0);
            }
            self.past.push(new);
        }
        if self.turn == self.check {
            let new: Vec<f64> = next[..sink].iter().map(|x| x[l]).collect();
            if let Some((t, old)) = &self.kept {
                let rest = closed_tail(old, &new, *t, &self.survival)
                    .and_then(|tail| tail(self.block.0, self.block.1));
                if let Some(rest) = rest {
                    return Some(Some(self.ties + rest));
                }
            }
            self.kept = Some((self.turn, new));
            self.block = (0.0, 0.0);
            self.check = next_decay_check(self.turn, &self.survival);
        }
        (self.turn >= tolerance::MAX_DISTRIBUTION_TURNS).then_some(None)
    }
}

/// `Σ_t P(T = t)²` of each variant of the board of `d` in `patches`, all
/// started on its start, [`LANES`] at a time: a lane whose variant is done
/// takes the next at once, so no lane idles while another runs on. Each
/// lane stops on its own ([`Lane::advance`]), so a value does not depend on
/// its neighbours, nor on the cut into streams or the threads. Once
/// `stop()` says so, no variant is begun and those not begun stay `None`;
/// `done(1)` is told of each one finished.
fn stream_advantages(
    d: &Dense,
    patches: &[(&Patch, f64)],
    done: &(dyn Fn(u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Vec<Option<Option<f64>>> {
    // The states, the old start of a moved jump, the finish.
    let width = d.t.len() + 2;
    let mut pi = vec![[0.0; LANES]; width];
    let mut next = vec![[0.0; LANES]; width];
    let mut out = vec![None; patches.len()];
    let mut queue = patches.iter().enumerate();
    let mut begin = |pi: &mut [[f64; LANES]], l: usize| -> Option<Lane> {
        for x in pi.iter_mut() {
            x[l] = 0.0;
        }
        if stop() {
            return None;
        }
        let (item, &(patch, mean)) = queue.next()?;
        pi[d.start][l] = 1.0;
        Some(Lane::new(item, patch, mean))
    };
    let mut lanes: Vec<Option<Lane>> = (0..LANES).map(|l| begin(&mut pi, l)).collect();
    while lanes.iter().any(Option::is_some) {
        board_columns(d, &pi, &mut next);
        for (l, lane) in lanes.iter().enumerate() {
            if let Some(lane) = lane {
                patch_lane(lane.patch, &pi, &mut next, l);
            }
        }
        let mut left = [0.0; LANES];
        for mass in &next[..width - 1] {
            for l in 0..LANES {
                left[l] += mass[l];
            }
        }
        for (l, slot) in lanes.iter_mut().enumerate() {
            let Some(lane) = slot else { continue };
            if let Some(value) = lane.advance(&next, l, left[l]) {
                out[lane.item] = Some(value);
                done(1);
                *slot = begin(&mut next, l);
            }
        }
        std::mem::swap(&mut pi, &mut next);
    }
    out
}

/// A variant's own columns of lane `l` after the board's (`next`), from
/// the lane's states before the turn (`pi`), in the order of the module
/// docs.
fn patch_lane(patch: &Patch, pi: &[[f64; LANES]], next: &mut [[f64; LANES]], l: usize) {
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

/// The board's column sums `next(c) = Σ_s π(s)·Q(s, c)` of every lane,
/// each sum in the order of the transitions into c. On an x86-64 CPU with
/// AVX2 the same code runs with four lanes to an instruction instead of
/// two: the same products and sums in the same order, so the same bits
/// (Rust never fuses a multiply and an add), in about half the time.
fn board_columns(d: &Dense, pi: &[[f64; LANES]], next: &mut [[f64; LANES]]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the only requirement of `board_columns_avx2` is a CPU
        // with AVX2, detected just above.
        #[allow(unsafe_code)]
        unsafe {
            board_columns_avx2(d, pi, next);
        }
        return;
    }
    board_columns_plain(d, pi, next);
}

/// [`board_columns`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn board_columns_avx2(d: &Dense, pi: &[[f64; LANES]], next: &mut [[f64; LANES]]) {
    board_columns_plain(d, pi, next);
}

/// [`board_columns`] for any CPU; inlined into its AVX2 copy.
#[inline(always)]
fn board_columns_plain(d: &Dense, pi: &[[f64; LANES]], next: &mut [[f64; LANES]]) {
    let (column, from, probability) = (&d.column, &d.from, &d.probability);
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
}

/// The part of a lane's `Σ_t P(T = t)²` after the current turn `now`, in
/// closed form, when its tail is provably geometric: a function of the sum
/// `b` and the largest `P(T = t)` of the block of turns `t + 1 ..= now` that
/// gives the tail, or `None` when its error could reach
/// [`tolerance::GEOMETRIC_ERROR`]; `old` and `new` are the lane's states at
/// turns t and now.
///
/// # The bound
/// [`test_decay`] compares `π_t` (`old`) with `π_now` (`new`) over `m = now
/// − t` turns, as the length distribution does (docs/figures.md §4a): every
/// later term is `P(T = t + jm + i + 1) = Rʲ·P(T = t + i + 1) + δ`, j ≥ 1,
/// with `Σ|δ| ≤ E`, its `error`. Then `Σ_{τ>now} P(T = τ)² = b·R²/(1 − R²)`
/// up to `Σ|δ|·(2·Rʲ·P(T = t + i + 1) + |δ|) ≤ E·(2·R·top + E)`, as
/// `P² − (P − δ)² = δ·(2·(P − δ) + δ)` for each closed-form term `P − δ
/// = Rʲ·P(T = t + i + 1) ≤ R·top`, `top` the largest of the block and R
/// (clamped to `[R⁻, R⁺]`, R⁺ < 1) the ratio over the block; that is
/// required below `GEOMETRIC_ERROR`, 1e-13, under the 1e-12 that stopping
/// on a survival of 1e-6 may leave out.
fn closed_tail(
    old: &[f64],
    new: &[f64],
    t: usize,
    survival: &[f64],
) -> Option<impl Fn(f64, f64) -> Option<f64>> {
    let (decay, ratio) = test_decay(old, new, t, survival)?;
    let error = decay.error;
    Some(move |b: f64, top: f64| {
        let bound = error * (2.0 * ratio * top + error);
        (bound <= tolerance::GEOMETRIC_ERROR).then(|| {
            let square = ratio * ratio;
            b * square / (1.0 - square)
        })
    })
}
