//! Scenario tests of the turn engine: scripted dice pin every rule.
//!
//! Each board is small and written out in the test, so every expected square
//! can be checked by hand from the roll and the layout.

use snakeladder::{
    Blocked, Board, Event, Finish, Game, GameError, GameRecord, Observer, Placing, RollResult,
    ScriptedDice, Square, Standing, Status,
};
use std::sync::{Arc, Mutex};

fn board(json: &str) -> Arc<Board> {
    Arc::new(Board::from_json_str(json).expect("test board is valid"))
}

#[track_caller]
fn game(json: &str, players: &[&str], rolls: &[u32], finish: Finish) -> Game<ScriptedDice> {
    Game::new(
        board(json),
        players.iter().copied(),
        ScriptedDice::new(rolls.iter().copied()),
        finish,
    )
    .expect("test game is valid")
}

#[track_caller]
fn turn(game: &mut Game<ScriptedDice>) -> RollResult {
    game.roll().expect("turn plays")
}

fn sq(n: u32) -> Square {
    Square::new(n)
}

const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;

#[test]
fn a_ladder_climbs_and_a_snake_bites() {
    let mut g = game(SMALL, &["Ana", "Bo"], &[3, 6, 6], Finish::FirstWinner);
    let t = turn(&mut g);
    assert_eq!((t.number(), t.player(), t.roll()), (1, "Ana", 3));
    assert_eq!((t.start(), t.landing(), t.end()), (sq(0), sq(3), sq(11)));
    assert_eq!(t.jumps().len(), 1);
    assert_eq!((t.jumps()[0].from(), t.jumps()[0].to()), (sq(3), sq(11)));
    assert_eq!(t.next_player(), Some("Bo"));
    let t = turn(&mut g);
    assert_eq!((t.player(), t.end(), t.jumps().len()), ("Bo", sq(6), 0));
    // 11 + 6 = 17, the snake's head: down to 4.
    let t = turn(&mut g);
    assert_eq!((t.landing(), t.end()), (sq(17), sq(4)));
    assert_eq!(g.positions(), &[sq(4), sq(6)]);
    assert_eq!(g.position_of("Ana"), Some(sq(4)));
}

#[test]
fn overshoot_under_stay_blocks_but_the_turn_passes() {
    // 10 squares: Ana reaches 6, then 6 + 5 = 11 passes 10 and she stays.
    let mut g = game(
        r#"{"squares": 10}"#,
        &["Ana", "Bo"],
        &[6, 1, 5],
        Finish::FirstWinner,
    );
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(t.blocked(), Some(Blocked::Overshoot));
    assert_eq!((t.start(), t.landing(), t.end()), (sq(6), sq(6), sq(6)));
    assert!(!t.finished() && !t.extra_roll());
    assert_eq!(t.next_player(), Some("Bo"));
    assert_eq!(
        t.describe(g.board()),
        "Ana rolled 5: needs exactly 4, stays on 6"
    );
    assert_eq!(g.current(), Some("Bo"));
}

#[test]
fn a_bounce_can_land_on_a_snake() {
    // 6 + 6 = 12 is 2 past 10: back to 10 - 2 = 8, the snake's head, down to 2.
    let json = r#"{"squares": 10, "snakes": [[8, 2]], "rules": {"overshoot": "bounce"}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[6, 1, 6], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(t.blocked(), None);
    assert_eq!((t.start(), t.landing(), t.end()), (sq(6), sq(8), sq(2)));
    assert_eq!(
        t.describe(g.board()),
        "Ana rolled 6: 6 → 10, bounces back to 8, snake to 2"
    );
}

#[test]
fn passing_the_finish_wins_under_win() {
    let json = r#"{"squares": 10, "rules": {"overshoot": "win"}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[6, 1, 6], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(
        (t.landing(), t.end(), t.finished(), t.place()),
        (sq(10), sq(10), true, Some(1))
    );
    assert_eq!(
        g.status(),
        &Status::Won {
            winner: "Ana".into()
        }
    );
}

