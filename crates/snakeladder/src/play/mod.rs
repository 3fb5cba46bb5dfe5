//! Real games on top of the model: injected dice, the single-threaded turn
//! engine, its replayable record and the words of a transcript. Serving
//! one game to many clients is the server's (`snakeladder_serve::table`).

pub(crate) mod error;
pub(crate) mod game;
pub(crate) mod narrate;
pub(crate) mod record;
pub(crate) mod roller;
