//! # snakeladder-serve
//!
//! The live layout designer: one page and a JSON API over the
//! [`snakeladder`] core and the [`snakeladder_render`] layer, served on
//! loopback by `snakeladder serve`. The page draws the board, lets the user
//! move its snakes and ladders and change its rules, and after every edit
//! asks the API for the exact figures.
//!
//! The API answers with the command's own JSON shapes: `POST /api/analyze`
//! is byte for byte what `snakeladder analyze --format json` prints for the
//! same board and options (both go through [`snakeladder_render::json`]),
//! and an invalid board is `422` with `validate`'s JSON problems. The
//! routes are documented in the OpenAPI document at `GET /api/openapi.json`.
//!
//! Every request is bounded: the body's size ([`Config::max_body`], `413`
//! past it, before a byte of it is read when its length says so) and the
//! time to send it ([`Config::body_read_timeout`]), the analysis's memory
//! and work ([`Config::limits`]), the number of computations at once
//! ([`Config::max_jobs`]; the rest wait up to [`Config::queue_wait`], then
//! `503`), and the time ([`Config::timeout`], then `504`); and so is the
//! number of connections ([`Config::max_connections`]). Computations run on
//! tokio's blocking threads under the core's stop flag, raised when the
//! timeout passes or the client goes away.
//!
//! Module [`table`] serves live games: one core [`snakeladder::Game`] to
//! many clients ([`table::Table`]), many games at once
//! ([`table::Registry`]).
//!
//! ```
//! use snakeladder_serve::{Config, router};
//!
//! let app = router(Config::default());
//! # let _ = app;
//! ```

mod api;
mod body;
mod error;
mod guard;
mod listen;
mod page;
mod query;
pub mod table;
mod work;

pub use error::ApiError;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use snakeladder::Limits;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the server is bounded, and the board file it edits.
#[derive(Clone, Debug)]
pub struct Config {
    /// The board file the page opens with, and where the layout policy
    /// (`snakeladder.toml`) is searched from; without one, the built-in
    /// board is shown and the policy is searched from the current
    /// directory.
    pub board_path: Option<PathBuf>,
    /// How `POST /api/save` writes the board file back (the front end's
    /// atomic writer); without one, saving is refused with `409`.
    pub save: Option<Saver>,
    /// Memory and work allowed to each request's analysis.
    pub limits: Limits,
    /// Multiply-adds a request may spend in a step the core cannot
    /// interrupt, factoring a board's chain (as the solver estimates them
    /// beforehand); a board past it is refused with `422` before it is
    /// factored, so that a request whose client hangs up, or whose time is
    /// up, stops within about as long as this takes.
    pub max_factor_work: f64,
    /// The largest request body, in bytes; past it, `413`.
    pub max_body: usize,
    /// Most computations at once.
    pub max_jobs: usize,
    /// How long a request waits for a computation slot before `503`.
    pub queue_wait: Duration,
    /// How long a request may take before `504`.
    pub timeout: Duration,
    /// How long a connection may take to send a request's head (its line
    /// and headers), from its start or its previous answer; past it, the
    /// connection is closed, so a client that never finishes holds nothing.
    pub header_read_timeout: Duration,
    /// How long a request may take to send its body, from the end of its
    /// head; past it, `408` and the connection is closed, so a client that
    /// sends part of a body and waits holds nothing.
    pub body_read_timeout: Duration,
    /// Most connections open at once, idle and slow ones included; past
    /// it, no connection is accepted until one closes (the kernel holds
    /// the rest), so open connections and the request bodies they hold
    /// stay bounded.
    pub max_connections: usize,
    /// At shutdown, how long the requests in flight are waited for.
    pub shutdown_grace: Duration,
}

