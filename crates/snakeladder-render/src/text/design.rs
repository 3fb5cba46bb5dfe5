//! The design tools' text: `tune`'s report (its jump changes as a list and
//! as a diff of the board file), `generate --target-turns`'s summary, and
//! `analyze --sensitivity`'s table.

use crate::vocabulary::FIRST_SEAT_ADVANTAGE;
use snakeladder::design::{Generated, JumpChange, Sensitivity, Target, Tuned};
use snakeladder::{Board, JumpKind};
use std::io::Write;

/// Writes the changes as a list, one a line: a jump removed, or where it
/// moves to and by how much (`start +2, end -1`).
///
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::{Target, TuneOptions, tune};
///
/// let board = Board::builtin_default();
/// let tuned = tune(&board, &TuneOptions::new(Target::new(30.0, 32.0)?, 2))?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_changes(&mut text, &tuned.changes)?;
/// assert_eq!(String::from_utf8(text)?.lines().count(), tuned.changes.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_changes(out: &mut impl Write, changes: &[JumpChange]) -> std::io::Result<()> {
    for c in changes {
        let Some(after) = c.after else {
            writeln!(out, "  {:<16} removed", c.before.to_string())?;
            continue;
        };
        let mut moved = Vec::new();
        let df = i64::from(after.from().get()) - i64::from(c.before.from().get());
        let de = i64::from(after.to().get()) - i64::from(c.before.to().get());
        if df != 0 {
            moved.push(format!("start {df:+}"));
        }
        if de != 0 {
            moved.push(format!("end {de:+}"));
        }
        writeln!(
            out,
            "  {:<16} becomes {:<9} ({})",
            c.before.to_string(),
            format!("{}→{}", after.from(), after.to()),
            moved.join(", ")
        )?;
    }
    Ok(())
}

/// Writes the changes as a diff of the board file's jump lists: a
/// `---`/`+++` header naming `name`, then per kind a hunk with each moved
/// jump's old `[from, to]` removed and its new one added.
///
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::{Target, TuneOptions, tune};
///
/// let board = Board::builtin_default();
/// let tuned = tune(&board, &TuneOptions::new(Target::new(30.0, 32.0)?, 2))?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_diff(&mut text, "board.json", &tuned.changes)?;
/// let text = String::from_utf8(text)?;
/// assert!(text.starts_with("--- board.json\n+++ board.json (tuned)\n@@ "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_diff(out: &mut impl Write, name: &str, changes: &[JumpChange]) -> std::io::Result<()> {
    writeln!(out, "--- {name}")?;
    writeln!(out, "+++ {name} (tuned)")?;
    for kind in [JumpKind::Ladder, JumpKind::Snake] {
        let of_kind: Vec<_> = changes.iter().filter(|c| c.before.kind() == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        writeln!(out, "@@ {}s @@", kind.as_str())?;
        for c in of_kind {
            writeln!(out, "-[{}, {}]", c.before.from(), c.before.to())?;
            if let Some(a) = c.after {
                writeln!(out, "+[{}, {}]", a.from(), a.to())?;
            }
        }
    }
    Ok(())
}

/// Writes `tune`'s report: the mean before and after against the target,
/// the first-seat advantage when the target caps it, the changes as a
/// list and as a diff of the board file, and how many candidate boards
/// the search evaluated, how fast, on `threads` threads (and, apart, how
/// many its first level ruled out without evaluating them). `name` is the
/// board as the user named it (escaped here for a terminal).
///
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::{Target, TuneOptions, tune};
///
/// let board = Board::builtin_default();
/// let target = Target::new(30.0, 32.0)?;
/// let tuned = tune(&board, &TuneOptions::new(target, 2))?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_tuned(&mut text, "default", target, &tuned, 1)?;
/// let text = String::from_utf8(text)?;
/// assert!(text.starts_with("default: mean 39.5984 → 3"));
/// assert!(text.contains("--- default\n+++ default (tuned)"));
/// // The last line counts the boards evaluated, and apart those ruled out.
/// let last = text.lines().last().unwrap();
/// assert!(last.starts_with(&format!("Evaluated {} candidate boards in ", tuned.evaluated)));
/// let rate = tuned.evaluated as f64 / tuned.seconds.max(1e-9);
/// let rate = snakeladder_render::numbers::rate(rate, "boards");
/// assert!(last.contains(&format!(" s ({rate} on 1 thread)")));
/// assert_eq!(last.contains(&format!("ruled out {} more", tuned.ruled_out)), tuned.ruled_out > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_tuned(
    out: &mut impl Write,
    name: &str,
    target: Target,
    tuned: &Tuned,
    threads: usize,
) -> std::io::Result<()> {
    let name = crate::escape::terminal(name);
    let n = tuned.changes.len();
    writeln!(
        out,
        "{name}: mean {} → {} turns (target {}–{}) with {n} change{}",
        crate::numbers::quantity(tuned.mean_before, 4),
        crate::numbers::quantity(tuned.mean_turns, 4),
        target.min_turns(),
        target.max_turns(),
        if n == 1 { "" } else { "s" }
    )?;
    if let Some(a) = tuned.first_seat_advantage {
        writeln!(
            out,
            "  {} with 2 players: {}",
            FIRST_SEAT_ADVANTAGE.name,
            FIRST_SEAT_ADVANTAGE.format(a)
        )?;
    }
    if n > 0 {
        writeln!(out)?;
        write_changes(out, &tuned.changes)?;
        writeln!(out)?;
        write_diff(out, &name, &tuned.changes)?;
    }
    writeln!(out)?;
    let rate = tuned.evaluated as f64 / tuned.seconds.max(1e-9);
    let ruled_out = match tuned.ruled_out {
        0 => String::new(),
        n => format!(
            ", and ruled out {n} more without evaluating them: each moves more squares than the answer"
        ),
    };
    writeln!(
        out,
        "Evaluated {} candidate boards in {:.3} s ({} on {threads} thread{}){ruled_out}.",
        tuned.evaluated,
        tuned.seconds,
        crate::numbers::rate(rate, "boards"),
        if threads == 1 { "" } else { "s" }
    )
}

