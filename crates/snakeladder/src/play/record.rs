//! The replayable record of a game, as JSON.
//!
//! A record holds the board (as its spec, every rule filled in), the players,
//! when the game stops, the seed when the dice had one, and every event in
//! order: each roll's [`RollResult`] and each forfeit. [`GameRecord::replay`]
//! plays the game again, from the seed or from the recorded rolls, and checks
//! that every turn comes out identical.

use crate::model::error::{FileWords, explain, must_be as board_must_be};
use crate::play::error::GameError;
use crate::play::game::{Event, Finish, Game, RollResult, Standing, Status};
use crate::play::roller::{Roller, ScriptedDice, SeededDice};
use crate::{Board, BoardSpec, Seed};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The record format this crate writes and reads.
pub(crate) const RECORD_FORMAT: u32 = 1;

/// Largest record `play --replay` reads, and so the largest `play --record`
/// writes: 1 GiB, a board file at its cap plus some 2.5 million rolls of a
/// few hundred bytes each. A game whose record would be larger is refused
/// before writing, so every record written can be replayed.
pub(crate) const MAX_RECORD_BYTES: u64 = 1 << 30;

impl GameRecord {
    /// The record format this crate writes and reads.
    pub const FORMAT: u32 = RECORD_FORMAT;

    /// Largest record `play --replay` reads, and so the largest `play
    /// --record` writes: 1 GiB. A game whose record would be larger is
    /// refused before writing, so every record written can be replayed.
    pub const MAX_BYTES: u64 = MAX_RECORD_BYTES;
}

/// Parses a record, with errors in the record's words: the field and what
/// it must be, never a Rust type (as a board file's errors).
fn parse_record(json: &str) -> Result<GameRecord, GameError> {
    let located = |e: &serde_json::Error, explained: &dyn Fn(String) -> String| {
        let (message, line, column) = crate::model::error::json_error(e, json.as_bytes());
        GameError::RecordJson {
            line,
            column,
            message: explained(message),
        }
    };
    let mut de = serde_json::Deserializer::from_str(json);
    let record: GameRecord = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = crate::model::error::known_path(e.path());
        located(e.inner(), &|message| explain(&path, &message, &RECORD_FILE))
    })?;
    de.end().map_err(|e| located(&e, &|message| message))?;
    Ok(record)
}

/// The words of a game record, for its errors.
const RECORD_FILE: FileWords = FileWords {
    whole: "a game record",
    must_be: record_must_be,
};

/// What the record field at `path` (`events[3].turn.roll`, `""` for the
/// whole record) must be.
fn record_must_be(path: &str) -> String {
    if let Some(board) = path.strip_prefix("board.") {
        return board_must_be(board);
    }
    let field = path.rsplit('.').next().unwrap_or(path);
    let field = field.split('[').next().unwrap_or(field);
    let indexed = path.ends_with(']');
    match (field, indexed) {
        ("", _) => "a JSON object, as `snakeladder play --record` writes (format, board, players, \
             finish, seed, events, status, ranking)"
            .to_string(),
        ("format", _) => format!("a whole number ({RECORD_FORMAT})"),
        ("board", _) => "a board, as a board file holds".to_string(),
        ("players", false) => "a list of player names".to_string(),
        ("players" | "player" | "next_player" | "winner", _) => "a player name".to_string(),
        ("seed", _) => "a whole number from 0 to 18,446,744,073,709,551,615, or null".to_string(),
        ("events", false) => "a list of events".to_string(),
        ("events", true) => "an event ({\"turn\": {…}} or {\"forfeit\": {…}})".to_string(),
        ("turn" | "seat" | "roll_in_turn" | "after_turn", _) => {
            "a whole number, counted as the record counts".to_string()
        }
        ("roll", _) => "a whole number the dice can roll".to_string(),
        ("start" | "landing" | "end" | "square", _) => "a square of the board".to_string(),
        ("place", _) => "a finishing place (1, 2, …) or null".to_string(),
        ("jumps", false) => "a list of jumps ([from, to] pairs)".to_string(),
        ("jumps", true) => "a [from, to] pair of squares".to_string(),
        ("finished" | "extra_roll", _) => "true or false".to_string(),
        ("status", _) => "an object with a `state`".to_string(),
        ("ranking", false) => "a list of standings".to_string(),
        ("ranking", true) => "a standing (place, player, seat, square, how)".to_string(),
        _ => String::new(),
    }
}

/// A replayed ending against the recorded one, in words: `the record says
/// the game was won by Ana, but replayed it is won by Bo`.
pub(crate) fn ending(recorded: &Status, replayed: &Status) -> String {
    if recorded == replayed {
        format!(
            "the record and the replay agree the game is {replayed}, but the replay ranks the players differently from the record"
        )
    } else {
        format!("the record says the game is {recorded}, but replayed it is {replayed}")
    }
}

