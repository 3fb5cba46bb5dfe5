//! Analysis reports for people: Markdown, and self-contained HTML with charts.
//!
//! Both render an [`Analysis`] of a [`Board`]; neither computes anything of
//! its own. The HTML page embeds its charts as inline SVG and its style
//! inline, so it is one file that opens anywhere, offline (its
//! Content-Security-Policy forbids any request). It reads from phone width
//! to print: each chart is drawn at a wide and a narrow [`charts::Size`] and
//! the page shows the one that fits; on a phone a wide table becomes one
//! card per row, a long table folds all but its first rows behind a
//! `<details>`, and every table sorts by a column (`tables`); light and
//! dark colour schemes follow the system.
//!
//! The parts are library functions other pages can reuse:
//! [`charts::board_svg`] draws a board, [`charts`] draws the length
//! distribution and bar charts, `text` formats numbers and escapes
//! file-derived text, [`cross`] runs a simulation beside the exact figures.
//! A report never drops a section silently: [`omissions`] lists what it
//! leaves out, and the document says so too.
//!
//! The public face is [`Report`]; [`charts`] (with the board drawing) and
//! [`CrossCheck`](cross::CrossCheck) are public too.

pub(crate) mod board;
pub mod charts;
pub mod cross;
mod html;
mod levers;
mod markdown;
pub(crate) mod marks;
pub(crate) mod tables;
pub(crate) mod text;

use crate::probability_text;
use crate::vocabulary;
use charts::{Bar, BarKind, ChartError, Size};
use cross::CrossCheck;
use snakeladder::Analysis;
use snakeladder::analysis::Figure;
use snakeladder::analysis::JumpFigures;
use snakeladder::design::Sensitivity;
use snakeladder::{Board, JumpKind};
use std::fmt::Write;

/// Squares listed in the "most visited" table.
const TOP_SQUARES: usize = 10;
/// The length chart shows t up to where this much probability is covered
/// (and at least to the 99th percentile).
const CHART_MASS: f64 = 0.999;
/// Jumps drawn in the jump-use chart: the most used; the table lists more.
pub const CHART_JUMPS: usize = 15;
/// Rows of the jumps table. A board of a million squares has hundreds of
/// thousands of jumps: the table keeps the most used, in board order, and
/// says how many it leaves to `analyze --format json`, so a report stays a
/// few megabytes at most.
pub const TABLE_JUMPS: usize = 1_000;

/// A part of a report left out, and why: named in the document itself,
/// and by the CLI on standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Omission {
    /// The section or figure left out.
    pub section: &'static str,
    /// Why, with what it would have cost and the flag that allows it.
    pub reason: String,
}

impl std::fmt::Display for Omission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} left out: {}", self.section, self.reason)
    }
}

/// A chart written beside a Markdown report.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartFile {
    /// The file name (`<stem>-length.svg`), relative to the report.
    pub name: String,
    /// The SVG document.
    pub svg: String,
}

/// A rendered report: the document, the chart files a Markdown document
/// links to (none for HTML, whose charts are inline), and what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The Markdown or HTML text.
    pub document: String,
    /// Charts to write beside a Markdown document.
    pub files: Vec<ChartFile>,
    /// Sections left out (large boards), each named in the document too.
    pub omitted: Vec<Omission>,
}

/// The analysis of a board as a document: Markdown, or one self-contained
/// HTML page with charts.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, Board, Options};
/// use snakeladder_render::Report;
///
/// let board = Board::builtin_default();
/// let analysis = Analysis::new(&board, &Options::default())?;
/// let report = Report::new(&board, &analysis);
/// assert!(report.markdown().contains("| mean | 39.598"));
/// let html = report.html();
/// assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg"));
/// # Ok::<(), snakeladder::AnalysisError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    board: &'a Board,
    analysis: &'a Analysis,
    cross: Option<&'a CrossCheck>,
    sensitivity: Option<&'a Sensitivity>,
}

