//! The API's handlers. Each reads its query parameters and body, runs the
//! core's computation within the server's bounds ([`crate::work`]) and
//! answers with the command's own JSON shape.

use crate::State;
use crate::error::ApiError;
use crate::query::Params;
use crate::work::{self, Cancel};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use snakeladder::Limits;
use snakeladder::design::{self, JumpChange, Target, TuneOptions};
use snakeladder::internals::BoardSpec;
use snakeladder::policy::{self, Thresholds};
use snakeladder::review::{self, Review};
use snakeladder::{Analysis, Board, Options, Seed};
use snakeladder_render::diff::Diff;
use snakeladder_render::{Report, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

type Ctx = Shared<Arc<State>>;
type RawQuery = Result<Query<BTreeMap<String, String>>, QueryRejection>;
type RawBody = Result<Bytes, BytesRejection>;

/// The name validate's findings give a board read from a request body.
pub(crate) const REQUEST_FILE: &str = "<request>";

/// `GET /api/openapi.json`.
pub(crate) async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], crate::OPENAPI).into_response()
}

/// Any other path: `404` as JSON.
pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such route")
}

fn params(query: RawQuery, known: &[&str]) -> Result<Params, ApiError> {
    let Query(all) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    Params::new(all, known)
}

/// The body the middleware read ([`crate::body`]); its refusals are made
/// there, so these are only for a route called without it.
fn body(state: &State, body: RawBody) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                &format!(
                    "the body is larger than the {} bytes a request may have",
                    state.config.max_body
                ),
            )
            .closing()
        } else {
            ApiError::new(e.status(), "body", &e.body_text())
        }
    })
}

fn json_answer(bytes: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

fn serialized(result: Result<Vec<u8>, serde_json::Error>) -> Result<Vec<u8>, ApiError> {
    result.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            &format!("cannot write the JSON: {e}"),
        )
    })
}

/// `422` with `validate`'s JSON for `reports`.
fn problems(reports: &[review::FileReport]) -> ApiError {
    match serialized(json::pretty(&snakeladder_render::validate::json(
        reports,
        &[],
    ))) {
        Ok(bytes) => ApiError::json(StatusCode::UNPROCESSABLE_ENTITY, bytes),
        Err(e) => e,
    }
}

/// The board of a request body; `422` with every problem `validate` finds
/// when it is not one.
fn board_of(bytes: &[u8], file: &str, limits: Limits) -> Result<Board, ApiError> {
    Board::from_json_slice(bytes).map_err(|_| {
        let review = Review {
            policy: Thresholds::default(),
            limits,
        };
        problems(&[review.check_bytes(file, bytes)])
    })
}

/// The board's file as `tune -o` writes it, keeping the thresholds of the
/// request's own `limits` (which a board's spec leaves out).
fn board_file(board: &Board, bytes: &[u8]) -> Result<Vec<u8>, ApiError> {
    let limits = serde_json::from_slice::<BoardSpec>(bytes)
        .ok()
        .and_then(|s| s.limits);
    if limits.is_none() {
        return serialized(json::board_file(board));
    }
    let mut spec = board.spec();
    spec.limits = limits;
    let out = spec.to_json().into_bytes();
    Ok(out)
}

fn analysis_error(e: snakeladder::AnalysisError) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "limit", &e.to_string())
}

fn design_error(e: design::DesignError) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "design", &e.to_string())
}

/// The directory a `snakeladder.toml` is searched from, as `validate`
/// searches from a board file's directory.
fn policy_dir(state: &State) -> &Path {
    match state.config.board_path.as_deref().and_then(Path::parent) {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The policy found as `validate` finds it, and its file.
fn find_policy(state: &State) -> Result<(Option<String>, Thresholds), ApiError> {
    let found = snakeladder::internals::find_policy_file(policy_dir(state)).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "policy",
            &format!("policy file {e}"),
        )
    })?;
    match found {
        None => Ok((None, Thresholds::default())),
        Some(file) => {
            let t = policy::read_policy(&file).map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "policy",
                    &format!("policy file {e}"),
                )
            })?;
            Ok((Some(snakeladder_render::escape::display_path(&file)), t))
        }
    }
}

/// What the page opens with.
#[derive(Serialize)]
struct Opening {
    board: serde_json::Value,
    path: Option<String>,
    /// The version of the file's bytes this board was read from
    /// ([`crate::file_version`]), which a save names as its `base`.
    version: Option<String>,
    can_save: bool,
    policy_file: Option<String>,
    policy: Thresholds,
    limits: LimitsJson,
    max_body: usize,
}

