//! The limits on what a board file may ask for, in one place: each keeps a
//! board that validation accepts within what the analysis, the simulator and
//! the turn engine can represent.

/// The largest board accepted: squares 1..=10,000,000.
pub const MAX_SQUARES: u32 = 10_000_000;

/// Board files larger than this are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Most dice in one set.
pub const MAX_DICE: u32 = 100;
/// Most faces on one die (fair or loaded).
pub const MAX_FACES: u32 = 1_000;
/// Most distinct totals a dice set may roll; it bounds the width of every
/// row of the compiled chain.
pub const MAX_TOTALS: u32 = 10_000;

/// Most players of one game, for every command and figure: seat odds,
/// simulations and real games alike.
pub const MAX_PLAYERS: usize = 100;

/// Most moves (squares × totals) the reachability check will enumerate.
/// Each costs 4 bytes of reversed moves (plus 13 bytes a square), so the
/// check stays under about 500 MB.
pub const MAX_MOVES_TO_CHECK: u64 = 120_000_000;

/// Most problems of one kind an error message or a `validate` report lists
/// of one board; the rest of that kind are counted in one line. A file of
/// three million bad jumps then prints a few lines, not 161 MB.
pub const PROBLEMS_LISTED_PER_KIND: usize = 20;
