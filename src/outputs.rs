//! The JSON outputs of `tune`, `generate` and `play` (`--format json`),
//! shaped like every other command's: a `schema` version, the board as
//! [`BoardId`], then the command's own figures. `snakeladder schema tune`
//! (`generate`, `play`) prints their JSON Schemas, generated from these
//! types.

use crate::common::BoardId;
use snakeladder::design::{JumpChange, Target};
use snakeladder::internals::BoardSpec;
use snakeladder::{GameRecord, Seed};

/// `tune --format json`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Tune<'a> {
    /// The board tuned, as read.
    pub board: BoardId,
    /// The band of mean turns (and the cap of the first-seat advantage)
    /// asked for.
    pub target: Target,
    /// The board's mean turns before the changes.
    pub mean_turns_before: f64,
    /// The tuned board's mean turns, from a fresh solve.
    pub mean_turns: f64,
    /// The tuned board's P(seat 1 wins) − P(seat 2 wins) with two players,
    /// when the target caps it.
    pub first_seat_advantage: Option<f64>,
    /// The jumps moved or removed, in board order of the original jumps.
    pub changes: &'a [JumpChange],
    /// Candidate boards whose mean the search took (by an update of a
    /// solved board, or a fresh solve), each counted once.
    pub evaluated: u64,
    /// Placements of the first level never evaluated: the search takes
    /// its answers in order of preference and stopped at one, and each of
    /// these moves more squares than it (0 unless the search stopped so).
    pub ruled_out: u64,
    /// Seconds the search took (a measurement of this run).
    pub seconds: f64,
    /// The file the tuned board was written to (`-o`), if any.
    pub written_to: Option<String>,
    /// The tuned board, as the board file holds it.
    pub board_file: &'a BoardSpec,
}

/// `generate --format json`.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Generate<'a> {
    /// The generated board.
    pub board: BoardId,
    /// The seed of the generator.
    pub seed: Seed,
    /// The search for a band of mean turns (`--target-turns`), if one ran.
    pub search: Option<Search>,
    /// The file the board was written to (`-o`), if not standard output.
    pub written_to: Option<String>,
    /// The generated board, as the board file holds it.
    pub board_file: &'a BoardSpec,
}

/// What `generate --target-turns` found.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Search {
    /// The band of mean turns (and the cap of the first-seat advantage)
    /// asked for.
    pub target: Target,
    /// The board's mean turns, from a fresh solve.
    pub mean_turns: f64,
    /// Its P(seat 1 wins) − P(seat 2 wins) with two players, when the
    /// target caps it.
    pub first_seat_advantage: Option<f64>,
    /// The random start (0-based) the board came from.
    pub restart: u32,
    /// Local moves made from it.
    pub steps: usize,
    /// Candidate boards whose mean the search took (by an update of a
    /// solved board, or a fresh solve), over every start run (the starts
    /// run eight at a time; those beside the one that succeeds count what
    /// they evaluated before they stopped, which depends on the threads).
    pub evaluated: u64,
    /// Seconds the search took (a measurement of this run).
    pub seconds: f64,
}

/// `play --format json` (and `play --replay FILE --format json`).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Play<'a> {
    /// The board played.
    pub board: BoardId,
    /// Whether the seed was drawn at random (no `--seed` given).
    pub seed_drawn: bool,
    /// Rolls played.
    pub rolls: u64,
    /// Why the game stopped before its end (`--max-turns`, standard input
    /// closed), or `null` when it ran to its end.
    pub stopped: Option<String>,
    /// The game: every roll, the status and the ranking, as `play --record`
    /// writes it (`play --replay` reads this object).
    pub game: &'a GameRecord,
    /// With `--odds`, the odds between turns, one entry per line the text
    /// transcript prints; `null` without `--odds`.
    pub odds: Option<&'a [OddsLine]>,
}

/// One line of `play --odds`, as `play --odds --format json` lists it:
/// each player's exact chance of winning from where the tokens stood.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct OddsLine {
    /// Rolls played when the odds were taken (0: before the first roll).
    pub rolls: u64,
    /// Each player's probability of winning, in seat order; `null` for a
    /// player no longer in the turn order, and every entry `null` when the
    /// odds were not computed (see `undecided`).
    pub win: Vec<Option<f64>>,
    /// The probability that the race was still undecided after the turns
    /// followed: below 1e-9 the odds are exact to print; above it they are
    /// lower bounds; at 0.5 or more they were not computed, and no later
    /// line is listed.
    pub undecided: f64,
    /// Turns of every player's distribution followed.
    pub turns_followed: u64,
}
