//! The sparse solver against a dense LU on random chains shaped like boards.

use super::*;
use nalgebra::DMatrix;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Sparse and dense results must agree to this, relative to each entry. The
/// chains below have expected lengths up to about 10⁴ steps (a condition
/// number of about 10⁵–10⁶), so each solver's own error is near 1e-11; 1e-9
/// leaves room for both without hiding a wrong formula, which is off by
/// whole percents.
const AGREEMENT: f64 = 1e-9;

/// A random substochastic matrix shaped like a board's turn kernel: from
/// state i, `width` forward moves, sometimes a snake back to an earlier
/// state or a ladder far forward, a self-loop (an overshoot that stays) on
/// the last `width` states, and mass past the end absorbed.
pub(crate) fn chain_like(n: usize, width: usize, jumps: f64, seed: u64) -> Csr {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut entries = Vec::new();
    for i in 0..n {
        let mut row: Vec<(usize, f64)> = Vec::new();
        let mut absorbed = 0.0;
        for r in 1..=width {
            let p: f64 = rng.random_range(0.5..1.5);
            let target = i + r;
            if target > n {
                row.push((i, p)); // overshoot: stay
            } else if target == n {
                absorbed += p;
            } else if rng.random_bool(jumps) {
                let to = rng.random_range(0..n);
                if to == n - 1 {
                    absorbed += p;
                } else {
                    row.push((to, p));
                }
            } else {
                row.push((target, p));
            }
        }
        let total: f64 = row.iter().map(|e| e.1).sum::<f64>() + absorbed;
        entries.extend(row.into_iter().map(|(j, p)| (i, j, p / total)));
    }
    Csr::from_triplets(n, &entries).unwrap()
}

/// A race track: from each of `n` states a step of a die's faces, with
/// `jumps` redirections backward and as many forward spread by a fixed
/// linear congruential sequence, and an end that stays, bounces or
/// absorbs on an overshoot. Plain rows (every face lands on a plain state)
/// are alike, which the solver's stretches exploit.
#[derive(Clone, Debug)]
pub(crate) struct Track {
    faces: Vec<f64>,
    end: End,
    extra_on_top: bool,
}

#[derive(Clone, Copy, Debug)]
enum End {
    Stay,
    Bounce,
    Absorb,
}

impl Track {
    pub(crate) fn die(faces: usize) -> Track {
        Track::weighted(&vec![1.0; faces])
    }

    pub(crate) fn weighted(weights: &[f64]) -> Track {
        let total: f64 = weights.iter().sum();
        Track {
            faces: weights.iter().map(|w| w / total).collect(),
            end: End::Stay,
            extra_on_top: false,
        }
    }

    /// The sum of two six-sided dice (a step of 2 to 12).
    pub(crate) fn two_dice() -> Track {
        let mut faces = vec![0.0; 12];
        for a in 1..=6 {
            for b in 1..=6 {
                faces[a + b - 1] += 1.0 / 36.0;
            }
        }
        Track {
            faces,
            end: End::Stay,
            extra_on_top: false,
        }
    }

    pub(crate) fn absorbing_overshoot(mut self) -> Track {
        self.end = End::Absorb;
        self
    }

    pub(crate) fn bouncing(mut self) -> Track {
        self.end = End::Bounce;
        self
    }

    /// The top face steps again once (a second roll on the highest face).
    pub(crate) fn extra_on_top(mut self) -> Track {
        self.extra_on_top = true;
        self
    }

    /// The steps of one move as (distance, probability).
    fn steps(&self) -> Vec<(usize, f64)> {
        let top = self.faces.len();
        let mut steps = Vec::new();
        for (f, &p) in self.faces.iter().enumerate() {
            if self.extra_on_top && f + 1 == top {
                steps.extend(
                    self.faces
                        .iter()
                        .enumerate()
                        .map(|(g, &q)| (top + g + 1, p * q)),
                );
            } else {
                steps.push((f + 1, p));
            }
        }
        steps
    }

    pub(crate) fn csr(&self, n: usize, jumps: usize, seed: u64) -> Csr {
        let mut state = seed;
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % below as u64) as usize
        };
        // Where landing on each state leads.
        let mut lead: Vec<usize> = (0..n).collect();
        let mut used = std::collections::BTreeSet::new();
        let mut made = 0;
        while made < 2 * jumps {
            let (a, b) = (1 + next(n - 20), 1 + next(n - 20));
            if a == b || used.contains(&a) || used.contains(&b) {
                continue;
            }
            let (low, high) = (a.min(b), a.max(b));
            if made < jumps {
                lead[high] = low;
            } else {
                lead[low] = high;
            }
            used.insert(a);
            used.insert(b);
            made += 1;
        }
        let steps = self.steps();
        let mut entries = Vec::new();
        for (i, &led) in lead.iter().enumerate() {
            if led != i {
                continue; // a redirected state is never occupied
            }
            for &(d, p) in &steps {
                let to = i + d;
                let land = match (to.cmp(&n), self.end) {
                    (std::cmp::Ordering::Less, _) => Some(lead[to]),
                    (std::cmp::Ordering::Equal, _) | (_, End::Absorb) => None,
                    (_, End::Stay) => Some(i),
                    (_, End::Bounce) => Some(lead[(2 * n).saturating_sub(to).max(1) - 1]),
                };
                if let Some(j) = land {
                    entries.push((i, j, p));
                }
            }
        }
        Csr::from_triplets(n, &entries).unwrap()
    }
}

