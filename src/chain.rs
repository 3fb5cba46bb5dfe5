//! `snakeladder chain`: any absorbing Markov chain, read from PRISM's or
//! Storm's explicit files or from JSON, answered by the `absorbing` crate.

use crate::common::{self, CliError, Format};
use crate::memory;
use absorbing::answers::{AnswerError, Options};
use absorbing::read::Explicit;
use snakeladder_render::chain::Described;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Reach probability, expected steps and reward, variance, distribution
/// and visits of any absorbing chain (docs/chains-any.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The transitions: a `.tra` file (PRISM's and Storm's explicit
    /// format, entries as decimals or `p/q` fractions, read exactly) or a
    /// `.json` chain (docs/chain-format.md).
    file: PathBuf,
    /// The labels (`.lab`), for `--init` and `--target`.
    #[arg(long)]
    labels: Option<PathBuf>,
    /// State rewards (`.srew`): each step spent in a state earns its
    /// reward, until the target.
    #[arg(long)]
    state_rewards: Option<PathBuf>,
    /// The label of the initial state [default: `init` with --labels,
    /// else the file's own].
    #[arg(long)]
    init: Option<String>,
    /// The initial state by number, instead of a label.
    #[arg(long, conflicts_with = "init")]
    init_state: Option<usize>,
    /// The label of the target states [default: the absorbing states].
    #[arg(long)]
    target: Option<String>,
    /// Certified fractions beside the floats.
    #[arg(long)]
    exact: bool,
    /// Leave out the distribution of the steps (it is stepped one step at
    /// a time, which on a chain whose games last long is most of the work).
    #[arg(long)]
    no_distribution: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Most memory the answers may hold (e.g. 512M, 2G) [default: half
    /// the machine's].
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most work, in multiply-adds (floats) or word operations (fractions)
    /// [default: 1e12].
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
    /// Stop and fail after this long (e.g. 30s, 2m).
    #[arg(long, value_parser = crate::args::parse_time_limit)]
    time_limit: Option<std::time::Duration>,
}

/// Why `chain` failed.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// The files are not a valid chain, or could not be read.
    #[error("{0}")]
    Read(#[from] absorbing::Error),
    /// The chain could not be answered.
    #[error("{file}: {source}")]
    Answer {
        /// The transitions file.
        file: String,
        /// Why.
        source: AnswerError,
    },
    /// The files are too large to read within `--max-memory`.
    #[error(
        "{file}: reading this chain needs up to {needed} bytes ({} per byte of its files), over the --max-memory limit of {limit} bytes",
        HELD_PER_FILE_BYTE
    )]
    TooLarge {
        /// The transitions file.
        file: String,
        /// Bytes the chain may need.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// `--time-limit` passed.
    #[error("{file}: the time limit of {limit:?} passed before the answers were found")]
    TimeLimit {
        /// The transitions file.
        file: String,
        /// The limit.
        limit: std::time::Duration,
    },
}

impl ChainError {
    /// The exit code: 1 for an invalid chain or one that is not exact when
    /// fractions were asked for, 3 when the work could not be done.
    pub fn exit_code(&self) -> u8 {
        match self {
            ChainError::Read(_) => common::EXIT_FAILURE,
            ChainError::Answer {
                source: AnswerError::NotExact { .. },
                ..
            } => common::EXIT_FAILURE,
            ChainError::Answer { .. }
            | ChainError::TimeLimit { .. }
            | ChainError::TooLarge { .. } => common::EXIT_CANNOT,
        }
    }
}

/// Most bytes a chain holds per byte of the files it is read from: an
/// entry's shortest line (`0 1 1` and a newline) is 6 bytes, and it is held
/// as a column (4), a float (8) and an exact fraction (two big integers,
/// 48 bytes and a word of digits each, 64): about 80 bytes, 14 per byte of
/// file, and the reading holds each line once more beside it.
const HELD_PER_FILE_BYTE: u64 = 16;

