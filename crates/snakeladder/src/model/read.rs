//! Reading a board: from JSON text, bytes, a file or any reader, each with
//! the size cap of [`MAX_FILE_BYTES`], then validated.

use crate::model::board::Board;
use crate::model::error::BoardError;
use crate::model::limits::MAX_FILE_BYTES;
use std::io::Read;
use std::path::Path;

/// The built-in default board: Milton Bradley's Chutes and Ladders with the
/// chute 48→26, the transcription most published analyses use.
pub const DEFAULT_BOARD_JSON: &str = include_str!("../../boards/milton-bradley.json");

impl Board {
    /// Parses and validates a board from JSON text.
    ///
    /// # Errors
    /// [`BoardError::Json`] for malformed JSON (with line and column) or
    /// [`BoardError::Invalid`] for a board that breaks the rules.
    pub fn from_json_str(json: &str) -> Result<Board, BoardError> {
        let spec = crate::model::error::parse_spec(json.as_bytes())?;
        Self::from_spec(&spec)
    }

    /// Parses and validates a board from JSON bytes (which must be UTF-8).
    ///
    /// # Errors
    /// As [`Board::from_json_str`].
    pub fn from_json_slice(json: &[u8]) -> Result<Board, BoardError> {
        let spec = crate::model::error::parse_spec(json)?;
        Self::from_spec(&spec)
    }

    /// Reads, parses and validates a board file. Errors name the file.
    ///
    /// # Errors
    /// [`BoardError::Io`] when the file cannot be read (or is a directory),
    /// [`BoardError::TooLarge`] past [`MAX_FILE_BYTES`], and the errors of
    /// [`Board::from_json_str`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Board, BoardError> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        Self::from_json_slice(&bytes).map_err(|e| e.with_path(path))
    }

    /// The built-in default board ([`DEFAULT_BOARD_JSON`]).
    pub fn builtin_default() -> Board {
        Board::from_json_str(DEFAULT_BOARD_JSON).expect("the built-in board is valid")
    }

    /// Every board of the repository's `boards/` folder, for tests that
    /// run over all of them.
    #[cfg(test)]
    pub(crate) fn shipped() -> Vec<Board> {
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/boards"))
            .expect("boards/ is readable")
            .map(|e| Board::from_path(e.expect("an entry of boards/").path()).expect("valid"))
            .collect()
    }

    /// Reads a board from any reader (standard input, a pipe, a file)
    /// up to [`MAX_FILE_BYTES`], then parses and validates it. `path` names
    /// the source in errors (`<stdin>` for standard input).
    ///
    /// # Errors
    /// [`BoardError::Io`] when reading fails, [`BoardError::TooLarge`] past
    /// [`MAX_FILE_BYTES`] (without reading more than one byte past it), and
    /// the errors of [`Board::from_json_str`].
    ///
    /// # Example
    /// ```
    /// use snakeladder::Board;
    /// let json = br#"{"squares": 10, "ladders": [[2, 7]]}"#;
    /// let board = Board::from_reader(&json[..], "<stdin>")?;
    /// assert_eq!(board.jumps().len(), 1);
    /// # Ok::<(), snakeladder::BoardError>(())
    /// ```
    pub fn from_reader(reader: impl Read, path: impl AsRef<Path>) -> Result<Board, BoardError> {
        let path = path.as_ref();
        let bytes = read_capped(reader, path)?;
        Self::from_json_slice(&bytes).map_err(|e| e.with_path(path))
    }
}

/// Reads at most [`MAX_FILE_BYTES`] from `reader`: the one size-capped read
/// behind every board and record the crate loads.
pub(crate) fn read_capped(reader: impl Read, path: &Path) -> Result<Vec<u8>, BoardError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| BoardError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(BoardError::TooLarge {
            path: path.to_path_buf(),
            bytes: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Reads a board file's bytes, refusing a directory and a file past
/// [`MAX_FILE_BYTES`] without reading it whole: the read behind
/// [`Board::from_path`] and `validate`.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, BoardError> {
    let io = |source| BoardError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(io(std::io::Error::other("is a directory")));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(BoardError::TooLarge {
            path: path.to_path_buf(),
            bytes: meta.len(),
        });
    }
    read_capped(file, path)
}
