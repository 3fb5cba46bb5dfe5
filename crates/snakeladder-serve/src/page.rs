//! The designer's page, shipped inside the binary: one HTML document, its
//! script and its style, with no third-party resource, so it works
//! offline. A strict Content-Security-Policy allows nothing but these
//! files and the API.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/app.css");

/// Scripts and styles only from this server (no inline code), requests
/// only to it, images only from it or `data:`/`blob:` URLs (the downloads),
/// and no framing.
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
frame-ancestors 'none'";

fn answer(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub(crate) async fn index() -> Response {
    answer("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub(crate) async fn script() -> Response {
    answer("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /app.css`.
pub(crate) async fn style() -> Response {
    answer("text/css; charset=utf-8", STYLE)
}
