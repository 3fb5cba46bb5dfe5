//! `snakeladder validate`: check board files in CI, each problem at its
//! line and column, and hold valid boards to a layout policy.

use crate::common::{self, CliError, EXIT_FAILURE, EXIT_OK};
use crate::memory;
use snakeladder::Limits;
use snakeladder::policy::{self, Thresholds};
use snakeladder::review::{self, FileReport, Finding, Review};
use snakeladder_render::validate as output;
use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board files, or directories searched for *.json; `-` reads standard
    /// input. A path that holds no board file is an error.
    #[arg(required_unless_present = "builtin")]
    paths: Vec<PathBuf>,
    /// Also check the built-in default board.
    #[arg(long)]
    builtin: bool,
    /// Output format: text (`file:line:col: kind: message`), json, github
    /// (workflow commands that annotate the pull request) or sarif (SARIF
    /// 2.1.0, for code scanning).
    #[arg(long, value_enum, default_value_t)]
    format: ValidateFormat,
    /// A policy file with a `[limits]` table. Without it, the first
    /// snakeladder.toml in each board's directory or a parent is used.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Read no file outside DIR: a board or policy file whose real path
    /// leaves it (through a symbolic link, as one committed to a
    /// repository can) is not read and is reported as unreadable (`io`),
    /// and no snakeladder.toml above DIR is looked for. The GitHub Action
    /// gives the repository it reviews.
    #[arg(long, value_name = "DIR")]
    confine: Option<PathBuf>,
    /// Look for no snakeladder.toml: only `--policy`, the flags and each
    /// board's own `limits` apply.
    #[arg(long, visible_alias = "isolated")]
    no_config: bool,
    /// The directory SARIF's file locations are relative to (its
    /// `%SRCROOT%`); default the git repository's top directory, or the
    /// current directory outside one. Only with --format sarif.
    #[arg(long, value_name = "DIR")]
    sarif_root: Option<PathBuf>,
    /// Fail a board whose expected number of turns is above this.
    #[arg(long, value_name = "TURNS")]
    max_mean_turns: Option<f64>,
    /// Fail a board whose expected number of turns is below this.
    #[arg(long, value_name = "TURNS")]
    min_mean_turns: Option<f64>,
    /// Fail a board whose games are not 99% over within this many turns.
    #[arg(long, value_name = "TURNS")]
    max_p99_turns: Option<f64>,
    /// Fail a board where, with two players, P(seat 1 wins) − P(seat 2
    /// wins) is above this (0.02 or 2%; negative asks seat 2 to be ahead).
    #[arg(long, value_name = "PROBABILITY", allow_hyphen_values = true,
          value_parser = crate::args::parse_share)]
    max_first_seat_advantage: Option<f64>,
    /// Name each snake or ladder used in fewer than this fraction of games
    /// (0.05 or 5%).
    #[arg(long, value_name = "FRACTION", value_parser = crate::args::parse_share)]
    min_jump_use: Option<f64>,
    /// Fail a board whose shortest game happens with a probability above
    /// this (0.001 or 0.1%).
    #[arg(long, value_name = "PROBABILITY", value_parser = crate::args::parse_share)]
    max_shortest_game_probability: Option<f64>,
    /// Report problems of this kind as warnings, which do not fail the
    /// check (repeat or separate with commas).
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    warn_only: Vec<String>,
    /// Most memory each board's analysis may use for the policy (e.g. 8G);
    /// a board past it is reported as unchecked, not passed.
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most multiply-adds one optional figure of the analysis may take; a
    /// threshold that needs a skipped figure is reported as unchecked.
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
}

/// Output format of `validate`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ValidateFormat {
    /// `file:line:col: kind: message`, as editors and CI problem matchers
    /// read.
    #[default]
    Text,
    /// Every problem and a summary, as JSON.
    Json,
    /// GitHub Actions workflow commands.
    Github,
    /// SARIF 2.1.0.
    Sarif,
}

