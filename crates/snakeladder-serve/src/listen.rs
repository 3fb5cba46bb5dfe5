//! Serving the router on a listener: each connection under hyper's HTTP/1
//! server with a header-read timeout, at most so many connections at once,
//! and a graceful, bounded shutdown (docs/serve.md, "Stopping").

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// The bounds of the connections, from [`crate::Config`].
pub(crate) struct Bounds {
    pub(crate) header_read_timeout: Duration,
    pub(crate) max_connections: usize,
    pub(crate) grace: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes, then stops
/// accepting, lets every request in flight finish (a connection between
/// requests is closed at once) and returns when all are done or `grace`
/// has passed, whichever is first. A connection that has not sent a whole
/// request head within `header_read_timeout` of its start (or of its
/// previous answer) is closed. At most `max_connections` are open at once:
/// the next is accepted when one closes, so a crowd of connections that
/// send nothing, or send slowly, costs the server no more than that many
/// (the kernel's queue holds the rest).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    bounds: Bounds,
    shutdown: impl Future<Output = ()>,
) {
    let Bounds {
        header_read_timeout,
        max_connections,
        grace,
    } = bounds;
    let open = Arc::new(Semaphore::new(max_connections.max(1)));
    let (stop, stopped) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut permit = None;
    loop {
        // A place for the next connection first: until one is free, none
        // is accepted.
        let place = match permit.take() {
            Some(place) => place,
            None => tokio::select! {
                () = &mut shutdown => break,
                Some(_) = connections.join_next(), if !connections.is_empty() => continue,
                place = Arc::clone(&open).acquire_owned() => match place {
                    Ok(place) => place,
                    Err(_) => break,
                },
            },
        };
        let stream = tokio::select! {
            () = &mut shutdown => break,
            // Finished connections are reaped as they end, so the set holds
            // only live ones.
            Some(_) = connections.join_next(), if !connections.is_empty() => {
                permit = Some(place);
                continue;
            }
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // A connection that failed before it was accepted is
                    // that client's problem; anything else (out of file
                    // descriptors) passes with time.
                    if !is_connection_error(&e) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    permit = Some(place);
                    continue;
                }
            },
        };
        let service = TowerToHyperService::new(app.clone());
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            // The place is given back when the connection ends.
            let _place = place;
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout);
            let mut conn = std::pin::pin!(builder.serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stopped.changed() => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    // Past the grace, the rest are dropped: their computations see their
    // cancellation flag, and a save is atomic, so the file is whole.
    let _ = tokio::time::timeout(grace, drained).await;
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM.
pub(crate) async fn signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