#[derive(Serialize)]
struct LimitsJson {
    max_memory: u64,
    max_work: f64,
}

/// The sensitivity of `board` within the server's limits: its memory and
/// work, as every other computation of the server (the design search's
/// defaults would allow past them), stopped by the request's flag.
fn sensitivity_within_limits(
    board: &Board,
    advantage: bool,
    limits: Limits,
    cancel: &Cancel,
) -> Result<design::Sensitivity, ApiError> {
    work::fits(board, limits, cancel)?;
    let budget = snakeladder::internals::design::Budget {
        max_work: limits.max_work,
        max_memory: limits.max_memory,
        time_limit: None,
    };
    snakeladder::internals::design::sensitivity_until(board, advantage, &budget, cancel.flag())
        .map_err(design_error)
}

/// The analysis options of every route: the request's limits, and its
/// stop flag, so the core stops when the request's time is up or its
/// client is gone.
fn options(limits: Limits, cancel: &Cancel) -> Options {
    Options::default().limits(limits).with_stop(cancel.flag())
}

/// `GET /api/board`: the board the server was started with (the file's
/// JSON as it is, valid or not, or the built-in board), and the policy.
///
/// A file that is not a JSON object (it was changed or removed since the
/// server started) is an error, never an empty board the page would offer
/// to save over it.
pub(crate) async fn board(Shared(state): Ctx) -> Result<Response, ApiError> {
    let (board, version) = match &state.config.board_path {
        Some(path) => {
            let bytes = snakeladder::Board::read_bytes(path).map_err(|e| {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "io", &e.to_string())
            })?;
            let board = crate::editable_board(&bytes).map_err(|why| {
                ApiError::new(
                    StatusCode::CONFLICT,
                    "unreadable",
                    &format!("{}: {why}", snakeladder_render::escape::display_path(path)),
                )
            })?;
            (board, Some(crate::file_version(&bytes)))
        }
        None => (
            crate::editable_board(snakeladder::Board::DEFAULT_JSON.as_bytes())
                .map_err(|why| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "io", &why))?,
            None,
        ),
    };
    let (policy_file, policy) = find_policy(&state)?;
    let c = &state.config;
    let opening = Opening {
        board,
        path: c
            .board_path
            .as_deref()
            .map(snakeladder_render::escape::display_path),
        version,
        can_save: c.save.is_some(),
        policy_file,
        policy,
        limits: LimitsJson {
            max_memory: c.limits.max_memory,
            max_work: c.limits.max_work,
        },
        max_body: c.max_body,
    };
    Ok(json_answer(serialized(json::pretty(&opening))?))
}

/// The query of `/api/analyze` and `/api/report`: `players`, `exact` and
/// `sensitivity`, as `analyze` and `report` take them.
struct Figures {
    players: Vec<u32>,
    exact: bool,
    sensitivity: bool,
}

impl Figures {
    fn parse(query: RawQuery) -> Result<Figures, ApiError> {
        let p = params(query, &["players", "exact", "sensitivity"])?;
        Ok(Figures {
            players: p.players()?,
            exact: p.flag("exact")?,
            sensitivity: p.flag("sensitivity")?,
        })
    }

    /// The board's analysis and, when asked, its sensitivity ranking
    /// (with the first-seat advantage when two players are analysed).
    fn compute(
        self,
        board: &Board,
        limits: Limits,
        cancel: &Cancel,
    ) -> Result<(Analysis, Option<design::Sensitivity>), ApiError> {
        let two = self.players.contains(&2);
        work::fits(board, limits, cancel)?;
        let options = options(limits, cancel)
            .players(self.players)
            .exact(self.exact);
        let analysis = Analysis::new(board, &options).map_err(analysis_error)?;
        let sensitivity = if self.sensitivity {
            cancel.check()?;
            Some(sensitivity_within_limits(board, two, limits, cancel)?)
        } else {
            None
        };
        Ok((analysis, sensitivity))
    }
}

/// `POST /api/analyze?players=2,3&exact=true&sensitivity=true`: what
/// `analyze --format json` prints for the body's board.
pub(crate) async fn analyze(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    let figures = Figures::parse(query)?;
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    let answer = work::run(&state, move |cancel: &Cancel| {
        let board = board_of(&bytes, REQUEST_FILE, limits)?;
        cancel.check()?;
        let (mut analysis, sensitivity) = figures.compute(&board, limits, cancel)?;
        serialized(json::analyze(&mut analysis, sensitivity.as_ref()))
    })
    .await?;
    Ok(json_answer(answer))
}

