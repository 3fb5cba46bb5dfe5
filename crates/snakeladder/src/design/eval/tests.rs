use super::*;
use crate::design::moves_of;

/// Every admissible move of jump `a` of `board`, then its removal (`None`):
/// the variants the sensitivity evaluates.
fn variants(board: &Board, a: usize) -> Vec<Option<Jump>> {
    let mut afters: Vec<Option<Jump>> = moves_of(board, a)
        .into_iter()
        .filter(|&j| admissible(board, a, j))
        .map(Some)
        .collect();
    afters.push(None);
    afters
}

/// Every admissible change of every jump (or a stride through them), by the
/// update and by validating, compiling and solving the changed board.
#[track_caller]
fn case(json: &str, stride: usize) -> (usize, usize) {
    case_board(Board::from_json_str(json).unwrap(), stride)
}

/// [`case`] of a board.
#[track_caller]
fn case_board(board: Board, stride: usize) -> (usize, usize) {
    let base = Base::new(board.clone()).unwrap();
    assert!(base.updates(), "the update applies to this board");
    let spec = board.spec();
    let (mut updated, mut singular, mut resolved) = (0, 0, 0);
    for (a, &before) in board.jumps().iter().enumerate() {
        for (k, after) in variants(&board, a).into_iter().enumerate() {
            if k % stride != 0 && after.is_some() {
                continue;
            }
            let changed = apply(&spec, &[JumpChange { before, after }]);
            let fresh = Board::from_spec(&changed)
                .ok()
                .map(|b| solve_mean(&b).unwrap());
            match (base.mean_after(a, after), fresh) {
                (Update::Mean(fast), Some(slow)) => {
                    assert!(
                        ((fast - slow) / slow).abs() < tolerance::UPDATE_AGREEMENT,
                        "{before} → {after:?}: update {fast}, re-solved {slow}"
                    );
                    updated += 1;
                }
                (Update::Singular, None) => singular += 1,
                (Update::Resolve, _) => resolved += 1,
                (update, fresh) => {
                    panic!("{before} → {after:?}: update {update:?}, validation {fresh:?}")
                }
            }
        }
    }
    eprintln!("{updated} updated, {singular} singular, {resolved} re-solved");
    (updated, singular)
}

#[test]
fn updates_agree_with_fresh_solves_on_the_classic_board() {
    let (updated, _) = case(crate::model::read::DEFAULT_BOARD_JSON, 1);
    // 19 jumps, about 130 admissible moves each: all but a handful (ends
    // moved onto squares no token rested on) by the update.
    assert!(updated > 2_400, "{updated}");
}

/// Random boards on both sides of [`MAX_UPDATE_STATES`]: up to it the
/// inverse is held (built column by column from the sparse factorisation),
/// past it each moved start solves its column. Every update that answers
/// with a mean must agree with a fresh solve to
/// [`tolerance::UPDATE_AGREEMENT`]: its own error bound is at most half of
/// that ([`MAX_UPDATE_ERROR`]), and the fresh solve is accurate to far less.
#[test]
fn updates_agree_with_fresh_solves_on_random_boards_large_and_small() {
    use crate::Seed;
    use crate::design::Layout;
    for (squares, jumps, seed, stride) in [
        (200, 12, 3, 7),
        (600, 40, 5, 101),
        (2_000, 60, 1, 1_003),
        (3_000, 80, 2, 3_001),
    ] {
        let board = Layout::new(squares, jumps, jumps, Seed::new(seed))
            .generate()
            .unwrap();
        let base = Base::new(board.clone()).unwrap();
        // States: the squares less the jumps' starts, here on both sides
        // of the limit.
        assert_eq!(base.update.as_ref().unwrap().full(), squares < 1_000);
        let (updated, _) = case_board(board, stride);
        assert!(updated > 2 * jumps as usize, "{squares}: {updated}");
    }
}

