//! Analysis reports for people: Markdown, and self-contained HTML with charts.
//!
//! Both render an [`Analysis`] of a [`Board`]; neither computes anything of
//! its own. The HTML page embeds its charts as inline SVG and its style
//! inline, so it is one file that opens anywhere, offline.
//!
//! # Example
//! ```
//! use snakeladder::Board;
//! use snakeladder::analysis::{Analysis, Options};
//! use snakeladder::report;
//!
//! let board = Board::builtin_default();
//! let analysis = Analysis::new(&board, &Options::default())?;
//! let md = report::markdown(&board, &analysis);
//! assert!(md.contains("| mean | 39.598"));
//! let html = report::html(&board, &analysis);
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! # Ok::<(), snakeladder::analysis::AnalysisError>(())
//! ```

pub mod charts;

use crate::Board;
use crate::analysis::Analysis;
use std::fmt::Write;

/// Squares listed in the "most visited" table.
const TOP_SQUARES: usize = 10;
/// The length chart shows t up to where this much probability is covered.
const CHART_MASS: f64 = 0.999;

/// The report as Markdown (GitHub-flavoured tables).
pub fn markdown(board: &Board, a: &Analysis) -> String {
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
    writeln!(md, "| figure | turns | rolls |")?;
    writeln!(md, "|---|---:|---:|")?;
    for (name, turns, rolls) in length_rows(a) {
        writeln!(md, "| {name} | {turns} | {rolls} |")?;
    }
    writeln!(md)?;
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
        let seats = a
            .players
            .iter()
            .map(|p| p.count as usize)
            .max()
            .unwrap_or(0);
        write!(md, "| players |")?;
        for s in 1..=seats {
            write!(md, " seat {s} |")?;
        }
        writeln!(md, " total turns | rounds |")?;
        writeln!(md, "|---:|{}---:|---:|", "---:|".repeat(seats))?;
        for p in &a.players {
            write!(md, "| {} |", p.count)?;
            for s in 0..seats {
                match p.win_probability.get(s) {
                    Some(w) => write!(md, " {w:.4} |")?,
                    None => write!(md, " |")?,
                }
            }
            writeln!(
                md,
                " {:.2} | {:.2} |",
                p.expected_total_turns, p.expected_rounds
            )?;
        }
        writeln!(md)?;
    }
    if !a.jumps.is_empty() {
        writeln!(md, "## Snakes and ladders\n")?;
        writeln!(
            md,
            "| jump | expected uses | P(used) | mean turns without | change |"
        )?;
        writeln!(md, "|---|---:|---:|---:|---:|")?;
        for j in &a.jumps {
            let (without, change) = without_cells(j.mean_turns_without, a.turns.mean);
            writeln!(
                md,
                "| {} {}→{} | {:.4} | {:.4} | {without} | {change} |",
                j.kind, j.from, j.to, j.expected_uses, j.use_probability
            )?;
        }
        writeln!(md)?;
    }
    writeln!(md, "## Most visited squares\n")?;
    writeln!(md, "| square | expected rests | P(rest) | turns left |")?;
    writeln!(md, "|---:|---:|---:|---:|")?;
    for s in top_squares(a) {
        writeln!(
            md,
            "| {} | {:.4} | {} | {} |",
            s.square,
            s.expected_rests,
            opt(s.rest_probability, 4),
            opt(s.turns_left, 2)
        )?;
    }
    Ok(())
}

