//! The board drawn as SVG: the serpentine grid, each square shaded by a
//! figure, ladders as two rails and rungs, snakes as curved bodies with a
//! head, a dot where every jump starts, and the square numbers on top.
//!
//! This drawing is written directly rather than through plotters because
//! each square and jump carries its own `<title>` (the figures a pointer
//! shows on hover, or the page's script on a tap) and a class the page's
//! style and the browser tests select on; plotters' SVG backend emits
//! neither. It depends on nothing but the board, so other pages (a
//! comparison of two boards) can draw with it too.

use super::charts::ChartError;
use super::text;
use snakeladder::{Board, JumpKind, Square};
use std::fmt::Write;

/// Boards with more squares than this are not drawn square by square: the
/// picture would be unreadable and the page needlessly large.
pub const MAX_DRAWN_SQUARES: u32 = 2_500;

/// The longest side of the drawing, in SVG units.
const SIDE: f64 = 640.0;
/// Colour of ladders (and the legend's ladder swatch).
pub const LADDER: &str = "#2e8b57";
/// Colour of snakes.
pub const SNAKE: &str = "#c0392b";
/// The most rungs a ladder has (a long ladder's rungs spread out).
const MAX_RUNGS: usize = 40;
/// The most waves a snake's body makes.
const MAX_WAVES: usize = 6;
/// The colour of the most-shaded square; unshaded squares are white.
const HEAT: (f64, f64, f64) = (232.0, 128.0, 36.0);

/// What the drawing shows beyond the layout.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// A value per square (`shade[s]` for square `s`, 0 for the start):
    /// each square is shaded in proportion to its value over the largest.
    pub shade: Option<Vec<f64>>,
    /// Text a pointer shows over square `s` (`square_notes[s]`); missing or
    /// empty entries show only the square's number.
    pub square_notes: Vec<String>,
    /// Text shown over each jump, in the order of [`Board::jumps`].
    pub jump_notes: Vec<String>,
    /// Jumps to mark as changed, in the order of [`Board::jumps`] (a
    /// comparison of two boards marks what moved); missing entries are
    /// unmarked.
    pub jump_marks: Vec<Option<JumpMark>>,
}

/// How a jump changed, as a comparison of two boards marks it: a wide
/// band under the jump in the mark's colour, dashed for a removed one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum JumpMark {
    /// Only on the new board.
    Added,
    /// Only on the old board.
    Removed,
    /// One end moved.
    Moved,
}

impl JumpMark {
    /// The word used in classes and legends: `added`, `removed`, `moved`.
    pub fn word(self) -> &'static str {
        match self {
            JumpMark::Added => "added",
            JumpMark::Removed => "removed",
            JumpMark::Moved => "moved",
        }
    }

    /// The band's colour: none of the ladders' green, the snakes' red or
    /// the shading's orange.
    pub fn colour(self) -> &'static str {
        match self {
            JumpMark::Added => "#1f6fd1",
            JumpMark::Removed => "#444444",
            JumpMark::Moved => "#b036c9",
        }
    }

    /// The band's dash pattern, in units of the band's width (removed
    /// jumps are dashed, so the mark does not rest on colour alone).
    fn dashes(self) -> Option<(f64, f64)> {
        match self {
            JumpMark::Removed => Some((1.2, 0.9)),
            JumpMark::Added | JumpMark::Moved => None,
        }
    }

    /// A legend swatch of the mark, as inline SVG.
    pub fn swatch(self) -> String {
        let dash = self.dashes().map_or(String::new(), |(on, off)| {
            format!(" stroke-dasharray=\"{:.1} {:.1}\"", on * 7.0, off * 7.0)
        });
        format!(
            "<svg viewBox=\"0 0 36 14\" width=\"36\" height=\"14\" aria-hidden=\"true\"><path d=\"M4 7H32\" stroke=\"{}\" stroke-width=\"7\" stroke-opacity=\"0.55\" stroke-linecap=\"round\"{dash}/></svg>",
            self.colour()
        )
    }
}

/// Where square `s` (1..=N) is drawn on a serpentine grid of `width`
/// columns: its (column, row) with row 0 at the bottom.
pub fn grid_position(square: Square, width: u32) -> (u32, u32) {
    let i = square.get().saturating_sub(1);
    let row = i / width;
    let col = if row.is_multiple_of(2) {
        i % width
    } else {
        width - 1 - i % width
    };
    (col, row)
}

