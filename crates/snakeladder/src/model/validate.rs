//! The checks that turn a [`BoardSpec`] into a [`Board`]: every field, every
//! jump, the jumps against each other, the rules, and last whether the
//! finish can be reached from every square a token can reach.
//!
//! Validation is a product, not a short circuit: [`Board::from_spec`]
//! collects every problem of a file before it refuses it.

use crate::JumpKind;
use crate::model::board::{Board, BoardSpec, default_width};
use crate::model::error::BoardError;
use crate::model::limits::{MAX_MOVES_TO_CHECK, MAX_SQUARES};
use crate::model::problem::{HiddenCharacters, JumpRef, Problem};
use crate::model::rules::{Chains, Rules};
use crate::{Jump, Square};
use std::collections::HashMap;

impl Board {
    /// The largest board accepted: squares 1..=10,000,000.
    pub const MAX_SQUARES: u32 = MAX_SQUARES;

    /// Most moves (squares × dice totals) the reachability check of
    /// validation enumerates ([`Problem::TooManyMoves`](crate::Problem)).
    pub const MAX_MOVES_TO_CHECK: u64 = MAX_MOVES_TO_CHECK;

    /// Most players of one game, for every figure and game: seat odds,
    /// simulations and real games alike.
    pub const MAX_PLAYERS: usize = crate::model::limits::MAX_PLAYERS;

    /// Validates a spec into a board.
    ///
    /// # Errors
    /// [`BoardError::Invalid`] listing every problem found (see [`Problem`]).
    #[doc(hidden)]
    pub fn from_spec(spec: &BoardSpec) -> Result<Board, BoardError> {
        Self::validate_spec(spec).map_err(|problems| BoardError::Invalid {
            path: None,
            problems,
        })
    }

    /// Every problem of a spec; empty when it makes a valid board.
    #[doc(hidden)]
    pub fn problems(spec: &BoardSpec) -> Vec<Problem> {
        Self::validate_spec(spec).err().unwrap_or_default()
    }

