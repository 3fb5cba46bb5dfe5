//! What a design search may spend: multiply-adds (`--max-work`), memory
//! (`--max-memory`) and time (`--time-limit`). `tune`, `generate
//! --target-turns` and `analyze --sensitivity` charge their work to a
//! [`Meter`] as they go and stop, with the closest board they found and the
//! limit that stopped them ([`DesignError::Stopped`]), once one is spent;
//! their memory is estimated before they start.
//!
//! The work of a step is counted from its sizes, for a board of `n` squares:
//! building the evaluator of a board ([`super::Base::new`]) costs what the
//! sparse solver estimates for its factorisation and its solves, one per
//! jump and, up to [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states,
//! one per column of the inverse ([`super::Base::work`]); a candidate
//! answered by an update costs about `n` (and one solve more when it needs
//! a column of the inverse not held, [`super::Base::column_work`]), and one
//! that must be compiled and solved afresh (extra rolls, chains) about
//! `n²`. Up to [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states a
//! level is charged as a whole, `tune`'s first level in order of
//! preference too: every placement, evaluated or ruled out, what the full
//! level it falls back to costs. The candidate boards a search reports as
//! evaluated are counted apart, and are not this work (docs/design-search.md
//! §2).

use super::{DesignError, Target};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The limits of one design search: the public API sets them with
/// `with_limits` and `with_time_limit` of
/// [`TuneOptions`](super::TuneOptions) and
/// [`GenerateOptions`](super::GenerateOptions); the command builds one from
/// its flags.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Budget {
    /// Most multiply-adds, counted as the module docs say.
    pub max_work: f64,
    /// Most bytes the search's evaluators may hold at once.
    pub max_memory: u64,
    /// Most time the search may run.
    pub time_limit: Option<Duration>,
}

impl Default for Budget {
    /// The analysis's default limits ([`crate::Limits::default`]), no time
    /// limit.
    fn default() -> Budget {
        let limits = crate::Limits::default();
        Budget {
            max_work: limits.max_work,
            max_memory: limits.max_memory,
            time_limit: None,
        }
    }
}

impl Budget {
    /// Refuses a search whose evaluators would not fit in
    /// [`Budget::max_memory`]: each holds the dense inverse of a chain of
    /// `squares` states (8·n² bytes), and up to `at_once` are built at a
    /// time.
    ///
    /// # Errors
    /// [`DesignError::Stopped`] naming the estimate and the limit.
    pub(crate) fn check_memory(
        &self,
        squares: u32,
        at_once: usize,
        target: Option<&Target>,
    ) -> Result<(), DesignError> {
        let n = u64::from(squares) + 1;
        let needed = (8 * n * n).saturating_mul(at_once.max(1) as u64 + 1);
        if needed > self.max_memory {
            let (needed, limit) = crate::over::memory(needed, self.max_memory);
            return Err(DesignError::Stopped {
                limit: format!(
                    "it needs about {needed} for {} dense inverses of {n} states, over the limit of {limit} (--max-memory)",
                    at_once.max(1) + 1,
                ),
                target: target.copied(),
                closest: None,
                evaluated: 0,
            });
        }
        Ok(())
    }
}

impl Budget {
    /// Whether [`sensitivity_within`](super::sensitivity_within) could hold
    /// its evaluator of `board` within this budget's memory, checked before
    /// any work so that a front end can refuse before it analyses the board.
    ///
    /// # Errors
    /// [`DesignError::Stopped`] naming the estimate and the limit.
    pub fn check_sensitivity(&self, board: &crate::Board) -> Result<(), DesignError> {
        self.check_sensitivity_memory(board.last().get(), board.jumps().len())
    }

    /// Refuses a sensitivity ranking whose evaluator would not fit in
    /// [`Budget::max_memory`]: up to
    /// [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states it holds the
    /// dense inverse ([`Budget::check_memory`]); past it, two vectors of a
    /// state per jump (`u` and `N·u`) and a column of the inverse per
    /// thread, `8·n·(2·jumps + 2·threads)` bytes.
    ///
    /// # Errors
    /// [`DesignError::Stopped`] naming the estimate and the limit.
    pub(crate) fn check_sensitivity_memory(
        &self,
        squares: u32,
        jumps: usize,
    ) -> Result<(), DesignError> {
        if squares as usize <= super::MAX_UPDATE_STATES {
            return self.check_memory(squares, 1, None);
        }
        self.check_vectors(squares, jumps, 1, None)
    }

    /// Refuses a search ([`tune`](super::tune)) whose evaluators would not
    /// fit in [`Budget::max_memory`], `at_once` of them built at a time and
    /// one more held: up to
    /// [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states each holds
    /// the dense inverse ([`Budget::check_memory`]); past it, each holds
    /// the vectors [`Budget::check_sensitivity_memory`] counts.
    ///
    /// # Errors
    /// [`DesignError::Stopped`] naming the estimate and the limit.
    pub(crate) fn check_search_memory(
        &self,
        squares: u32,
        jumps: usize,
        at_once: usize,
        target: &Target,
    ) -> Result<(), DesignError> {
        if squares as usize <= super::MAX_UPDATE_STATES {
            return self.check_memory(squares, at_once, Some(target));
        }
        self.check_vectors(squares, jumps, at_once.max(1) as u64 + 1, Some(target))
    }

