//! The HTML report: one self-contained page, its charts inline at two
//! sizes, its style and script embedded.

use super::*;

/// Writes the whole page: its head, then each section in reading order.
pub(super) fn write_html(
    h: &mut String,
    report: &Report,
    omitted: &[Omission],
) -> std::fmt::Result {
    let a = report.analysis;
    write_head(h, report)?;
    write_left_out(h, omitted, a)?;
    write_length(h, a)?;
    write_board(h, report.board, a)?;
    if !a.players.is_empty() {
        write_players(h, a)?;
    }
    if !a.jumps.is_empty() {
        write_jumps(h, a)?;
    }
    if let Some(c) = report.cross {
        write_cross_check(h, c, a)?;
    }
    if let Some(s) = report.sensitivity.filter(|s| !s.variants.is_empty()) {
        write_levers(h, s)?;
    }
    write_squares_and_end(h, a)
}

/// The document's head (its security policy, style and title), the
/// heading and the board's identity line.
fn write_head(h: &mut String, report: &Report) -> std::fmt::Result {
    let (board, a) = (report.board, report.analysis);
    let title = text::html(title(a));
    writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"color-scheme\" content=\"light dark\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
    )?;
    writeln!(
        h,
        "<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>"
    )?;
    writeln!(h, "<h1>{title}</h1>")?;
    writeln!(
        h,
        "<p class=\"meta\">Fingerprint <code>{}</code> · {}<br>Rules: {}</p>",
        text::html(&a.fingerprint),
        counts(a),
        text::html(&board.rules().to_string())
    )
}

/// The notes above the figures: what the report left out, and which
/// figures are less exact than the rest.
fn write_left_out(h: &mut String, omitted: &[Omission], a: &Analysis) -> std::fmt::Result {
    if !omitted.is_empty() {
        writeln!(
            h,
            "<div class=\"notes\" role=\"note\"><strong>Left out of this report:</strong><ul>"
        )?;
        for o in omitted {
            writeln!(h, "<li>{}</li>", text::html(&o.to_string()))?;
        }
        writeln!(h, "</ul></div>")?;
    }
    if !a.warnings.is_empty() {
        writeln!(
            h,
            "<div class=\"notes\" role=\"note\"><strong>Less exact than the rest of this report:</strong><ul>"
        )?;
        for w in &a.warnings {
            writeln!(h, "<li>{}</li>", text::html(&w.to_string()))?;
        }
        writeln!(h, "</ul></div>")?;
    }
    Ok(())
}

/// The game length of one player: its table, the exact mean and the
/// shortest game when known, and the length chart.
fn write_length(h: &mut String, a: &Analysis) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"length\">Game length of one player</h2>")?;
    write!(h, "{}", length_table(a).html())?;
    writeln!(
        h,
        "<p>Quantiles are the smallest t with P(T ≤ t) ≥ p. {}</p>",
        text::html(&tail_note(a))
    )?;
    if let Some(exact) = &a.exact {
        writeln!(
            h,
            "<p>Exact mean: <code class=\"wrap\">{}</code></p>",
            text::html(&exact.mean_turns)
        )?;
    }
    if let Some(line) = shortest_line(a) {
        writeln!(h, "<p>{}</p>", text::html(&line))?;
    }
    if !a.turns.pmf.is_empty() {
        figure(
            h,
            "game length",
            charts::length_chart(&a.turns, CHART_MASS, Size::WIDE),
            charts::length_chart(&a.turns, CHART_MASS, Size::NARROW),
        )?;
    }
    Ok(())
}

/// The board drawn with each square's expected rests, or why it is not.
fn write_board(h: &mut String, board: &Board, a: &Analysis) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"board\">The board</h2>")?;
    writeln!(h, "<p>{BOARD_NOTE}</p>")?;
    match board::board_svg(board, &board_title(a), &overlay(board, a)) {
        Ok(svg) => {
            let top = a
                .squares
                .iter()
                .map(|s| s.expected_rests)
                .fold(0.0, f64::max);
            writeln!(
                h,
                "<figure class=\"board\">{svg}<figcaption>{}</figcaption></figure>",
                board::legend_html("expected rests on a square in one player's game", top)
            )?;
            writeln!(
                h,
                "<p id=\"board-info\" class=\"meta\" aria-live=\"polite\">Hover over a square or a jump, or tap it, for its figures.</p>"
            )
        }
        Err(e) => writeln!(
            h,
            "<p class=\"meta\">No board chart: {}.</p>",
            text::html(&e.to_string())
        ),
    }
}