    pub(crate) fn validate_spec(spec: &BoardSpec) -> Result<Board, Vec<Problem>> {
        let mut problems = Vec::new();
        if let Some(hidden) = spec.name.as_deref().and_then(HiddenCharacters::of) {
            problems.push(Problem::NameCharacter {
                field: "name".to_string(),
                code_point: hidden.first(),
                hidden,
            });
        }
        let last = match u32::try_from(spec.squares) {
            Ok(n) if (2..=MAX_SQUARES).contains(&n) => Some(n),
            _ => {
                problems.push(Problem::SquaresOutOfRange {
                    squares: spec.squares,
                });
                None
            }
        };
        let rules_spec = spec.rules.clone().unwrap_or_default();
        let rules = Rules::from_spec(&rules_spec, &mut problems);
        if let Some(limits) = &spec.limits {
            problems.extend(limits.out_of_range());
        }
        // Every check that can run does, whatever else is wrong: the start
        // square and the chain rule come straight from the spec, so an
        // invalid die or extra-roll rule does not hide a jump's problems, and
        // an out-of-range `squares` skips only the checks that need N.
        let start = rules_spec.start_square().map(Square::get);
        let chains = rules_spec.chains.unwrap_or_default();
        let width = match (spec.width, last) {
            (None, Some(last)) => default_width(last),
            (None, None) => 1,
            (Some(w), Some(last)) if (1..=i64::from(last)).contains(&w) => w as u32,
            (Some(w), None) if w >= 1 => 1,
            (Some(w), _) => {
                problems.push(Problem::WidthOutOfRange { width: w });
                1
            }
        };
        // Each jump starts on its own square of 1..N-1, so more jumps than
        // that cannot all be placed; refuse them at once rather than name
        // millions of duplicates one by one.
        // With N out of range, the largest board's room is the bound.
        let room = last.unwrap_or(MAX_SQUARES);
        let jumps = spec.ladders.len() as u64 + spec.snakes.len() as u64;
        if jumps > u64::from(room - 1) {
            problems.push(Problem::TooManyJumps {
                jumps,
                squares: room,
            });
            return Err(problems);
        }

        let placed = each_jump(spec, start, last, &mut problems);
        between_jumps(&placed, chains, &mut problems);
        let (Some(rules), Some(last)) = (rules, last) else {
            return Err(problems);
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        // No problem: every jump is placed, both its ends squares.
        let jumps: Vec<Jump> = placed
            .into_iter()
            .filter_map(|p| p.to.map(|to| Jump::new(p.from, to)))
            .collect();
        let board = Board::assemble(spec.name.clone(), Square::new(last), width, jumps, rules);
        match trapped_squares(&board) {
            Ok(trapped) if trapped.is_empty() => Ok(board),
            Ok(trapped) => Err(vec![Problem::Unwinnable { squares: trapped }]),
            Err(problem) => Err(vec![problem]),
        }
    }
}

/// A jump whose start is a square of the board, for the checks between
/// jumps: every such jump takes its start square (duplicate starts, the
/// end of a chain); one whose end is a square too, other than its start,
/// also leads somewhere (the start of a chain, a cycle).
#[derive(Clone, Copy, Debug)]
struct Placed {
    jump: JumpRef,
    from: Square,
    to: Option<Square>,
}

/// The problems of each jump of `spec` on its own (its squares against the
/// start `start` and the last square `last`, where known, and its
/// direction), pushed onto `problems`; returns the jumps placed on plain
/// squares, to be checked against each other.
fn each_jump(
    spec: &BoardSpec,
    start: Option<u32>,
    last: Option<u32>,
    problems: &mut Vec<Problem>,
) -> Vec<Placed> {
    // Each jump on its own.
    let mut placed: Vec<Placed> = Vec::new();
    let written = spec
        .ladders
        .iter()
        .enumerate()
        .map(|(i, j)| (JumpKind::Ladder, i, j))
        .chain(
            spec.snakes
                .iter()
                .enumerate()
                .map(|(i, j)| (JumpKind::Snake, i, j)),
        );
    for (list, index, &[from, to]) in written {
        let jump = JumpRef {
            list,
            index,
            from,
            to,
        };
        let on_board = |s: i64, last: u32| (1..=i64::from(last)).contains(&s);
        let start_problem = match (start, last) {
            (Some(start), _) if from == i64::from(start) => {
                Some(Problem::JumpStartsOnStart { jump, start })
            }
            (_, Some(last)) if from == i64::from(last) => {
                Some(Problem::JumpStartsOnLast { jump, last })
            }
            (_, Some(last)) if !on_board(from, last) => {
                Some(Problem::JumpStartOffBoard { jump, from, last })
            }
            _ => None,
        };
        let start_placed = start_problem.is_none();
        problems.extend(start_problem);
        let end_placed = match last {
            Some(last) if !on_board(to, last) => {
                problems.push(Problem::JumpEndOffBoard { jump, to, last });
                false
            }
            _ => true,
        };
        // A jump is checked against the others as far as its squares
        // allow, even when its direction is wrong (a descending ladder on
        // a snake's square is also a duplicate start) or its other end is
        // off the board (its start still takes the square).
        if from == to {
            problems.push(Problem::JumpGoesNowhere { jump });
        } else if list == JumpKind::Snake && to > from {
            problems.push(Problem::SnakeClimbs { jump });
        } else if list == JumpKind::Ladder && to < from {
            problems.push(Problem::LadderDescends { jump });
        }
        // With N unknown, an end takes part only when it is a plain
        // square.
        let fits = |s: i64| (1..=i64::from(u32::MAX)).contains(&s);
        if !(start_placed && fits(from)) {
            continue;
        }
        let end = (end_placed && fits(to) && from != to).then(|| Square::new(to as u32));
        placed.push(Placed {
            jump,
            from: Square::new(from as u32),
            to: end,
        });
    }
    placed
}

/// The problems between the `placed` jumps (duplicate starts, and chains
/// or cycles as the `chains` rule makes them), pushed onto `problems`.
fn between_jumps(placed: &[Placed], chains: Chains, problems: &mut Vec<Problem>) {
    // Jumps against each other. What is found must not depend on the order
    // the jumps are written in, so when two jumps start on one square both
    // are checked for chains, and cycles are sought among the others.
    let mut starts: HashMap<Square, Vec<usize>> = HashMap::with_capacity(placed.len());
    for (i, p) in placed.iter().enumerate() {
        starts.entry(p.from).or_default().push(i);
    }
    for (i, p) in placed.iter().enumerate() {
        let first = starts[&p.from][0];
        if first != i {
            problems.push(Problem::DuplicateStart {
                square: p.from.get(),
                first: placed[first].jump,
                second: p.jump,
            });
        }
    }
    match chains {
        Chains::Forbid => {
            for p in placed {
                let Some(to) = p.to else { continue };
                for &next in starts.get(&to).map_or(&[][..], Vec::as_slice) {
                    problems.push(Problem::Chain {
                        jump: p.jump,
                        square: to.get(),
                        next: placed[next].jump,
                    });
                }
            }
        }
        Chains::Follow => {
            let single: Vec<(JumpRef, Jump)> = placed
                .iter()
                .filter(|p| starts[&p.from].len() == 1)
                .filter_map(|p| p.to.map(|to| (p.jump, Jump::new(p.from, to))))
                .collect();
            problems.extend(cycles(&single));
        }
    }
}

/// Cycles among jumps that chain (a jump ending where another starts), each
/// reported once, starting from its smallest square.
fn cycles(placed: &[(JumpRef, Jump)]) -> Vec<Problem> {
    let next: HashMap<Square, Square> = placed.iter().map(|(_, j)| (j.from(), j.to())).collect();
    let mut state: HashMap<Square, u8> = HashMap::new(); // 1: on the path, 2: done
    let mut found = Vec::new();
    let mut starts: Vec<Square> = next.keys().copied().collect();
    starts.sort();
    for start in starts {
        let mut path = Vec::new();
        let mut at = start;
        loop {
            match state.get(&at) {
                Some(1) => {
                    let pos = path.iter().position(|s| *s == at).unwrap_or(0);
                    let mut cycle: Vec<Square> = path[pos..].to_vec();
                    let min = cycle
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, s)| **s)
                        .map_or(0, |(i, _)| i);
                    cycle.rotate_left(min);
                    found.push(Problem::ChainCycle {
                        squares: cycle.into_iter().map(Square::get).collect(),
                    });
                    break;
                }
                Some(_) => break,
                None => {}
            }
            let Some(&to) = next.get(&at) else { break };
            state.insert(at, 1);
            path.push(at);
            at = to;
        }
        for s in path {
            state.insert(s, 2);
        }
    }
    found
}