impl<'a> Report<'a> {
    /// The report of `analysis`, which must be the analysis of `board`.
    pub fn new(board: &'a Board, analysis: &'a Analysis) -> Report<'a> {
        Report {
            board,
            analysis,
            cross: None,
            sensitivity: None,
        }
    }

    /// Adds a section with a simulation beside the exact figures.
    pub fn with_cross_check(self, cross: &'a CrossCheck) -> Report<'a> {
        Report {
            cross: Some(cross),
            ..self
        }
    }

    /// Adds a section ranking the single changes to one jump by their
    /// effect on the mean length (and the first seat's advantage, when the
    /// sensitivity has it), after the jumps: what a designer would change.
    /// `sensitivity` must be [`design::sensitivity`](snakeladder::design::sensitivity)
    /// of the report's board.
    pub fn with_sensitivity(self, sensitivity: &'a Sensitivity) -> Report<'a> {
        Report {
            sensitivity: Some(sensitivity),
            ..self
        }
    }

    /// The report as Markdown, without chart files.
    pub fn markdown(&self) -> String {
        self.render_markdown(None).document
    }

    /// The report as one self-contained HTML page (inline SVG charts, no
    /// external requests).
    pub fn html(&self) -> String {
        self.render_html().document
    }

    /// The report as Markdown; with `stem`, it links its charts as SVG
    /// files beside it (`<stem>-length.svg`, `<stem>-board.svg`,
    /// `<stem>-seats.svg`, `<stem>-jumps.svg`, `<stem>-levers.svg` with a
    /// sensitivity, those that can be drawn),
    /// returned in [`Rendered::files`] for the caller to write.
    pub fn render_markdown(&self, stem: Option<&str>) -> Rendered {
        let omitted = omissions(self.board, self.analysis);
        let mut md = String::new();
        let mut files = Vec::new();
        // Writing to a String cannot fail.
        let _ = markdown::write_markdown(&mut md, &mut files, self, stem, &omitted);
        Rendered {
            document: md,
            files,
            omitted,
        }
    }

    /// The report as HTML, with the list of what was left out.
    pub fn render_html(&self) -> Rendered {
        let omitted = omissions(self.board, self.analysis);
        let mut page = String::new();
        // Writing to a String cannot fail.
        let _ = html::write_html(&mut page, self, &omitted);
        Rendered {
            document: page,
            files: Vec::new(),
            omitted,
        }
    }

    /// What the report leaves out: figures the analysis skipped past a
    /// limit, a board too large to draw, jumps the table cannot list.
    pub fn omissions(&self) -> Vec<Omission> {
        omissions(self.board, self.analysis)
    }
}

/// What a report of `a` leaves out, in the order of its sections: figures
/// the analysis skipped past a limit, a board too large to draw, jumps the
/// table cannot list.
pub fn omissions(board: &Board, a: &Analysis) -> Vec<Omission> {
    let mut out: Vec<Omission> = a
        .skipped
        .iter()
        .map(|skip| Omission {
            section: match skip.figure {
                Figure::Distribution => "the length distribution, its quantiles and chart",
                Figure::Players => "the section on several players",
                Figure::RestProbabilities => "the P(ever rests there) column of the squares",
                Figure::Jumps => "the section on snakes and ladders",
                Figure::Squares => "the list of squares",
                Figure::ExactTies => "the exact decision of near-ties in the mode and quantiles",
            },
            reason: skip.to_string(),
        })
        .collect();
    let n = board.last().get();
    if n > board::MAX_DRAWN_SQUARES {
        out.push(Omission {
            section: "the drawing of the board",
            reason: format!(
                "the board has {n} squares, more than the {} a drawing shows (no flag draws more)",
                board::MAX_DRAWN_SQUARES
            ),
        });
    }
    if a.jumps.len() > TABLE_JUMPS {
        out.push(Omission {
            section: "part of the jumps table",
            reason: format!(
                "it lists the {TABLE_JUMPS} most used of {} jumps; snakeladder analyze --format json gives every one",
                a.jumps.len()
            ),
        });
    }
    out
}

/// The title of the sensitivity section.
const LEVERS: &str = "What one change to one jump does";

const BOARD_NOTE: &str = "Ladders in green (a dot at the foot, where one is taken), snakes in red (the head where one is met); each square shaded by the expected number of times a player's turn ends there.";

fn board_title(a: &Analysis) -> String {
    format!("The board: {}", text::visible(title(a)))
}

/// The figures a pointer shows over the board, and the shading: expected
/// rests on each square.
fn overlay(board: &Board, a: &Analysis) -> board::Overlay {
    let size = board.last().index() + 1;
    let mut shade = vec![0.0; size];
    let mut square_notes = vec![String::new(); size];
    for s in &a.squares {
        let i = s.square.index();
        if i >= size {
            continue;
        }
        shade[i] = s.expected_rests;
        let mut note = format!(
            "square {}: {} {}",
            s.square,
            vocabulary::SQUARE_RESTS.format(s.expected_rests),
            vocabulary::SQUARE_RESTS.name
        );
        if let Some(p) = s.rest_probability {
            let ever = vocabulary::SQUARE_EVER_RESTS;
            let _ = write!(note, " · {} {}", ever.name, ever.format(p));
        }
        if let Some(t) = s.turns_left {
            let _ = write!(note, " · {} turns left", crate::numbers::quantity(t, 2));
        }
        square_notes[i] = note;
    }
    for j in board.jumps() {
        let i = j.from().index();
        if i < size && square_notes[i].is_empty() {
            square_notes[i] = format!(
                "square {}: where {} {}→{} starts; no turn ends here",
                j.from(),
                j.kind(),
                j.from(),
                j.to()
            );
        }
    }
    let last = board.last().index();
    if last < size && square_notes[last].is_empty() {
        square_notes[last] = format!("square {}: the finish", board.last());
    }
    let jump_notes = board
        .jumps()
        .iter()
        .map(|j| {
            a.jumps
                .iter()
                .find(|f| f.from == j.from())
                .map_or_else(|| j.to_string(), jump_note)
        })
        .collect();
    board::Overlay {
        shade: Some(shade),
        square_notes,
        jump_notes,
        jump_marks: Vec::new(),
    }
}

fn jump_note(j: &JumpFigures) -> String {
    let mut note = format!(
        "{} {}→{}: {} {} · {} {}",
        j.kind,
        j.from,
        j.to,
        vocabulary::JUMP_USES.format(j.expected_uses),
        vocabulary::JUMP_USES.name,
        vocabulary::JUMP_USED.name,
        vocabulary::JUMP_USED.format(j.use_probability)
    );
    match j.mean_turns_without {
        Some(w) => {
            let _ = write!(
                note,
                " · mean {} turns without it",
                crate::numbers::quantity(w, 2)
            );
        }
        None => note.push_str(" · without it a game may never end"),
    }
    note
}

/// Seat odds of the largest player count, as the difference from a fair
/// 1/k in percentage points.
fn seat_chart(a: &Analysis, size: Size) -> Option<Result<String, ChartError>> {
    let p = a
        .players
        .iter()
        .filter(|p| p.count > 1)
        .max_by_key(|p| p.count)?;
    let fair = 1.0 / f64::from(p.count);
    let bars: Vec<Bar> = p
        .win_probability
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let d = 100.0 * (w - fair);
            Bar {
                label: format!("seat {}", i + 1),
                value: d,
                note: if size.width < 500 {
                    points(d)
                } else {
                    format!("{} ({:.2}%)", points(d), 100.0 * w)
                },
                kind: if d >= 0.0 {
                    BarKind::Ladder
                } else {
                    BarKind::Snake
                },
            }
        })
        .collect();
    let title = if size.width < 500 {
        format!("Who wins, {} players: vs fair 1/{}", p.count, p.count)
    } else {
        format!(
            "Who wins, {} players: difference from fair (1/{} = {:.2}%)",
            p.count,
            p.count,
            100.0 * fair
        )
    };
    Some(charts::bar_chart(
        &title,
        &bars,
        "percentage points from fair",
        size,
    ))
}

