//! Who may talk to the designer: the page it serves, and programs on this
//! machine; never another web site through the user's browser.
//!
//! The server listens on loopback, but a browser will send a request there
//! for any page it has open. Two attacks follow, and each request is
//! checked against both before any handler runs (docs/serve.md, "Who may
//! call it"):
//!
//! - **DNS rebinding**: a site whose name is made to resolve to 127.0.0.1
//!   reads the API as its own origin. Its requests carry its own name in
//!   `Host`; only a loopback name or an IP address is answered (a rebinding
//!   needs a name, an address cannot be rebound).
//! - **Cross-site requests**: any page may POST to the server (a form, or
//!   `fetch` with `mode: "no-cors"`), and `/api/save` writes the board
//!   file. A browser names the page's origin in `Origin` on every POST (and
//!   says `Sec-Fetch-Site: cross-site`); a POST from another origin is
//!   refused. A program that sends neither header (curl, a script) is not a
//!   browser acting for a web page, and is answered.

use crate::error::ApiError;
use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The middleware: refuses a request whose `Host` is a name other than a
/// loopback one, or a request that changes or computes something (anything
/// but GET and HEAD) from another origin; `403` with the API's JSON error.
pub(crate) async fn same_site(request: Request, next: Next) -> Response {
    if let Err(why) = check(request.method(), request.headers()) {
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden", &why).into_response();
    }
    next.run(request).await
}

/// Why the request is refused, if it is.
fn check(method: &Method, headers: &HeaderMap) -> Result<(), String> {
    let host = text(headers, header::HOST)?.unwrap_or("");
    if !allowed_host(host) {
        return Err(
            "the Host header names neither this machine's loopback nor an address; open the \
             page at the address snakeladder serve printed"
                .to_string(),
        );
    }
    if method == Method::GET || method == Method::HEAD {
        return Ok(());
    }
    if text(headers, header::HeaderName::from_static("sec-fetch-site"))? == Some("cross-site") {
        return Err("a request from another site's page is refused".to_string());
    }
    match text(headers, header::ORIGIN)? {
        None => Ok(()),
        Some(origin) if same_origin(origin, host) => Ok(()),
        Some(_) => Err("a request from another origin's page is refused".to_string()),
    }
}

/// The value of header `name`: `None` when absent, an error when it is
/// not text or is given twice. A value that cannot be read is not the
/// absence of the header: it may name another site, so it is refused as a
/// foreign one is, never let through as a program's request would be.
fn text(headers: &HeaderMap, name: header::HeaderName) -> Result<Option<&str>, String> {
    let mut values = headers.get_all(&name).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(format!("the {name} header is given more than once"));
    }
    value
        .to_str()
        .map(Some)
        .map_err(|_| format!("the {name} header is not plain text"))
}

/// Whether `host` (a `Host` header: a name or address, and a port) names
/// this machine in a way a rebound name cannot: `localhost` (or a name
/// under `.localhost`, which resolves to loopback only), or an IP address.
/// An empty `Host` (HTTP/1.0) is answered: no browser sends one.
fn allowed_host(host: &str) -> bool {
    let name = host_name(host);
    if name.is_empty() {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    lower == "localhost"
        || lower.ends_with(".localhost")
        || lower.parse::<std::net::IpAddr>().is_ok()
}

/// The name or address of a `Host` value, without its port and without
/// the brackets of an IPv6 address.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    host.rsplit_once(':').map_or(host, |(name, _)| name)
}

/// Whether `origin` (`http://host:port`) is the origin the page was served
/// from: the same host and port as the request's `Host`.
fn same_origin(origin: &str, host: &str) -> bool {
    origin
        .strip_prefix("http://")
        .is_some_and(|rest| rest.eq_ignore_ascii_case(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn loopback_names_and_addresses_are_answered() {
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "app.localhost:1",
            "[::1]:8080",
            "192.168.1.5:8080",
            "",
        ] {
            assert!(
                check(&Method::GET, &headers(&[("host", host)])).is_ok(),
                "{host}"
            );
        }
        for host in [
            "attacker.example:8080",
            "localhost.attacker.example",
            "127.0.0.1.nip.io",
        ] {
            assert!(
                check(&Method::GET, &headers(&[("host", host)])).is_err(),
                "{host}"
            );
        }
    }

    #[test]
    fn a_post_from_another_origin_is_refused() {
        let host = ("host", "127.0.0.1:8080");
        let post = |extra: &[(&'static str, &str)]| {
            check(&Method::POST, &headers(&[&[host], extra].concat()))
        };
        assert!(post(&[]).is_ok());
        assert!(post(&[("origin", "http://127.0.0.1:8080")]).is_ok());
        assert!(post(&[("origin", "http://evil.example")]).is_err());
        assert!(post(&[("origin", "http://127.0.0.1:9999")]).is_err());
        assert!(post(&[("origin", "null")]).is_err());
        assert!(post(&[("sec-fetch-site", "cross-site")]).is_err());
        assert!(post(&[("sec-fetch-site", "same-origin")]).is_ok());
        // A header that is not text, or is given twice, is no header this
        // server's page sends: refused, never taken for an absent one.
        let opaque = |name: &'static str| {
            let mut map = headers(&[host]);
            map.insert(
                name,
                header::HeaderValue::from_bytes(b"http://\xff.example").unwrap(),
            );
            map
        };
        assert!(check(&Method::POST, &opaque("origin")).is_err());
        assert!(check(&Method::POST, &opaque("sec-fetch-site")).is_err());
        let mut twice = headers(&[host, ("origin", "http://127.0.0.1:8080")]);
        twice.append("origin", "http://evil.example".parse().unwrap());
        assert!(check(&Method::POST, &twice).is_err());
        let mut opaque_host = HeaderMap::new();
        opaque_host.insert(
            "host",
            header::HeaderValue::from_bytes(b"\xffevil").unwrap(),
        );
        assert!(check(&Method::GET, &opaque_host).is_err());
        // A GET reads nothing another origin's page could read anyway.
        assert!(
            check(
                &Method::GET,
                &headers(&[host, ("origin", "http://evil.example")])
            )
            .is_ok()
        );
    }
}
