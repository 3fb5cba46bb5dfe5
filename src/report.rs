//! `snakeladder report`: the analysis of a board as a Markdown or HTML page.

use crate::common::{self, CliError};
use crate::memory;
use crate::output::Output;
use clap::ValueEnum;
use snakeladder::{Analysis, Options, Seed};
use snakeladder_render::{CrossCheck, CrossCheckError, Report};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Report format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Markdown with tables (and, with `-o`, its charts as SVG files beside it).
    Markdown,
    /// One self-contained HTML page with inline SVG charts.
    Html,
}

impl Format {
    /// The format a file name asks for: HTML for `.html`/`.htm`, else
    /// Markdown.
    fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm") => {
                Format::Html
            }
            _ => Format::Markdown,
        }
    }
}

/// Arguments of `report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board file; `-` reads standard input. Without one, the built-in
    /// default board.
    board: Option<PathBuf>,
    /// Report format. Default: HTML when `-o` names an `.html` or `.htm`
    /// file, else Markdown.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the report to this file (atomically: a failure never leaves a
    /// truncated file or clobbers the old one) instead of standard output.
    /// A Markdown report writes its charts beside it, as `<name>-length.svg`,
    /// `<name>-board.svg`, `<name>-seats.svg`, `<name>-jumps.svg` and, with
    /// `--sensitivity`, `<name>-levers.svg`.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Player counts for the seat odds, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,3,4,5,6",
          value_parser = clap::value_parser!(u32).range(1..=snakeladder::Board::MAX_PLAYERS as i64))]
    players: Vec<u32>,
    /// Also give the mean number of turns as an exact fraction.
    #[arg(long)]
    exact: bool,
    /// Most memory the analysis may use (e.g. 8G, 512M); past it the board
    /// is refused (exit 3) or a section left out, with the estimate, in the
    /// report and on standard error. Default: half the machine's memory.
    #[arg(long, value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
    /// Most multiply-adds one optional figure may take before its section is
    /// left out with a note. Default 2e10, about half a minute; at most 1e18.
    #[arg(long, value_parser = memory::parse_work)]
    max_work: Option<f64>,
    /// Also rank every jump by its effect, in a section after the jumps:
    /// the mean length (and, with 2 among --players, the first seat's
    /// advantage) with it removed or its start or end moved by ±1, ±2, ±5
    /// squares. As `analyze --sensitivity`; boards over 1,500 squares are
    /// refused (exit 3).
    #[arg(long)]
    sensitivity: bool,
    /// Longest `--sensitivity` may run (90, 30s, 5m, 1h); it also stops
    /// at --max-work and --max-memory, naming the limit (exit 3).
    #[arg(long, value_parser = crate::args::parse_time_limit, requires = "sensitivity")]
    time_limit: Option<std::time::Duration>,
    /// Also simulate this many games and show each simulated figure, with
    /// its standard error, beside the exact one (as `check` compares them).
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u64).range(1..))]
    cross_check: Option<u64>,
    /// Master seed of the cross-check's simulation.
    #[arg(long, default_value_t = Seed::new(0), requires = "cross_check")]
    seed: Seed,
}

/// Runs `report`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    // `-o -` is standard output, as for every command; any other path is
    // checked (not a directory, not the board itself) before the work.
    let inputs: Vec<&Path> = args.board.as_deref().into_iter().collect();
    let output = match args.output.as_deref() {
        Some(path) if path != Path::new("-") => Some((path, Output::resolve(path, &inputs)?)),
        _ => None,
    };
    let board = common::load_board(args.board.as_deref())?;
    let two_players = args.players.contains(&2);
    let mut options = Options::default()
        .players(args.players)
        .exact(args.exact)
        .max_memory(args.max_memory.unwrap_or_else(memory::default_limit));
    if let Some(w) = args.max_work {
        options = options.max_work(w);
    }
    let analysis =
        Analysis::new(&board, &options).map_err(common::analysis_of(args.board.as_deref()))?;
    let sensitivity = if args.sensitivity {
        let budget = crate::design::budget(args.max_work, args.max_memory, args.time_limit);
        Some(crate::design::sensitivity(&board, two_players, &budget)?)
    } else {
        None
    };
    let mut notes = Vec::new();
    // A simulation costs about a roll per turn of each player's game: a
    // run past --max-work (default 2e10, about half a minute of analysis)
    // is left out with its estimate rather than started for days.
    let max_work = args
        .max_work
        .unwrap_or(snakeladder::Limits::default().max_work);
    let players = analysis.players.iter().map(|p| p.count).max().unwrap_or(1);
    let cross_work = |games: u64| games as f64 * f64::from(players) * analysis.turns.mean.max(1.0);
    let cross = match args.cross_check {
        None => None,
        Some(games) if cross_work(games) > max_work => {
            let (moves, limit) = snakeladder::internals::over_count(cross_work(games), max_work, 2);
            notes.push(format!(
                "the cross-check left out: {games} games of {players} players make about {moves} moves, over the limit of {limit} (--max-work)",
            ));
            None
        }
        Some(games) => match CrossCheck::run(&board, &analysis, games, args.seed) {
            Ok(c) => Some(c),
            Err(CrossCheckError::Simulate(e)) => return Err(e.into()),
            Err(e) => {
                notes.push(format!("the cross-check left out: {e}"));
                None
            }
        },
    };
    let format = args
        .format
        .or_else(|| output.as_ref().map(|(path, _)| Format::of(path)))
        .unwrap_or(Format::Markdown);
    let mut doc = Report::new(&board, &analysis);
    if let Some(c) = &cross {
        doc = doc.with_cross_check(c);
    }
    if let Some(s) = &sensitivity {
        doc = doc.with_sensitivity(s);
    }
    let rendered = match (format, output.as_ref().map(|(path, _)| *path)) {
        (Format::Html, _) => doc.render_html(),
        (Format::Markdown, Some(path)) => {
            let stem = path
                .file_stem()
                .map_or_else(|| "report".into(), |s| s.to_string_lossy());
            doc.render_markdown(Some(&stem))
        }
        (Format::Markdown, None) => doc.render_markdown(None),
    };
    {
        for o in &rendered.omitted {
            common::say("note: ", &o.to_string());
        }
        for n in &notes {
            common::say("note: ", &n.to_string());
        }
    }
    match &output {
        Some((path, output)) => {
            // Every output path is checked before any is written: a chart
            // that would overwrite an input is refused with nothing
            // written. Then the charts and the document land together or
            // not at all: a report never stands beside another board's
            // charts.
            let dir = path.parent().unwrap_or(Path::new(""));
            let charts = rendered
                .files
                .iter()
                .map(|file| Ok((Output::resolve(&dir.join(&file.name), &inputs)?, file)))
                .collect::<Result<Vec<_>, crate::output::OutputError>>()?;
            let mut outputs: Vec<(&Output, crate::output::Filler<'_>)> = charts
                .iter()
                .map(|(chart, file)| {
                    let fill: crate::output::Filler<'_> =
                        Box::new(move |w: &mut dyn Write| w.write_all(file.svg.as_bytes()));
                    (chart, fill)
                })
                .collect();
            outputs.push((
                output,
                Box::new(|w: &mut dyn Write| w.write_all(rendered.document.as_bytes())),
            ));
            crate::output::write_together(outputs)?;
        }
        None => {
            let mut out = common::stdout()?;
            out.write_all(rendered.document.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