/// Runs `validate`: exit 0 when every board passes, 1 otherwise.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.sarif_root.is_some() && args.format != ValidateFormat::Sarif {
        // Only SARIF has file locations relative to a root; the other
        // formats print each path as given.
        return Err(CliError::Usage(
            "--sarif-root is the root of SARIF's file locations: give --format sarif with it, or leave it out".to_string(),
        ));
    }
    let flags = Thresholds {
        max_mean_turns: args.max_mean_turns,
        min_mean_turns: args.min_mean_turns,
        max_p99_turns: args.max_p99_turns,
        max_first_seat_advantage: args.max_first_seat_advantage,
        min_jump_use: args.min_jump_use,
        max_shortest_game_probability: args.max_shortest_game_probability,
    };
    if let Some(snakeladder::Problem::LimitOutOfRange { key, value, range }) =
        flags.out_of_range().first()
    {
        return Err(CliError::Usage(format!(
            "--{}: {value} is out of range ({range})",
            key.replace('_', "-"),
        )));
    }
    let warn_only: BTreeSet<String> = args.warn_only.iter().cloned().collect();
    for kind in &warn_only {
        if !known_kind(kind) {
            return Err(CliError::Usage(format!(
                "--warn-only: {kind:?} is not a kind of problem (docs/problems.md lists them)"
            )));
        }
    }
    let mut limits = Limits {
        max_memory: args.max_memory.unwrap_or_else(memory::default_limit),
        ..Limits::default()
    };
    if let Some(w) = args.max_work {
        limits.max_work = w;
    }
    let confine = args.confine.as_deref().map(Confine::new).transpose()?;
    if let (Some(confine), Some(policy)) = (&confine, &args.policy)
        && let Some(why) = confine.refuse(policy)
    {
        return Err(CliError::Usage(format!(
            "--policy: {}: {why}",
            policy.display()
        )));
    }
    let mut policies = Policies {
        explicit: args
            .policy
            .as_deref()
            .map(policy::read_policy)
            .transpose()
            .map_err(|e| CliError::Usage(format!("--policy: {e}")))?,
        found: HashMap::new(),
        flags,
        discover: !args.no_config,
        confine: confine.clone(),
    };

    // Every path is walked, and every board's policy read, before the
    // first line is written: a directory that cannot be read is reported
    // first (as `other`), and a policy file that does not read ends the
    // run with nothing printed. Then each board is checked and its findings
    // written at once, so memory holds one board's findings, not the run's.
    let mut items = Vec::new();
    let mut other = Vec::new();
    if args.builtin {
        items.push((Item::Builtin, policies.review(Path::new("."), limits)?));
    }
    for path in &args.paths {
        if path == Path::new("-") {
            items.push((Item::Stdin, policies.review(Path::new("."), limits)?));
            continue;
        }
        if !path.is_dir() {
            let review = policies.review(parent(path), limits)?;
            items.push((Item::File(path.clone()), review));
            continue;
        }
        let (files, unreadable) = walk(path);
        other.extend(unreadable);
        if files.is_empty() {
            let shown = snakeladder_render::escape::display_path(path);
            other.push(
                review::Finding::file_error(
                    &shown,
                    "no_boards",
                    format!("no board files under {shown}"),
                )
                .with_path(path),
            );
        }
        for file in files {
            let review = policies.review(parent(&file), limits)?;
            items.push((Item::File(file), review));
        }
    }
    review::Finding::warn_only(other.iter_mut(), &warn_only);

    let root = match args.format {
        ValidateFormat::Sarif => Some(sarif_root(args.sarif_root.as_deref())?),
        _ => None,
    };
    let format = match args.format {
        ValidateFormat::Text => output::StreamFormat::Text,
        ValidateFormat::Github => output::StreamFormat::Github,
        // JSON lists the files before the problems: the problems wait in
        // a temporary file, not in memory.
        ValidateFormat::Json => output::StreamFormat::Json {
            spool: tempfile::tempfile()?,
        },
        ValidateFormat::Sarif => output::StreamFormat::Sarif {
            version: env!("CARGO_PKG_VERSION"),
            root: root.as_ref(),
        },
    };
    // A reader that has gone (`| head`) stops the output, not the check:
    // the exit status still tells whether every board passed.
    let mut out = common::ClosedPipe::new(common::stdout()?);
    let mut stream = output::Stream::new(&mut out, format, &other)?;
    for (item, review) in items {
        let report = match item {
            Item::Builtin => review.check_bytes(
                "<built-in default board>",
                snakeladder::Board::DEFAULT_JSON.as_bytes(),
            ),
            Item::Stdin => check_stdin(&review),
            Item::File(file) => {
                let shown = snakeladder_render::escape::display_path(&file);
                match confine.as_ref().and_then(|c| c.refuse(&file)) {
                    Some(why) => FileReport {
                        findings: vec![review::Finding::file_error(&shown, "io", why)],
                        file: shown,
                    }
                    .with_path(&file),
                    None => check_file(&file, shown, &review),
                }
            }
        };
        stream.file(&demote(report, &review, &warn_only))?;
    }
    let summary = stream.finish()?;
    Ok(ExitCode::from(if summary.passed() {
        EXIT_OK
    } else {
        EXIT_FAILURE
    }))
}

