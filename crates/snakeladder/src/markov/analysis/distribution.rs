//! The distribution of the number of turns (docs/figures.md §4), and the
//! per-square finishing-time distributions behind live odds (§5).

use super::STOP_EVERY_TURNS;
use crate::markov::chain::{Chain, StateIndex, Target};
use crate::markov::tolerance;
use std::sync::atomic::AtomicBool;

/// The distribution of T, the turns of one player from one square, until
/// the remaining tail is below [`tolerance::TAIL`].
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// `pmf[t − 1] = P(T = t)`.
    pub pmf: Vec<f64>,
    /// `survival[t] = P(T > t)`, from `survival[0] = 1`; one entry longer
    /// than `pmf`. Computed as the mass still on the board, not as
    /// `1 − cdf`, so small values keep their precision.
    pub survival: Vec<f64>,
    /// The geometric decay of the tail, when the stepping established it
    /// (docs/figures.md §4a); with [`Decay::from_turn`] set, the terms past
    /// that turn were computed from it rather than stepped.
    pub decay: Option<Decay>,
}

/// The geometric decay of `P(T > t)` in long games: each extra turn
/// survives with probability [`Decay::rate`], the spectral radius ρ of the
/// transient kernel Q, bracketed by `low ≤ ρ ≤ high` (docs/figures.md §4a).
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Analysis, Board, Options};

let analysis = Analysis::new(&Board::builtin_default(), &Options::default())?;
let decay = analysis.turns.decay.unwrap();
// P(T > t) shrinks by about `rate` a turn, between `low` and `high`.
assert!(decay.low <= decay.rate && decay.rate <= decay.high && decay.high < 1.0);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Decay {
    /// ρ: the per-turn survival ratio `P(T > t + 1) / P(T > t)` the tail
    /// settles to.
    pub rate: f64,
    /// A lower bound on the survival ratio of every later turn.
    pub low: f64,
    /// An upper bound on the survival ratio of every later turn.
    pub high: f64,
    /// The last stepped turn, when the terms after it were computed in
    /// closed form; `None` when the whole distribution was stepped.
    pub from_turn: Option<usize>,
    /// A bound on the absolute error of any closed-form `P(T > t)`, any
    /// closed-form `P(T = t)`, and any sum of closed-form `P(T = t)` over
    /// turns (the cdf), were the tail computed from here.
    pub error: f64,
    /// m: the span of turns over which the survival ratio was compared;
    /// the closed-form terms repeat the last m stepped ones, each span
    /// scaled by [`Decay::block`] (docs/figures.md §4a).
    #[serde(skip)]
    pub period: usize,
    /// R: the survival ratio over one period, `P(T > t + m)/P(T > t)`
    /// clamped to the bracket (about `rate^period`).
    #[serde(skip)]
    pub block: f64,
}

impl Distribution {
    /// `P(T ≤ t)` for t = 1, 2, …: `cdf[t − 1]`.
    pub fn cdf(&self) -> Vec<f64> {
        let mut total = 0.0;
        self.pmf
            .iter()
            .map(|p| {
                total += p;
                total
            })
            .collect()
    }

    /// The probability left after the last computed turn, `P(T > len)`.
    pub fn tail(&self) -> f64 {
        *self
            .survival
            .last()
            .expect("survival has an entry for t = 0")
    }

    /// The smallest t with `P(T = t) > 0` among the computed terms (the
    /// analysis takes the fewest turns from the moves instead).
    #[cfg(test)]
    pub fn min(&self) -> Option<usize> {
        self.pmf.iter().position(|&p| p > 0.0).map(|i| i + 1)
    }

    /// The smallest t maximising `P(T = t)`.
    pub fn mode(&self) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, &p) in self.pmf.iter().enumerate() {
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((i, p));
            }
        }
        best.filter(|(_, p)| *p > 0.0).map(|(i, _)| i + 1)
    }

    /// The p-quantile: the smallest t with `P(T ≤ t) ≥ p`. (Some
    /// publications report one less.) `None` when the computed distribution
    /// ends first, which happens only for p within the tail of 1.
    pub fn quantile(&self, p: f64) -> Option<usize> {
        let mut total = 0.0;
        for (i, f) in self.pmf.iter().enumerate() {
            total += f;
            if total >= p {
                return Some(i + 1);
            }
        }
        None
    }
}

