//! `snakeladder play`: play a game in the terminal, one line per roll.

use crate::common::{self, CliError, EXIT_CANNOT, EXIT_OK, Format};
use crate::output::Output;
use snakeladder::analysis::LiveOdds;
use snakeladder::internals::check_players;
use snakeladder::{
    Event, Finish, Game, GameRecord, RollResult, Roller, ScriptedDice, Seed, SeededDice, Square,
};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Most rolls `play` makes by default before giving up on a game: far above
/// any real game (the default board averages under 40 rolls a player) yet
/// quick to reach, so a game on a huge board cannot run for hours.
pub const DEFAULT_MAX_TURNS: u64 = 1_000_000;

/// Exit code of command-line misuse, as clap gives it.
const EXIT_USAGE: u8 = 2;

/// Longest line `--interactive` reads from standard input: it waits for
/// Enter, so anything longer is not a person pressing a key (`< /dev/zero`
/// would otherwise grow one line without bound).
pub const MAX_INPUT_LINE: u64 = 1024;

/// Prints one line on standard error; a closed standard error is ignored,
/// never a panic.
macro_rules! complain {
    ($($arg:tt)*) => {{
        crate::common::say("", &format!($($arg)*));
    }};
}

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
#[command(
    override_usage = "snakeladder play [BOARD] --players <NAMES> [OPTIONS]\n       \
                            snakeladder play --replay <FILE> [--odds] [--record <FILE>]"
)]
pub struct Args {
    /// Board file (`-` for standard input); the built-in default board if omitted.
    board: Option<PathBuf>,
    /// Players in seat order, comma-separated: `Ana,Bo,Cy` (2 to 100;
    /// required unless --replay).
    // Checked in `run`, not by clap, whose message would echo a hostile id
    // raw.
    #[arg(long, value_name = "NAMES", required_unless_present = "replay")]
    players: Option<String>,
    /// Seed of the dice; drawn at random (and printed) if omitted.
    #[arg(long)]
    seed: Option<Seed>,
    /// Play on after the first winner until everyone has a place.
    #[arg(long)]
    to_last: bool,
    /// Wait for Enter on standard input before each roll.
    #[arg(long)]
    interactive: bool,
    /// Write the replayable record of the game (JSON) to this file; `-`
    /// writes it on standard output and the game's transcript on standard
    /// error. A regular file is replaced atomically (a symbolic link's
    /// target is replaced); a device or FIFO is written straight; a
    /// directory or the board file is refused.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Replay a recorded game, checking every roll, and print it.
    // `--max-turns` caps a game being played; a replay's rolls are the
    // record's, so a cap there would only hide its end: refused.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "players", "seed", "to_last", "interactive", "max_turns"])]
    replay: Option<PathBuf>,
    /// After every turn, each player's exact probability of winning from the
    /// current squares and turn order (from the exact analysis, not a
    /// simulation): a line of the transcript, or with `--format json` the
    /// list `odds`.
    #[arg(long)]
    odds: bool,
    /// Give up after this many rolls (exit 3). Not with --replay, whose
    /// rolls are the record's.
    #[arg(long, default_value_t = DEFAULT_MAX_TURNS)]
    max_turns: u64,
    /// Output format: `text` narrates every roll; `json` prints the whole
    /// game at its end (every roll, the status and the ranking, as
    /// --record writes it; with --odds, the odds after every turn too).
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// The player list of `--players`, checked: the error's message escapes
/// the ids it quotes.
fn parse_players(s: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = s.split(',').map(|p| p.trim().to_string()).collect();
    check_players(&names).map_err(|e| {
        // `--players 3` is a count in analyze, simulate and report; here
        // the players are named, and one name that is a number is that
        // slip.
        match names.as_slice() {
            [one] if one.parse::<u32>().is_ok() => format!(
                "{e}; play's --players names the players in seat order \
                 (--players Ana,Bo,Cy), it is not a count"
            ),
            _ => e.to_string(),
        }
    })?;
    Ok(names)
}

/// Something that prints after every roll: the transcript, and with
/// `--odds` a line of live odds. Generic over the dice, so a game played
/// and a game replayed print alike.
trait AfterTurn<R: Roller> {
    fn after_turn(
        &mut self,
        game: &Game<R>,
        turn: &RollResult,
        out: &mut dyn Write,
    ) -> io::Result<()>;
}

/// The move in words.
struct Narrator;

impl<R: Roller> AfterTurn<R> for Narrator {
    fn after_turn(
        &mut self,
        game: &Game<R>,
        turn: &RollResult,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "{}", common::shown(&turn.describe(game.board())))
    }
}

