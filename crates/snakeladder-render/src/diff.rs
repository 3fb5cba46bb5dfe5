//! What a layout change does to the game, for a reviewer of the change
//! (`snakeladder diff OLD NEW`): [`Diff::new`] compares the exact analyses
//! of two boards, [`RenderDiff`] shows the comparison as plain text,
//! Markdown (a pull-request comment or a step summary) or a self-contained
//! HTML page, and a [`Gate`] (`--fail-if`) fails a CI step when the change
//! goes too far.
//!
//! The comparison is built from the analyses' public figures alone, and
//! everything in it is chosen for a person reading it (labels, the squares
//! worth showing, rule changes in words, a change's error only where it
//! reaches the printed digits), so it lives here, beside its renderings.

mod data;
mod gate;

pub use data::{Diff, FigureChange, JumpDiff, JumpDiffKind, JumpSide, RuleDiff, Side, SquareDiff};
pub use gate::{Gate, GateError};

use crate::vocabulary::{FIRST_SEAT_ADVANTAGE, JUMP_USED, MEAN_TURNS, ROUNDS};
use snakeladder::{Board, JumpKind};
use std::fmt::Write as _;

/// The three ways a [`Diff`] is shown to a person.
pub trait RenderDiff {
    /// Plain text for a terminal.
    fn text(&self) -> String;
    /// Markdown: a pull-request comment or a GitHub step summary.
    fn markdown(&self) -> String;
    /// A self-contained HTML page: the summary table, both boards drawn
    /// (with the report's board drawing), the two length distributions
    /// overlaid, and the details. `old` and `new` are the boards compared.
    fn html(&self, old: &Board, new: &Board) -> String;
}

fn value(x: Option<f64>, name: &str) -> String {
    match x {
        None => "–".to_string(),
        Some(v) if name.starts_with("seat1") => FIRST_SEAT_ADVANTAGE.format(v),
        Some(v) if name == "mean" => MEAN_TURNS.format(v),
        Some(v) if name.starts_with("rounds") => ROUNDS.format(v),
        Some(v) => format!("{v}"),
    }
}

fn change(f: &FigureChange) -> String {
    match (f.change(), f.relative_change()) {
        (None, _) => "–".to_string(),
        // A change within its figures' error: only the digits it leaves.
        (Some(d), _) if f.change_error.is_some() => {
            crate::numbers::change_with_error(d, f.change_error.unwrap_or(f64::INFINITY))
        }
        (Some(0.0), _) => "0".to_string(),
        (Some(d), rel) => {
            let d = if f.name.starts_with("seat1") {
                FIRST_SEAT_ADVANTAGE.format_change(d)
            } else if f.name == "mean" {
                MEAN_TURNS.format_change(d)
            } else if f.name.starts_with("rounds") {
                ROUNDS.format_change(d)
            } else {
                format!("{d:+}")
            };
            match rel {
                Some(r) if !f.name.starts_with("seat1") => {
                    format!("{d} ({}%)", crate::numbers::fixed(r * 100.0, 1, true))
                }
                _ => d,
            }
        }
    }
}

fn jump_text(j: Option<JumpSide>) -> String {
    match j {
        None => "–".to_string(),
        Some(u) => match u.use_probability {
            Some(p) => format!(
                "{}→{} ({} in {} of games)",
                u.from,
                u.to,
                JUMP_USED.name,
                JUMP_USED.format(p)
            ),
            None => format!("{}→{}", u.from, u.to),
        },
    }
}

fn kind_word(k: JumpKind) -> &'static str {
    match k {
        JumpKind::Ladder => "ladder",
        JumpKind::Snake => "snake",
    }
}

fn title(s: &Side) -> String {
    match &s.name {
        Some(n) => format!("{} ({})", crate::escape::terminal(n), s.source),
        None => s.source.clone(),
    }
}