    /// `evaluators` evaluators that do not hold the inverse (past
    /// [`MAX_UPDATE_STATES`](super::MAX_UPDATE_STATES) states, and every
    /// evaluator of `generate --target-turns`), each
    /// `8·n·(2·jumps + 2·threads)` bytes, against [`Budget::max_memory`].
    ///
    /// # Errors
    /// [`DesignError::Stopped`] naming the estimate and the limit.
    pub(crate) fn check_vectors(
        &self,
        squares: u32,
        jumps: usize,
        evaluators: u64,
        target: Option<&Target>,
    ) -> Result<(), DesignError> {
        let n = u64::from(squares) + 1;
        let vectors = 2 * jumps as u64 + 2 * crate::par::current_num_threads() as u64;
        let needed = (8 * n).saturating_mul(vectors).saturating_mul(evaluators);
        if needed > self.max_memory {
            let times = if evaluators == 1 {
                String::new()
            } else {
                format!("{evaluators} evaluators of ")
            };
            let (needed, limit) = crate::over::memory(needed, self.max_memory);
            return Err(DesignError::Stopped {
                limit: format!(
                    "it needs about {needed} for {times}{vectors} vectors of {n} states (two per jump, two per thread), over the limit of {limit} (--max-memory)",
                ),
                target: target.copied(),
                closest: None,
                evaluated: 0,
            });
        }
        Ok(())
    }
}

/// The work and time a search has spent, shared by its threads.
#[derive(Debug)]
pub(crate) struct Meter {
    budget: Budget,
    start: Instant,
    work: AtomicU64,
    /// A front end's stop flag (Ctrl-C), read wherever the limits are.
    stop: crate::progress::Callback<AtomicBool>,
}

impl Meter {
    /// A meter that starts now.
    pub(crate) fn new(budget: Budget) -> Meter {
        Meter {
            budget,
            start: Instant::now(),
            work: AtomicU64::new(0),
            stop: Default::default(),
        }
    }

    /// The same meter, spent as soon as `stop` is set.
    pub(crate) fn with_stop(self, stop: crate::progress::Callback<AtomicBool>) -> Meter {
        Meter { stop, ..self }
    }

    /// Adds `work` multiply-adds.
    pub(crate) fn charge(&self, work: f64) {
        let work = work.clamp(0.0, 1e18) as u64;
        let _ = self
            .work
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |w| {
                Some(w.saturating_add(work))
            });
    }

    /// Candidates: `updated` by an update (about `n` each), `solved`
    /// compiled and solved afresh (about `n²` each).
    pub(crate) fn charge_candidates(&self, squares: u32, updated: u64, solved: u64) {
        let n = f64::from(squares) + 1.0;
        self.charge(updated as f64 * n + solved as f64 * n * n);
    }

    /// Whether the stop flag is set: for loops too hot to read the clock,
    /// and where a limit spent must not change which candidates are
    /// evaluated (a stop flag ends the search whatever they found).
    pub(crate) fn stopped(&self) -> bool {
        self.stop.get().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Which limit is spent, in words; `None` while none is.
    pub(crate) fn spent(&self) -> Option<String> {
        if self.stopped() {
            return Some("it was stopped (its stop flag was set)".to_string());
        }
        let work = self.work.load(Ordering::Relaxed) as f64;
        if work > self.budget.max_work {
            let (work, limit) = crate::over::count(work, self.budget.max_work, 2);
            return Some(format!(
                "it has done about {work} multiply-adds, over the limit of {limit} (--max-work)",
            ));
        }
        if let Some(limit) = self.budget.time_limit {
            let ran = self.start.elapsed();
            if ran > limit {
                let (ran, limit) = crate::over::seconds(ran.as_secs_f64(), limit.as_secs_f64());
                return Some(format!(
                    "it has run {ran} s, over the limit of {limit} s (--time-limit)",
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_says_which_limit_is_spent() {
        let meter = Meter::new(Budget {
            max_work: 1000.0,
            ..Budget::default()
        });
        assert_eq!(meter.spent(), None);
        meter.charge(600.0);
        assert_eq!(meter.spent(), None);
        meter.charge(600.0);
        assert!(meter.spent().unwrap().contains("--max-work"));
        let meter = Meter::new(Budget {
            time_limit: Some(Duration::from_millis(1)),
            ..Budget::default()
        });
        std::thread::sleep(Duration::from_millis(5));
        assert!(meter.spent().unwrap().contains("--time-limit"));
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let meter =
            Meter::new(Budget::default()).with_stop(crate::progress::Callback::new(stop.clone()));
        assert_eq!(meter.spent(), None);
        stop.store(true, Ordering::Relaxed);
        assert!(meter.spent().unwrap().contains("stopped"));
    }
}