/// Q in compressed rows without the finish column, and R: the form the
/// distribution loops run over (a plain `u32` column per entry keeps the
/// inner loop tight).
pub(super) struct Split {
    pub(super) offsets: Vec<usize>,
    pub(super) columns: Vec<u32>,
    pub(super) values: Vec<f64>,
    pub(super) finish: Vec<f64>,
}

impl Split {
    /// One turn of the backward recursion for every state at once:
    /// `g_next = Q·g` and `f_next = Q·f`, each row summed in its stored
    /// order (the digits the stored and streamed races share).
    pub(super) fn step(&self, f: &[f64], g: &[f64], f_next: &mut [f64], g_next: &mut [f64]) {
        for s in 0..self.offsets.len() - 1 {
            let (mut fs, mut gs) = (0.0, 0.0);
            let range = self.offsets[s]..self.offsets[s + 1];
            for (&c, &v) in self.columns[range.clone()].iter().zip(&self.values[range]) {
                gs += v * g[c as usize];
                fs += v * f[c as usize];
            }
            g_next[s] = gs;
            f_next[s] = fs;
        }
    }
}

pub(super) fn split(chain: &Chain) -> Split {
    let mut out = Split {
        offsets: Vec::with_capacity(chain.len() + 1),
        columns: Vec::with_capacity(chain.entries()),
        values: Vec::with_capacity(chain.entries()),
        finish: vec![0.0; chain.len()],
    };
    out.offsets.push(0);
    for s in chain.states() {
        for t in chain.row(s) {
            match t.to {
                Target::State(e) => {
                    out.columns.push(e.get() as u32);
                    out.values.push(t.probability);
                }
                Target::Finish => out.finish[s.get()] += t.probability,
            }
        }
        out.offsets.push(out.columns.len());
    }
    out
}

/// The distribution of T from `from`, by the forward recursion
/// `P(T = t) = π_{t−1}·R`, `π_t = π_{t−1}·Q`, one sparse product per turn,
/// until the tail is geometric ([`forward`]).
#[cfg(test)]
pub fn from_state(chain: &Chain, from: StateIndex) -> Distribution {
    from_state_within(chain, from, tolerance::MAX_DISTRIBUTION_TURNS)
}

/// The distribution of T from `from` by the forward recursion, stepping at
/// most `max_turns` turns and computing the tail in closed form once it is
/// geometric (docs/figures.md §4a).
pub fn from_state_within(chain: &Chain, from: StateIndex, max_turns: usize) -> Distribution {
    stepped_or_computed(chain, from, max_turns, true)
}

/// [`from_state_within`], with the closed-form tail (`closed_form`) or
/// stepped to the end: sparse vector–matrix products over a
/// [`Banded`](crate::markov::sparse::Banded) copy of `Q`, built from the
/// chain's rows without a copy in compressed rows.
pub(super) fn stepped_or_computed(
    chain: &Chain,
    from: StateIndex,
    max_turns: usize,
    closed_form: bool,
) -> Distribution {
    stepped_until(chain, from, max_turns, closed_form, None)
}

/// [`stepped_or_computed`], cut short once `stop` is set, as [`forward`]
/// says.
pub(super) fn stepped_until(
    chain: &Chain,
    from: StateIndex,
    max_turns: usize,
    closed_form: bool,
    stop: Option<&AtomicBool>,
) -> Distribution {
    let n = chain.len();
    let q = crate::markov::sparse::Banded::from_rows(n, |s| chain.q_row(StateIndex::new(s)));
    let finish: Vec<f64> = chain
        .states()
        .map(|s| chain.finish_probability(s))
        .collect();
    forward(n, from.get(), max_turns, closed_form, stop, |pi, next| {
        q.vec_mul_into(pi, next);
        crate::markov::sparse::dot(pi, &finish)
    })
}

/// The first turn at which [`forward`] tests whether the tail is geometric;
/// [`next_decay_check`] spaces the later tests.
pub(crate) const FIRST_DECAY_CHECK: usize = 16;

