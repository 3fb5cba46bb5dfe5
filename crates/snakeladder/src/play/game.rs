//! One game at one table: players in seat order, their squares, whose turn
//! it is, and the result of every roll.
//!
//! A [`Game`] is a single-threaded rules engine. It is handed its dice (a
//! [`Roller`]) and never makes randomness of its own; each
//! [`Game::roll`] is one roll, played through [`Board::play_roll`], the
//! only place the rules of movement live. Online play wraps a game in the
//! server's `Table` (`snakeladder_serve::table`).

use crate::model::movement::Blocked;
use crate::play::error::{GameError, check_players};
use crate::play::roller::{Roller, SeededDice};
use crate::{Board, Jump, Seed, Square};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// When the game stops.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Finish, Game, Placing, ScriptedDice, Status};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(r#"{"squares": 4}"#)?);
let players = ["Ana", "Bo", "Cy"];
let mut game = Game::new(board, players, ScriptedDice::new([4, 4]), Finish::ToLast)?;
game.roll()?; // Ana finishes; Bo and Cy play on.
assert!(!game.status().is_over());
game.roll()?; // Bo finishes; Cy is the last one left.
assert_eq!(game.status(), &Status::Won { winner: "Ana".into() });
assert_eq!(game.ranking()[2].how, Placing::LastLeft);
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The first player to reach the last square wins and the game stops.
    #[default]
    FirstWinner,
    /// Finished players leave the turn order and the others play on; the
    /// last one left takes last place.
    ToLast,
}

/// Whether the game is still being played.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Finish, Game, ScriptedDice, Status};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(r#"{"squares": 4}"#)?);
let mut game = Game::new(board, ["Ana", "Bo"], ScriptedDice::new([4]), Finish::FirstWinner)?;
assert_eq!(game.status(), &Status::InProgress);
game.roll()?;
assert_eq!(game.status(), &Status::Won { winner: "Ana".into() });
assert!(game.status().is_over());
assert_eq!(game.status().to_string(), "won by Ana");
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Someone still has a roll to make.
    InProgress,
    /// The game is over and has a winner.
    Won {
        /// The player in first place.
        winner: String,
    },
    /// Every player left before anyone won.
    Aborted,
}

impl fmt::Display for Status {
    /// In words: `in progress`, `won by Bo`, `aborted (every player left)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::InProgress => f.write_str("in progress"),
            Status::Won { winner } => write!(f, "won by {winner}"),
            Status::Aborted => f.write_str("aborted (every player left)"),
        }
    }
}

impl Status {
    /// Whether the game is over (won or aborted).
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::InProgress)
    }
}

/// What one roll did: the answer of [`Game::roll`]. A copy; the game
/// keeps its own in its history.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Board, Finish, Game, ScriptedDice, Square};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(SMALL)?);
let mut game = Game::new(board, ["Ana", "Bo"], ScriptedDice::new([3]), Finish::FirstWinner)?;
let roll = game.roll()?;
assert_eq!((roll.number(), roll.player(), roll.seat(), roll.roll()), (1, "Ana", 0, 3));
assert_eq!((roll.landing(), roll.end()), (Square::new(3), Square::new(11)));
assert_eq!(roll.jumps().len(), 1);
assert_eq!(roll.next_player(), Some("Bo"));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RollResult {
    #[serde(rename = "turn")]
    number: u64,
    player: String,
    seat: usize,
    roll_in_turn: u32,
    roll: u32,
    start: Square,
    landing: Square,
    #[serde(with = "crate::play::game::jump_list")]
    #[cfg_attr(
        feature = "schema",
        schemars(with = "Vec<crate::play::game::jump_list::Pair>")
    )]
    jumps: Vec<Jump>,
    end: Square,
    blocked: Option<Blocked>,
    finished: bool,
    place: Option<usize>,
    extra_roll: bool,
    next_player: Option<String>,
}

