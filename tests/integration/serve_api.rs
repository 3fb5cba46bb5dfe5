//! The designer server's API, driven in process (tower's `oneshot` on the
//! router; no network): `POST /api/analyze` answers byte for byte what the
//! `snakeladder analyze --format json` process prints for the same board
//! and options; an invalid board is 422 with the problems `validate`
//! finds; an oversized body 413; a request that finds every computation
//! slot busy 503; and the OpenAPI document lists every route.

use crate::support::runtime;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use snakeladder_serve::{API_ROUTES, Config, OPENAPI, router};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use tower::ServiceExt;

/// One request to a fresh router of `config`: the status and the body.
async fn call(config: Config, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = router(config).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

fn post(uri: &str, body: &[u8]) -> (StatusCode, Vec<u8>) {
    runtime().block_on(call(Config::default(), "POST", uri, body.to_vec()))
}

/// The `snakeladder` process's standard output for `args`, with `stdin`.
fn cli(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

fn board_bytes(name: &str) -> Vec<u8> {
    std::fs::read(Path::new("boards").join(name)).unwrap()
}

#[test]
fn analyze_answers_byte_for_byte_what_the_command_prints() {
    let boards = [
        "milton-bradley.json",
        "variant-two-dice.json",
        "variant-extra-turn.json",
        "variant-loaded-die.json",
        "variant-bounce.json",
        "seed-four-by-four.json",
    ];
    for name in boards {
        let bytes = board_bytes(name);
        let (code, expected) = cli(&["analyze", "-", "--format", "json"], &bytes);
        assert_eq!(code, 0, "{name}");
        let (status, got) = post("/api/analyze", &bytes);
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(
            got == expected,
            "{name}: /api/analyze differs from the command's JSON"
        );
    }
    // Options as query parameters, as the command's flags.
    let bytes = board_bytes("milton-bradley.json");
    let (code, expected) = cli(
        &[
            "analyze",
            "-",
            "--format",
            "json",
            "--players",
            "2,3",
            "--exact",
        ],
        &bytes,
    );
    assert_eq!(code, 0);
    let (status, got) = post("/api/analyze?players=2,3&exact=true", &bytes);
    assert_eq!(status, StatusCode::OK);
    assert!(got == expected, "with players=2,3&exact=true");
}

#[test]
fn an_invalid_board_is_422_with_the_problems_validate_finds() {
    // The first snake climbs, and a ladder runs off the board.
    let bad = br#"{"squares": 30, "snakes": [[5, 12]], "ladders": [[3, 40]]}"#;
    let (status, got) = post("/api/analyze", bad);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (code, expected) = cli(&["validate", "-", "--format", "json"], bad);
    assert_eq!(code, 1);
    // The same JSON, the board named as the request instead of stdin.
    let expected = String::from_utf8(expected)
        .unwrap()
        .replace("<stdin>", "<request>");
    assert_eq!(String::from_utf8(got.clone()).unwrap(), expected);
    let v: serde_json::Value = serde_json::from_slice(&got).unwrap();
    let fields: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["field"].as_str())
        .collect();
    assert!(fields.contains(&"snakes[0]"), "{fields:?}");
    assert!(fields.contains(&"ladders[0]"), "{fields:?}");
    // /api/validate says the same with the same status.
    let (status, again) = post("/api/validate", bad);
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(again, got);
    // Not JSON at all: 422, a `json` problem where the parser stopped.
    let (status, got) = post("/api/analyze", b"{\"squares\": 10,");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let v: serde_json::Value = serde_json::from_slice(&got).unwrap();
    assert_eq!(v["problems"][0]["kind"], "json");
}

#[test]
fn a_body_past_the_limit_is_413() {
    let config = Config {
        max_body: 1000,
        ..Config::default()
    };
    let mut big = b"{\"squares\": 100, \"name\": \"".to_vec();
    big.extend(std::iter::repeat_n(b'x', 2000));
    big.extend(b"\"}");
    let (status, body) = runtime().block_on(call(config.clone(), "POST", "/api/analyze", big));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["error"]["kind"], "too_large");
    // Just under the limit is read.
    let small = board_bytes("seed-four-by-four.json");
    assert!(small.len() < 1000);
    let (status, _) = runtime().block_on(call(config, "POST", "/api/analyze", small));
    assert_eq!(status, StatusCode::OK);
}