/// The colour of a square shaded at `t` in [0, 1] (white to orange).
pub fn heat_colour(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mix = |c: f64| (255.0 - (255.0 - c) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(HEAT.0), mix(HEAT.1), mix(HEAT.2))
}

/// The board as one `<svg>` element (with a `viewBox`, so it scales to
/// its container), titled `title`.
///
/// # Errors
/// [`ChartError::TooManySquares`] past [`MAX_DRAWN_SQUARES`].
///
/// # Example
/// ```
/// use snakeladder::Board;
/// use snakeladder_render::charts::{board_svg, Overlay};
/// let svg = board_svg(&Board::builtin_default(), "The board", &Overlay::default())?;
/// assert!(svg.starts_with("<svg"));
/// # Ok::<(), snakeladder_render::charts::ChartError>(())
/// ```
pub fn board_svg(board: &Board, title: &str, overlay: &Overlay) -> Result<String, ChartError> {
    let n = board.last().get();
    if n > MAX_DRAWN_SQUARES {
        return Err(ChartError::TooManySquares {
            squares: n,
            limit: MAX_DRAWN_SQUARES,
        });
    }
    let width = board.width();
    let rows = n.div_ceil(width);
    let cell = (SIDE / f64::from(width.max(rows))).clamp(12.0, 64.0);
    let (w, h) = (cell * f64::from(width) + 2.0, cell * f64::from(rows) + 2.0);
    let centre = |s: Square| {
        let (col, row) = grid_position(s, width);
        (
            f64::from(col) * cell + cell / 2.0 + 1.0,
            f64::from(rows - 1 - row) * cell + cell / 2.0 + 1.0,
        )
    };
    let top = overlay
        .shade
        .as_ref()
        .map(|v| {
            v.iter()
                .copied()
                .filter(|x| x.is_finite())
                .fold(0.0, f64::max)
        })
        .filter(|&m| m > 0.0);
    let font = (cell * 0.27).max(6.0);
    let mut svg = String::with_capacity(n as usize * 240 + 4096);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sl-board\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = text::html(title)
    );
    let _ = write!(
        svg,
        "<style>.sl-board .sl-sq rect{{stroke:#0003;stroke-width:1}}.sl-board .sl-sq:hover rect,.sl-board .sl-sq.sl-on rect{{stroke:#000;stroke-width:2}}\
.sl-board .sl-jump:hover,.sl-board .sl-jump.sl-on{{filter:drop-shadow(0 0 2px #000)}}\
.sl-board text{{font:{font:.1}px sans-serif;fill:#222;paint-order:stroke;stroke:#fffc;stroke-width:{halo:.1}px;pointer-events:none}}</style>",
        halo = (font / 4.0).max(1.5)
    );
    // Squares, shaded, each with its note.
    svg.push_str("<g class=\"sl-squares\">");
    for s in 1..=n {
        let (cx, cy) = centre(Square::new(s));
        let fill = match (&overlay.shade, top) {
            (Some(v), Some(top)) => heat_colour(v.get(s as usize).copied().unwrap_or(0.0) / top),
            _ => "#ffffff".to_string(),
        };
        let note = overlay
            .square_notes
            .get(s as usize)
            .filter(|t| !t.is_empty())
            .map_or_else(|| format!("square {s}"), |t| text::html(t));
        let _ = write!(
            svg,
            "<g class=\"sl-sq\" data-square=\"{s}\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" fill=\"{fill}\"/><title>{note}</title></g>",
            cx - cell / 2.0,
            cy - cell / 2.0
        );
    }
    svg.push_str("</g><g class=\"sl-jumps\">");
    let stroke = (cell * 0.06).max(1.2);
    for (i, jump) in board.jumps().iter().enumerate() {
        let (from, to) = (centre(jump.from()), centre(jump.to()));
        let note = overlay
            .jump_notes
            .get(i)
            .filter(|t| !t.is_empty())
            .map_or_else(|| jump.to_string(), |t| text::html(t));
        let kind = match jump.kind() {
            JumpKind::Ladder => "ladder",
            JumpKind::Snake => "snake",
        };
        let mark = overlay.jump_marks.get(i).copied().flatten();
        let _ = write!(
            svg,
            "<g class=\"sl-jump sl-{kind}{}\" data-from=\"{}\" data-to=\"{}\"><title>{note}</title>",
            mark.map_or(String::new(), |m| format!(" sl-changed sl-{}", m.word())),
            jump.from(),
            jump.to()
        );
        if let Some(m) = mark {
            let band = (cell * 0.55).max(7.0);
            let dash = m.dashes().map_or(String::new(), |(on, off)| {
                format!(" stroke-dasharray=\"{:.1} {:.1}\"", on * band, off * band)
            });
            let _ = write!(
                svg,
                "<path class=\"sl-mark-halo\" d=\"M{:.1} {:.1}L{:.1} {:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{band:.1}\" stroke-opacity=\"0.5\" stroke-linecap=\"round\"{dash}/>",
                from.0,
                from.1,
                to.0,
                to.1,
                m.colour()
            );
        }
        match jump.kind() {
            JumpKind::Ladder => ladder(&mut svg, from, to, cell, stroke),
            JumpKind::Snake => snake(&mut svg, from, to, cell),
        }
        svg.push_str("</g>");
    }
    // Numbers last, so no jump ever covers one.
    svg.push_str("</g><g class=\"sl-numbers\">");
    for s in 1..=n {
        let (cx, cy) = centre(Square::new(s));
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\">{s}</text>",
            cx - cell / 2.0 + font * 0.25,
            cy - cell / 2.0 + font * 1.05
        );
    }
    svg.push_str("</g></svg>");
    Ok(svg)
}