impl RollResult {
    /// The roll number: 1 for the game's first roll, counting every roll,
    /// extra rolls included.
    pub fn number(&self) -> u64 {
        self.number
    }
    /// Who rolled.
    pub fn player(&self) -> &str {
        &self.player
    }
    /// Their seat, 0-based in seat order.
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// Which roll of the player's turn this was: 1, or more after bonus rolls.
    pub fn roll_in_turn(&self) -> u32 {
        self.roll_in_turn
    }
    /// The dice total.
    pub fn roll(&self) -> u32 {
        self.roll
    }
    /// Where the token stood.
    pub fn start(&self) -> Square {
        self.start
    }
    /// Where the roll put it, after the overshoot rule, before jumps.
    pub fn landing(&self) -> Square {
        self.landing
    }
    /// The jumps taken, in order.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }
    /// Where the token ended.
    pub fn end(&self) -> Square {
        self.end
    }
    /// Why the token did not move, if it did not.
    pub fn blocked(&self) -> Option<Blocked> {
        self.blocked
    }
    /// Whether the token reached the last square.
    pub fn finished(&self) -> bool {
        self.finished
    }
    /// The place the roll earned (1 for the winner), if it finished.
    pub fn place(&self) -> Option<usize> {
        self.place
    }
    /// Whether the same player rolls again.
    pub fn extra_roll(&self) -> bool {
        self.extra_roll
    }
    /// Who rolls next; `None` when the game is over.
    pub fn next_player(&self) -> Option<&str> {
        self.next_player.as_deref()
    }
}

/// One thing that happened in a game.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
# const SMALL: &str = r#"{"squares": 20, "ladders": [[3, 11]], "snakes": [[17, 4]]}"#;
use snakeladder::{Board, Event, Finish, Game, ScriptedDice};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(SMALL)?);
let mut game = Game::new(board, ["Ana", "Bo", "Cy"], ScriptedDice::new([3]), Finish::FirstWinner)?;
game.roll()?;
game.forfeit("Cy")?;
let [Event::Roll(roll), Event::Forfeit { players, after_turn }] = game.history() else {
    panic!("{:?}", game.history())
};
assert_eq!((roll.player(), players.as_slice(), *after_turn), ("Ana", &["Cy".to_string()][..], 1));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    /// A roll (`"turn"` in records of format 1).
    #[serde(rename = "turn")]
    Roll(RollResult),
    /// Players left.
    Forfeit {
        /// Who left, in the order given.
        players: Vec<String>,
        /// How many rolls had been played when they left.
        after_turn: u64,
    },
}

/// How a player got their place in the [ranking](Game::ranking).
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Finish, Game, Placing, ScriptedDice};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(r#"{"squares": 4}"#)?);
let mut game = Game::new(board, ["Ana", "Bo"], ScriptedDice::new([4]), Finish::FirstWinner)?;
game.roll()?;
let how: Vec<Placing> = game.ranking().iter().map(|s| s.how).collect();
assert_eq!(how, [Placing::Reached, Placing::BySquare]);
assert_eq!(Placing::Reached.to_string(), "reached the finish");
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placing {
    /// Reached the last square; places in finishing order.
    Reached,
    /// The last one left when playing to the last.
    LastLeft,
    /// The one player still in when all others had left.
    LastStanding,
    /// Still playing (or stopped by the first winner): placed by square,
    /// further along first, equal squares sharing a place.
    BySquare,
    /// Left the game; the later a player left, the higher they rank.
    Forfeited,
}

impl fmt::Display for Placing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Placing::Reached => "reached the finish",
            Placing::LastLeft => "last one left",
            Placing::LastStanding => "last one standing",
            Placing::BySquare => "by square",
            Placing::Forfeited => "forfeited",
        })
    }
}

/// One line of the ranking.
#[cfg_attr(
    any(doc, doctest),
    doc = r##"
# Example
```
use snakeladder::{Board, Finish, Game, Placing, ScriptedDice, Square};
use std::sync::Arc;

let board = Arc::new(Board::from_json_str(r#"{"squares": 10}"#)?);
let mut game = Game::new(board, ["Ana", "Bo"], ScriptedDice::new([2, 4]), Finish::FirstWinner)?;
game.roll()?;
game.roll()?;
let ranking = game.ranking();
// Bo is further along.
assert_eq!((ranking[0].player.as_str(), ranking[0].place), ("Bo", 1));
assert_eq!((ranking[0].square, ranking[0].how), (Square::new(4), Placing::BySquare));
assert_eq!((ranking[1].player.as_str(), ranking[1].seat), ("Ana", 0));
# Ok::<(), Box<dyn std::error::Error>>(())
```
"##
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Standing {
    /// 1 for first place; players placed by square may share a place.
    pub place: usize,
    /// The player.
    pub player: String,
    /// Their seat, 0-based.
    pub seat: usize,
    /// Their square now.
    pub square: Square,
    /// How they got the place.
    pub how: Placing,
}

