//! Outputs that list a figure per seat stay readable with many players:
//! past six seats the report's seat odds are one row per seat (a column per
//! player count), and `play --odds` wraps its line under the first player,
//! so neither grows a column or a line per seat.

use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The Markdown report's section "Several players".
fn players_section(md: &str) -> &str {
    let from = md.find("## Several players").expect("a players section");
    let to = md[from..]
        .find("\n## Snakes")
        .map_or(md.len(), |n| from + n);
    &md[from..to]
}

/// Widest line of a Markdown table of the default players (2 to 6): the
/// width no other seat table may pass.
fn default_width() -> usize {
    let md = run(&["report", "--format", "markdown"]);
    players_section(&md)
        .lines()
        .map(|l| l.chars().count())
        .max()
        .unwrap()
}

#[test]
fn many_seats_are_rows_of_the_markdown_report() {
    let most = default_width();
    for players in ["100", "2,3,50", "2,3,4,5,6,7,8,9,10,11,12,13,14"] {
        let md = run(&["report", "--format", "markdown", "--players", players]);
        let section = players_section(&md);
        for line in section.lines() {
            assert!(line.chars().count() <= most, "--players {players}: {line}");
        }
        // Every seat of the largest count has its row, and every count its
        // expected total turns.
        let largest: usize = players
            .split(',')
            .map(|p| p.parse().unwrap())
            .max()
            .unwrap();
        let last_seat = format!("\n| {largest} |");
        assert!(
            section.contains(&last_seat),
            "--players {players}: {section}"
        );
        for count in players.split(',') {
            assert!(
                section.contains(&format!("| {count} players |"))
                    || section.contains(&format!(" {count} players |")),
                "--players {players}: {count}"
            );
        }
    }
    // Six seats or fewer keep one row per player count.
    let md = run(&["report", "--format", "markdown", "--players", "2,6"]);
    assert!(players_section(&md).contains("| players | seat 1 |"));
}

#[test]
fn the_seat_table_in_html_has_a_row_per_seat() {
    let html = run(&["report", "--format", "html", "--players", "2,3,50"]);
    let table = html
        .split("<table class=\"sl-seats")
        .nth(1)
        .expect("a seats table");
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(table.matches("<th scope=\"col\">").count(), 4, "{table}");
    // Every seat a row, the first 20 on show and the rest folded.
    assert_eq!(html.matches("<td data-label=\"seat\">").count(), 50);
    assert!(html.contains("<summary>30 more seats</summary>"));
}

#[test]
fn odds_of_a_hundred_players_fit_eighty_columns() {
    let players: Vec<String> = (1..=100).map(|i| format!("P{i}")).collect();
    // The first 150 rolls (exit 3 at --max-turns): enough lines of odds.
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args([
            "play",
            "--players",
            &players.join(","),
            "--seed",
            "3",
            "--odds",
        ])
        .args(["--max-turns", "150"])
        .output()
        .unwrap();
    let t = String::from_utf8(out.stdout).unwrap();
    let mut odds = 0;
    // The header names every player; each other line fits a terminal.
    for line in t.lines().skip(1) {
        assert!(line.chars().count() <= 80, "{line}");
        odds += usize::from(line.starts_with("  odds: "));
    }
    assert!(odds > 1);
    // The first odds, before any roll: every player's, summing to one.
    let first: Vec<&str> = t
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    let shares: f64 = first
        .join(" ")
        .split('%')
        .filter_map(|p| p.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(first.join(" ").matches('%').count(), 100);
    assert!((shares - 100.0).abs() < 5.0, "{shares}");
}