/// What one report of `validate` is of.
enum Item {
    /// `--builtin`.
    Builtin,
    /// `-`.
    Stdin,
    /// A board file, named or found in a directory.
    File(PathBuf),
}

/// `--warn-only` on one board file's findings. A board that does not read
/// or validate is never analysed, so the policy's thresholds were not
/// checked on it: when a finding made a warning is what kept the board from
/// being built, and the policy has a threshold, a `policy_unchecked` finding
/// says so, and is an error unless that kind is made a warning too. A
/// warning never turns an unchecked policy into a pass.
fn demote(
    mut report: review::FileReport,
    review: &Review,
    warn_only: &BTreeSet<String>,
) -> review::FileReport {
    let policy_kind =
        |kind: &str| kind == "policy_unchecked" || policy::Thresholds::KEYS.contains(&kind);
    let mut unbuilt: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.severity == review::Severity::Error && !policy_kind(&f.kind))
        .filter(|f| warn_only.contains(&f.kind))
        .map(|f| f.kind.as_str())
        .collect();
    unbuilt.sort_unstable();
    unbuilt.dedup();
    let path = report.findings.iter().find_map(|f| f.path.clone());
    let unchecked = (!unbuilt.is_empty() && !review.policy.is_empty()).then(|| {
        let finding = review::Finding::file_error(
            &report.file,
            "policy_unchecked",
            format!(
                "the policy could not be checked: the board was not built ({})",
                unbuilt.join(", ")
            ),
        );
        match &path {
            Some(path) => finding.with_path(path),
            None => finding,
        }
    });
    report.findings.extend(unchecked);
    review::Finding::warn_only(report.findings.iter_mut(), warn_only);
    report
}

/// Every kind `--warn-only` accepts: the validation problems, the policy's
/// thresholds, and the errors of reading.
fn known_kind(kind: &str) -> bool {
    snakeladder_render::kinds::describe(kind).is_some()
}

/// The root of SARIF's relative locations: `--sarif-root`, else the top of
/// the git repository around the current directory, else the current
/// directory.
fn sarif_root(given: Option<&Path>) -> std::io::Result<output::SarifRoot> {
    let cwd = std::env::current_dir()?;
    let root = match given {
        Some(dir) => std::path::absolute(dir)?,
        None => std::process::Command::new("git")
            .args(["rev-parse", "--show-toplevel"])
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .map(|top| PathBuf::from(top.trim_end_matches('\n')))
            .filter(|top| top.is_absolute())
            .unwrap_or_else(|| cwd.clone()),
    };
    Ok(output::SarifRoot { root, cwd })
}

/// The policy of each directory: the `--policy` file, or the nearest
/// snakeladder.toml (read once per directory), overridden by the flags.
struct Policies {
    explicit: Option<Thresholds>,
    found: HashMap<PathBuf, Thresholds>,
    flags: Thresholds,
    /// Whether to look for snakeladder.toml (not with `--no-config`).
    discover: bool,
    /// `--confine`: no snakeladder.toml outside it is read.
    confine: Option<Confine>,
}

impl Policies {
    fn review(&mut self, dir: &Path, limits: Limits) -> Result<Review, CliError> {
        let base = match &self.explicit {
            Some(t) => t.clone(),
            None if !self.discover => Thresholds::default(),
            None => match self.found.get(dir) {
                Some(t) => t.clone(),
                None => {
                    let mut found = snakeladder::internals::find_policy_file(dir)
                        .map_err(|e| CliError::Usage(format!("policy file {e}")))?;
                    if let (Some(confine), Some(file)) = (&self.confine, &found) {
                        // One above the confined directory is not looked
                        // for; one in it that leads out is refused.
                        if !confine.holds_location(file) {
                            found = None;
                        } else if let Some(why) = confine.refuse(file) {
                            return Err(CliError::Usage(format!(
                                "policy file {}: {why}",
                                file.display()
                            )));
                        }
                    }
                    let t = match found {
                        Some(file) => policy::read_policy(&file)
                            .map_err(|e| CliError::Usage(format!("policy file {e}")))?,
                        None => Thresholds::default(),
                    };
                    self.found.insert(dir.to_path_buf(), t.clone());
                    t
                }
            },
        };
        Ok(Review {
            policy: base.overridden_by(&self.flags),
            limits,
        })
    }
}

