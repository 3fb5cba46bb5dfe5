//! Which states reach the target, found from the chain's graph alone,
//! before any number is computed (docs/chain-questions.md §1).
//!
//! A state *never* reaches the target when no path of positive
//! transitions leads there; it reaches it *surely* (with probability 1)
//! when no path avoiding the target leads to a state that never does. The
//! rest reach it with a probability strictly between 0 and 1. Expected
//! steps and rewards are finite exactly on the sure states, and the linear
//! systems over the other sets are non-singular by construction: every
//! state in them can leave them.

use crate::Chain;

/// How each state of a chain reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A target state.
    Target,
    /// Reaches the target with probability 1, and is not one.
    Surely,
    /// Reaches the target with a probability strictly between 0 and 1.
    Maybe,
    /// Never reaches the target.
    Never,
}

/// The [`Reach`] of every state of `chain`, by two searches backward over
/// its transitions: linear in the chain's size.
pub(crate) fn classify(chain: &Chain) -> Vec<Reach> {
    let n = chain.len();
    // Predecessors, in compressed rows of the transposed graph.
    let mut counts = vec![0usize; n + 1];
    for &c in &chain.cols {
        counts[c as usize + 1] += 1;
    }
    for i in 0..n {
        counts[i + 1] += counts[i];
    }
    let mut fill = counts.clone();
    let mut preds = vec![0u32; chain.cols.len()];
    for from in 0..n {
        for k in chain.offsets[from]..chain.offsets[from + 1] {
            let to = chain.cols[k] as usize;
            preds[fill[to]] = from as u32;
            fill[to] += 1;
        }
    }
    let predecessors = |s: usize| preds[counts[s]..counts[s + 1]].iter().map(|&p| p as usize);
    // States that can reach the target.
    let mut can = chain.target.clone();
    let mut stack: Vec<usize> = (0..n).filter(|&s| can[s]).collect();
    while let Some(s) = stack.pop() {
        for p in predecessors(s) {
            if !can[p] {
                can[p] = true;
                stack.push(p);
            }
        }
    }
    // States that can reach a state that never reaches it, avoiding the
    // target: these reach it with probability below 1.
    let mut short = can.iter().map(|&c| !c).collect::<Vec<bool>>();
    let mut stack: Vec<usize> = (0..n).filter(|&s| short[s]).collect();
    while let Some(s) = stack.pop() {
        for p in predecessors(s) {
            if !short[p] && !chain.target[p] {
                short[p] = true;
                stack.push(p);
            }
        }
    }
    (0..n)
        .map(|s| match (chain.target[s], can[s], short[s]) {
            (true, _, _) => Reach::Target,
            (false, false, _) => Reach::Never,
            (false, true, true) => Reach::Maybe,
            (false, true, false) => Reach::Surely,
        })
        .collect()
}