/// The turn of the next test of a geometric tail after a test at turn
/// `now` (`survival[t] = P(T > t)` up to `now`), which compares over
/// `m = next − now` turns (docs/figures.md §4a).
///
/// The bound's error is set by the turn a comparison starts from, and the
/// rounding of the ratios it compares is divided by `1 − ρᵐ`: tests should
/// come often, but over at least the `1/(1 − ρ)` turns a long game needs
/// for its ratios to stand out from rounding. So m is `1/(1 − ρ̂)`, with
/// ρ̂ the survival ratio of the last [`FIRST_DECAY_CHECK`] turns, kept
/// between a quarter of `now` (at least [`FIRST_DECAY_CHECK`]) and `now`
/// (doubling, where the decay is not yet seen). The spacing only decides
/// when the bound is tried, never what it allows.
pub(crate) fn next_decay_check(now: usize, survival: &[f64]) -> usize {
    let recent = survival[now] / survival[now.saturating_sub(FIRST_DECAY_CHECK)];
    let per_turn = recent.powf(1.0 / FIRST_DECAY_CHECK as f64);
    let turns = (1.0 - per_turn).recip().ceil();
    let spacing = if turns.is_finite() && turns >= 1.0 {
        turns.min(now as f64) as usize
    } else {
        now
    };
    now + spacing.clamp((now / 4).max(FIRST_DECAY_CHECK), now.max(FIRST_DECAY_CHECK))
}

/// The forward recursion from state `start` of `n`, with `step(π, next)`
/// writing `next = π·Q` and returning `π·R`: steps until the survival is
/// below [`tolerance::TAIL`], `max_turns` turns were stepped, or the tail is
/// provably geometric to within [`tolerance::GEOMETRIC_ERROR`], in which
/// case the remaining terms follow in closed form (docs/figures.md §4a).
///
/// # The bound
/// At turn 16 and then at the turns [`next_decay_check`] picks, it
/// compares `π_{t+m}` with `π_t` kept from the previous test. Let `R⁺ = max_x π_{t+m}(x)/π_t(x)` (no bound if
/// `π_{t+m}` has mass where `π_t` has none). Then `π_t·Qᵐ ≤ R⁺·π_t`
/// componentwise and, Q being non-negative, `π_t·Q^(jm) ≤ R⁺ʲ·π_t`: for
/// every `0 ≤ i < m`, `P(T > t + jm + i) ≤ R⁺ʲ·P(T > t + i)`, and the same
/// for `P(T = t + jm + i + 1)`. For the lower bound, A is the set of states
/// whose ratio is within [`SLOW_STATES`] of `R⁺` (the slowest-draining ones;
/// the rest hold mass dying out faster), `a` is `π_t` on A and `o = P(T > t)
/// − Σ a` the mass outside it. Mass from outside A adds at most `o` to any
/// entry of `π_{t+m}`, so `(a·Qᵐ)(x) ≥ π_{t+m}(x) − o` and `R⁻ = min_{x∈A}
/// (π_{t+m}(x) − o)/π_t(x)` gives `a·Qᵐ ≥ R⁻·a`, hence `P(T > t + jm + i) ≥
/// R⁻ʲ·(P(T > t + i) − o)`. The closed form `P(T > t + jm + i) ≈
/// Rʲ·P(T > t + i)`, R the observed `P(T > t + m)/P(T > t)` clamped to
/// `[R⁻, R⁺]`, is off by at most `P(T > t + i)·(R⁺ʲ − R⁻ʲ) + o·R⁻ʲ` plus
/// the rounding of `Rʲ`; [`Decay::error`] bounds the sum of that over all
/// terms (so the cdf as well as each term). Comparing over m turns rather
/// than one divides the rounding noise of the ratios by about m in that
/// bound; ρ, the per-turn survival ratio, is `R^(1/m)`.
///
/// Every [`STOP_EVERY_TURNS`] turns it looks at `stop`, and once that is
/// set it ends there: what it returns is then cut short, for the caller
/// that set the flag to drop (`Options::with_stop`).
pub(crate) fn forward(
    n: usize,
    start: usize,
    max_turns: usize,
    closed_form: bool,
    stop: Option<&AtomicBool>,
    mut step: impl FnMut(&[f64], &mut [f64]) -> f64,
) -> Distribution {
    let mut pi = vec![0.0; n];
    pi[start] = 1.0;
    let mut next = vec![0.0; n];
    let mut kept: Option<(usize, Vec<f64>)> = None;
    let mut check = FIRST_DECAY_CHECK;
    let mut pmf = Vec::new();
    let mut survival = vec![1.0];
    let mut decay = None;
    let max_turns = max_turns.min(tolerance::MAX_DISTRIBUTION_TURNS);
    while pmf.len() < max_turns {
        if pmf.len() % STOP_EVERY_TURNS == 0 && super::stop_check(stop).is_err() {
            break;
        }
        let finished = step(&pi, &mut next);
        let left = crate::markov::sparse::sum(&next);
        pmf.push(finished);
        survival.push(left);
        if left < tolerance::TAIL {
            break;
        }
        let now = pmf.len();
        if now == check {
            // next = π_now.
            if let Some((t, old)) = &kept
                && let Some((mut d, block)) = test_decay(old, &next, *t, &survival)
            {
                if closed_form && d.error <= tolerance::GEOMETRIC_ERROR {
                    extend_geometric(&mut pmf, &mut survival, *t, now - t, block);
                    d.from_turn = Some(now);
                    decay = Some(d);
                    break;
                }
                decay = Some(d);
            }
            match &mut kept {
                Some((t, old)) => {
                    *t = now;
                    old.copy_from_slice(&next);
                }
                None => kept = Some((now, next.clone())),
            }
            check = next_decay_check(now, &survival);
        }
        std::mem::swap(&mut pi, &mut next);
    }
    Distribution {
        pmf,
        survival,
        decay,
    }
}