/// A unit vector along `from → to`, its normal, and the length.
fn frame(from: (f64, f64), to: (f64, f64)) -> ((f64, f64), (f64, f64), f64) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = dx.hypot(dy).max(1e-9);
    ((dx / len, dy / len), (-dy / len, dx / len), len)
}

/// Two rails, rungs between them, and a dot at the foot (where the ladder
/// is taken).
fn ladder(svg: &mut String, from: (f64, f64), to: (f64, f64), cell: f64, stroke: f64) {
    let (u, nrm, len) = frame(from, to);
    let r = cell * 0.14;
    let at = |t: f64, side: f64| {
        (
            from.0 + u.0 * len * t + nrm.0 * r * side,
            from.1 + u.1 * len * t + nrm.1 * r * side,
        )
    };
    let mut d = String::new();
    for side in [-1.0, 1.0] {
        let (a, b) = (at(0.0, side), at(1.0, side));
        let _ = write!(d, "M{:.1} {:.1}L{:.1} {:.1}", a.0, a.1, b.0, b.1);
    }
    let rungs = ((len / (cell * 0.32)).floor() as usize).clamp(1, MAX_RUNGS);
    for k in 0..rungs {
        let t = (k as f64 + 0.5) / rungs as f64;
        let (a, b) = (at(t, -1.0), at(t, 1.0));
        let _ = write!(d, "M{:.1} {:.1}L{:.1} {:.1}", a.0, a.1, b.0, b.1);
    }
    let _ = write!(
        svg,
        "<path d=\"{d}\" fill=\"none\" stroke=\"{LADDER}\" stroke-width=\"{stroke:.1}\" stroke-linecap=\"round\"/>\
<circle class=\"sl-start\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{LADDER}\" stroke=\"#fff\" stroke-width=\"1\"/>",
        from.0,
        from.1,
        (cell * 0.12).max(2.5)
    );
}

/// A wavy body from the head (where the snake is met) to the tail, and the
/// head drawn over it with two eyes.
fn snake(svg: &mut String, from: (f64, f64), to: (f64, f64), cell: f64) {
    let (u, nrm, len) = frame(from, to);
    // At most MAX_WAVES waves, so a long snake on a large board stays a few
    // hundred bytes.
    let waves = ((len / (cell * 1.1)).round() as usize).clamp(1, MAX_WAVES);
    let segments = 2 * waves;
    let amplitude = (cell * 0.28).min(len * 0.2);
    let step = len / segments as f64;
    let point = |along: f64, off: f64| {
        (
            from.0 + u.0 * along + nrm.0 * off,
            from.1 + u.1 * along + nrm.1 * off,
        )
    };
    let mut d = format!("M{:.1} {:.1}", from.0, from.1);
    for j in 0..segments {
        let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
        let s = j as f64 * step;
        let c1 = point(s + step / 3.0, amplitude * sign * 1.3);
        let c2 = point(s + 2.0 * step / 3.0, amplitude * sign * 1.3);
        let e = point(s + step, 0.0);
        let _ = write!(
            d,
            "C{:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
            c1.0, c1.1, c2.0, c2.1, e.0, e.1
        );
    }
    let body = (cell * 0.12).max(2.0);
    let head = (cell * 0.15).max(3.0);
    let eye = (head * 0.25).max(0.8);
    let (e1, e2) = (
        (
            from.0 + u.0 * head * 0.2 + nrm.0 * head * 0.45,
            from.1 + u.1 * head * 0.2 + nrm.1 * head * 0.45,
        ),
        (
            from.0 + u.0 * head * 0.2 - nrm.0 * head * 0.45,
            from.1 + u.1 * head * 0.2 - nrm.1 * head * 0.45,
        ),
    );
    let _ = write!(
        svg,
        "<path d=\"{d}\" fill=\"none\" stroke=\"{SNAKE}\" stroke-width=\"{body:.1}\" stroke-linecap=\"round\" stroke-opacity=\"0.85\"/>\
<circle class=\"sl-start\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{head:.1}\" fill=\"{SNAKE}\" stroke=\"#fff\" stroke-width=\"1\"/>\
<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{eye:.1}\" fill=\"#fff\"/><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{eye:.1}\" fill=\"#fff\"/>",
        from.0, from.1, e1.0, e1.1, e2.0, e2.1
    );
}

