//! SVG pieces written beside plotters' drawing: a chart's legend in a band
//! below the plot (never over the data), and the curves and marker lines a
//! browser test must find (each with a class, which plotters' SVG backend
//! cannot give).
//!
//! Coordinates are SVG units of the whole drawing; callers take them from
//! plotters' `map_coordinate`, so these pieces sit exactly where plotters
//! would have drawn them.

use super::text;
use std::fmt::Write;

/// How a legend entry shows its series.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Swatch {
    /// A filled box (bars).
    Box,
    /// A line (a curve or a marker line).
    Line,
}

/// One legend entry: its swatch, colour (`#rrggbb`) and label.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Key {
    pub swatch: Swatch,
    pub colour: String,
    pub label: String,
}

/// Width of a swatch and the gap after it, in SVG units.
const SWATCH: f64 = 16.0;
const GAP: f64 = 6.0;
/// Space between two entries on a row.
const SPACING: f64 = 16.0;
/// Width of one character of sans-serif text as a share of its size: a
/// generous estimate (digits and lower case are about 0.5), so an entry
/// never runs past its slot or the drawing.
const CHAR: f64 = 0.6;

/// plotters draws text of size `font` at `font / 1.24` SVG units; the
/// legend matches its tick labels.
pub(crate) fn text_px(font: u32) -> f64 {
    f64::from(font) / 1.24
}

/// The (x, row) of each entry laid out left to right in rows no wider
/// than `width`, and the number of rows.
fn layout(keys: &[Key], width: f64, font: u32) -> (Vec<(f64, usize)>, usize) {
    let px = text_px(font);
    let mut out = Vec::with_capacity(keys.len());
    let (mut x, mut row) = (0.0, 0);
    for k in keys {
        let w = SWATCH + GAP + k.label.chars().count() as f64 * px * CHAR;
        if x > 0.0 && x + w > width {
            x = 0.0;
            row += 1;
        }
        out.push((x, row));
        x += w + SPACING;
    }
    let rows = if keys.is_empty() { 0 } else { row + 1 };
    (out, rows)
}

/// The height of one legend row.
fn row_height(font: u32) -> f64 {
    (text_px(font) * 1.5).ceil()
}

/// The height of the band a legend of `keys` needs in `width` units.
pub(crate) fn legend_height(keys: &[Key], width: f64, font: u32) -> u32 {
    let (_, rows) = layout(keys, width, font);
    (rows as f64 * row_height(font)).ceil() as u32 + 8
}

/// The legend as `<g class="sl-legend">`, its top-left corner at
/// (`x0`, `y0`), its rows at most `width` wide.
pub(crate) fn legend(keys: &[Key], x0: f64, y0: f64, width: f64, font: u32) -> String {
    let (places, _) = layout(keys, width, font);
    let px = text_px(font);
    let row = row_height(font);
    let mut g = String::from("<g class=\"sl-legend\">");
    for (k, &(x, r)) in keys.iter().zip(&places) {
        let (x, cy) = (x0 + x, y0 + 4.0 + r as f64 * row + row / 2.0);
        let colour = text::html(&k.colour);
        let _ = match k.swatch {
            Swatch::Box => write!(
                g,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{SWATCH}\" height=\"{:.1}\" fill=\"{colour}\"/>",
                cy - px * 0.4,
                px * 0.8
            ),
            Swatch::Line => write!(
                g,
                "<line x1=\"{x:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"{colour}\" stroke-width=\"2.5\"/>",
                x + SWATCH
            ),
        };
        let _ = write!(
            g,
            "<text x=\"{:.1}\" y=\"{cy:.1}\" dominant-baseline=\"central\" font-family=\"sans-serif\" font-size=\"{px:.2}\" fill=\"#000000\">{}</text>",
            x + SWATCH + GAP,
            text::html(&k.label)
        );
    }
    g.push_str("</g>");
    g
}

/// A polyline through `points`, with `class`.
pub(crate) fn polyline(class: &str, points: &[(i32, i32)], colour: &str, width: f64) -> String {
    let mut p = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(p, "{}{x},{y}", if i == 0 { "" } else { " " });
    }
    format!(
        "<polyline class=\"{class}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\" stroke-linejoin=\"round\" points=\"{p}\"/>"
    )
}

/// The plotting area as an invisible rectangle with class `sl-plot`: what
/// the legend must stay clear of.
pub(crate) fn plot_box(x: std::ops::Range<i32>, y: std::ops::Range<i32>) -> String {
    format!(
        "<rect class=\"sl-plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"none\" pointer-events=\"none\"/>",
        x.start,
        y.start,
        x.end - x.start,
        y.end - y.start
    )
}

/// `svg` with `extra` added just before its closing tag.
pub(crate) fn append(mut svg: String, extra: &str) -> String {
    match svg.rfind("</svg>") {
        Some(end) => {
            svg.insert_str(end, extra);
            svg
        }
        None => svg + extra,
    }
}

/// `#rrggbb` of a plotters colour.
pub(crate) fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(label: &str) -> Key {
        Key {
            swatch: Swatch::Line,
            colour: "#000000".into(),
            label: label.into(),
        }
    }

    #[test]
    fn entries_wrap_into_rows_that_fit() {
        let keys: Vec<Key> = (0..6).map(|i| key(&format!("entry number {i}"))).collect();
        let (places, rows) = layout(&keys, 340.0, 16);
        assert!(rows >= 2, "{places:?}");
        for (k, (x, _)) in keys.iter().zip(&places) {
            let w = SWATCH + GAP + k.label.chars().count() as f64 * text_px(16) * CHAR;
            assert!(x + w <= 340.0, "{x} + {w}");
        }
        assert_eq!(layout(&keys[..1], 340.0, 16).1, 1);
        assert!(legend_height(&keys, 340.0, 16) > legend_height(&keys[..1], 340.0, 16));
    }

    #[test]
    fn labels_are_escaped_and_appended_inside_the_svg() {
        let g = legend(&[key("a < b")], 0.0, 0.0, 300.0, 16);
        assert!(g.starts_with("<g class=\"sl-legend\">") && g.contains("a &lt; b"));
        assert_eq!(append("<svg></svg>".into(), "<g/>"), "<svg><g/></svg>");
    }
}
