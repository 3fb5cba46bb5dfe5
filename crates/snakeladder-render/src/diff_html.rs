//! Pieces of the HTML comparison page (`diff --format html`) that make it
//! read on a phone: the length overlay drawn at a wide and a narrow size
//! with its legend below the plot, and the changed jumps marked on both
//! board drawings.

use crate::diff::{JumpDiff, JumpDiffKind};
use crate::report::charts::{self, JumpMark, Size};
use crate::report::marks;
use snakeladder::Board;

/// The caption of the overlay chart.
const OVERLAY_TITLE: &str = "Game length: P(T = t), old and new";

/// Most points of each curve of the overlay: about one every two pixels of
/// the wide chart. A longer distribution is drawn as the mean of P(T = t)
/// over runs of equal length, as the report bins its length chart; one
/// point per turn made a 64 MB page of a 10,000-square board.
const OVERLAY_POINTS: usize = 400;

/// The marks of `board`'s jumps (in the order of [`Board::jumps`]): on the
/// old board (`new_side` false) the removed and moved jumps, on the new
/// board the added and moved ones.
pub(crate) fn jump_marks(
    board: &Board,
    jumps: &[JumpDiff],
    new_side: bool,
) -> Vec<Option<JumpMark>> {
    board
        .jumps()
        .iter()
        .map(|j| {
            let (from, to) = (j.from().get(), j.to().get());
            jumps.iter().find_map(|d| {
                let side = if new_side { d.new } else { d.old };
                side.filter(|s| s.from == from && s.to == to)?;
                Some(match d.change {
                    JumpDiffKind::Added => JumpMark::Added,
                    JumpDiffKind::Removed => JumpMark::Removed,
                    JumpDiffKind::Moved => JumpMark::Moved,
                })
            })
        })
        .collect()
}

/// The legend of the marks, as HTML.
pub(crate) fn marks_legend() -> String {
    let mut h = String::from("<div class=\"legend diff-legend\">");
    for (m, what) in [
        (JumpMark::Added, "added (new board)"),
        (JumpMark::Removed, "removed (old board)"),
        (JumpMark::Moved, "moved (both boards)"),
    ] {
        h.push_str(&format!(
            "<span class=\"sl-key\" data-change=\"{}\">{} {what}</span> ",
            m.word(),
            m.swatch()
        ));
    }
    h.push_str("</div>");
    h
}

/// The two length distributions as lines on one chart at `size`, each cut
/// where its cumulative probability reaches `mass`; the legend below the
/// plot.
pub(crate) fn overlay_chart(
    old: &[f64],
    new: &[f64],
    mass: f64,
    size: Size,
) -> Result<String, String> {
    use plotters::prelude::*;
    let shown = |pmf: &[f64]| {
        let mut cumulative = 0.0;
        pmf.iter()
            .position(|p| {
                cumulative += p;
                cumulative >= mass
            })
            .map_or(pmf.len(), |i| i + 1)
    };
    let until = shown(old).max(shown(new)).max(1);
    let bin = until.div_ceil(OVERLAY_POINTS);
    // Each curve's points: (the middle turn of a run, the mean of P(T = t)
    // over its turns).
    let binned = |pmf: &[f64]| -> Vec<(f64, f64)> {
        (0..until.div_ceil(bin))
            .map(|b| {
                let (lo, hi) = (b * bin, ((b + 1) * bin).min(until));
                let mass: f64 = (lo..hi)
                    .map(|t| pmf.get(t).copied().filter(|p| p.is_finite()).unwrap_or(0.0))
                    .sum();
                ((lo + hi + 1) as f64 / 2.0, mass / (hi - lo) as f64)
            })
            .collect()
    };
    let curves = [binned(old), binned(new)];
    let top = curves
        .iter()
        .flatten()
        .map(|&(_, p)| p)
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE)
        * 1.1;
    let y_step = charts::tick_step(top, 8);
    let err = |e: &dyn std::fmt::Debug| format!("cannot draw the length overlay: {e:?}");
    let lines = [
        ("old", &curves[0], RGBColor(120, 120, 120)),
        ("new", &curves[1], RGBColor(52, 101, 164)),
    ];
    let keys: Vec<marks::Key> = lines
        .iter()
        .map(|(label, _, colour)| marks::Key {
            swatch: marks::Swatch::Line,
            colour: marks::hex(*colour),
            label: (*label).to_string(),
        })
        .collect();
    let font = size.font;
    let legend_width = f64::from(size.width) - 24.0;
    let legend_h = marks::legend_height(&keys, legend_width, font);
    let narrow = size.width < 500;
    let mut extra = String::new();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height + legend_h))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (upper, _) = root.split_vertically(size.height);
        let mut chart = ChartBuilder::on(&upper)
            .caption(OVERLAY_TITLE, ("sans-serif", font + 3))
            .margin(8)
            .margin_right(14)
            .x_label_area_size(font * 3)
            .y_label_area_size(font * 5)
            .build_cartesian_2d(0.5_f64..until as f64 + 0.5, 0.0..top)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_desc("turns t")
            .y_desc(if bin == 1 {
                "probability".to_string()
            } else {
                format!("probability, mean over {bin} turns")
            })
            .x_labels(if narrow { 5 } else { 10 })
            .y_labels(if narrow { 5 } else { 8 })
            .label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", font))
            .x_label_formatter(&|x| crate::report::text::turns_tick(*x))
            .y_label_formatter(&|y| crate::report::text::tick(*y, y_step))
            .draw()
            .map_err(|e| err(&e))?;
        let area = chart.plotting_area();
        let (xs, ys) = area.get_pixel_range();
        extra.push_str(&marks::plot_box(xs, ys));
        for (_, curve, colour) in &lines {
            let points: Vec<(i32, i32)> = curve
                .iter()
                .map(|&point| area.map_coordinate(&point))
                .collect();
            extra.push_str(&marks::polyline(
                "sl-curve",
                &points,
                &marks::hex(*colour),
                2.0,
            ));
        }
        extra.push_str(&marks::legend(
            &keys,
            12.0,
            f64::from(size.height) + 2.0,
            legend_width,
            font,
        ));
        root.present().map_err(|e| err(&e))?;
    }
    Ok(charts::finish(
        marks::append(svg, &extra),
        "overlay",
        OVERLAY_TITLE,
    ))
}