#[test]
fn an_exact_win_ends_the_game_and_a_further_roll_is_an_error() {
    let mut g = game(
        r#"{"squares": 10}"#,
        &["Ana", "Bo"],
        &[6, 1, 4, 2],
        Finish::FirstWinner,
    );
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert!(t.finished());
    assert_eq!(t.next_player(), None);
    assert_eq!(
        g.status(),
        &Status::Won {
            winner: "Ana".into()
        }
    );
    assert_eq!(g.current(), None);
    assert_eq!(g.roll(), Err(GameError::GameOver));
    assert_eq!(g.roll_as("Bo"), Err(GameError::GameOver));
    // The refused roll took nothing from the dice.
    assert_eq!(g.dice().remaining(), 1);
    assert_eq!(g.rolls_played(), 3);
}

#[test]
fn chains_are_refused_under_forbid_and_followed_under_follow() {
    let forbid = r#"{"squares": 20, "ladders": [[2, 5], [5, 9]]}"#;
    let err = Board::from_json_str(forbid).unwrap_err();
    assert_eq!(err.problems().len(), 1, "{err}");
    assert_eq!(err.problems()[0].kind(), "chain");
    // A forbid board whose ladder ends one short of another's foot: one jump only.
    let one = r#"{"squares": 20, "ladders": [[2, 4], [5, 9]]}"#;
    let mut g = game(one, &["Ana", "Bo"], &[2], Finish::FirstWinner);
    let t = turn(&mut g);
    assert_eq!((t.jumps().len(), t.end()), (1, sq(4)));

    let follow = r#"{"squares": 20, "ladders": [[2, 5], [5, 9]], "rules": {"chains": "follow"}}"#;
    let mut g = game(follow, &["Ana", "Bo"], &[2], Finish::FirstWinner);
    let t = turn(&mut g);
    assert_eq!((t.landing(), t.end()), (sq(2), sq(9)));
    let hops: Vec<(Square, Square)> = t.jumps().iter().map(|j| (j.from(), j.to())).collect();
    assert_eq!(hops, [(sq(2), sq(5)), (sq(5), sq(9))]);
}

const SIXES: &str = r#"{"squares": 30, "rules": {"extra_turn": {"on": 6}}}"#;

#[test]
fn a_six_grants_another_roll_and_a_winning_six_does_not() {
    let mut g = game(SIXES, &["Ana", "Bo"], &[6, 3, 1], Finish::FirstWinner);
    let t = turn(&mut g);
    assert!(t.extra_roll());
    assert_eq!((t.roll_in_turn(), t.next_player()), (1, Some("Ana")));
    let t = turn(&mut g);
    assert_eq!((t.player(), t.roll_in_turn(), t.end()), ("Ana", 2, sq(9)));
    assert!(!t.extra_roll());
    assert_eq!(t.next_player(), Some("Bo"));
    assert_eq!(turn(&mut g).player(), "Bo");

    // 24 + 6 = 30 wins: no extra roll, the game is over.
    let json = r#"{"squares": 30, "ladders": [[4, 24]], "rules": {"extra_turn": {"on": 6}}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[4, 1, 6], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert!(t.finished() && !t.extra_roll());
    assert_eq!(t.next_player(), None);
}

#[test]
fn max_extra_caps_the_extra_rolls_of_a_turn() {
    // At most one extra roll: the second six of a turn moves but grants nothing.
    let json = r#"{"squares": 40, "rules": {"extra_turn": {"on": 6, "max_extra": 1}}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[6, 6, 2], Finish::FirstWinner);
    assert!(turn(&mut g).extra_roll());
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.end(), t.extra_roll()),
        ("Ana", sq(12), false)
    );
    assert_eq!(turn(&mut g).player(), "Bo");
}

#[test]
fn three_sixes_forfeit_the_third_and_end_the_turn() {
    let json = r#"{"squares": 40, "rules": {"extra_turn": {"on": 6, "forfeit_after": 3}}}"#;
    let mut g = game(
        json,
        &["Ana", "Bo"],
        &[6, 6, 6, 1, 6, 2],
        Finish::FirstWinner,
    );
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(t.blocked(), Some(Blocked::Forfeit));
    assert_eq!((t.roll_in_turn(), t.start(), t.end()), (3, sq(12), sq(12)));
    assert_eq!(t.next_player(), Some("Bo"));
    assert_eq!(turn(&mut g).player(), "Bo");
    // A new turn counts sixes afresh.
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.roll_in_turn(), t.end(), t.extra_roll()),
        ("Ana", 1, sq(18), true)
    );
}

