//! Charts as self-contained SVG text, drawn with plotters.
//!
//! Each function returns a complete `<svg>` element (with a `viewBox`, so it
//! scales to its container) as a `String`, ready to be embedded in an HTML
//! page or written to a file. Text is emitted as SVG `<text>` elements, so no
//! font files are needed. Every chart is drawn at a [`Size`]: a page embeds
//! a [`Size::WIDE`] and a [`Size::NARROW`] drawing and shows the one that
//! fits the screen, so labels stay readable on a phone.
//!
//! Charts are bounded whatever the board: the length distribution is binned
//! into at most [`Size::bars`] bars, and bar charts take a short list (the
//! caller caps it, e.g. the most used jumps).

use super::marks;
use super::text;
use snakeladder::analysis::Turns;

pub use super::board::{
    JumpMark, MAX_DRAWN_SQUARES, Overlay, board_svg, grid_position, heat_colour, legend_html,
};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The drawing size of a chart and the size of its text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Size {
    /// Width in SVG units (CSS pixels at scale 1).
    pub width: u32,
    /// Height of a plot (bar charts grow with their bars).
    pub height: u32,
    /// Size of tick and label text, as plotters takes it (its SVG text is
    /// this size divided by 1.24, so 16 draws 12.9-pixel text).
    pub font: u32,
}

impl Size {
    /// For screens wider than a phone, and print.
    pub const WIDE: Size = Size {
        width: 760,
        height: 380,
        font: 17,
    };
    /// For a phone (360–420 CSS pixels): drawn at its display size.
    pub const NARROW: Size = Size {
        width: 360,
        height: 340,
        font: 16,
    };

    /// The most bars a distribution is drawn with at this size (one per
    /// 3.5 units of width, so a bar stays visible; 217 on a wide chart).
    pub fn bars(&self) -> usize {
        (self.width * 2 / 7) as usize
    }

    fn caption(&self) -> u32 {
        self.font + 3
    }
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
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
    #[error("the board has {squares} squares, more than the {limit} a drawing shows")]
    TooManySquares {
        /// Squares on the board.
        squares: u32,
        /// The most squares drawn.
        limit: u32,
    },
    /// Nothing to draw (an empty distribution or no bars).
    #[error("the {chart} chart has nothing to show")]
    Empty {
        /// Which chart.
        chart: &'static str,
    },
}

fn draw_error<E: std::fmt::Debug>(chart: &'static str) -> impl Fn(E) -> ChartError {
    move |e| ChartError::Draw {
        chart,
        message: format!("{e:?}"),
    }
}

/// A step no larger than the distance between plotters' ticks on a range
/// of `span` with at most `ticks` labels, and a power of ten, so that
/// [`text::tick`] prints each tick with enough digits and no float noise.
pub(crate) fn tick_step(span: f64, ticks: usize) -> f64 {
    let estimate = span / ticks.max(1) as f64;
    if estimate > 0.0 && estimate.is_finite() {
        10f64.powi(estimate.log10().floor() as i32 - 1)
    } else {
        1.0
    }
}

/// The width of a y axis's label area: its longest tick label, a gap, its
/// rotated title and a margin, so neither is cut at the drawing's edge.
fn y_label_width(top: f64, step: f64, ticks: usize, font: u32) -> u32 {
    let longest = (0..=ticks * 2)
        .map(|i| {
            let y = (top * i as f64 / (ticks * 2) as f64 / step).round() * step;
            text::tick(y, step).chars().count()
        })
        .max()
        .unwrap_or(1) as f64;
    let px = marks::text_px(font);
    (longest * px * 0.6 + px * 1.4 + 16.0).ceil() as u32
}

/// Adds a class and an accessible name to plotters' `<svg>` element.
pub(crate) fn finish(svg: String, class: &str, title: &str) -> String {
    let title = text::html(title);
    match svg.find('>') {
        Some(end) if svg.starts_with("<svg") => format!(
            "<svg class=\"chart {class}\" role=\"img\" aria-label=\"{title}\"{}<title>{title}</title>{}",
            &svg[4..=end],
            &svg[end + 1..]
        ),
        _ => svg,
    }
}

const BLUE: RGBColor = RGBColor(52, 101, 164);
const CURVE: RGBColor = RGBColor(110, 110, 110);
const LADDER: RGBColor = RGBColor(46, 139, 87);
const SNAKE: RGBColor = RGBColor(192, 57, 43);