/// States whose ratio `π_{t+m}(x)/π_t(x)` is within this fraction of the
/// largest form the set A of [`forward`]'s lower bound. It only has to
/// separate the slowest-draining states from mass that is dying out at a
/// visibly faster rate; a state wrongly left out costs its mass in the
/// bound, never correctness.
const SLOW_STATES: f64 = 1e-3;

/// The bracket of the survival ratio over `m = now − t` turns after
/// `old = π_t`, `new = π_now`, and the error of the closed-form tail from
/// there (see [`forward`]), with the observed ratio over the m turns;
/// `None` while some ratio is not below 1 or mass
/// reaches a state that had none.
pub(crate) fn test_decay(
    old: &[f64],
    new: &[f64],
    t: usize,
    survival: &[f64],
) -> Option<(Decay, f64)> {
    let now = survival.len() - 1;
    let m = (now - t) as f64;
    let mut high = 0.0f64;
    for (&p, &q) in old.iter().zip(new) {
        if p > 0.0 {
            high = high.max(q / p);
        } else if q > 0.0 {
            return None;
        }
    }
    if !(high > 0.0 && high < 1.0) {
        return None;
    }
    let cut = high * (1.0 - SLOW_STATES);
    // Summed directly, not as P(T > t) − Σ a, whose rounding would swamp it.
    let outside: f64 = old
        .iter()
        .zip(new)
        .filter(|&(&p, &q)| p > 0.0 && q < cut * p)
        .map(|(&p, _)| p)
        .sum();

    let mut low = high;
    for (&p, &q) in old.iter().zip(new) {
        if p > 0.0 && q >= cut * p {
            low = low.min((q - outside) / p);
        }
    }
    let low = low.max(0.0);
    // A term P(T = t + jm + i + 1) is off by at most P(T = t + i + 1)·
    // (R⁺ʲ − R⁻ʲ) + o·R⁻ʲ. Summed over j ≥ 1, with Σ_j (R⁺ʲ − R⁻ʲ) ≤
    // (R⁺ − R⁻)/(1 − R⁺)², and over the m residues i, with Σ_i P(T = t + i
    // + 1) ≤ P(T > t)·(1 − R⁻) + o: the bound below. A single P(T > t + jm + i)
    // is off by at most P(T > t)·(R⁺ − R⁻)·j·R⁺^(j−1) + o, within it too.
    let spread = (high - low) / (1.0 - high) * ((1.0 - low) / (1.0 - high)).max(1.0);
    // Rʲ as exp(j·ln R): a few roundings per term, relative; Σ P(T = t) ≤ 1.
    let rounding = 4.0 * f64::EPSILON;
    let error =
        (survival[t] + outside / (1.0 - low)) * (spread + rounding) + outside * m / (1.0 - low);
    let block = (survival[now] / survival[t]).clamp(low, high);
    let per_turn = |r: f64| ((r - 1.0).ln_1p() / m).exp();
    Some((
        Decay {
            rate: per_turn(block),
            low: per_turn(low),
            high: per_turn(high),
            from_turn: None,
            error,
            period: now - t,
            block,
        },
        block,
    ))
}