/// Each player's exact chance of winning from where the tokens stand, in
/// seat order, printed between turns while nobody has finished.
///
/// Tokens never interact and each player's rolls are independent, so the
/// race is decided by independent finishing-time distributions, one per
/// square (see `snakeladder::analysis::odds`). Between two rolls of one turn
/// (extra rolls) the odds are not a function of the squares alone, so no
/// line is printed there. A line that the work budget cannot decide ends
/// the odds for the rest of the game: every later line would spend the same
/// budget (about a second) to print the same "not computed". Every line
/// is kept too, for `--format json`.
struct Odds {
    odds: LiveOdds,
    given_up: bool,
    lines: Vec<crate::outputs::OddsLine>,
}

impl<R: Roller> AfterTurn<R> for Odds {
    fn after_turn(
        &mut self,
        game: &Game<R>,
        _turn: &RollResult,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.print(game, out)
    }
}

impl Odds {
    /// Compiles the board for live odds; the exit code when it cannot.
    fn new(board: &snakeladder::Board) -> Result<Odds, ExitCode> {
        match LiveOdds::new(board) {
            Ok(odds) => Ok(Odds {
                odds,
                given_up: false,
                lines: Vec::new(),
            }),
            Err(err) => Err(cannot(&err)),
        }
    }

    fn print<R: Roller>(&mut self, game: &Game<R>, out: &mut dyn Write) -> io::Result<()> {
        let order = game.turn_order();
        let last = game.board().last();
        if self.given_up
            || game.rolls_in_turn() > 0
            || order.is_empty()
            || game.positions().contains(&last)
        {
            return Ok(());
        }
        let squares: Vec<Square> = order.iter().map(|&seat| game.positions()[seat]).collect();
        let live = self
            .odds
            .odds_within(&squares, 0, ODDS_MAX_WORK)
            .map_err(io::Error::other)?;
        self.given_up = live.left_out >= 0.5;
        let mut win = vec![None; game.players().len()];
        if !self.given_up {
            for (&seat, &p) in order.iter().zip(&live.odds) {
                win[seat] = Some(p);
            }
        }
        self.lines.push(crate::outputs::OddsLine {
            rolls: game.rolls_played(),
            win,
            undecided: live.left_out,
            turns_followed: live.turns as u64,
        });
        if self.given_up {
            return snakeladder_render::text::write_odds_given_up(out, &live, ODDS_MAX_WORK);
        }
        snakeladder_render::text::write_odds(out, game.players(), &order, &live)
    }
}

/// Multiply-adds one line of live odds may take (about a second): the
/// distributions are followed turn by turn until the race is decided to
/// 1e-12, or this budget ends it.
const ODDS_MAX_WORK: f64 = 1e9;