impl RenderDiff for Diff {
    /// Plain text for a terminal.
    fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "old: {}  fingerprint {}",
            title(&self.old),
            self.old.fingerprint
        );
        let _ = writeln!(
            out,
            "new: {}  fingerprint {}",
            title(&self.new),
            self.new.fingerprint
        );
        if self.same_board() {
            let _ = writeln!(out, "\nThe layouts and rules are the same.");
        }
        let _ = writeln!(
            out,
            "\n{:<34} {:>12} {:>12}  change",
            "figure", "old", "new"
        );
        for f in &self.figures {
            let _ = writeln!(
                out,
                "{:<34} {:>12} {:>12}  {}",
                f.label,
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        for why in &self.skipped {
            let _ = writeln!(out, "note: {why}");
        }
        if !self.jumps.is_empty() {
            let _ = writeln!(out, "\nJumps");
            for j in &self.jumps {
                let _ = writeln!(
                    out,
                    "  {:<8} {:<7} {}  →  {}",
                    format!("{:?}", j.change).to_lowercase(),
                    kind_word(j.kind),
                    jump_text(j.old),
                    jump_text(j.new)
                );
            }
        }
        if !self.squares.is_empty() {
            let _ = writeln!(out, "\nSquares whose P(ever rests there) changed most");
            for s in &self.squares {
                let _ = writeln!(
                    out,
                    "  {:>6}  {:>7.2}% → {:>7.2}%  ({})",
                    s.square,
                    s.old * 100.0,
                    s.new * 100.0,
                    crate::vocabulary::points(s.new - s.old)
                );
            }
        }
        if !self.rules.is_empty() {
            let _ = writeln!(out, "\nRules");
            for r in &self.rules {
                let _ = writeln!(
                    out,
                    "  {}: {} → {}",
                    r.label(),
                    crate::escape::terminal(&r.old_words),
                    crate::escape::terminal(&r.new_words)
                );
            }
        }
        out
    }

    /// Markdown for a pull-request comment or `$GITHUB_STEP_SUMMARY`: a
    /// summary table, the details folded in `<details>`.
    fn markdown(&self) -> String {
        let cell = crate::escape::markdown;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "### Layout change: {} → {}\n",
            cell(&title(&self.old)),
            cell(&title(&self.new))
        );
        if self.same_board() {
            let _ = writeln!(out, "The layouts and rules are the same.\n");
        }
        let _ = writeln!(out, "| figure | old | new | change |");
        let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
        for f in self.figures.iter().filter(|f| {
            !(f.name.starts_with("seat1") || f.name.starts_with("rounds")) || f.name.ends_with("_2")
        }) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&f.label),
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        for why in &self.skipped {
            let _ = writeln!(out, "\n*Note:* {}", cell(why));
        }
        let _ = writeln!(
            out,
            "\n{} jump{} changed, {} rule{} changed.\n",
            self.jumps.len(),
            if self.jumps.len() == 1 { "" } else { "s" },
            self.rules.len(),
            if self.rules.len() == 1 { "" } else { "s" },
        );
        let _ = writeln!(out, "<details><summary>Details</summary>\n");
        let _ = writeln!(out, "#### Seat odds and rounds, 2–6 players\n");
        let _ = writeln!(out, "| figure | old | new | change |");
        let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
        for f in self
            .figures
            .iter()
            .filter(|f| f.name.starts_with("seat1") || f.name.starts_with("rounds"))
        {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&f.label),
                value(f.old, &f.name),
                value(f.new, &f.name),
                change(f)
            );
        }
        if !self.jumps.is_empty() {
            let _ = writeln!(out, "\n#### Jumps\n");
            let _ = writeln!(out, "| change | kind | old | new |");
            let _ = writeln!(out, "| --- | --- | --- | --- |");
            for j in &self.jumps {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    format!("{:?}", j.change).to_lowercase(),
                    kind_word(j.kind),
                    jump_text(j.old),
                    jump_text(j.new)
                );
            }
        }
        if !self.squares.is_empty() {
            let _ = writeln!(
                out,
                "\n#### Squares whose P(ever rests there) changed most\n"
            );
            let _ = writeln!(out, "| square | old | new | change |");
            let _ = writeln!(out, "| ---: | ---: | ---: | ---: |");
            for s in &self.squares {
                let _ = writeln!(
                    out,
                    "| {} | {:.2}% | {:.2}% | {} |",
                    s.square,
                    s.old * 100.0,
                    s.new * 100.0,
                    crate::vocabulary::points(s.new - s.old)
                );
            }
        }
        if !self.rules.is_empty() {
            let _ = writeln!(out, "\n#### Rules\n");
            let _ = writeln!(out, "| rule | old | new |");
            let _ = writeln!(out, "| --- | --- | --- |");
            for r in &self.rules {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    cell(&r.label()),
                    cell(&r.old_words),
                    cell(&r.new_words)
                );
            }
        }
        // A blank line after the HTML block ends it: Markdown appended after
        // this document (the next board's diff in a job summary) is read as
        // Markdown, not as part of the block.
        let _ = writeln!(out, "\n</details>\n");
        out
    }

    /// A self-contained HTML page: the summary table, both boards drawn
    /// (with the report's board drawing), the two length
    /// distributions overlaid, and the details. `old` and `new` are the
    /// boards compared.
    fn html(&self, old: &Board, new: &Board) -> String {
        let esc = html_escape;
        let mut h = String::new();
        let heading = format!("Layout change: {} → {}", title(&self.old), title(&self.new));
        let _ = writeln!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>",
            esc(&heading),
            esc(&heading)
        );
        if self.same_board() {
            let _ = writeln!(h, "<p>The layouts and rules are the same.</p>");
        }
        let figures: Vec<Vec<String>> = self
            .figures
            .iter()
            .map(|f| {
                vec![
                    f.label.clone(),
                    value(f.old, &f.name),
                    value(f.new, &f.name),
                    change(f),
                ]
            })
            .collect();
        h.push_str(&table(
            &["figure", "old", "new", "change"],
            &figures,
            "figures",
        ));
        let _ = writeln!(h, "<h2>Game length of one player</h2>");
        h.push_str(&crate::diff_html::overlay_figure(
            &self.pmfs[0],
            &self.pmfs[1],
            CHART_MASS,
        ));
        let _ = writeln!(h, "<h2>The boards</h2>\n<div class=\"boards\">");
        for (side, board, new_side) in [(&self.old, old, false), (&self.new, new, true)] {
            let _ = writeln!(h, "<figure><figcaption>{}</figcaption>", esc(&title(side)));
            let overlay = crate::report::charts::Overlay {
                jump_marks: crate::diff_html::jump_marks(board, &self.jumps, new_side),
                ..Default::default()
            };
            chart(
                &mut h,
                crate::report::charts::board_svg(board, &title(side), &overlay)
                    .map_err(|e| e.to_string()),
            );
            let _ = writeln!(h, "</figure>");
        }
        let _ = writeln!(h, "</div>");
        if !self.jumps.is_empty() {
            let _ = writeln!(h, "{}", crate::diff_html::marks_legend());
        }
        if !self.jumps.is_empty() {
            let _ = writeln!(h, "<h2>Jumps</h2>");
            let rows: Vec<Vec<String>> = self
                .jumps
                .iter()
                .map(|j| {
                    vec![
                        format!("{:?}", j.change).to_lowercase(),
                        kind_word(j.kind).to_string(),
                        jump_text(j.old),
                        jump_text(j.new),
                    ]
                })
                .collect();
            h.push_str(&table(&["change", "kind", "old", "new"], &rows, "jumps"));
        }
        if !self.squares.is_empty() {
            let _ = writeln!(h, "<h2>Squares whose P(ever rests there) changed most</h2>");
            let rows: Vec<Vec<String>> = self
                .squares
                .iter()
                .map(|s| {
                    vec![
                        s.square.to_string(),
                        format!("{:.2}%", s.old * 100.0),
                        format!("{:.2}%", s.new * 100.0),
                        crate::vocabulary::points(s.new - s.old),
                    ]
                })
                .collect();
            h.push_str(&table(
                &["square", "old", "new", "change"],
                &rows,
                "squares",
            ));
        }
        if !self.rules.is_empty() {
            let _ = writeln!(
                h,
                "<h2>Rules</h2>\n<table>\n<tr><th>rule</th><th>old</th><th>new</th></tr>"
            );
            for r in &self.rules {
                let _ = writeln!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&r.label()),
                    esc(&r.old_words),
                    esc(&r.new_words)
                );
            }
            let _ = writeln!(h, "</table>");
        }
        let _ = writeln!(h, "</body>\n</html>");
        h
    }
}