/// A square in a sentence: `square 34`, or `the start` off the board.
fn at(s: crate::Square) -> String {
    if s == crate::Square::OFF_BOARD {
        "the start".to_string()
    } else {
        format!("square {s}")
    }
}

/// What a roll did by the rules, in words, from its start to its end:
/// `a 5 from square 29 reaches square 34, then the ladder to square 38`.
fn path(r: &RollResult) -> String {
    use crate::model::movement::Blocked;
    let head = format!("a {} from {}", r.roll(), at(r.start()));
    let mut words = match r.blocked() {
        Some(Blocked::Entry) => {
            format!("{head} does not bring the token onto the board (the entry rule)")
        }
        Some(Blocked::Overshoot) => {
            format!("{head} does not move the token (it would pass the last square)")
        }
        Some(Blocked::Forfeit) => format!("{head} is forfeited (too many extra rolls in a row)"),
        None if u64::from(r.landing().get())
            == u64::from(r.start().get()) + u64::from(r.roll()) =>
        {
            format!("{head} reaches {}", at(r.landing()))
        }
        None => format!("{head} ends on {} (the overshoot rule)", at(r.landing())),
    };
    for jump in r.jumps() {
        words.push_str(&format!(", then the {} to {}", jump.kind(), at(jump.to())));
    }
    words
}

/// A replayed roll against the recorded one, in words: `roll 12 (Ana's
/// turn): the record says Ana rolled 5 and moved from square 29 to square
/// 34, but by the board's rules a 5 from square 29 reaches square 34, then
/// the ladder to square 38`. Squares are named `square N` and a roll `a
/// N`, so the two never read as each other.
pub(crate) fn divergence(recorded: &RollResult, replayed: &RollResult) -> String {
    let player = recorded.player();
    let head = format!("roll {} ({player}'s turn)", recorded.number());
    let says = if recorded.start() == recorded.end() {
        format!(
            "the record says {player} rolled {} and stayed on {}",
            recorded.roll(),
            at(recorded.start())
        )
    } else {
        format!(
            "the record says {player} rolled {} and moved from {} to {}",
            recorded.roll(),
            at(recorded.start()),
            at(recorded.end())
        )
    };
    if recorded.roll() != replayed.roll() {
        return format!(
            // Replayed rolls differ only where the record's seed makes
            // them: without a seed the recorded rolls are replayed.
            "{head}: {says}, but the record's seed rolls a {} here, and {}",
            replayed.roll(),
            path(replayed)
        );
    }
    if recorded.end() != replayed.end() || recorded.start() != replayed.start() {
        return format!(
            "{head}: {says}, but by the board's rules {}",
            path(replayed)
        );
    }
    let mut differ = Vec::new();
    let fields: [(&str, bool); 10] = [
        ("the roll number", recorded.number() != replayed.number()),
        ("the player", recorded.player() != replayed.player()),
        ("the seat", recorded.seat() != replayed.seat()),
        (
            "the roll's place in the turn",
            recorded.roll_in_turn() != replayed.roll_in_turn(),
        ),
        ("the start square", recorded.start() != replayed.start()),
        (
            "the landing square",
            recorded.landing() != replayed.landing(),
        ),
        ("the jumps taken", recorded.jumps() != replayed.jumps()),
        (
            "why the token did not move",
            recorded.blocked() != replayed.blocked(),
        ),
        (
            "the finishing place",
            recorded.place() != replayed.place() || recorded.finished() != replayed.finished(),
        ),
        (
            "who rolls next",
            recorded.extra_roll() != replayed.extra_roll()
                || recorded.next_player() != replayed.next_player(),
        ),
    ];
    for (name, differs) in fields {
        if differs {
            differ.push(name);
        }
    }
    format!(
        "{head}: the record and the replay agree that {player} rolled {} and ended on {}, but differ in {}",
        recorded.roll(),
        at(recorded.end()),
        differ.join(", ")
    )
}

/// Everything needed to play a game again, and what happened in it.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, GameRecord, Seed};
/// use std::sync::Arc;
/// let board = Arc::new(Board::builtin_default());
/// let mut game = Game::seeded(board, ["Ana", "Bo"], Seed::new(42), Finish::FirstWinner)?;
/// game.play_out(10_000)?;
/// let json = game.record().to_json();
/// let replayed = GameRecord::from_json(&json)?.replay()?;
/// assert_eq!(replayed.history(), game.history());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// [`GameRecord::FORMAT`](crate::GameRecord::FORMAT) when written.
    pub format: u32,
    /// The board, every rule filled in.
    // `GameRecord::board` validates it.
    #[doc(hidden)]
    pub board: BoardSpec,
    /// The players in seat order.
    pub players: Vec<String>,
    /// When the game stops.
    pub finish: Finish,
    /// The seed of the board's dice, when the game was played with them.
    pub seed: Option<Seed>,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// The status when recorded.
    pub status: Status,
    /// The ranking when recorded.
    pub ranking: Vec<Standing>,
}