/// The caption of the length chart.
pub const LENGTH_TITLE: &str = "Game length of one player";

/// The game-length distribution `P(T = t)` as bars up to where `P(T ≤ t)`
/// reaches `shown_mass` (e.g. 0.999), with the cumulative curve on a second
/// axis and the mean, median, 90th and 99th percentiles marked. Past
/// [`Size::bars`] turns, turns are binned and each bar is the mean of
/// `P(T = t)` over its bin (the axis says so). The legend is drawn in a
/// band below the plot, so it never covers the bars, the curve or a
/// marker; the curve (`class="sl-curve"`), the markers (`sl-mark`), the
/// plotting area (`sl-plot`) and the legend (`sl-legend`) carry classes a
/// page or a test can select.
///
/// # Errors
/// [`ChartError::Empty`] when the distribution was not computed;
/// [`ChartError::Draw`] if plotters fails.
pub fn length_chart(turns: &Turns, shown_mass: f64, size: Size) -> Result<String, ChartError> {
    let pmf = &turns.pmf;
    if pmf.is_empty() || turns.cdf.len() != pmf.len() {
        return Err(ChartError::Empty { chart: LENGTH_NAME });
    }
    let plan = LengthPlan::new(turns, shown_mass, size);
    let svg = draw_length(&plan, size)?;
    Ok(finish(svg, "length", LENGTH_TITLE))
}

/// The length chart's name in its errors.
const LENGTH_NAME: &str = "game length";
/// Labelled ticks on the length chart's probability axis.
const LENGTH_Y_TICKS: usize = 6;

/// One bar of the length chart: the turns it spans (from `lo` to `hi`,
/// half a turn either side), its height (the mean of `P(T = t)` over
/// them) and `P(T ≤ t)` at its last turn.
struct LengthBar {
    lo: f64,
    hi: f64,
    height: f64,
    cdf: f64,
}

/// A line marking a figure on the turns axis: where, its legend label and
/// its colour.
type Marker = (f64, String, RGBColor);

/// What the length chart shows, worked out before anything is drawn.
struct LengthPlan {
    /// Turns per bar (1 unless binned).
    bin: usize,
    bars: Vec<LengthBar>,
    /// The top of the probability axis.
    top: f64,
    /// The right end of the turns axis.
    x_end: f64,
    x_desc: String,
    y_desc: String,
    /// The step of the probability axis's tick labels.
    y_step: f64,
    markers: Vec<Marker>,
    keys: Vec<marks::Key>,
    narrow: bool,
}

impl LengthPlan {
    fn new(turns: &Turns, shown_mass: f64, size: Size) -> LengthPlan {
        let (bin, bars) = length_bars(turns, turns_shown(turns, shown_mass), size.bars());
        // The legend sits in a band below the plot, so it covers no data.
        let narrow = size.width < 500;
        let top = bars
            .iter()
            .map(|b| b.height)
            .filter(|h| h.is_finite())
            .fold(0.0_f64, f64::max)
            .max(f64::MIN_POSITIVE)
            * 1.12;
        let x_end = bars.last().map_or(1.5, |b| b.hi);
        let (x_desc, y_desc) = length_axis_titles(bin, narrow);
        let markers = length_markers(turns, x_end);
        let keys = length_keys(&markers);
        LengthPlan {
            bin,
            bars,
            top,
            x_end,
            x_desc,
            y_desc,
            y_step: tick_step(top, LENGTH_Y_TICKS),
            markers,
            keys,
            narrow,
        }
    }
}

/// The turns the chart covers: up to where `P(T ≤ t)` reaches
/// `shown_mass`, and at least to the 99th percentile.
fn turns_shown(turns: &Turns, shown_mass: f64) -> usize {
    let len = turns.pmf.len();
    turns
        .cdf
        .iter()
        .position(|&c| c >= shown_mass)
        .map_or(len, |i| i + 1)
        .max(turns.p99.unwrap_or(1).min(len))
        .max(1)
}

/// The first `shown` turns in at most `most` bars of equal width: that
/// width, and the bars.
fn length_bars(turns: &Turns, shown: usize, most: usize) -> (usize, Vec<LengthBar>) {
    let pmf = &turns.pmf;
    let bin = shown.div_ceil(most).max(1);
    let bins = shown.div_ceil(bin);
    let bars = (0..bins)
        .map(|b| {
            let (lo, hi) = (b * bin, ((b + 1) * bin).min(pmf.len()));
            let mass: f64 = pmf[lo..hi].iter().sum();
            LengthBar {
                lo: lo as f64 + 0.5,
                hi: hi as f64 + 0.5,
                height: mass / bin as f64,
                cdf: turns.cdf[hi - 1],
            }
        })
        .collect();
    (bin, bars)
}