/// `POST /api/validate`: `validate --format json` for the body's board,
/// held to the policy found as `validate` finds it; `422` when the board
/// itself is invalid, `200` otherwise (the policy's verdict is in the
/// answer's `files[0].valid` and `problems`).
pub(crate) async fn validate(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    params(query, &[])?;
    let bytes = body(&state, raw)?;
    let (_, policy) = find_policy(&state)?;
    let review = Review {
        policy,
        limits: state.config.limits,
    };
    let answer = work::run(&state, move |cancel: &Cancel| {
        // A valid board held to a policy is analysed: within the same
        // bounds as `/api/analyze`.
        if let Ok(board) = Board::from_json_slice(&bytes) {
            let own = serde_json::from_slice::<BoardSpec>(&bytes)
                .ok()
                .and_then(|s| s.limits);
            let policy = match &own {
                Some(own) => review.policy.tightened_by(own),
                None => review.policy.clone(),
            };
            if !policy.is_empty() {
                work::fits(&board, review.limits, cancel)?;
            }
        }
        let report = review.check_bytes_until(REQUEST_FILE, &bytes, cancel.flag());
        cancel.check()?;
        if Board::from_json_slice(&bytes).is_err() {
            return Err(problems(&[report]));
        }
        serialized(json::pretty(&snakeladder_render::validate::json(
            std::slice::from_ref(&report),
            &[],
        )))
    })
    .await?;
    Ok(json_answer(answer))
}

/// `POST /api/sensitivity?advantage=true`: every jump's variants ranked by
/// their effect on the mean (the `sensitivity` key of `analyze
/// --sensitivity`).
pub(crate) async fn sensitivity(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    let p = params(query, &["advantage"])?;
    let advantage = p.flag("advantage")?;
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    let answer = work::run(&state, move |cancel: &Cancel| {
        let board = board_of(&bytes, REQUEST_FILE, limits)?;
        cancel.check()?;
        let s = sensitivity_within_limits(&board, advantage, limits, cancel)?;
        serialized(json::pretty(&s))
    })
    .await?;
    Ok(json_answer(answer))
}

/// The most jump moves `POST /api/tune` searches: each more multiplies
/// the candidates.
pub(crate) const MAX_TUNE_CHANGES: usize = 4;

#[derive(Serialize)]
struct Tuned<'a> {
    /// The tuned board, as its file reads.
    board: BoardSpec,
    /// The tuned board's file, byte for byte as `tune -o` writes it.
    board_file: String,
    changes: &'a [JumpChange],
    mean_before: f64,
    mean_turns: f64,
    first_seat_advantage: Option<f64>,
    evaluated: u64,
    ruled_out: u64,
}

/// Parses a jump to keep: `48-26`, `48->26`, `48→26` or `48:26`.
fn parse_jump(text: &str) -> Result<(u32, u32), ApiError> {
    let t = text.trim();
    let split = ["→", "->", ":", "-"]
        .iter()
        .find_map(|sep| t.split_once(sep));
    let parsed = split.and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    parsed.ok_or_else(|| ApiError::bad_request(format!("keep: {t:?} is not a jump such as 48-26")))
}