/// Something that wants to hear about a game: a printer, a log, a socket.
/// The game calls it and never prints.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, Observer, RollResult, Seed};
/// use std::sync::{Arc, Mutex};
///
/// struct Count(Arc<Mutex<u64>>);
/// impl Observer for Count {
///     fn on_roll(&mut self, _roll: &RollResult) {
///         *self.0.lock().unwrap() += 1;
///     }
/// }
/// let rolls = Arc::new(Mutex::new(0));
/// let board = Arc::new(Board::builtin_default());
/// let mut game = Game::seeded(board, ["Ana", "Bo"], Seed::new(1), Finish::FirstWinner)?;
/// game.observe(Box::new(Count(rolls.clone())));
/// game.play_out(10_000)?;
/// assert_eq!(*rolls.lock().unwrap(), game.rolls_played());
/// # Ok::<(), snakeladder::GameError>(())
/// ```
pub trait Observer: Send {
    /// After every roll.
    fn on_roll(&mut self, _turn: &RollResult) {}
    /// After players leave.
    fn on_forfeit(&mut self, _players: &[String]) {}
    /// Once, when the game ends.
    fn on_game_over(&mut self, _status: &Status, _ranking: &[Standing]) {}
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SeatState {
    Active,
    Finished,
    Forfeited,
}

/// One game of Snakes and Ladders.
///
/// # Example
/// ```
/// use snakeladder::{Board, Finish, Game, ScriptedDice, Square, Status};
/// use std::sync::Arc;
///
/// let board = Arc::new(Board::builtin_default());
/// let mut game = Game::new(board, ["Ana", "Bo"], ScriptedDice::new([1, 3]), Finish::FirstWinner)?;
/// let t = game.roll()?;
/// assert_eq!((t.player(), t.end()), ("Ana", Square::new(38))); // ladder 1→38
/// let t = game.roll()?;
/// assert_eq!((t.player(), t.end(), t.next_player()), ("Bo", Square::new(3), Some("Ana")));
/// assert_eq!(game.status(), &Status::InProgress);
/// # Ok::<(), snakeladder::GameError>(())
/// ```
pub struct Game<R> {
    board: Arc<Board>,
    dice: R,
    finish: Finish,
    players: Vec<String>,
    positions: Vec<Square>,
    states: Vec<SeatState>,
    /// Seats still rolling, in turn order.
    active: Vec<usize>,
    /// Index into `active` of the seat that rolls next.
    next: usize,
    /// Rolls already made in the current player's turn.
    rolls_before: u32,
    /// Seats with a place, in place order.
    placed: Vec<(usize, Placing)>,
    /// Seats that left, in the order they left.
    forfeits: Vec<usize>,
    status: Status,
    turns: u64,
    history: Vec<Event>,
    observers: Vec<Box<dyn Observer>>,
}

impl<R: fmt::Debug> fmt::Debug for Game<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("players", &self.players)
            .field("positions", &self.positions)
            .field("status", &self.status)
            .field("turns", &self.turns)
            .field("dice", &self.dice)
            .finish_non_exhaustive()
    }
}

impl Game<SeededDice> {
    /// A game with the board's own dice, driven from `seed`.
    ///
    /// # Errors
    /// As [`Game::new`].
    pub fn seeded<S: Into<String>>(
        board: Arc<Board>,
        players: impl IntoIterator<Item = S>,
        seed: Seed,
        finish: Finish,
    ) -> Result<Game<SeededDice>, GameError> {
        let dice = SeededDice::for_dice(board.rules().dice(), seed);
        Game::new(board, players, dice, finish)
    }
}