#[test]
fn entry_on_six_holds_the_token_until_a_six() {
    let json = r#"{"squares": 30, "rules": {"entry": "six"}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[3, 6, 5], Finish::FirstWinner);
    let t = turn(&mut g);
    assert_eq!((t.blocked(), t.end()), (Some(Blocked::Entry), sq(0)));
    let t = turn(&mut g);
    assert_eq!((t.blocked(), t.end()), (None, sq(6)));
    // Ana is still on the start: a five does not get her out.
    let t = turn(&mut g);
    assert_eq!((t.blocked(), t.end()), (Some(Blocked::Entry), sq(0)));
}

#[test]
fn tokens_start_on_the_rules_start_square() {
    let json = r#"{"squares": 30, "rules": {"start": 1}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[2], Finish::FirstWinner);
    assert_eq!(g.positions(), &[sq(1), sq(1)]);
    assert_eq!(turn(&mut g).end(), sq(3));
}

#[test]
fn players_may_share_a_square() {
    let mut g = game(SMALL, &["Ana", "Bo"], &[5, 5], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(g.positions(), &[sq(5), sq(5)]);
}

#[test]
fn three_players_wrap_around() {
    let mut g = game(
        SMALL,
        &["Ana", "Bo", "Cy"],
        &[1, 1, 1, 1],
        Finish::FirstWinner,
    );
    let order: Vec<(String, Option<String>)> = (0..4)
        .map(|_| {
            let t = turn(&mut g);
            (t.player().to_string(), t.next_player().map(str::to_string))
        })
        .collect();
    let expect = [("Ana", "Bo"), ("Bo", "Cy"), ("Cy", "Ana"), ("Ana", "Bo")];
    for ((p, n), (ep, en)) in order.iter().zip(expect) {
        assert_eq!((p.as_str(), n.as_deref()), (ep, Some(en)));
    }
}

#[test]
fn out_of_turn_unknown_and_forfeited_players_cannot_roll() {
    let mut g = game(SMALL, &["Ana", "Bo", "Cy"], &[1, 1, 1], Finish::FirstWinner);
    assert_eq!(
        g.roll_as("Bo"),
        Err(GameError::NotYourTurn {
            player: "Bo".into(),
            current: "Ana".into()
        })
    );
    assert_eq!(
        g.roll_as("Zed"),
        Err(GameError::UnknownPlayer {
            player: "Zed".into()
        })
    );
    g.forfeit("Cy").unwrap();
    assert_eq!(
        g.roll_as("Cy"),
        Err(GameError::Forfeited {
            player: "Cy".into()
        })
    );
    assert_eq!(g.roll_as("Ana").unwrap().player(), "Ana");
    assert_eq!(g.rolls_played(), 1);
}

#[test]
fn when_a_player_finishes_playing_to_the_last_the_next_seat_moves() {
    // 10 squares, ladder 2→10. Ana 1 → 1; Bo (middle seat) 2 → 2, ladder to
    // 10: 1st. Cy then rolls, then Ana, then Cy: Bo has left the order.
    let json = r#"{"squares": 10, "ladders": [[2, 10]]}"#;
    let mut g = game(json, &["Ana", "Bo", "Cy"], &[1, 2, 1, 2, 3], Finish::ToLast);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.place(), t.next_player()),
        ("Bo", Some(1), Some("Cy"))
    );
    assert_eq!(g.status(), &Status::InProgress);
    assert_eq!(turn(&mut g).player(), "Cy");
    assert_eq!(turn(&mut g).player(), "Ana");
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.end(), t.next_player()),
        ("Cy", sq(4), Some("Ana"))
    );
}

