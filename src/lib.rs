//! # snakeladder
//!
//! Exact answers to every question people ask about a Snakes and Ladders
//! (Chutes and Ladders) board: is this layout legal, how long will a game
//! last, how often is each snake and ladder used, how unfair is the first
//! seat.
//!
//! A [`Board`] (squares 1..=N, tokens start on 0 off the board, snakes and
//! ladders as one kind of [`Jump`]) and its [`Rules`] are read from JSON and
//! validated once at construction; a `Board` that exists is valid and never
//! changes. One move function, [`Board::move_token`], is the only place the
//! rules of movement live, and [`Board::play_roll`] adds the extra-roll rule
//! on top of it for whole turns.
//!
//! A [`Game`] plays real games on top of `play_roll`: dice are injected
//! through the [`Roller`] trait (seeded [`FairDice`] or [`LoadedDie`],
//! [`ScriptedDice`] for tests), every roll yields a [`TurnResult`], and a
//! [`GameRecord`] replays the game exactly. A [`Table`] serves one game to
//! many threads; a [`Registry`] keeps many tables.
//!
//! ```
//! use snakeladder::{Board, Square};
//!
//! let board = Board::builtin_default();
//! assert_eq!(board.last(), Square::new(100));
//! // From the start, a roll of 1 lands on the ladder 1→38.
//! let mv = board.move_token(Square::OFF_BOARD, 1);
//! assert_eq!(mv.end, Square::new(38));
//!
//! // Invalid layouts are refused with every problem named.
//! let err = Board::from_json_str(r#"{"squares": 10, "ladders": [[5, 3]], "snakes": [[4, 8]]}"#)
//!     .unwrap_err();
//! assert_eq!(err.problems().len(), 2);
//! ```

pub mod analysis;
pub mod atomic;
pub mod board;
pub mod chain;
pub mod check;
pub mod design;
pub mod dice;
pub mod error;
pub mod exact;
pub mod fingerprint;
pub mod game;
pub mod generate;
pub mod jump;
pub mod movement;
pub mod narrate;
pub mod record;
pub mod roller;
pub mod rules;
pub mod simulate;
pub mod sparse;
pub mod square;
pub mod table;
pub mod tolerance;
pub mod turn;
pub mod validation;

pub use analysis::{Analysis, AnalysisError};
pub use board::{Board, BoardSpec};
pub use chain::{Chain, ChainError, StateIndex};
pub use dice::{Dice, DiceSpec, Outcome};
pub use error::BoardError;
pub use game::{
    Finish, Game, GameError, Observer, Placing, Standing, Status, TurnResult, check_players,
};
pub use jump::{Jump, JumpKind};
pub use movement::{Blocked, Move};
pub use record::{Event, GameRecord, ReplayError};
pub use roller::{FairDice, LoadedDie, RollError, Roller, ScriptedDice, Seed, SeededDice};
pub use rules::{Chains, Entry, ExtraTurn, Overshoot, Rules};
pub use square::Square;
pub use table::{GameId, Registry, RegistryError, RollAnswer, Snapshot, Table};
pub use turn::RollStep;
pub use validation::{JumpRef, Problem};
pub mod report;