/// Both sizes of the overlay in one figure (the page's style shows the one
/// that fits), or a note why it is missing.
pub(crate) fn overlay_figure(old: &[f64], new: &[f64], mass: f64) -> String {
    match (
        overlay_chart(old, new, mass, Size::WIDE),
        overlay_chart(old, new, mass, Size::NARROW),
    ) {
        (Ok(wide), Ok(narrow)) => format!(
            "<figure class=\"chart\"><div class=\"wide\">{wide}</div><div class=\"narrow\">{narrow}</div></figure>\n"
        ),
        (Err(e), _) | (_, Err(e)) => format!(
            "<p>(chart not drawn: {})</p>\n",
            crate::report::text::html(&e)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::JumpSide;

    #[test]
    fn each_board_marks_its_side_of_a_change() {
        let old = Board::from_json_str(
            r#"{"squares": 30, "ladders": [[3, 11], [5, 20]], "snakes": [[27, 7]]}"#,
        )
        .unwrap();
        let new = Board::from_json_str(
            r#"{"squares": 30, "ladders": [[3, 11], [6, 25]], "snakes": [[27, 9]]}"#,
        )
        .unwrap();
        let side = |from, to| {
            Some(JumpSide {
                from,
                to,
                use_probability: None,
            })
        };
        let jumps = vec![
            JumpDiff {
                change: JumpDiffKind::Removed,
                kind: snakeladder::JumpKind::Ladder,
                old: side(5, 20),
                new: None,
            },
            JumpDiff {
                change: JumpDiffKind::Added,
                kind: snakeladder::JumpKind::Ladder,
                old: None,
                new: side(6, 25),
            },
            JumpDiff {
                change: JumpDiffKind::Moved,
                kind: snakeladder::JumpKind::Snake,
                old: side(27, 7),
                new: side(27, 9),
            },
        ];
        let on = |b: &Board, n| {
            b.jumps()
                .iter()
                .zip(jump_marks(b, &jumps, n))
                .filter_map(|(j, m)| m.map(|m| (j.from().get(), m)))
                .collect::<Vec<_>>()
        };
        let mut o = on(&old, false);
        o.sort_by_key(|x| x.0);
        assert_eq!(o, [(5, JumpMark::Removed), (27, JumpMark::Moved)]);
        let mut n = on(&new, true);
        n.sort_by_key(|x| x.0);
        assert_eq!(n, [(6, JumpMark::Added), (27, JumpMark::Moved)]);
        let svg = charts::board_svg(
            &new,
            "n",
            &charts::Overlay {
                jump_marks: jump_marks(&new, &jumps, true),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(svg.matches("sl-mark-halo").count(), 2);
        assert!(svg.contains("class=\"sl-jump sl-ladder sl-changed sl-added\" data-from=\"6\""));
    }

    /// A distribution of a million turns is drawn as at most
    /// `OVERLAY_POINTS` points a curve (one per turn made a 64 MB page of
    /// a 10,000-square board), and its probability axis reads in digits
    /// that tell its ticks apart (every one read `0.000` before).
    #[test]
    fn a_long_distribution_is_drawn_in_runs() {
        let rho = 1.0 - 1e-5_f64;
        let pmf: Vec<f64> = (0..1_000_000).map(|t| (1.0 - rho) * rho.powi(t)).collect();
        let svg = overlay_chart(&pmf, &pmf, 0.999, Size::WIDE).unwrap();
        assert!(svg.len() < 100_000, "{} bytes", svg.len());
        let curve = &svg[svg.find("class=\"sl-curve\"").unwrap()..];
        let points = curve
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert!(points.split(' ').count() <= OVERLAY_POINTS, "{points}");
        assert!(
            svg.contains("mean over"),
            "the axis says the curve is of means"
        );
        // Each label is a line of its own in the SVG's text elements.
        assert!(!svg.contains("\n0.000\n"));
        assert!(
            svg.contains("\n1e-5\n") && svg.contains("\n2e-6\n"),
            "{svg}"
        );
        assert!(svg.contains("\n500k\n"), "{svg}");
    }

    #[test]
    fn the_overlay_keeps_its_legend_below_the_plot() {
        let pmf: Vec<f64> = (1..=40).map(|t| 0.5_f64.powi(t)).collect();
        for size in [Size::WIDE, Size::NARROW] {
            let svg = overlay_chart(&pmf, &pmf[1..], 0.999, size).unwrap();
            assert!(svg.starts_with("<svg class=\"chart overlay\""));
            assert_eq!(svg.matches("class=\"sl-curve\"").count(), 2);
            let legend = &svg[svg.find("<g class=\"sl-legend\">").unwrap()..];
            let y: f64 = legend
                .split("y=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(y > f64::from(size.height), "{y}");
        }
    }
}