/// `--confine`: the directory every file read must really be in.
#[derive(Clone, Debug)]
struct Confine {
    /// Its real path.
    root: PathBuf,
}

impl Confine {
    fn new(dir: &Path) -> Result<Confine, CliError> {
        match std::fs::canonicalize(dir) {
            Ok(root) if root.is_dir() => Ok(Confine { root }),
            Ok(_) => Err(CliError::Usage(format!(
                "--confine: {}: not a directory",
                dir.display()
            ))),
            Err(e) => Err(CliError::Usage(format!(
                "--confine: {}: {e}",
                dir.display()
            ))),
        }
    }

    /// Why `path` is not to be read, or `None` when its real path is in
    /// the directory (or it cannot be resolved: the reader reports that).
    /// The message never names where a link leads: that text is the
    /// link's, and is not to reach a log.
    fn refuse(&self, path: &Path) -> Option<String> {
        let real = std::fs::canonicalize(path).ok()?;
        if real.starts_with(&self.root) {
            return None;
        }
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        Some(if link {
            format!(
                "not read: a symbolic link to a file outside {} (--confine)",
                self.root.display()
            )
        } else {
            format!("not read: outside {} (--confine)", self.root.display())
        })
    }

    /// Whether `file` is located in the directory: its own directory's
    /// real path is (the file itself may still be a link out of it).
    fn holds_location(&self, file: &Path) -> bool {
        std::fs::canonicalize(parent(file)).is_ok_and(|dir| dir.starts_with(&self.root))
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The report of one board file, each finding with its printed name
/// `shown` and the path itself (for SARIF and annotations).
fn check_file(path: &Path, shown: String, review: &Review) -> FileReport {
    let report = match snakeladder::Board::read_bytes(path) {
        Ok(bytes) => review.check_bytes(&shown, &bytes),
        Err(e) => FileReport {
            findings: vec![review::Finding::file_error(
                &shown,
                e.kind(),
                read_message(&e),
            )],
            file: shown,
        },
    };
    report.with_path(path)
}

fn check_stdin(review: &Review) -> FileReport {
    let name = "<stdin>";
    let mut bytes = Vec::new();
    let limit = snakeladder::Board::MAX_FILE_BYTES;
    let read = std::io::stdin().take(limit + 1).read_to_end(&mut bytes);
    let error = match read {
        Err(e) => Some(("io", format!("cannot read: {e}"))),
        Ok(_) if bytes.len() as u64 > limit => Some((
            "too_large",
            format!("more than the {limit} bytes a board file may have"),
        )),
        Ok(_) => None,
    };
    match error {
        Some((kind, message)) => FileReport {
            file: name.to_string(),
            findings: vec![review::Finding::file_error(name, kind, message)],
        },
        None => review.check_bytes(name, &bytes),
    }
}

/// The message of an error of reading, without the file name the report
/// already shows.
fn read_message(e: &snakeladder::BoardError) -> String {
    match e {
        snakeladder::BoardError::Io { source, .. } => format!("cannot read: {source}"),
        snakeladder::BoardError::TooLarge { bytes, .. } => format!(
            "the file is {bytes} bytes, more than the {} bytes a board file may have",
            snakeladder::Board::MAX_FILE_BYTES
        ),
        other => other.to_string(),
    }
}

/// Every `*.json` regular file below a directory, sorted so output is
/// stable, and a finding for each directory that could not be read.
/// Symbolic links to directories are not followed (a link back up the tree
/// would walk forever), and what is not a regular file (a FIFO, a socket,
/// a device) is skipped: opening a FIFO would block.
pub(crate) fn walk(root: &Path) -> (Vec<PathBuf>, Vec<Finding>) {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(source) => {
                let shown = snakeladder_render::escape::display_path(&dir);
                errors.push(
                    review::Finding::file_error(&shown, "io", format!("cannot read: {source}"))
                        .with_path(&dir),
                );
                continue;
            }
        };
        for entry in entries.flatten() {
            let p = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "json") {
                // A link that cannot be followed is kept, to be reported
                // as unreadable.
                match std::fs::metadata(&p) {
                    Ok(m) if !m.is_file() => {}
                    _ => found.push(p),
                }
            }
        }
    }
    found.sort();
    errors.sort_by(|a, b| a.file.cmp(&b.file));
    (found, errors)
}
