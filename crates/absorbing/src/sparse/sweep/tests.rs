use super::*;
use crate::sparse::tests::{Track, chain_like};

/// The two ways of building `Q_JF · W` are the same sums in another
/// order, so they agree to rounding (1e-12 relative to the largest
/// entry, far below any mistake in which entries are summed).
#[test]
fn blocked_and_column_sweeps_agree() {
    for (seed, (n, width, jumps)) in [(40, 6, 0.05), (300, 6, 0.03), (200, 36, 0.05), (90, 2, 0.2)]
        .into_iter()
        .enumerate()
    {
        let q = chain_like(n, width, jumps, seed as u64);
        let solver = SweepSolver::new(&q).unwrap().with_columns();
        assert!(solver.back_targets() > 0, "seed {seed} has no back edges");
        let blocked = solver.q_jf_w_blocked();
        let by_column = solver.q_jf_w_by_column();
        let scale = by_column.amax();
        assert!(scale > 0.0);
        assert!(
            (blocked - &by_column).amax() <= 1e-12 * scale,
            "seed {seed}"
        );
    }
}

/// The long tracks' chains: one die, two dice whose overshoot absorbs, a
/// die with an extra step on a six, a bouncing end, and a loaded die.
fn long_boards() -> Vec<(&'static str, Csr)> {
    [
        ("one die", 6000, 20, Track::die(6)),
        (
            "2d6, overshoot absorbs",
            6000,
            20,
            Track::two_dice().absorbing_overshoot(),
        ),
        (
            "extra step on a six",
            4000,
            10,
            Track::die(6).extra_on_top(),
        ),
        ("bounce", 5000, 15, Track::die(6).bouncing()),
        ("loaded die", 4000, 10, Track::weighted(&[1.0, 2.0, 3.0])),
    ]
    .into_iter()
    .enumerate()
    .map(|(seed, (name, n, jumps, track))| (name, track.csr(n, jumps, seed as u64 + 1)))
    .collect()
}

/// Skipping stretches computes the same Schur complement as sweeping
/// every row: each entry is a sum of non-negative terms either way, so
/// they agree to rounding, 1e-12 relative to each entry (a stretch's
/// matrix carries about `2·log₂(L)·w` roundings where the row-by-row
/// sweep carries about `L·(entries + 1)`, both far below 1e-12 on
/// these boards; a wrong or missing term is off by whole percents).
/// Each board must skip most of its rows, so the test cannot pass by
/// sweeping every row both times.
#[test]
fn stretches_give_the_schur_complement_of_plain_sweeps() {
    for (name, q) in long_boards() {
        let solver = SweepSolver::new(&q).unwrap().with_columns();
        let layout = solver.layout();
        assert!(
            layout.skipped() * 2 > q.n(),
            "{name}: skips only {} of {} rows",
            layout.skipped(),
            q.n()
        );
        let plain = solver.q_jf_w_by_column();
        let skipping = solver.q_jf_w_by_site(&solver.site_sweep(&layout));
        assert!(plain.amax() > 0.0, "{name}");
        let mut worst: f64 = 0.0;
        for (p, s) in plain.iter().zip(skipping.iter()) {
            assert!((p - s).abs() <= 1e-12 * p.abs(), "{name}: {p:e} vs {s:e}");
            if *p > 0.0 {
                worst = worst.max((p - s).abs() / p);
            }
        }
        eprintln!(
            "{name}: window {}, {} stretches, worst relative gap {worst:e}",
            layout.window,
            layout.stretches.len()
        );
    }
}

