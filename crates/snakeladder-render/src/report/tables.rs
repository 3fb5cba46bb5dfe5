//! Tables of a report page as HTML, readable on a phone.
//!
//! - A table of four columns or more (`class="cards"`) is laid out as one
//!   card per row on a narrow screen, each figure beside its column's name
//!   (`data-label`, shown by the style sheet), so no column is hidden in a
//!   box that scrolls sideways. A narrower table (`class="plain"`) lets its
//!   cells wrap at their spaces on a narrow screen: its figures stay on
//!   one line each, and a label such as "standard deviation" takes two, so
//!   the four-digit turns of a 10,000-square board fit 360 pixels.
//! - A table longer than [`FOLD_AFTER`] + [`FOLD_SLACK`] rows shows its
//!   first [`FOLD_AFTER`] rows; the rest follow in a second table inside a
//!   closed `<details>`, so a board of 600 jumps does not make a page of
//!   22,000 pixels. Callers put the rows that matter most first.
//! - Every table can be sorted by a column (`data-sort`): the page's script
//!   turns each header into a button; a folded table sorts all its rows
//!   together and keeps the first [`FOLD_AFTER`] on show. Without script
//!   the rows keep the order the report chose.

use super::text;
use std::fmt::Write;

/// Rows a long table shows before folding the rest away.
pub(crate) const FOLD_AFTER: usize = 20;
/// A table is folded only when it has this many rows more than
/// [`FOLD_AFTER`]: folding away two rows would hide more than it saves.
pub(crate) const FOLD_SLACK: usize = 5;
/// The fewest columns laid out as cards on a phone: three columns of
/// figures fit 360 pixels.
const CARD_COLUMNS: usize = 4;

/// Whether a table of `rows` rows is folded.
pub(crate) fn folds(rows: usize) -> bool {
    rows > FOLD_AFTER + FOLD_SLACK
}

/// `header` and `rows` as HTML: one table (of class `sl-{name}`), or a
/// table and the rest of its rows folded behind a `<details>` naming how
/// many `rows_are` it holds.
pub(crate) fn html(name: &str, header: &[String], rows: &[Vec<String>], rows_are: &str) -> String {
    let cards = header.len() >= CARD_COLUMNS;
    let fold = folds(rows.len());
    let mut h = String::new();
    if fold {
        let _ = write!(h, "<div class=\"sl-fold\" data-shown=\"{FOLD_AFTER}\">");
    }
    let (shown, rest) = rows.split_at(if fold { FOLD_AFTER } else { rows.len() });
    one(&mut h, name, header, shown, cards, "");
    if fold {
        let _ = write!(
            h,
            "<details class=\"more\"><summary>{} more {}</summary>",
            rest.len(),
            text::html(rows_are)
        );
        one(&mut h, name, header, rest, cards, " sl-more");
        h.push_str("</details></div>\n");
    }
    h
}

fn one(
    h: &mut String,
    name: &str,
    header: &[String],
    rows: &[Vec<String>],
    cards: bool,
    class: &str,
) {
    let _ = write!(
        h,
        "<div class=\"scroll\"><table class=\"sl-{} {}{class}\" data-sort>\n<thead><tr>",
        text::html(name),
        if cards { "cards" } else { "plain" }
    );
    for c in header {
        let _ = write!(h, "<th scope=\"col\">{}</th>", text::html(c));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        h.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            let label = header.get(i).map_or(String::new(), |l| text::html(l));
            let _ = write!(h, "<td data-label=\"{label}\">{}</td>", text::html(c));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table></div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: usize) -> Vec<Vec<String>> {
        (0..n).map(|i| vec![i.to_string(), "x".into()]).collect()
    }

    #[test]
    fn long_tables_fold_and_short_ones_do_not() {
        let header = vec!["a".to_string(), "b".to_string()];
        let short = html("t", &header, &rows(FOLD_AFTER + FOLD_SLACK), "jumps");
        assert!(!short.contains("<details"));
        assert_eq!(short.matches("<tr>").count(), FOLD_AFTER + FOLD_SLACK + 1);
        let long = html("t", &header, &rows(600), "jumps");
        assert!(long.contains(&format!(
            "<summary>{} more jumps</summary>",
            600 - FOLD_AFTER
        )));
        let (shown, folded) = long.split_at(long.find("<details").unwrap());
        assert_eq!(shown.matches("<td data-label=\"a\">").count(), FOLD_AFTER);
        assert_eq!(
            folded.matches("<td data-label=\"a\">").count(),
            600 - FOLD_AFTER
        );
        // The rows keep their order: the first shown, the rest folded.
        assert!(shown.contains(">19</td>") && folded.contains(">20</td>"));
    }

    #[test]
    fn wide_tables_are_cards_and_cells_carry_their_column() {
        let header: Vec<String> = ["seat <1>", "b", "c", "d"].map(String::from).to_vec();
        let h = html("t", &header, &[vec!["1".into(); 4]], "rows");
        assert!(h.contains("<table class=\"sl-t cards\" data-sort>"));
        assert!(h.contains("<td data-label=\"seat &lt;1&gt;\">1</td>"));
        let narrow = html("t", &header[..3], &[vec!["1".into(); 3]], "rows");
        assert!(narrow.contains("<table class=\"sl-t plain\" data-sort>"));
    }
}