#[test]
fn when_the_last_seat_finishes_the_order_wraps_and_the_last_left_is_last() {
    // Cy, the last seat, finishes; the next roll is Ana's (index shift), and
    // when Ana finishes too Bo is the last one left, in 3rd place.
    let json = r#"{"squares": 10, "ladders": [[2, 10]]}"#;
    let mut g = game(json, &["Ana", "Bo", "Cy"], &[1, 1, 2, 1, 4], Finish::ToLast);
    turn(&mut g);
    turn(&mut g);
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.place(), t.next_player()),
        ("Cy", Some(1), Some("Ana"))
    );
    assert_eq!(g.turn_order(), [0, 1]);
    turn(&mut g); // Ana 1 → 2, ladder to 10: 2nd
    assert_eq!(
        g.status(),
        &Status::Won {
            winner: "Cy".into()
        }
    );
    let ranking: Vec<(usize, String, Placing)> = g
        .ranking()
        .into_iter()
        .map(|s| (s.place, s.player, s.how))
        .collect();
    assert_eq!(
        ranking,
        [
            (1, "Cy".to_string(), Placing::Reached),
            (2, "Ana".to_string(), Placing::Reached),
            (3, "Bo".to_string(), Placing::LastLeft),
        ]
    );
    assert_eq!(g.roll(), Err(GameError::GameOver));
}

#[test]
fn the_first_winner_stops_the_game_and_the_rest_rank_by_square() {
    // On SMALL (ladder 3→11, snake 17→4): Ana 3 → 11, Bo 3 → 11, Cy 2 → 2,
    // Ana 6 → 17 → 4, Bo 6 → 17 → 4, Cy 6 → 8, Ana 6 → 10, Bo 6 → 10,
    // Cy 3 → 11. Ana and Bo tie on 10 and share 2nd place.
    let mut g = game(
        SMALL,
        &["Ana", "Bo", "Cy"],
        &[3, 3, 2, 6, 6, 6, 6, 6, 3],
        Finish::FirstWinner,
    );
    for _ in 0..9 {
        turn(&mut g);
    }
    assert_eq!(g.positions(), &[sq(10), sq(10), sq(11)]);
    let r: Vec<(usize, String)> = g
        .ranking()
        .into_iter()
        .map(|s| (s.place, s.player))
        .collect();
    assert_eq!(r, [(1, "Cy".into()), (2, "Ana".into()), (2, "Bo".into())]);

    // Ana 6, Bo 3, Cy 5, Ana 4 → 10 wins; Cy (5) ranks above Bo (3).
    let mut g = game(
        r#"{"squares": 10}"#,
        &["Ana", "Bo", "Cy"],
        &[6, 3, 5, 4],
        Finish::FirstWinner,
    );
    for _ in 0..4 {
        turn(&mut g);
    }
    assert_eq!(
        g.status(),
        &Status::Won {
            winner: "Ana".into()
        }
    );
    let r: Vec<(usize, String, Square, Placing)> = g
        .ranking()
        .into_iter()
        .map(|s| (s.place, s.player, s.square, s.how))
        .collect();
    assert_eq!(
        r,
        [
            (1, "Ana".into(), sq(10), Placing::Reached),
            (2, "Cy".into(), sq(5), Placing::BySquare),
            (3, "Bo".into(), sq(3), Placing::BySquare),
        ]
    );
}

#[test]
fn forfeit_on_ones_own_turn_passes_the_turn() {
    let json = r#"{"squares": 40, "rules": {"extra_turn": {"on": 6}}}"#;
    let mut g = game(json, &["Ana", "Bo", "Cy"], &[2, 6, 3], Finish::FirstWinner);
    turn(&mut g); // Ana
    let t = turn(&mut g); // Bo rolls a six: his turn goes on
    assert!(t.extra_roll());
    assert!(g.forfeit("Bo").unwrap());
    assert_eq!(g.current(), Some("Cy"));
    let t = turn(&mut g);
    assert_eq!(
        (t.player(), t.roll_in_turn(), t.next_player()),
        ("Cy", 1, Some("Ana"))
    );
    // Bo keeps his square for the record.
    assert_eq!(g.position_of("Bo"), Some(sq(6)));
    assert!(g.is_forfeited("Bo"));
}

