//! Several players (docs/figures.md §8): seat win probabilities and the length of
//! the whole game.
//!
//! # Why the players are independent
//! Tokens never interact: no rule moves, blocks or sends back another
//! player's token, and each player's rolls are independent draws of the same
//! dice. So the turn counts `T₁ … T_k` of the players are independent
//! random variables, each distributed as T from that player's own square.
//! The game ends at the first player, in seat order within a round, whose
//! token finishes. Seat i (0-based) wins on its t-th turn exactly when it
//! finishes on its t-th turn (`f(t)`), every seat before it has not finished
//! within t turns (`S(t)` each) and every seat after it has not finished
//! within t − 1 (`S(t − 1)` each); independence makes that a product.

use super::distribution::Distribution;
use serde::Serialize;

/// The figures of one player count.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Analysis, Board, Options};

let board = Board::from_json_str(SMALL)?;
let analysis = Analysis::new(&board, &Options::default().players([2]))?;
let two = &analysis.players[0];
assert_eq!(two.count, 2);
// The first seat moves first and wins more often.
assert!(two.win_probability[0] > two.win_probability[1]);
assert!((two.win_probability.iter().sum::<f64>() - 1.0).abs() < 1e-9);
assert!(two.expected_total_turns > analysis.turns.mean);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PlayersFigures {
    /// Number of players.
    pub count: u32,
    /// Each seat's probability of winning, first seat first.
    pub win_probability: Vec<f64>,
    /// Expected turns of the whole game, counted over all players.
    pub expected_total_turns: f64,
    /// Expected rounds (a round is one turn of each player; the last may be
    /// cut short by the winner).
    pub expected_rounds: f64,
}

/// Win probabilities and game length for each of `counts` players who all
/// start on the start square, from the length distribution of one player.
///
/// # Formula
/// `P(seat i wins) = Σ_t f(t)·S(t)ⁱ·S(t−1)^(k−1−i)`,
/// `E[rounds] = Σ_{t≥0} S(t)ᵏ`,
/// `E[turns] = Σ_i Σ_t f(t)·S(t)ⁱ·S(t−1)^(k−1−i)·((t−1)·k + i + 1)`,
/// summed over the stepped turns; past them, where the distribution's tail
/// was computed from its geometric decay, each sum is a geometric series in
/// closed form (docs/figures.md §8).
///
/// Each count gets the same operations in the same order as alone.
///
/// # Panics
/// If a count is 0.
pub fn figures_each(d: &Distribution, counts: &[u32]) -> Vec<PlayersFigures> {
    assert!(counts.iter().all(|&c| c > 0), "at least one player");
    let closed = d
        .decay
        .and_then(|decay| Some((decay.from_turn?, decay.period, decay.block)));
    // The terms past `from_turn` are summed below in closed form, not one
    // by one: a game of 300,000 turns on average has 8 million of them.
    let stepped = closed.map_or(d.pmf.len(), |(now, _, _)| now);
    let mut sums = race_sums(&d.pmf[..stepped], &d.survival[..=stepped], 0, counts);
    if let Some((now, m, block)) = closed {
        let t = now - m;
        // σ_r = P(T > t + r) for r < m and σ_m = P(T > t)·R (docs/figures.md §8).
        let mut sigma = d.survival[t..t + m].to_vec();
        sigma.push(d.survival[t] * block);
        let tail = race_sums(&d.pmf[t..t + m], &sigma, t, counts);
        for ((&count, sum), tail) in counts.iter().zip(&mut sums).zip(tail) {
            // Every term of turn t + jm + i + 1 is its j = 0 counterpart
            // times x^j, x = R^k: the sums over j ≥ 1 are g₁ = x/(1 − x)
            // and, for the factor t + jm + i of the turns, g₂ = x/(1 − x)².
            // ln R from R − 1, and 1 − x by expm1: R is within 1e-5 of 1 on
            // the boards that come here, where 1 − Rᵏ would lose five digits.
            let k_ln_r = f64::from(count) * (block - 1.0).ln_1p();
            let one_minus_x = -k_ln_r.exp_m1();
            let g1 = k_ln_r.exp() / one_minus_x;
            let g2 = g1 / one_minus_x;
            let span = (m as f64) * f64::from(count);
            let wins: f64 = tail.win.iter().sum();
            sum.win
                .iter_mut()
                .zip(&tail.win)
                .for_each(|(w, t)| *w += g1 * t);
            sum.turns += g1 * tail.turns + g2 * span * wins;
            sum.rounds += g1 * tail.rounds;
        }
    }
    counts
        .iter()
        .zip(sums)
        .map(|(&count, sum)| PlayersFigures {
            count,
            win_probability: sum.win,
            expected_total_turns: sum.turns,
            // S(0)ᵏ = 1, and the later turns.
            expected_rounds: 1.0 + sum.rounds,
        })
        .collect()
}

/// [`figures_each`] of one count.
#[cfg(test)]
pub fn figures(d: &Distribution, count: u32) -> PlayersFigures {
    figures_each(d, &[count])
        .pop()
        .expect("one count, one figure")
}

/// The sums of [`figures_each`] over some turns, for each count k.
struct Sums {
    /// `Σ f(τ+1)·S(τ+1)ˢ·S(τ)^(k−1−s)` for each seat s.
    win: Vec<f64>,
    /// The same terms, each times `τ·k + s + 1`.
    turns: f64,
    /// `Σ S(τ + 1)ᵏ`: every survival given but the first.
    rounds: f64,
}