/// Writes the one line `generate --target-turns` prints on standard error:
/// the mean found against the target, the first-seat advantage when the
/// target caps it, and how the search got there.
///
/// ```
/// use snakeladder::Seed;
/// use snakeladder::design::{GenerateOptions, Layout, Target, generate_to_target};
///
/// let target = Target::new(30.0, 35.0)?;
/// let layout = Layout::new(100, 10, 10, Seed::new(1));
/// let found = generate_to_target(&GenerateOptions::new(layout, target))?;
/// let mut line = Vec::new();
/// snakeladder_render::text::write_generated(&mut line, target, &found)?;
/// assert!(String::from_utf8(line)?.contains(" turns (target 30–35); random start "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_generated(
    out: &mut impl Write,
    target: Target,
    found: &Generated,
) -> std::io::Result<()> {
    let advantage = found.first_seat_advantage.map_or_else(String::new, |a| {
        format!(
            ", {} {}",
            FIRST_SEAT_ADVANTAGE.name,
            FIRST_SEAT_ADVANTAGE.format(a)
        )
    });
    writeln!(
        out,
        "generated: mean {} turns (target {}–{}){advantage}; random start {} and {} move{}; {} candidate boards in {:.3} s",
        crate::numbers::quantity(found.mean_turns, 4),
        target.min_turns(),
        target.max_turns(),
        found.restart,
        found.steps,
        if found.steps == 1 { "" } else { "s" },
        found.evaluated,
        found.seconds
    )
}

/// How many of the variants the text shows.
const SHOWN: usize = 15;

/// Writes the sensitivity section of `analyze`: how many variants were
/// evaluated and how, then the first of them (the largest changes of the
/// mean first) with the first-seat advantage when it was computed.
///
/// ```
/// use snakeladder::Board;
/// use snakeladder::design::sensitivity;
///
/// let board = Board::builtin_default();
/// let s = sensitivity(&board, false)?;
/// let mut text = Vec::new();
/// snakeladder_render::text::write_sensitivity(&mut text, &board, &s)?;
/// assert!(String::from_utf8(text)?.starts_with("Sensitivity: mean turns"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_sensitivity(
    out: &mut impl Write,
    board: &Board,
    s: &Sensitivity,
) -> std::io::Result<()> {
    writeln!(
        out,
        "Sensitivity: mean turns with one jump removed or moved by ±1, ±2, ±5 squares"
    )?;
    if board.jumps().is_empty() {
        writeln!(out, "  (the board has no jumps)")?;
        return writeln!(out);
    }
    writeln!(
        out,
        "  {} valid variants ({} moves break a rule); {} by rank-one update of the solved chain, {} re-solved",
        s.variants.len(),
        s.invalid,
        s.rank_one,
        s.resolved
    )?;
    if s.uncertain > 0 {
        writeln!(
            out,
            "  {} valid variants left out: their mean fails the accuracy check the board's own analysis makes (analyze each with --exact)",
            s.uncertain
        )?;
    }
    if let Some(bound) = s.untrusted_mean_bound {
        writeln!(
            out,
            "  note: the board's own mean fails its accuracy check (error bound {}); each change is measured from it and may be off by as much (analyze --exact)",
            untrusted_bound(bound)
        )?;
    }
    let advantage = s.first_seat_advantage.is_some();
    let mut header = "  jump              change     mean turns    change".to_string();
    if advantage {
        header += &format!("   {} (2 players)", FIRST_SEAT_ADVANTAGE.name);
    }
    writeln!(out, "{header}")?;
    for v in s.variants.iter().take(SHOWN) {
        let mut line = format!(
            "  {:<17} {:<9} {:>11} {:>9}",
            v.change.before.to_string(),
            v.edit.to_string(),
            crate::numbers::quantity(v.mean_turns, 4),
            crate::numbers::fixed(v.mean_change, 4, true)
        );
        if let (Some(a), Some(base)) = (v.first_seat_advantage, s.first_seat_advantage) {
            line += &format!(
                "   {:>10} ({})",
                FIRST_SEAT_ADVANTAGE.format(a),
                FIRST_SEAT_ADVANTAGE.format_change(a - base)
            );
        }
        writeln!(out, "{line}")?;
    }
    if s.variants.len() > SHOWN {
        writeln!(
            out,
            "  … {} more in --format json",
            s.variants.len() - SHOWN
        )?;
    }
    if let Some(base) = s.first_seat_advantage {
        writeln!(
            out,
            "  ({}: P(seat 1 wins) − P(seat 2 wins); {} on this board)",
            FIRST_SEAT_ADVANTAGE.name,
            FIRST_SEAT_ADVANTAGE.format(base)
        )?;
    }
    writeln!(out)
}

/// A relative error bound as the note of an untrusted mean says it.
fn untrusted_bound(bound: f64) -> String {
    if bound.is_finite() {
        format!("{bound:.1e}")
    } else {
        "unknown".to_string()
    }
}