/// A difference in percentage points, with its sign.
fn points(d: f64) -> String {
    if d.abs() >= 0.01 || d == 0.0 {
        format!("{d:+.2} pp")
    } else {
        format!("{} pp", text::signed(d))
    }
}

/// The most used jumps, coloured by kind.
fn jump_chart(a: &Analysis, size: Size) -> Result<String, ChartError> {
    let mut jumps: Vec<&JumpFigures> = a.jumps.iter().collect();
    jumps.sort_by(|x, y| y.expected_uses.total_cmp(&x.expected_uses));
    let shown = jumps.len().min(CHART_JUMPS);
    let bars: Vec<Bar> = jumps[..shown]
        .iter()
        .map(|j| Bar {
            label: format!("{}→{}", j.from, j.to),
            value: j.expected_uses,
            note: text::probability(j.expected_uses),
            kind: match j.kind {
                JumpKind::Ladder => BarKind::Ladder,
                JumpKind::Snake => BarKind::Snake,
            },
        })
        .collect();
    let title = match (shown < jumps.len(), size.width < 500) {
        (true, false) => format!(
            "Expected uses in one player's game: the {shown} most used of {}",
            jumps.len()
        ),
        (true, true) => format!("Uses per game: {shown} most used of {}", jumps.len()),
        (false, false) => "Expected uses in one player's game".to_string(),
        (false, true) => "Expected uses in one game".to_string(),
    };
    charts::bar_chart(
        &title,
        &bars,
        "expected uses (green ladder, red snake)",
        size,
    )
}

