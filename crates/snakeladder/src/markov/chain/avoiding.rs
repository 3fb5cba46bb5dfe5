//! The chain with one jump made absorbing, for the per-jump figures.

use super::turn::{Bonus, keep_float, turn_path};
use super::{Chain, merge_by};
use crate::Board;

/// The chain with one jump made absorbing (docs/figures.md §6): for each state, the
/// probability `hit[s]` that a turn from s takes `jump` at least once, and
/// the kernel entries `(s, e, p)` of turns that end on state e without
/// taking it. Built, like the chain, only from [`Board::play_roll`].
pub(crate) struct Avoiding {
    pub entries: Vec<(usize, usize, f64)>,
    pub hit: Vec<f64>,
}

pub(crate) fn avoiding(board: &Board, chain: &Chain, jump: usize) -> Avoiding {
    let dice = board.rules().dice();
    let extra = board.rules().extra_turn();
    let bonus = Bonus::of(board);
    let p_on = bonus.p;
    let mut out = Avoiding {
        entries: Vec::new(),
        hit: vec![0.0; chain.len()],
    };
    for s in chain.states() {
        let path = turn_path(board, chain.square(s), &p_on, keep_float);
        // alive[i]: probability of reaching layer i without taking the jump.
        let mut alive = vec![1.0];
        let mut cycle_clean = true;
        for (i, layer) in path.layers.iter().enumerate() {
            let bonus = extra.map(|x| board.walk_roll(layer.square, layer.rolls_before, x.on()).0);
            let clean = !bonus.is_some_and(|b| b.takes(board, jump));
            if path.cycle.is_some_and(|c| i >= c) && !clean {
                cycle_clean = false;
            }
            let next = if clean { alive[i] * p_on } else { 0.0 };
            alive.push(next);
        }
        let mut ends: Vec<(usize, f64)> = Vec::new();
        for (i, layer) in path.layers.iter().enumerate() {
            let m0 = match path.cycle {
                Some(c) if cycle_clean && i >= c => bonus.cycle(path.layers.len() - c).1,
                _ => 1.0,
            };
            for outcome in dice.rolls() {
                let (walk, extra_roll) =
                    board.walk_roll(layer.square, layer.rolls_before, outcome.total);
                let mass = alive[i] * outcome.probability * m0;
                if mass == 0.0 {
                    continue;
                }
                if walk.takes(board, jump) {
                    out.hit[s.get()] += mass;
                } else if !extra_roll && walk.end != board.last() {
                    let e = chain
                        .state_of(walk.end)
                        .expect("a turn ends on a state of the chain");
                    ends.push((e.get(), mass));
                }
            }
        }
        merge_by(&mut ends, 0, |e| e.0, |a, b| a.1 += b.1);
        out.entries
            .extend(ends.into_iter().map(|(e, p)| (s.get(), e, p)));
    }
    out
}
