//! The API's errors: a status and a JSON body saying what went wrong.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An answer other than success: its status and its JSON body.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: Vec<u8>,
    close: bool,
}

#[derive(Serialize)]
struct Body<'a> {
    error: Detail<'a>,
}

#[derive(Serialize)]
struct Detail<'a> {
    kind: &'a str,
    message: &'a str,
}

impl ApiError {
    /// `{"schema": 1, "error": {"kind": ..., "message": ...}}` with `status`.
    pub fn new(status: StatusCode, kind: &str, message: &str) -> ApiError {
        let body = snakeladder_render::json::pretty(&Body {
            error: Detail { kind, message },
        })
        .unwrap_or_else(|_| b"{}".to_vec());
        ApiError {
            status,
            body,
            close: false,
        }
    }

    /// The same answer, closing the connection after it: the rest of an
    /// oversized body is never read, so the connection cannot carry another
    /// request (a client that reused it would write into a closed socket).
    pub(crate) fn closing(mut self) -> ApiError {
        self.close = true;
        self
    }

    /// A JSON body already made (`validate`'s problems for `422`).
    pub(crate) fn json(status: StatusCode, body: Vec<u8>) -> ApiError {
        ApiError {
            status,
            body,
            close: false,
        }
    }

    /// `400`: a query parameter or body that is not what the route takes.
    pub(crate) fn bad_request(message: impl AsRef<str>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message.as_ref())
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            self.body,
        )
            .into_response();
        if self.close {
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
        }
        response
    }
}
