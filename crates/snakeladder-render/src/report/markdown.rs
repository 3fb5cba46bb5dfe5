//! The Markdown report: the document, with its charts as separate SVG
//! files it links to.

use super::*;

/// Adds a chart file and its image link, or a note why it is missing.
fn md_chart(
    md: &mut String,
    files: &mut Vec<ChartFile>,
    stem: Option<&str>,
    suffix: &str,
    alt: &str,
    chart: Result<String, ChartError>,
) -> std::fmt::Result {
    let Some(stem) = stem else { return Ok(()) };
    match chart {
        Ok(svg) => {
            let name = format!("{stem}-{suffix}.svg");
            // The link target is a file name the caller chose; angle brackets
            // let it hold spaces, and a backslash before `<`, `>` and `\`
            // keeps those as characters of the name (CommonMark), so the
            // link names the file written. A line break cannot be escaped:
            // it is percent-encoded.
            let target = name
                .replace('\\', "\\\\")
                .replace('<', "\\<")
                .replace('>', "\\>")
                .replace('\n', "%0A")
                .replace('\r', "%0D");
            writeln!(md, "![{alt}](<{target}>)\n")?;
            files.push(ChartFile { name, svg });
        }
        Err(e) => writeln!(
            md,
            "*No {alt} chart: {}.*\n",
            text::markdown(&e.to_string())
        )?,
    }
    Ok(())
}

pub(super) fn write_markdown(
    md: &mut String,
    files: &mut Vec<ChartFile>,
    report: &Report,
    stem: Option<&str>,
    omitted: &[Omission],
) -> std::fmt::Result {
    let (board, a) = (report.board, report.analysis);
    writeln!(md, "# {}\n", text::markdown(title(a)))?;
    writeln!(
        md,
        "Fingerprint `{}` · {}  \nRules: {}\n",
        a.fingerprint,
        counts(a),
        text::markdown(&board.rules().to_string())
    )?;
    if !omitted.is_empty() {
        writeln!(md, "> **Left out of this report:**")?;
        for o in omitted {
            writeln!(md, "> - {}", text::markdown(&o.to_string()))?;
        }
        writeln!(md)?;
    }
    if !a.warnings.is_empty() {
        writeln!(md, "> **Less exact than the rest of this report:**")?;
        for w in &a.warnings {
            writeln!(md, "> - {}", text::markdown(&w.to_string()))?;
        }
        writeln!(md)?;
    }
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
    if !a.turns.pmf.is_empty() {
        md_chart(
            md,
            files,
            stem,
            "length",
            "game length",
            charts::length_chart(&a.turns, CHART_MASS, Size::WIDE),
        )?;
    }
    if stem.is_some() {
        writeln!(md, "## The board\n")?;
        writeln!(md, "{}\n", BOARD_NOTE)?;
        md_chart(
            md,
            files,
            stem,
            "board",
            "board",
            board::board_svg(board, &board_title(a), &overlay(board, a)),
        )?;
    }
    if !a.players.is_empty() {
        writeln!(md, "## Several players\n")?;
        for table in players_tables(a) {
            writeln!(md, "{}", table.markdown())?;
        }
        if let Some(chart) = seat_chart(a, Size::WIDE) {
            md_chart(md, files, stem, "seats", "seat odds", chart)?;
        }
    }
    if !a.jumps.is_empty() {
        writeln!(md, "## Snakes and ladders\n")?;
        writeln!(md, "{}", jumps_table(a, false).markdown())?;
        md_chart(
            md,
            files,
            stem,
            "jumps",
            "jump use",
            jump_chart(a, Size::WIDE),
        )?;
    }
    if let Some(c) = report.cross {
        writeln!(md, "## Cross-check against a simulation\n")?;
        writeln!(md, "{}\n", c.summary())?;
        writeln!(md, "{}", cross_table(c, a).markdown())?;
    }
    if let Some(s) = report.sensitivity.filter(|s| !s.variants.is_empty()) {
        writeln!(md, "## {LEVERS}\n")?;
        writeln!(md, "{}\n", text::markdown(&levers::summary(s)))?;
        writeln!(md, "{}", levers::table(s).markdown())?;
        md_chart(
            md,
            files,
            stem,
            "levers",
            "levers",
            levers::chart(s, Size::WIDE),
        )?;
    }
    writeln!(md, "## Most visited squares\n")?;
    write!(md, "{}", squares_table(a).markdown())?;
    Ok(())
}
