//! `play --odds`: live exact odds between turns.

use std::process::Command;

fn play(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .arg("play")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn odds_lines(transcript: &str) -> Vec<Vec<f64>> {
    transcript
        .lines()
        .filter_map(|l| l.strip_prefix("  odds: "))
        .map(|l| {
            l.split(", ")
                .map(|p| {
                    p.rsplit(' ')
                        .next()
                        .unwrap()
                        .trim_end_matches('%')
                        .parse()
                        .unwrap()
                })
                .collect()
        })
        .collect()
}

#[test]
fn opening_odds_are_the_published_seat_odds() {
    let t = play(&["--players", "Ana,Bo", "--seed", "42", "--odds"]);
    // Before any roll the odds are the seat odds of two players on the
    // default board: the first seat wins with probability 0.507803.
    assert_eq!(t.lines().nth(1), Some("  odds: Ana 50.8%, Bo 49.2%"));
}

#[test]
fn odds_follow_every_turn_until_someone_finishes() {
    let t = play(&["--players", "Ana,Bo,Cy", "--seed", "7", "--odds"]);
    let rolls = t.lines().filter(|l| l.contains(" rolled ")).count();
    let odds = odds_lines(&t);
    // One line before the first roll and one after each roll but the winning one.
    assert_eq!(odds.len(), rolls);
    for line in &odds {
        assert_eq!(line.len(), 3);
        let total: f64 = line.iter().sum();
        // Each figure is rounded to 0.1%, so three of them sum to 100 ± 0.15.
        assert!((total - 100.0).abs() <= 0.15 + 1e-9, "{line:?}");
    }
}

#[test]
fn no_odds_between_the_rolls_of_one_turn() {
    let board = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/engine-house-rules.json"
    );
    let t = play(&[board, "--players", "Ana,Bo", "--seed", "290", "--odds"]);
    let lines: Vec<&str> = t.lines().collect();
    let mut bonus = 0;
    for pair in lines.windows(2) {
        if pair[0].contains("rolls again") {
            bonus += 1;
            assert!(!pair[1].starts_with("  odds:"), "{}\n{}", pair[0], pair[1]);
        }
    }
    assert!(bonus > 0, "the seeded game has bonus rolls:\n{t}");
}

/// On a board whose race the per-line work budget cannot decide (100,000
/// squares: games of about 28,600 turns, while 1e9 multiply-adds follow
/// about 1,700), the odds say so once and stop, instead of spending the
/// budget again after every one of the game's tens of thousands of turns.
#[test]
fn undecidable_odds_are_given_up_once() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("long.json");
    std::fs::write(&board, r#"{"squares": 100000}"#).unwrap();
    let t = play(&[
        "--players",
        "Ana,Bo",
        "--seed",
        "3",
        "--odds",
        board.to_str().unwrap(),
    ]);
    let odds: Vec<&str> = t.lines().filter(|l| l.starts_with("  odds: ")).collect();
    assert_eq!(odds.len(), 1, "{odds:?}");
    assert!(
        odds[0].starts_with("  odds: not computed (after ")
            && odds[0].ends_with("no more odds lines in this game"),
        "{}",
        odds[0]
    );
    // The game itself is played to its end.
    assert!(t.lines().filter(|l| l.contains(" rolled ")).count() > 10_000);
    assert!(t.contains("Ranking:"));
}

/// 52 squares and 38 snakes to square 1 (a mean of ten billion turns),
/// eight players: the line of odds says it was not computed, within its
/// budget and under a 200 MiB address-space cap. Each player's distribution
/// was stored for ten million turns (1.3 GB for eight) and the race's
/// products were not counted in the line's work (issue 27: the line took
/// minutes on a loaded machine).
#[test]
fn odds_of_many_players_on_a_board_of_long_games_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("snakes.json");
    let snakes: Vec<String> = (2..52)
        .filter(|s| s % 4 != 0)
        .take(38)
        .map(|s| format!("[{s}, 1]"))
        .collect();
    std::fs::write(
        &board,
        format!(r#"{{"squares": 52, "snakes": [{}]}}"#, snakes.join(",")),
    )
    .unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 204800 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_snakeladder"))
        .args(["play", "--players", "A,B,C,D,E,F,G,H", "--seed", "1"])
        .args(["--odds", "--max-turns", "20", board.to_str().unwrap()])
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    // Stopped by --max-turns (exit 3), not by the memory cap.
    assert_eq!(out.status.code(), Some(3), "{t}");
    let odds: Vec<&str> = t.lines().filter(|l| l.starts_with("  odds: ")).collect();
    assert_eq!(odds.len(), 1, "{odds:?}");
    assert!(
        odds[0].starts_with("  odds: not computed (after "),
        "{}",
        odds[0]
    );
}

/// `--odds` works with every format `play` offers: `--format text` prints
/// the same transcript as no `--format`, and `--format json` lists the very
/// odds the transcript prints (one entry a line, rounded alike), for a game
/// played and for its replay.
#[test]
fn odds_in_every_format() {
    let game = ["--players", "Ana,Bo,Cy", "--seed", "7", "--odds"];
    let text = play(&game);
    assert_eq!(play(&[&game[..], &["--format", "text"]].concat()), text);
    let printed = odds_lines(&text);

    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.json");
    let record = record.to_str().unwrap();
    let json = play(&[&game[..], &["--format", "json", "--record", record]].concat());
    let replayed = play(&["--replay", record, "--odds", "--format", "json"]);
    for doc in [&json, &replayed] {
        let doc: serde_json::Value = serde_json::from_str(doc).unwrap();
        let odds = doc["odds"].as_array().expect("an odds list");
        assert_eq!(odds.len(), printed.len());
        for (line, shown) in odds.iter().zip(&printed) {
            let win: Vec<f64> = line["win"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .collect();
            let rounded: Vec<f64> = win.iter().map(|p| (p * 1000.0).round() / 10.0).collect();
            assert_eq!(&rounded, shown);
            assert!((win.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{win:?}");
        }
        assert_eq!(odds[0]["rolls"], 0);
    }
    // Without --odds the key is there, and null.
    let plain: serde_json::Value = serde_json::from_str(&play(&[
        "--players",
        "Ana,Bo",
        "--seed",
        "7",
        "--format",
        "json",
    ]))
    .unwrap();
    assert!(plain["odds"].is_null());
}