#[test]
fn a_request_finding_every_slot_busy_is_503() {
    // One slot, held by a tune of the classic board toward a band far
    // from its mean (a search of seconds); a second request waits 1 ms for
    // the slot and is turned away.
    let config = Config {
        max_jobs: 1,
        queue_wait: Duration::from_millis(1),
        ..Config::default()
    };
    let app = router(config);
    let rt = runtime();
    rt.block_on(async {
        let slow = Request::builder()
            .method("POST")
            .uri("/api/tune?target=5:5.5&max_changes=3")
            .body(Body::from(board_bytes("milton-bradley.json")))
            .unwrap();
        let first = tokio::spawn(app.clone().oneshot(slow));
        tokio::time::sleep(Duration::from_millis(200)).await;
        let quick = Request::builder()
            .method("POST")
            .uri("/api/analyze")
            .body(Body::from(board_bytes("seed-four-by-four.json")))
            .unwrap();
        let response = app.clone().oneshot(quick).await.unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["kind"], "busy");
        assert!(
            !first.is_finished(),
            "the slow request ended too soon to hold the slot"
        );
        first.abort();
    });
}

#[test]
fn the_openapi_document_lists_every_route() {
    let doc: serde_json::Value = serde_json::from_str(OPENAPI).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    let mut listed: Vec<(String, String)> = paths
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.clone(), path.clone()))
        })
        .collect();
    listed.sort();
    let mut routes: Vec<(String, String)> = API_ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    routes.sort();
    assert_eq!(listed, routes);
    // Each listed route exists (anything but 404 and 405), and the served
    // document is this one.
    let rt = runtime();
    for (method, path) in API_ROUTES {
        let (status, body) = rt.block_on(call(
            Config::default(),
            &method.to_uppercase(),
            path,
            b"{}".to_vec(),
        ));
        assert_ne!(status, StatusCode::NOT_FOUND, "{method} {path}");
        assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        if path == "/api/openapi.json" {
            assert_eq!(body, OPENAPI.as_bytes());
        }
    }
}

#[test]
fn validate_holds_a_valid_board_to_the_policy_found_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("snakeladder.toml"),
        "[limits]\nmax_mean_turns = 30\n",
    )
    .unwrap();
    let path = dir.path().join("board.json");
    std::fs::write(&path, board_bytes("milton-bradley.json")).unwrap();
    let config = Config {
        board_path: Some(path),
        ..Config::default()
    };
    let (status, body) = runtime().block_on(call(
        config,
        "POST",
        "/api/validate",
        board_bytes("milton-bradley.json"),
    ));
    assert_eq!(status, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["files"][0]["valid"], false);
    assert_eq!(v["problems"][0]["kind"], "max_mean_turns");
}

#[test]
fn unknown_and_malformed_parameters_are_400() {
    let bytes = board_bytes("seed-four-by-four.json");
    for uri in [
        "/api/analyze?players=0",
        "/api/analyze?players=2,x",
        "/api/analyze?exact=maybe",
        "/api/analyze?colour=red",
        "/api/tune",
        "/api/tune?target=9",
        "/api/tune?target=30:32&max_changes=9",
    ] {
        let (status, body) = post(uri, &bytes);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["kind"], "bad_request", "{uri}");
    }
}

#[test]
fn format_writes_the_board_file_as_tune_does() {
    let bytes = board_bytes("variant-two-dice.json");
    let (status, body) = post("/api/format", &bytes);
    assert_eq!(status, StatusCode::OK);
    let board = snakeladder::Board::from_json_slice(&bytes).unwrap();
    assert_eq!(body, snakeladder_render::json::board_file(&board).unwrap());
    assert_eq!(snakeladder::Board::from_json_slice(&body).unwrap(), board);
}

