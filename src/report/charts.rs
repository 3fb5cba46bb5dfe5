//! Charts as self-contained SVG text, drawn with plotters.
//!
//! Each function returns a complete `<svg>` document as a `String`, ready to
//! be embedded in an HTML page or written to a file. Text is emitted as SVG
//! `<text>` elements, so no font files are needed to draw.

use crate::{Board, JumpKind, Square};
use plotters::prelude::*;

/// Boards with more squares than this are not drawn square by square: the
/// picture would be unreadable and the SVG needlessly large.
pub const MAX_DRAWN_SQUARES: u32 = 2_500;

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The drawing backend failed.
    #[error("cannot draw the {chart} chart: {message}")]
    Draw {
        /// Which chart.
        chart: &'static str,
        /// The backend's message.
        message: String,
    },
    /// The board has too many squares to draw.
    #[error("the board has {squares} squares, more than the {MAX_DRAWN_SQUARES} a drawing shows")]
    TooManySquares {
        /// Squares on the board.
        squares: u32,
    },
}

fn draw_error<E: std::fmt::Debug>(chart: &'static str) -> impl Fn(E) -> ChartError {
    move |e| ChartError::Draw {
        chart,
        message: format!("{e:?}"),
    }
}

/// A bar chart of the game-length distribution `P(T = t)` (`pmf[t - 1]`),
/// cut where the cumulative probability reaches `shown_mass` (e.g. 0.999), with
/// the mean marked.
///
/// # Errors
/// [`ChartError::Draw`] if plotters fails.
pub fn length_chart(pmf: &[f64], mean: f64, shown_mass: f64) -> Result<String, ChartError> {
    const NAME: &str = "game length";
    let mut cumulative = 0.0;
    let shown = pmf
        .iter()
        .position(|p| {
            cumulative += p;
            cumulative >= shown_mass
        })
        .map_or(pmf.len(), |i| i + 1)
        .max(1);
    let top = pmf[..shown.min(pmf.len())]
        .iter()
        .copied()
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE)
        * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 360)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error(NAME))?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Game length: P(T = t) turns", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0.5_f64..shown as f64 + 0.5, 0.0..top)
            .map_err(draw_error(NAME))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("turns t")
            .y_desc("probability")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.3}"))
            .draw()
            .map_err(draw_error(NAME))?;
        chart
            .draw_series(pmf.iter().take(shown).enumerate().map(|(i, &p)| {
                let t = i as f64 + 1.0;
                Rectangle::new(
                    [(t - 0.4, 0.0), (t + 0.4, p)],
                    RGBColor(52, 101, 164).filled(),
                )
            }))
            .map_err(draw_error(NAME))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(mean, 0.0), (mean, top)],
                RGBColor(204, 0, 0).stroke_width(2),
            )))
            .map_err(draw_error(NAME))?
            .label(format!("mean {mean:.2}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RGBColor(204, 0, 0)));
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.8))
            .draw()
            .map_err(draw_error(NAME))?;
        root.present().map_err(draw_error(NAME))?;
    }
    Ok(svg)
}

/// Where square `s` (1..=N) is drawn on a serpentine grid of `width`
/// columns: its (column, row) with row 0 at the bottom.
pub fn grid_position(square: Square, width: u32) -> (u32, u32) {
    let i = square.get().saturating_sub(1);
    let row = i / width;
    let col = if row % 2 == 0 {
        i % width
    } else {
        width - 1 - i % width
    };
    (col, row)
}

/// The board drawn as a serpentine grid: square numbers, ladders in green and
/// snakes in red, and, when `heat` is given (a value in [0, 1] per square,
/// `heat[s]` for square `s`), each square shaded by it.
///
/// # Errors
/// [`ChartError::TooManySquares`] past [`MAX_DRAWN_SQUARES`];
/// [`ChartError::Draw`] if plotters fails.
pub fn board_chart(board: &Board, heat: Option<&[f64]>) -> Result<String, ChartError> {
    const NAME: &str = "board";
    let n = board.last().get();
    if n > MAX_DRAWN_SQUARES {
        return Err(ChartError::TooManySquares { squares: n });
    }
    let width = board.width();
    let rows = n.div_ceil(width);
    let cell = (640 / width.max(rows)).clamp(12, 64) as i32;
    let (w, h) = (cell * width as i32 + 2, cell * rows as i32 + 2);
    let centre = |s: Square| {
        let (col, row) = grid_position(s, width);
        (
            col as i32 * cell + cell / 2 + 1,
            (rows - 1 - row) as i32 * cell + cell / 2 + 1,
        )
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w as u32, h as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error(NAME))?;
        let font = ("sans-serif", (cell / 4).max(7))
            .into_font()
            .color(&BLACK.mix(0.7));
        for s in 1..=n {
            let (cx, cy) = centre(Square::new(s));
            let (x0, y0) = (cx - cell / 2, cy - cell / 2);
            let shade = heat.and_then(|h| h.get(s as usize)).copied().unwrap_or(0.0);
            let fill = if heat.is_some() {
                let t = shade.clamp(0.0, 1.0);
                RGBColor(255, (255.0 - 120.0 * t) as u8, (255.0 - 200.0 * t) as u8)
            } else if (grid_position(Square::new(s), width).0
                + grid_position(Square::new(s), width).1)
                % 2
                == 0
            {
                RGBColor(250, 246, 232)
            } else {
                RGBColor(255, 255, 255)
            };
            root.draw(&Rectangle::new(
                [(x0, y0), (x0 + cell, y0 + cell)],
                fill.filled(),
            ))
            .map_err(draw_error(NAME))?;
            root.draw(&Rectangle::new(
                [(x0, y0), (x0 + cell, y0 + cell)],
                BLACK.mix(0.25).stroke_width(1),
            ))
            .map_err(draw_error(NAME))?;
            root.draw(&Text::new(s.to_string(), (x0 + 2, y0 + 2), font.clone()))
                .map_err(draw_error(NAME))?;
        }
        for jump in board.jumps() {
            let colour = match jump.kind() {
                JumpKind::Ladder => RGBColor(46, 139, 87),
                JumpKind::Snake => RGBColor(204, 0, 0),
            };
            let (from, to) = (centre(jump.from()), centre(jump.to()));
            root.draw(&PathElement::new(
                vec![from, to],
                colour.mix(0.8).stroke_width((cell / 12).max(2) as u32),
            ))
            .map_err(draw_error(NAME))?;
            root.draw(&Circle::new(to, (cell / 8).max(3), colour.filled()))
                .map_err(draw_error(NAME))?;
        }
        root.present().map_err(draw_error(NAME))?;
    }
    Ok(svg)
}