/// The rolls that can move a token: every total with positive probability,
/// less the bonus total when its first occurrence is always forfeited.
pub(crate) fn moving_rolls(board: &Board) -> Vec<u32> {
    let rules = board.rules();
    let forfeits_first = rules
        .extra_turn()
        .is_some_and(|x| x.forfeit_after() == Some(1));
    rules
        .dice()
        .rolls()
        .iter()
        .map(|o| o.total)
        .filter(|t| !(forfeits_first && Some(*t) == rules.extra_turn().map(|x| x.on())))
        .collect()
}

/// The rest squares reachable from the start from which the last square can
/// never be reached, in increasing order.
pub(crate) fn trapped_squares(board: &Board) -> Result<Vec<u32>, Problem> {
    let n = board.last().get();
    let rolls = moving_rolls(board);
    let work = u64::from(n + 1) * rolls.len() as u64;
    if work > MAX_MOVES_TO_CHECK {
        return Err(Problem::TooLargeToCheck {
            squares: n,
            totals: rolls.len() as u32,
            limit: MAX_MOVES_TO_CHECK,
        });
    }
    let size = n as usize + 1;
    // Forward search from the start, each move walked once. A move that
    // ends `r` squares on (no jump, bounce or stay) is found again backwards
    // from its end, so it is kept as one bit (`plain`, square by roll), and
    // only the other moves as (end, start) pairs: about 2 bytes a square, a
    // bit a move (at most 15 MB within `MAX_MOVES_TO_CHECK`) and 8 bytes an
    // irregular move (and, below, 4 more of each), where storing every
    // move reversed took 4 bytes a move (480 MB for 10 million squares and
    // two dice).
    let mut reached = vec![false; size];
    let mut irregular: Vec<(u32, u32)> = Vec::new();
    let mut plain = vec![0u64; (size * rolls.len()).div_ceil(64)];
    let bit = |s: u32, i: usize| s as usize * rolls.len() + i;
    let mut stack = vec![board.rules().start()];
    reached[board.rules().start().index()] = true;
    while let Some(s) = stack.pop() {
        if s == board.last() {
            continue;
        }
        for (i, &r) in rolls.iter().enumerate() {
            let to = board.walk(s, r).end;
            if u64::from(to.get()) == u64::from(s.get()) + u64::from(r) {
                let b = bit(s.get(), i);
                plain[b / 64] |= 1 << (b % 64);
            } else if to != s {
                irregular.push((to.get(), s.get()));
            }
            if !reached[to.index()] {
                reached[to.index()] = true;
                stack.push(to);
            }
        }
    }
    if !reached[n as usize] {
        // Nothing reachable finishes: every reached square is trapped.
        return Ok((0..=n).filter(|&s| reached[s as usize] && s != n).collect());
    }
    // The irregular moves' starts grouped by their end, by counting (no
    // sort, and no list made per square): the starts of those ending on t
    // are `before[ends[t − 1]..ends[t]]` (from 0 for t = 0). 4 more bytes a
    // square and a move.
    let mut ends = vec![0u32; size + 1];
    for &(to, _) in &irregular {
        ends[to as usize + 1] += 1;
    }
    for t in 0..size {
        ends[t + 1] += ends[t];
    }
    // `ends[t]` is now where t's starts begin; placing them moves it to
    // where they end.
    let mut before = vec![0u32; irregular.len()];
    for &(to, from) in &irregular {
        before[ends[to as usize] as usize] = from;
        ends[to as usize] += 1;
    }
    drop(irregular);
    let mut finishes = vec![false; size];
    finishes[n as usize] = true;
    let mut stack = vec![n];
    while let Some(t) = stack.pop() {
        let first = if t == 0 { 0 } else { ends[t as usize - 1] };
        let kept = &before[first as usize..ends[t as usize] as usize];
        // The plain moves into t, from squares the search reached (and left:
        // not the last), read from the forward search's bits.
        let plain_into = rolls.iter().enumerate().filter_map(|(i, &r)| {
            let f = t.checked_sub(r)?;
            let b = bit(f, i);
            (plain[b / 64] >> (b % 64) & 1 == 1).then_some(f)
        });
        for f in kept.iter().copied().chain(plain_into) {
            if !finishes[f as usize] {
                finishes[f as usize] = true;
                stack.push(f);
            }
        }
    }
    Ok((0..n)
        .filter(|&s| reached[s as usize] && !finishes[s as usize])
        .collect())
}

#[cfg(test)]
mod tests {
    //! One test per validation rule: each builds a spec that breaks exactly
    //! that rule and asserts the one problem found, with what it names.