/// One request with the given headers (besides a JSON content type).
async fn call_with(
    config: Config,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
) -> StatusCode {
    let mut request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = router(config)
        .oneshot(request.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    response.status()
}

/// Another site's page cannot use the server through the user's browser:
/// a POST that a browser marks as coming from another origin is refused
/// before any handler runs (so `/api/save` writes nothing), and a `Host`
/// that is a name other than a loopback one (DNS rebinding) is refused
/// for every route. The page's own requests, and programs that are not
/// browsers, are answered.
#[test]
fn another_sites_page_cannot_call_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.json");
    let original = board_bytes("milton-bradley.json");
    std::fs::write(&path, &original).unwrap();
    let saved = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let config = || Config {
        board_path: Some(path.clone()),
        save: Some(snakeladder_serve::Saver(std::sync::Arc::new({
            let saved = saved.clone();
            move |_: &[u8]| {
                saved.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok(())
            }
        }))),
        ..Config::default()
    };
    let pwned = br#"{"name": "pwned", "squares": 10}"#.to_vec();
    let rt = runtime();
    let host = ("host", "127.0.0.1:8080");
    for headers in [
        vec![host, ("origin", "http://evil.example")],
        vec![host, ("sec-fetch-site", "cross-site")],
        vec![
            ("host", "evil.example:8080"),
            ("origin", "http://evil.example:8080"),
        ],
    ] {
        let status = rt.block_on(call_with(
            config(),
            "POST",
            "/api/save",
            &headers,
            pwned.clone(),
        ));
        assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
    }
    assert!(!saved.load(std::sync::atomic::Ordering::SeqCst));
    let status = rt.block_on(call_with(
        config(),
        "GET",
        "/api/board",
        &[("host", "evil.example:8080")],
        Vec::new(),
    ));
    assert_eq!(status, StatusCode::FORBIDDEN);

    // The page's own POST, and curl's (no Origin).
    for headers in [vec![host, ("origin", "http://127.0.0.1:8080")], vec![host]] {
        let status = rt.block_on(call_with(
            config(),
            "POST",
            "/api/validate",
            &headers,
            original.clone(),
        ));
        assert_eq!(status, StatusCode::OK, "{headers:?}");
    }
}

/// A board file that is not a JSON object cannot be edited: `serve`
/// refuses to start on it (naming the line and column), and a file that
/// became unreadable while the server runs is an error on `/api/board`,
/// never an empty board the page would offer to save over it.
#[test]
fn a_board_file_that_is_no_json_object_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.json");
    std::fs::write(&path, br#"{"squares": 100, "ladders": [[4, 14],]}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_snakeladder"))
        .args(["serve", "--port", "0"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 1, column 38") && stderr.contains("trailing comma"),
        "{stderr}"
    );

    for text in [&b"42"[..], b"{\"squares\": ", b"\xff\xfe"] {
        std::fs::write(&path, text).unwrap();
        let config = Config {
            board_path: Some(path.clone()),
            ..Config::default()
        };
        let (status, body) = runtime().block_on(call(config, "GET", "/api/board", Vec::new()));
        assert_eq!(
            status,
            StatusCode::CONFLICT,
            "{}",
            String::from_utf8_lossy(&body)
        );
    }
}

/// `POST /api/save` writes the board as the page sent it, in `fmt`'s
/// layout: the jumps in the file's order (one edited in place, one new at
/// the end), integers as integers, no rule default added, and the keys
/// the file had (its `$schema`, its `limits`) kept; so a designer's diff
/// of the file shows only the edit.
#[test]
fn save_keeps_the_files_order_and_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.json");
    let original = "{\n  \"$schema\": \"./board.schema.json\",\n  \"name\": \"Order\",\n  \"squares\": 30,\n  \
                    \"ladders\": [\n    [12, 22],\n    [3, 11]\n  ],\n  \"snakes\": [\n    [27, 5],\n    [16, 6]\n  ],\n  \
                    \"rules\": {\n    \"dice\": { \"weights\": [1, 1, 2, 1, 1, 0.5] }\n  },\n  \
                    \"limits\": {\n    \"max_mean_turns\": 90\n  }\n}\n";
    std::fs::write(&path, original).unwrap();
    let target = path.clone();
    let config = Config {
        board_path: Some(path.clone()),
        save: Some(snakeladder_serve::Saver(std::sync::Arc::new(
            move |bytes: &[u8]| std::fs::write(&target, bytes).map_err(|e| e.to_string()),
        ))),
        ..Config::default()
    };
    // What the page sends: the file's JSON (keys in any order) with the
    // snake 27→5 moved to 27→4 and a ladder 7→18 added, over the version
    // of the file it loaded.
    let body = br#"{"limits":{"max_mean_turns":90},"name":"Order","rules":{"dice":{"weights":[1,1,2,1,1,0.5]}},"$schema":"./board.schema.json","squares":30,"ladders":[[12,22],[3,11],[7,18]],"snakes":[[27,4],[16,6]]}"#;
    let uri = format!("/api/save?base={}", version_of(&config));
    let (status, answer) = runtime().block_on(call(config, "POST", &uri, body.to_vec()));
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let expected = original
        .replace("[3, 11]\n", "[3, 11],\n    [7, 18]\n")
        .replace("[27, 5]", "[27, 4]");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}

