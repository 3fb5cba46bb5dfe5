//! The designer server's life as a process and its connections: SIGTERM
//! lets a request in flight finish and ends the server with status 0; a
//! connection that never finishes its headers is closed; the wait for
//! requests in flight at shutdown is bounded.

use crate::support::runtime;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Sends `signal` (a name `kill` knows, such as `TERM`) to process `pid`.
fn signal(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for `child` to end, at most `limit`; `None` when it did not.
fn wait_for(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

/// SIGTERM and SIGINT stop `serve` gracefully: a request already being
/// answered (here a design search, which runs for the server's one-second
/// timeout) gets its whole answer, and the process exits with status 0
/// rather than being killed by the signal.
#[test]
fn a_signal_lets_the_request_in_flight_finish() {
    for name in ["TERM", "INT"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("board.json");
        std::fs::write(&path, snakeladder::Board::DEFAULT_JSON).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
            .args(["serve", "--port", "0", "--timeout", "3"])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();

        // A board whose search runs past the three seconds the server allows.
        let board = snakeladder::design::Layout::new(400, 30, 30, snakeladder::Seed::new(1))
            .generate()
            .unwrap()
            .to_json();
        let body = board.as_bytes();
        let mut stream = TcpStream::connect(&addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "POST /api/tune?target=1:2&max_changes=4 HTTP/1.1\r\nHost: localhost\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .unwrap();
        stream.write_all(body).unwrap();
        // The search has started (it runs for the three seconds the server allows it) when the
        // signal comes: a request the server has not read yet is one it may
        // refuse, so the wait leaves the server a second to read it even
        // beside a whole test suite (300 ms did not, run in parallel).
        std::thread::sleep(Duration::from_secs(1));
        signal(child.id(), name);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        // Any whole answer: the search's time limit (504) or, on a fast
        // machine, its end without a board in the band (422).
        assert!(
            ["HTTP/1.1 200", "HTTP/1.1 422", "HTTP/1.1 504"]
                .iter()
                .any(|status| answer.starts_with(status)),
            "SIG{name}: the request in flight was cut: {answer:?}"
        );
        assert!(answer.ends_with('}') || answer.ends_with("}\n"), "{answer}");
        let status = wait_for(&mut child, Duration::from_secs(20));
        assert_eq!(
            status.map(|s| s.code()),
            Some(Some(0)),
            "SIG{name}: serve did not stop by itself with status 0"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            snakeladder::Board::DEFAULT_JSON
        );
    }
}

/// A server of `config` on a free loopback port, on `runtime`, until the
/// returned sender is sent to (or dropped); its address, the sender, and
/// the server's task.
fn start(
    runtime: &tokio::runtime::Runtime,
    config: snakeladder_serve::Config,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = runtime.spawn(snakeladder_serve::serve(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// A connection that sends part of a request's head and then nothing is
/// closed once the header-read timeout passes, and one that sends nothing
/// at all too; a whole request is still answered.
#[test]
fn a_connection_that_never_finishes_its_headers_is_closed() {
    let runtime = runtime();
    let config = snakeladder_serve::Config {
        header_read_timeout: Duration::from_millis(300),
        ..snakeladder_serve::Config::default()
    };
    let (addr, _stop, _task) = start(&runtime, config);
    for partial in ["GET /api/openapi.json HTTP/1.1\r\nHost: local", ""] {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.write_all(partial.as_bytes()).unwrap();
        let start = Instant::now();
        let mut rest = Vec::new();
        // Closed: the read ends (0 bytes, or a reset), and well before the
        // read's own 10 s limit.
        let _ = stream.read_to_end(&mut rest);
        let waited = start.elapsed();
        assert!(
            waited < Duration::from_secs(5),
            "{partial:?}: still open after {waited:?}"
        );
        assert!(
            waited >= Duration::from_millis(250),
            "{partial:?}: closed after {waited:?}"
        );
    }
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(
            b"GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// A save in flight when the server is told to stop is finished and
/// answered, and the server then returns; one that outlasts the shutdown's
/// grace does not hold the server past it.
#[test]
fn a_save_in_flight_at_shutdown_is_finished_within_the_grace() {
    for (slow, grace, finished) in [(600, 5_000, true), (3_000, 300, false)] {
        let runtime = runtime();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("board.json");
        std::fs::write(&path, snakeladder::Board::DEFAULT_JSON).unwrap();
        let (began, begun) = std::sync::mpsc::channel::<()>();
        let began = std::sync::Mutex::new(began);
        let target = path.clone();
        let config = snakeladder_serve::Config {
            board_path: Some(path.clone()),
            save: Some(snakeladder_serve::Saver(std::sync::Arc::new(
                move |bytes: &[u8]| {
                    let _ = began.lock().unwrap().send(());
                    std::thread::sleep(Duration::from_millis(slow));
                    std::fs::write(&target, bytes).map_err(|e| e.to_string())
                },
            ))),
            shutdown_grace: Duration::from_millis(grace),
            ..snakeladder_serve::Config::default()
        };
        let (addr, stop, task) = start(&runtime, config);
        let body = br#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
        let base = snakeladder_serve::file_version(snakeladder::Board::DEFAULT_JSON.as_bytes());
        let client = std::thread::spawn(move || {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(20)))
                .unwrap();
            write!(
                stream,
                "POST /api/save?base={base} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .unwrap();
            stream.write_all(body).unwrap();
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer);
            String::from_utf8_lossy(&answer).into_owned()
        });
        begun.recv_timeout(Duration::from_secs(20)).unwrap();
        let asked = Instant::now();
        stop.send(()).unwrap();
        runtime.block_on(task).unwrap();
        let took = asked.elapsed();
        let answer = client.join().unwrap();
        if finished {
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(answer.contains("\"saved\""), "{answer}");
            let saved = std::fs::read_to_string(&path).unwrap();
            assert!(saved.contains("\"squares\": 20"), "{saved}");
        } else {
            assert!(
                took < Duration::from_millis(2_000),
                "the server waited {took:?} for a grace of {grace} ms"
            );
        }
        runtime.shutdown_background();
    }
}