/// Refuses, before reading them, files whose chain would pass
/// `max_memory` ([`HELD_PER_FILE_BYTE`]).
fn refuse_large_files(args: &Args, max_memory: u64) -> Result<(), ChainError> {
    let files = [
        Some(&args.file),
        args.labels.as_ref(),
        args.state_rewards.as_ref(),
    ];
    let mut total = 0u64;
    for file in files.into_iter().flatten() {
        // A file that cannot be opened is named by the reader.
        if let Ok(meta) = std::fs::metadata(file) {
            total = total.saturating_add(meta.len());
        }
    }
    let needed = total.saturating_mul(HELD_PER_FILE_BYTE);
    if needed > max_memory {
        return Err(ChainError::TooLarge {
            file: args.file.display().to_string(),
            needed,
            limit: max_memory,
        });
    }
    Ok(())
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if is_json(&args.file)
        && (args.labels.is_some()
            || args.state_rewards.is_some()
            || args.init.is_some()
            || args.init_state.is_some()
            || args.target.is_some())
    {
        return Err(CliError::Usage(
            "a JSON chain holds its own initial state, targets and rewards: --labels, --state-rewards, --init and --target go with a .tra file".into(),
        ));
    }
    if args.labels.is_none() && (args.init.is_some() || args.target.is_some()) {
        return Err(CliError::Usage(
            "--init and --target name labels: give the labels file with --labels".into(),
        ));
    }
    let max_memory = args.max_memory.unwrap_or_else(memory::default_limit);
    refuse_large_files(&args, max_memory)?;
    let chain = if is_json(&args.file) {
        absorbing::read::json_file(&args.file).map_err(ChainError::Read)?
    } else {
        let mut explicit = Explicit::new(&args.file);
        if !args.exact {
            // No fraction is asked for: none is built.
            explicit = explicit.floats();
        }
        if let Some(lab) = &args.labels {
            explicit = explicit.labels(lab);
        }
        if let Some(srew) = &args.state_rewards {
            explicit = explicit.rewards(srew);
        }
        if let Some(init) = &args.init {
            explicit = explicit.initial_label(init);
        }
        if let Some(state) = args.init_state {
            explicit = explicit.initial_state(state);
        }
        if let Some(target) = &args.target {
            explicit = explicit.target_label(target);
        }
        explicit.read().map_err(ChainError::Read)?
    };
    let options = Options {
        exact: args.exact,
        distribution: !args.no_distribution,
        max_work: args.max_work.unwrap_or(Options::default().max_work),
        max_memory,
    };
    let file = args.file.display().to_string();
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(limit) = args.time_limit {
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            flag.store(true, Ordering::Relaxed);
        });
    }
    let answers = match chain.answer(&options, Some(&stop)) {
        Ok(a) => a,
        Err(AnswerError::Stopped) => {
            return Err(ChainError::TimeLimit {
                file,
                limit: args.time_limit.unwrap_or_default(),
            }
            .into());
        }
        Err(source) => return Err(ChainError::Answer { file, source }.into()),
    };
    let initial = match (&args.init, &args.labels) {
        _ if args.init_state.is_some() => format!("state {}", args.init_state.unwrap_or(0)),
        (Some(label), _) => format!("label \"{label}\""),
        (None, Some(_)) => "label \"init\"".to_string(),
        (None, None) if is_json(&args.file) => "as the file gives it".to_string(),
        (None, None) => "state 0, or the file's own".to_string(),
    };
    let target = match &args.target {
        Some(label) => format!("label \"{label}\""),
        None if is_json(&args.file) => "as the file gives it".to_string(),
        None => "the absorbing states".to_string(),
    };
    let described = Described {
        source: &file,
        initial: &initial,
        target: &target,
    };
    let mut out = common::stdout()?;
    match args.format {
        Format::Json => {
            let json = snakeladder_render::chain::json(&chain, &answers, &described)
                .map_err(std::io::Error::from)?;
            out.write_all(&json)?;
        }
        Format::Text => snakeladder_render::chain::text(&mut out, &chain, &answers, &described)?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
