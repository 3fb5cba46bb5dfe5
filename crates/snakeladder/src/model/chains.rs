//! Where every jump's chain ends, resolved once per board.
//!
//! Under `chains: follow` a token that takes a jump keeps taking the jump
//! starting where the last one ended, until a square without one. Walking
//! that chain on every move costs its length, so a board of long chains
//! (`ladders` [[1, 2], [2, 3], …]) made every consumer quadratic in the
//! number of squares (docs/chains.md). Here each jump's chain is resolved
//! once, iteratively (no recursion, whatever the chain's length), when the
//! board is assembled:
//!
//! - `end[j]`: the square a token taking jump `j` ends its move on;
//! - `next[j]`: the jump it takes after `j`, if any;
//! - a pre-order numbering of the forest in which `next[j]` is the parent of
//!   `j`, so that "does the chain from `j` pass through `a`" is two
//!   comparisons, and an order in which every jump comes before its `next`
//!   (to add up per-jump counts along chains in one pass).
//!
//! Under `chains: forbid` (or when no jump ends on another's start) every
//! chain is the jump alone.

use crate::model::jump::Jump;
use crate::{Square, model::rules::Chains};

/// "No jump" in the `u32` arrays below.
const NONE: u32 = u32::MAX;

/// The chain of every jump of a board (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChainIndex {
    /// The jump taken after each jump, or [`NONE`].
    next: Vec<u32>,
    /// The square each jump's chain ends on.
    end: Vec<Square>,
    /// Pre-order number of each jump in the forest of `next` links.
    enter: Vec<u32>,
    /// One past the last pre-order number of each jump's subtree: the jumps
    /// whose chain passes through it.
    exit: Vec<u32>,
    /// Every jump, each before the one it leads to.
    upstream_first: Vec<u32>,
    /// Whether some jump leads to another, kept rather than found by a scan
    /// of `next` on each call: the chain's compiler asks once per row, and
    /// a scan of 20,000 jumps per row of a 10,000,000-square board was
    /// minutes of work (docs/sparse-solver.md §8).
    chained: bool,
}