impl GameRecord {
    pub(crate) fn new(
        board: BoardSpec,
        players: Vec<String>,
        finish: Finish,
        seed: Option<Seed>,
        events: Vec<Event>,
        status: Status,
        ranking: Vec<Standing>,
    ) -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT,
            board,
            players,
            finish,
            seed,
            events,
            status,
            ranking,
        }
    }

    /// The record as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// Reads a record.
    ///
    /// # Errors
    /// [`GameError::RecordJson`] for malformed JSON or a wrong shape (naming
    /// the field and what it must be),
    /// [`GameError::RecordFormat`] for another format version.
    pub fn from_json(json: &str) -> Result<GameRecord, GameError> {
        let record = parse_record(json)?;
        if record.format != RECORD_FORMAT {
            return Err(GameError::RecordFormat {
                found: record.format,
            });
        }
        Ok(record)
    }

    /// The recorded board, validated.
    ///
    /// # Errors
    /// [`GameError::RecordBoard`] when the recorded board is invalid.
    pub fn board(&self) -> Result<Board, GameError> {
        Board::validate_spec(&self.board).map_err(|problems| GameError::RecordBoard { problems })
    }

    /// Every roll of the game, in order.
    pub fn rolls(&self) -> Vec<u32> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Roll(t) => Some(t.roll()),
                Event::Forfeit { .. } => None,
            })
            .collect()
    }

    /// Plays the game again (from the seed when there is one, else from the
    /// recorded rolls) and checks every event against the record.
    ///
    /// # Errors
    /// [`GameError`] naming the first event that does not replay.
    pub fn replay(&self) -> Result<Game<Box<dyn Roller + Send>>, GameError> {
        let board = self.board()?;
        let dice: Box<dyn Roller + Send> = match self.seed {
            Some(seed) => Box::new(SeededDice::for_dice(board.rules().dice(), seed)),
            None => Box::new(ScriptedDice::new(self.rolls())),
        };
        self.replay_with(Arc::new(board), dice)
    }

    /// Plays the game again from the recorded rolls alone, ignoring the seed.
    ///
    /// # Errors
    /// As [`GameRecord::replay`].
    pub fn replay_rolls(&self) -> Result<Game<Box<dyn Roller + Send>>, GameError> {
        let board = self.board()?;
        self.replay_with(Arc::new(board), Box::new(ScriptedDice::new(self.rolls())))
    }

    fn replay_with(
        &self,
        board: Arc<Board>,
        dice: Box<dyn Roller + Send>,
    ) -> Result<Game<Box<dyn Roller + Send>>, GameError> {
        let mut game = Game::new(board, self.players.iter().cloned(), dice, self.finish).map_err(
            |source| GameError::Replay {
                event: 0,
                source: Box::new(source),
            },
        )?;
        for (event, e) in self.events.iter().enumerate() {
            match e {
                Event::Roll(recorded) => {
                    let replayed = game.roll().map_err(|source| GameError::Replay {
                        event,
                        source: Box::new(source),
                    })?;
                    if &replayed != recorded {
                        return Err(GameError::Diverged {
                            event,
                            recorded: Box::new(recorded.clone()),
                            replayed: Box::new(replayed),
                        });
                    }
                }
                Event::Forfeit {
                    players,
                    after_turn,
                } => {
                    if *after_turn != game.rolls_played() {
                        return Err(GameError::ForfeitMisplaced {
                            event,
                            recorded: *after_turn,
                            replayed: game.rolls_played(),
                        });
                    }
                    let names: Vec<&str> = players.iter().map(String::as_str).collect();
                    game.forfeit_all(&names)
                        .map_err(|source| GameError::Replay {
                            event,
                            source: Box::new(source),
                        })?;
                }
            }
        }
        if game.status() != &self.status || game.ranking() != self.ranking {
            return Err(GameError::Ending {
                recorded: self.status.clone(),
                replayed: game.status().clone(),
            });
        }
        Ok(game)
    }
}
impl<R: Roller> Game<R> {
    /// The replayable record of the game so far.
    pub fn record(&self) -> GameRecord {
        GameRecord::new(
            self.board().spec(),
            self.players().to_vec(),
            self.finish(),
            self.dice().seed(),
            self.history().to_vec(),
            self.status().clone(),
            self.ranking(),
        )
    }
}
