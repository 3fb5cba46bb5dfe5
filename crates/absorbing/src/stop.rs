//! The stop flag: a caller's `AtomicBool` that long work reads between
//! steps, ending with an error once it is set (a front end sets it on
//! Ctrl-C, a deadline, or a client that went away).

use std::sync::atomic::{AtomicBool, Ordering};

/// The work was stopped by its caller's flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped")]
pub struct Stopped;

/// `Err(Stopped)` once `stop` is set; no flag never stops.
///
/// # Errors
/// [`Stopped`] when the flag is set.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
///
/// let flag = AtomicBool::new(false);
/// assert!(absorbing::stop::check(Some(&flag)).is_ok());
/// flag.store(true, std::sync::atomic::Ordering::Relaxed);
/// assert!(absorbing::stop::check(Some(&flag)).is_err());
/// assert!(absorbing::stop::check(None).is_ok());
/// ```
pub fn check(stop: Option<&AtomicBool>) -> Result<(), Stopped> {
    match stop {
        Some(flag) if flag.load(Ordering::Relaxed) => Err(Stopped),
        _ => Ok(()),
    }
}
