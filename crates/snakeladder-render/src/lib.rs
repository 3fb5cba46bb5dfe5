//! # snakeladder-render
//!
//! The figures of the [`snakeladder`] core, rendered for people: analysis
//! reports as Markdown or one self-contained HTML page with SVG charts
//! ([`Report`]), the board drawing and charts any page can reuse
//! ([`charts`]), a layout change for a reviewer ([`RenderDiff`]) and
//! `validate`'s findings as text, JSON, GitHub workflow commands or SARIF
//! ([`validate`]).
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

pub mod diff;
mod diff_html;
pub mod json;
mod report;
pub mod validate;

pub use diff::RenderDiff;
pub use report::cross::{CrossCheck, CrossCheckError};
pub use report::{ChartFile, Omission, Rendered, Report, charts};