fn dense_inverse(q: &Csr) -> DMatrix<f64> {
    let n = q.n();
    let mut a = DMatrix::identity(n, n);
    for i in 0..n {
        for (j, v) in q.row(i) {
            a[(i, j)] -= v;
        }
    }
    a.lu().try_inverse().expect("the test chains are absorbing")
}

#[track_caller]
fn assert_close(sparse: &[f64], dense: &[f64], what: &str) {
    for (i, (s, d)) in sparse.iter().zip(dense).enumerate() {
        assert!(
            (s - d).abs() <= AGREEMENT * d.abs().max(1e-300),
            "{what}[{i}]: sparse {s} vs dense {d}"
        );
    }
}

#[test]
fn agrees_with_dense_lu_on_random_chains() {
    for (seed, (n, width, jumps)) in [
        (40, 6, 0.05),
        (300, 6, 0.03),
        (500, 11, 0.02),
        (700, 3, 0.01),
        (200, 36, 0.05),
        (1, 6, 0.0),
        (2, 1, 0.0),
    ]
    .into_iter()
    .enumerate()
    {
        let q = chain_like(n, width, jumps, seed as u64);
        let inv = dense_inverse(&q);
        let solver = SweepSolver::new(&q).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(100 + seed as u64);
        let b: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..2.0)).collect();
        let bv = nalgebra::DVector::from_column_slice(&b);
        let dense_x = &inv * &bv;
        let dense_y = inv.transpose() * &bv;
        assert_close(&solver.solve(&b), dense_x.as_slice(), "solve");
        assert_close(
            &solver.solve_transpose(&b),
            dense_y.as_slice(),
            "solve_transpose",
        );
        let diag: Vec<f64> = (0..n).map(|i| inv[(i, i)]).collect();
        assert_close(&solver.inverse_diagonal(), &diag, "inverse_diagonal");
    }
}

#[test]
fn hand_derived_two_state_chain() {
    // From 0: 1/3 stay, 1/3 to 1, 1/3 finish. From 1: 1/2 back to 0, 1/2 finish.
    // t0 = 1 + t0/3 + t1/3, t1 = 1 + t0/2  ⇒  (2/3)t0 = 1 + (1 + t0/2)/3
    // ⇒ (2/3 − 1/6) t0 = 4/3 ⇒ t0 = 8/3, t1 = 7/3.
    let q = Csr::from_triplets(2, &[(0, 0, 1.0 / 3.0), (0, 1, 1.0 / 3.0), (1, 0, 0.5)]).unwrap();
    let solver = SweepSolver::new(&q).unwrap();
    assert_eq!(solver.back_targets(), 1);
    let t = solver.solve(&[1.0, 1.0]);
    assert!((t[0] - 8.0 / 3.0).abs() < 1e-14 && (t[1] - 7.0 / 3.0).abs() < 1e-14);
    // N = (I − Q)⁻¹ with I − Q = [[2/3, −1/3], [−1/2, 1]], det = 2/3 − 1/6 = 1/2:
    // N = 2·[[1, 1/3], [1/2, 2/3]] = [[2, 2/3], [1, 4/3]].
    let d = solver.inverse_diagonal();
    assert!((d[0] - 2.0).abs() < 1e-14 && (d[1] - 4.0 / 3.0).abs() < 1e-14);
    let y = solver.solve_transpose(&[1.0, 0.0]);
    assert!((y[0] - 2.0).abs() < 1e-14 && (y[1] - 2.0 / 3.0).abs() < 1e-14);
}

#[test]
fn singular_chains_name_their_trapped_states() {
    // 0 → 1 or finish; 1 ↔ 2 forever.
    let q = Csr::from_triplets(3, &[(0, 1, 0.5), (1, 2, 1.0), (2, 1, 1.0)]).unwrap();
    assert_eq!(
        SweepSolver::new(&q).unwrap_err(),
        SparseError::Singular {
            trapped: vec![1, 2]
        }
    );
    // A state that stays on itself for ever.
    let q = Csr::from_triplets(2, &[(0, 1, 0.5), (1, 1, 1.0)]).unwrap();
    assert_eq!(
        SweepSolver::new(&q).unwrap_err(),
        SparseError::Singular { trapped: vec![1] }
    );
}

#[test]
fn plan_counts_back_targets_and_grows_with_them() {
    let few = chain_like(2000, 6, 0.002, 1);
    let many = chain_like(2000, 6, 0.05, 1);
    let (pf, pm) = (SweepSolver::plan(&few), SweepSolver::plan(&many));
    assert_eq!(
        pf.back_targets,
        SweepSolver::new(&few).unwrap().back_targets()
    );
    assert!(pm.back_targets > pf.back_targets);
    assert!(pm.factor_bytes > pf.factor_bytes && pm.factor_work > pf.factor_work);
    assert_eq!(pf.diagonal_bytes, 3 * 2000 * pf.back_targets as u64 * 8);
}
