//! What an analysis computes, decided before any optional figure is: the
//! bytes and work of each, from the solver's [`Estimate`] and the chain's
//! size, checked against the [`Limits`]. The figures themselves are
//! computed by `compute`, as decided here.

use super::limits::{self, Cost, Figure, Limits, Skipped};
use super::moments::Moments;
use super::solve::Estimate;
use crate::Board;
use crate::markov::chain::Chain;

/// How the length distribution fits the limits.
pub(super) enum DistributionPlan {
    /// Within both limits: computed within the work limit.
    Full,
    /// Over the work limit alone: probed within a share of it
    /// ([`limits::PROBE_SHARE`]), kept only if finished, else skipped so.
    Probe(Skipped),
    /// Over the memory limit: left out.
    Skip(Skipped),
}

/// Which optional figures of an analysis fit its limits, and whether its
/// two independent sides run on two cores.
pub(super) struct Plan {
    /// The length distribution (with the seat odds and quantiles drawn
    /// from it).
    pub distribution: DistributionPlan,
    /// The rest probabilities (the diagonal of `(I − Q)⁻¹`): `None` when
    /// they fit, else why they are skipped.
    pub diagonal: Option<Skipped>,
    /// The per-jump figures: `None` when they fit, else why skipped.
    pub jumps: Option<Skipped>,
    /// Whether the distribution side and the per-square and per-jump side
    /// run on two cores at once.
    pub parallel: bool,
}

impl Plan {
    /// Decides what an analysis of `chain` (whose factorisation `estimate`
    /// sized; `turns` the moments of its length)
    /// computes within `limits`. Every estimate is a formula of the sizes;
    /// nothing large is computed here.
    pub(super) fn new(
        board: &Board,
        chain: &Chain,
        limits: &Limits,
        estimate: &Estimate,
        turns: &Moments,
    ) -> Plan {
        let start = chain.start().get();
        let entries = chain.entries().max(1) as f64;
        let (mean, sd) = (turns.mean[start], turns.variance[start].sqrt());
        let spread = (mean + limits::TAIL_STD_DEVS * sd).min(limits::GEOMETRIC_AFTER * (mean + sd));
        let held = limits::held_bytes(chain) + estimate.bytes;
        // The distribution's own copy of Q and its vectors, beside what the
        // analysis holds.
        let distribution_bytes = limits::distribution_bytes(chain);
        let distribution_work = entries * (spread + 1.0);
        let distribution = match limits.check(
            Figure::Distribution,
            held + distribution_bytes,
            distribution_work,
        ) {
            Some(skip) if matches!(skip.cost, Cost::Work { .. }) => DistributionPlan::Probe(skip),
            Some(skip) => DistributionPlan::Skip(skip),
            None => DistributionPlan::Full,
        };
        let (jump_bytes, jump_work) = jump_cost(board, chain, held, estimate);
        let diagonal_bytes = held + estimate.diagonal_bytes;
        // Two cores pay only for long work, and only when both sides'
        // memory fits the limit at once (each was checked alone).
        let together = distribution_bytes + diagonal_bytes.max(jump_bytes);
        Plan {
            distribution,
            diagonal: limits.check(
                Figure::RestProbabilities,
                diagonal_bytes,
                estimate.diagonal_work,
            ),
            jumps: limits.check(Figure::Jumps, jump_bytes, jump_work),
            parallel: distribution_work >= super::PARALLEL_WORK && together <= limits.max_memory,
        }
    }
}

/// The bytes and multiply-adds of the per-jump figures of `chain`, beside
/// the `held` bytes of the analysis.
fn jump_cost(board: &Board, chain: &Chain, held: u64, estimate: &Estimate) -> (u64, f64) {
    let n = chain.len() as u64;
    let entries = chain.entries().max(1) as f64;
    let jump_count = board.jumps().len() as f64;
    if board.rules().extra_turn().is_none() {
        // One solve per jump, and a per-state vector of uses per jump.
        (
            held + (jump_count as u64 + 4) * n * 8,
            jump_count * (estimate.solve_work + entries),
        )
    } else {
        // A modified chain factored per jump, and the board recompiled.
        (
            2 * held + limits::chain_bytes(board) + n * 8 * (jump_count as u64 + 4),
            jump_count
                * (2.0 * (estimate.factor_work + estimate.solve_work)
                    + limits::chain_bytes(board) as f64),
        )
    }
}