/// The titles of the turns and probability axes; binned bars say so, on
/// the turns axis when the chart is narrow.
fn length_axis_titles(bin: usize, narrow: bool) -> (String, String) {
    match (bin, narrow) {
        (1, _) => ("turns t".to_string(), "P(T = t)".to_string()),
        (_, false) => (
            "turns t".to_string(),
            format!("P(T = t), mean over {bin} turns"),
        ),
        (_, true) => (
            format!("turns t (bars of {bin} turns)"),
            "P(T = t), mean of a bar".to_string(),
        ),
    }
}

/// The mean, median, 90th and 99th percentiles, those known and within
/// the turns shown.
fn length_markers(turns: &Turns, x_end: f64) -> Vec<Marker> {
    let markers = [
        (
            Some(turns.mean),
            format!("mean {}", crate::numbers::quantity(turns.mean, 2)),
            RED,
        ),
        (
            turns.median.map(|t| t as f64),
            format!("median {}", turns.median.unwrap_or(0)),
            RGBColor(230, 126, 34),
        ),
        (
            turns.p90.map(|t| t as f64),
            format!("90% by {}", turns.p90.unwrap_or(0)),
            RGBColor(142, 68, 173),
        ),
        (
            turns.p99.map(|t| t as f64),
            format!("99% by {}", turns.p99.unwrap_or(0)),
            BLACK,
        ),
    ];
    markers
        .into_iter()
        .filter_map(|(at, label, colour)| {
            at.filter(|t| t.is_finite() && *t <= x_end)
                .map(|at| (at, label, colour))
        })
        .collect()
}

/// The legend: the bars, the cumulative curve, then each marker.
fn length_keys(markers: &[Marker]) -> Vec<marks::Key> {
    let mut keys = vec![
        marks::Key {
            swatch: marks::Swatch::Box,
            colour: marks::hex(BLUE),
            label: "P(T = t)".to_string(),
        },
        marks::Key {
            swatch: marks::Swatch::Line,
            colour: marks::hex(CURVE),
            label: "P(T ≤ t), right axis".to_string(),
        },
    ];
    keys.extend(markers.iter().map(|(_, label, colour)| marks::Key {
        swatch: marks::Swatch::Line,
        colour: marks::hex(*colour),
        label: label.clone(),
    }));
    keys
}

/// Draws the planned chart: plotters draws the axes and the bars; the
/// curve, the markers and the legend below the plot are added beside.
fn draw_length(plan: &LengthPlan, size: Size) -> Result<String, ChartError> {
    const NAME: &str = LENGTH_NAME;
    let font = size.font;
    let legend_width = f64::from(size.width) - 24.0;
    let legend_h = marks::legend_height(&plan.keys, legend_width, font - 1);
    // The y axis's labels are as wide as their longest tick (a board of
    // 10,000 squares has ticks such as 0.00012), plus its rotated title.
    let y_area = y_label_width(plan.top, plan.y_step, LENGTH_Y_TICKS, font);
    let extra;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height + legend_h))
            .into_drawing_area();
        root.fill(&WHITE).map_err(draw_error(NAME))?;
        let (upper, _) = root.split_vertically(size.height);
        let mut chart = ChartBuilder::on(&upper)
            .caption(LENGTH_TITLE, ("sans-serif", size.caption()))
            .margin(8)
            .margin_right(12)
            .x_label_area_size(font * 3)
            .y_label_area_size(y_area)
            .right_y_label_area_size(font * 3 + 6)
            .build_cartesian_2d(0.5_f64..plan.x_end, 0.0..plan.top)
            .map_err(draw_error(NAME))?
            .set_secondary_coord(0.5_f64..plan.x_end, 0.0_f64..1.0);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .x_desc(plan.x_desc.as_str())
            .y_desc(plan.y_desc.as_str())
            .x_labels(if plan.narrow { 5 } else { 10 })
            .y_labels(LENGTH_Y_TICKS)
            .label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", font))
            .x_label_formatter(&|x| crate::report::text::turns_tick(*x))
            .y_label_formatter(&|y| text::tick(*y, plan.y_step))
            .draw()
            .map_err(draw_error(NAME))?;
        chart
            .configure_secondary_axes()
            .y_desc("P(T ≤ t)")
            .y_labels(5)
            .label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", font))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()
            .map_err(draw_error(NAME))?;
        let gap = if plan.bin == 1 { 0.12 } else { 0.0 };
        chart
            .draw_series(plan.bars.iter().map(|b| {
                Rectangle::new(
                    [(b.lo + gap, 0.0), (b.hi - gap, b.height)],
                    BLUE.mix(0.85).filled(),
                )
            }))
            .map_err(draw_error(NAME))?;
        extra = length_overlay(
            chart.plotting_area(),
            chart.borrow_secondary().plotting_area(),
            plan,
            size,
            legend_width,
        );
        root.present().map_err(draw_error(NAME))?;
    }
    Ok(marks::append(svg, &extra))
}