/// The solver (with stretches) solves `(I − Q)·t = 1` on every board:
/// `t_i − Σ_j Q_ij t_j` is 1 to 1e-10 relative to `t_i` (the rounding
/// of the difference of two numbers of the size of `t` is about
/// 1e-16·t; a wrong Schur complement leaves residuals of order 1).
#[test]
fn stretched_solves_leave_no_residual() {
    for (name, q) in long_boards() {
        let solver = SweepSolver::new(&q).unwrap();
        assert!(
            skips_enough(q.n(), &solver.layout()),
            "{name}: no stretches"
        );
        let t = solver.expected_steps();
        let qt = q.mul_vec(t);
        for (i, (ti, qti)) in t.iter().zip(&qt).enumerate() {
            assert!(
                (ti - qti - 1.0).abs() <= 1e-10 * ti,
                "{name}, state {i}: t = {ti}, Qt = {qti}"
            );
        }
    }
}

/// The sweeps over sites run in parallel on a board this size, and
/// give the same digits on one thread: each column is the same sums
/// whichever thread sweeps it and whatever columns go with it.
#[cfg(feature = "parallel")]
#[test]
fn stretched_sweeps_have_the_same_digits_on_one_thread() {
    let q = Track::die(6).csr(30_000, 60, 9);
    let solver = SweepSolver::new(&q).unwrap();
    let sweep = solver.site_sweep(&solver.layout());
    assert!(
        solver.back_targets() * sweep.stretches.sites() >= PARALLEL_SCHUR_WORK,
        "the sweeps run in parallel"
    );
    let two = solver.q_jf_w_by_site(&sweep);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| solver.q_jf_w_by_site(&sweep));
    assert_eq!(one, two);
}

/// Where no row is plain (random probabilities on every row), there are
/// no stretches and the sweep is the plain one.
#[test]
fn random_rows_have_no_stretches() {
    let q = chain_like(3000, 6, 0.01, 4);
    let solver = SweepSolver::new(&q).unwrap();
    assert_eq!(solver.layout().skipped(), 0);
}

/// The plan finds the factorisation's stretches: its sweep work is far
/// below that of sweeping every row.
#[test]
fn plan_counts_the_stretched_sweeps() {
    let (_, q) = long_boards().swap_remove(0);
    let plan = SweepSolver::plan(&q);
    let k = plan.back_targets as f64;
    let rows_only = plan.factor_work - 6.0 * k * k - k * k * k / 3.0;
    let every_row = (q.nnz() + q.n()) as f64 * k;
    assert!(
        rows_only > 0.0 && rows_only < every_row / 2.0,
        "{rows_only:e} vs {every_row:e}"
    );
}

/// Several right-hand sides swept together give each the digits of
/// its own solve (the figures must not depend on which jumps are
/// solved together), across more than one group of lanes.
#[test]
fn many_solves_have_the_digits_of_one() {
    let q = chain_like(150, 6, 0.05, 5);
    let solver = SweepSolver::new(&q).unwrap();
    assert!(!solver.w.is_empty() && solver.back_targets() > 0);
    let bs: Vec<Vec<f64>> = (0..SOLVE_LANES + 3)
        .map(|r| (0..150).map(|i| ((i * 31 + r * 17) % 11) as f64).collect())
        .collect();
    let refs: Vec<&[f64]> = bs.iter().map(Vec::as_slice).collect();
    let many = solver.solve_many(&refs);
    assert_eq!(many.len(), bs.len());
    for (b, x) in bs.iter().zip(&many) {
        assert_eq!(x, &solver.solve(b));
    }
    // Read at a few states, from a right-hand side that is zero above the
    // middle (the first sweep starts there): the same digits again.
    let at = [0, 40, 75, 149, solver.j[0] as usize];
    let mut b = bs[0].clone();
    b[75..].fill(0.0);
    let x = solver.solve(&b);
    let read: Vec<f64> = at.iter().map(|&i| x[i]).collect();
    assert_eq!(solver.solve_at(&b, &at), read);
}

#[test]
fn expected_steps_are_the_solve_of_ones() {
    let q = chain_like(120, 6, 0.05, 3);
    let solver = SweepSolver::new(&q).unwrap();
    assert_eq!(solver.expected_steps(), solver.solve(&vec![1.0; 120]));
}
