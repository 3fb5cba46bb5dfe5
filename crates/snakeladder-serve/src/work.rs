//! Running one computation within the server's bounds: a slot among
//! [`Config::max_jobs`](crate::Config::max_jobs) (waited for at most
//! `queue_wait`, else `503`), a blocking thread so the async workers keep
//! answering, a timeout (`504`), and a cancellation flag raised when the
//! request's future is dropped (its client went away, or the timeout
//! passed), which the computation checks between its phases.

use crate::State;
use crate::error::ApiError;
use axum::http::StatusCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Raised when the request that asked for the computation is gone.
#[derive(Clone, Default)]
pub(crate) struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// `Err(499-like)` once the request is gone: the computation stops
    /// before its next phase rather than work for nobody.
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        if self.0.load(Ordering::Relaxed) {
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "cancelled",
                "the request was cancelled",
            ))
        } else {
            Ok(())
        }
    }
}

/// Raises the flag when dropped: the request's future is dropped when its
/// connection closes or its timeout passes, and with it this guard.
struct RaiseOnDrop(Cancel);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        (self.0).0.store(true, Ordering::Relaxed);
    }
}

/// Runs `f` on a blocking thread once a slot is free, within the timeout.
///
/// The slot is held by the thread until `f` returns, even past the
/// timeout, so at most `max_jobs` computations ever run at once.
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
    let cancel = Cancel::default();
    let guard = RaiseOnDrop(cancel.clone());
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        cancel.check()?;
        f(&cancel)
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
    use std::time::{Duration, Instant};
    use tokio::sync::Semaphore;

    fn state(config: Config) -> Arc<State> {
        Arc::new(State {
            jobs: Arc::new(Semaphore::new(config.max_jobs)),
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
}