/// Appends the closed-form terms after the stepped turns `..= t + m`:
/// `P(T > t + jm + i) = P(T > t + i)·Rʲ` and `P(T = t + jm + i + 1) = P(T = t + i + 1)·Rʲ`
/// with `R = block`, until the survival is below [`tolerance::TAIL`] or the
/// distribution has [`tolerance::MAX_DISTRIBUTION_TURNS`] terms.
fn extend_geometric(pmf: &mut Vec<f64>, survival: &mut Vec<f64>, t: usize, m: usize, block: f64) {
    // ln R from R − 1, which is exact for R near 1.
    let log_block = (block - 1.0).ln_1p();
    // The survival falls by R per m turns: about m·ln(TAIL/S)/ln R more
    // terms, reserved at once rather than by doubling (the tail of a long
    // game runs to millions).
    let last = *survival.last().expect("survival starts at 1");
    let more = (m as f64 * (tolerance::TAIL / last).ln() / log_block).max(0.0) as usize + m;
    let more = more.min(tolerance::MAX_DISTRIBUTION_TURNS.saturating_sub(pmf.len()));
    pmf.reserve_exact(more);
    survival.reserve_exact(more);
    // Rʲ for the span j a term falls in, computed once per span.
    let mut scale = (0, 1.0);
    let mut power = |j: usize| {
        if scale.0 != j {
            scale = (j, (j as f64 * log_block).exp());
        }
        scale.1
    };
    // P(T = τ) = π_{τ−1}·R repeats P(T = t + i + 1) after j spans, with
    // τ − 1 − t = jm + i, and P(T > τ) repeats P(T > t + i), τ − t = jm + i:
    // (span, place) of each, stepped along rather than divided out.
    let tau = pmf.len() + 1;
    let (mut f, mut s) = (
        ((tau - 1 - t) / m, (tau - 1 - t) % m),
        ((tau - t) / m, (tau - t) % m),
    );
    let next = |(j, i): (usize, usize)| if i + 1 == m { (j + 1, 0) } else { (j, i + 1) };
    while *survival.last().expect("survival starts at 1") >= tolerance::TAIL
        && pmf.len() < tolerance::MAX_DISTRIBUTION_TURNS
    {
        pmf.push(pmf[t + f.1] * power(f.0));
        survival.push(survival[t + s.1] * power(s.0));
        (f, s) = (next(f), next(s));
    }
}

/// Finishing-time distributions from several states at once, by the
/// backward recursions `F_t = Q·F_{t−1}` with `F_1 = R` (`F_t(x) = P(T = t |
/// start on x)`) and `G_t = Q·G_{t−1}` with `G_0 = 1` (`G_t(x) = P(T > t |
/// start on x)`): two sparse products per turn serve every state, and
/// neither subtracts, so small probabilities keep their precision. Runs until
/// the survival of each of `wanted` is below [`tolerance::TAIL`].
#[cfg(test)]
pub fn from_states(chain: &Chain, wanted: &[StateIndex]) -> Vec<Distribution> {
    from_states_within(chain, wanted, tolerance::MAX_DISTRIBUTION_TURNS)
}

