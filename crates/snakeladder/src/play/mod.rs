//! Real games on top of the model: injected dice, the single-threaded turn
//! engine, its replayable record, the words of a transcript, and the
//! thread-safe table that serves one game to many clients.

pub(crate) mod game;
pub(crate) mod narrate;
pub(crate) mod record;
pub(crate) mod roller;
pub(crate) mod table;
