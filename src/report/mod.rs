//! Analysis reports for people: Markdown, and self-contained HTML with charts.
//!
//! Both render an [`Analysis`] of a [`Board`]; neither computes anything of
//! its own. The HTML page embeds its charts as inline SVG and its style
//! inline, so it is one file that opens anywhere, offline.
//!
//! The public face is [`Report`].

pub(crate) mod charts;

use crate::Board;
use crate::markov::analysis::Analysis;
use crate::markov::analysis::shortest::probability_text;
use std::fmt::Write;

/// Squares listed in the "most visited" table.
const TOP_SQUARES: usize = 10;
/// The length chart shows t up to where this much probability is covered.
const CHART_MASS: f64 = 0.999;

/// The report as Markdown (GitHub-flavoured tables).
pub(crate) fn markdown(board: &Board, a: &Analysis) -> String {
    let mut md = String::new();
    // Writing to a String cannot fail.
    let _ = write_markdown(&mut md, board, a);
    md
}

fn write_markdown(md: &mut String, board: &Board, a: &Analysis) -> std::fmt::Result {
    let cell = |s: &str| s.replace('|', "\\|");
    writeln!(md, "# {}\n", cell(title(a)))?;
    writeln!(
        md,
        "Fingerprint `{}` · {} squares · {} ladders · {} snakes · {} states  \nRules: {}\n",
        a.fingerprint,
        a.board.squares,
        a.board.ladders,
        a.board.snakes,
        a.board.states,
        board.rules()
    )?;
    writeln!(md, "## Game length of one player\n")?;
    writeln!(md, "{}", length_table(a).markdown())?;
    writeln!(
        md,
        "Quantiles are the smallest t with P(T ≤ t) ≥ p. {}\n",
        tail_note(a)
    )?;
    if let Some(exact) = &a.exact {
        writeln!(md, "Exact mean: `{}`\n", exact.mean_turns)?;
    }
    if let Some(line) = shortest_line(a) {
        writeln!(md, "{line}\n")?;
    }
    if !a.players.is_empty() {
        writeln!(md, "## Several players\n")?;
        writeln!(md, "{}", players_table(a).markdown())?;
    }
    if !a.jumps.is_empty() {
        writeln!(md, "## Snakes and ladders\n")?;
        writeln!(md, "{}", jumps_table(a).markdown())?;
    }
    writeln!(md, "## Most visited squares\n")?;
    write!(md, "{}", squares_table(a).markdown())?;
    Ok(())
}

/// The report as one self-contained HTML page with inline SVG charts: the
/// board shaded by how often each square is rested on, the length
/// distribution, seat odds and the effect of each jump. A chart that cannot
/// be drawn (a board too large to draw) is replaced by a note saying why.
pub(crate) fn html(board: &Board, a: &Analysis) -> String {
    let mut page = String::new();
    // Writing to a String cannot fail.
    let _ = write_html(&mut page, board, a);
    page
}

