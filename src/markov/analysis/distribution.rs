//! The distribution of the number of turns (docs/figures.md §4), and the
//! per-square finishing-time distributions behind live odds (§5).

use crate::markov::chain::{Chain, StateIndex, Target};
use crate::markov::tolerance;

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
struct Split {
    offsets: Vec<usize>,
    columns: Vec<u32>,
    values: Vec<f64>,
    finish: Vec<f64>,
}

fn split(chain: &Chain) -> Split {
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
/// `P(T = t) = π_{t−1}·R`, `π_t = π_{t−1}·Q`, one sparse product per turn.
pub fn from_state(chain: &Chain, from: StateIndex) -> Distribution {
    let q = split(chain);
    let n = chain.len();
    let mut pi = vec![0.0; n];
    pi[from.get()] = 1.0;
    let mut next = vec![0.0; n];
    let mut pmf = Vec::new();
    let mut survival = vec![1.0];
    while pmf.len() < tolerance::MAX_DISTRIBUTION_TURNS {
        next.iter_mut().for_each(|x| *x = 0.0);
        let mut finished = 0.0;
        let mut left = 0.0;
        for (s, &mass) in pi.iter().enumerate() {
            if mass == 0.0 {
                continue;
            }
            finished += mass * q.finish[s];
            let range = q.offsets[s]..q.offsets[s + 1];
            for (&c, &v) in q.columns[range.clone()].iter().zip(&q.values[range]) {
                let moved = mass * v;
                next[c as usize] += moved;
                left += moved;
            }
        }
        std::mem::swap(&mut pi, &mut next);
        pmf.push(finished);
        survival.push(left);
        if left < tolerance::TAIL {
            break;
        }
    }
    Distribution { pmf, survival }
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
        })
        .collect();
    for _ in 0..max_turns.min(tolerance::MAX_DISTRIBUTION_TURNS) {
        for s in 0..n {
            let (mut fs, mut gs) = (0.0, 0.0);
            let range = q.offsets[s]..q.offsets[s + 1];
            for (&c, &v) in q.columns[range.clone()].iter().zip(&q.values[range]) {
                gs += v * g[c as usize];
                fs += v * f[c as usize];
            }
            g_next[s] = gs;
            f_next[s] = fs;
        }
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

    #[test]
    fn quantile_convention() {
        let d = Distribution {
            pmf: vec![0.25, 0.25, 0.5],
            survival: vec![1.0, 0.75, 0.5, 0.0],
        };
        // P(T ≤ 2) = 0.5 exactly: the median is 2, not 3.
        assert_eq!(d.quantile(0.5), Some(2));
        assert_eq!(d.quantile(0.51), Some(3));
        assert_eq!(d.mode(), Some(3));
        assert_eq!(d.min(), Some(1));
    }
}