/// The `version` `GET /api/board` gives for the file of `config`.
fn version_of(config: &Config) -> String {
    let (status, body) = runtime().block_on(call(config.clone(), "GET", "/api/board", Vec::new()));
    assert_eq!(status, StatusCode::OK);
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    v["version"].as_str().unwrap().to_string()
}

/// A save over a file changed on disk since the page loaded it (a note
/// added, or the file made no board at all, or removed) is refused with
/// `409`: the file is left as it is, and the answer holds the edit the
/// save would have written. A save over the version on disk is written,
/// and its answer names the new version, which the next save builds on.
#[test]
fn a_save_over_a_file_changed_since_it_was_loaded_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.json");
    let original = "{\n  \"squares\": 30,\n  \"ladders\": [[3, 11]]\n}\n";
    std::fs::write(&path, original).unwrap();
    let target = path.clone();
    let config = Config {
        board_path: Some(path.clone()),
        save: Some(snakeladder_serve::Saver(std::sync::Arc::new(
            move |bytes: &[u8]| std::fs::write(&target, bytes).map_err(|e| e.to_string()),
        ))),
        ..Config::default()
    };
    let loaded = version_of(&config);
    let edit = br#"{"squares": 30, "ladders": [[3, 12]]}"#.to_vec();
    let save = |base: &str| {
        runtime().block_on(call(
            config.clone(),
            "POST",
            &format!("/api/save?base={base}"),
            edit.clone(),
        ))
    };
    let noted = "{\n  \"squares\": 30,\n  \"ladders\": [[3, 11]],\n  \"name\": \"a note\"\n}\n";
    // Same length as the original, another byte: still a change.
    let same_length = original.replace("11", "13");
    for changed in [noted, "notes, no longer a board\n", same_length.as_str()] {
        std::fs::write(&path, changed).unwrap();
        let (status, body) = save(&loaded);
        assert_eq!(status, StatusCode::CONFLICT, "{changed:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), changed);
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["kind"], "changed");
        assert_eq!(
            v["board_file"].as_str().unwrap(),
            "{\n  \"squares\": 30,\n  \"ladders\": [\n    [3, 12]\n  ]\n}\n"
        );
    }
    std::fs::remove_file(&path).unwrap();
    let (status, _) = save(&loaded);
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(!path.exists());

    // The file as it is now, loaded again: saved, and the next save over
    // the version the answer names is saved too, while the old one is not.
    std::fs::write(&path, original).unwrap();
    let (status, body) = save(&version_of(&config));
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let saved = std::fs::read(&path).unwrap();
    assert_eq!(
        v["version"].as_str().unwrap(),
        snakeladder_serve::file_version(&saved)
    );
    assert_eq!(save(v["version"].as_str().unwrap()).0, StatusCode::OK);
    assert_eq!(save(&loaded).0, StatusCode::CONFLICT);
    // A save that names no version is refused: it cannot say what it
    // replaces.
    let (status, _) = runtime().block_on(call(config.clone(), "POST", "/api/save", edit.clone()));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(std::fs::read(&path).unwrap(), saved);
}