fn write_html(h: &mut String, board: &Board, a: &Analysis) -> std::fmt::Result {
    let title = escape(title(a));
    writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
    )?;
    writeln!(
        h,
        "<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    )?;
    writeln!(h, "<h1>{title}</h1>")?;
    writeln!(
        h,
        "<p class=\"meta\">Fingerprint <code>{}</code> · {} squares · {} ladders · {} snakes · {} states<br>Rules: {}</p>",
        escape(&a.fingerprint),
        a.board.squares,
        a.board.ladders,
        a.board.snakes,
        a.board.states,
        escape(&board.rules().to_string())
    )?;

    writeln!(h, "<h2>Game length of one player</h2>")?;
    write!(h, "{}", length_table(a).html())?;
    writeln!(
        h,
        "<p>Quantiles are the smallest t with P(T ≤ t) ≥ p. {}</p>",
        escape(&tail_note(a))
    )?;
    if let Some(exact) = &a.exact {
        writeln!(
            h,
            "<p>Exact mean: <code class=\"wrap\">{}</code></p>",
            escape(&exact.mean_turns)
        )?;
    }
    if let Some(line) = shortest_line(a) {
        writeln!(h, "<p>{}</p>", escape(&line))?;
    }
    figure(
        h,
        charts::length_chart(&a.turns.pmf, a.turns.mean, CHART_MASS),
        "game length",
    )?;

    writeln!(h, "<h2>The board</h2>")?;
    writeln!(
        h,
        "<p>Ladders in green, snakes in red (a dot marks where each ends); squares shaded by the probability that a turn ends there.</p>"
    )?;
    let mut heat = vec![0.0; board.last().index() + 1];
    for s in &a.squares {
        if let Some(p) = s.rest_probability {
            heat[s.square.index()] = p;
        }
    }
    figure(h, charts::board_chart(board, Some(&heat)), "board")?;

    if !a.players.is_empty() {
        writeln!(h, "<h2>Several players</h2>")?;
        write!(h, "{}", players_table(a).html())?;
        if let Some(p) = a.players.iter().max_by_key(|p| p.count) {
            let bars: Vec<(String, f64)> = p
                .win_probability
                .iter()
                .enumerate()
                .map(|(i, w)| (format!("seat {}", i + 1), *w))
                .collect();
            let title = format!("Probability of winning, {} players", p.count);
            figure(
                h,
                charts::bar_chart(&title, &bars, "probability"),
                "seat odds",
            )?;
        }
    }

    if !a.jumps.is_empty() {
        writeln!(h, "<h2>Snakes and ladders</h2>")?;
        write!(h, "{}", jumps_table(a).html())?;
        let bars: Vec<(String, f64)> = a
            .jumps
            .iter()
            .map(|j| (format!("{} {}→{}", j.kind, j.from, j.to), j.expected_uses))
            .collect();
        figure(
            h,
            charts::bar_chart("Expected uses in one player's game", &bars, "uses"),
            "jump uses",
        )?;
    }

    writeln!(h, "<h2>Most visited squares</h2>")?;
    write!(h, "{}", squares_table(a).html())?;
    writeln!(
        h,
        "<p class=\"meta\">Made by snakeladder {}.</p>",
        env!("CARGO_PKG_VERSION")
    )?;
    writeln!(h, "</body>\n</html>")
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}\
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}\
th{background:#f4f4f4}td:first-child{text-align:left}.meta{color:#555}figure{margin:1rem 0}\
code.wrap{word-break:break-all}svg{max-width:100%;height:auto}";

fn figure(
    h: &mut String,
    chart: Result<String, charts::ChartError>,
    what: &str,
) -> std::fmt::Result {
    match chart {
        Ok(svg) => writeln!(h, "<figure>{svg}</figure>"),
        Err(e) => writeln!(
            h,
            "<p class=\"meta\">No {what} chart: {}.</p>",
            escape(&e.to_string())
        ),
    }
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
}

impl Table {
    fn new(header: &[&str], numeric_first: bool) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            numeric_first,
        }
    }

    fn markdown(&self) -> String {
        let line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
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

    fn html(&self) -> String {
        let line = |tag: &str, cells: &[String]| {
            let cells: String = cells
                .iter()
                .map(|c| format!("<{tag}>{}</{tag}>", escape(c)))
                .collect();
            format!("<tr>{cells}</tr>\n")
        };
        let mut h = String::from("<table>\n");
        h += &line("th", &self.header);
        for row in &self.rows {
            h += &line("td", row);
        }
        h + "</table>\n"
    }
}

fn length_table(a: &Analysis) -> Table {
    let t = &a.turns;
    let q = |v: Option<usize>| v.map_or_else(|| "–".to_string(), |v| v.to_string());
    let mut table = Table::new(&["figure", "turns", "rolls"], false);
    table.rows = vec![
        vec![
            "mean".into(),
            format!("{:.4}", t.mean),
            format!("{:.4}", a.rolls.mean),
        ],
        vec![
            "standard deviation".into(),
            format!("{:.4}", t.std_dev),
            format!("{:.4}", a.rolls.variance.sqrt()),
        ],
        vec!["minimum".into(), q(t.min), String::new()],
        vec!["mode".into(), q(t.mode), String::new()],
        vec!["median".into(), q(t.median), String::new()],
        vec!["90th percentile".into(), q(t.p90), String::new()],
        vec!["99th percentile".into(), q(t.p99), String::new()],
    ];
    table
}

fn players_table(a: &Analysis) -> Table {
    let seats = a
        .players
        .iter()
        .map(|p| p.count as usize)
        .max()
        .unwrap_or(0);
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
                .map_or_else(String::new, |w| format!("{w:.4}"))
        }));
        row.push(format!("{:.2}", p.expected_total_turns));
        row.push(format!("{:.2}", p.expected_rounds));
        table.rows.push(row);
    }
    table
}

