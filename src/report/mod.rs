//! Analysis reports for people: Markdown and self-contained HTML with charts.

pub mod charts;