impl Default for Config {
    /// No board file; 1 GiB and 2e9 multiply-adds (a few seconds) per
    /// analysis, and 1e8 (about a second) for a factorisation; 1 MiB
    /// bodies; one computation per core; a 2 s wait for a
    /// slot and a 60 s timeout; 10 s to send a request's head and 10 s its
    /// body; 64 connections; and 10 s for the requests in flight at
    /// shutdown.
    fn default() -> Config {
        Config {
            board_path: None,
            save: None,
            limits: Limits {
                max_memory: 1 << 30,
                max_work: 2e9,
            },
            max_factor_work: 1e8,
            max_body: 1 << 20,
            max_jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue_wait: Duration::from_secs(2),
            timeout: Duration::from_secs(60),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            max_connections: 64,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Writes a board file's bytes to the board's path, whole or not at all;
/// its error is the message shown to the user.
#[derive(Clone)]
pub struct Saver(pub Arc<SaveFn>);

/// The function a [`Saver`] calls with the board file's bytes.
pub type SaveFn = dyn Fn(&[u8]) -> Result<(), String> + Send + Sync;

impl std::fmt::Debug for Saver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Saver")
    }
}

/// What every handler shares.
pub(crate) struct State {
    pub(crate) config: Config,
    pub(crate) jobs: Arc<Semaphore>,
    /// Held from a save's look at the board file to its write, so two
    /// saves cannot both find the version they expect and both write.
    pub(crate) saving: Arc<std::sync::Mutex<()>>,
}

/// Every route of the API, as `(method, path)`: the OpenAPI document lists
/// exactly these (a test holds it to that).
pub const API_ROUTES: [(&str, &str); 10] = [
    ("get", "/api/openapi.json"),
    ("get", "/api/board"),
    ("post", "/api/analyze"),
    ("post", "/api/validate"),
    ("post", "/api/sensitivity"),
    ("post", "/api/tune"),
    ("post", "/api/diff"),
    ("post", "/api/format"),
    ("post", "/api/report"),
    ("post", "/api/save"),
];

/// The OpenAPI 3.1 document of the API, as `GET /api/openapi.json` serves
/// it.
pub const OPENAPI: &str = include_str!("openapi.json");

/// The designer's routes: the page (`GET /`, `/app.js`, `/app.css`) and the
/// API under `/api/`.
pub fn router(config: Config) -> Router {
    let state = Arc::new(State {
        jobs: Arc::new(Semaphore::new(config.max_jobs.max(1))),
        saving: Arc::default(),
        config: config.clone(),
    });
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/app.css", get(page::style))
        .route("/api/openapi.json", get(api::openapi))
        .route("/api/board", get(api::board))
        .route("/api/analyze", post(api::analyze))
        .route("/api/validate", post(api::validate))
        .route("/api/sensitivity", post(api::sensitivity))
        .route("/api/tune", post(api::tune))
        .route("/api/diff", post(api::diff))
        .route("/api/format", post(api::format))
        .route("/api/report", post(api::report))
        .route("/api/save", post(api::save))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(config.max_body))
        // Each body is read whole, within its size and time, before a
        // handler runs; and never read from another site's page.
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            body::read_whole,
        ))
        // Outermost: no handler runs for a request another site's page sent.
        .layer(axum::middleware::from_fn(guard::same_site))
        .with_state(state)
}

/// A board file's text as the designer edits it: a JSON object (valid as
/// a board or not: the page shows its problems), UTF-8, a leading
/// byte-order mark read past. Anything else cannot be edited, and is an
/// error naming the line and column, so that the page never shows (and
/// saves over the file) a board other than the file's.
///
/// # Errors
/// Why the text is not a JSON object.
///
/// # Example
/// ```
/// assert!(snakeladder_serve::editable_board(br#"{"squares": 10, "snakes": [[3, 8]]}"#).is_ok());
/// let why = snakeladder_serve::editable_board(b"{\"squares\": 10,}").unwrap_err();
/// assert_eq!(why, "line 1, column 16: trailing comma");
/// assert!(snakeladder_serve::editable_board(b"[]").is_err());
/// ```
pub fn editable_board(bytes: &[u8]) -> Result<serde_json::Value, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value @ serde_json::Value::Object(_)) => Ok(value),
        Ok(_) => Err("not a JSON object, so not a board the designer can edit".to_string()),
        Err(e) => {
            let mut message = e.to_string();
            if let Some(at) = message.rfind(" at line ") {
                message.truncate(at);
            }
            Err(format!(
                "line {}, column {}: {message}",
                e.line(),
                e.column().max(1)
            ))
        }
    }
}

/// The version of a board file's bytes, as `GET /api/board` gives it and
/// `POST /api/save?base=` expects it: their length and FNV-1a hash, so a
/// file changed in any byte since it was read has another version.
///
/// # Example
/// ```
/// let v = snakeladder_serve::file_version(b"{}");
/// assert_eq!(v, snakeladder_serve::file_version(b"{}"));
/// assert_ne!(v, snakeladder_serve::file_version(b"{ }"));
/// assert!(v.starts_with("2-"));
/// ```
pub fn file_version(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{}-{hash:016x}", bytes.len())
}

/// Serves the designer of `config` on `listener` until `shutdown`
/// completes, then finishes the requests in flight (waiting at most
/// [`Config::shutdown_grace`]) and returns. A connection that takes longer
/// than [`Config::header_read_timeout`] to send a request's head is closed,
/// and at most [`Config::max_connections`] are open at once.
/// A failure to accept a connection (out of file descriptors) is waited
/// out, not returned.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let bounds = listen::Bounds {
        header_read_timeout: config.header_read_timeout,
        max_connections: config.max_connections,
        grace: config.shutdown_grace,
    };
    listen::serve(listener, router(config), bounds, shutdown).await;
}

/// Binds `addr`, calls `ready` with the address bound (port 0 picks a free
/// one), and serves the designer until Ctrl-C or SIGTERM, on a runtime of
/// its own: the front end needs no async code. The signal stops it as
/// [`serve`] stops: the requests in flight are finished first.
///
/// # Errors
/// When the runtime cannot start or `addr` cannot be bound.
pub fn run(
    config: Config,
    addr: std::net::SocketAddr,
    ready: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, config, listen::signal()).await;
        Ok::<(), std::io::Error>(())
    })?;
    // A computation still running past the grace (its request was dropped,
    // so it stops at its next phase) does not hold the process.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(())
}