/// Horizontal bars, one per labelled value (e.g. each seat's probability of
/// winning, or each jump's expected uses).
///
/// # Errors
/// [`ChartError::Draw`] if plotters fails.
pub fn bar_chart(
    title: &str,
    bars: &[(String, f64)],
    value_desc: &str,
) -> Result<String, ChartError> {
    const NAME: &str = "bar";
    let top = bars
        .iter()
        .map(|b| b.1)
        .fold(0.0_f64, f64::max)
        .max(f64::MIN_POSITIVE)
        * 1.15;
    let height = 90 + 34 * bars.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error(NAME))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(120)
            .build_cartesian_2d(0.0..top, (0..bars.len()).into_segmented())
            .map_err(draw_error(NAME))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc(value_desc)
            .x_label_style(("sans-serif", 13))
            .y_label_style(("sans-serif", 14))
            .y_labels(bars.len().max(1))
            .y_label_formatter(&|v| match v {
                // The first bar is drawn at the top.
                SegmentValue::CenterOf(i) if *i < bars.len() => bars[bars.len() - 1 - i].0.clone(),
                _ => String::new(),
            })
            .draw()
            .map_err(draw_error(NAME))?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, (_, v))| {
                let i = bars.len() - 1 - i;
                let mut bar = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(i)),
                        (*v, SegmentValue::Exact(i + 1)),
                    ],
                    RGBColor(52, 101, 164).filled(),
                );
                bar.set_margin(5, 5, 0, 0);
                bar
            }))
            .map_err(draw_error(NAME))?;
        root.present().map_err(draw_error(NAME))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serpentine_rows_alternate() {
        // 10 columns: 1..10 left to right on the bottom row, 11..20 right to left.
        assert_eq!(grid_position(Square::new(1), 10), (0, 0));
        assert_eq!(grid_position(Square::new(10), 10), (9, 0));
        assert_eq!(grid_position(Square::new(11), 10), (9, 1));
        assert_eq!(grid_position(Square::new(20), 10), (0, 1));
        assert_eq!(grid_position(Square::new(21), 10), (0, 2));
    }

    #[test]
    fn board_chart_draws_every_square_and_jump() {
        let board = Board::builtin_default();
        let svg = board_chart(&board, None).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("\n100\n</text>"), "square 100 is labelled");
        // One circle marks the end of each jump.
        assert_eq!(svg.matches("<circle").count(), board.jumps().len());
    }

    #[test]
    fn huge_boards_are_refused_not_drawn() {
        let board = Board::from_json_str(r#"{"squares": 10000}"#).unwrap();
        assert!(matches!(
            board_chart(&board, None),
            Err(ChartError::TooManySquares { squares: 10000 })
        ));
    }

    #[test]
    fn length_chart_stops_at_the_shown_mass() {
        // Geometric-ish pmf: 0.5, 0.25, ... ; 0.999 of the mass is reached at t = 10.
        let pmf: Vec<f64> = (1..=40).map(|t| 0.5_f64.powi(t)).collect();
        let svg = length_chart(&pmf, 2.0, 0.999).unwrap();
        assert_eq!(svg.matches("fill=\"#3465A4\"").count(), 10);
    }
}

#[cfg(test)]
mod examples {
    //! Worked examples of this module's crate-private items.

    #[test]
    fn example_at_line_48() -> Result<(), Box<dyn std::error::Error>> {
        use crate::report::charts::length_chart;
        let pmf = [0.0, 0.25, 0.5, 0.25];
        let svg = length_chart(&pmf, 3.0, 0.999)?;
        assert!(svg.starts_with("<svg"));
        Ok(())
    }
}