/// A chart's plotting area, mapping its coordinates to pixels.
type PlotArea<'a> = DrawingArea<SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The curve and the marker lines, written with classes beside plotters'
/// drawing at the places plotters maps them to, and the legend below.
fn length_overlay(
    area: &PlotArea,
    secondary: &PlotArea,
    plan: &LengthPlan,
    size: Size,
    legend_width: f64,
) -> String {
    let mut extra = String::new();
    let (xs, ys) = area.get_pixel_range();
    extra.push_str(&marks::plot_box(xs.clone(), ys));
    let curve: Vec<(i32, i32)> = std::iter::once((0.5, 0.0))
        .chain(plan.bars.iter().map(|b| (b.hi, b.cdf.clamp(0.0, 1.0))))
        .map(|p| secondary.map_coordinate(&p))
        .collect();
    extra.push_str(&marks::polyline(
        "sl-curve",
        &curve,
        &marks::hex(CURVE),
        2.0,
    ));
    for (at, _, colour) in &plan.markers {
        let ends = [
            area.map_coordinate(&(*at, 0.0)),
            area.map_coordinate(&(*at, plan.top)),
        ];
        extra.push_str(&marks::polyline(
            "sl-mark",
            &ends,
            &marks::hex(*colour),
            2.0,
        ));
    }
    let below = size.height as f64 + 2.0;
    extra.push_str(&marks::legend(
        &plan.keys,
        f64::from(xs.start).min(12.0),
        below,
        legend_width,
        size.font - 1,
    ));
    extra
}

/// One bar of a horizontal bar chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The label beside the bar (a seat, a jump).
    pub label: String,
    /// Its length, in the chart's unit.
    pub value: f64,
    /// The value as printed at the end of the bar.
    pub note: String,
    /// Its colour.
    pub kind: BarKind,
}

/// The colour of a bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// Blue: a plain value.
    Plain,
    /// Green, as ladders are drawn on the board.
    Ladder,
    /// Red, as snakes are drawn on the board.
    Snake,
}

impl BarKind {
    fn colour(self) -> RGBColor {
        match self {
            BarKind::Plain => BLUE,
            BarKind::Ladder => LADDER,
            BarKind::Snake => SNAKE,
        }
    }
}

/// Horizontal bars, one per [`Bar`], the first at the top, each labelled on
/// the left and its value printed at its end. Values may be negative (a
/// difference): the axis then runs symmetrically around 0.
///
/// # Errors
/// [`ChartError::Empty`] without bars; [`ChartError::Draw`] if plotters
/// fails.
pub fn bar_chart(
    title: &str,
    bars: &[Bar],
    value_desc: &str,
    size: Size,
) -> Result<String, ChartError> {
    if bars.is_empty() {
        return Err(ChartError::Empty { chart: BAR_NAME });
    }
    let layout = BarLayout::new(bars, size);
    let svg = draw_bars(title, bars, value_desc, size, &layout)?;
    Ok(finish(svg, "bars", title))
}

/// The bar chart's name in its errors.
const BAR_NAME: &str = "bar";

/// A value as a bar draws it: a value that is not finite has no bar.
fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { 0.0 }
}

/// Where a bar chart's parts go, worked out before anything is drawn.
struct BarLayout {
    /// Whether a value is negative: the axis then runs symmetrically
    /// around 0.
    negative: bool,
    /// Width of the labels' column, left of the bars.
    label_area: u32,
    /// The value axis, from `lo` to `hi`.
    lo: f64,
    hi: f64,
    /// Height of the whole drawing.
    height: u32,
    /// Labelled ticks on the value axis, and their step.
    x_ticks: usize,
    x_step: f64,
}

