//! What the fuzz target checks on one input, shared with the regression test
//! `tests/robust_fuzz_regressions.rs` so that every input kept from a fuzzing
//! run is replayed through exactly the same checks by `cargo test`.
//!
//! Arbitrary bytes go through JSON parsing, validation and, for small valid
//! boards, the move function and the turn rule on every square and roll, and
//! the Markov compile and solve. Any
//! broken invariant panics, which is what the fuzzer reports.

use snakeladder::internals::BoardSpec;
use snakeladder::internals::Chain;
use snakeladder::internals::tolerance::ROW_SUM;
use snakeladder::{Blocked, Board, Chains, Square};

/// Boards with more squares than this skip the per-square move checks, so one
/// input stays well under a millisecond or so and the fuzzer keeps its pace.
pub const MAX_SQUARES_TO_WALK: u32 = 2_000;

/// Boards whose dice roll more totals than this skip the move checks too.
pub const MAX_TOTALS_TO_WALK: usize = 64;

/// Runs every check on one input.
pub fn check(data: &[u8]) {
    // 1. Parsing: any bytes either parse or give an error that displays.
    let direct = Board::from_json_slice(data);
    if let Err(e) = &direct {
        let _ = e.to_string();
        let _ = e.kind();
    }
    // A UTF-8 byte-order mark is read past, as by every reader of boards.
    let json = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let Ok(spec) = serde_json::from_slice::<BoardSpec>(json) else {
        assert!(
            direct.is_err(),
            "a board came from bytes that are not a spec"
        );
        return;
    };

    // 2. Validation: the constructor and `problems` agree, and validation is
    //    deterministic (a second run finds the same problems).
    let problems = Board::problems(&spec);
    let built = Board::from_spec(&spec);
    assert_eq!(problems.is_empty(), built.is_ok(), "problems vs from_spec");
    assert_eq!(
        problems,
        Board::problems(&spec),
        "validation is not deterministic"
    );
    assert_eq!(
        direct.is_ok(),
        built.is_ok(),
        "from_json_slice vs from_spec"
    );
    for p in &problems {
        let _ = p.to_string();
        let _ = p.kind();
    }
    let Ok(board) = built else { return };

    // 3. The board writes back to a spec that builds the same board, in memory
    //    and through JSON.
    let again = Board::from_spec(&board.spec()).expect("a board's own spec is valid");
    assert_eq!(again, board, "spec round trip");
    let json = serde_json::to_string(&board.spec()).expect("a spec serialises");
    assert_eq!(Board::from_json_str(&json).expect("its JSON loads"), board);

    if board.last().get() > MAX_SQUARES_TO_WALK
        || board.rules().dice().outcomes().len() > MAX_TOTALS_TO_WALK
    {
        return;
    }
    walk(&board);

    // 4. The Markov chain of a small board: every row a probability
    //    distribution, and the expected length finite and at least one turn.
    if board.last().get() <= MAX_SQUARES_TO_SOLVE {
        solve(&board);
    }
}

/// Boards with more squares than this skip the Markov compile and solve.
pub const MAX_SQUARES_TO_SOLVE: u32 = 300;

fn solve(board: &Board) {
    let chain = Chain::compile(board).expect("a valid board compiles");
    for state in chain.states() {
        let mut sum = 0.0;
        for t in chain.row(state) {
            // Entries are sums of the dice's f64 probabilities, so a certain
            // move may round to a hair above 1: allow the row-sum tolerance.
            assert!(
                (0.0..=1.0 + ROW_SUM).contains(&t.probability),
                "probability {} in the row of {}",
                t.probability,
                chain.square(state)
            );
            sum += t.probability;
        }
        assert!(
            (sum - 1.0).abs() <= ROW_SUM,
            "the row of {} sums to {sum}",
            chain.square(state)
        );
    }
    let mean = snakeladder::Analysis::mean_turns(board).expect("a valid board solves");
    assert!(mean.is_finite() && mean >= 1.0, "expected turns {mean}");
}

/// The move function and the turn rule on every square and every roll the dice
/// can make (plus 0 and one past the highest, which the dice cannot roll but
/// the function must still handle).
fn walk(board: &Board) {
    let last = board.last();
    let rules = board.rules();
    let mut rolls: Vec<u32> = rules.dice().outcomes().map(|(total, _)| total).collect();
    rolls.push(0);
    rolls.push(rules.dice().max_total() + 1);
    for s in 0..=last.get() {
        let from = Square::new(s);
        for &roll in &rolls {
            let mv = board.move_token(from, roll);
            assert_eq!(mv, board.move_token(from, roll), "move_token is not pure");
            assert_eq!((mv.start, mv.roll), (from, roll));
            assert!(
                mv.landing <= last && mv.end <= last,
                "{mv:?} leaves the board"
            );
            assert_eq!(mv.finished, mv.end == last, "{mv:?}");
            if mv.blocked.is_some() {
                assert_eq!((mv.landing, mv.end), (from, from), "{mv:?}");
                assert!(mv.jumps.is_empty(), "{mv:?}");
            }
            // The jumps taken start where the token landed and link up.
            let mut at = mv.landing;
            for jump in &mv.jumps {
                assert_eq!(jump.from(), at, "{mv:?}");
                at = jump.to();
            }
            assert_eq!(at, mv.end, "{mv:?}");
            if rules.chains() == Chains::Forbid {
                assert!(mv.jumps.len() <= 1, "{mv:?}");
            }
            // From a square a token can rest on, it ends on one, too.
            if board.is_rest_square(from) {
                assert!(board.is_rest_square(mv.end), "{mv:?}");
            }
            // Rolls the dice can make move forward except past N or by a snake.
            if from != last && mv.blocked.is_none() && roll > 0 && mv.jumps.is_empty() {
                assert!(
                    mv.landing > from || from.get() + roll > last.get(),
                    "{mv:?}"
                );
            }

            for rolls_before in 0..4 {
                let step = board.play_roll(from, rolls_before, roll);
                assert_eq!(step, board.play_roll(from, rolls_before, roll));
                assert!(step.end <= last, "{step:?}");
                assert_eq!(step.finished, step.end == last, "{step:?}");
                let bonus = rules.extra_turn().is_some_and(|x| x.on() == roll);
                if step.extra_roll {
                    assert!(bonus && !step.finished, "{step:?}");
                }
                if step.blocked == Some(Blocked::Forfeit) {
                    assert!(bonus && !step.extra_roll, "{step:?}");
                    assert_eq!(step.end, from, "{step:?}");
                } else {
                    // The same move but for the extra roll, which only
                    // `play_roll` grants.
                    let mut same = step.clone();
                    same.extra_roll = false;
                    assert_eq!(same, mv, "play_roll must move as move_token");
                }
            }
        }
    }
}
