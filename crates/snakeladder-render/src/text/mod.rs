//! The commands' text for a terminal: `analyze`, `simulate`, `check`, the
//! design tools and `play`, written exactly as the `snakeladder` command
//! prints them, so any front end (the Python package, the designer's
//! server) can print the same lines.
//!
//! Every writer takes any [`std::io::Write`] and the core's figures; none
//! computes a figure of its own. Text that came from a file or the command
//! line (a board's name, a player id) is escaped for a terminal
//! ([`crate::escape::terminal`]).
//!
//! ```
//! use snakeladder::{Analysis, Board, Options};
//!
//! let board = Board::builtin_default();
//! let analysis = Analysis::new(&board, &Options::default())?;
//! let mut text = Vec::new();
//! snakeladder_render::text::write_analysis(&mut text, &board, &analysis)?;
//! let text = String::from_utf8(text)?;
//! assert!(text.contains("mean 39.5984"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod check;
mod design;
mod play;
mod simulation;

pub use analysis::write_analysis;
pub use check::write_check;
pub use design::{write_changes, write_diff, write_generated, write_sensitivity, write_tuned};
pub use play::{game_header, write_game_result, write_odds, write_odds_given_up};
pub use simulation::write_simulation;