impl BarLayout {
    fn new(bars: &[Bar], size: Size) -> BarLayout {
        let reach = bars
            .iter()
            .map(|b| finite(b.value).abs())
            .fold(0.0_f64, f64::max)
            .max(f64::MIN_POSITIVE);
        let negative = bars.iter().any(|b| finite(b.value) < 0.0);
        let font = size.font;
        let longest = bars
            .iter()
            .map(|b| b.label.chars().count())
            .max()
            .unwrap_or(1) as u32;
        let label_area = (longest * font * 6 / 10 + 14).min(size.width / 3);
        // Room for the value printed past the end of the longest bar: the
        // axis reaches past it by the width of the longest note.
        let note_px = bars
            .iter()
            .map(|b| b.note.chars().count())
            .max()
            .unwrap_or(0) as f64
            * f64::from(font)
            * 0.58
            + 10.0;
        let plot_px = f64::from(size.width.saturating_sub(label_area + 30)).max(60.0);
        let half_px = if negative { plot_px / 2.0 } else { plot_px };
        let stretch = (half_px / (half_px - note_px).max(half_px / 4.0)).clamp(1.1, 4.0);
        let (lo, hi) = if negative {
            (-reach * stretch, reach * stretch)
        } else {
            (0.0, reach * stretch)
        };
        let row = (font * 2 + 6) as f64;
        let x_ticks = if size.width < 500 { 4 } else { 7 };
        BarLayout {
            negative,
            label_area,
            lo,
            hi,
            height: 60 + font * 3 + (row * bars.len() as f64) as u32,
            x_ticks,
            x_step: tick_step(hi - lo, x_ticks),
        }
    }
}

/// Draws the bars as laid out: the value axis, a line at 0 when values
/// are negative, the bars (the first at the top), then their labels and
/// values.
fn draw_bars(
    title: &str,
    bars: &[Bar],
    value_desc: &str,
    size: Size,
    layout: &BarLayout,
) -> Result<String, ChartError> {
    const NAME: &str = BAR_NAME;
    let font = size.font;
    let (lo, hi) = (layout.lo, layout.hi);
    let n = bars.len();
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (size.width, layout.height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error(NAME))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", size.caption()))
            .margin(8)
            .margin_right(14)
            .x_label_area_size(font * 3)
            .y_label_area_size(layout.label_area)
            .build_cartesian_2d(lo..hi, 0.0..n as f64)
            .map_err(draw_error(NAME))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .y_labels(0)
            .x_labels(layout.x_ticks)
            .x_desc(value_desc)
            .label_style(("sans-serif", font))
            .axis_desc_style(("sans-serif", font))
            .x_label_formatter(&|x| text::tick(*x, layout.x_step))
            .draw()
            .map_err(draw_error(NAME))?;
        if layout.negative {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, 0.0), (0.0, n as f64)],
                    BLACK.stroke_width(1),
                )))
                .map_err(draw_error(NAME))?;
        }
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let y = bar_slot(n, i);
                Rectangle::new(
                    [(0.0, y + 0.18), (finite(b.value), y + 0.82)],
                    b.kind.colour().filled(),
                )
            }))
            .map_err(draw_error(NAME))?;
        draw_bar_labels(&root, chart.plotting_area(), bars, lo, font)?;
        root.present().map_err(draw_error(NAME))?;
    }
    Ok(svg)
}

/// The slot of the `i`th of `n` bars on the chart's vertical axis: the
/// first at the top.
fn bar_slot(n: usize, i: usize) -> f64 {
    (n - 1 - i) as f64
}

