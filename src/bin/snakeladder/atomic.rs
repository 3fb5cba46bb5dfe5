//! Writing a file so that it is never half-written.
//!
//! [`write_atomic`] writes into a temporary file in the target's own
//! directory and renames it over the target only once everything was written
//! and flushed to disk. A failure or an interruption at any point before the
//! rename leaves the old file as it was (or no file, if there was none) and no
//! temporary file behind; the rename itself is atomic on every platform Rust
//! supports when both names are in one directory.
//!
//! `report`, `generate` and `play --record` write through it.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// Why [`write_atomic`] could not write a file. Each variant names the file;
/// in every case the old file, if any, is untouched.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AtomicWriteError {
    /// The temporary file could not be made in the target's directory (it
    /// does not exist, or is not writable).
    #[error("{}: cannot create a temporary file in {}: {source}", path.display(), dir.display())]
    Create {
        /// The file to write.
        path: PathBuf,
        /// The directory the temporary file was to go in.
        dir: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The writer failed, or flushing the data to disk did.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file to write.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The finished temporary file could not be renamed over the target (for
    /// example, the target is a directory).
    #[error("{}: cannot replace the file: {source}", path.display())]
    Persist {
        /// The file to write.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl AtomicWriteError {
    /// The underlying I/O error.
    #[cfg(test)]
    pub fn io_error(&self) -> &io::Error {
        match self {
            AtomicWriteError::Create { source, .. }
            | AtomicWriteError::Write { source, .. }
            | AtomicWriteError::Persist { source, .. } => source,
        }
    }
}

/// Writes `path` all at once: `write` fills a buffered temporary file next to
/// `path`, which then replaces `path` in one rename.
///
/// The new file gets the old file's permissions, or, when there was none, the
/// permissions [`File::create`] would give (0o666 less the umask on Unix). A
/// symbolic link at `path` is replaced by the file, not written through.
///
/// # Errors
/// [`AtomicWriteError`] naming `path`: when the temporary file cannot be
/// created, when `write` (or flushing, or syncing to disk) fails, or when the
/// rename fails. In every case the old file is left as it was and the
/// temporary file is removed. If `write` panics the temporary file is removed
/// as the panic unwinds.
///
/// # Example
/// ```
/// use std::io::Write;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("report.txt");
/// snakeladder::atomic::write_atomic(&path, |w| writeln!(w, "expected length 39.2"))?;
/// assert_eq!(std::fs::read_to_string(&path)?, "expected length 39.2\n");
///
/// // A writer that fails leaves the old file as it was.
/// let failed = snakeladder::atomic::write_atomic(&path, |w| {
///     writeln!(w, "half a report")?;
///     Err(std::io::Error::other("interrupted"))
/// });
/// assert!(failed.is_err());
/// assert_eq!(std::fs::read_to_string(&path)?, "expected length 39.2\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomic<F>(path: impl AsRef<Path>, write: F) -> Result<(), AtomicWriteError>
where
    F: FnOnce(&mut BufWriter<File>) -> io::Result<()>,
{
    let path = path.as_ref();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name().map_or_else(
        || "snakeladder".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    let permissions = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions());
    #[cfg(unix)]
    let permissions = permissions.or_else(|| {
        use std::os::unix::fs::PermissionsExt;
        // As `File::create`: the mode given to open(2) is reduced by the umask.
        Some(std::fs::Permissions::from_mode(0o666))
    });
    if let Some(permissions) = permissions {
        builder.permissions(permissions);
    }
    let temp = builder
        .tempfile_in(dir)
        .map_err(|source| AtomicWriteError::Create {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
            source,
        })?;
    let write_error = |source| AtomicWriteError::Write {
        path: path.to_path_buf(),
        source,
    };
    // Until `persist`, dropping `temp_path` (on any error, or a panic in
    // `write`) deletes the temporary file.
    let (file, temp_path) = temp.into_parts();
    let mut out = BufWriter::new(file);
    write(&mut out).map_err(write_error)?;
    let file = out.into_inner().map_err(|e| write_error(e.into_error()))?;
    file.sync_all().map_err(write_error)?;
    drop(file);
    temp_path
        .persist(path)
        .map_err(|e| AtomicWriteError::Persist {
            path: path.to_path_buf(),
            source: e.error,
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The names in a directory, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomic(&path, |w| w.write_all(b"first")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_atomic(&path, |w| w.write_all(b"second, longer")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_failing_writer_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "the old contents").unwrap();
        let err = write_atomic(&path, |w| {
            // More than the buffer holds, so part of it reaches the disk.
            w.write_all(&vec![b'x'; 100_000])?;
            Err(io::Error::other("the writer gave up"))
        })
        .unwrap_err();
        assert!(matches!(err, AtomicWriteError::Write { .. }), "{err:?}");
        assert_eq!(err.io_error().to_string(), "the writer gave up");
        assert!(
            err.to_string()
                .contains("out.txt: cannot write: the writer gave up"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the old contents");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_failing_writer_with_no_old_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        assert!(write_atomic(&path, |_| Err(io::Error::other("no"))).is_err());
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn a_panicking_writer_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "kept").unwrap();
        let result = std::panic::catch_unwind(|| {
            write_atomic(&path, |w| {
                w.write_all(b"partial")?;
                panic!("the writer panicked")
            })
        });
        assert!(result.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_missing_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.txt");
        let err = write_atomic(&path, |w| w.write_all(b"x")).unwrap_err();
        assert!(matches!(err, AtomicWriteError::Create { .. }), "{err:?}");
        assert!(err.to_string().contains("no/such/dir"), "{err}");
    }

    #[test]
    fn a_directory_in_the_way_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("taken");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), "safe").unwrap();
        let err = write_atomic(&path, |w| w.write_all(b"x")).unwrap_err();
        assert!(matches!(err, AtomicWriteError::Persist { .. }), "{err:?}");
        assert_eq!(
            std::fs::read_to_string(path.join("inside")).unwrap(),
            "safe"
        );
        assert_eq!(names(dir.path()), ["taken"]);
    }

    #[cfg(unix)]
    #[test]
    fn the_old_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, |w| w.write_all(b"new")).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}