/// The legend of a shaded board as an HTML fragment: the colour scale from
/// 0 to `top` (what `what` measures) and the ladder and snake conventions.
pub fn legend_html(what: &str, top: f64) -> String {
    format!(
        "<div class=\"legend\"><span class=\"scale\"><span>0</span><span class=\"ramp\" style=\"background:linear-gradient(90deg,{},{})\"></span><span>{}</span></span> {}\
<span><svg viewBox=\"0 0 28 14\" width=\"28\" height=\"14\" aria-hidden=\"true\"><path d=\"M2 4H26M2 10H26M7 4V10M14 4V10M21 4V10\" stroke=\"{LADDER}\" stroke-width=\"2\"/><circle cx=\"3\" cy=\"7\" r=\"3\" fill=\"{LADDER}\"/></svg> ladder, dot at its foot</span> \
<span><svg viewBox=\"0 0 28 14\" width=\"28\" height=\"14\" aria-hidden=\"true\"><path d=\"M4 7C9 1 11 1 14 7S19 13 26 7\" stroke=\"{SNAKE}\" stroke-width=\"3\" fill=\"none\"/><circle cx=\"4\" cy=\"7\" r=\"4\" fill=\"{SNAKE}\"/></svg> snake, head where it is met</span></div>",
        heat_colour(0.0),
        heat_colour(1.0),
        text::html(&super::text::probability(top)),
        text::html(what)
    )
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
    fn every_square_and_jump_is_drawn_with_numbers_on_top() {
        let board = Board::builtin_default();
        let svg = board_svg(&board, "b", &Overlay::default()).unwrap();
        assert_eq!(svg.matches("class=\"sl-sq\"").count(), 100);
        assert_eq!(
            svg.matches("<circle class=\"sl-start\"").count(),
            board.jumps().len()
        );
        assert_eq!(
            svg.matches("class=\"sl-jump sl-ladder\"").count(),
            board.ladders().count()
        );
        // The numbers come after every jump in document order: drawn above.
        let numbers = svg.find("sl-numbers").unwrap();
        assert!(svg.rfind("sl-jump").unwrap() < numbers);
        assert!(svg[numbers..].contains(">100</text>"));
        assert!(svg[numbers..].contains(">74</text>"));
    }

    #[test]
    fn shading_follows_the_values_and_notes_are_escaped() {
        let board = Board::from_json_str(r#"{"squares": 4, "width": 2}"#).unwrap();
        let overlay = Overlay {
            shade: Some(vec![0.0, 0.0, 0.5, 1.0, 0.25]),
            square_notes: vec![String::new(), "<b>one</b>".into()],
            jump_notes: Vec::new(),
            jump_marks: Vec::new(),
        };
        let svg = board_svg(&board, "t", &overlay).unwrap();
        assert!(svg.contains(&format!("fill=\"{}\"", heat_colour(1.0))));
        assert!(svg.contains(&format!("fill=\"{}\"", heat_colour(0.5))));
        assert!(svg.contains("<title>&lt;b&gt;one&lt;/b&gt;</title>"));
        assert!(svg.contains("<title>square 2</title>"));
        assert_eq!(heat_colour(0.0), "#ffffff");
    }

    #[test]
    fn huge_boards_are_refused_not_drawn() {
        let board = Board::from_json_str(r#"{"squares": 10000}"#).unwrap();
        assert!(matches!(
            board_svg(&board, "t", &Overlay::default()),
            Err(ChartError::TooManySquares { squares: 10000, .. })
        ));
    }
}
