//! Long work that Ctrl-C interrupts.
//!
//! Python runs its signal handlers on the main thread, and only when that
//! thread runs Python code. So every long call (an analysis, a simulation,
//! a diff, a search) runs on a worker thread with the GIL released, while
//! the calling thread wakes every [`POLL`] to call `check_signals`. When
//! that raises (a `KeyboardInterrupt`), the work is told to stop through a
//! shared flag and the exception is raised at once, without waiting for
//! the worker: the worker is left to end on its own, and its result is
//! dropped.
//!
//! How soon an abandoned worker ends depends on the core's stop hooks: a
//! simulation looks at the flag before each batch of games and every 64
//! games within one (`snakeladder::simulate::SimulationConfig::with_stop`),
//! a design search wherever it checks its limits (`TuneOptions::with_stop`,
//! `GenerateOptions::with_stop`), an analysis between its figures, every
//! 256 turns of its length distribution and every digit of exact mode
//! (`Options::with_stop`). What has no hook runs to its end, holding its
//! memory and a core until then: one factorisation or solve of a large
//! chain (`mean_turns` is nothing else), and drawing a random layout.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the calling thread checks for signals: short enough that
/// Ctrl-C feels immediate, long enough to cost nothing.
const POLL: Duration = Duration::from_millis(50);

/// Worker threads started by [`run_interruptible`] that have not ended,
/// abandoned ones included: what the tests read to see that abandoned work
/// stops ([`busy_workers`]).
static WORKERS: AtomicUsize = AtomicUsize::new(0);

/// Counts one worker for as long as it lives, however it ends (a panic
/// included).
struct Counted;

impl Counted {
    fn new() -> Counted {
        WORKERS.fetch_add(1, Ordering::SeqCst);
        Counted
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        WORKERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How many worker threads of long calls are still running, those a
/// Ctrl-C abandoned included: an abandoned search or simulation that sees
/// its stop flag ends, and this count falls back (the package's tests wait
/// for that rather than for the process's CPU time to fall, which a busy
/// machine blurs).
#[pyfunction]
#[pyo3(name = "_busy_workers")]
pub fn busy_workers() -> usize {
    WORKERS.load(Ordering::SeqCst)
}

/// The worker's result, and a condition variable that wakes the caller
/// when it is there.
type Slot<T> = (Mutex<Option<T>>, Condvar);

/// Runs `work(stop)` on a worker thread without the GIL, checking for
/// signals meanwhile. A signal handler's exception is returned as soon as
/// it is raised (`stop` set, the worker abandoned); otherwise the work's
/// result. A panic of the work is raised again here (PyO3 makes it a
/// `PanicException`).
pub fn run_interruptible<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let done: Arc<Slot<T>> = Arc::new((Mutex::new(None), Condvar::new()));
    let worker = {
        let (stop, done) = (Arc::clone(&stop), Arc::clone(&done));
        let counted = Counted::new();
        std::thread::Builder::new()
            .name("snakeladder-work".into())
            .spawn(move || {
                let _counted = counted;
                let result = work(stop);
                *done.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                done.1.notify_all();
            })
            .map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "cannot start a worker thread: {e}"
                ))
            })?
    };
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
            return Ok(result);
        }
        if worker.is_finished() {
            // It may have stored its result after the wait above timed out
            // (a busy machine, the GIL slow to come back): joined, the slot
            // is read again. Empty, the worker panicked; its panic is
            // raised.
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
            // Not joined: the worker sees the flag where the core looks at
            // it (module docs) and its result, if any, is dropped with
            // `done`.
            stop.store(true, Ordering::Relaxed);
            return Err(signal);
        }
    }
}
