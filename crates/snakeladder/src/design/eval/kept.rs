//! The last column of the inverse an update solved, kept for the next
//! update with the same moved start (boards past
//! [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states, where columns
//! are solved when asked for).

use super::{Dense, InputError};
use std::borrow::Cow;

#[cfg(doc)]
use super::Base;

/// The last column of `N` an update solved, and its error bound
/// ([`Base::mean_after_kept`]).
#[derive(Default)]
pub(crate) struct ColumnKept(Option<(usize, Vec<f64>, InputError)>);

impl ColumnKept {
    /// Whether an update solved a column into it (never when the inverse
    /// is held whole).
    pub(crate) fn solved(&self) -> bool {
        self.0.is_some()
    }
}

impl Dense {
    /// [`Dense::column`], from `kept` when it holds column `c`; a column
    /// solved is kept there in place of the one before.
    pub(super) fn column_kept<'k>(
        &'k self,
        c: usize,
        kept: &'k mut ColumnKept,
    ) -> (Cow<'k, [f64]>, InputError) {
        if self.full() {
            return self.column(c);
        }
        if kept.0.as_ref().is_none_or(|(k, _, _)| *k != c) {
            let (x, error) = self.column(c);
            kept.0 = Some((c, x.into_owned(), error));
        }
        let (_, x, error) = kept.0.as_ref().expect("kept above");
        (Cow::Borrowed(x), *error)
    }
}
