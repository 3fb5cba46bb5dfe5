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