fn counts(a: &Analysis) -> String {
    format!(
        "{} · {} · {}",
        vocabulary::count(a.board.squares as usize, "square"),
        vocabulary::jump_counts(a.board.snakes, a.board.ladders, " · "),
        vocabulary::count(a.board.states, "state")
    )
}

fn title(a: &Analysis) -> &str {
    a.board.name.as_deref().unwrap_or("Unnamed board")
}

/// A table of figures, built once and written as Markdown or HTML.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Whether the first column holds numbers (right-aligned in Markdown).
    numeric_first: bool,
    /// What a row is, plural ("jumps"): names the rows an HTML table folds
    /// away (see [`tables`]).
    rows_are: &'static str,
    /// The table's name in its HTML class (`sl-jumps`).
    name: &'static str,
}

impl Table {
    fn new(header: &[&str], numeric_first: bool) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            numeric_first,
            rows_are: "rows",
            name: "figures",
        }
    }

    fn markdown(&self) -> String {
        let line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| text::markdown(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut md = line(&self.header);
        md += if self.numeric_first {
            "|---:|"
        } else {
            "|---|"
        };
        md += &"---:|".repeat(self.header.len().saturating_sub(1));
        md += "\n";
        for row in &self.rows {
            md += &line(row);
        }
        md
    }

    /// The table as HTML (see [`tables`] for its layout on a phone, its
    /// folding and its sorting).
    fn html(&self) -> String {
        tables::html(self.name, &self.header, &self.rows, self.rows_are)
    }
}

fn cross_table(c: &CrossCheck, a: &Analysis) -> Table {
    let mut table = Table::new(
        &["figure", "exact", "simulated", "standard error", "verdict"],
        false,
    );
    table.rows = c.rows(a);
    table.name = "cross-check";
    table.rows_are = "figures";
    table
}

fn length_table(a: &Analysis) -> Table {
    let t = &a.turns;
    let q = |v: Option<usize>| v.map_or_else(|| "–".to_string(), |v| v.to_string());
    let mut table = Table::new(&["figure", "turns", "rolls"], false);
    table.rows = vec![
        vec![
            "mean".into(),
            crate::numbers::quantity(t.mean, 4),
            crate::numbers::quantity(a.rolls.mean, 4),
        ],
        vec![
            "standard deviation".into(),
            crate::numbers::quantity(t.std_dev, 4),
            crate::numbers::quantity(a.rolls.variance.sqrt(), 4),
        ],
        vec!["minimum".into(), q(t.min), String::new()],
        vec!["mode".into(), q(t.mode), String::new()],
        vec!["median".into(), q(t.median), String::new()],
        vec![vocabulary::P90.name.into(), q(t.p90), String::new()],
        vec![vocabulary::P99.name.into(), q(t.p99), String::new()],
    ];
    table.name = "length";
    table.rows_are = "figures";
    table
}

/// Most seats the players table gives a column each: six seat columns and
/// three others fit a page or a Markdown preview; past that each player
/// count's row would run to a column per seat (a hundred for 100 players),
/// so the seats become rows instead ([`players_tables`]).
const SEAT_COLUMNS: usize = 6;

/// The player counts a table of seats as rows gives a column each (beside
/// the seat's own): more are split into further tables, so no table is
/// wider than the players table of six seats.
const COUNTS_PER_SEAT_TABLE: usize = 6;

