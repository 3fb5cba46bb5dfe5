//! Reading a board: from JSON text, bytes, a file or any reader, each with
//! the size cap of [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES), then validated.

use crate::model::board::Board;
use crate::model::error::BoardError;
use crate::model::limits::MAX_FILE_BYTES;
use std::io::Read;
use std::path::Path;

/// The built-in default board: Milton Bradley's Chutes and Ladders with the
/// chute 48→26, the transcription most published analyses use.
pub const DEFAULT_BOARD_JSON: &str = include_str!("../../boards/milton-bradley.json");

impl Board {
    /// The built-in default board's file: Milton Bradley's 1952 layout
    /// ([`Board::builtin_default`]).
    pub const DEFAULT_JSON: &'static str = DEFAULT_BOARD_JSON;

    /// Board files larger than this (256 MiB) are refused before they are
    /// read.
    pub const MAX_FILE_BYTES: u64 = MAX_FILE_BYTES;

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
    /// [`BoardError::TooLarge`] past [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES), and the errors of
    /// [`Board::from_json_str`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<Board, BoardError> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        Self::from_json_slice(&bytes).map_err(|e| e.with_path(path))
    }

    /// Reads a board file's bytes without parsing them, refusing a
    /// directory and a file past [`Board::MAX_FILE_BYTES`] without reading
    /// it whole: for a front end that reports on the text itself (positions
    /// of problems, formatting).
    ///
    /// # Errors
    /// [`BoardError::Io`] and [`BoardError::TooLarge`].
    pub fn read_bytes(path: impl AsRef<Path>) -> Result<Vec<u8>, BoardError> {
        read_file(path.as_ref())
    }

    /// The built-in default board ([`Board::DEFAULT_JSON`](crate::Board::DEFAULT_JSON)).
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
    /// up to [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES), then parses and validates it. `path` names
    /// the source in errors (`<stdin>` for standard input).
    ///
    /// # Errors
    /// [`BoardError::Io`] when reading fails, [`BoardError::TooLarge`] past
    /// [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES) (without reading more than one byte past it), and
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

/// Reads at most [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES) from `reader`: the one size-capped read
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
/// [`Board::MAX_FILE_BYTES`](crate::Board::MAX_FILE_BYTES) without reading it whole: the read behind
/// [`Board::from_path`] and `validate` ([`read_regular_file`]).
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, BoardError> {
    read_regular_file(path, MAX_FILE_BYTES).map_err(|e| match e {
        FileReadError::TooLarge { bytes, .. } => BoardError::TooLarge {
            path: path.to_path_buf(),
            bytes,
        },
        FileReadError::Io(source) => BoardError::Io {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// Why [`read_regular_file`] refused a file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileReadError {
    /// It could not be opened or read, or it is not a regular file (a
    /// directory, a FIFO, a device, a socket).
    #[error("{0}")]
    Io(std::io::Error),
    /// It is larger than the cap.
    #[error("the file is {bytes} bytes, more than the {cap} bytes allowed")]
    TooLarge {
        /// Its size (or a lower bound, when it grew while read).
        bytes: u64,
        /// The cap.
        cap: u64,
    },
}

/// The one reader of every file the tool reads (boards, policy files,
/// `generate --rules`, game records): a regular file of at most `cap`
/// bytes. A directory, a FIFO, a character or block device and a socket
/// are refused before they are opened (opening a FIFO would block,
/// `/dev/zero` never ends), and again after, on the opened file, in case
/// the path was swapped in between; the file is opened without blocking
/// and never read past `cap + 1` bytes, even if it grows.
///
/// # Errors
/// [`FileReadError::Io`] naming what the path is when it is not a regular
/// file, [`FileReadError::TooLarge`] past `cap`.
///
/// # Example
/// ```
/// use snakeladder::internals::read_regular_file;
/// assert!(read_regular_file("/dev/zero".as_ref(), 1 << 20).is_err());
/// assert!(read_regular_file("/".as_ref(), 1 << 20).is_err());
/// ```
pub fn read_regular_file(path: &Path, cap: u64) -> Result<Vec<u8>, FileReadError> {
    let io = FileReadError::Io;
    let refuse_unless_regular = |meta: &std::fs::Metadata| {
        if meta.is_file() {
            Ok(())
        } else {
            Err(io(std::io::Error::other(format!(
                "is {}, not a regular file",
                file_kind(&meta.file_type())
            ))))
        }
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    refuse_unless_regular(&meta)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO swapped in after the check cannot block the
        // open; a regular file reads the same either way.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    refuse_unless_regular(&meta)?;
    if meta.len() > cap {
        return Err(FileReadError::TooLarge {
            bytes: meta.len(),
            cap,
        });
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(FileReadError::TooLarge {
            bytes: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

/// What a path that is not a regular file is, in words.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "something else"
    }
}

#[cfg(test)]
mod reader_tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.json");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read_regular_file(&file, 10).unwrap(), b"0123456789");
        assert!(matches!(
            read_regular_file(&file, 9),
            Err(FileReadError::TooLarge { bytes: 10, cap: 9 })
        ));
        let message = |p: &Path| read_regular_file(p, 100).unwrap_err().to_string();
        assert_eq!(message(dir.path()), "is a directory, not a regular file");
        assert_eq!(
            message(Path::new("/dev/zero")),
            "is a device, not a regular file"
        );
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            assert_eq!(message(&fifo), "is a FIFO, not a regular file");
        }
    }
}
