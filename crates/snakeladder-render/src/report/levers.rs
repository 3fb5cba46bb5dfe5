//! The report's sensitivity section: which single change to one jump moves
//! the game's length most (and the first seat's advantage with it), from
//! [`design::sensitivity`](snakeladder::design::sensitivity).

use super::Table;
use super::charts::{self, Bar, BarKind, ChartError, Size};
use crate::vocabulary::FIRST_SEAT_ADVANTAGE;
use snakeladder::JumpKind;
use snakeladder::design::{Sensitivity, Variant};

/// Rows of the sensitivity table: the variants with the largest effect on
/// the mean. The rest are in `analyze --sensitivity --format json`.
pub(crate) const TABLE_VARIANTS: usize = 25;
/// Bars of the sensitivity chart.
pub(crate) const CHART_VARIANTS: usize = 10;

/// The sentence above the table: what was tried and how it was computed.
pub(crate) fn summary(s: &Sensitivity) -> String {
    let mut line = format!(
        "Each jump removed, or its start or end moved by ±1, ±2 or ±5 squares where the board stays valid: {} variants ({} moves break a rule), ranked by their effect on the mean length ({} turns on this board).",
        s.variants.len(),
        s.invalid,
        crate::numbers::quantity(s.mean_turns, 4)
    );
    if s.uncertain > 0 {
        line += &format!(
            " {} valid variants are left out: their mean fails the accuracy check the board's own analysis makes.",
            s.uncertain
        );
    }
    if let Some(bound) = s.untrusted_mean_bound {
        let bound = if bound.is_finite() {
            format!("{bound:.1e}")
        } else {
            "unknown".to_string()
        };
        line += &format!(
            " The board's own mean fails its accuracy check (error bound {bound}): each change of the mean is measured from it and may be off by as much."
        );
    }
    if let Some(a) = s.first_seat_advantage {
        line += &format!(
            " The {} is P(seat 1 wins) − P(seat 2 wins) with two players ({} on this board).",
            FIRST_SEAT_ADVANTAGE.name,
            signed_percent(a)
        );
    }
    if s.variants.len() > TABLE_VARIANTS {
        line += &format!(
            " The table shows the {TABLE_VARIANTS} largest; snakeladder analyze --sensitivity --format json lists all {}.",
            s.variants.len()
        );
    }
    line
}

/// The variants with the largest effect, as a table.
pub(crate) fn table(s: &Sensitivity) -> Table {
    let mut header = vec![
        "jump",
        "change",
        "becomes",
        "mean turns",
        "change of the mean",
    ];
    if s.first_seat_advantage.is_some() {
        header.push(FIRST_SEAT_ADVANTAGE.name);
    }
    let mut table = Table::new(&header, false);
    table.rows = s
        .variants
        .iter()
        .take(TABLE_VARIANTS)
        .map(|v| row(v, s.first_seat_advantage))
        .collect();
    table.name = "levers";
    table.rows_are = "changes";
    table
}

fn row(v: &Variant, base_advantage: Option<f64>) -> Vec<String> {
    let becomes = v
        .change
        .after
        .map_or_else(|| "–".to_string(), |a| format!("{}→{}", a.from(), a.to()));
    let mut cells = vec![
        v.change.before.to_string(),
        v.edit.to_string(),
        becomes,
        crate::numbers::quantity(v.mean_turns, 4),
        crate::numbers::fixed(v.mean_change, 4, true),
    ];
    if base_advantage.is_some() {
        cells.push(
            v.first_seat_advantage
                .map_or_else(|| "–".to_string(), signed_percent),
        );
    }
    cells
}

/// A first-seat advantage in the vocabulary's unit (percentage points).
fn signed_percent(p: f64) -> String {
    FIRST_SEAT_ADVANTAGE.format(p)
}

/// The largest changes of the mean as bars, coloured by the jump's kind.
///
/// # Errors
/// [`ChartError::Empty`] when the board has no valid variant.
pub(crate) fn chart(s: &Sensitivity, size: Size) -> Result<String, ChartError> {
    let shown = s.variants.len().min(CHART_VARIANTS);
    let bars: Vec<Bar> = s.variants[..shown]
        .iter()
        .map(|v| Bar {
            label: format!(
                "{}→{} {}",
                v.change.before.from(),
                v.change.before.to(),
                v.edit
            ),
            value: v.mean_change,
            note: crate::numbers::fixed(v.mean_change, 2, true),
            kind: match v.change.before.kind() {
                JumpKind::Ladder => BarKind::Ladder,
                JumpKind::Snake => BarKind::Snake,
            },
        })
        .collect();
    let title = if size.width < 500 {
        format!("The {shown} biggest levers")
    } else {
        format!("The {shown} single changes that move the mean length most")
    };
    charts::bar_chart(&title, &bars, "change of the mean, turns", size)
}