/// The page's style: the report's tables (cards on a phone), the overlay
/// chart at the size that fits, and boards side by side where there is room.
const STYLE: &str = concat!(
    "*{box-sizing:border-box}body{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}\
h1,h2,h3,p,li,figcaption{overflow-wrap:anywhere}\
table{border-collapse:collapse;margin:1rem 0;font-variant-numeric:tabular-nums}td,th{border:1px solid #ccc;padding:.25rem .6rem}\
td{text-align:right}td:first-child{text-align:left}.boards{display:flex;flex-wrap:wrap;gap:1rem}\
.boards figure{flex:1 1 20rem;min-width:0}figure{margin:0}svg{max-width:100%;height:auto}\
figure.chart{max-width:48rem}figure.chart svg{display:block;width:100%}.narrow{display:none}\
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;align-items:center;margin:.6rem 0}.legend svg{vertical-align:middle}\
@media (max-width:600px){body{margin:1rem auto;padding:0 .6rem}.wide{display:none}.narrow{display:block}}\n",
    include_str!("report/tables.css")
);

/// A table of the page, as the report writes its tables (escaped; one card
/// per row on a phone).
fn table(header: &[&str], rows: &[Vec<String>], rows_are: &str) -> String {
    let header: Vec<String> = header.iter().map(|c| c.to_string()).collect();
    crate::report::tables::html(rows_are, &header, rows, rows_are)
}

fn chart(h: &mut String, svg: Result<String, String>) {
    match svg {
        Ok(svg) => h.push_str(&svg),
        Err(e) => {
            let _ = writeln!(h, "<p>(chart not drawn: {})</p>", html_escape(&e));
        }
    }
    h.push('\n');
}

fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Share of each length distribution drawn in the overlay chart.
const CHART_MASS: f64 = 0.999;
