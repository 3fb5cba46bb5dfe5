//! What the design commands share (`tune`, `generate --target-turns`,
//! `analyze --sensitivity`): parsing a target, the progress spinner, and
//! printing a list of jump changes.

pub use crate::args::{Band, parse_advantage, parse_band, parse_jump};
use crate::common::CliError;
use crate::output::Output;
use indicatif::{ProgressBar, ProgressStyle};
use snakeladder::RulesSpec;
use snakeladder::design::Layout;
use snakeladder::design::{
    GenerateOptions, JumpChange, Sensitivity, Target, generate_to_target_with_progress,
};
use snakeladder::{Board, JumpKind};
use snakeladder_render::vocabulary::FIRST_SEAT_ADVANTAGE;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

/// The target of a band and an optional cap.
pub fn target(
    band: Band,
    advantage: Option<f64>,
) -> Result<Target, snakeladder::design::DesignError> {
    let t = Target::new(band.min(), band.max())?;
    match advantage {
        Some(p) => t.with_max_first_seat_advantage(p),
        None => Ok(t),
    }
}

/// A bar of the variants `analyze --sensitivity` and `report
/// --sensitivity` evaluate, on stderr when it is a terminal; hidden
/// otherwise, so that nothing reaches a pipe or a log.
pub fn variants_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {human_pos}/{human_len} variants, {per_sec}, {eta} left",
    ) {
        bar.set_style(style);
    }
    bar
}

/// [`design::sensitivity_with_progress`](snakeladder::design::sensitivity_with_progress)
/// with [`variants_bar`], cleared when done.
pub fn sensitivity(
    board: &Board,
    advantage: bool,
    budget: &snakeladder::design::Budget,
) -> Result<Sensitivity, snakeladder::design::DesignError> {
    let bar = variants_bar();
    let s =
        snakeladder::design::sensitivity_with_progress(board, advantage, budget, &|done, total| {
            bar.set_length(total);
            bar.set_position(done);
        });
    bar.finish_and_clear();
    s
}

/// A spinner counting candidate boards on a terminal; hidden otherwise.
pub fn spinner() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template("{spinner} {human_pos} candidate boards, {per_sec} {msg}")
    {
        bar.set_style(style);
    }
    bar
}

/// Writes the changes as a list, one a line.
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

/// Writes the changes as a diff of the board file's jump lists.
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

/// How many of the variants the text shows.
const SHOWN: usize = 15;

/// Writes the sensitivity section of `analyze`.
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
            snakeladder_render::numbers::quantity(v.mean_turns, 4),
            snakeladder_render::numbers::fixed(v.mean_change, 4, true)
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

/// The budget of a design search from its flags: `--max-work` (default
/// 2e10), `--max-memory` (default half the machine's memory) and
/// `--time-limit` (default none).
pub fn budget(
    max_work: Option<f64>,
    max_memory: Option<u64>,
    time_limit: Option<std::time::Duration>,
) -> snakeladder::design::Budget {
    let default = snakeladder::design::Budget::default();
    snakeladder::design::Budget {
        max_work: max_work.unwrap_or(default.max_work),
        max_memory: max_memory.unwrap_or_else(crate::memory::default_limit),
        time_limit,
    }
}

/// Reads the rules for `generate --rules`: a rules object, or a board file
/// whose rules are taken.
pub fn load_rules(path: &Path) -> Result<RulesSpec, CliError> {
    // The board file's reader: its size cap, and no FIFO or device.
    let bytes = snakeladder::review::read_board_file(path)?;
    if let Ok(rules) = serde_json::from_slice::<RulesSpec>(&bytes) {
        return Ok(rules);
    }
    let board = Board::from_json_slice(&bytes).map_err(|e| e.with_path(path))?;
    Ok(board.rules().spec())
}

/// `generate --target-turns`: the search, then the board written like any
/// generated board, and a summary on standard error.
pub fn generate_to_target(
    layout: Layout,
    target: Target,
    budget: snakeladder::design::Budget,
    output: &Path,
    json: bool,
) -> Result<ExitCode, CliError> {
    let seed = layout.seed();
    let options = GenerateOptions::new(layout, target).with_budget(budget);
    let bar = spinner();
    let result = generate_to_target_with_progress(&options, &|n| bar.set_position(n));
    bar.finish_and_clear();
    let found = result?;
    if json {
        let search = crate::outputs::Search {
            target,
            mean_turns: found.mean_turns,
            first_seat_advantage: found.first_seat_advantage,
            restart: found.restart,
            steps: found.steps,
            evaluated: found.evaluated,
            seconds: found.seconds,
        };
        crate::generate::write_json(output, &found.board, &found.spec(), seed, Some(search))?;
        return Ok(ExitCode::SUCCESS);
    }
    let json = found.spec().to_json().into_bytes();
    Output::resolve(output, &[])?.write(|w| w.write_all(&json))?;
    let mut err = std::io::stderr();
    let advantage = found.first_seat_advantage.map_or_else(String::new, |a| {
        format!(
            ", {} {}",
            FIRST_SEAT_ADVANTAGE.name,
            FIRST_SEAT_ADVANTAGE.format(a)
        )
    });
    writeln!(
        err,
        "generated: mean {} turns (target {}–{}){advantage}; random start {} and {} move{}; {} candidate boards in {:.3} s",
        snakeladder_render::numbers::quantity(found.mean_turns, 4),
        target.min_turns(),
        target.max_turns(),
        found.restart,
        found.steps,
        if found.steps == 1 { "" } else { "s" },
        found.evaluated,
        found.seconds
    )?;
    Ok(ExitCode::SUCCESS)
}
