//! Tools for board designers: seeded random layouts that are valid by
//! construction.
//!
//! # Example
//! ```
//! use snakeladder::design::{Layout, generate};
//! use snakeladder::Seed;
//!
//! let layout = Layout::new(100, 8, 8, Seed::new(7));
//! let board = generate(&layout)?;
//! assert_eq!(board.jumps().len(), 16);
//! # Ok::<(), snakeladder::design::GenerateError>(())
//! ```

mod random;

pub use random::{GenerateError, Layout, generate, generate_spec};
