//! Errors of loading a board.

use crate::model::limits::MAX_FILE_BYTES;
use crate::model::problem::Problem;
use std::path::{Path, PathBuf};

/// Why a board could not be loaded. Every variant names the file when there
/// is one.
#[derive(Debug, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[non_exhaustive]
pub enum BoardError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{}: the file is {bytes} bytes, more than the {MAX_FILE_BYTES} bytes a board file may have", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// The text is not a board file: malformed JSON, a wrong type, a missing
    /// or unknown field.
    #[error("{}line {line}, column {column}: {message}", prefix(path))]
    Json {
        /// The file, when reading one.
        path: Option<PathBuf>,
        /// 1-based line of the error (0 at the end of input).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The board breaks the rules; every problem is listed.
    #[error("{}{}", prefix(path), summary(problems))]
    Invalid {
        /// The file, when reading one.
        path: Option<PathBuf>,
        /// Every problem found, in file order.
        problems: Vec<Problem>,
    },
}

fn prefix(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| format!("{}: ", p.display()))
        .unwrap_or_default()
}

fn summary(problems: &[Problem]) -> String {
    match problems {
        [one] => one.to_string(),
        _ => {
            let all: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!("{} problems: {}", problems.len(), all.join("; "))
        }
    }
}

impl BoardError {
    pub(crate) fn json(path: Option<&Path>, e: &serde_json::Error) -> BoardError {
        // serde_json appends " at line L column C" to its message; the
        // position is reported in fields of its own.
        let mut message = e.to_string();
        if let Some(at) = message.rfind(" at line ") {
            message.truncate(at);
        }
        BoardError::Json {
            path: path.map(Path::to_path_buf),
            line: e.line(),
            column: e.column(),
            message,
        }
    }

    /// The same error, naming `path` as its file.
    pub fn with_path(self, path: &Path) -> BoardError {
        match self {
            BoardError::Json {
                line,
                column,
                message,
                ..
            } => BoardError::Json {
                path: Some(path.to_path_buf()),
                line,
                column,
                message,
            },
            BoardError::Invalid { problems, .. } => BoardError::Invalid {
                path: Some(path.to_path_buf()),
                problems,
            },
            other => other,
        }
    }

    /// The validation problems, empty for errors of reading or parsing.
    pub fn problems(&self) -> &[Problem] {
        match self {
            BoardError::Invalid { problems, .. } => problems,
            _ => &[],
        }
    }

    /// A short stable name of the error (`"io"`, `"too_large"`, `"json"`,
    /// `"invalid"`): the variant's name in snake case.
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}
