//! # snakeladder-render
//!
//! The figures of the [`snakeladder`] core, rendered for people: analysis
//! reports as Markdown or one self-contained HTML page with SVG charts
//! ([`Report`]), the board drawing and charts any page can reuse
//! ([`charts`]), a layout change for a reviewer ([`RenderDiff`]) and
//! `validate`'s findings as text, JSON, GitHub workflow commands or SARIF
//! ([`validate`]), and the text every other command prints in a terminal
//! ([`text`]).
//!
//! The core computes and never formats a figure for a person; this crate
//! formats and never computes one. Every front end (the `snakeladder`
//! command, the Python package, the designer's server) renders through it,
//! so a figure reads the same wherever it is shown.
//!
//! ```
//! use snakeladder::{Analysis, Board, Options};
//! use snakeladder_render::Report;
//!
//! let board = Board::builtin_default();
//! let analysis = Analysis::new(&board, &Options::default())?;
//! let markdown = Report::new(&board, &analysis).markdown();
//! assert!(markdown.contains("39.5984"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod chain;
pub mod diff;
mod diff_html;
pub mod escape;
pub mod json;
pub mod kinds;
mod report;
pub mod text;
pub mod validate;

pub use diff::RenderDiff;
pub use report::cross::{CrossCheck, CrossCheckError};
pub use report::{ChartFile, Omission, Rendered, Report, charts};

/// How figures are written for people (`0.00157`, `53.47%`, `1.7058e19`):
/// the one writer of each, shared by every renderer and front end. The
/// core's own messages (errors, policy violations) write figures the same
/// way, so the module lives in the core, outside its public API, and is
/// published here.
pub use snakeladder::internals::numbers;
/// The shortest game's probability from its base-10 logarithm, however
/// small (`3.162e-129710`).
pub use snakeladder::internals::probability_text;
/// The name, short name and unit of every figure a person reads
/// (`first-seat advantage`, `+1.561 pp`), and the counting words
/// (`10 snakes, 9 ladders`). In the core for the same reason as
/// [`numbers`], published here.
pub use snakeladder::internals::vocabulary;
