//! Online play: one game of the core's [`Game`] engine served to many
//! clients, and many games served at once. The core plays one game on one
//! thread; sharing it between requests is a server's concern, so it lives
//! here.
//!
//! A [`Table`] holds its [`Game`] behind a mutex, so a request's checks and
//! the roll it makes are one step no other request can split, and readers
//! see a turn all or nothing. Each request names the roll number the client
//! last saw, so a double tap or a retry rolls at most once. The server rolls,
//! never the client. A [`Registry`] keys tables by [`GameId`].

use serde::{Deserialize, Serialize};
use snakeladder::{Game, GameError, GameRecord, RollResult, Roller, Square, Standing, Status};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

/// The answer to a roll request. A stale or out-of-turn request is normal
/// traffic (a double tap, a retry), so it is an answer, not an error.
/// `roll_number` is always the table's count of rolls played after the
/// request, so a client that was turned away knows where the game is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollAnswer {
    /// The roll was played.
    Ok {
        /// What it did.
        result: RollResult,
        /// The roll number now.
        roll_number: u64,
    },
    /// The client had not seen the latest turn.
    Stale {
        /// The roll number now.
        roll_number: u64,
    },
    /// Another player is to roll (or the asker left, or is no player here).
    NotYourTurn {
        /// The roll number now.
        roll_number: u64,
    },
    /// The game has ended.
    GameOver {
        /// The roll number now.
        roll_number: u64,
    },
}

/// What a reader sees of a table: one consistent moment between turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Snapshot {
    /// Rolls played.
    pub roll_number: u64,
    /// Who rolls next; `None` when the game is over.
    pub current: Option<String>,
    /// Every player and their square, in seat order.
    pub positions: Vec<(String, Square)>,
    /// The status.
    pub status: Status,
    /// The ranking now.
    pub ranking: Vec<Standing>,
}

/// One game served to many clients; share it with an `Arc`.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, Seed};
/// use snakeladder_serve::table::{RollAnswer, Table};
/// use std::sync::Arc;
/// let board = Arc::new(Board::builtin_default());
/// let table = Table::new(Game::seeded(board, ["Ana", "Bo"], Seed::new(3), Finish::FirstWinner)?);
/// let RollAnswer::Ok { roll_number, .. } = table.roll("Ana", 0)? else { panic!() };
/// assert_eq!(roll_number, 1);
/// // A retry of the same request is stale; it does not roll again.
/// assert_eq!(table.roll("Ana", 0)?, RollAnswer::Stale { roll_number: 1 });
/// assert_eq!(table.snapshot().roll_number, 1);
/// # Ok::<(), snakeladder::GameError>(())
/// ```
pub struct Table<R> {
    game: Mutex<Game<R>>,
}

impl<R> fmt::Debug for Table<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table").finish_non_exhaustive()
    }
}

impl<R: Roller> Table<R> {
    /// A table serving `game`; only the table holds it from now on.
    pub fn new(game: Game<R>) -> Table<R> {
        Table {
            game: Mutex::new(game),
        }
    }

    /// The game, under the lock. A panic in an observer poisons the mutex
    /// after the game's state is complete (observers run last), so the game
    /// is still consistent and the lock is taken back.
    fn lock(&self) -> MutexGuard<'_, Game<R>> {
        self.game.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A roll request from `player`, who last saw roll number `seen`.
    ///
    /// Checked in order under one lock: a `seen` other than the current roll
    /// number is stale; then the game may be over; then it must be the
    /// player's turn; then the server rolls.
    ///
    /// # Errors
    /// Only when the dice fail ([`GameError::Exhausted`], [`GameError::Impossible`]); the game does not change.
    pub fn roll(&self, player: &str, seen: u64) -> Result<RollAnswer, GameError> {
        let mut game = self.lock();
        let roll_number = game.rolls_played();
        if seen != roll_number {
            return Ok(RollAnswer::Stale { roll_number });
        }
        if game.status().is_over() {
            return Ok(RollAnswer::GameOver { roll_number });
        }
        if game.current() != Some(player) {
            return Ok(RollAnswer::NotYourTurn { roll_number });
        }
        let result = game.roll()?;
        Ok(RollAnswer::Ok {
            result,
            roll_number: game.rolls_played(),
        })
    }

