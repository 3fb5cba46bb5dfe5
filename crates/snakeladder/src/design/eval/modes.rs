//! `Σ_{τ>T} P(T = τ)²` in closed form from a lane's states at turns
//! `T − k·m, …, T − m, T`, once the slowest k modes of its chain carry all
//! but a provably small part of its mass (docs/figures.md §4b).
//!
//! The one-mode test of the length distribution (`closed_tail` in the
//! parent module, docs/figures.md §4a) waits until the second slowest mode
//! has died out beside the slowest, `(λ₂/ρ)ᵗ` below about 1e-10; on large
//! boards λ₂ is close to ρ (on a 10,000-square board 0.9930 against 0.9990)
//! and that takes about four mean game lengths. Fitting k modes waits for
//! the (k + 1)-th instead (0.9762 for k = 2 there, 0.9636 for k = 3).

/// The most modes fitted.
pub(super) const MAX_MODES: usize = 3;

/// About how many states the fit reads.
const FIT_STATES: usize = 256;

/// A lane's states at turns `T − k·m, …, T − m` (`past`, oldest first) and
/// `T` (`now`), its finishing chances `P(T = τ)` for `τ = 1..=T`
/// (`finished`, `finished[τ − 1]`), and the lag `m`.
pub(super) struct Window<'a> {
    pub(super) past: &'a [&'a [f64]],
    pub(super) now: &'a [f64],
    pub(super) finished: &'a [f64],
    pub(super) m: usize,
}

/// The closed-form rest of a lane's `Σ P(T = τ)²` after turn T and a bound
/// on its error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Tail {
    /// `Σ_{τ>T} P̂(T = τ)²` of the closed-form terms.
    pub(super) sum: f64,
    /// A bound on `|Σ_{τ>T} P(T = τ)² − sum|`.
    pub(super) error: f64,
}

/// Fits `π_T ≈ Σᵢ aᵢ·π_{T−i·m}` (i = 1..=k, k the states in `past`) by
/// least squares and continues the finishing chances by the same
/// recurrence, `P̂(T = τ) = Σᵢ aᵢ·P̂(T = τ − i·m)`; `None` when the fit is
/// degenerate, its recurrence does not decay, or the error bound would be
/// above `limit` (the bound's parts are tested as they are computed, the
/// cheapest first).
///
/// # The bound (docs/figures.md §4b)
/// With `δ = π_T − Σᵢ aᵢ·π_{T−i·m}`, every later state obeys `π_s = Σᵢ
/// aᵢ·π_{s−i·m} + δ·Q^{s−T}` (apply `Q^{s−T}` to δ), so the error `ε_τ`
/// of a closed-form term is the recurrence's impulse response `h`
/// convolved with `d_τ = δ·Q^{τ−1−T}·r` (r the chances of finishing in one
/// turn) along each residue class of τ mod m. As `|δ·Qʲ·r| ≤ |δ|·Qʲ·r` and
/// `Σ_j Qʲ·r ≤ 1` (a chance of finishing at all), `Σ|d_τ| ≤ ‖δ‖₁ = E`, and
/// `Σ|ε_τ| ≤ H·E` with `H = Σ|h_j|` ([`impulse_sum`]). Then `|Σ P² − Σ P̂²|
/// = |Σ ε·(2·P̂ + ε)| ≤ H·E·(2·top + H·E)`, top the largest `|P̂|`.
pub(super) fn modes_tail(w: &Window, limit: f64) -> Option<Tail> {
    let k = w.past.len();
    let (t, m) = (w.finished.len(), w.m);
    if k == 0 || k > MAX_MODES || t < k * m {
        return None;
    }
    // The fit from every `stride`-th state: any coefficients give a bound,
    // and these few states show the modes as well as all of them.
    let stride = (w.now.len() / FIT_STATES).max(1);
    let sample = |x: &[f64]| -> Vec<f64> { x.iter().step_by(stride).copied().collect() };
    let past: Vec<Vec<f64>> = w.past.iter().map(|x| sample(x)).collect();
    let past: Vec<&[f64]> = past.iter().map(Vec::as_slice).collect();
    let now = sample(w.now);
    let a = fit(&past, &now)?;
    let next = |terms: &[f64]| -> f64 {
        let len = terms.len();
        (1..=k).map(|i| a[i - 1] * terms[len - i * m]).sum()
    };
    // The first m closed-form terms bound top from below, and H ≥ 1, so
    // the bound is at least E·2·first. E is tried on the sampled states
    // first: their residual is part of the whole one (up to roundings, so
    // a fit may be refused a little early, never accepted wrongly).
    let mut terms: Vec<f64> = w.finished[t - k * m..].to_vec();
    let mut first = 0.0f64;
    for _ in 0..m {
        let x = next(&terms);
        first = first.max(x.abs());
        terms.push(x);
    }
    terms.truncate(k * m);
    if residual(&past, &now, &a).0 * 2.0 * first > limit {
        return None;
    }
    let (e, size) = residual(w.past, w.now, &a);
    let e = e + (w.now.len() as f64 + 2.0 * k as f64 + 1.0) * f64::EPSILON * size;
    if e * 2.0 * first > limit {
        return None;
    }
    let h = impulse_sum(&a, limit / (e * 2.0 * first).max(f64::MIN_POSITIVE))?;
    let spread = h * e;
    if spread * (2.0 * first + spread) > limit {
        return None;
    }
    let big_a: f64 = a.iter().map(|x| x.abs()).sum();
    // The closed-form terms, τ = T + 1, T + 2, …, each from the k terms
    // m, 2m, … before it, until the last k·m of them bound what is left
    // below a thousandth of the limit (or of 1e-13): every later term of a class is a
    // combination of shifted impulse responses with coefficients of at
    // most A·s each (A = Σ|aᵢ|, s the class's largest of its last k), so
    // a class's rest is at most (k·A·s·H)² in squares and k·A·s·H in size.
    let (mut sum, mut top) = (0.0f64, 0.0f64);
    let left = loop {
        for _ in 0..k * m {
            let x = next(&terms);
            sum += x * x;
            top = top.max(x.abs());
            terms.push(x);
        }
        let s = terms[terms.len() - k * m..]
            .iter()
            .fold(0.0f64, |x, y: &f64| x.max(y.abs()));
        let rest = k as f64 * big_a * s * h;
        if m as f64 * rest * rest <= limit.min(1e-13) * 1e-3 {
            top = top.max(rest);
            break m as f64 * rest * rest;
        }
        if terms.len() > 64 * t.max(k * m) {
            return None;
        }
    };
    // The terms' and the sum's roundings, relative (each term is a sum of
    // k products, the sum one addition per term).
    let rounding = 4.0 * (k as f64 + 1.0) * f64::EPSILON * sum + left;
    let error = spread * (2.0 * top + spread) + rounding;
    (error <= limit).then_some(Tail { sum, error })
}