fn jumps_table(a: &Analysis) -> Table {
    let header = [
        "jump",
        "expected uses",
        "P(used)",
        "mean turns without",
        "change",
    ];
    let mut table = Table::new(&header, false);
    for j in &a.jumps {
        let (without, change) = without_cells(j.mean_turns_without, a.turns.mean);
        table.rows.push(vec![
            format!("{} {}→{}", j.kind, j.from, j.to),
            format!("{:.4}", j.expected_uses),
            format!("{:.4}", j.use_probability),
            without,
            change,
        ]);
    }
    table
}

fn squares_table(a: &Analysis) -> Table {
    let header = ["square", "expected rests", "P(rest)", "turns left"];
    let mut table = Table::new(&header, true);
    for s in top_squares(a) {
        table.rows.push(vec![
            s.square.to_string(),
            format!("{:.4}", s.expected_rests),
            opt(s.rest_probability, 4),
            opt(s.turns_left, 2),
        ]);
    }
    table
}

fn tail_note(a: &Analysis) -> String {
    format!(
        "The distribution is computed to t = {}, leaving a tail of {:.1e}.",
        a.turns.pmf.len(),
        a.turns.tail
    )
}

fn shortest_line(a: &Analysis) -> Option<String> {
    let s = a.shortest.as_ref()?;
    Some(format!(
        "Shortest game: {} turns, e.g. rolling {} (probability {} for that sequence); P(T = {}) = {}.",
        s.turns,
        s.rolls_text(", "),
        probability_text(s.sequence_probability_log10),
        s.turns,
        probability_text(s.probability_log10)
    ))
}

fn without_cells(without: Option<f64>, mean: f64) -> (String, String) {
    match without {
        Some(w) => (format!("{w:.4}"), format!("{:+.4}", w - mean)),
        None => ("never ends".to_string(), "–".to_string()),
    }
}

fn top_squares(a: &Analysis) -> Vec<&crate::markov::analysis::SquareFigures> {
    let mut squares: Vec<_> = a.squares.iter().filter(|s| s.square.get() > 0).collect();
    squares.sort_by(|x, y| y.expected_rests.total_cmp(&x.expected_rests));
    squares.truncate(TOP_SQUARES);
    squares
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.digits$}"))
}

/// Escapes text for HTML element content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The analysis of a board as a document: Markdown, or one self-contained
/// HTML page with charts.
///
/// # Example
/// ```
/// use snakeladder::{Analysis, Board, Options, Report};
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
}

impl<'a> Report<'a> {
    /// The report of `analysis`, which must be the analysis of `board`.
    pub fn new(board: &'a Board, analysis: &'a Analysis) -> Report<'a> {
        Report { board, analysis }
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        markdown(self.board, self.analysis)
    }

    /// The report as one self-contained HTML page (inline SVG charts, no
    /// external requests).
    pub fn html(&self) -> String {
        html(self.board, self.analysis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markov::analysis::Options;

    fn analysed(json: &str) -> (Board, Analysis) {
        let board = Board::from_json_str(json).unwrap();
        let analysis = Analysis::new(&board, &Options::default()).unwrap();
        (board, analysis)
    }

    #[test]
    fn markdown_names_every_jump_and_seat() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let md = markdown(&board, &a);
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
        let page = html(&board, &a);
        assert!(!page.contains("<script>"));
        assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"));
    }

    #[test]
    fn html_is_self_contained() {
        let board = Board::builtin_default();
        let a = Analysis::new(&board, &Options::default()).unwrap();
        let page = html(&board, &a);
        assert_eq!(
            page.matches("<svg").count(),
            4,
            "length, board, seats, jumps"
        );
        for outside in ["src=\"http", "href=\"http", "<link", "<script"] {
            assert!(!page.contains(outside), "{outside}");
        }
    }

    #[test]
    fn an_undrawable_chart_gets_a_note() {
        let mut page = String::new();
        let refused = Err(charts::ChartError::TooManySquares { squares: 3000 });
        figure(&mut page, refused, "board").unwrap();
        assert_eq!(
            page,
            "<p class=\"meta\">No board chart: the board has 3000 squares, more than the 2500 a drawing shows.</p>\n"
        );
    }
}
