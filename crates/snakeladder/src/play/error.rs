//! Why a game refuses a request, and the check of a list of player ids
//! that every way of seating players goes through.

use crate::model::limits::MAX_PLAYERS;
use crate::model::problem::Problem;
use crate::play::game::{RollResult, Status};

/// Longest player id, in characters; ids are printed in every move line.
pub(crate) const MAX_PLAYER_ID_CHARS: usize = 64;

impl GameError {
    /// Longest player id, in characters; ids are printed in every move
    /// line.
    pub const MAX_PLAYER_ID_CHARS: usize = MAX_PLAYER_ID_CHARS;
}

/// Why a game refused a request, or a game record could not be replayed.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, GameError, GameRecord, Seed};
/// use std::sync::Arc;
///
/// let board = Arc::new(Board::builtin_default());
/// let mut game = Game::seeded(board, ["Ana", "Bo"], Seed::new(1), Finish::FirstWinner)?;
/// assert_eq!(game.roll_as("Bo"), Err(GameError::NotYourTurn { player: "Bo".into(), current: "Ana".into() }));
/// // A record of another format is refused before it is replayed.
/// let record = game.record().to_json().replace("\"format\": 1", "\"format\": 9");
/// assert!(matches!(GameRecord::from_json(&record), Err(GameError::RecordFormat { found: 9 })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// Fewer than two players.
    #[error("a game needs at least 2 players, got {count}")]
    TooFewPlayers {
        /// Players given.
        count: usize,
    },
    /// More than [`Board::MAX_PLAYERS`](crate::Board::MAX_PLAYERS) players.
    #[error("a game takes at most {max} players, got {count}")]
    TooManyPlayers {
        /// Players given.
        count: usize,
        /// The cap, [`Board::MAX_PLAYERS`](crate::Board::MAX_PLAYERS).
        max: usize,
    },
    /// A player id that is empty or only white space.
    #[error("player {seat} has an empty id")]
    EmptyPlayerId {
        /// The seat (1-based).
        seat: usize,
    },
    /// A player id with a control character (a newline would break every
    /// transcript line it is printed in).
    #[error(
        "player {seat}'s id {} has {}, which {} not allowed in a player id",
        shown_id(player),
        if hidden.count == 1 { format!("the character {hidden}") } else { format!("{} characters: {hidden}", hidden.count) },
        if hidden.count == 1 { "is" } else { "are" }
    )]
    PlayerIdControl {
        /// The seat (1-based).
        seat: usize,
        /// The id.
        player: String,
        /// The first such character ([`Problem::hidden_character`](crate::Problem::hidden_character)).
        code_point: u32,
        /// Every such character, with its positions.
        hidden: crate::HiddenCharacters,
    },
    /// A player id longer than [`GameError::MAX_PLAYER_ID_CHARS`](crate::GameError::MAX_PLAYER_ID_CHARS).
    #[error("player id {} is longer than {max} characters", shown_id(player))]
    PlayerIdTooLong {
        /// The id.
        player: String,
        /// The cap.
        max: usize,
    },
    /// Two players with one id.
    #[error("player id {player:?} is used twice")]
    DuplicatePlayer {
        /// The id.
        player: String,
    },
    /// No such player at this table.
    #[error("no player {player:?} at this table")]
    UnknownPlayer {
        /// The id asked for.
        player: String,
    },
    /// A roll or forfeit after the game ended.
    #[error("the game is over")]
    GameOver,
    /// A roll by a player whose turn it is not.
    #[error("it is {current}'s turn, not {player}'s")]
    NotYourTurn {
        /// Who asked.
        player: String,
        /// Whose turn it is.
        current: String,
    },
    /// A roll by a player who has left the game.
    #[error("{player} has forfeited and rolls no more")]
    Forfeited {
        /// Who asked.
        player: String,
    },
    /// A forfeit by a player who already finished (playing to the last).
    #[error("{player} has already finished")]
    AlreadyFinished {
        /// Who asked.
        player: String,
    },
    /// The dice could not give a usable roll (the game did not change): a
    /// scripted die ran out of rolls.
    #[error("the scripted dice ran out after {rolled} rolls")]
    Exhausted {
        /// How many rolls it had handed out.
        rolled: usize,
    },
    /// A roll the board's dice cannot make (a scripted 7 on one six-faced die).
    #[error("a roll of {roll} is impossible with these dice ({min}..={max})")]
    Impossible {
        /// The roll.
        roll: u32,
        /// The dice's smallest total.
        min: u32,
        /// The dice's largest total.
        max: u32,
    },
    /// Dice that board validation would refuse (no die, a die of fewer
    /// than two faces, unusable weights): the problems it names.
    #[error("cannot make these dice: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    BadDice {
        /// What validation found.
        problems: Vec<Problem>,
    },
    /// A game record that is not JSON of the expected shape. The message names the
    /// field and what it must be, in the record's words.
    #[error("not a game record: line {line}, column {column}: {message}")]
    RecordJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What is wrong, naming the field (`events[3].turn.roll`).
        message: String,
    },
    /// A game record of a format this version does not read.
    #[error(
        "record format {found} is not supported (this version reads {})",
        crate::play::record::RECORD_FORMAT
    )]
    RecordFormat {
        /// The record's format.
        found: u32,
    },
    /// The board of a game record is invalid: the problems validation
    /// found.
    #[error("{}", crate::model::error::summary(problems))]
    RecordBoard {
        /// Every problem found, in file order.
        problems: Vec<Problem>,
    },
    /// The replayed game refused a recorded event.
    #[error("event {}: {source}", event + 1)]
    Replay {
        /// The event's index (0-based; messages count from 1).
        event: usize,
        /// The refusal.
        source: Box<GameError>,
    },
    /// A replayed roll of a game record differs from the recorded one.
    #[error("{}", crate::play::record::divergence(recorded, replayed))]
    Diverged {
        /// The event's index (0-based; messages name the turn, from 1).
        event: usize,
        /// What the record says.
        recorded: Box<RollResult>,
        /// What the replay did.
        replayed: Box<RollResult>,
    },
    /// A forfeit event was recorded after a different number of turns.
    #[error(
        "event {}: the record has players leaving after roll {recorded}, but the replay reaches that event after roll {replayed}", event + 1
    )]
    ForfeitMisplaced {
        /// The event's index (0-based; messages count from 1).
        event: usize,
        /// The turn the record names.
        recorded: u64,
        /// The turn the replay had reached.
        replayed: u64,
    },
    /// The replay ends with another status or ranking than the record.
    #[error("{}", crate::play::record::ending(recorded, replayed))]
    Ending {
        /// What the record says.
        recorded: Status,
        /// What the replay reached.
        replayed: Status,
    },
    /// The game was still going after the turn limit.
    #[error("the game did not end within {limit} rolls")]
    TurnLimit {
        /// The limit.
        limit: u64,
    },
}