/// `POST /api/tune?target=30:32&max_changes=3&max_first_seat_advantage=0.02&keep=48-26&seed=0`:
/// the fewest jump moves that bring the mean into the band, as `tune`.
pub(crate) async fn tune(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    let p = params(
        query,
        &[
            "target",
            "max_changes",
            "max_first_seat_advantage",
            "keep",
            "seed",
        ],
    )?;
    let band = p
        .text("target")
        .ok_or_else(|| ApiError::bad_request("target: required, a band A:B of mean turns"))?;
    let (a, b) = band
        .split_once(':')
        .ok_or_else(|| ApiError::bad_request(format!("target: {band:?} is not a band A:B")))?;
    let number = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| ApiError::bad_request(format!("target: {s:?} is not a number of turns")))
    };
    let mut target = Target::new(number(a)?, number(b)?)
        .map_err(|e| ApiError::bad_request(format!("target: {e}")))?;
    if let Some(adv) = p.number::<f64>("max_first_seat_advantage")? {
        target = target
            .with_max_first_seat_advantage(adv)
            .map_err(|e| ApiError::bad_request(format!("max_first_seat_advantage: {e}")))?;
    }
    let max_changes = p.number::<usize>("max_changes")?.unwrap_or(3);
    if !(1..=MAX_TUNE_CHANGES).contains(&max_changes) {
        return Err(ApiError::bad_request(format!(
            "max_changes: {max_changes} is not from 1 to {MAX_TUNE_CHANGES}"
        )));
    }
    let keep = match p.text("keep") {
        None | Some("") => Vec::new(),
        Some(list) => list.split(',').map(parse_jump).collect::<Result<_, _>>()?,
    };
    let seed = Seed::new(p.number::<u64>("seed")?.unwrap_or(0));
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    // The search stops itself at the request's limits or when its time is
    // up, with the closest board it found; and at once when its client is
    // gone.
    let answer = work::run(&state, move |cancel: &Cancel| {
        let board = board_of(&bytes, REQUEST_FILE, limits)?;
        cancel.check()?;
        work::fits(&board, limits, cancel)?;
        let options = TuneOptions::new(target, max_changes)
            .with_keep(keep)
            .with_seed(seed)
            .with_limits(limits)
            .with_time_limit(cancel.remaining())
            .with_stop(cancel.flag());
        let tuned = design::tune(&board, &options).map_err(design_error)?;
        let file = serialized(json::board_file(&tuned.board))?;
        serialized(json::pretty(&Tuned {
            board: tuned.board.spec(),
            board_file: String::from_utf8_lossy(&file).into_owned(),
            changes: &tuned.changes,
            mean_before: tuned.mean_before,
            mean_turns: tuned.mean_turns,
            first_seat_advantage: tuned.first_seat_advantage,
            evaluated: tuned.evaluated,
            ruled_out: tuned.ruled_out,
        }))
    })
    .await?;
    Ok(json_answer(answer))
}

/// `POST /api/diff` with `{"old": board, "new": board}`: what the change
/// does, as `diff --format json` prints it (the sides named `old` and
/// `new`).
pub(crate) async fn diff(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    params(query, &[])?;
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    let answer = work::run(&state, move |cancel: &Cancel| {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Pair {
            old: Box<serde_json::value::RawValue>,
            new: Box<serde_json::value::RawValue>,
        }
        let pair: Pair = serde_json::from_slice(&bytes).map_err(|e| {
            ApiError::bad_request(format!(
                "the body must be {{\"old\": board, \"new\": board}}: {e}"
            ))
        })?;
        let old = Board::from_json_slice(pair.old.get().as_bytes());
        let new = Board::from_json_slice(pair.new.get().as_bytes());
        let (old, new) = match (old, new) {
            (Ok(old), Ok(new)) => (old, new),
            _ => {
                let review = Review {
                    policy: Thresholds::default(),
                    limits,
                };
                let reports: Vec<_> = [("old", &pair.old), ("new", &pair.new)]
                    .iter()
                    .map(|(name, raw)| review.check_bytes(name, raw.get().as_bytes()))
                    .collect();
                return Err(problems(&reports));
            }
        };
        work::fits(&old, limits, cancel)?;
        work::fits(&new, limits, cancel)?;
        let options = options(limits, cancel);
        let old_a = Analysis::new(&old, &options).map_err(analysis_error)?;
        cancel.check()?;
        let new_a = Analysis::new(&new, &options).map_err(analysis_error)?;
        let d = Diff::new(
            (&old, &old_a, "old".to_string()),
            (&new, &new_a, "new".to_string()),
        );
        serialized(json::pretty(&d))
    })
    .await?;
    Ok(json_answer(answer))
}

/// `POST /api/format`: the body's board file as `tune -o` writes it (the
/// page's "download JSON").
pub(crate) async fn format(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    params(query, &[])?;
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    let answer = work::run(&state, move |_: &Cancel| {
        let board = board_of(&bytes, REQUEST_FILE, limits)?;
        board_file(&board, &bytes)
    })
    .await?;
    Ok(json_answer(answer))
}