#[test]
fn forfeit_of_an_earlier_seat_keeps_the_current_player() {
    let mut g = game(SMALL, &["Ana", "Bo", "Cy"], &[1, 1, 1], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    assert_eq!(g.current(), Some("Cy"));
    g.forfeit("Ana").unwrap();
    assert_eq!(g.current(), Some("Cy"));
    assert_eq!(turn(&mut g).next_player(), Some("Bo"));
}

#[test]
fn the_last_one_standing_wins_and_a_second_forfeit_changes_nothing() {
    let mut g = game(SMALL, &["Ana", "Bo", "Cy"], &[4], Finish::FirstWinner);
    turn(&mut g);
    assert!(g.forfeit("Bo").unwrap());
    let before = (g.history().len(), g.ranking());
    assert!(!g.forfeit("Bo").unwrap());
    assert_eq!((g.history().len(), g.ranking()), before);
    assert!(g.forfeit("Ana").unwrap());
    assert_eq!(
        g.status(),
        &Status::Won {
            winner: "Cy".into()
        }
    );
    let r: Vec<(usize, String, Placing)> = g
        .ranking()
        .into_iter()
        .map(|s| (s.place, s.player, s.how))
        .collect();
    assert_eq!(
        r,
        [
            (1, "Cy".into(), Placing::LastStanding),
            (2, "Ana".into(), Placing::Forfeited),
            (3, "Bo".into(), Placing::Forfeited),
        ]
    );
    assert_eq!(g.position_of("Ana"), Some(sq(4)));
    // Still nothing for a player already gone, even after the end.
    assert!(!g.forfeit("Bo").unwrap());
    assert_eq!(
        g.forfeit("Cy"),
        Err(GameError::AlreadyFinished {
            player: "Cy".into()
        })
    );
    assert_eq!(
        g.forfeit("Zed"),
        Err(GameError::UnknownPlayer {
            player: "Zed".into()
        })
    );
}

#[test]
fn all_players_leaving_at_once_aborts_the_game() {
    let mut g = game(SMALL, &["Ana", "Bo"], &[4], Finish::FirstWinner);
    assert!(g.forfeit_all(&["Ana", "Bo"]).unwrap());
    assert_eq!(g.status(), &Status::Aborted);
    assert_eq!(g.current(), None);
    assert_eq!(g.roll(), Err(GameError::GameOver));
    assert!(g.ranking().iter().all(|s| s.how == Placing::Forfeited));
}

#[test]
fn a_forfeit_after_the_game_is_over_is_refused() {
    let json = r#"{"squares": 10, "ladders": [[2, 10]]}"#;
    let mut g = game(json, &["Ana", "Bo", "Cy"], &[2], Finish::FirstWinner);
    turn(&mut g);
    assert_eq!(g.forfeit("Bo"), Err(GameError::GameOver));
    assert!(!g.is_forfeited("Bo"));
}

#[test]
fn bad_rolls_are_errors_and_change_nothing() {
    let mut g = game(SMALL, &["Ana", "Bo"], &[7], Finish::FirstWinner);
    assert_eq!(
        g.roll(),
        Err(GameError::Impossible {
            roll: 7,
            min: 1,
            max: 6
        })
    );
    assert_eq!(g.roll(), Err(GameError::Exhausted { rolled: 1 }));
    assert_eq!((g.rolls_played(), g.current()), (0, Some("Ana")));
    assert!(g.history().is_empty());
    // A loaded die never rolls a zero-weight face: a scripted 2 is impossible.
    let json = r#"{"squares": 20, "rules": {"dice": {"weights": [1, 0, 1]}}}"#;
    let mut g = game(json, &["Ana", "Bo"], &[2, 3], Finish::FirstWinner);
    assert!(matches!(
        g.roll(),
        Err(GameError::Impossible { roll: 2, .. })
    ));
    assert_eq!(turn(&mut g).end(), sq(3));
}

#[test]
fn player_lists_are_checked() {
    let b = board(SMALL);
    let new = |players: Vec<String>| {
        Game::new(
            b.clone(),
            players,
            ScriptedDice::new([]),
            Finish::FirstWinner,
        )
        .map(|_| ())
    };
    assert_eq!(
        new(vec!["Ana".into()]),
        Err(GameError::TooFewPlayers { count: 1 })
    );
    assert_eq!(new(vec![]), Err(GameError::TooFewPlayers { count: 0 }));
    assert_eq!(
        new((0..101).map(|i| format!("p{i}")).collect()),
        Err(GameError::TooManyPlayers {
            count: 101,
            max: 100
        })
    );
    assert!(new((0..100).map(|i| format!("p{i}")).collect()).is_ok());
    assert_eq!(
        new(vec!["Ana".into(), " ".into()]),
        Err(GameError::EmptyPlayerId { seat: 2 })
    );
    assert!(matches!(
        new(vec!["Ana".into(), "x".repeat(65)]),
        Err(GameError::PlayerIdTooLong { .. })
    ));
    assert_eq!(
        new(vec!["Ana".into(), "Bo".into(), "Ana".into()]),
        Err(GameError::DuplicatePlayer {
            player: "Ana".into()
        })
    );
}

#[derive(Default)]
struct Log {
    turns: Vec<u64>,
    forfeits: Vec<Vec<String>>,
    ends: Vec<(Status, Vec<Standing>)>,
}

struct Listener(Arc<Mutex<Log>>);

impl Observer for Listener {
    fn on_roll(&mut self, turn: &RollResult) {
        self.0.lock().unwrap().turns.push(turn.number());
    }
    fn on_forfeit(&mut self, players: &[String]) {
        self.0.lock().unwrap().forfeits.push(players.to_vec());
    }
    fn on_game_over(&mut self, status: &Status, ranking: &[Standing]) {
        self.0
            .lock()
            .unwrap()
            .ends
            .push((status.clone(), ranking.to_vec()));
    }
}

#[test]
fn observers_hear_every_turn_forfeit_and_the_end_once() {
    let log = Arc::new(Mutex::new(Log::default()));
    let mut g = game(
        r#"{"squares": 10}"#,
        &["Ana", "Bo", "Cy"],
        &[6, 1, 4],
        Finish::FirstWinner,
    );
    g.observe(Box::new(Listener(log.clone())));
    turn(&mut g);
    turn(&mut g);
    g.forfeit("Cy").unwrap();
    turn(&mut g); // Ana 6 + 4 = 10 wins
    let log = log.lock().unwrap();
    assert_eq!(log.turns, [1, 2, 3]);
    assert_eq!(log.forfeits, [vec!["Cy".to_string()]]);
    assert_eq!(log.ends.len(), 1);
    assert_eq!(
        log.ends[0].0,
        Status::Won {
            winner: "Ana".into()
        }
    );
    assert_eq!(log.ends[0].1, g.ranking());
}

#[test]
fn a_record_replays_to_the_identical_game_and_catches_tampering() {
    let json = r#"{"squares": 30, "ladders": [[3, 20]], "snakes": [[25, 5]],
        "rules": {"extra_turn": {"on": 6, "forfeit_after": 3}, "overshoot": "bounce"}}"#;
    let rolls = [3, 6, 6, 6, 2, 4, 5, 6, 1, 1, 5, 4, 3, 2, 6, 5];
    let mut g = game(json, &["Ana", "Bo", "Cy"], &rolls, Finish::ToLast);
    turn(&mut g);
    turn(&mut g);
    g.forfeit("Cy").unwrap();
    while !g.status().is_over() {
        turn(&mut g);
    }
    let record = g.record();
    assert_eq!(record.seed, None);
    let text = record.to_json();
    let back = GameRecord::from_json(&text).unwrap();
    assert_eq!(back, record);
    let replayed = back.replay().unwrap();
    assert_eq!(replayed.history(), g.history());
    assert_eq!(replayed.ranking(), g.ranking());
    assert!(matches!(
        g.history()[2],
        Event::Forfeit { after_turn: 2, .. }
    ));

    // Change one recorded roll: the replay names the event where it diverges.
    let mut forged = record.clone();
    let Event::Roll(t) = &forged.events[0] else {
        panic!()
    };
    let mut value = serde_json::to_value(t).unwrap();
    value["end"] = serde_json::json!(21);
    forged.events[0] = Event::Roll(serde_json::from_value(value).unwrap());
    assert!(matches!(
        forged.replay(),
        Err(GameError::Diverged { event: 0, .. })
    ));

    let mut moved = record.clone();
    moved.events.swap(2, 3);
    assert!(moved.replay().is_err());

    let mut future = serde_json::to_value(&record).unwrap();
    future["format"] = serde_json::json!(99);
    assert!(matches!(
        GameRecord::from_json(&future.to_string()),
        Err(GameError::RecordFormat { found: 99 })
    ));
    assert!(matches!(
        GameRecord::from_json("{"),
        Err(GameError::RecordJson { .. })
    ));
}