    use super::*;
    use crate::BoardSpec;
    use crate::model::dice::DiceSpec;
    use crate::model::problem::Squares;

    fn problems(json: &str) -> Vec<Problem> {
        let spec: BoardSpec = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        let found = Board::problems(&spec);
        assert_eq!(found.is_empty(), Board::from_spec(&spec).is_ok(), "{json}");
        found
    }

    /// The one problem of a spec.
    #[track_caller]
    fn only(json: &str) -> Problem {
        match problems(json).as_slice() {
            [one] => one.clone(),
            other => panic!("{json}: expected one problem, found {other:?}"),
        }
    }

    fn ladder(index: usize, from: i64, to: i64) -> JumpRef {
        JumpRef {
            list: JumpKind::Ladder,
            index,
            from,
            to,
        }
    }

    fn snake(index: usize, from: i64, to: i64) -> JumpRef {
        JumpRef {
            list: JumpKind::Snake,
            index,
            from,
            to,
        }
    }

    #[test]
    fn squares_out_of_range() {
        for n in [-5, 0, 1, 10_000_001, i64::MAX] {
            let p = only(&format!(r#"{{"squares": {n}}}"#));
            assert_eq!(p, Problem::SquaresOutOfRange { squares: n });
            assert_eq!(p.kind(), "squares_out_of_range");
        }
        assert!(problems(r#"{"squares": 2}"#).is_empty());
    }

    #[test]
    fn width_out_of_range() {
        assert_eq!(
            only(r#"{"squares": 10, "width": 0}"#),
            Problem::WidthOutOfRange { width: 0 }
        );
        assert_eq!(
            only(r#"{"squares": 10, "width": 11}"#),
            Problem::WidthOutOfRange { width: 11 }
        );
        assert!(problems(r#"{"squares": 10, "width": 10}"#).is_empty());
    }

    #[test]
    fn start_out_of_range() {
        let p = only(r#"{"squares": 10, "rules": {"start": 2}}"#);
        assert_eq!(p, Problem::StartOutOfRange { start: 2 });
        assert_eq!(p.kind(), "start_out_of_range");
    }

    /// Ten squares hold at most nine jumps (on 1..9).
    #[test]
    fn too_many_jumps() {
        let p = only(
            r#"{"squares": 10, "ladders": [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6]],
                "snakes": [[6, 1], [7, 1], [8, 1], [9, 1], [9, 2]]}"#,
        );
        assert_eq!(
            p,
            Problem::TooManyJumps {
                jumps: 10,
                squares: 10
            }
        );
        assert_eq!(p.kind(), "too_many_jumps");
    }

    #[test]
    fn jump_starts_on_start() {
        let p = only(r#"{"squares": 10, "ladders": [[0, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnStart {
                jump: ladder(0, 0, 5),
                start: 0
            }
        );
        let p = only(r#"{"squares": 10, "ladders": [[1, 5]], "rules": {"start": 1}}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnStart {
                jump: ladder(0, 1, 5),
                start: 1
            }
        );
        assert_eq!(p.kind(), "jump_starts_on_start");
    }

    #[test]
    fn jump_starts_on_last() {
        let p = only(r#"{"squares": 10, "snakes": [[10, 1]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartsOnLast {
                jump: snake(0, 10, 1),
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_starts_on_last");
    }

    #[test]
    fn jump_start_off_board() {
        let p = only(r#"{"squares": 10, "snakes": [[12, 3]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: snake(0, 12, 3),
                from: 12,
                last: 10
            }
        );
        let p = only(r#"{"squares": 10, "ladders": [[-3, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: ladder(0, -3, 5),
                from: -3,
                last: 10
            }
        );
        // Under start 1, square 0 is off the board too.
        let p = only(r#"{"squares": 10, "ladders": [[0, 5]], "rules": {"start": 1}}"#);
        assert_eq!(
            p,
            Problem::JumpStartOffBoard {
                jump: ladder(0, 0, 5),
                from: 0,
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_start_off_board");
    }

    #[test]
    fn jump_end_off_board() {
        let p = only(r#"{"squares": 10, "ladders": [[5, 12]]}"#);
        assert_eq!(
            p,
            Problem::JumpEndOffBoard {
                jump: ladder(0, 5, 12),
                to: 12,
                last: 10
            }
        );
        let p = only(r#"{"squares": 10, "snakes": [[5, 0]]}"#);
        assert_eq!(
            p,
            Problem::JumpEndOffBoard {
                jump: snake(0, 5, 0),
                to: 0,
                last: 10
            }
        );
        assert_eq!(p.kind(), "jump_end_off_board");
    }

    #[test]
    fn jump_goes_nowhere() {
        let p = only(r#"{"squares": 10, "ladders": [[5, 5]]}"#);
        assert_eq!(
            p,
            Problem::JumpGoesNowhere {
                jump: ladder(0, 5, 5)
            }
        );
        assert_eq!(p.kind(), "jump_goes_nowhere");
    }

    #[test]
    fn snake_climbs() {
        let p = only(r#"{"squares": 10, "snakes": [[3, 8]]}"#);
        assert_eq!(
            p,
            Problem::SnakeClimbs {
                jump: snake(0, 3, 8)
            }
        );
        assert_eq!(p.kind(), "snake_climbs");
    }

    #[test]
    fn ladder_descends() {
        let p = only(r#"{"squares": 10, "ladders": [[2, 7], [8, 3]]}"#);
        assert_eq!(
            p,
            Problem::LadderDescends {
                jump: ladder(1, 8, 3)
            }
        );
        assert_eq!(p.kind(), "ladder_descends");
    }

    #[test]
    fn duplicate_start() {
        let p = only(r#"{"squares": 10, "ladders": [[3, 8]], "snakes": [[3, 1]]}"#);
        assert_eq!(
            p,
            Problem::DuplicateStart {
                square: 3,
                first: ladder(0, 3, 8),
                second: snake(0, 3, 1)
            }
        );
        assert_eq!(p.kind(), "duplicate_start");
    }

    /// Which of two jumps on one square is written first must not change the
    /// other problems: a chain into that square is reported against both.
    /// (Found by the property test: the first-written jump alone was checked.)
    #[test]
    fn duplicates_do_not_make_validation_depend_on_order() {
        let a = problems(r#"{"squares": 10, "ladders": [[3, 8], [3, 9], [1, 3]]}"#);
        let b = problems(r#"{"squares": 10, "ladders": [[3, 9], [3, 8], [1, 3]]}"#);
        let chains = |found: &[Problem]| {
            let mut next: Vec<i64> = found
                .iter()
                .filter_map(|p| match p {
                    Problem::Chain {
                        next, square: 3, ..
                    } => Some(next.to),
                    _ => None,
                })
                .collect();
            next.sort();
            next
        };
        assert_eq!(chains(&a), [8, 9]);
        assert_eq!(chains(&b), [8, 9]);
        assert_eq!(a.len(), 3, "{a:?}");
        assert_eq!(b.len(), 3, "{b:?}");
        // Under follow, a cycle through a doubled square is not sought (the
        // duplicate is reported; the cycle shows once it is fixed).
        let follow = problems(
            r#"{"squares": 10, "ladders": [[3, 8], [3, 9]], "snakes": [[8, 3]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            follow.iter().map(Problem::kind).collect::<Vec<_>>(),
            ["duplicate_start"]
        );
    }

    /// The design article's example: 2 → 5 → 8 chains.
    #[test]
    fn chain_under_forbid() {
        let p = only(r#"{"squares": 10, "ladders": [[2, 5], [5, 8]]}"#);
        assert_eq!(
            p,
            Problem::Chain {
                jump: ladder(0, 2, 5),
                square: 5,
                next: ladder(1, 5, 8)
            }
        );
        assert_eq!(p.kind(), "chain");
    }

    /// The design article's example: 10 → 30 → 50 → 10 loops back.
    #[test]
    fn chain_cycle_under_follow() {
        let p = only(
            r#"{"squares": 60, "ladders": [[30, 50], [10, 30]], "snakes": [[50, 10]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            p,
            Problem::ChainCycle {
                squares: vec![10, 30, 50]
            }
        );
        assert_eq!(p.kind(), "chain_cycle");
        // Two separate cycles are two problems, each named.
        let found = problems(
            r#"{"squares": 60, "ladders": [[2, 6], [20, 40]], "snakes": [[6, 2], [40, 20]],
                "rules": {"chains": "follow"}}"#,
        );
        assert_eq!(
            found,
            [
                Problem::ChainCycle {
                    squares: vec![2, 6]
                },
                Problem::ChainCycle {
                    squares: vec![20, 40]
                },
            ]
        );
    }

    #[test]
    fn dice_mixed() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"count": 1, "weights": [1, 1]}}}"#);
        assert_eq!(p, Problem::DiceMixed);
        assert_eq!(p.kind(), "dice_mixed");
    }

    #[test]
    fn dice_count() {
        for count in [0, -1, 101] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"dice": {{"count": {count}}}}}}}"#
            ));
            assert_eq!(p, Problem::DiceCount { count });
        }
    }

    #[test]
    fn dice_faces() {
        for faces in [1, 0, -6, 1001] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"dice": {{"faces": {faces}}}}}}}"#
            ));
            assert_eq!(p, Problem::DiceFaces { faces });
            assert_eq!(p.kind(), "dice_faces");
        }
        // A loaded die of one face is a die of fewer than two faces.
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1]}}}"#);
        assert_eq!(p, Problem::DiceFaces { faces: 1 });
    }

    /// 100 dice of 1000 faces roll 100 × 999 + 1 = 99,901 totals.
    #[test]
    fn dice_too_wide() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"count": 100, "faces": 1000}}}"#);
        assert_eq!(p, Problem::DiceTooWide { totals: 99_901 });
        assert_eq!(p.kind(), "dice_too_wide");
    }

    #[test]
    fn weight_negative() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1, -0.5, 1]}}}"#);
        assert_eq!(
            p,
            Problem::WeightNegative {
                face: 2,
                weight: -0.5
            }
        );
        assert_eq!(p.kind(), "weight_negative");
    }

    /// JSON has no NaN or infinity, so this rule is reachable only through a
    /// spec built in code.
    #[test]
    fn weight_not_finite() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let spec = BoardSpec {
                squares: 10,
                rules: Some(crate::model::rules::RulesSpec {
                    dice: Some(DiceSpec {
                        weights: Some(vec![1.0, 1.0, bad]),
                        ..DiceSpec::default()
                    }),
                    ..Default::default()
                }),
                ..BoardSpec::default()
            };
            let found = Board::problems(&spec);
            assert_eq!(found, [Problem::WeightNotFinite { face: 3 }], "{bad}");
            assert!(Board::from_spec(&spec).is_err());
        }
    }

    #[test]
    fn weight_too_small() {
        // 1e-200 of 1e200: a chance of 1e-400, which is 0 in f64.
        let p = only(r#"{"squares": 31, "rules": {"dice": {"weights": [1e-200, 1e200]}}}"#);
        assert_eq!(
            p,
            Problem::WeightTooSmall {
                face: 1,
                weight: 1e-200,
                total: 1e200
            }
        );
        assert_eq!(p.kind(), "weight_too_small");
        // A chance of 1e-300 is held at full precision, and is valid.
        assert!(
            problems(r#"{"squares": 31, "rules": {"dice": {"weights": [1e-300, 1]}}}"#).is_empty()
        );
    }

    #[test]
    fn weights_all_zero() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [0, 0, 0]}}}"#);
        assert_eq!(p, Problem::WeightsAllZero);
        assert_eq!(p.kind(), "weights_all_zero");
    }

    #[test]
    fn weights_overflow() {
        let p = only(r#"{"squares": 10, "rules": {"dice": {"weights": [1e308, 1e308]}}}"#);
        assert_eq!(p, Problem::WeightsOverflow);
        assert_eq!(p.kind(), "weights_overflow");
    }

    #[test]
    fn extra_turn_unrollable() {
        for on in [7, 0, -6] {
            let p = only(&format!(
                r#"{{"squares": 10, "rules": {{"extra_turn": {{"on": {on}}}}}}}"#
            ));
            assert_eq!(p, Problem::ExtraTurnUnrollable { on });
        }
        // A face of weight zero cannot be rolled either.
        let p = only(
            r#"{"squares": 10, "rules": {"dice": {"weights": [1, 1, 0]}, "extra_turn": {"on": 3}}}"#,
        );
        assert_eq!(p, Problem::ExtraTurnUnrollable { on: 3 });
        assert_eq!(p.kind(), "extra_turn_unrollable");
    }

    #[test]
    fn extra_turn_max_extra() {
        let p = only(r#"{"squares": 10, "rules": {"extra_turn": {"on": 6, "max_extra": -1}}}"#);
        assert_eq!(p, Problem::ExtraTurnMaxExtra { max_extra: -1 });
        assert_eq!(p.kind(), "extra_turn_max_extra");
    }

    #[test]
    fn extra_turn_forfeit_after() {
        let p = only(r#"{"squares": 10, "rules": {"extra_turn": {"on": 6, "forfeit_after": 0}}}"#);
        assert_eq!(p, Problem::ExtraTurnForfeitAfter { forfeit_after: 0 });
        assert_eq!(p.kind(), "extra_turn_forfeit_after");
    }

    /// A die that only rolls six, a six rolls again, and nothing caps it.
    #[test]
    fn endless_extra_rolls() {
        let json = r#"{"squares": 10, "rules": {"dice": {"weights": [0, 0, 0, 0, 0, 1]},
            "extra_turn": {"on": 6}}}"#;
        let p = only(json);
        assert_eq!(p, Problem::EndlessExtraRolls { on: 6 });
        assert_eq!(p.kind(), "endless_extra_rolls");
        // A cap, or a forfeit, makes the same dice fine (the board must still
        // be winnable: 0 + 6 + ... never lands on 10 exactly, so use 12).
        for limit in [r#""max_extra": 3"#, r#""forfeit_after": 2"#] {
            let json = format!(
                r#"{{"squares": 12, "rules": {{"dice": {{"weights": [0, 0, 0, 0, 0, 1]}},
                    "extra_turn": {{"on": 6, {limit}}}}}}}"#
            );
            assert!(problems(&json).is_empty(), "{json}");
        }
    }

    /// 10,000,000 squares × 12 totals = 120,000,012 moves, just past the limit.
    #[test]
    fn too_large_to_check() {
        let p = only(r#"{"squares": 10000000, "rules": {"dice": {"faces": 12}}}"#);
        assert_eq!(
            p,
            Problem::TooLargeToCheck {
                squares: 10_000_000,
                totals: 12,
                limit: MAX_MOVES_TO_CHECK
            }
        );
        assert_eq!(p.kind(), "too_large_to_check");
    }

    /// `trapped_squares` against the definition, on small random boards
    /// with traps: the squares reachable from the start (a search over every
    /// roll), less those from which some sequence of rolls reaches the last
    /// square, found by sweeping every square until nothing changes. The
    /// rules are those most likely to trap a token: exact finishes, bounces,
    /// two dice that never make a 1, a die without small faces.
    #[test]
    fn trapped_squares_agree_with_the_definition_on_random_boards() {
        use rand::{Rng, SeedableRng};
        let rules = [
            r#"{"overshoot": "stay"}"#,
            r#"{"overshoot": "bounce"}"#,
            r#"{"overshoot": "win"}"#,
            r#"{"dice": {"count": 2, "faces": 6}}"#,
            r#"{"dice": {"weights": [0, 0, 1, 0, 1]}, "overshoot": "bounce"}"#,
            r#"{"entry": "six", "extra_turn": {"on": 6, "forfeit_after": 2}}"#,
        ];
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(29);
        let (mut trapped_boards, mut boards) = (0, 0);
        for _ in 0..600 {
            let last: u32 = rng.random_range(3..40);
            let rules_json = rules[rng.random_range(0..rules.len())];
            let spec: crate::model::rules::RulesSpec = serde_json::from_str(rules_json).unwrap();
            let rules = Rules::from_spec(&spec, &mut Vec::new()).unwrap();
            // Jumps on distinct starts in 1..last, none ending on a start
            // (chains are forbidden by default) or where it starts.
            let mut jumps: Vec<Jump> = Vec::new();
            for _ in 0..rng.random_range(0..last / 2) {
                let (from, to) = (rng.random_range(1..last), rng.random_range(1..=last));
                let clashes = jumps.iter().any(|j| {
                    j.from().get() == from || j.from().get() == to || j.to().get() == from
                });
                if from != to && from != rules.start().get() && !clashes {
                    jumps.push(Jump::new(Square::new(from), Square::new(to)));
                }
            }
            let board = Board::assemble(None, Square::new(last), 1, jumps, rules);
            let rolls = moving_rolls(&board);
            let step = |s: u32, r: u32| board.walk(Square::new(s), r).end.get();
            let mut reached = vec![false; last as usize + 1];
            let mut stack = vec![board.rules().start().get()];
            reached[stack[0] as usize] = true;
            while let Some(s) = stack.pop() {
                for &r in rolls.iter().filter(|_| s != last) {
                    let t = step(s, r);
                    if !reached[t as usize] {
                        reached[t as usize] = true;
                        stack.push(t);
                    }
                }
            }
            let mut finishes = vec![false; last as usize + 1];
            finishes[last as usize] = true;
            let mut changed = true;
            while changed {
                changed = false;
                for s in 0..last {
                    if !finishes[s as usize] && rolls.iter().any(|&r| finishes[step(s, r) as usize])
                    {
                        finishes[s as usize] = true;
                        changed = true;
                    }
                }
            }
            let expected: Vec<u32> = (0..last)
                .filter(|&s| reached[s as usize] && !finishes[s as usize])
                .collect();
            assert_eq!(trapped_squares(&board).unwrap(), expected, "{board:?}");
            boards += 1;
            trapped_boards += usize::from(!expected.is_empty());
        }
        // Both kinds of board were tried.
        assert!(
            trapped_boards > 100 && boards - trapped_boards > 100,
            "{trapped_boards} of {boards}"
        );
    }

    /// Two dice and an exact finish on 20 squares: square 19 needs a 1, which
    /// two dice never roll; every other square can still finish (18 + 2).
    #[test]
    fn unwinnable_names_the_trapped_squares() {
        let p = only(r#"{"squares": 20, "rules": {"dice": {"count": 2, "faces": 6}}}"#);
        assert_eq!(p, Problem::Unwinnable { squares: vec![19] });
        assert_eq!(p.kind(), "unwinnable");
    }

    /// An example: snakes on every one of 94..99 under `stay`, so
    /// nothing reaches 100 and every square a token reaches is trapped.
    #[test]
    fn unwinnable_when_the_finish_cannot_be_reached_at_all() {
        let p = only(
            r#"{"squares": 100, "snakes": [[94, 1], [95, 1], [96, 1], [97, 1], [98, 1], [99, 1]]}"#,
        );
        let trapped: Vec<u32> = (0..=93).collect();
        assert_eq!(p, Problem::Unwinnable { squares: trapped });
        assert_eq!(
            p.to_string(),
            "the game cannot be won from squares 0..93: a token can reach them but never the last square"
        );
    }

    /// Entry on six and the six always forfeited: no token ever leaves the start.
    #[test]
    fn unwinnable_when_the_entry_roll_is_always_forfeited() {
        let p = only(
            r#"{"squares": 10, "rules": {"entry": "six", "extra_turn": {"on": 6, "forfeit_after": 1}}}"#,
        );
        assert_eq!(p, Problem::Unwinnable { squares: vec![0] });
    }

    #[test]
    fn every_problem_is_reported_not_just_the_first() {
        let found = problems(
            r#"{"squares": 10, "width": 0, "ladders": [[5, 3], [0, 4]], "snakes": [[4, 8], [10, 2]],
                "rules": {"dice": {"faces": 1}}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(
            kinds,
            [
                "dice_faces",
                "width_out_of_range",
                "ladder_descends",
                "jump_starts_on_start",
                "snake_climbs",
                "jump_starts_on_last",
            ]
        );
    }

    /// An invalid rule hides nothing: the jumps are still checked against
    /// the start square and the chain rule.
    #[test]
    fn jumps_are_checked_when_a_rule_is_invalid() {
        let found = problems(
            r#"{"squares": 10, "ladders": [[1, 3], [2, 5], [5, 7]],
                "rules": {"start": 1, "dice": {"faces": 0}}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["dice_faces", "jump_starts_on_start", "chain"]);
        let found = problems(
            r#"{"squares": 10, "ladders": [[2, 5], [5, 2]],
                "rules": {"chains": "follow", "extra_turn": {"on": 7}}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        // The descending ladder is still a jump: with the other it makes a
        // cycle, named too (issue 27).
        assert_eq!(
            kinds,
            ["extra_turn_unrollable", "ladder_descends", "chain_cycle"]
        );
    }

    /// A start square out of range is its own problem; a jump from square 0
    /// is then off the board, not "on the start square".
    #[test]
    fn out_of_range_start_is_not_taken_for_square_0() {
        let found = problems(r#"{"squares": 10, "rules": {"start": -1}, "ladders": [[0, 5]]}"#);
        assert_eq!(
            found,
            [
                Problem::StartOutOfRange { start: -1 },
                Problem::JumpStartOffBoard {
                    jump: ladder(0, 0, 5),
                    from: 0,
                    last: 10
                },
            ]
        );
    }

    /// With `squares` out of range, what does not need N is still checked.
    #[test]
    fn jumps_and_width_are_checked_when_squares_is_out_of_range() {
        let found = problems(
            r#"{"squares": 1, "width": 0, "ladders": [[3, 3], [4, 2], [6, 9]],
                "snakes": [[2, 5], [6, 1]]}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(
            kinds,
            [
                "squares_out_of_range",
                "width_out_of_range",
                "jump_goes_nowhere",
                "ladder_descends",
                "snake_climbs",
                "duplicate_start",
                // The descending ladder 4→2 ends where the snake 2→5
                // starts: named even though the ladder has a problem of its
                // own (issue 27).
                "chain",
            ]
        );
        // Chains and cycles need no N either.
        let found = problems(
            r#"{"squares": 0, "ladders": [[2, 5]], "snakes": [[5, 2]],
                "rules": {"chains": "follow"}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["squares_out_of_range", "chain_cycle"]);
    }

    #[test]
    fn squares_display_compactly() {
        assert_eq!(Squares(&[94, 95, 97, 98, 99]).to_string(), "94, 95, 97..99");
        assert_eq!(Squares(&[]).to_string(), "");
        let many = Squares(&(0..100).map(|i| i * 3).collect::<Vec<_>>());
        assert!(many.to_string().ends_with(" and 60 more runs"), "{many}");
    }

    /// A jump whose end is off the board still takes its start square:
    /// it is a duplicate start, and the end of a chain; the jump itself
    /// leads nowhere on the board, so it starts no chain.
    #[test]
    fn a_jump_ending_off_the_board_is_still_checked_against_the_others() {
        let found = problems(r#"{"squares": 20, "snakes": [[13, -2]], "ladders": [[13, 15]]}"#);
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(
            kinds,
            ["jump_end_off_board", "duplicate_start"],
            "{found:?}"
        );
        let found = problems(
            r#"{"squares": 20, "ladders": [[3, 13], [12, 25]], "snakes": [[16, 12]],
                "rules": {"chains": "forbid"}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["jump_end_off_board", "chain"], "{found:?}");
        // Written the other way round, the same problems.
        let found = problems(
            r#"{"squares": 20, "ladders": [[12, 25], [3, 13]], "snakes": [[16, 12]],
                "rules": {"chains": "forbid"}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["jump_end_off_board", "chain"], "{found:?}");
    }

    /// A jump with a problem of its own is still checked against the
    /// others (issue 27): the descending ladder also starts where a snake
    /// does.
    #[test]
    fn a_jump_with_a_problem_is_still_checked_against_the_others() {
        let found = problems(r#"{"squares": 20, "snakes": [[13, 1]], "ladders": [[13, 9]]}"#);
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["ladder_descends", "duplicate_start"], "{found:?}");
        let found = problems(
            r#"{"squares": 20, "ladders": [[3, 2], [2, 8]], "rules": {"chains": "forbid"}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(kinds, ["ladder_descends", "chain"], "{found:?}");
    }

    /// An invalid die does not hide the range problems of the extra-turn
    /// rule's caps.
    #[test]
    fn an_invalid_die_does_not_hide_the_extra_turn_caps() {
        let found = problems(
            r#"{"squares": 20, "rules": {"dice": {"weights": [1, -1, 2]},
                "extra_turn": {"on": 3, "forfeit_after": 0, "max_extra": -1}}}"#,
        );
        let kinds: Vec<&str> = found.iter().map(Problem::kind).collect();
        assert_eq!(
            kinds,
            [
                "weight_negative",
                "extra_turn_max_extra",
                "extra_turn_forfeit_after"
            ],
            "{found:?}"
        );
    }
}
