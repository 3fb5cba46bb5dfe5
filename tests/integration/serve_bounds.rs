//! Every door of the designer server is bounded, checked on the real server
//! on a loopback port: a request's work stops when its client hangs up or
//! its time is up; a factorisation past the work budget is refused before
//! it starts; a body that never arrives whole is timed out; the
//! connections are capped, idle ones counted; a body that says it is too
//! large is refused before it is sent (`Expect: 100-continue`); and a small
//! `GET` keeps answering at once while ten clients send the heaviest
//! requests the limits allow.

use crate::support::runtime;
use snakeladder_serve::Config;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server of `config` on a free loopback port, on `runtime`, until the
/// returned sender is dropped.
fn start(
    runtime: &tokio::runtime::Runtime,
    config: Config,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    runtime.spawn(snakeladder_serve::serve(listener, config, async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// A connection with `request` (its head and body) sent, reading for at
/// most 60 s.
fn send(addr: SocketAddr, request: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request).unwrap();
    stream
}

/// A whole POST of `body` to `uri`, closing the connection after it.
fn post(uri: &str, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST {uri} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

/// The answer on `stream`, read to its end.
fn answer(mut stream: TcpStream) -> String {
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A board whose design search toward a band it cannot reach runs for
/// many seconds, looking at its stop flag between candidates.
fn searched_board() -> Vec<u8> {
    snakeladder::design::Layout::new(400, 30, 30, snakeladder::Seed::new(1))
        .generate()
        .unwrap()
        .to_json()
        .into_bytes()
}

/// A board whose sensitivity ranking with the first seat's advantage of
/// every variant runs for many seconds, looking at its stop flag between
/// variants.
fn ranked_board() -> Vec<u8> {
    snakeladder::design::Layout::new(1500, 100, 100, snakeladder::Seed::new(1))
        .generate()
        .unwrap()
        .to_json()
        .into_bytes()
}

/// A small board, analysed at once.
const SMALL: &[u8] = br#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;

/// Requests whose work runs far past a second, each in a loop of the core
/// that looks at its stop flag: a design search, a sensitivity ranking
/// with the first seat's advantage of every variant, and exact means.
fn long_requests() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("/api/tune?target=1:2&max_changes=4", searched_board()),
        ("/api/sensitivity?advantage=true", ranked_board()),
        ("/api/analyze?sensitivity=true&players=2", ranked_board()),
    ]
}

/// The tests that time the server, one at a time: each measures latencies
/// of a second or less, which another's ten clients would move.
static TIMED: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn timed() -> std::sync::MutexGuard<'static, ()> {
    TIMED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// With the only computation slot taken by `uri`, how long after `hang_up`
/// (which ends that request) the slot is free: a request that takes it
/// and does next to nothing (formatting a small board) is answered `200`.
fn slot_free_after(
    addr: SocketAddr,
    uri: &str,
    body: &[u8],
    hang_up: impl FnOnce(TcpStream),
) -> Duration {
    let held = send(addr, &post(uri, body));
    // The computation is under way.
    std::thread::sleep(Duration::from_millis(500));
    hang_up(held);
    let ended = Instant::now();
    let small = answer(send(addr, &post("/api/format", SMALL)));
    assert!(small.starts_with("HTTP/1.1 200"), "{uri}: {small:.200}");
    ended.elapsed()
}

/// A client that hangs up stops its request's work: the slot it held is
/// free again within a second, for every kind of long work.
#[test]
fn a_request_whose_client_hangs_up_stops_within_a_second() {
    let _one = timed();
    let runtime = runtime();
    let (addr, _stop) = start(
        &runtime,
        Config {
            max_jobs: 1,
            queue_wait: Duration::from_secs(20),
            ..Config::default()
        },
    );
    for (uri, body) in long_requests() {
        let took = slot_free_after(addr, uri, &body, drop);
        assert!(
            took < Duration::from_millis(1_000),
            "{uri}: the slot was free {took:?} after the client hung up"
        );
    }
}

/// A request past its time is answered `504` and its work stops there:
/// the slot is free again within a second of the answer.
#[test]
fn a_request_past_its_time_stops_its_work() {
    let _one = timed();
    let runtime = runtime();
    let (addr, _stop) = start(
        &runtime,
        Config {
            max_jobs: 1,
            queue_wait: Duration::from_secs(20),
            timeout: Duration::from_millis(1_000),
            ..Config::default()
        },
    );
    for (uri, body) in long_requests().into_iter().skip(1) {
        let took = slot_free_after(addr, uri, &body, |held| {
            let got = answer(held);
            assert!(got.starts_with("HTTP/1.1 504"), "{uri}: {got:.200}");
        });
        assert!(
            took < Duration::from_millis(1_000),
            "{uri}: the slot was free {took:?} after the 504"
        );
    }
}

/// A board whose factorisation alone is past the work budget is refused
/// (`422`) before it is factored, by every route that factors it; within
/// the budget it is answered.
#[test]
fn a_factorisation_past_the_work_budget_is_refused() {
    let runtime = runtime();
    let wide = br#"{"squares": 3000, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 100}}}"#;
    let with_policy = br#"{"squares": 3000, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 100}}, "limits": {"max_mean_turns": 10}}"#;
    let pair = format!(
        r#"{{"old": {}, "new": {}}}"#,
        String::from_utf8_lossy(SMALL),
        String::from_utf8_lossy(wide)
    );
    let (addr, _stop) = start(
        &runtime,
        Config {
            max_factor_work: 1e6,
            ..Config::default()
        },
    );
    for (uri, body) in [
        ("/api/analyze", &wide[..]),
        ("/api/report", wide),
        ("/api/sensitivity", wide),
        ("/api/tune?target=30:40", wide),
        ("/api/validate", with_policy),
        ("/api/diff", pair.as_bytes()),
    ] {
        let got = answer(send(addr, &post(uri, body)));
        assert!(got.starts_with("HTTP/1.1 422"), "{uri}: {got:.300}");
        assert!(got.contains("multiply-adds"), "{uri}: {got:.300}");
        assert!(got.contains("\"limit\""), "{uri}: {got:.300}");
    }
    // Without a policy, validating needs no analysis, and is answered.
    let got = answer(send(addr, &post("/api/validate", wide)));
    assert!(got.starts_with("HTTP/1.1 200"), "{got:.300}");
}

/// A request that sends its head and part of its body, then waits, is
/// answered `408` and its connection closed once the body's time is up.
#[test]
fn a_body_that_never_arrives_whole_is_timed_out() {
    let runtime = runtime();
    let (addr, _stop) = start(
        &runtime,
        Config {
            body_read_timeout: Duration::from_millis(500),
            ..Config::default()
        },
    );
    let mut stream = send(
        addr,
        b"POST /api/analyze HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"squares\"",
    );
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let began = Instant::now();
    let mut got = Vec::new();
    let _ = stream.read_to_end(&mut got);
    let waited = began.elapsed();
    let got = String::from_utf8_lossy(&got);
    assert!(got.starts_with("HTTP/1.1 408"), "{got:.300}");
    assert!(
        waited < Duration::from_secs(5),
        "the connection was held {waited:?}"
    );
}

/// Connections past the cap wait, idle ones counted: with every place
/// taken by connections that sent nothing, a new one is not answered; once
/// one of them closes, it is.
#[test]
fn connections_past_the_cap_wait_for_a_place() {
    let runtime = runtime();
    let (addr, _stop) = start(
        &runtime,
        Config {
            max_connections: 3,
            header_read_timeout: Duration::from_secs(30),
            ..Config::default()
        },
    );
    let idle: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).unwrap()).collect();
    // Accepted (and so counted) before the next one comes.
    std::thread::sleep(Duration::from_millis(300));
    let mut late = send(
        addr,
        b"GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    );
    late.set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    let mut first = [0u8; 1];
    assert!(
        late.read(&mut first).is_err(),
        "a connection past the cap was answered"
    );
    drop(idle);
    late.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let got = answer(late);
    assert!(got.starts_with("HTTP/1.1 200"), "{got:.100}");
}

/// A body whose length is past the limit is refused before it is sent: a
/// client that asks first (`Expect: 100-continue`) gets `413`, never
/// `100 Continue`, and sends nothing more.
#[test]
fn a_body_too_large_is_refused_before_it_is_sent() {
    let runtime = runtime();
    let (addr, _stop) = start(&runtime, Config::default());
    let stream = send(
        addr,
        b"POST /api/analyze HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
          Content-Length: 2000000\r\nExpect: 100-continue\r\n\r\n",
    );
    let got = answer(stream);
    assert!(got.starts_with("HTTP/1.1 413"), "{got:.300}");
    assert!(!got.contains("100 Continue"), "{got:.300}");
}

/// While ten clients send, again and again, the heaviest requests the
/// limits allow (each taking a computation slot until its time is up, or
/// turned away when none is free), `GET /api/board` of a small board is
/// answered within 100 ms every time.
#[test]
fn a_small_get_answers_at_once_while_ten_clients_hammer() {
    let _one = timed();
    let runtime = runtime();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.json");
    std::fs::write(&path, SMALL).unwrap();
    let limits = snakeladder::Limits {
        max_memory: 256 << 20,
        max_work: 2e8,
    };
    let max_factor_work = 2e7;
    let (addr, _stop) = start(
        &runtime,
        Config {
            board_path: Some(path),
            limits,
            max_factor_work,
            max_jobs: 2,
            queue_wait: Duration::from_millis(200),
            timeout: Duration::from_secs(2),
            ..Config::default()
        },
    );
    // The heaviest of each kind within the limits: a board just within the
    // factorisation's budget, long searches and rankings, exact means.
    // (Its factorisation is estimated at about 1.8e7 multiply-adds, just
    // within the server's 2e7.)
    let near_budget = br#"{"squares": 50000, "rules": {"overshoot": "bounce", "dice": {"count": 2, "faces": 10}}}"#.to_vec();
    let heavy: Vec<(&str, Vec<u8>)> = vec![
        (
            "/api/analyze?exact=true&sensitivity=true",
            near_budget.clone(),
        ),
        ("/api/report?sensitivity=true", near_budget),
        ("/api/tune?target=1:2&max_changes=4", searched_board()),
        ("/api/sensitivity?advantage=true", ranked_board()),
        ("/api/analyze?exact=true&players=2,3,4,5,6", ranked_board()),
    ];
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let clients: Vec<_> = (0..10)
        .map(|i| {
            let (uri, body) = heavy[i % heavy.len()].clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut sent = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && sent < 200 {
                    let got = answer(send(addr, &post(uri, &body)));
                    assert!(
                        ["200", "422", "503", "504"]
                            .iter()
                            .any(|s| got.starts_with(&format!("HTTP/1.1 {s}"))),
                        "{uri}: {got:.300}"
                    );
                    sent += 1;
                }
                sent
            })
        })
        .collect();
    // The clients' first requests are in.
    std::thread::sleep(Duration::from_millis(500));
    let mut times = Vec::new();
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(6) {
        let asked = Instant::now();
        let got = answer(send(
            addr,
            b"GET /api/board HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        ));
        times.push(asked.elapsed());
        assert!(got.starts_with("HTTP/1.1 200"), "{got:.300}");
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let sent: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    times.sort();
    let slowest = *times.last().unwrap();
    assert!(sent >= 10, "the clients sent {sent} requests");
    assert!(
        slowest < Duration::from_millis(100),
        "GET /api/board took up to {slowest:?} ({} answers, median {:?})",
        times.len(),
        times[times.len() / 2]
    );
}

/// A POST whose `Origin` is not text is refused as a foreign one is, not
/// answered as a program's request without one would be.
#[test]
fn an_origin_that_is_not_text_is_refused() {
    let runtime = runtime();
    let (addr, _stop) = start(&runtime, Config::default());
    let mut request =
        b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://\xffevil.example\r\n"
            .to_vec();
    request.extend_from_slice(
        format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            SMALL.len()
        )
        .as_bytes(),
    );
    request.extend_from_slice(SMALL);
    let got = answer(send(addr, &request));
    assert!(got.starts_with("HTTP/1.1 403"), "{got:.300}");
    // The same request with the page's own origin is answered.
    let own = String::from_utf8_lossy(&request)
        .replace("http://\u{fffd}evil.example", "http://127.0.0.1");
    let got = answer(send(addr, own.as_bytes()));
    assert!(got.starts_with("HTTP/1.1 200"), "{got:.300}");
}