/// The tables of the several-players section: one row per player count
/// with a column per seat, while at most [`SEAT_COLUMNS`] seats; past that
/// a table of the counts' whole-game figures, then the seat odds with one
/// row per seat and a column per player count (at most
/// [`COUNTS_PER_SEAT_TABLE`] counts a table).
fn players_tables(a: &Analysis) -> Vec<Table> {
    let seats = a
        .players
        .iter()
        .map(|p| p.count as usize)
        .max()
        .unwrap_or(0);
    if seats <= SEAT_COLUMNS {
        return vec![players_table(a, seats)];
    }
    let mut games = Table::new(&["players", "total turns", "rounds"], true);
    for p in &a.players {
        games.rows.push(vec![
            p.count.to_string(),
            crate::numbers::quantity(p.expected_total_turns, 2),
            crate::numbers::quantity(p.expected_rounds, 2),
        ]);
    }
    games.name = "players";
    games.rows_are = "player counts";
    let mut tables = vec![games];
    for counts in a.players.chunks(COUNTS_PER_SEAT_TABLE) {
        let names: Vec<String> = counts
            .iter()
            .map(|p| format!("{} players", p.count))
            .collect();
        let mut header = vec!["seat"];
        header.extend(names.iter().map(String::as_str));
        let mut table = Table::new(&header, true);
        let most = counts.iter().map(|p| p.count as usize).max().unwrap_or(0);
        for seat in 0..most {
            let mut row = vec![(seat + 1).to_string()];
            row.extend(counts.iter().map(|p| {
                p.win_probability
                    .get(seat)
                    .map_or_else(String::new, |&w| vocabulary::WIN_CHANCE.format(w))
            }));
            table.rows.push(row);
        }
        table.name = "seats";
        table.rows_are = "seats";
        tables.push(table);
    }
    tables
}

/// One row per player count: each seat's chance of winning (a column per
/// seat, `seats` of them), the expected total turns and rounds.
fn players_table(a: &Analysis, seats: usize) -> Table {
    let seat_names: Vec<String> = (1..=seats).map(|s| format!("seat {s}")).collect();
    let mut header = vec!["players"];
    header.extend(seat_names.iter().map(String::as_str));
    header.extend(["total turns", "rounds"]);
    let mut table = Table::new(&header, true);
    for p in &a.players {
        let mut row = vec![p.count.to_string()];
        row.extend((0..seats).map(|s| {
            p.win_probability
                .get(s)
                .map_or_else(String::new, |&w| vocabulary::WIN_CHANCE.format(w))
        }));
        row.push(crate::numbers::quantity(p.expected_total_turns, 2));
        row.push(crate::numbers::quantity(p.expected_rounds, 2));
        table.rows.push(row);
    }
    table.name = "players";
    table.rows_are = "player counts";
    table
}

/// The jumps table: in board order, or with `by_effect` the jumps whose
/// removal changes the mean most first (those without which a game may
/// never end before all).
fn jumps_table(a: &Analysis, by_effect: bool) -> Table {
    let header = [
        "jump",
        vocabulary::JUMP_USES.name,
        vocabulary::JUMP_USED.name,
        "mean turns without",
        "change",
    ];
    let mut table = Table::new(&header, false);
    // The most used jumps when there are too many, still in board order.
    let mut kept: Vec<&JumpFigures> = a.jumps.iter().collect();
    if kept.len() > TABLE_JUMPS {
        kept.sort_by(|x, y| y.expected_uses.total_cmp(&x.expected_uses));
        kept.truncate(TABLE_JUMPS);
        kept.sort_by_key(|j| j.from);
    }
    if by_effect {
        let effect = |j: &JumpFigures| {
            j.mean_turns_without
                .map_or(f64::INFINITY, |w| (w - a.turns.mean).abs())
        };
        // A stable sort: equal effects stay in board order.
        kept.sort_by(|x, y| effect(y).total_cmp(&effect(x)));
    }
    table.rows_are = "jumps";
    table.name = "jumps";
    for j in kept {
        let (without, change) = without_cells(j.mean_turns_without, a.turns.mean);
        table.rows.push(vec![
            format!("{} {}→{}", j.kind, j.from, j.to),
            vocabulary::JUMP_USES.format(j.expected_uses),
            vocabulary::JUMP_USED.format(j.use_probability),
            without,
            change,
        ]);
    }
    table
}