/// A variant whose update cancels badly is handed back to a fresh solve:
/// the bound of an update on a chain whose inputs are made much less
/// accurate than they are exceeds [`MAX_UPDATE_ERROR`].
#[test]
fn an_update_with_a_large_error_bound_is_resolved() {
    let board = Board::builtin_default();
    let mut base = Base::new(board.clone()).unwrap();
    let a = 0;
    let after = moves_of(&board, a)
        .into_iter()
        .find(|&j| admissible(&board, a, j) && j.from() == board.jumps()[a].from())
        .unwrap();
    assert!(matches!(base.mean_after(a, Some(after)), Update::Mean(_)));
    // Every input made uncertain to 1e-6 of itself.
    let d = base.update.as_mut().unwrap();
    let worse = bound::InputError {
        residual: f64::INFINITY,
        relative: 1e-6,
    };
    d.t_error = worse;
    d.z_error.iter_mut().for_each(|e| *e = worse);
    if let Inverse::Full(_, errors) = &mut d.inverse {
        errors.iter_mut().for_each(|e| *e = worse);
    }
    assert_eq!(base.mean_after(a, Some(after)), Update::Resolve);
    assert_eq!(base.mean_after(a, None), Update::Resolve);
}

#[test]
fn updates_agree_under_other_rules() {
    for json in [
        // Bounce back from an overshoot; a snake near the end.
        r#"{"squares": 30, "ladders": [[3, 12], [8, 25]], "snakes": [[29, 2], [20, 9], [27, 14]],
            "rules": {"overshoot": "bounce"}}"#,
        // Start on square 1, enter on the highest total, two dice.
        r#"{"squares": 40, "ladders": [[4, 20], [22, 35]], "snakes": [[38, 5], [30, 11]],
            "rules": {"start": 1, "entry": "six", "overshoot": "win",
                      "dice": {"count": 2, "faces": 4}}}"#,
        // A loaded die and overshoot wins; a ladder to the finish.
        r#"{"squares": 25, "ladders": [[2, 25], [7, 16]], "snakes": [[24, 3], [18, 10]],
            "rules": {"overshoot": "win", "dice": {"weights": [1, 2, 3, 1, 1, 4]}}}"#,
    ] {
        let (updated, _) = case(json, 1);
        assert!(updated > 100, "{updated}");
    }
}

#[test]
fn the_first_seat_advantage_is_the_difference_of_the_seat_sums() {
    for json in [
        crate::model::read::DEFAULT_BOARD_JSON,
        r#"{"squares": 30, "ladders": [[3, 12]], "snakes": [[29, 2]], "rules": {"overshoot": "bounce"}}"#,
        r#"{"squares": 50, "snakes": [[45, 5]], "rules": {"extra_turn": {"on": 6}}}"#,
    ] {
        let board = Board::from_json_str(json).unwrap();
        let a = crate::markov::analysis::Analysis::new(&board, &Default::default()).unwrap();
        let two = &a.players[0].win_probability;
        let advantage = first_seat_advantage(&board).unwrap().unwrap();
        assert!(
            (advantage - (two[0] - two[1])).abs() < 1e-12,
            "{advantage} vs {two:?}"
        );
    }
    // The published 50.7803% for the first seat of the classic board.
    let advantage = first_seat_advantage(&Board::builtin_default())
        .unwrap()
        .unwrap();
    assert!((advantage - (2.0 * 0.507803 - 1.0)).abs() < 2e-6);
}

#[test]
fn changes_apply_to_the_spec_and_read_well() {
    let board = Board::builtin_default();
    let snake = board.jump_from(Square::new(48)).unwrap();
    let change = JumpChange {
        before: snake,
        after: Some(Jump::new(Square::new(47), Square::new(26))),
    };
    assert_eq!(change.to_string(), "snake 48→26 → 47→26");
    assert_eq!(change.displacement(), 1);
    let spec = apply(&board.spec(), &[change]);
    assert!(spec.snakes.contains(&[47, 26]) && !spec.snakes.contains(&[48, 26]));
    let removed = JumpChange {
        before: snake,
        after: None,
    };
    assert_eq!(removed.to_string(), "snake 48→26 removed");
    assert_eq!(apply(&board.spec(), &[removed]).snakes.len(), 9);
}

