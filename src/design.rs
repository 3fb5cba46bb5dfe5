//! What the design commands share (`tune`, `generate --target-turns`,
//! `analyze --sensitivity`): parsing a target, the progress bars, the
//! search budget, and `generate --target-turns`. Their text is
//! [`snakeladder_render::text`]'s.

pub use crate::args::{Band, parse_advantage, parse_band, parse_jump};
use crate::common::CliError;
use crate::output::Output;
use indicatif::{ProgressBar, ProgressStyle};
use snakeladder::Board;
use snakeladder::design::Layout;
use snakeladder::design::{GenerateOptions, Sensitivity, Target};
use snakeladder::internals::RulesSpec;
use std::io::IsTerminal;
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

/// [`design::sensitivity_within`](snakeladder::internals::design::sensitivity_within)
/// with [`variants_bar`], cleared when done.
pub fn sensitivity(
    board: &Board,
    advantage: bool,
    budget: &snakeladder::internals::design::Budget,
) -> Result<Sensitivity, snakeladder::design::DesignError> {
    let bar = variants_bar();
    let progress = |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let s = snakeladder::internals::design::sensitivity_within(
        board,
        advantage,
        budget,
        Some(&progress),
    );
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

/// The budget of a design search from its flags: `--max-work` (default
/// 2e10), `--max-memory` (default half the machine's memory) and
/// `--time-limit` (default none).
pub fn budget(
    max_work: Option<f64>,
    max_memory: Option<u64>,
    time_limit: Option<std::time::Duration>,
) -> snakeladder::internals::design::Budget {
    let default = snakeladder::internals::design::Budget::default();
    snakeladder::internals::design::Budget {
        max_work: max_work.unwrap_or(default.max_work),
        max_memory: max_memory.unwrap_or_else(crate::memory::default_limit),
        time_limit,
    }
}

/// Reads the rules for `generate --rules`: a rules object, or a board file
/// whose rules are taken.
///
/// A JSON object with `squares` is a board file, read and validated as one;
/// any other object is a rules object, whose errors name its fields (an
/// unknown rule, a value that is not one of the rule's). Either way the
/// rules come back checked and every rule filled in, as a board file
/// writes them. Anything but an object is refused.
pub fn load_rules(path: &Path) -> Result<RulesSpec, CliError> {
    // The board file's reader: its size cap, and no FIFO or device.
    let bytes = snakeladder::Board::read_bytes(path)?;
    let rules = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(map)) if !map.contains_key("squares") => {
            let rules: RulesSpec = serde_json::from_value(serde_json::Value::Object(map))
                .map_err(|e| CliError::Usage(format!("--rules: {}: rules: {e}", path.display())))?;
            // Checked on a board of its own, as a board file's rules are.
            let spec = snakeladder::internals::BoardSpec {
                squares: 100,
                rules: Some(rules),
                ..Default::default()
            };
            Board::from_spec(&spec)
                .map_err(|e| CliError::Usage(format!("--rules: {}: {e}", path.display())))?
        }
        // A board file, or not JSON at all: the board reader's message,
        // with its line and column.
        _ => Board::from_json_slice(&bytes).map_err(|e| e.with_path(path))?,
    };
    Ok(rules.rules().spec())
}

/// `generate --target-turns`: the search, then the board written like any
/// generated board, and a summary on standard error.
pub fn generate_to_target(
    layout: Layout,
    target: Target,
    budget: snakeladder::internals::design::Budget,
    output: &Path,
    json: bool,
) -> Result<ExitCode, CliError> {
    let seed = layout.seed();
    let bar = spinner();
    let options = GenerateOptions::new(layout, target)
        .with_budget(budget)
        .with_progress({
            let bar = bar.clone();
            move |n| bar.set_position(n)
        });
    let result = snakeladder::design::generate_to_target(&options);
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
    snakeladder_render::text::write_generated(&mut std::io::stderr(), target, &found)?;
    Ok(ExitCode::SUCCESS)
}