fn squares_table(a: &Analysis) -> Table {
    let header = [
        "square",
        vocabulary::SQUARE_RESTS.name,
        vocabulary::SQUARE_EVER_RESTS.name,
        "turns left",
    ];
    let mut table = Table::new(&header, true);
    for s in top_squares(a) {
        table.rows.push(vec![
            s.square.to_string(),
            vocabulary::SQUARE_RESTS.format(s.expected_rests),
            s.rest_probability.map_or_else(
                || "–".to_string(),
                |p| vocabulary::SQUARE_EVER_RESTS.format(p),
            ),
            opt(s.turns_left, 2),
        ]);
    }
    table.name = "squares";
    table.rows_are = "squares";
    table
}

fn tail_note(a: &Analysis) -> String {
    if a.turns.pmf.is_empty() {
        return "The distribution was not computed (see the note above).".to_string();
    }
    format!(
        "The distribution is computed to t = {}, leaving a tail of {}.",
        a.turns.pmf.len(),
        text::probability(a.turns.tail)
    )
}

fn shortest_line(a: &Analysis) -> Option<String> {
    let s = a.shortest.as_ref()?;
    Some(format!(
        "Shortest game: {} turns, e.g. rolling {} (probability {} for that sequence); P(T = {}) = {}.",
        s.turns,
        s.rolls_text(", "),
        log_probability(s.sequence_probability_log10),
        s.turns,
        log_probability(s.probability_log10)
    ))
}

/// A probability given by its base-10 logarithm, in the report's number
/// format while an `f64` holds it, and from the logarithm itself below that
/// (the shortest game of a long board can be 10^-13000).
fn log_probability(log10: f64) -> String {
    if log10 > -300.0 {
        text::probability(10f64.powf(log10))
    } else {
        probability_text(log10)
    }
}

fn without_cells(without: Option<f64>, mean: f64) -> (String, String) {
    match without {
        Some(w) => (
            crate::numbers::quantity(w, 4),
            crate::numbers::fixed(w - mean, 4, true),
        ),
        None => ("never ends".to_string(), "–".to_string()),
    }
}