/// The least-squares `a` of `now ≈ Σᵢ aᵢ·past[k − i]`, by modified
/// Gram–Schmidt (the states are close to parallel once one mode dominates,
/// where the normal equations would lose half the digits); `None` when a
/// state has no part outside the later ones.
fn fit(past: &[&[f64]], now: &[f64]) -> Option<Vec<f64>> {
    let k = past.len();
    let n = now.len();
    // Columns in the order π_{T−m}, π_{T−2m}, …: q holds the orthonormal
    // basis, r the upper triangle with columns = q·r.
    let mut q: Vec<Vec<f64>> = Vec::with_capacity(k);
    let mut r = vec![vec![0.0; k]; k];
    for j in 0..k {
        let mut v = past[k - 1 - j].to_vec();
        let size: f64 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        for (i, qi) in q.iter().enumerate() {
            let c: f64 = qi.iter().zip(&v).map(|(a, b)| a * b).sum();
            r[i][j] = c;
            for (x, y) in v.iter_mut().zip(qi) {
                *x -= c * y;
            }
        }
        let norm: f64 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        // Also refuses a NaN norm.
        if norm.is_nan() || norm <= 1e-12 * size {
            return None;
        }
        r[j][j] = norm;
        v.iter_mut().for_each(|x| *x /= norm);
        q.push(v);
    }
    let mut b: Vec<f64> = q
        .iter()
        .map(|qi| qi.iter().zip(now).map(|(a, b)| a * b).sum())
        .collect();
    // Back substitution: r·a = b.
    for j in (0..k).rev() {
        let s: f64 = (j + 1..k).map(|i| r[j][i] * b[i]).sum();
        b[j] = (b[j] - s) / r[j][j];
    }
    debug_assert_eq!(n, past[0].len());
    b.iter().all(|x| x.is_finite()).then_some(b)
}

/// An upper bound on `H = Σ_j |h_j|`, h the impulse response of `x_j =
/// Σᵢ aᵢ·x_{j−i}`, or `None` when it does not decay fast enough to tell.
///
/// h is summed until its last k values `s` satisfy `k·A·max|s| ≤ 1/64`,
/// `A = Σ|aᵢ|`: every later h is the response to that state, a combination
/// of shifted impulse responses with coefficients of at most `A·max|s|`
/// each, so the rest is at most `k·A·max|s|·H ≤ H/64` and `H ≤ (64/63)·
/// Σ_{j≤J} |h_j|` (with 1% more for the roundings of h itself). `None` as
/// well once the sum passes `most`.
fn impulse_sum(a: &[f64], most: f64) -> Option<f64> {
    const BOUND: f64 = 1.01 * 64.0 / 63.0;
    let k = a.len();
    let big_a: f64 = a.iter().map(|x| x.abs()).sum();
    let mut h = vec![0.0; k - 1];
    h.push(1.0);
    let mut total = 1.0;
    for _ in 0..100_000 {
        let len = h.len();
        let state = h[len - k..]
            .iter()
            .fold(0.0f64, |x, y: &f64| x.max(y.abs()));
        if k as f64 * big_a * state <= 1.0 / 64.0 {
            return Some(BOUND * total);
        }
        let x: f64 = (1..=k).map(|i| a[i - 1] * h[len - i]).sum();
        if !x.is_finite() || BOUND * total > most {
            return None;
        }
        total += x.abs();
        h.push(x);
    }
    None
}

