//! One level of [`tune`](super::tune)'s search without holding every
//! candidate: on a board of 1,500 squares a level has hundreds of millions
//! of them (every placement of 400 jumps), far more than memory holds, yet
//! the search uses only a few: the one closest to the band, the answers in
//! the band best first, and the boards closest to the band for the next
//! level. Each jump's candidates are reduced to those as soon as they are
//! made ([`summarise`]): the closest, and the best [`KEPT`] by each order.
//!
//! Both orders end with where a candidate came from ([`Order`]: node of the
//! beam, jump, position among the jump's candidates), the order a stable
//! sort of all of them would leave equal keys in, so the kept ones are
//! exactly the first [`KEPT`] of that sort. When the search needs more than
//! were kept (every kept answer fails its fresh check, or too few kept
//! boards are new and valid), the level is run again keeping everything.

use super::super::Target;
use super::super::search::Candidate;
use std::cmp::Ordering;

/// Candidates kept by each order per level before the search must run the
/// level again keeping all; a multiple of the eight answers checked at a
/// time.
pub(super) const KEPT: usize = 1024;

/// Where a candidate came from: node of the beam, jump, position among the
/// jump's candidates.
pub(super) type Order = (usize, usize, usize);

/// A candidate with its key in one of the two orders.
type Keyed = ((f64, u64, u64), Order, Candidate);

/// What a level (or part of it) keeps of its candidates.
#[derive(Default)]
pub(super) struct Level {
    /// The candidate closest to the band, first in [`Order`] among equals:
    /// `(distance, order, mean)`.
    pub closest: Option<(f64, Order, f64)>,
    /// The answers (means in the band), best first: fewest squares moved,
    /// then nearest the middle of the band, then the seed's tie-break.
    inside: Vec<Keyed>,
    /// How many answers there were.
    pub inside_count: usize,
    /// The candidates nearest the band, nearest first, then fewest squares
    /// moved, then the seed's tie-break.
    near: Vec<Keyed>,
    /// How many candidates there were.
    pub near_count: usize,
}

impl Level {
    /// The kept answers, best first.
    pub fn inside(&self) -> impl Iterator<Item = (usize, Candidate)> + '_ {
        self.inside.iter().map(|k| (k.1.0, k.2))
    }

    /// How many answers were kept.
    pub fn inside_kept(&self) -> usize {
        self.inside.len()
    }

    /// The kept candidates nearest the band, nearest first.
    pub fn near(&self) -> impl Iterator<Item = (usize, Candidate)> + '_ {
        self.near.iter().map(|k| (k.1.0, k.2))
    }

    /// Whether every candidate was kept.
    pub fn complete(&self) -> bool {
        self.inside.len() == self.inside_count && self.near.len() == self.near_count
    }
}

fn by_key(x: &Keyed, y: &Keyed) -> Ordering {
    x.0.0
        .total_cmp(&y.0.0)
        .then(x.0.1.cmp(&y.0.1))
        .then(x.0.2.cmp(&y.0.2))
        .then(x.1.cmp(&y.1))
}

/// The first `keep` of `v` by key, sorted.
fn best(mut v: Vec<Keyed>, keep: usize) -> Vec<Keyed> {
    if v.len() > keep {
        v.select_nth_unstable_by(keep, by_key);
        v.truncate(keep);
    }
    v.sort_unstable_by(by_key);
    v
}

/// What the search keeps of the candidates `cands` of jump `jump` of beam
/// node `node`, keeping at most `keep` by each order; `total` is the
/// squares moved in all by the board a candidate makes.
pub(super) fn summarise(
    node: usize,
    jump: usize,
    cands: Vec<Candidate>,
    target: &Target,
    total: &(dyn Fn(usize, &Candidate) -> u64 + Sync),
    keep: usize,
) -> Level {
    let center = (target.min_turns + target.max_turns) / 2.0;
    let mut closest: Option<(f64, Order, f64)> = None;
    let mut inside = Vec::new();
    let mut near = Vec::with_capacity(cands.len().min(keep.saturating_mul(2)));
    let near_count = cands.len();
    for (k, c) in cands.into_iter().enumerate() {
        let order = (node, jump, k);
        let distance = target.distance(c.mean);
        if closest.is_none_or(|x| distance < x.0) {
            closest = Some((distance, order, c.mean));
        }
        let moved = total(node, &c);
        if distance == 0.0 {
            inside.push(((moved as f64, 0, c.tie), order, c));
        }
        near.push(((distance, moved, c.tie), order, c));
        if near.len() >= keep.saturating_mul(2) {
            near = best(near, keep);
        }
    }
    let inside_count = inside.len();
    let inside = best_answers(inside, center, keep);
    Level {
        closest,
        inside,
        inside_count,
        near: best(near, keep),
        near_count,
    }
}

/// Answers ordered by squares moved (held in the key's first place), then
/// distance from `center`, then the tie-break, then order; the first `keep`.
fn best_answers(mut v: Vec<Keyed>, center: f64, keep: usize) -> Vec<Keyed> {
    let cmp = |x: &Keyed, y: &Keyed| {
        x.0.0
            .total_cmp(&y.0.0)
            .then(
                (x.2.mean - center)
                    .abs()
                    .total_cmp(&(y.2.mean - center).abs()),
            )
            .then(x.0.2.cmp(&y.0.2))
            .then(x.1.cmp(&y.1))
    };
    if v.len() > keep {
        v.select_nth_unstable_by(keep, cmp);
        v.truncate(keep);
    }
    v.sort_unstable_by(cmp);
    v
}

/// The parts of a level put together, keeping at most `keep` by each order.
pub(super) fn merge(parts: Vec<Level>, target: &Target, keep: usize) -> Level {
    let center = (target.min_turns + target.max_turns) / 2.0;
    let mut out = Level::default();
    let (mut inside, mut near) = (Vec::new(), Vec::new());
    for p in parts {
        if let Some(c) = p.closest
            && out
                .closest
                .is_none_or(|x| c.0 < x.0 || (c.0 == x.0 && c.1 < x.1))
        {
            out.closest = Some(c);
        }
        out.inside_count += p.inside_count;
        out.near_count += p.near_count;
        inside.extend(p.inside);
        near.extend(p.near);
    }
    out.inside = best_answers(inside, center, keep);
    out.near = best(near, keep);
    out
}