fn top_squares(a: &Analysis) -> Vec<&snakeladder::analysis::SquareFigures> {
    let mut squares: Vec<_> = a.squares.iter().filter(|s| s.square.get() > 0).collect();
    squares.sort_by(|x, y| y.expected_rests.total_cmp(&x.expected_rests));
    squares.truncate(TOP_SQUARES);
    squares
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".to_string(), |v| crate::numbers::quantity(v, digits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakeladder::Options;

    fn analysed(json: &str) -> (Board, Analysis) {
        let board = Board::from_json_str(json).unwrap();
        let analysis = Analysis::new(&board, &Options::default()).unwrap();
        (board, analysis)
    }

    #[test]
    fn markdown_names_every_jump_and_seat() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let md = Report::new(&board, &a).markdown();
        for j in board.jumps() {
            assert!(
                md.contains(&format!("| {} {}→{} |", j.kind(), j.from(), j.to())),
                "{j}"
            );
        }
        assert!(md.contains("| 6 | "), "a row for six players");
        assert!(md.contains(&a.fingerprint));
    }

    #[test]
    fn html_escapes_the_board_name() {
        let (board, a) = analysed(r#"{"name": "<script>alert('x')</script> & co", "squares": 12}"#);
        let page = Report::new(&board, &a).html();
        assert_eq!(page.matches("<script").count(), 1, "only the page's own");
        assert!(!page.contains("<script>alert"));
        assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"));
    }

    /// A name that tries every trick: it may not open a tag, a comment, a
    /// heading, a table row, or reverse or hide the text after it.
    /// A name with every structure-forging character validation lets
    /// through (control, bidirectional and invisible characters are refused
    /// by validation as `name_character`; `text`'s own tests feed those to
    /// the escaping functions directly).
    const HOSTILE: &str = r##"{"name": "x # Forged heading | a | b | <!-- c --><img src=x onerror=alert(1)> [link](http://x) *em*", "squares": 30, "ladders": [[3, 11]], "snakes": [[27, 5]]}"##;

    #[test]
    fn names_with_hidden_characters_never_reach_a_report() {
        let hidden = r#"{"name": "x\n# Forged \u202Edesrever", "squares": 30}"#;
        let err = Board::from_json_str(hidden).unwrap_err();
        assert_eq!(err.problems()[0].kind(), "name_character");
    }

    #[test]
    fn hostile_names_forge_no_structure() {
        let (board, a) = analysed(HOSTILE);
        let md = Report::new(&board, &a).markdown();
        let first = md.lines().next().unwrap();
        assert!(first.starts_with("# x "), "{first}");
        assert!(!md.contains("\n# Forged"));
        assert!(md.contains("\\# Forged"), "{first}");
        assert!(text::tests::all_escaped(&md, '<'), "{md}");
        assert!(md.contains("\\<img"));
        assert!(!md.contains("[link](http"), "{first}");
        let page = Report::new(&board, &a).html();
        for raw in ["<!-- c", "<img", "onerror=alert(1)>"] {
            assert!(!page.contains(raw), "{raw:?}");
        }
        assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
    }

    #[test]
    fn html_is_self_contained_and_responsive() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let page = Report::new(&board, &a).html();
        assert_eq!(
            page.matches("<svg class=\"chart").count(),
            6,
            "length, seats, jumps, each wide and narrow"
        );
        assert_eq!(page.matches("class=\"sl-board\"").count(), 1);
        assert!(page.contains("<meta name=\"viewport\""));
        assert!(page.contains("prefers-color-scheme:dark") && page.contains("@media print"));
        for outside in ["src=", "href=", "<link", "url(", "@import"] {
            assert!(!page.contains(outside), "{outside}");
        }
        assert!(page.len() < 300_000, "{} bytes", page.len());
    }

    #[test]
    fn small_probabilities_print_in_scientific_notation() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let md = Report::new(&board, &a).markdown();
        // The tail left out of the distribution is below 1e-12.
        let tail = text::probability(a.turns.tail);
        assert!(a.turns.tail < 1e-12 && tail.contains("e-"), "{tail}");
        assert!(md.contains(&format!("leaving a tail of {tail}.")));
        assert!(!md.contains("0.0000 "), "{md}");
    }

    #[test]
    fn markdown_links_its_charts() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let report = Report::new(&board, &a).render_markdown(Some("out"));
        let names: Vec<&str> = report.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "out-length.svg",
                "out-board.svg",
                "out-seats.svg",
                "out-jumps.svg"
            ]
        );
        for name in names {
            assert!(report.document.contains(&format!("](<{name}>)")), "{name}");
        }
        assert!(report.files.iter().all(|f| f.svg.starts_with("<svg")));
        assert!(report.omitted.is_empty());
    }

    /// The sensitivity section ranks the variants, and its figures are
    /// those of the changed board analysed afresh.
    #[test]
    fn the_sensitivity_section_shows_the_biggest_levers() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let s = snakeladder::design::sensitivity(&board, true).unwrap();
        let report = Report::new(&board, &a).with_sensitivity(&s);
        let md = report.render_markdown(Some("out"));
        assert!(md.document.contains(&format!("## {LEVERS}")));
        assert!(md.files.iter().any(|f| f.name == "out-levers.svg"));
        let section = &md.document[md.document.find(LEVERS).unwrap()..];
        let rows = section
            .lines()
            .take_while(|l| !l.starts_with("## Most"))
            .filter(|l| l.starts_with("| ladder") || l.starts_with("| snake"))
            .count();
        assert_eq!(rows, levers::TABLE_VARIANTS.min(s.variants.len()));
        // The first row: the variant with the largest change of the mean,
        // re-analysed on its own board.
        let top = &s.variants[0];
        assert!(
            s.variants
                .iter()
                .all(|v| v.mean_change.abs() <= top.mean_change.abs())
        );
        let mut changed = board.spec();
        let pair = |j: snakeladder::Jump| [i64::from(j.from().get()), i64::from(j.to().get())];
        for list in [&mut changed.ladders, &mut changed.snakes] {
            if let Some(i) = list.iter().position(|&p| p == pair(top.change.before)) {
                match top.change.after {
                    Some(after) => list[i] = pair(after),
                    None => {
                        list.remove(i);
                    }
                }
            }
        }
        let fresh =
            Analysis::new(&Board::from_spec(&changed).unwrap(), &Options::default()).unwrap();
        let first_row = section
            .lines()
            .find(|l| l.starts_with("| ladder") || l.starts_with("| snake"))
            .unwrap();
        assert!(
            first_row.contains(&format!("| {:.4} |", fresh.turns.mean)),
            "{first_row} vs {}",
            fresh.turns.mean
        );
        let html = report.html();
        assert!(html.contains("<h2 id=\"levers\">"));
        assert!(html.contains("single changes that move the mean length most"));
        // Without it, no section.
        assert!(!Report::new(&board, &a).markdown().contains(LEVERS));
    }

    #[test]
    fn skipped_figures_are_named_in_the_document() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default().max_work(1.0)).unwrap();
        assert!(!a.skipped.is_empty());
        let report = Report::new(&board, &a).render_html();
        assert_eq!(report.omitted.len(), a.skipped.len());
        for o in &report.omitted {
            assert!(report.document.contains(&text::html(&o.to_string())), "{o}");
        }
        assert!(report.document.contains("--max-work"));
        let md = Report::new(&board, &a).markdown();
        assert!(md.contains("Left out of this report") && md.contains("(--max-work)"));
    }

    #[test]
    fn every_drawn_square_and_jump_has_its_figures() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let o = overlay(&board, &a);
        // Square 1 is the foot of ladder 1→38: no turn ends there.
        assert_eq!(
            o.square_notes[1],
            "square 1: where ladder 1→38 starts; no turn ends here"
        );
        assert!(o.square_notes[2].starts_with("square 2: "));
        assert!(
            o.square_notes[2].contains(" · P(ever rests there) ")
                && o.square_notes[2].contains("turns left")
        );
        assert!(
            (1..=100).all(|s| !o.square_notes[s].is_empty()),
            "{:?}",
            o.square_notes
        );
        assert_eq!(o.jump_notes.len(), board.jumps().len());
        assert!(
            o.jump_notes[0]
                .starts_with("ladder 1→38: 0.1667 uses a game · used at least once 16.67%")
        );
    }

    /// A board of 30 jumps: the HTML table opens on the 20 whose removal
    /// changes the mean most and folds the other 10; Markdown keeps board
    /// order.
    #[test]
    fn long_jump_tables_fold_with_the_largest_effects_first() {
        let ladders: Vec<String> = (0..15)
            .map(|k| format!("[{}, {}]", 2 + 6 * k, 5 + 6 * k))
            .collect();
        let snakes: Vec<String> = (0..15)
            .map(|k| format!("[{}, {}]", 104 + 6 * k, 101 + 6 * k))
            .collect();
        let (board, a) = analysed(&format!(
            r#"{{"squares": 200, "ladders": [{}], "snakes": [{}]}}"#,
            ladders.join(", "),
            snakes.join(", ")
        ));
        assert_eq!(a.jumps.len(), 30);
        let page = Report::new(&board, &a).html();
        let section = &page
            [page.find("<h2 id=\"jumps\">").unwrap()..page.find("<h2 id=\"squares\">").unwrap()];
        let (shown, folded) = section.split_at(section.find("<details").expect("folded"));
        assert!(folded.contains("<summary>10 more jumps</summary>"));
        let changes = |html: &str| -> Vec<f64> {
            html.split("<td data-label=\"change\">")
                .skip(1)
                .map(|c| c[..c.find('<').unwrap()].parse::<f64>().unwrap().abs())
                .collect()
        };
        let (first, rest) = (changes(shown), changes(folded));
        assert_eq!((first.len(), rest.len()), (20, 10));
        assert!(first.windows(2).all(|w| w[0] >= w[1]), "{first:?}");
        assert!(
            rest.iter().all(|r| *r <= first[19]),
            "{rest:?} after {first:?}"
        );
        let md = Report::new(&board, &a).markdown();
        let first_md = md
            .lines()
            .find(|l| l.starts_with("| ladder") || l.starts_with("| snake"))
            .unwrap();
        assert!(first_md.starts_with("| ladder 2→5 |"), "{first_md}");
    }

    #[test]
    fn an_undrawable_chart_gets_a_note() {
        let mut page = String::new();
        let refused = || {
            Err(charts::ChartError::TooManySquares {
                squares: 3000,
                limit: 2500,
            })
        };
        html::figure(&mut page, "board", refused(), refused()).unwrap();
        assert_eq!(
            page,
            "<p class=\"meta\">No board chart: the board has 3000 squares, more than the 2500 a drawing shows.</p>\n"
        );
    }
}
