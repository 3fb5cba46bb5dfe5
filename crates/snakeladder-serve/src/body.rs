//! Reading a request's body before any handler runs, within its size
//! ([`Config::max_body`](crate::Config::max_body)) and its time
//! ([`Config::body_read_timeout`](crate::Config::body_read_timeout)).
//!
//! A body that says it is too large (its `Content-Length`) is never held:
//! from a client that asked first (`Expect: 100-continue`) it is refused
//! before a byte of it is read, and so before hyper answers `100 Continue`
//! (hyper sends it only once the body is first read), and the client never
//! sends it; from any other client, which is sending it already, the first
//! [`Config::max_body`](crate::Config::max_body) bytes are read and dropped
//! before the refusal, as a body that turns out too large as it comes
//! (chunked) is, so that the client is still reading when the refusal
//! comes (closing on a client in mid-send resets its connection before it
//! reads the answer). A body that does not arrive whole in time is `408`.
//! Each closes the connection: the rest of the body is never read, so the
//! connection cannot carry another request.

use crate::State;
use crate::error::ApiError;
use axum::body::Body;
use axum::extract::{Request, State as Shared};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, Limited};
use std::sync::Arc;

/// The middleware: the request passed on with its body read whole, or the
/// answer refusing it.
pub(crate) async fn read_whole(
    Shared(state): Shared<Arc<State>>,
    request: Request,
    next: Next,
) -> Response {
    let config = &state.config;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            &format!(
                "the body is larger than the {} bytes a request may have",
                config.max_body
            ),
        )
        .closing()
        .into_response()
    };
    let declared = match request.headers().get(header::CONTENT_LENGTH) {
        None => None,
        Some(value) => match value.to_str().ok().and_then(|v| v.parse::<u64>().ok()) {
            Some(n) => Some(n),
            None => {
                return ApiError::bad_request("Content-Length is not a number of bytes")
                    .closing()
                    .into_response();
            }
        },
    };
    let (parts, body) = request.into_parts();
    if declared.is_some_and(|n| n > config.max_body as u64) {
        let asked_first = parts
            .headers
            .get(header::EXPECT)
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        if !asked_first {
            let _ =
                tokio::time::timeout(config.body_read_timeout, drop_up_to(body, config.max_body))
                    .await;
        }
        return too_large();
    }
    let read = tokio::time::timeout(
        config.body_read_timeout,
        Limited::new(body, config.max_body).collect(),
    )
    .await;
    let bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Ok(Err(e)) => {
            return ApiError::bad_request(format!("the body could not be read: {e}"))
                .closing()
                .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "body_timeout",
                &format!(
                    "the body did not arrive whole within {:?}",
                    config.body_read_timeout
                ),
            )
            .closing()
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// Reads and drops `body` until `max` bytes have come, or it ends or fails.
async fn drop_up_to(mut body: Body, max: usize) {
    let mut read = 0;
    while read < max {
        match body.frame().await {
            Some(Ok(frame)) => read += frame.data_ref().map_or(0, |d| d.len()),
            _ => return,
        }
    }
}