    /// Players leave at once; see [`Game::forfeit_all`].
    ///
    /// # Errors
    /// As [`Game::forfeit_all`].
    pub fn forfeit(&self, players: &[&str]) -> Result<bool, GameError> {
        self.lock().forfeit_all(players)
    }

    /// Positions, whose turn, status and roll number at one moment.
    pub fn snapshot(&self) -> Snapshot {
        let game = self.lock();
        Snapshot {
            roll_number: game.rolls_played(),
            current: game.current().map(str::to_string),
            positions: game
                .players()
                .iter()
                .cloned()
                .zip(game.positions().iter().copied())
                .collect(),
            status: game.status().clone(),
            ranking: game.ranking(),
        }
    }

    /// The record of the game so far.
    pub fn record(&self) -> GameRecord {
        self.lock().record()
    }
}

/// The key of a table in a [`Registry`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GameId(pub u64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Why a registry refused a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// A table with this id is already open.
    #[error("game {id} is already open")]
    Taken {
        /// The id.
        id: GameId,
    },
}

/// Shards of the registry: requests for different games rarely wait on one
/// another's map lock. A power of two well above the core counts we serve.
const SHARDS: usize = 64;

/// Many tables keyed by game id, safe to share between threads.
///
/// The map lock is held only to find a table; play then goes through that
/// table's own lock, so games never wait on each other.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, Seed};
/// use snakeladder_serve::table::{GameId, Registry};
/// use std::sync::Arc;
/// let board = Arc::new(Board::builtin_default());
/// let registry = Registry::new();
/// let game = Game::seeded(board.clone(), ["Ana", "Bo"], Seed::new(1), Finish::FirstWinner)?;
/// registry.open(GameId(7), game).unwrap();
/// assert!(registry.get(GameId(7)).is_some());
/// assert_eq!(registry.len(), 1);
/// # Ok::<(), snakeladder::GameError>(())
/// ```
pub struct Registry<R> {
    shards: Vec<RwLock<HashMap<GameId, Arc<Table<R>>>>>,
}

impl<R> fmt::Debug for Registry<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry").finish_non_exhaustive()
    }
}

impl<R: Roller> Default for Registry<R> {
    fn default() -> Self {
        Registry::new()
    }
}

impl<R: Roller> Registry<R> {
    /// An empty registry.
    pub fn new() -> Registry<R> {
        Registry {
            shards: (0..SHARDS).map(|_| RwLock::new(HashMap::new())).collect(),
        }
    }

    fn shard(&self, id: GameId) -> &RwLock<HashMap<GameId, Arc<Table<R>>>> {
        &self.shards[(id.0 % SHARDS as u64) as usize]
    }

    /// Opens a table for `game` under `id`.
    ///
    /// # Errors
    /// [`RegistryError::Taken`] when `id` is in use; the game is dropped.
    pub fn open(&self, id: GameId, game: Game<R>) -> Result<Arc<Table<R>>, RegistryError> {
        let mut map = self
            .shard(id)
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if map.contains_key(&id) {
            return Err(RegistryError::Taken { id });
        }
        let table = Arc::new(Table::new(game));
        map.insert(id, Arc::clone(&table));
        Ok(table)
    }

    /// The table of `id`, if open.
    pub fn get(&self, id: GameId) -> Option<Arc<Table<R>>> {
        self.shard(id)
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .cloned()
    }

    /// Closes the table of `id`, giving it back; clients holding it may
    /// still read it.
    pub fn close(&self, id: GameId) -> Option<Arc<Table<R>>> {
        self.shard(id)
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id)
    }

    /// Open tables.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.read().unwrap_or_else(PoisonError::into_inner).len())
            .sum()
    }

    /// Whether no table is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The ids of the open tables, in increasing order.
    pub fn ids(&self) -> Vec<GameId> {
        let mut ids: Vec<GameId> = self
            .shards
            .iter()
            .flat_map(|s| {
                s.read()
                    .unwrap_or_else(PoisonError::into_inner)
                    .keys()
                    .copied()
                    .collect::<Vec<_>>()
            })
            .collect();
        ids.sort();
        ids
    }
}
