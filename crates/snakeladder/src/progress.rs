//! A front end's progress callback, carried by the options of a search or
//! a simulation.

use std::fmt;
use std::sync::Arc;

/// A callback told how far a search or simulation has got, from any of its
/// threads; none by default. Options that differ only in it compare equal:
/// it reports on the work, it does not change what the work finds.
pub(crate) struct Callback<F: ?Sized>(Option<Arc<F>>);

impl<F: ?Sized> Clone for Callback<F> {
    fn clone(&self) -> Self {
        Callback(self.0.clone())
    }
}

impl<F: ?Sized> Default for Callback<F> {
    fn default() -> Self {
        Callback(None)
    }
}

impl<F: ?Sized> Callback<F> {
    /// The callback `f`.
    pub(crate) fn new(f: Arc<F>) -> Self {
        Callback(Some(f))
    }

    /// The callback, if one was given.
    pub(crate) fn get(&self) -> Option<&F> {
        self.0.as_deref()
    }
}

impl<F: ?Sized> fmt::Debug for Callback<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Some(..)" } else { "None" })
    }
}

impl<F: ?Sized> PartialEq for Callback<F> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Told the number of candidate boards evaluated so far.
pub(crate) type Evaluated = Callback<dyn Fn(u64) + Send + Sync>;
