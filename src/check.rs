//! `snakeladder check`: the exact analysis against a simulation of the same
//! board; exit 1 when any figure disagrees.

use crate::common::{self, CliError, EXIT_CANNOT, EXIT_FAILURE, Format};
use snakeladder::check;
use snakeladder::simulate::SimulateError;
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `check`: the same as `simulate`'s.
pub use crate::simulate::Args;

/// Runs `check`: exit 0 when every comparison agrees, 1 when one does not.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let board = common::load_board(args.board.as_deref())?;
    let bar = args.run.bar();
    let config = args.run.config()?.with_progress(bar.progress());
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
            Format::Text => snakeladder_render::text::write_check(&mut out, &report)?,
        }
        out.flush()
    })();
    common::gate_output(written)?;
    Ok(ExitCode::from(if report.passed { 0 } else { EXIT_FAILURE }))
}