/// Several players: the table per player count and the seat odds chart.
fn write_players(h: &mut String, a: &Analysis) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"players\">Several players</h2>")?;
    for table in players_tables(a) {
        write!(h, "{}", table.html())?;
    }
    if let (Some(wide), Some(narrow)) = (seat_chart(a, Size::WIDE), seat_chart(a, Size::NARROW)) {
        figure(h, "seat odds", wide, narrow)?;
    }
    Ok(())
}

/// The snakes and ladders: the jumps table and the jump-use chart.
fn write_jumps(h: &mut String, a: &Analysis) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"jumps\">Snakes and ladders</h2>")?;
    // A long table opens on the jumps that matter most.
    let by_effect = tables::folds(a.jumps.len().min(TABLE_JUMPS));
    write!(h, "{}", jumps_table(a, by_effect).html())?;
    figure(
        h,
        "jump use",
        jump_chart(a, Size::WIDE),
        jump_chart(a, Size::NARROW),
    )
}

/// The exact figures beside a simulation's.
fn write_cross_check(h: &mut String, c: &CrossCheck, a: &Analysis) -> std::fmt::Result {
    writeln!(
        h,
        "<h2 id=\"cross-check\">Cross-check against a simulation</h2>"
    )?;
    writeln!(h, "<p>{}</p>", text::html(&c.summary()))?;
    write!(h, "{}", cross_table(c, a).html())
}

/// The levers: what moving or removing one jump does to the mean.
fn write_levers(h: &mut String, s: &Sensitivity) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"levers\">{LEVERS}</h2>")?;
    writeln!(h, "<p>{}</p>", text::html(&levers::summary(s)))?;
    write!(h, "{}", levers::table(s).html())?;
    figure(
        h,
        "levers",
        levers::chart(s, Size::WIDE),
        levers::chart(s, Size::NARROW),
    )
}

/// The most visited squares, then the page's end: its footer and script.
fn write_squares_and_end(h: &mut String, a: &Analysis) -> std::fmt::Result {
    writeln!(h, "<h2 id=\"squares\">Most visited squares</h2>")?;
    write!(h, "{}", squares_table(a).html())?;
    writeln!(
        h,
        "<p class=\"meta\">Made by snakeladder {}.</p>\n</main>",
        env!("CARGO_PKG_VERSION")
    )?;
    writeln!(h, "<script>{SCRIPT}</script>")?;
    writeln!(h, "</body>\n</html>")
}

/// The page's style: readable from 360 px to print, light and dark.
const STYLE: &str = concat!(include_str!("report.css"), include_str!("tables.css"));
/// The page's only script: a tap on the board shows the figures of the
/// square or jump tapped (a pointer shows them on hover without it), and
/// each table's headers become buttons that sort it (without script the
/// rows keep the report's order).
const SCRIPT: &str = include_str!("report.js");

/// A chart drawn at both sizes (the page shows the one that fits), or a
/// note saying why it is missing.
pub(super) fn figure(
    h: &mut String,
    what: &str,
    wide: Result<String, ChartError>,
    narrow: Result<String, ChartError>,
) -> std::fmt::Result {
    match (wide, narrow) {
        (Ok(wide), Ok(narrow)) => writeln!(
            h,
            "<figure class=\"chart\"><div class=\"wide\">{wide}</div><div class=\"narrow\">{narrow}</div></figure>"
        ),
        (Err(e), _) | (_, Err(e)) => writeln!(
            h,
            "<p class=\"meta\">No {what} chart: {}.</p>",
            text::html(&e.to_string())
        ),
    }
}
