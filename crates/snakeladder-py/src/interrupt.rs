//! Long work that Ctrl-C can stop.
//!
//! Python runs its signal handlers on the main thread, and only when that
//! thread runs Python code. So the work runs on a worker thread with the
//! GIL released, while the calling thread wakes every [`POLL`] to call
//! `check_signals`; when it raises (a `KeyboardInterrupt`), the work is told
//! to stop through a shared flag (the simulator looks at it before each
//! batch of games, `snakeladder::simulate::SimulationConfig::with_stop`),
//! the worker is joined, and the exception is raised.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the calling thread checks for signals: short enough that
/// Ctrl-C feels immediate, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work(stop)` on a worker thread without the GIL, checking for
/// signals meanwhile. A signal handler's exception is returned (after the
/// work has seen `stop` and ended); otherwise the work's result.
pub fn run_interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(Arc<AtomicBool>) -> T + Send,
{
    let stop = Arc::new(AtomicBool::new(false));
    // The worker's result, and a condition variable that wakes the caller
    // when it is there.
    let done: (Mutex<Option<T>>, Condvar) = (Mutex::new(None), Condvar::new());
    std::thread::scope(|scope| {
        let (stop, done) = (&stop, &done);
        let worker = scope.spawn(move || {
            let result = work(stop.clone());
            *done.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            done.1.notify_all();
        });
        loop {
            let finished = py.detach(|| {
                let slot = done.0.lock().unwrap_or_else(|e| e.into_inner());
                let (mut slot, _) = done
                    .1
                    .wait_timeout_while(slot, POLL, |r| r.is_none() && !worker.is_finished())
                    .unwrap_or_else(|e| e.into_inner());
                slot.take()
            });
            if let Some(result) = finished {
                let _ = py.detach(move || worker.join());
                return Ok(result);
            }
            if worker.is_finished() {
                // It may have stored its result after the wait above timed
                // out (a busy machine, the GIL slow to come back): joined,
                // the slot is read again. Empty, the worker panicked; its
                // panic is raised.
                let joined = py.detach(move || worker.join());
                let result = done.0.lock().unwrap_or_else(|e| e.into_inner()).take();
                return match (result, joined) {
                    (Some(result), _) => Ok(result),
                    (None, Err(panic)) => std::panic::resume_unwind(panic),
                    (None, Ok(())) => Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the worker thread ended without a result",
                    )),
                };
            }
            if let Err(signal) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(move || worker.join());
                return Err(signal);
            }
        }
    })
}
