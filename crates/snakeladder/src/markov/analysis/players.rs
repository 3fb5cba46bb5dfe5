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
/// closed form ([`tail_in_closed_form`], docs/figures.md §8).
///
/// All counts are summed in one pass over the distribution: the sums of
/// different counts do not depend on one another, so they overlap instead
/// of each waiting on its own running sum, and each count gets the same
/// operations in the same order as alone.
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
    let mut win: Vec<Vec<f64>> = counts.iter().map(|&c| vec![0.0; c as usize]).collect();
    let mut total_turns = vec![0.0; counts.len()];
    for (i, &f) in d.pmf[..stepped].iter().enumerate() {
        if f == 0.0 {
            continue;
        }
        let t = (i + 1) as f64;
        let (now, before) = (d.survival[i + 1], d.survival[i]);
        // Seat i: f·now^i·before^(k−1−i), from seat 0 by one ratio per seat
        // (before ≥ f > 0 here).
        let ratio = now / before;
        for ((&count, win), total_turns) in counts.iter().zip(&mut win).zip(&mut total_turns) {
            let mut p = f * before.powi(count as i32 - 1);
            for (seat, w) in win.iter_mut().enumerate() {
                if seat > 0 {
                    p *= ratio;
                }
                *w += p;
                *total_turns += p * ((t - 1.0) * f64::from(count) + seat as f64 + 1.0);
            }
        }
    }
    counts
        .iter()
        .zip(win)
        .zip(total_turns)
        .map(|((&count, mut win), mut total_turns)| {
            let k = count as i32;
            let mut expected_rounds = d.survival[..=stepped].iter().map(|s| s.powi(k)).sum();
            if let Some((now, period, block)) = closed {
                let tail = tail_in_closed_form(d, now - period, period, block, count);
                win.iter_mut().zip(&tail.win).for_each(|(w, t)| *w += t);
                total_turns += tail.total_turns;
                expected_rounds += tail.rounds;
            }
            PlayersFigures {
                count,
                win_probability: win,
                expected_total_turns: total_turns,
                expected_rounds,
            }
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

struct Tail {
    win: Vec<f64>,
    total_turns: f64,
    rounds: f64,
}

/// The sums of [`figures`] over every turn after `t + m`, where the
/// distribution repeats its turns `t + 1 ..= t + m` scaled by `Rʲ` (R =
/// `block`, docs/figures.md §4a): `P(T = t + jm + i + 1) = f(t + i + 1)·Rʲ`,
/// `P(T > t + jm + r) = σ_r·Rʲ` for j ≥ 1, with `σ_r = P(T > t + r)` for
/// r < m and `σ_m = P(T > t)·R`.
///
/// # Formula
/// Every term of turn `t + jm + i + 1` is its j = 0 counterpart times
/// `Rʲᵏ = xʲ`, so each sum over j ≥ 1 is `g₁ = Σ xʲ = x/(1 − x)`, and the
/// factor `t + jm + i` of the total turns adds `g₂ = Σ j·xʲ = x/(1 − x)²`:
/// `P(seat s wins) += g₁·Σ_i f_i·σ_{i+1}ˢ·σ_i^(k−1−s)`,
/// `E[turns] += Σ_i Σ_s f_i·σ_{i+1}ˢ·σ_i^(k−1−s)·(g₁·((t + i)·k + s + 1) + g₂·m·k)`,
/// `E[rounds] += g₁·Σ_{r=1..m} σ_rᵏ`. The series run to infinity, where the
/// stepped sums stopped at a tail of [`tolerance::TAIL`](crate::markov::tolerance::TAIL):
/// the difference is below that tail.
fn tail_in_closed_form(d: &Distribution, t: usize, m: usize, block: f64, count: u32) -> Tail {
    let k = count as i32;
    // ln R from R − 1, and 1 − x by expm1: R is within 1e-5 of 1 on the
    // boards that come here, where 1 − Rᵏ would lose five digits.
    let k_ln_r = f64::from(count) * (block - 1.0).ln_1p();
    let x = k_ln_r.exp();
    let one_minus_x = -k_ln_r.exp_m1();
    let g1 = x / one_minus_x;
    let g2 = g1 / one_minus_x;
    let sigma = |r: usize| {
        if r < m {
            d.survival[t + r]
        } else {
            d.survival[t] * block
        }
    };
    let mut tail = Tail {
        win: vec![0.0; count as usize],
        total_turns: 0.0,
        rounds: 0.0,
    };
    let span = (m as f64) * f64::from(count);
    for i in 0..m {
        let f = d.pmf[t + i];
        if f == 0.0 {
            continue;
        }
        let (now, before) = (sigma(i + 1), sigma(i));
        let ratio = now / before;
        let mut p = f * before.powi(k - 1);
        let first = ((t + i) as f64) * f64::from(count);
        for (seat, w) in tail.win.iter_mut().enumerate() {
            if seat > 0 {
                p *= ratio;
            }
            *w += p * g1;
            tail.total_turns += p * (g1 * (first + seat as f64 + 1.0) + g2 * span);
        }
    }
    tail.rounds = g1 * (1..=m).map(|r| sigma(r).powi(k)).sum::<f64>();
    tail
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
        let closed = super::super::limits::distribution(&chain, usize::MAX);
        assert!(closed.decay.and_then(|d| d.from_turn).is_some());
        let stepped = super::super::distribution::from_state(&chain, chain.start());
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