/// Checks a list of player ids: 2..=[`Board::MAX_PLAYERS`](crate::Board::MAX_PLAYERS) of them, each non-empty,
/// without control characters, at most [`GameError::MAX_PLAYER_ID_CHARS`](crate::GameError::MAX_PLAYER_ID_CHARS) long, no two
/// alike.
///
/// # Errors
/// The first problem found, as a [`GameError`].
///
/// # Example
/// ```
/// use snakeladder::GameError;
/// use snakeladder::internals::check_players;
/// assert!(check_players(&["Ana", "Bo"]).is_ok());
/// assert_eq!(check_players(&["Ana", "Ana"]), Err(GameError::DuplicatePlayer { player: "Ana".into() }));
/// ```
pub fn check_players<S: AsRef<str>>(players: &[S]) -> Result<(), GameError> {
    let count = players.len();
    if count < 2 {
        return Err(GameError::TooFewPlayers { count });
    }
    if count > MAX_PLAYERS {
        return Err(GameError::TooManyPlayers {
            count,
            max: MAX_PLAYERS,
        });
    }
    for (i, p) in players.iter().enumerate() {
        let p = p.as_ref();
        if p.trim().is_empty() {
            return Err(GameError::EmptyPlayerId { seat: i + 1 });
        }
        if let Some(hidden) = crate::HiddenCharacters::of(p) {
            return Err(GameError::PlayerIdControl {
                seat: i + 1,
                player: p.to_string(),
                code_point: hidden.first(),
                hidden,
            });
        }
        if p.chars().count() > MAX_PLAYER_ID_CHARS {
            return Err(GameError::PlayerIdTooLong {
                player: p.to_string(),
                max: MAX_PLAYER_ID_CHARS,
            });
        }
        if players[..i].iter().any(|q| q.as_ref() == p) {
            return Err(GameError::DuplicatePlayer {
                player: p.to_string(),
            });
        }
    }
    Ok(())
}

/// A refused player id as its message quotes it: its first
/// [`MAX_PLAYER_ID_CHARS`] characters, quoted and escaped as Rust's `{:?}`
/// does, and `…` when there are more, so an id of a megabyte makes a short
/// message.
fn shown_id(player: &str) -> String {
    match player.char_indices().nth(MAX_PLAYER_ID_CHARS) {
        None => format!("{player:?}"),
        Some((cut, _)) => format!("{:?}…", &player[..cut]),
    }
}