/// Boards whose chains are ill-conditioned: a snake family (means 2.8e4 to
/// 1.7e19 turns), dice that roll some faces once in a million or in 1e200,
/// and a generated board played with a sticky die; each with the stride of
/// the variants checked against exact mode (a certified fraction costs up
/// to a second on the board of 1e-200 faces).
fn ill_conditioned_boards() -> Vec<(Board, usize)> {
    let snake_family = |k: u32| {
        let n = 6 * k + 4;
        let snakes: Vec<String> = (2..n)
            .filter(|s| (s - 1) % 6 != 0)
            .map(|s| format!("[{s}, 1]"))
            .collect();
        format!(r#"{{"squares": {n}, "snakes": [{}]}}"#, snakes.join(", "))
    };
    let mut jsons: Vec<(String, usize)> = [5, 16, 24]
        .into_iter()
        .map(|k| (snake_family(k), 1))
        .collect();
    jsons.extend(
        [
            // The board of tests/design/unwinnable-variant.json: 1e12 turns.
            (
                r#"{"squares": 12, "snakes": [[5, 3], [6, 3], [8, 2]],
                    "rules": {"dice": {"weights": [1, 1e-6, 1e-6]}}}"#,
                1,
            ),
            (
                r#"{"squares": 20, "snakes": [[9, 2], [14, 6], [19, 1]], "ladders": [[3, 11]],
                    "rules": {"dice": {"weights": [1, 1e-4, 1e-4, 1e-4]}}}"#,
                1,
            ),
            (
                r#"{"squares": 41, "snakes": [[30, 4]], "ladders": [[6, 20]],
                    "rules": {"dice": {"weights": [1e-200, 0, 1]}, "overshoot": "bounce"}}"#,
                25,
            ),
        ]
        .map(|(j, stride)| (j.to_string(), stride)),
    );
    let mut boards: Vec<(Board, usize)> = jsons
        .iter()
        .map(|(j, stride)| (Board::from_json_str(j).unwrap(), *stride))
        .collect();
    let generated = crate::design::Layout::new(60, 6, 6, crate::Seed::new(4))
        .generate()
        .unwrap();
    let mut spec = generated.spec();
    let mut rules = spec.rules.unwrap_or_default();
    rules.dice = Some(serde_json::from_str(r#"{"weights": [1000, 1, 1, 1, 1, 1]}"#).unwrap());
    spec.rules = Some(rules);
    boards.push((Board::from_spec(&spec).unwrap(), 5));
    boards
}

/// Every update answered with a mean is of a board that can be won, and
/// within its own error bound of the exact mean of the changed board
/// (exact mode's certified fraction), on ill-conditioned boards: the bound
/// of the update's inputs (docs/sparse-solver.md §9) is rigorous, not a
/// model. Before it, on the snake family at k = 24 (games of 1.7e19 turns)
/// moving the snake 2→1 to start on 31 closes the last way out, and the
/// update answered a mean of 1,024 turns: its denominator's bound was
/// infinite, and an infinite error times an exact 0 made a NaN bound,
/// which passed the check.
///
/// The comparison adds the kernel's own rounding, which the update's bound
/// leaves to the board's accuracy check: both the base chain the update
/// reads and the changed board's chain have every entry within `ε`
/// (`entry_rounding`) of the dice's exact chances, so the mean the update
/// targets is within a factor `exp(±(2n − 1)·2ε)` of the exact one
/// (docs/figures.md §2c), and `to_f64` of the fraction rounds once more.
#[test]
fn every_update_is_within_its_bound_of_the_exact_mean() {
    use num_traits::ToPrimitive;
    let mut checked = 0;
    let mut worst = 0.0_f64;
    for (board, stride) in ill_conditioned_boards() {
        let base = Base::new(board.clone()).unwrap();
        if !base.updates() {
            continue;
        }
        let spec = board.spec();
        let mut answered = 0;
        for (a, &before) in board.jumps().iter().enumerate() {
            for after in variants(&board, a) {
                let Update::Mean(_) = base.mean_after(a, after) else {
                    continue;
                };
                let mean = base
                    .bounded_after(a, after, &mut Default::default())
                    .unwrap();
                let Ok(changed) = Board::from_spec(&apply(&spec, &[JumpChange { before, after }]))
                else {
                    panic!(
                        "{before} → {after:?}: an update of {} ± {:e} for a board that cannot be won",
                        mean.v, mean.e
                    );
                };
                answered += 1;
                if answered % stride != 0 {
                    continue;
                }
                let chain = Chain::compile(&changed).unwrap();
                let exact =
                    crate::markov::modular::solve_within(&changed, &chain, false, 1e12, u64::MAX)
                        .unwrap()
                        .mean()
                        .to_f64()
                        .unwrap();
                let eps = chain.entry_rounding() + chain.dropped();
                let kernel = ((2.0 * chain.len() as f64 - 1.0) * 2.0 * eps).exp_m1();
                let allowed = mean.e + (kernel + f64::EPSILON) * exact;
                let error = (mean.v - exact).abs();
                worst = worst.max(error / allowed);
                assert!(
                    error <= allowed,
                    "{before} → {after:?}: update {} ± {:e}, exact {exact}",
                    mean.v,
                    mean.e
                );
                checked += 1;
            }
        }
    }
    eprintln!("{checked} updates checked; the largest error is {worst:.3} of its bound");
    assert!(checked > 500, "{checked}");
}

impl Base {
    /// The first seat's advantage with two players ([`first_seat_advantage`])
    /// after jump `a` becomes each of `afters`, from the chain of the board
    /// before with the change patched in, rather than a validation and a
    /// compile per variant; `None` when some change is not one
    /// [`Base::mean_after`] answers with a mean (the caller then analyses
    /// that variant afresh).
    ///
    /// # Formula
    /// The changed chain is the one the update of [`Base::mean_after`]
    /// describes (module docs): from each state the chance `u(s)` of taking
    /// jump `a` leaves column e for e′ (an end moved) or for the old start f,
    /// a new state with the row of f on the board before (start moved or
    /// jump removed), and every landing on a moved start f′ goes on to e′.
    /// `Σ_t P(T = t)²` is then summed along the forward recursion exactly as
    /// [`first_seat_advantage`] does, to the same tail, many variants at a
    /// time ([`Base::advantages_of`]). The tests compare every variant with a
    /// fresh analysis.
    ///
    /// # Panics
    /// If `a` is not the position of a jump of the board.
    pub(crate) fn advantages_after(&self, a: usize, afters: &[Option<Jump>]) -> Option<Vec<f64>> {
        let changes: Vec<(usize, Option<Jump>)> = afters.iter().map(|&j| (a, j)).collect();
        self.advantages_of(&changes, &|_| (), &|| false)
            .into_iter()
            .map(Option::flatten)
            .collect()
    }
}

/// An evaluator that solves columns on demand gives every update of one
/// that holds the inverse to the last bit, so `generate --target-turns`
/// (which never holds it) finds the same boards as when it did.
#[test]
fn columns_on_demand_update_to_the_same_bits() {
    let board = crate::design::Layout::new(120, 6, 6, crate::Seed::new(5))
        .generate()
        .unwrap();
    let held = Base::new(board.clone()).unwrap();
    let solved = Base::on_demand(board.clone()).unwrap();
    assert!(held.column_work() == 0.0 && solved.column_work() > 0.0);
    let mut kept = ColumnKept::default();
    let mut compared = 0;
    for a in 0..board.jumps().len() {
        for after in variants(&board, a) {
            let x = held.mean_after(a, after);
            let y = solved.mean_after_kept(a, after, &mut kept);
            match (x, y) {
                (Update::Mean(x), Update::Mean(y)) => assert_eq!(x.to_bits(), y.to_bits()),
                (x, y) => assert_eq!(x, y),
            }
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}