/// Each bar's label, right-aligned left of the plot, and its value past
/// its end (left of it for a negative value).
fn draw_bar_labels(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    area: &PlotArea,
    bars: &[Bar],
    lo: f64,
    font: u32,
) -> Result<(), ChartError> {
    const NAME: &str = BAR_NAME;
    let label_font = ("sans-serif", font).into_font().color(&BLACK);
    for (i, b) in bars.iter().enumerate() {
        let y = bar_slot(bars.len(), i) + 0.5;
        let (left, cy) = area.map_coordinate(&(lo, y));
        root.draw(&Text::new(
            b.label.clone(),
            (left - 6, cy),
            label_font.pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(draw_error(NAME))?;
        let v = finite(b.value);
        let (end, _) = area.map_coordinate(&(v, y));
        let anchor = if v < 0.0 {
            Pos::new(HPos::Right, VPos::Center)
        } else {
            Pos::new(HPos::Left, VPos::Center)
        };
        let offset = if v < 0.0 { -4 } else { 4 };
        root.draw(&Text::new(
            b.note.clone(),
            (end + offset, cy),
            ("sans-serif", font - 1)
                .into_font()
                .color(&BLACK.mix(0.8))
                .pos(anchor),
        ))
        .map_err(draw_error(NAME))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometric(len: usize) -> Turns {
        let pmf: Vec<f64> = (1..=len as i32).map(|t| 0.5_f64.powi(t)).collect();
        let mut c = 0.0;
        let cdf: Vec<f64> = pmf
            .iter()
            .map(|p| {
                c += p;
                c
            })
            .collect();
        Turns {
            mean: 2.0,
            mean_error_bound: 0.0,
            variance_error_bound: 0.0,
            variance: 2.0,
            std_dev: 2f64.sqrt(),
            min: Some(1),
            mode: Some(1),
            median: Some(1),
            p90: Some(4),
            p99: Some(7),
            tail: 0.5_f64.powi(len as i32),
            decay: None,
            pmf,
            cdf,
        }
    }

    #[test]
    fn length_chart_stops_at_the_shown_mass() {
        // 0.5, 0.25, ... ; 0.999 of the mass is reached at t = 10.
        let svg = length_chart(&geometric(40), 0.999, Size::WIDE).unwrap();
        assert_eq!(
            svg.matches("fill=\"#3465A4\"").count(),
            10 + 1,
            "bars and legend"
        );
        for label in ["mean 2.00", "median 1", "90% by 4", "99% by 7", "P(T ≤ t)"] {
            assert!(svg.contains(label), "{label}");
        }
    }

    #[test]
    fn long_distributions_are_binned() {
        // A slowly decaying distribution over 100 000 turns.
        let len = 100_000;
        let pmf = vec![1.0 / len as f64; len];
        let cdf: Vec<f64> = (1..=len).map(|t| t as f64 / len as f64).collect();
        let turns = Turns {
            mean: 50_000.5,
            mean_error_bound: 0.0,
            variance_error_bound: 0.0,
            variance: 1.0,
            std_dev: 1.0,
            min: Some(1),
            mode: Some(1),
            median: Some(50_000),
            p90: Some(90_000),
            p99: Some(99_000),
            tail: 0.0,
            decay: None,
            pmf,
            cdf,
        };
        for size in [Size::WIDE, Size::NARROW] {
            let svg = length_chart(&turns, 0.999, size).unwrap();
            let bars = svg.matches("fill=\"#3465A4\"").count() - 1;
            assert!(bars <= size.bars(), "{bars} bars");
            assert!(svg.len() < 60_000, "{} bytes", svg.len());
            // 0.999 of the mass is covered at t = 99 900.
            let bin = 99_900usize.div_ceil(size.bars());
            assert!(
                svg.contains(&format!("{bin} turns")),
                "the axis names the binning"
            );
        }
    }

    #[test]
    fn an_empty_distribution_is_refused() {
        let mut t = geometric(3);
        t.pmf.clear();
        t.cdf.clear();
        assert!(matches!(
            length_chart(&t, 0.999, Size::WIDE),
            Err(ChartError::Empty { .. })
        ));
    }

    #[test]
    fn bars_are_labelled_coloured_and_titled() {
        let bars = vec![
            Bar {
                label: "seat 1".into(),
                value: 1.5,
                note: "+1.5".into(),
                kind: BarKind::Ladder,
            },
            Bar {
                label: "seat 2".into(),
                value: -1.5,
                note: "-1.5".into(),
                kind: BarKind::Snake,
            },
        ];
        let svg = bar_chart("Odds <&>", &bars, "points", Size::NARROW).unwrap();
        assert!(svg.starts_with("<svg class=\"chart bars\""));
        assert!(svg.contains("<title>Odds &lt;&amp;&gt;</title>"));
        for text in ["seat 1", "seat 2", "+1.5", "-1.5", "points"] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(svg.contains("#2E8B57") && svg.contains("#C0392B"));
    }
}