/// A record whose fields have the wrong type is refused in the record's
/// words: the field, what it must be and what it holds; never a Rust type.
#[test]
fn record_type_errors_name_the_field_in_the_records_words() {
    let mut g = game(
        r#"{"squares": 10}"#,
        &["Ana", "Bo"],
        &[6, 1, 4],
        Finish::FirstWinner,
    );
    g.play_out(10).unwrap();
    let record = serde_json::to_value(g.record()).unwrap();
    let cases: [(&str, serde_json::Value, &str); 6] = [
        (
            "/events/0/turn/roll",
            serde_json::json!("five"),
            "`events[0].turn.roll` must be a whole number the dice can roll, not the text \"five\"",
        ),
        (
            "/seed",
            serde_json::json!(-1),
            "`seed` must be a whole number from 0 to 18,446,744,073,709,551,615, or null, not -1",
        ),
        (
            "/players",
            serde_json::json!("Ana"),
            "`players` must be a list of player names, not the text \"Ana\"",
        ),
        (
            "/board/squares",
            serde_json::json!(1.5),
            "`board.squares` must be a whole number from 2 to 10,000,000, not 1.5",
        ),
        (
            "/events/1/turn/finished",
            serde_json::json!(0),
            "`events[1].turn.finished` must be true or false, not 0",
        ),
        (
            "",
            serde_json::json!([]),
            "a game record must be a JSON object",
        ),
    ];
    for (pointer, value, expected) in cases {
        let mut bad = record.clone();
        *bad.pointer_mut(pointer).unwrap() = value;
        let message = match GameRecord::from_json(&bad.to_string()) {
            Err(e @ GameError::RecordJson { .. }) => e.to_string(),
            other => panic!("{pointer}: {other:?}"),
        };
        assert!(message.contains(expected), "{pointer}: {message}");
        for rust in [
            "i64",
            "u64",
            "u32",
            "struct",
            "Vec<",
            "GameRecord",
            "expected",
        ] {
            assert!(!message.contains(rust), "{pointer}: {message}");
        }
    }
}