impl<R: Roller> Game<R> {
    /// A game of `players` in seat order (= turn order), every token on the
    /// rules' start square.
    ///
    /// # Errors
    /// The player list's problem (see [`check_players`]).
    pub fn new<S: Into<String>>(
        board: Arc<Board>,
        players: impl IntoIterator<Item = S>,
        dice: R,
        finish: Finish,
    ) -> Result<Game<R>, GameError> {
        let players: Vec<String> = players.into_iter().map(Into::into).collect();
        check_players(&players)?;
        let n = players.len();
        let start = board.rules().start();
        Ok(Game {
            board,
            dice,
            finish,
            players,
            positions: vec![start; n],
            states: vec![SeatState::Active; n],
            active: (0..n).collect(),
            next: 0,
            rolls_before: 0,
            placed: Vec::new(),
            forfeits: Vec::new(),
            status: Status::InProgress,
            turns: 0,
            history: Vec::new(),
            observers: Vec::new(),
        })
    }

    /// Adds a listener for every later turn, forfeit and the game's end.
    pub fn observe(&mut self, observer: Box<dyn Observer>) {
        self.observers.push(observer);
    }

    /// The board.
    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }
    /// When the game stops.
    pub fn finish(&self) -> Finish {
        self.finish
    }
    /// The players in seat order.
    pub fn players(&self) -> &[String] {
        &self.players
    }
    /// Every player's square, in seat order.
    pub fn positions(&self) -> &[Square] {
        &self.positions
    }
    /// One player's square; `None` for a stranger.
    pub fn position_of(&self, player: &str) -> Option<Square> {
        self.seat_of(player).map(|s| self.positions[s])
    }
    /// The seat (0-based) of a player.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.players.iter().position(|p| p == player)
    }
    /// The status.
    pub fn status(&self) -> &Status {
        &self.status
    }
    /// How many rolls have been played.
    pub fn rolls_played(&self) -> u64 {
        self.turns
    }
    /// Rolls already made in the current player's turn (0 at a turn's start).
    pub fn rolls_in_turn(&self) -> u32 {
        self.rolls_before
    }
    /// Who rolls next; `None` once the game is over.
    pub fn current(&self) -> Option<&str> {
        self.current_seat().map(|s| self.players[s].as_str())
    }
    /// The seat that rolls next; `None` once the game is over.
    pub fn current_seat(&self) -> Option<usize> {
        if self.status.is_over() {
            return None;
        }
        self.active.get(self.next).copied()
    }
    /// Seats still rolling, in turn order from the one who rolls next.
    pub fn turn_order(&self) -> Vec<usize> {
        if self.status.is_over() {
            return Vec::new();
        }
        let (a, b) = self.active.split_at(self.next);
        b.iter().chain(a).copied().collect()
    }
    /// Whether a player has left.
    pub fn is_forfeited(&self, player: &str) -> bool {
        self.seat_of(player)
            .is_some_and(|s| self.states[s] == SeatState::Forfeited)
    }
    /// The dice.
    pub fn dice(&self) -> &R {
        &self.dice
    }
    /// Everything that happened, in order.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// Plays one roll for the player whose turn it is.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end; [`GameError::Exhausted`] or [`GameError::Impossible`] when the
    /// dice give no roll or one the board's dice cannot make (the game does
    /// not change).
    pub fn roll(&mut self) -> Result<RollResult, GameError> {
        let seat = self.current_seat().ok_or(GameError::GameOver)?;
        let dice = self.board.rules().dice();
        let roll = self.dice.roll()?;
        if !dice.can_roll(roll) {
            return Err(GameError::Impossible {
                roll,
                min: dice.min_total(),
                max: dice.max_total(),
            });
        }
        let step = self
            .board
            .play_roll(self.positions[seat], self.rolls_before, roll);
        let roll_in_turn = self.rolls_before + 1;
        self.positions[seat] = step.end;
        self.turns += 1;
        let mut place = None;
        if step.finished {
            self.states[seat] = SeatState::Finished;
            self.placed.push((seat, Placing::Reached));
            place = Some(self.placed.len());
            self.active.remove(self.next);
            self.rolls_before = 0;
            if self.next >= self.active.len() {
                self.next = 0;
            }
            if self.finish == Finish::FirstWinner || self.active.len() <= 1 {
                if let [last] = self.active[..]
                    && self.finish == Finish::ToLast
                {
                    self.states[last] = SeatState::Finished;
                    self.placed.push((last, Placing::LastLeft));
                }
                self.status = Status::Won {
                    winner: self.players[self.placed[0].0].clone(),
                };
            }
        } else if step.extra_roll {
            self.rolls_before += 1;
        } else {
            self.rolls_before = 0;
            self.next = (self.next + 1) % self.active.len();
        }
        let turn = RollResult {
            number: self.turns,
            player: self.players[seat].clone(),
            seat,
            roll_in_turn,
            roll,
            start: step.start,
            landing: step.landing,
            jumps: step.jumps,
            end: step.end,
            blocked: step.blocked,
            finished: step.finished,
            place,
            extra_roll: step.extra_roll,
            next_player: self.current().map(str::to_string),
        };
        self.history.push(Event::Roll(turn.clone()));
        for o in &mut self.observers {
            o.on_roll(&turn);
        }
        self.announce_end();
        Ok(turn)
    }

    /// Plays one roll for `player`, refusing it when it is not theirs.
    ///
    /// # Errors
    /// [`GameError::GameOver`], [`GameError::UnknownPlayer`],
    /// [`GameError::Forfeited`], [`GameError::NotYourTurn`], or as
    /// [`Game::roll`].
    pub fn roll_as(&mut self, player: &str) -> Result<RollResult, GameError> {
        let seat = self
            .seat_of(player)
            .ok_or_else(|| GameError::UnknownPlayer {
                player: player.to_string(),
            })?;
        let current = self.current_seat().ok_or(GameError::GameOver)?;
        if self.states[seat] == SeatState::Forfeited {
            return Err(GameError::Forfeited {
                player: player.to_string(),
            });
        }
        if seat != current {
            return Err(GameError::NotYourTurn {
                player: player.to_string(),
                current: self.players[current].clone(),
            });
        }
        self.roll()
    }

    /// Plays until the game is over, at most `limit` more rolls.
    ///
    /// # Errors
    /// [`GameError::TurnLimit`] if the game is still going after `limit`
    /// rolls, or as [`Game::roll`].
    pub fn play_out(&mut self, limit: u64) -> Result<(), GameError> {
        for _ in 0..limit {
            if self.status.is_over() {
                return Ok(());
            }
            self.roll()?;
        }
        if self.status.is_over() {
            Ok(())
        } else {
            Err(GameError::TurnLimit { limit })
        }
    }

    /// One player leaves: see [`Game::forfeit_all`].
    ///
    /// # Errors
    /// As [`Game::forfeit_all`].
    pub fn forfeit(&mut self, player: &str) -> Result<bool, GameError> {
        self.forfeit_all(&[player])
    }

    /// Players leave at once (a server dropping every client that timed out).
    ///
    /// Each is marked forfeited, keeps their square for the record and never
    /// rolls again. If the player to roll leaves, the turn passes to the next
    /// seat still in. If then one player remains, they take the next place
    /// and the game is won; if none remains, the game is aborted (or won, when
    /// playing to the last and someone already finished). Players who already
    /// left are skipped: a second forfeit changes nothing.
    ///
    /// Returns whether anything changed.
    ///
    /// # Errors
    /// [`GameError::UnknownPlayer`], [`GameError::AlreadyFinished`] (for a
    /// player who finished while playing to the last) or
    /// [`GameError::GameOver`]; then nothing changes.
    ///
    /// # Example
    /// ```
    /// use snakeladder::{Board, Finish, Game, ScriptedDice, Status};
    /// use std::sync::Arc;
    /// let board = Arc::new(Board::builtin_default());
    /// let mut game = Game::new(board, ["Ana", "Bo", "Cy"], ScriptedDice::new([]), Finish::FirstWinner)?;
    /// assert!(game.forfeit("Ana")?);
    /// assert_eq!(game.current(), Some("Bo"));
    /// assert!(!game.forfeit("Ana")?); // again: nothing changes
    /// game.forfeit("Cy")?;
    /// assert_eq!(game.status(), &Status::Won { winner: "Bo".into() });
    /// # Ok::<(), snakeladder::GameError>(())
    /// ```
    pub fn forfeit_all(&mut self, players: &[&str]) -> Result<bool, GameError> {
        let mut seats = Vec::new();
        for &player in players {
            let seat = self
                .seat_of(player)
                .ok_or_else(|| GameError::UnknownPlayer {
                    player: player.to_string(),
                })?;
            match self.states[seat] {
                SeatState::Forfeited => {}
                SeatState::Finished => {
                    return Err(GameError::AlreadyFinished {
                        player: player.to_string(),
                    });
                }
                SeatState::Active => {
                    if !seats.contains(&seat) {
                        seats.push(seat);
                    }
                }
            }
        }
        if seats.is_empty() {
            return Ok(false);
        }
        if self.status.is_over() {
            return Err(GameError::GameOver);
        }
        for &seat in &seats {
            self.states[seat] = SeatState::Forfeited;
            self.forfeits.push(seat);
            let i = self
                .active
                .iter()
                .position(|&s| s == seat)
                .expect("an active seat is in the turn order");
            self.active.remove(i);
            if i < self.next {
                self.next -= 1;
            } else if i == self.next {
                self.rolls_before = 0;
            }
            if self.next >= self.active.len() {
                self.next = 0;
            }
        }
        match self.active[..] {
            [last] => {
                self.states[last] = SeatState::Finished;
                self.placed.push((last, Placing::LastStanding));
                self.active.clear();
                self.status = Status::Won {
                    winner: self.players[self.placed[0].0].clone(),
                };
            }
            [] => {
                self.status = match self.placed.first() {
                    Some(&(first, _)) => Status::Won {
                        winner: self.players[first].clone(),
                    },
                    None => Status::Aborted,
                };
            }
            _ => {}
        }
        let names: Vec<String> = seats.iter().map(|&s| self.players[s].clone()).collect();
        self.history.push(Event::Forfeit {
            players: names.clone(),
            after_turn: self.turns,
        });
        for o in &mut self.observers {
            o.on_forfeit(&names);
        }
        self.announce_end();
        Ok(true)
    }

    fn announce_end(&mut self) {
        if self.status.is_over() && !self.observers.is_empty() {
            let ranking = self.ranking();
            for o in &mut self.observers {
                o.on_game_over(&self.status, &ranking);
            }
        }
    }

    /// Everyone's place: players with a place in the order they got it,
    /// then the players still in, by square (further first, equal squares
    /// sharing a place), then those who left, the latest first.
    pub fn ranking(&self) -> Vec<Standing> {
        let standing = |place, seat: usize, how| Standing {
            place,
            player: self.players[seat].clone(),
            seat,
            square: self.positions[seat],
            how,
        };
        let mut out: Vec<Standing> = self
            .placed
            .iter()
            .enumerate()
            .map(|(i, &(seat, how))| standing(i + 1, seat, how))
            .collect();
        let mut rest: Vec<usize> = (0..self.players.len())
            .filter(|&s| self.states[s] == SeatState::Active)
            .collect();
        rest.sort_by_key(|&s| std::cmp::Reverse(self.positions[s]));
        let base = out.len();
        for (i, &seat) in rest.iter().enumerate() {
            let ahead = rest[..i]
                .iter()
                .filter(|&&s| self.positions[s] > self.positions[seat])
                .count();
            out.push(standing(base + ahead + 1, seat, Placing::BySquare));
        }
        let base = out.len();
        for (i, &seat) in self.forfeits.iter().rev().enumerate() {
            out.push(standing(base + i + 1, seat, Placing::Forfeited));
        }
        out
    }
}

/// Serde for a list of jumps as `[{"from": a, "to": b}, ...]`. Reading makes
/// jumps that have not been checked against a board: a replay compares them
/// with the jumps the board really has, so a forged one is caught there.
pub(crate) mod jump_list {
    use crate::{Jump, Square};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A jump taken: the square it starts on and the square it ends on.
    #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Pair {
        /// The jump's start.
        from: Square,
        /// The jump's end.
        to: Square,
    }

    pub fn serialize<S: Serializer>(jumps: &[Jump], s: S) -> Result<S::Ok, S::Error> {
        let pairs: Vec<Pair> = jumps
            .iter()
            .map(|j| Pair {
                from: j.from(),
                to: j.to(),
            })
            .collect();
        pairs.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Jump>, D::Error> {
        let pairs = Vec::<Pair>::deserialize(d)?;
        pairs
            .into_iter()
            .map(|p| {
                if p.from == p.to {
                    Err(serde::de::Error::custom(format!(
                        "a jump from {} to itself",
                        p.from
                    )))
                } else {
                    Ok(Jump::new(p.from, p.to))
                }
            })
            .collect()
    }
}