/// [`from_states`] for at most `max_turns` turns: the tails left say what
/// was not followed.
#[cfg(test)]
pub fn from_states_within(
    chain: &Chain,
    wanted: &[StateIndex],
    max_turns: usize,
) -> Vec<Distribution> {
    let n = chain.len();
    let q = split(chain);
    let mut f: Vec<f64> = chain
        .states()
        .map(|s| chain.finish_probability(s))
        .collect();
    let mut g = vec![1.0; n];
    let (mut f_next, mut g_next) = (vec![0.0; n], vec![0.0; n]);
    let mut out: Vec<Distribution> = wanted
        .iter()
        .map(|_| Distribution {
            pmf: Vec::new(),
            survival: vec![1.0],
            decay: None,
        })
        .collect();
    for _ in 0..max_turns.min(tolerance::MAX_DISTRIBUTION_TURNS) {
        q.step(&f, &g, &mut f_next, &mut g_next);
        // g_next is G_t, f is F_t.
        for (d, w) in out.iter_mut().zip(wanted) {
            d.pmf.push(f[w.get()]);
            d.survival.push(g_next[w.get()]);
        }
        std::mem::swap(&mut g, &mut g_next);
        std::mem::swap(&mut f, &mut f_next);
        if out.iter().all(|d| d.tail() < tolerance::TAIL) {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn forward_and_backward_recursions_agree() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let forward = from_state(&chain, chain.start());
        let backward = from_states(&chain, &[chain.start()]);
        let backward = &backward[0];
        assert_eq!(forward.min(), Some(7));
        assert_eq!(backward.min(), Some(7));
        for (a, b) in forward.pmf.iter().zip(&backward.pmf) {
            assert!((a - b).abs() < 1e-15);
        }
        // P(T = 7) = 73/46656.
        assert!((forward.pmf[6] - 73.0 / 46656.0).abs() < 1e-16);
    }

    /// The closed-form tail against one-turn stepping to the end, on
    /// generated boards whose means span 100 to 10,000 turns (small boards
    /// with many snakes, so the stepping is cheap in a debug build: about a
    /// second for all four).
    ///
    /// Tolerance per term: [`tolerance::GEOMETRIC_ERROR`] for the closed
    /// form, plus the rounding the stepping itself accumulates, `t·k·u`
    /// relative after t products with rows of k ≤ 16 entries (docs of
    /// [`tolerance::TIE`]).
    #[test]
    fn computed_tail_equals_stepped_tail() {
        use crate::Seed;
        use crate::design::Layout;
        let layouts = [
            (Layout::new(100, 25, 3, Seed::new(1)), 100.0, 200.0),
            (Layout::new(120, 30, 2, Seed::new(4)), 1_000.0, 2_000.0),
            (Layout::new(130, 35, 2, Seed::new(1)), 2_000.0, 5_000.0),
            (Layout::new(130, 35, 2, Seed::new(6)), 5_000.0, 10_000.0),
        ];
        for (layout, low, high) in layouts {
            let board = layout.generate().unwrap();
            let chain = Chain::compile(&board).unwrap();
            let mean = crate::Analysis::mean_turns(&board).unwrap();
            assert!((low..high).contains(&mean), "{layout:?}: mean {mean}");
            let max = tolerance::MAX_DISTRIBUTION_TURNS;
            let stepped = stepped_or_computed(&chain, chain.start(), max, false);
            let computed = stepped_or_computed(&chain, chain.start(), max, true);
            let decay = computed.decay.expect("the decay is bracketed");
            let from = decay.from_turn.expect("the tail is computed");
            // The stepping stopped well before the tail did.
            assert!(from < stepped.pmf.len(), "{from} of {}", stepped.pmf.len());
            assert!(decay.error <= tolerance::GEOMETRIC_ERROR);
            assert!(decay.low <= decay.rate && decay.rate <= decay.high);
            assert!(stepped.pmf.len().abs_diff(computed.pmf.len()) <= 1);
            assert!(computed.tail() < tolerance::TAIL && stepped.tail() < tolerance::TAIL);
            for p in [0.5, 0.9, 0.99, 0.999, 0.999_999] {
                assert_eq!(computed.quantile(p), stepped.quantile(p), "p = {p}");
            }
            assert_eq!(computed.mode(), stepped.mode());
            let tolerance = |t: usize, exact: f64| {
                tolerance::GEOMETRIC_ERROR + t as f64 * 16.0 * f64::EPSILON * exact
            };
            let pairs = computed.survival.iter().zip(&stepped.survival);
            for (t, (a, b)) in pairs.enumerate() {
                assert!((a - b).abs() <= tolerance(t, *b), "P(T > {t}): {a} vs {b}");
            }
            let pairs = computed.pmf.iter().zip(&stepped.pmf);
            for (t, (a, b)) in pairs.enumerate() {
                assert!(
                    (a - b).abs() <= tolerance(t + 1, *b),
                    "P(T = {}): {a} vs {b}",
                    t + 1
                );
            }
            let pairs = computed.cdf().into_iter().zip(stepped.cdf());
            for (t, (a, b)) in pairs.enumerate() {
                assert!(
                    (a - b).abs() <= tolerance(t + 1, b),
                    "P(T ≤ {}): {a} vs {b}",
                    t + 1
                );
            }
            // Seat odds, total turns and rounds: the closed-form series over
            // the tail (players.rs) against the stepped sums, which leave out
            // the turns after the survival fell below TAIL. That leaves out at
            // most TAIL of a probability, plus the closed form's own error
            // (GEOMETRIC_ERROR in each of up to k factors); of the expected
            // turns or rounds, at most a share TAIL·(1 + ln(1/TAIL)) ≈ 2.9e-11
            // (a geometric tail past its (1/TAIL)-quantile), doubled for the
            // roundings of the two sums.
            let turns_share = 2.0 * tolerance::TAIL * (1.0 + (1.0 / tolerance::TAIL).ln());
            for count in 1..=6 {
                let a = crate::markov::analysis::players::figures(&computed, count);
                let b = crate::markov::analysis::players::figures(&stepped, count);
                let win = tolerance::TAIL + f64::from(count) * tolerance::GEOMETRIC_ERROR;
                for (x, y) in a.win_probability.iter().zip(&b.win_probability) {
                    assert!((x - y).abs() <= win, "{count} players: {x} vs {y}");
                }
                for (x, y) in [
                    (a.expected_total_turns, b.expected_total_turns),
                    (a.expected_rounds, b.expected_rounds),
                ] {
                    assert!(
                        (x - y).abs() <= turns_share * y,
                        "{count} players: {x} vs {y}"
                    );
                }
            }
            // ρ is the settled survival ratio of the stepped distribution.
            let late = stepped.pmf.len() - 1;
            let ratio = stepped.survival[late] / stepped.survival[late - 1];
            assert!(
                (ratio - decay.rate).abs() < 1e-9,
                "{ratio} vs {}",
                decay.rate
            );
        }
    }

    /// The built-in board's tail is computed from its bracket: the bracket
    /// holds the survival ratio the stepping settles to when run to its
    /// 1e-12 tail, and is narrower than half a unit of the tenth decimal
    /// the text prints ρ with (5e-11), so every printed digit is settled.
    #[test]
    fn builtin_decay_is_bracketed() {
        let chain = Chain::compile(&Board::builtin_default()).unwrap();
        let d = from_state(&chain, chain.start());
        let decay = d.decay.expect("bracketed");
        assert!(decay.from_turn.is_some(), "{decay:?}");
        assert!(decay.high - decay.low < 5e-11, "{decay:?}");
        let stepped = stepped_or_computed(&chain, chain.start(), usize::MAX, false);
        let late = stepped.pmf.len() - 1;
        let ratio = stepped.survival[late] / stepped.survival[late - 1];
        // The late ratio carries the rounding of two survivals near 1e-12,
        // each summed from about a hundred states: a few ulps.
        let slack = 8.0 * f64::EPSILON;
        assert!(
            decay.low - slack <= ratio && ratio <= decay.high + slack,
            "{ratio} outside {decay:?}"
        );
        assert!((ratio - decay.rate).abs() < 1e-9);
    }

    #[test]
    fn quantile_convention() {
        let d = Distribution {
            pmf: vec![0.25, 0.25, 0.5],
            survival: vec![1.0, 0.75, 0.5, 0.0],
            decay: None,
        };
        // P(T ≤ 2) = 0.5 exactly: the median is 2, not 3.
        assert_eq!(d.quantile(0.5), Some(2));
        assert_eq!(d.quantile(0.51), Some(3));
        assert_eq!(d.mode(), Some(3));
        assert_eq!(d.min(), Some(1));
    }
}