/// A record the rules disagree with is named in words a newcomer reads
/// right: the roll is `a 5`, squares are `square N`, and the rules' path
/// (the ladder taken) is spelled out; a misplaced forfeit counts rolls,
/// as the record does.
#[test]
fn replay_mismatches_read_as_rolls_and_squares() {
    let json = r#"{"squares": 50, "ladders": [[5, 38]]}"#;
    let mut g = game(json, &["Ana", "Bo"], &[5, 2, 1], Finish::FirstWinner);
    turn(&mut g);
    turn(&mut g);
    g.forfeit("Bo").unwrap();
    let record = g.record();

    let mut forged = record.clone();
    let Event::Roll(t) = &forged.events[0] else {
        panic!()
    };
    let mut value = serde_json::to_value(t).unwrap();
    value["end"] = serde_json::json!(5);
    value["jumps"] = serde_json::json!([]);
    forged.events[0] = Event::Roll(serde_json::from_value(value).unwrap());
    assert_eq!(
        forged.replay().err().unwrap().to_string(),
        "roll 1 (Ana's turn): the record says Ana rolled 5 and moved from the start to \
         square 5, but by the board's rules a 5 from the start reaches square 5, then the \
         ladder to square 38"
    );

    let mut late = serde_json::to_value(&record).unwrap();
    late["events"][2]["forfeit"]["after_turn"] = serde_json::json!(5);
    let late = GameRecord::from_json(&late.to_string()).unwrap();
    assert_eq!(
        late.replay().err().unwrap().to_string(),
        "event 3: the record has players leaving after roll 5, but the replay reaches that \
         event after roll 2"
    );
}