/// `‖now − Σᵢ aᵢ·past[k − i]‖₁` as computed, and the sum of the terms'
/// magnitudes: the computed value is within `(n + 2k + 1)·ε` of that sum of
/// the true one (each entry's roundings and the sum's).
fn residual(past: &[&[f64]], now: &[f64], a: &[f64]) -> (f64, f64) {
    let k = past.len();
    let (mut e, mut size) = (0.0, 0.0);
    for (s, &w) in now.iter().enumerate() {
        let mut x = w;
        let mut magnitude = w.abs();
        for i in 1..=k {
            let y = a[i - 1] * past[k - i][s];
            x -= y;
            magnitude += y.abs();
        }
        e += x.abs();
        size += magnitude;
    }
    (e, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States and finishing chances of a small chain stepped `turns` times
    /// from its first state.
    fn stepped<const N: usize>(
        q: [[f64; N]; N],
        r: [f64; N],
        turns: usize,
    ) -> (Vec<[f64; N]>, Vec<f64>) {
        let mut p = [0.0; N];
        p[0] = 1.0;
        let (mut states, mut finished) = (vec![p], Vec::new());
        for _ in 0..turns {
            let p = *states.last().unwrap();
            finished.push(p.iter().zip(&r).map(|(a, b)| a * b).sum());
            let mut next = [0.0; N];
            for (s, row) in q.iter().enumerate() {
                for (c, x) in row.iter().enumerate() {
                    next[c] += p[s] * x;
                }
            }
            states.push(next);
        }
        (states, finished)
    }

    fn tail_at<const N: usize>(
        states: &[[f64; N]],
        finished: &[f64],
        t: usize,
        m: usize,
        k: usize,
    ) -> Option<Tail> {
        let past: Vec<&[f64]> = (1..=k).rev().map(|i| &states[t - i * m][..]).collect();
        modes_tail(
            &Window {
                past: &past,
                now: &states[t],
                finished: &finished[..t],
                m,
            },
            1.0,
        )
    }

    /// A chain of two transient states, a 0.5-loop feeding a 0.9-loop, has
    /// exactly two modes: its states obey the recurrence exactly, so the
    /// closed form is the whole tail, with an error bound of rounding size.
    #[test]
    fn two_modes_are_continued_exactly() {
        let (states, finished) = stepped([[0.5, 0.3], [0.0, 0.9]], [0.2, 0.1], 4000);
        let all: f64 = finished.iter().map(|f| f * f).sum();
        let t = 30;
        let tail = tail_at(&states, &finished, t, 7, 2).unwrap();
        let stepped: f64 = finished[..t].iter().map(|f| f * f).sum();
        assert!(tail.error < 1e-15, "{tail:?}");
        assert!(
            (stepped + tail.sum - all).abs() < 1e-15,
            "{}",
            stepped + tail.sum
        );
    }

    /// Three modes fitted by one, two and three: the bound holds at every
    /// turn tried, and shrinks below the lanes' tolerance sooner the more
    /// modes are fitted.
    #[test]
    fn the_bound_holds_and_more_modes_close_sooner() {
        // 0 → 1 → 2, each stay-loop slower than the one before.
        let q = [[0.4, 0.3, 0.0], [0.0, 0.7, 0.2], [0.0, 0.0, 0.95]];
        let (states, finished) = stepped(q, [0.3, 0.1, 0.05], 3000);
        let m = 5;
        // The first turn each k closes at.
        let first: Vec<usize> = (1..=3)
            .map(|k| {
                let mut first = usize::MAX;
                for t in (k * m..400).step_by(m) {
                    let Some(tail) = tail_at(&states, &finished, t, m, k) else {
                        continue;
                    };
                    let rest: f64 = finished[t..].iter().map(|f| f * f).sum();
                    assert!(
                        (rest - tail.sum).abs() <= tail.error,
                        "{k} {t}: {rest} {tail:?}"
                    );
                    if tail.error < 1e-13 {
                        first = first.min(t);
                    }
                }
                first
            })
            .collect();
        assert!(
            first[2] < first[1] && first[1] < first[0] && first[0] < 400,
            "{first:?}"
        );
    }

    /// A recurrence that does not decay has no bound.
    #[test]
    fn a_growing_recurrence_is_refused() {
        assert!(impulse_sum(&[1.0], 1e300).is_none());
        assert!(impulse_sum(&[0.5, 0.6], 1e300).is_none());
        assert!(impulse_sum(&[0.5], 1.0).is_none());
        let h = impulse_sum(&[0.5], 1e300).unwrap();
        assert!((2.0..=2.1).contains(&h), "{h}");
    }
}
