//! `snakeladder check`: the exact analysis against a simulation of the same
//! board; exit 1 when any figure disagrees.

use crate::common::{self, CliError, EXIT_CANNOT, EXIT_FAILURE, Format};
use snakeladder::check::{self, CheckReport, Test};
use snakeladder::simulate::SimulateError;
use snakeladder_render::numbers::{probability, tiny};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `check`: the same as `simulate`'s.
pub use crate::simulate::Args;

/// Runs `check`: exit 0 when every comparison agrees, 1 when one does not.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let bar = args.run.bar();
    let config = args.run.config()?.with_progress(bar.clone());
    let report = match check::check(&board, &config) {
        Ok(r) => r,
        Err(SimulateError::Analysis(e)) => return Err(e.into()),
        Err(e @ SimulateError::Skipped { .. }) => {
            common::say("error: ", &e.to_string());
            return Ok(ExitCode::from(EXIT_CANNOT));
        }
        Err(e) => return Err(e.into()),
    };
    bar.finish();
    let mut out = common::stdout()?;
    let written = (|| -> std::io::Result<()> {
        match args.format {
            Format::Json => {
                let body = common::OfBoard {
                    board: common::BoardId::of(&board),
                    figures: &report,
                };
                common::write_json(&mut out, &body)?;
            }
            Format::Text => write_text(&mut out, &report)?,
        }
        out.flush()
    })();
    common::gate_output(written)?;
    Ok(ExitCode::from(if report.passed { 0 } else { EXIT_FAILURE }))
}

fn write_text(out: &mut impl Write, r: &CheckReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{} games, seed {}; family-wise error rate {}, {} per comparison",
        r.games,
        r.seed,
        tiny(r.family_error_rate),
        probability(r.comparison_error_rate, 6)
    )?;
    for c in &r.comparisons {
        let (test, figures) = match c.test {
            Test::KolmogorovSmirnov => ("KS D", String::new()),
            Test::ZMean => (
                "|z|",
                format!(
                    "  exact {}, simulated {}",
                    probability(c.exact, 6),
                    probability(c.simulated, 6)
                ),
            ),
            Test::StudentT => (
                "|t|",
                format!(
                    "  exact {}, simulated {}",
                    probability(c.exact, 6),
                    probability(c.simulated, 6)
                ),
            ),
            Test::BinomialZ => (
                "|z| binomial",
                format!(
                    "  exact {}, simulated {}",
                    probability(c.exact, 6),
                    probability(c.simulated, 6)
                ),
            ),
        };
        writeln!(
            out,
            "{:<8} {:<40} {test} {:.4} ≤ {:.4}{figures}",
            if c.agrees { "ok" } else { "DIFFERS" },
            c.name,
            c.statistic,
            c.threshold
        )?;
    }
    if !r.skipped.is_empty() {
        writeln!(
            out,
            "{} figures too rare to compare at this many games",
            r.skipped.len()
        )?;
    }
    let failed = r.comparisons.iter().filter(|c| !c.agrees).count();
    if r.passed {
        writeln!(
            out,
            "agree: all {} comparisons within their thresholds",
            r.comparisons.len()
        )
    } else {
        writeln!(
            out,
            "DISAGREE: {failed} of {} comparisons outside their thresholds",
            r.comparisons.len()
        )
    }
}
