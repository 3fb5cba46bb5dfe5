//! Online tables under concurrent load: a turn is played at most once, and
//! every table ends consistent.

use snakeladder::{Board, Event, Finish, Game, RollResult, Seed, SeededDice, Square};
use snakeladder_serve::table::{GameId, Registry, RollAnswer, Table};
use std::collections::HashMap;
use std::sync::{Arc, Barrier};
use std::thread;

#[test]
fn sixteen_threads_racing_for_one_turn_get_one_ok_and_fifteen_stale() {
    let board = Arc::new(Board::builtin_default());
    // Repeat the race on fresh tables so the threads really meet on the lock.
    for round in 0..20 {
        let game = Game::seeded(
            board.clone(),
            ["Ana", "Bo"],
            Seed::new(round),
            Finish::FirstWinner,
        )
        .unwrap();
        let table = Arc::new(Table::new(game));
        let barrier = Arc::new(Barrier::new(16));
        let answers: Vec<RollAnswer> = (0..16)
            .map(|_| {
                let (table, barrier) = (table.clone(), barrier.clone());
                thread::spawn(move || {
                    barrier.wait();
                    table.roll("Ana", 0).unwrap()
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        let oks = answers
            .iter()
            .filter(|a| matches!(a, RollAnswer::Ok { roll_number: 1, .. }))
            .count();
        let stale = answers
            .iter()
            .filter(|a| **a == RollAnswer::Stale { roll_number: 1 })
            .count();
        assert_eq!((oks, stale), (1, 15), "round {round}: {answers:?}");
        assert_eq!(table.snapshot().roll_number, 1);
    }
}

#[test]
fn requests_are_checked_stale_then_over_then_turn() {
    let board = Arc::new(Board::from_json_str(r#"{"squares": 10, "ladders": [[2, 10]]}"#).unwrap());
    let dice = snakeladder::ScriptedDice::new([1, 1, 1]);
    let table = Table::new(Game::new(board, ["Ana", "Bo"], dice, Finish::FirstWinner).unwrap());
    assert_eq!(
        table.roll("Bo", 0).unwrap(),
        RollAnswer::NotYourTurn { roll_number: 0 }
    );
    assert_eq!(
        table.roll("Zed", 0).unwrap(),
        RollAnswer::NotYourTurn { roll_number: 0 }
    );
    assert_eq!(
        table.roll("Ana", 5).unwrap(),
        RollAnswer::Stale { roll_number: 0 }
    );
    assert!(matches!(
        table.roll("Ana", 0).unwrap(),
        RollAnswer::Ok { roll_number: 1, .. }
    ));
    // Bo 1 → 1, Ana 1 → 2, ladder to 10: won.
    assert!(matches!(
        table.roll("Bo", 1).unwrap(),
        RollAnswer::Ok { roll_number: 2, .. }
    ));
    assert!(matches!(
        table.roll("Ana", 2).unwrap(),
        RollAnswer::Ok { roll_number: 3, .. }
    ));
    assert_eq!(
        table.roll("Bo", 3).unwrap(),
        RollAnswer::GameOver { roll_number: 3 }
    );
    assert_eq!(
        table.roll("Bo", 2).unwrap(),
        RollAnswer::Stale { roll_number: 3 }
    );
    let snap = table.snapshot();
    assert_eq!(snap.current, None);
    assert_eq!(
        snap.positions,
        [
            ("Ana".to_string(), Square::new(10)),
            ("Bo".to_string(), Square::new(1))
        ]
    );
}

/// Tables in the registry test and threads driving them: enough to make
/// threads contend on the registry and on tables, small enough to run in a
/// second or two in the dev profile.
const TABLES: u64 = 2_000;
const THREADS: usize = 8;

#[test]
fn thousands_of_tables_driven_from_several_threads_stay_consistent() {
    let board = Arc::new(Board::builtin_default());
    let registry: Arc<Registry<SeededDice>> = Arc::new(Registry::new());
    for id in 0..TABLES {
        let players = ["Ana", "Bo", "Cy"];
        let game = Game::seeded(board.clone(), players, Seed::new(id), Finish::ToLast).unwrap();
        registry.open(GameId(id), game).unwrap();
    }
    assert!(
        registry
            .open(
                GameId(0),
                Game::seeded(board.clone(), ["A", "B"], Seed::new(0), Finish::ToLast).unwrap()
            )
            .is_err()
    );
    assert_eq!(registry.len(), TABLES as usize);

    // Every thread plays every table: it reads a snapshot and asks to roll
    // for whoever is to roll, as a client who saw that snapshot. Threads
    // race, so many requests come back stale; each keeps the turns it won.
    let handles: Vec<_> = (0..THREADS)
        .map(|k| {
            let registry = registry.clone();
            thread::spawn(move || {
                let mut won: Vec<(GameId, RollResult)> = Vec::new();
                let mut stale = 0u64;
                // Each thread walks the tables from its own offset.
                for i in 0..TABLES {
                    let id = GameId((i + k as u64 * TABLES / THREADS as u64) % TABLES);
                    let table = registry.get(id).unwrap();
                    loop {
                        let snap = table.snapshot();
                        let Some(current) = snap.current else { break };
                        match table.roll(&current, snap.roll_number).unwrap() {
                            RollAnswer::Ok {
                                result: turn,
                                roll_number,
                            } => {
                                assert_eq!(turn.number(), roll_number);
                                won.push((id, turn));
                            }
                            RollAnswer::Stale { .. } => stale += 1,
                            RollAnswer::GameOver { .. } => break,
                            RollAnswer::NotYourTurn { .. } => {
                                panic!("{id}: {current} was to roll at turn {}", snap.roll_number)
                            }
                        }
                    }
                }
                (won, stale)
            })
        })
        .collect();
    let mut by_table: HashMap<GameId, Vec<RollResult>> = HashMap::new();
    for h in handles {
        let (won, _stale) = h.join().unwrap();
        for (id, t) in won {
            by_table.entry(id).or_default().push(t);
        }
    }
    assert_eq!(by_table.len(), TABLES as usize);
    for id in registry.ids() {
        let table = registry.get(id).unwrap();
        let record = table.record();
        let snap = table.snapshot();
        assert!(snap.status.is_over(), "{id} unfinished");
        let history: Vec<&RollResult> = record
            .events
            .iter()
            .map(|e| match e {
                Event::Roll(t) => t,
                Event::Forfeit { .. } => panic!("no one forfeited"),
            })
            .collect();
        // One record per turn: the turns the clients were told they won are
        // exactly the table's history, each once.
        let mut won = by_table.remove(&id).unwrap();
        won.sort_by_key(RollResult::number);
        assert_eq!(won.iter().collect::<Vec<_>>(), history, "{id}");
        // Gap-free turn numbers.
        for (i, t) in history.iter().enumerate() {
            assert_eq!(t.number(), i as u64 + 1, "{id}");
        }
        assert_eq!(snap.roll_number, history.len() as u64);
        // Every square is where that player's last turn ended.
        for (player, square) in &snap.positions {
            let last = history.iter().rev().find(|t| t.player() == player).unwrap();
            assert_eq!(last.end(), *square, "{id} {player}");
        }
        // And the whole game is the one its seed plays alone.
        let replayed = record.replay().unwrap();
        assert_eq!(replayed.rolls_played(), snap.roll_number);
    }
}

#[test]
fn snapshots_see_whole_turns_while_others_roll() {
    // Rollers race through one long game while readers take snapshots; each
    // snapshot must match the history cut at its turn number exactly.
    let board = Arc::new(Board::builtin_default());
    let players: Vec<String> = (0..6).map(|i| format!("P{i}")).collect();
    let game = Game::seeded(board, players.clone(), Seed::new(11), Finish::ToLast).unwrap();
    let table = Arc::new(Table::new(game));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let rollers: Vec<_> = (0..3)
        .map(|_| {
            let table = table.clone();
            thread::spawn(move || {
                loop {
                    let snap = table.snapshot();
                    let Some(current) = snap.current else { break };
                    table.roll(&current, snap.roll_number).unwrap();
                }
            })
        })
        .collect();
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let (table, done) = (table.clone(), done.clone());
            thread::spawn(move || {
                let mut seen = Vec::new();
                // At least one snapshot each, however the threads are scheduled.
                loop {
                    seen.push(table.snapshot());
                    if done.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                }
                seen
            })
        })
        .collect();
    for h in rollers {
        h.join().unwrap();
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let snapshots: Vec<_> = readers
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    let history: Vec<RollResult> = table
        .record()
        .events
        .into_iter()
        .map(|e| match e {
            Event::Roll(t) => t,
            Event::Forfeit { .. } => unreachable!(),
        })
        .collect();
    assert!(history.len() > 100, "a 6-player game to the last is long");
    for snap in &snapshots {
        let cut = &history[..snap.roll_number as usize];
        let mut squares = vec![Square::OFF_BOARD; players.len()];
        for t in cut {
            squares[t.seat()] = t.end();
        }
        let expect: Vec<(String, Square)> = players.iter().cloned().zip(squares).collect();
        assert_eq!(snap.positions, expect, "turn {}", snap.roll_number);
        let current = cut.last().map_or(Some("P0"), |t| t.next_player());
        assert_eq!(
            snap.current.as_deref(),
            current,
            "turn {}",
            snap.roll_number
        );
        assert_eq!(
            snap.status.is_over(),
            snap.roll_number == history.len() as u64
        );
    }
}