impl ChainIndex {
    /// Resolves the chains of `jumps` (sorted by start, with `jump_at` the
    /// index of the jump starting on each square or `u32::MAX`). Validation
    /// has ruled out cycles under `follow`; a jump on a cycle anyway would
    /// keep its own end and an empty subtree, never a loop here.
    pub(crate) fn new(jumps: &[Jump], jump_at: &[u32], chains: Chains) -> ChainIndex {
        let n = jumps.len();
        let next: Vec<u32> = jumps
            .iter()
            .map(|j| match chains {
                Chains::Follow => jump_at.get(j.to().index()).copied().unwrap_or(NONE),
                Chains::Forbid => NONE,
            })
            .collect();
        // The jumps leading into each jump, as compressed rows.
        let mut starts = vec![0u32; n + 1];
        for &p in next.iter().filter(|&&p| p != NONE) {
            starts[p as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut into = vec![0u32; starts[n] as usize];
        for (j, &p) in next.iter().enumerate() {
            if p != NONE {
                into[fill[p as usize] as usize] = j as u32;
                fill[p as usize] += 1;
            }
        }
        let mut end: Vec<Square> = jumps.iter().map(|j| j.to()).collect();
        let mut enter = vec![0u32; n];
        let mut exit = vec![0u32; n];
        let mut preorder: Vec<u32> = Vec::with_capacity(n);
        // Depth-first from each chain's last jump, with an explicit stack
        // of (jump, next child to visit).
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for root in (0..n).filter(|&j| next[j] == NONE) {
            let root_end = jumps[root].to();
            enter[root] = preorder.len() as u32;
            preorder.push(root as u32);
            stack.push((root as u32, starts[root]));
            while let Some(top) = stack.last_mut() {
                let (j, child) = (top.0 as usize, top.1);
                if child < starts[j + 1] {
                    top.1 += 1;
                    let c = into[child as usize] as usize;
                    end[c] = root_end;
                    enter[c] = preorder.len() as u32;
                    preorder.push(c as u32);
                    stack.push((c as u32, starts[c]));
                } else {
                    exit[j] = preorder.len() as u32;
                    stack.pop();
                }
            }
        }
        // Pre-order puts a jump before the jumps leading into it; reversed,
        // every jump comes before the one it leads to.
        preorder.reverse();
        ChainIndex {
            chained: next.iter().any(|&p| p != NONE),
            next,
            end,
            enter,
            exit,
            upstream_first: preorder,
        }
    }

    /// The square a token that takes jump `j` ends its move on.
    pub(crate) fn end(&self, j: usize) -> Square {
        self.end[j]
    }

    /// The jump taken right after jump `j`, if any.
    pub(crate) fn next(&self, j: usize) -> Option<usize> {
        match self.next[j] {
            NONE => None,
            p => Some(p as usize),
        }
    }

    /// Whether a move whose first jump is `first` takes jump `a`.
    pub(crate) fn passes(&self, first: usize, a: usize) -> bool {
        first == a || (self.enter[a] <= self.enter[first] && self.enter[first] < self.exit[a])
    }

    /// Every jump, each before the jump it leads to: adding each jump's
    /// count to its `next` in this order gives every jump the count of the
    /// moves that pass through it.
    pub(crate) fn upstream_first(&self) -> &[u32] {
        &self.upstream_first
    }

    /// Whether some jump leads to another.
    pub(crate) fn any_chained(&self) -> bool {
        self.chained
    }
}

#[cfg(test)]
mod tests {
    use crate::Board;

    fn board(json: &str) -> Board {
        Board::from_json_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    /// The index against walking every chain jump by jump, on a board with
    /// branching chains (two jumps into one) under `follow`.
    #[test]
    fn ends_and_passes_match_walking_the_chain() {
        let b = board(
            r#"{"squares": 60, "ladders": [[2, 10], [10, 20], [5, 20], [20, 30], [31, 40]],
                "snakes": [[45, 31], [50, 5], [55, 44]], "rules": {"chains": "follow"}}"#,
        );
        let chains = b.chain_index();
        for first in 0..b.jumps().len() {
            let mut walked = vec![first];
            let mut at = b.jumps()[first].to();
            while let Some(j) = b.jump_index(at) {
                walked.push(j);
                at = b.jumps()[j].to();
            }
            assert_eq!(chains.end(first), at, "jump {first}");
            for a in 0..b.jumps().len() {
                assert_eq!(chains.passes(first, a), walked.contains(&a), "{first} {a}");
            }
        }
        let order = chains.upstream_first();
        let pos = |j: usize| order.iter().position(|&k| k as usize == j).unwrap();
        for j in 0..b.jumps().len() {
            if let Some(n) = chains.next(j) {
                assert!(pos(j) < pos(n));
            }
        }
        assert!(chains.any_chained());
    }

    /// Under `forbid` every chain is its jump.
    #[test]
    fn forbid_chains_are_single_jumps() {
        let b = board(r#"{"squares": 30, "ladders": [[2, 10]], "snakes": [[25, 3]]}"#);
        let chains = b.chain_index();
        assert_eq!(
            (chains.end(0), chains.end(1)),
            (b.jumps()[0].to(), b.jumps()[1].to())
        );
        assert!(!chains.passes(0, 1) && chains.passes(1, 1));
        assert!(!chains.any_chained());
    }

    /// A chain of 200,000 jumps resolves without deep recursion.
    #[test]
    fn a_long_chain_resolves_iteratively() {
        let n = 200_000;
        let ladders: Vec<String> = (1..n - 1).map(|i| format!("[{i},{}]", i + 1)).collect();
        let json = format!(
            r#"{{"squares": {n}, "ladders": [{}], "rules": {{"chains": "follow"}}}}"#,
            ladders.join(",")
        );
        let b = board(&json);
        let chains = b.chain_index();
        assert_eq!(chains.end(0), crate::Square::new(n - 1));
        assert!(chains.passes(0, b.jumps().len() - 1));
        assert!(!chains.passes(b.jumps().len() - 1, 0));
    }
}
