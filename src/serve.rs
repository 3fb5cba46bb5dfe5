//! `snakeladder serve`: the live layout designer, one page and its JSON API
//! on loopback (the `snakeladder-serve` crate), editing a board file or the
//! built-in board.

use crate::common::{CliError, EXIT_OK};
use crate::memory;
use crate::output::Output;
use snakeladder::Limits;
use snakeladder_serve::{Config, Saver};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board file to edit; the page's "Save" writes it back atomically.
    /// Without one, the built-in default board (saving then is downloading).
    board: Option<PathBuf>,
    /// The port to listen on; 0 picks a free one (printed).
    #[arg(long, default_value_t = 8737)]
    port: u16,
    /// The address to listen on. Anything but loopback lets other machines
    /// use the designer (and its save), and is warned about.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser once listening.
    #[arg(long)]
    open: bool,
    /// Most memory one request's analysis may use (e.g. 512M). Default: the
    /// machine's default limit shared among --max-jobs, at most 1G each.
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most multiply-adds one optional figure of a request's analysis may
    /// take before it is skipped with a note. Default 2e9, a few seconds.
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
    /// Most multiply-adds a request's factorisation may take, as estimated
    /// before it starts; past it, 422. The factorisation is the one step a
    /// request cannot be stopped in when its client leaves or its time is
    /// up. Default 1e8, about a second.
    #[arg(long, value_parser = memory::parse_work)]
    max_factor_work: Option<f64>,
    /// Most computations at once; others wait two seconds, then get 503.
    /// Default: one per core.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_jobs: Option<u32>,
    /// Seconds one request may take before it is answered 504.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// The largest request body in bytes (e.g. 1M); past it, 413.
    #[arg(long, value_parser = memory::parse_bytes, default_value = "1M")]
    max_body: u64,
}

/// Runs `serve` until Ctrl-C or SIGTERM, then finishes the requests in
/// flight (at most 10 s).
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let mut config = Config::default();
    if let Some(jobs) = args.max_jobs {
        config.max_jobs = jobs as usize;
    }
    config.limits = Limits {
        max_memory: args.max_memory.unwrap_or_else(|| {
            (memory::default_limit() / config.max_jobs.max(1) as u64).min(1 << 30)
        }),
        max_work: args.max_work.unwrap_or(config.limits.max_work),
    };
    if let Some(work) = args.max_factor_work {
        config.max_factor_work = work;
    }
    config.timeout = Duration::from_secs(args.timeout);
    config.max_body = usize::try_from(args.max_body)
        .map_err(|_| CliError::Usage(format!("--max-body: {} is too large", args.max_body)))?;
    if let Some(path) = &args.board {
        // Read now, so a missing or unreadable file, or one the designer
        // cannot edit (not a JSON object), is an error at once, not a page
        // that shows some other board and offers to save it over the file.
        let bytes = snakeladder::Board::read_bytes(path)?;
        if let Err(why) = snakeladder_serve::editable_board(&bytes) {
            // The board reader's own error (exit 1, with the line and
            // column), as every command gives for a file that is no board.
            return Err(match snakeladder::Board::from_json_slice(&bytes) {
                Err(e) => e.with_path(path).into(),
                Ok(_) => CliError::Usage(format!("{}: {why}", path.display())),
            });
        }
        let output = path.clone();
        config.save = Some(Saver(Arc::new(move |bytes: &[u8]| {
            Output::resolve(&output, &[])
                .map_err(|e| e.to_string())?
                .write(|w| w.write_all(bytes))
                .map_err(|e| e.to_string())
        })));
        config.board_path = Some(path.clone());
    }
    if !args.bind.is_loopback() {
        let _ = writeln!(
            std::io::stderr(),
            "warning: listening on {}, not loopback: anyone who can reach it can run analyses{}",
            args.bind,
            if config.save.is_some() {
                " and overwrite the board file"
            } else {
                ""
            }
        );
    }
    let open = args.open;
    let addr = SocketAddr::new(args.bind, args.port);
    snakeladder_serve::run(config, addr, |bound| {
        let url = format!("http://{bound}/");
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "snakeladder serve: {url}  (Ctrl-C stops)");
        let _ = out.flush();
        if open {
            open_browser(&url);
        }
    })
    .map_err(|e| CliError::Usage(format!("serve on {addr}: {e}")))?;
    // A save still running past the shutdown's grace is abandoned whole:
    // its temporary file goes, the board file stays as it was.
    crate::output::remove_temporaries();
    Ok(ExitCode::from(EXIT_OK))
}

/// Opens `url` with the desktop's opener; a failure is a warning (the URL
/// is printed anyway).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        let _ = writeln!(
            std::io::stderr(),
            "warning: cannot open a browser ({opener}: {e}); open {url} yourself"
        );
    }
}
