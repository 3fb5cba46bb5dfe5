//! Property tests: random rolls and forfeits on boards with every rule, and
//! the game's history checked against rules stated independently of the
//! engine's bookkeeping (turn rotation over the seats still in, one place
//! per player, squares continuing from each player's last turn).

use proptest::prelude::*;
use snakeladder::{
    Board, Event, Finish, Game, GameError, Placing, RollResult, ScriptedDice, Square, Status,
};
use std::collections::HashSet;
use std::sync::Arc;

const BOARDS: [&str; 5] = [
    r#"{"squares": 12, "ladders": [[2, 9]], "snakes": [[11, 3]]}"#,
    r#"{"squares": 12, "ladders": [[2, 9]], "snakes": [[11, 3]], "rules": {"overshoot": "bounce"}}"#,
    r#"{"squares": 12, "snakes": [[7, 1]], "rules": {"overshoot": "win", "entry": "six"}}"#,
    r#"{"squares": 15, "ladders": [[2, 5], [5, 9]], "rules": {"chains": "follow",
        "extra_turn": {"on": 6, "max_extra": 2}}}"#,
    r#"{"squares": 15, "snakes": [[14, 4]], "rules": {"start": 1,
        "extra_turn": {"on": 6, "forfeit_after": 3}}}"#,
];

#[derive(Clone, Debug)]
enum Action {
    Roll(u32),
    Forfeit(usize),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        12 => (1u32..=6).prop_map(Action::Roll),
        1 => (0usize..5).prop_map(Action::Forfeit),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn histories_follow_the_rules(
        b in 0..BOARDS.len(),
        n in 2usize..=5,
        to_last: bool,
        actions in prop::collection::vec(action(), 0..120),
    ) {
        let board = Arc::new(Board::from_json_str(BOARDS[b]).unwrap());
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let rolls: Vec<u32> = actions.iter().filter_map(|a| match a { Action::Roll(r) => Some(*r), _ => None }).collect();
        let finish = if to_last { Finish::ToLast } else { Finish::FirstWinner };
        let mut g = Game::new(board.clone(), names.clone(), ScriptedDice::new(rolls), finish).unwrap();
        for a in &actions {
            match a {
                Action::Roll(_) => match g.roll() {
                    Ok(_) => {}
                    Err(GameError::GameOver) => prop_assert!(g.status().is_over()),
                    Err(e) => prop_assert!(false, "unexpected {e}"),
                },
                Action::Forfeit(seat) => {
                    if let Some(name) = names.get(*seat) {
                        let _ = g.forfeit(name);
                    }
                }
            }
        }
        check(&g, &board, &names, finish)?;
    }
}

fn check(
    g: &Game<ScriptedDice>,
    board: &Board,
    names: &[String],
    finish: Finish,
) -> Result<(), TestCaseError> {
    let start = board.rules().start();
    let n = names.len();
    let mut square = vec![start; n];
    let mut gone = vec![false; n]; // finished or forfeited
    let mut finished = Vec::new();
    // Whose turn it is and how many rolls their turn has made, kept by the
    // rule: after a roll that grants another, the same seat; otherwise, or
    // when the seat to roll leaves, the next seat still in, cyclically.
    let mut to_roll = 0usize;
    let mut rolls_before = 0u32;
    let next_in = |from: usize, gone: &[bool]| (1..=n).map(|k| (from + k) % n).find(|&q| !gone[q]);
    let mut prev: Option<&RollResult> = None;
    let mut turns = 0u64;
    for e in g.history() {
        match e {
            Event::Forfeit {
                players,
                after_turn,
            } => {
                prop_assert_eq!(*after_turn, turns);
                for p in players {
                    let s = names.iter().position(|q| q == p).unwrap();
                    prop_assert!(!gone[s]);
                    gone[s] = true;
                }
                if gone[to_roll] {
                    rolls_before = 0;
                    if let Some(q) = next_in(to_roll, &gone) {
                        to_roll = q;
                    }
                }
                prev = None;
            }
            Event::Roll(t) => {
                turns += 1;
                prop_assert_eq!(t.number(), turns);
                let s = t.seat();
                prop_assert_eq!(t.player(), names[s].as_str());
                prop_assert!(!gone[s], "{} rolled after leaving", t.player());
                prop_assert_eq!((s, t.roll_in_turn()), (to_roll, rolls_before + 1));
                prop_assert_eq!(t.start(), square[s]);
                // The roll is exactly what the board's rules make of it, with
                // the turn's roll count.
                let step = board.play_roll(t.start(), rolls_before, t.roll());
                prop_assert_eq!(
                    (step.end, step.blocked, step.finished, step.extra_roll),
                    (t.end(), t.blocked(), t.finished(), t.extra_roll())
                );
                if let Some(p) = prev {
                    prop_assert_eq!(p.next_player(), Some(t.player()));
                }
                square[s] = t.end();
                if t.finished() {
                    gone[s] = true;
                    finished.push(s);
                    prop_assert_eq!(t.place(), Some(finished.len()));
                    prop_assert!(!t.extra_roll());
                }
                if t.extra_roll() {
                    rolls_before += 1;
                    prop_assert_eq!(t.next_player(), Some(t.player()));
                } else {
                    rolls_before = 0;
                    if let Some(q) = next_in(s, &gone) {
                        to_roll = q;
                    }
                }
                prev = Some(t);
            }
        }
    }
    if !g.status().is_over() {
        prop_assert_eq!(g.current_seat(), Some(to_roll));
        prop_assert_eq!(g.rolls_in_turn(), rolls_before);
    }
    prop_assert_eq!(g.positions(), &square[..]);
    prop_assert_eq!(g.rolls_played(), turns);
    if finish == Finish::FirstWinner {
        prop_assert!(finished.len() <= 1);
    }
    // Every player ranked once, places 1-based and never decreasing, and the
    // winner first.
    let ranking = g.ranking();
    prop_assert_eq!(ranking.len(), n);
    let seats: HashSet<usize> = ranking.iter().map(|s| s.seat).collect();
    prop_assert_eq!(seats.len(), n);
    prop_assert_eq!(ranking[0].place, 1);
    for w in ranking.windows(2) {
        prop_assert!(w[0].place <= w[1].place);
        if w[1].how != Placing::BySquare {
            prop_assert!(w[0].place < w[1].place);
        }
    }
    for (i, &s) in finished.iter().enumerate() {
        prop_assert_eq!((ranking[i].seat, ranking[i].how), (s, Placing::Reached));
    }
    let active = (0..n).filter(|&s| !gone[s]).count();
    match g.status() {
        Status::InProgress => {
            prop_assert!(active >= 2);
            prop_assert!(g.current().is_some());
            prop_assert!(finish == Finish::ToLast || finished.is_empty());
        }
        Status::Won { winner } => {
            prop_assert_eq!(&ranking[0].player, winner);
            prop_assert_eq!(g.current(), None);
        }
        Status::Aborted => {
            prop_assert!(finished.is_empty());
            prop_assert!(ranking.iter().all(|s| s.how == Placing::Forfeited));
        }
    }
    for st in &ranking {
        prop_assert_eq!(st.square, square[st.seat]);
        prop_assert!(st.square <= board.last() && st.square >= Square::OFF_BOARD);
    }
    // And the record replays to the same game.
    let replayed = g
        .record()
        .replay()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed.history(), g.history());
    Ok(())
}