/// [`Sums`] over the turns `first + 1 ..= first + pmf.len()`, with
/// `pmf[i] = P(T = first + i + 1)` and `survival[i] = P(T > first + i)`
/// (one entry longer). The powers `S(τ)ʲ` come from one product per j
/// and turn, shared by every count, and the seats from seat 0 by one ratio
/// each: no `powi` per term.
///
/// # Formula
/// `P(seat s wins) = Σ_t f(t)·S(t)ˢ·S(t−1)^(k−1−s)`, `E[rounds] = Σ_{t≥0}
/// S(t)ᵏ`, `E[turns] = Σ_s Σ_t f(t)·S(t)ˢ·S(t−1)^(k−1−s)·((t−1)·k + s + 1)`
/// (docs/figures.md §8).
fn race_sums(pmf: &[f64], survival: &[f64], first: usize, counts: &[u32]) -> Vec<Sums> {
    let width = counts.iter().max().map_or(0, |&k| k as usize) + 1;
    // powers[τ·width + j] = S(τ)ʲ.
    let mut powers = vec![1.0; survival.len() * width];
    for (row, &s) in powers.chunks_exact_mut(width).zip(survival) {
        for j in 1..width {
            row[j] = row[j - 1] * s;
        }
    }
    counts
        .iter()
        .map(|&count| {
            let k = count as usize;
            let mut sum = Sums {
                win: vec![0.0; k],
                turns: 0.0,
                rounds: 0.0,
            };
            for (i, &f) in pmf.iter().enumerate() {
                sum.rounds += powers[(i + 1) * width + k];
                if f == 0.0 {
                    continue;
                }
                // Seat s: f·S(τ + 1)ˢ·S(τ)^(k−1−s), from seat 0 by one
                // ratio per seat (S(τ) ≥ f > 0 here).
                let ratio = survival[i + 1] / survival[i];
                let mut p = f * powers[i * width + k - 1];
                let mut turn = (first + i) as f64 * f64::from(count) + 1.0;
                for w in &mut sum.win {
                    *w += p;
                    sum.turns += p * turn;
                    p *= ratio;
                    turn += 1.0;
                }
            }
            sum
        })
        .collect()
}

/// Each player's probability of winning a race from independent
/// finishing-time distributions, in turn order starting with the player to
/// move: the same sum as [`figures`], with each player's own `f` and `S`.
#[cfg(test)]
pub fn race(players: &[Distribution]) -> Vec<f64> {
    let horizon = players.iter().map(|d| d.pmf.len()).max().unwrap_or(0);
    // survival beyond the computed length is below the tail tolerance; it is
    // taken as the last value.
    let survival = |d: &Distribution, t: usize| d.survival[t.min(d.survival.len() - 1)];
    let pmf = |d: &Distribution, t: usize| d.pmf.get(t - 1).copied().unwrap_or(0.0);
    let mut win = vec![0.0; players.len()];
    for t in 1..=horizon {
        for (i, me) in players.iter().enumerate() {
            let f = pmf(me, t);
            if f == 0.0 {
                continue;
            }
            let mut p = f;
            for (j, other) in players.iter().enumerate() {
                if j < i {
                    p *= survival(other, t);
                } else if j > i {
                    p *= survival(other, t - 1);
                }
            }
            win[i] += p;
        }
    }
    win
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts summed together give each the digits it has alone, on a
    /// distribution with a closed-form tail and on one stepped to the end.
    #[test]
    fn counts_together_have_the_digits_of_each_alone() {
        let chain = crate::markov::chain::Chain::compile(&crate::Board::builtin_default()).unwrap();
        use super::super::distribution::stepped_or_computed;
        let closed = stepped_or_computed(&chain, chain.start(), usize::MAX, true);
        assert!(closed.decay.and_then(|d| d.from_turn).is_some());
        let stepped = stepped_or_computed(&chain, chain.start(), usize::MAX, false);
        assert!(stepped.decay.and_then(|d| d.from_turn).is_none());
        let counts = [2, 3, 1, 6, 4];
        for d in [&closed, &stepped] {
            let together = figures_each(d, &counts);
            for (f, &count) in together.iter().zip(&counts) {
                assert_eq!(f, &figures(d, count));
            }
        }
    }

    #[test]
    fn one_turn_games_are_won_by_the_first_seat() {
        let d = Distribution {
            pmf: vec![1.0],
            survival: vec![1.0, 0.0],
            decay: None,
        };
        let f = figures(&d, 3);
        assert_eq!(f.win_probability, vec![1.0, 0.0, 0.0]);
        assert_eq!(f.expected_total_turns, 1.0);
        assert_eq!(f.expected_rounds, 1.0);
    }

    #[test]
    fn coin_flip_race_by_hand() {
        // Each turn finishes with probability 1/2: f(t) = 2^-t, S(t) = 2^-t.
        // Seat 0 wins: Σ_t 2^-t · 2^-(t-1) = 2·Σ 4^-t = 2/3.
        let n = 60;
        let d = Distribution {
            pmf: (1..=n).map(|t| 0.5f64.powi(t)).collect(),
            survival: (0..=n).map(|t| 0.5f64.powi(t)).collect(),
            decay: None,
        };
        let f = figures(&d, 2);
        assert!((f.win_probability[0] - 2.0 / 3.0).abs() < 1e-15);
        // Rounds: Σ_{t≥0} 4^-t = 4/3.
        assert!((f.expected_rounds - 4.0 / 3.0).abs() < 1e-15);
        assert_eq!(race(&[d.clone(), d]), f.win_probability);
    }
}
