//! Running one computation within the server's bounds: a slot among
//! [`Config::max_jobs`](crate::Config::max_jobs) (waited for at most
//! `queue_wait`, else `503`), a blocking thread so the async workers keep
//! answering, a timeout (`504`), and a stop flag raised when the request's
//! future is dropped (its client went away, or the timeout passed). The
//! flag is the core's own stop flag (`Options::with_stop` and its
//! kin), so the core's loops see it, not only the handler between phases;
//! a phase the core cannot stop inside (compiling and factoring a chain) is
//! refused beforehand when its work would pass its own budget ([`fits`]).

use crate::State;
use crate::error::ApiError;
use axum::http::StatusCode;
use snakeladder::internals::{Chain, solver_estimate};
use snakeladder::{Board, Limits};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The request's stop flag, the time its budget ends, and the work it may
/// spend in a step the flag cannot stop.
#[derive(Clone)]
pub(crate) struct Cancel {
    flag: Arc<AtomicBool>,
    deadline: Instant,
    max_factor_work: f64,
}

impl Cancel {
    fn new(budget: Duration, max_factor_work: f64) -> Cancel {
        let now = Instant::now();
        Cancel {
            flag: Arc::default(),
            deadline: now.checked_add(budget).unwrap_or(now),
            max_factor_work,
        }
    }

    /// `Err` once the request is gone: the computation stops before its
    /// next phase rather than work for nobody.
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        if self.is_set() {
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "cancelled",
                "the request was cancelled",
            ))
        } else {
            Ok(())
        }
    }

    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The flag, for the core's `with_stop`.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// The time left of the request's budget, for the core's own time
    /// limits (a design search's), so it ends with its closest board
    /// rather than be stopped with nothing.
    pub(crate) fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// `e` as the request's answer, unless the request is gone: the core
    /// stopped by the flag says so in its own words, but nobody reads them.
    pub(crate) fn or_cancelled(&self, e: ApiError) -> ApiError {
        self.check().err().unwrap_or(e)
    }
}

/// Raises the flag when dropped: the request's future is dropped when its
/// connection closes or its timeout passes, and with it this guard.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `Err(422)` when analysing `board` would take, in the phases the core
/// cannot stop inside, more than the request may spend there: compiling its
/// chain (bounded by the memory of `limits`, checked first) and factoring
/// it (its estimated multiply-adds against
/// [`Config::max_factor_work`](crate::Config::max_factor_work)). A board
/// past the memory limit is left to the analysis, which refuses it in the
/// command's words.
pub(crate) fn fits(board: &Board, limits: Limits, cancel: &Cancel) -> Result<(), ApiError> {
    if snakeladder::internals::chain_bytes(board) > limits.max_memory {
        return Ok(());
    }
    let chain = Chain::compile(board)
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "limit", &e.to_string()))?;
    cancel.check()?;
    let work = solver_estimate(&chain).factor_work;
    if work > cancel.max_factor_work {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "limit",
            &format!(
                "factoring this board's chain of {} states needs about {work:.1e} \
                 multiply-adds, over the {:.1e} the server allows a step it cannot \
                 interrupt",
                chain.len(),
                cancel.max_factor_work
            ),
        ));
    }
    Ok(())
}

/// Runs `f` on a blocking thread once a slot is free, within the timeout.
///
/// The slot is held by the thread until `f` returns, even past the
/// timeout, so at most `max_jobs` computations ever run at once; the flag
/// `f` is given is raised when the timeout passes or the request is
/// dropped, and `f` hands it to the core, which then stops.
pub(crate) async fn run<T, F>(state: &State, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
{
    let config = &state.config;
    let permit = match tokio::time::timeout(
        config.queue_wait,
        Arc::clone(&state.jobs).acquire_owned(),
    )
    .await
    {
        Ok(Ok(permit)) => permit,
        _ => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                &format!(
                    "all {} computation slots stayed busy for {:?}; try again",
                    config.max_jobs, config.queue_wait
                ),
            ));
        }
    };
    let cancel = Cancel::new(config.timeout, config.max_factor_work);
    let guard = RaiseOnDrop(cancel.flag());
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        cancel.check()?;
        f(&cancel).map_err(|e| cancel.or_cancelled(e))
    });
    let answer = match tokio::time::timeout(config.timeout, task).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(join)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            &format!("the computation failed: {join}"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "timeout",
            &format!("the computation took longer than {:?}", config.timeout),
        )),
    };
    drop(guard);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use std::sync::mpsc;
    use tokio::sync::Semaphore;

    fn state(config: Config) -> Arc<State> {
        Arc::new(State {
            jobs: Arc::new(Semaphore::new(config.max_jobs)),
            saving: Default::default(),
            config,
        })
    }

    /// A computation that checks its flag between phases stops soon after
    /// its request is dropped (a client that went away), and frees its slot.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_request_cancels_its_computation() {
        let s = state(Config {
            max_jobs: 1,
            ..Config::default()
        });
        let (tx, rx) = mpsc::channel();
        let request = run(&s, move |cancel: &Cancel| {
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(20) {
                if cancel.check().is_err() {
                    let _ = tx.send(started.elapsed());
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = tx.send(Duration::MAX);
            Ok(())
        });
        // The client gives up after 100 ms: the request's future is dropped.
        assert!(
            tokio::time::timeout(Duration::from_millis(100), request)
                .await
                .is_err()
        );
        let stopped = tokio::task::spawn_blocking(move || rx.recv().unwrap())
            .await
            .unwrap();
        assert!(
            stopped < Duration::from_secs(5),
            "stopped after {stopped:?}"
        );
        // The slot is free again.
        let again = run(&s, |_: &Cancel| Ok(7)).await;
        assert_eq!(again.unwrap(), 7);
    }

    /// A computation past the timeout is answered 504 at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_computation_is_504() {
        let s = state(Config {
            timeout: Duration::from_millis(50),
            ..Config::default()
        });
        let answer = run(&s, |cancel: &Cancel| {
            for _ in 0..400 {
                cancel.check()?;
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(())
        })
        .await;
        assert_eq!(answer.unwrap_err().status(), StatusCode::GATEWAY_TIMEOUT);
    }

    /// A board whose factorisation alone is past the work limit is refused
    /// before it is factored; the same board within a larger limit, and a
    /// small board, are not.
    #[test]
    fn a_factorisation_past_the_work_limit_is_refused_before_it_starts() {
        let wide = Board::from_json_str(
            r#"{"squares": 3000, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 100}}}"#,
        )
        .unwrap();
        let within = |max_factor_work| Cancel::new(Duration::from_secs(60), max_factor_work);
        let limits = Limits {
            max_memory: 1 << 30,
            max_work: 1e12,
        };
        let refused = fits(&wide, limits, &within(1e6)).unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(fits(&wide, limits, &within(1e12)).is_ok());
        assert!(fits(&Board::builtin_default(), limits, &within(1e6)).is_ok());
    }
}
