//! # snakeladder-py
//!
//! The native half of the `snakeladder` Python package: thin PyO3 wrappers
//! over the core library ([`snakeladder`]) and the rendering layer
//! ([`snakeladder_render`]). The pure-Python half (`python/snakeladder/`)
//! gives these objects Python's conventions: numpy arrays, pandas frames,
//! `fractions.Fraction`, exceptions and notebook display.
//!
//! Like every front end, this crate translates and never computes a figure:
//! each number it hands to Python was computed by the core, and each text
//! or drawing was rendered by the rendering layer.
//!
//! Long work (an analysis, a simulation, a diff, a search) runs on a
//! worker thread with the GIL released, and Ctrl-C interrupts it
//! ([`interrupt`]). Every message raised follows one rule
//! ([`errors::message`]).

// PyO3's macros expand to `unsafe` blocks of their own (the module's entry
// point, argument extraction); this crate itself writes none.
#![allow(unsafe_code)]

mod analysis;
mod board;
mod chain;
mod errors;
mod interrupt;
mod tools;

use pyo3::prelude::*;

/// The module `snakeladder._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_class::<tools::PyDiff>()?;
    m.add_class::<chain::PyChain>()?;
    m.add_class::<chain::PyChainAnswers>()?;
    m.add_function(wrap_pyfunction!(tools::validate_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(tools::validate_path, m)?)?;
    m.add_function(wrap_pyfunction!(tools::generate, m)?)?;
    m.add_function(wrap_pyfunction!(errors::py_message, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt::busy_workers, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