/// The report as one self-contained HTML page with inline SVG charts: the
/// board shaded by how often each square is rested on, the length
/// distribution, seat odds and the effect of each jump. A chart that cannot
/// be drawn (a board too large to draw) is replaced by a note saying why.
pub fn html(board: &Board, a: &Analysis) -> String {
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

    writeln!(h, "<h2>Game length of one player</h2>\n<table>")?;
    writeln!(h, "<tr><th>figure</th><th>turns</th><th>rolls</th></tr>")?;
    for (name, turns, rolls) in length_rows(a) {
        writeln!(
            h,
            "<tr><td>{name}</td><td>{turns}</td><td>{rolls}</td></tr>"
        )?;
    }
    writeln!(h, "</table>")?;
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
        writeln!(h, "<h2>Several players</h2>\n<table>")?;
        let seats = a
            .players
            .iter()
            .map(|p| p.count as usize)
            .max()
            .unwrap_or(0);
        write!(h, "<tr><th>players</th>")?;
        for s in 1..=seats {
            write!(h, "<th>seat {s}</th>")?;
        }
        writeln!(h, "<th>total turns</th><th>rounds</th></tr>")?;
        for p in &a.players {
            write!(h, "<tr><td>{}</td>", p.count)?;
            for s in 0..seats {
                match p.win_probability.get(s) {
                    Some(w) => write!(h, "<td>{w:.4}</td>")?,
                    None => write!(h, "<td></td>")?,
                }
            }
            writeln!(
                h,
                "<td>{:.2}</td><td>{:.2}</td></tr>",
                p.expected_total_turns, p.expected_rounds
            )?;
        }
        writeln!(h, "</table>")?;
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
        writeln!(h, "<h2>Snakes and ladders</h2>\n<table>")?;
        writeln!(
            h,
            "<tr><th>jump</th><th>expected uses</th><th>P(used)</th><th>mean turns without</th><th>change</th></tr>"
        )?;
        for j in &a.jumps {
            let (without, change) = without_cells(j.mean_turns_without, a.turns.mean);
            writeln!(
                h,
                "<tr><td>{} {}→{}</td><td>{:.4}</td><td>{:.4}</td><td>{without}</td><td>{change}</td></tr>",
                j.kind, j.from, j.to, j.expected_uses, j.use_probability
            )?;
        }
        writeln!(h, "</table>")?;
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

    writeln!(h, "<h2>Most visited squares</h2>\n<table>")?;
    writeln!(
        h,
        "<tr><th>square</th><th>expected rests</th><th>P(rest)</th><th>turns left</th></tr>"
    )?;
    for s in top_squares(a) {
        writeln!(
            h,
            "<tr><td>{}</td><td>{:.4}</td><td>{}</td><td>{}</td></tr>",
            s.square,
            s.expected_rests,
            opt(s.rest_probability, 4),
            opt(s.turns_left, 2)
        )?;
    }
    writeln!(h, "</table>")?;
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

fn length_rows(a: &Analysis) -> Vec<(&'static str, String, String)> {
    let t = &a.turns;
    let q = |v: Option<usize>| v.map_or_else(|| "–".to_string(), |v| v.to_string());
    vec![
        (
            "mean",
            format!("{:.4}", t.mean),
            format!("{:.4}", a.rolls.mean),
        ),
        (
            "standard deviation",
            format!("{:.4}", t.std_dev),
            format!("{:.4}", a.rolls.variance.sqrt()),
        ),
        ("minimum", q(t.min), String::new()),
        ("mode", q(t.mode), String::new()),
        ("median", q(t.median), String::new()),
        ("90th percentile", q(t.p90), String::new()),
        ("99th percentile", q(t.p99), String::new()),
    ]
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
    let rolls = s.turn_rolls();
    let p_min = a
        .turns
        .pmf
        .get(s.turns.checked_sub(1)?)
        .copied()
        .unwrap_or(0.0);
    Some(format!(
        "Shortest game: {} turns, e.g. rolling {} (probability {:.3e} for that sequence); P(T = {}) = {:.6}.",
        s.turns,
        rolls.join(", "),
        s.sequence_probability,
        s.turns,
        p_min
    ))
}

fn without_cells(without: Option<f64>, mean: f64) -> (String, String) {
    match without {
        Some(w) => (format!("{w:.4}"), format!("{:+.4}", w - mean)),
        None => ("never ends".to_string(), "–".to_string()),
    }
}

fn top_squares(a: &Analysis) -> Vec<&crate::analysis::SquareFigures> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;

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
