//! The replayable record of a game, as JSON.
//!
//! A record holds the board (as its spec, every rule filled in), the players,
//! when the game stops, the seed when the dice had one, and every event in
//! order: each roll's [`RollResult`] and each forfeit. [`GameRecord::replay`]
//! plays the game again, from the seed or from the recorded rolls, and checks
//! that every turn comes out identical.

use crate::play::game::{Event, Finish, Game, GameError, RollResult, Standing, Status};
use crate::play::roller::{Roller, ScriptedDice, SeededDice};
use crate::{Board, BoardError, BoardSpec, Seed};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The record format this crate writes and reads.
pub const RECORD_FORMAT: u32 = 1;

/// Why a record could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The record is not JSON of the expected shape.
    #[error("not a game record: {0}")]
    Json(#[from] serde_json::Error),
    /// A format this version does not read.
    #[error("record format {found} is not supported (this version reads {RECORD_FORMAT})")]
    Format {
        /// The record's format.
        found: u32,
    },
    /// The recorded board is invalid.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The game refused a recorded event.
    #[error("event {event}: {source}")]
    Game {
        /// The event's index (0-based).
        event: usize,
        /// The refusal.
        source: GameError,
    },
    /// A replayed turn differs from the recorded one.
    #[error(
        "event {event}: the replay diverges from the record (recorded {recorded:?}, replayed {replayed:?})"
    )]
    Diverged {
        /// The event's index (0-based).
        event: usize,
        /// What the record says.
        recorded: Box<RollResult>,
        /// What the replay did.
        replayed: Box<RollResult>,
    },
    /// A forfeit event was recorded after a different number of turns.
    #[error(
        "event {event}: forfeit recorded after turn {recorded}, replayed after turn {replayed}"
    )]
    ForfeitMisplaced {
        /// The event's index (0-based).
        event: usize,
        /// The turn the record names.
        recorded: u64,
        /// The turn the replay had reached.
        replayed: u64,
    },
    /// The replay ends with another status or ranking than the record.
    #[error("the replay ends as {replayed:?}, the record as {recorded:?}")]
    Ending {
        /// What the record says.
        recorded: Status,
        /// What the replay reached.
        replayed: Status,
    },
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// [`RECORD_FORMAT`] when written.
    pub format: u32,
    /// The board, every rule filled in.
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
    /// [`ReplayError::Json`] for malformed JSON or a wrong shape,
    /// [`ReplayError::Format`] for another format version.
    pub fn from_json(json: &str) -> Result<GameRecord, ReplayError> {
        let record: GameRecord = serde_json::from_str(json)?;
        if record.format != RECORD_FORMAT {
            return Err(ReplayError::Format {
                found: record.format,
            });
        }
        Ok(record)
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
    /// [`ReplayError`] naming the first event that does not replay.
    pub fn replay(&self) -> Result<Game<Box<dyn Roller + Send>>, ReplayError> {
        let board = Board::from_spec(&self.board)?;
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
    pub fn replay_rolls(&self) -> Result<Game<Box<dyn Roller + Send>>, ReplayError> {
        let board = Board::from_spec(&self.board)?;
        self.replay_with(Arc::new(board), Box::new(ScriptedDice::new(self.rolls())))
    }

    fn replay_with(
        &self,
        board: Arc<Board>,
        dice: Box<dyn Roller + Send>,
    ) -> Result<Game<Box<dyn Roller + Send>>, ReplayError> {
        let mut game = Game::new(board, self.players.iter().cloned(), dice, self.finish)
            .map_err(|source| ReplayError::Game { event: 0, source })?;
        for (event, e) in self.events.iter().enumerate() {
            match e {
                Event::Roll(recorded) => {
                    let replayed = game
                        .roll()
                        .map_err(|source| ReplayError::Game { event, source })?;
                    if &replayed != recorded {
                        return Err(ReplayError::Diverged {
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
                        return Err(ReplayError::ForfeitMisplaced {
                            event,
                            recorded: *after_turn,
                            replayed: game.rolls_played(),
                        });
                    }
                    let names: Vec<&str> = players.iter().map(String::as_str).collect();
                    game.forfeit_all(&names)
                        .map_err(|source| ReplayError::Game { event, source })?;
                }
            }
        }
        if game.status() != &self.status || game.ranking() != self.ranking {
            return Err(ReplayError::Ending {
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