/// `POST /api/report?players=..&exact=..&sensitivity=..`: the HTML report
/// `report --format html` writes for the body's board.
pub(crate) async fn report(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    let figures = Figures::parse(query)?;
    let bytes = body(&state, raw)?;
    let limits = state.config.limits;
    let html = work::run(&state, move |cancel: &Cancel| {
        let board = board_of(&bytes, REQUEST_FILE, limits)?;
        cancel.check()?;
        let (analysis, sensitivity) = figures.compute(&board, limits, cancel)?;
        let mut doc = Report::new(&board, &analysis);
        if let Some(s) = &sensitivity {
            doc = doc.with_sensitivity(s);
        }
        Ok(doc.html())
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}

/// A valid board's file as the request wrote it, in `fmt`'s layout: its
/// jumps in its order, its numbers as written (`1` stays `1`), its keys
/// and no others (no rule default filled in), so that saving an edit
/// changes only the lines edited (docs/serve.md, "Saving").
fn as_written(bytes: &[u8]) -> Result<Vec<u8>, ApiError> {
    let text = std::str::from_utf8(bytes).map_err(|_| ApiError::bad_request("not UTF-8 text"))?;
    BoardSpec::format_json(text)
        .map(String::into_bytes)
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

#[derive(Serialize)]
struct Saved<'a> {
    saved: &'a str,
    bytes: usize,
    /// The version of the file now: the `base` of the next save.
    version: String,
}

/// The `409` of a save refused because the file changed: the error, and
/// the file the save would have written, so the edit is not lost.
#[derive(Serialize)]
struct Changed<'a> {
    error: ChangedError<'a>,
    board_file: &'a str,
}

#[derive(Serialize)]
struct ChangedError<'a> {
    kind: &'a str,
    message: &'a str,
}

/// `409` for a save whose `base` is not the file's version now, with the
/// file the save would have written.
fn changed(path: &Path, why: &str, file: &[u8]) -> ApiError {
    let message = format!(
        "{} {why} since the page loaded it; it was left as it is. The edit was not saved: \
         reload the page to edit the file as it is now, or keep the edit (board_file, or \
         the page's Board JSON)",
        snakeladder_render::escape::display_path(path)
    );
    let text = String::from_utf8_lossy(file);
    match serialized(json::pretty(&Changed {
        error: ChangedError {
            kind: "changed",
            message: &message,
        },
        board_file: &text,
    })) {
        Ok(bytes) => ApiError::json(StatusCode::CONFLICT, bytes),
        Err(e) => e,
    }
}

/// Whether the file at `path` is still version `base`: a file of another
/// length is not (and is not read), one of the same length is read and
/// hashed.
fn on_disk(path: &Path, base: &str) -> std::io::Result<bool> {
    let len = std::fs::metadata(path)?.len();
    if !base.starts_with(&format!("{len}-")) {
        return Ok(false);
    }
    Ok(crate::file_version(&std::fs::read(path)?) == base)
}

/// `POST /api/save?base=VERSION`: writes the body's board back to the
/// server's board file atomically, as the body wrote it in `fmt`'s layout
/// ([`as_written`]), if the file is still the version `base` the page
/// loaded ([`crate::file_version`]); `409` when it is not (changed or
/// removed since: the file is left as it is and the answer holds the edit),
/// or when the server was started without a file.
pub(crate) async fn save(
    Shared(state): Ctx,
    query: RawQuery,
    raw: RawBody,
) -> Result<Response, ApiError> {
    let p = params(query, &["base"])?;
    let base = p
        .text("base")
        .ok_or_else(|| {
            ApiError::bad_request(
                "base: required, the version of the file the edit started from \
                 (the `version` of GET /api/board)",
            )
        })?
        .to_string();
    let bytes = body(&state, raw)?;
    let (Some(saver), Some(path)) = (state.config.save.clone(), state.config.board_path.clone())
    else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_file",
            "the server was started without a board file; download the JSON instead",
        ));
    };
    let limits = state.config.limits;
    let saving = Arc::clone(&state.saving);
    let answer = work::run(&state, move |_: &Cancel| {
        board_of(&bytes, REQUEST_FILE, limits)?;
        let file = as_written(&bytes)?;
        // From the look at the file to its write, no other save runs: two
        // pages that loaded the same version cannot both write.
        let _one = saving
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match on_disk(&path, &base) {
            Ok(true) => {}
            Ok(false) => return Err(changed(&path, "changed", &file)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(changed(&path, "was removed", &file));
            }
            Err(e) => {
                return Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "io",
                    &format!("{}: {e}", snakeladder_render::escape::display_path(&path)),
                ));
            }
        }
        (saver.0)(&file).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "io", &e))?;
        let shown = snakeladder_render::escape::display_path(&path);
        serialized(json::pretty(&Saved {
            saved: &shown,
            bytes: file.len(),
            version: crate::file_version(&file),
        }))
    })
    .await?;
    Ok(json_answer(answer))
}