/// Runs `play`.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let json = args.format == Format::Json;
    if let Some(misuse) = misuse(&args) {
        return Ok(misuse);
    }
    if let Some(path) = &args.replay {
        return replay(path, &args);
    }
    let players = match parse_players(
        args.players
            .as_deref()
            .expect("clap requires --players without --replay"),
    ) {
        Ok(players) => players,
        Err(why) => {
            complain!("error: --players: {}", common::shown(&why));
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let record = match &args.record {
        Some(path) => Some(Output::resolve(
            path,
            &args.board.as_deref().into_iter().collect::<Vec<_>>(),
        )?),
        None => None,
    };
    let board = Arc::new(common::load_board(args.board.as_deref())?);

    let drawn = args.seed.is_none();
    // The one place entropy enters: a seed drawn for a game the user did
    // not seed, printed so it can be replayed.
    let seed = args.seed.unwrap_or_else(|| Seed::new(rand::random()));
    let finish = if args.to_last {
        Finish::ToLast
    } else {
        Finish::FirstWinner
    };
    let mut game = match Game::seeded(board, players, seed, finish) {
        Ok(game) => game,
        Err(err) => return Ok(cannot(&err)),
    };
    let mut out = transcript(&args)?;
    writeln!(
        out,
        "{}",
        snakeladder_render::text::game_header(game.board(), game.players(), Some(seed))
    )?;
    if drawn {
        writeln!(out, "(seed drawn at random; replay with --seed {seed})")?;
    }
    let mut odds = None;
    if args.odds {
        let mut live = match Odds::new(game.board()) {
            Ok(odds) => odds,
            Err(code) => return Ok(code),
        };
        live.print(&game, &mut out)?;
        odds = Some(live);
    }
    let mut narrator = Narrator;
    let mut hooks: Vec<&mut dyn AfterTurn<SeededDice>> = vec![&mut narrator];
    if let Some(live) = odds.as_mut() {
        hooks.push(live);
    }
    let stopped = match play_rolls(&mut game, &mut hooks, &mut out, &args)? {
        Played::Over => None,
        Played::Stopped(why) => Some(why),
        Played::Failed(code) => return Ok(code),
    };
    snakeladder_render::text::write_game_result(&mut out, game.status(), &game.ranking())?;
    out.flush()?;
    drop(out);
    if let Some(record) = &record
        && let Some(failed) = save_record(record, &game)
    {
        return Ok(failed);
    }
    if json {
        let lines = odds.as_ref().map(|o| o.lines.as_slice());
        print_json(&game, drawn, stopped.clone(), lines)?;
    }
    if let Some(why) = stopped {
        complain!("error: {why} after {} rolls", game.rolls_played());
        return Ok(ExitCode::from(EXIT_CANNOT));
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// The combinations of flags clap cannot refuse, refused with exit 2:
/// `--format json` with the record on standard output, and
/// `--interactive` with the board on standard input.
fn misuse(args: &Args) -> Option<ExitCode> {
    if args.format == Format::Json && args.record.as_deref() == Some(Path::new("-")) {
        complain!(
            "error: --format json prints the game on standard output already; give --record a file"
        );
        return Some(ExitCode::from(EXIT_USAGE));
    }
    if args.replay.is_none() && args.interactive && args.board.as_deref() == Some(Path::new("-")) {
        // Both would read standard input: the board would swallow the Enters.
        complain!("error: --interactive reads standard input, so the board cannot come from `-`");
        return Some(ExitCode::from(EXIT_USAGE));
    }
    None
}

/// Where the transcript goes: nowhere with `--format json`, standard error
/// when the record takes standard output, else standard output.
fn transcript(args: &Args) -> Result<Box<dyn Write>, CliError> {
    Ok(if args.format == Format::Json {
        Box::new(io::sink())
    } else if args.record.as_deref() == Some(Path::new("-")) {
        Box::new(io::BufWriter::new(io::stderr()))
    } else {
        Box::new(common::stdout()?)
    })
}

/// How the rolls of a game ended.
enum Played {
    /// The game is over.
    Over,
    /// It stopped early, for this reason (`--max-turns`, or input ended).
    Stopped(String),
    /// A roll failed; exit with this code.
    Failed(ExitCode),
}

/// Rolls until the game is over or stops early, each roll followed by the
/// hooks; with `--interactive`, after Enter on standard input.
fn play_rolls(
    game: &mut Game<SeededDice>,
    hooks: &mut [&mut dyn AfterTurn<SeededDice>],
    out: &mut Box<dyn Write>,
    args: &Args,
) -> Result<Played, CliError> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    while let Some(current) = game.current().map(str::to_string) {
        if game.rolls_played() >= args.max_turns {
            return Ok(Played::Stopped(format!(
                "the game did not end within {} rolls (--max-turns); stopped",
                args.max_turns
            )));
        }
        if args.interactive {
            out.flush()?;
            if let Some(why) = wait_for_enter(&mut input, &current)? {
                return Ok(Played::Stopped(why));
            }
        }
        let turn = match game.roll() {
            Ok(turn) => turn,
            Err(err) => return Ok(Played::Failed(cannot(&err))),
        };
        for hook in hooks.iter_mut() {
            hook.after_turn(game, &turn, out)?;
        }
    }
    Ok(Played::Over)
}

/// Asks `current` to press Enter and reads one line of standard input:
/// `Some(why)` when the game must stop instead (input closed, or a line
/// too long to be a key press).
fn wait_for_enter(input: &mut impl BufRead, current: &str) -> Result<Option<String>, CliError> {
    let _ = write!(io::stderr(), "{current} to roll, press Enter: ");
    let mut line = Vec::new();
    let read = input
        .take(MAX_INPUT_LINE)
        .read_until(b'\n', &mut line)
        .map_err(CliError::Input)?;
    if read == 0 {
        let _ = writeln!(io::stderr());
        return Ok(Some("standard input closed; game stopped".to_string()));
    }
    if line.last() != Some(&b'\n') && read as u64 == MAX_INPUT_LINE {
        let _ = writeln!(io::stderr());
        return Ok(Some(format!(
            "an input line longer than {MAX_INPUT_LINE} bytes (press Enter to roll); game stopped"
        )));
    }
    Ok(None)
}

/// Writes the game's record, refused when larger than `--replay` reads;
/// the exit code when it is not written.
fn save_record<R: Roller>(record: &Output, game: &Game<R>) -> Option<ExitCode> {
    let json = game.record().to_json();
    if json.len() as u64 + 1 > GameRecord::MAX_BYTES {
        complain!(
            "error: the record would be {} bytes, more than the {} bytes --replay reads; not written",
            json.len() + 1,
            GameRecord::MAX_BYTES
        );
        return Some(ExitCode::from(EXIT_CANNOT));
    }
    if let Err(err) = write_record(record, &json) {
        complain!("error: cannot write record: {err}");
        return Some(ExitCode::from(EXIT_CANNOT));
    }
    None
}

fn cannot(err: &dyn std::error::Error) -> ExitCode {
    complain!("error: {err}");
    ExitCode::from(EXIT_CANNOT)
}

/// Writes the record (a regular file beside its target, then renamed into
/// place, so a reader never sees half a file).
fn write_record(output: &Output, json: &str) -> Result<(), CliError> {
    output.write(|w| {
        w.write_all(json.as_bytes())?;
        w.write_all(b"\n")
    })
}

/// Reads a record, refusing one larger than [`GameRecord::MAX_BYTES`] (which
/// `play --record` never writes).
fn read_capped(path: &Path) -> io::Result<String> {
    // The one reader of files: the record's size cap, and no FIFO or
    // device.
    let bytes = snakeladder::internals::read_regular_file(path, GameRecord::MAX_BYTES).map_err(
        |e| match e {
            snakeladder::internals::FileReadError::Io(e) => e,
            too_large => io::Error::other(too_large.to_string()),
        },
    )?;
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// `--format json`: the game as [`crate::outputs::Play`] on standard
/// output.
fn print_json<R: Roller>(
    game: &Game<R>,
    seed_drawn: bool,
    stopped: Option<String>,
    odds: Option<&[crate::outputs::OddsLine]>,
) -> Result<(), CliError> {
    let record = game.record();
    let body = crate::outputs::Play {
        board: common::BoardId::of(game.board()),
        seed_drawn,
        rolls: game.rolls_played(),
        stopped,
        game: &record,
        odds,
    };
    let mut out = common::stdout()?;
    common::write_json(&mut out, &body)?;
    out.flush()?;
    Ok(())
}

/// `--replay FILE`: the recorded game played again and checked roll by
/// roll, then printed as `play` prints a game (with `--odds`, the live odds
/// after every turn, in the transcript or the JSON; with `--record`, the
/// record written again).
fn replay(path: &Path, args: &Args) -> Result<ExitCode, CliError> {
    let json = args.format == Format::Json;
    let record_to = match &args.record {
        Some(out) => Some(Output::resolve(out, &[path])?),
        None => None,
    };
    let text = match read_capped(path) {
        Ok(text) => text,
        Err(err) => {
            complain!("error: cannot read {}: {err}", path.display());
            return Ok(ExitCode::from(common::EXIT_FAILURE));
        }
    };
    let record = match GameRecord::from_json(&text) {
        Ok(record) => record,
        Err(err) => {
            complain!("error: {}: {err}", path.display());
            return Ok(ExitCode::from(common::EXIT_FAILURE));
        }
    };
    // Every event checked against the record first, so nothing is printed
    // for a record that does not replay.
    let game = match record.replay() {
        Ok(game) => game,
        Err(err) => {
            complain!("error: {}: {err}", path.display());
            return Ok(ExitCode::from(common::EXIT_FAILURE));
        }
    };
    // The transcript (a sink under `--format json`), with the odds lines
    // kept for the JSON.
    let mut out = transcript(args)?;
    let lines = match print_replay(&record, &mut out, args.odds)? {
        Ok(lines) => lines,
        Err(code) => return Ok(code),
    };
    out.flush()?;
    drop(out);
    if json {
        let stopped =
            (!game.status().is_over()).then(|| "the recorded game is unfinished".to_string());
        print_json(&game, false, stopped, lines.as_deref())?;
    }
    if let Some(to) = &record_to
        && let Some(failed) = save_record(to, &game)
    {
        return Ok(failed);
    }
    if !game.status().is_over() {
        // The record was cut short (--max-turns, or input closed): it
        // replays, and ends as the game that wrote it did.
        complain!(
            "error: {}: the recorded game is unfinished after {} rolls",
            path.display(),
            game.rolls_played()
        );
        return Ok(ExitCode::from(EXIT_CANNOT));
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Prints a checked record's game event by event, through the same hooks
/// as a game played: its recorded rolls drive the dice (the replay has
/// already shown they are the game's), each forfeit is made where it was.
/// With `odds`, the odds lines printed; the exit code when the odds cannot
/// be computed.
fn print_replay(
    record: &GameRecord,
    out: &mut Box<dyn Write>,
    odds: bool,
) -> Result<Result<Option<Vec<crate::outputs::OddsLine>>, ExitCode>, CliError> {
    let board = Arc::new(
        record
            .board()
            .map_err(|e| CliError::Input(io::Error::other(e)))?,
    );
    let dice = ScriptedDice::new(record.rolls());
    let mut game = Game::new(board, record.players.iter().cloned(), dice, record.finish)
        .map_err(|e| CliError::Input(io::Error::other(e)))?;
    writeln!(
        out,
        "{}",
        snakeladder_render::text::game_header(game.board(), game.players(), record.seed)
    )?;
    let mut live = None;
    if odds {
        let mut odds = match Odds::new(game.board()) {
            Ok(odds) => odds,
            Err(code) => return Ok(Err(code)),
        };
        odds.print(&game, out)?;
        live = Some(odds);
    }
    let mut narrator = Narrator;
    let mut hooks: Vec<&mut dyn AfterTurn<ScriptedDice>> = vec![&mut narrator];
    if let Some(odds) = live.as_mut() {
        hooks.push(odds);
    }
    for event in &record.events {
        match event {
            Event::Roll(_) => {
                let turn = game
                    .roll()
                    .map_err(|e| CliError::Input(io::Error::other(e)))?;
                for hook in hooks.iter_mut() {
                    hook.after_turn(&game, &turn, out)?;
                }
            }
            Event::Forfeit { players, .. } => {
                writeln!(out, "{} left the game", common::shown(&players.join(", ")))?;
                let names: Vec<&str> = players.iter().map(String::as_str).collect();
                game.forfeit_all(&names)
                    .map_err(|e| CliError::Input(io::Error::other(e)))?;
            }
        }
    }
    snakeladder_render::text::write_game_result(out, game.status(), &game.ranking())?;
    Ok(Ok(live.map(|o| o.lines)))
}
