//! Where a command's output goes, and writing it there without ever
//! destroying what stands at the path.
//!
//! Every command that writes a file (`report -o`, `generate -o`,
//! `play --record`) goes through [`Output`]:
//!
//! - `-` is standard output;
//! - a regular file (or a path that does not exist yet) is replaced
//!   atomically: the output is written into a temporary file in the same
//!   directory, flushed to disk, given the old file's owner and mode, then
//!   renamed over the path, so a failure or an interruption leaves the old
//!   file as it was. A read-only file is refused with the reason. A file
//!   that a new one cannot stand in for without a loss (it has other hard
//!   links, which would keep the old content; its owner cannot be given to
//!   a new file) is written in place instead, once the output is whole in
//!   its temporary file and the room for it is reserved in the target, so
//!   a full disk still leaves the old content;
//! - several files of one command (`report -o` and its charts) land
//!   together ([`write_together`]): every one is written in full to its
//!   temporary file before the first is renamed, so a full disk leaves
//!   every old file and no new one;
//! - a symbolic link is followed and its target replaced (the link stays a
//!   link);
//! - anything else that can be opened for writing (a character device such
//!   as `/dev/null`, a FIFO, `/dev/stdout`) is written straight, with no
//!   temporary file: renaming over it would replace the device or pipe;
//! - a directory is refused, and so is a path that is one of the command's
//!   own inputs (it would be overwritten while, or before, being read).
//!
//! Temporary files are registered while they exist, and
//! [`remove_temporaries_on_signals`] deletes them when SIGINT, SIGTERM or
//! SIGHUP ends the process. SIGKILL cannot be caught: a process killed by it
//! while writing leaves its `.NAME.PID.N.tmp` file behind (`NAME` the
//! first bytes of the target's name, so that the temporary's name is short
//! enough wherever the target's is).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Most symbolic links followed from an output path to its target, as
/// Linux's own limit for one path (`MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// Why an output could not be written. Each variant names the path as the
/// user gave it.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output path is a directory.
    #[error("{}: is a directory; give a file name for the output", path.display())]
    Directory {
        /// The output path.
        path: PathBuf,
    },
    /// The output path ends in `/`, so it can only name a directory, and
    /// none is there (writing would fail on the rename, naming no cause).
    #[error("{}: names a directory (it ends in `/`), and there is none; give a file name for the output", path.display())]
    NotAFileName {
        /// The output path.
        path: PathBuf,
    },
    /// The output path is one of the command's inputs.
    #[error("{}: is also an input of this command ({}); write the output elsewhere", path.display(), input.display())]
    SameAsInput {
        /// The output path.
        path: PathBuf,
        /// The input it names.
        input: PathBuf,
    },
    /// The output path could not be examined or its links resolved.
    #[error("{}: cannot use as output: {source}", path.display())]
    Resolve {
        /// The output path.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The temporary file could not be made beside the target.
    #[error("{}: cannot create a temporary file in {}: {source}", path.display(), dir.display())]
    Create {
        /// The output path.
        path: PathBuf,
        /// The directory the temporary file was to go in.
        dir: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A path written straight (device, FIFO) could not be opened.
    #[error("{}: cannot open for writing: {source}", path.display())]
    Open {
        /// The output path.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Writing, flushing or syncing failed.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The target is read-only: replacing it would discard what its mode
    /// says to keep.
    #[error("{}: is read-only; make it writable to replace it, or write elsewhere", path.display())]
    ReadOnly {
        /// The output path.
        path: PathBuf,
    },
    /// A target written in place (it has other hard links, or its owner
    /// could not be kept on a new file) has no room reserved for the
    /// output.
    #[error("{}: {why}, so it is written in place, and there is no room for the output in it: {source}", path.display())]
    NoRoom {
        /// The output path.
        path: PathBuf,
        /// Why it is written in place.
        why: &'static str,
        /// The cause.
        source: io::Error,
    },
    /// The finished temporary file could not be renamed over the target.
    #[error("{}: cannot replace the file: {source}", path.display())]
    Persist {
        /// The output path.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl OutputError {
    /// Whether the error is a mistake in the command line (exit 2) rather
    /// than output that could not be written (exit 3).
    pub fn is_misuse(&self) -> bool {
        matches!(self, OutputError::SameAsInput { .. })
    }
}

/// How an output path is written.
#[derive(Debug)]
enum Target {
    /// Standard output.
    Stdout,
    /// Opened and written in place: a device, a FIFO, a `/proc` descriptor.
    Straight {
        /// Whether to truncate on opening (a regular file reached through
        /// `/dev/stdout` or `/proc/self/fd/N`).
        truncate: bool,
    },
    /// A regular file (or none yet), replaced atomically at this resolved
    /// path.
    Replace(PathBuf),
}

/// A resolved output destination.
#[derive(Debug)]
pub struct Output {
    /// The path as the user gave it, for messages.
    shown: PathBuf,
    target: Target,
}

impl Output {
    /// Resolves `path` (`-` is standard output), refusing a directory and
    /// any of `inputs` (the files the command reads; `-` entries are
    /// ignored).
    ///
    /// # Errors
    /// [`OutputError::Directory`], [`OutputError::NotAFileName`],
    /// [`OutputError::SameAsInput`], or
    /// [`OutputError::Resolve`] when the path cannot be examined (a loop of
    /// links, a component that is not a directory, no permission).
    pub fn resolve(path: &Path, inputs: &[&Path]) -> Result<Output, OutputError> {
        let shown = path.to_path_buf();
        if path == Path::new("-") || names_stdout(path) {
            return Ok(Output {
                shown,
                target: Target::Stdout,
            });
        }
        let resolve_error = |source| OutputError::Resolve {
            path: shown.clone(),
            source,
        };
        let target = match fs::metadata(path) {
            Ok(meta) => {
                if meta.is_dir() {
                    return Err(OutputError::Directory { path: shown });
                }
                refuse_inputs(path, &meta, inputs)?;
                let resolved = resolve_links(path).map_err(resolve_error)?;
                // A descriptor link of /proc (`/dev/stdout` is one) points at
                // an open file, pipe or terminal: write through it, never
                // rename over it.
                let via_proc = resolved.starts_with("/proc/");
                if !meta.is_file() || via_proc {
                    Target::Straight {
                        truncate: meta.is_file(),
                    }
                } else {
                    Target::Replace(resolved)
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
                    return Err(OutputError::NotAFileName { path: shown });
                }
                // Nothing there yet, or a dangling link: write its target.
                Target::Replace(resolve_links(path).map_err(resolve_error)?)
            }
            Err(e) => return Err(resolve_error(e)),
        };
        Ok(Output { shown, target })
    }

    /// Writes the output: `write` fills a buffered writer, and the result
    /// reaches the destination whole or (for a replaced file) not at all.
    ///
    /// # Errors
    /// [`OutputError`] naming the path. For a replaced file the old file is
    /// left as it was and no temporary file remains.
    pub fn write<F>(&self, write: F) -> Result<(), crate::common::CliError>
    where
        F: FnOnce(&mut dyn Write) -> io::Result<()>,
    {
        let write_error = |source| OutputError::Write {
            path: self.shown.clone(),
            source,
        };
        match &self.target {
            Target::Stdout => {
                let mut out = crate::common::stdout()?;
                write(&mut out)?;
                out.flush()?;
            }
            Target::Straight { truncate } => {
                let file = OpenOptions::new()
                    .write(true)
                    .truncate(*truncate)
                    .open(&self.shown)
                    .map_err(|source| OutputError::Open {
                        path: self.shown.clone(),
                        source,
                    })?;
                let mut out = BufWriter::new(file);
                write(&mut out).map_err(write_error)?;
                out.flush().map_err(write_error)?;
            }
            Target::Replace(target) => replace(&self.shown, target, write)?,
        }
        Ok(())
    }
}

/// Refuses an output that is the same file as one of the inputs.
fn refuse_inputs(path: &Path, meta: &fs::Metadata, inputs: &[&Path]) -> Result<(), OutputError> {
    use std::os::unix::fs::MetadataExt;
    for input in inputs.iter().filter(|p| **p != Path::new("-")) {
        if let Ok(other) = fs::metadata(input)
            && other.dev() == meta.dev()
            && other.ino() == meta.ino()
        {
            return Err(OutputError::SameAsInput {
                path: path.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Whether `path` is, or links to, this process's standard output
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`). It is written through
/// the open descriptor: reopening it would fail for a pipe or terminal that
/// belongs to another user.
fn names_stdout(path: &Path) -> bool {
    const STDOUT: [&str; 3] = ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if STDOUT.iter().any(|s| current == Path::new(s)) {
            return true;
        }
        match fs::read_link(&current) {
            Ok(link) if link.is_absolute() => current = link,
            Ok(link) => current = current.parent().unwrap_or(Path::new(".")).join(link),
            Err(_) => return false,
        }
    }
    false
}

/// Follows symbolic links at the last component of `path` until it names
/// something that is not a link (or nothing). Directory components need no
/// resolving: the rename goes through them.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = if link.is_absolute() {
                    link
                } else {
                    current.parent().unwrap_or(Path::new(".")).join(link)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Temporary files that exist right now, removed by the signal handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Distinguishes the temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// A registered temporary file, removed (and unregistered) when dropped
/// unless it was renamed into place first.
struct Temporary {
    path: PathBuf,
    persisted: bool,
}

impl Temporary {
    /// Registers, then creates, a new temporary file beside `target`; the
    /// path is registered before the file exists, so a signal can never
    /// leave an unregistered one.
    fn create(target: &Path, mode: u32) -> io::Result<(Temporary, File)> {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = parent(target);
        let name = short_name(target);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
            pending().push(path.clone());
            let temp = Temporary {
                path,
                persisted: false,
            };
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode)
                .open(&temp.path)
            {
                Ok(file) => return Ok((temp, file)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    // Not ours: forget it without removing it.
                    let mut temp = temp;
                    temp.persisted = true;
                    continue;
                }
                Err(e) => {
                    let mut temp = temp;
                    temp.persisted = true;
                    return Err(e);
                }
            }
        }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = fs::remove_file(&self.path);
        }
        pending().retain(|p| p != &self.path);
    }
}

/// Most bytes of the target's name a temporary file's name starts with:
/// the temporary's name stays far below the 255 bytes a file system allows
/// for any target name, and still shows whose it is.
const NAME_BYTES: usize = 32;

/// The start of `target`'s file name for its temporary file's name, at
/// most [`NAME_BYTES`] bytes, cut at a character.
fn short_name(target: &Path) -> String {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut end = name.len().min(NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

/// The directory a temporary file for `target` goes in.
fn parent(target: &Path) -> &Path {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A replaced file written in full to its temporary file, waiting to be
/// put in place; dropped, the temporary file is removed.
struct Staged {
    temp: Temporary,
    target: PathBuf,
    shown: PathBuf,
    /// The target itself, opened with room reserved for the output, when
    /// it is written in place rather than replaced.
    in_place: Option<File>,
}

impl Staged {
    /// Renames the temporary file over the target, or copies it into the
    /// target.
    fn commit(mut self) -> Result<(), OutputError> {
        let Some(mut target) = self.in_place.take() else {
            fs::rename(&self.temp.path, &self.target).map_err(|source| OutputError::Persist {
                path: self.shown.clone(),
                source,
            })?;
            self.temp.persisted = true;
            return Ok(());
        };
        let write_error = |source| OutputError::Write {
            path: self.shown.clone(),
            source,
        };
        let mut from = File::open(&self.temp.path).map_err(write_error)?;
        let len = io::copy(&mut from, &mut target).map_err(write_error)?;
        target.set_len(len).map_err(write_error)?;
        target.sync_all().map_err(write_error)
    }
}

/// Writes what will replace `target` into a temporary file beside it,
/// flushed and synced, with the old file's owner and mode (or 0o666 less
/// the umask when there was none). A read-only target is refused first; a
/// target no new file can stand in for (other hard links, an owner that
/// cannot be kept) is opened, and the room for the output reserved in it,
/// to be written in place.
fn stage<F>(shown: &Path, target: &Path, write: F) -> Result<Staged, OutputError>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let old = fs::metadata(target).ok().filter(|m| m.is_file());
    if let Some(old) = &old {
        refuse_read_only(shown, target, old)?;
    }
    let (temp, file) = Temporary::create(target, 0o666).map_err(|source| OutputError::Create {
        path: shown.to_path_buf(),
        dir: parent(target).to_path_buf(),
        source,
    })?;
    let write_error = |source| OutputError::Write {
        path: shown.to_path_buf(),
        source,
    };
    let mut in_place = None;
    if let Some(old) = &old {
        if old.nlink() > 1 {
            in_place = Some("it has other hard links");
        } else {
            // The owner first: changing it clears the set-user-ID and
            // set-group-ID bits the mode then restores.
            let new = file.metadata().map_err(write_error)?;
            if (new.uid(), new.gid()) != (old.uid(), old.gid())
                && std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid())).is_err()
            {
                in_place = Some("its owner cannot be given to a new file");
            }
            let mode = old.permissions().mode();
            file.set_permissions(fs::Permissions::from_mode(mode))
                .map_err(write_error)?;
        }
    }
    let mut out = BufWriter::new(file);
    write(&mut out).map_err(write_error)?;
    let file = out.into_inner().map_err(|e| write_error(e.into_error()))?;
    file.sync_all().map_err(write_error)?;
    let in_place = match (in_place, &old) {
        (Some(why), Some(old)) => {
            let len = file.metadata().map_err(write_error)?.len();
            Some(open_in_place(shown, target, why, len, old.len())?)
        }
        _ => None,
    };
    Ok(Staged {
        temp,
        target: target.to_path_buf(),
        shown: shown.to_path_buf(),
        in_place,
    })
}

/// Opens a target to be written in place with `len` bytes, its room
/// reserved first (beyond its end, its content untouched), so that writing
/// cannot fail for want of space. A file system that reserves nothing
/// (no `fallocate`) is written only when the output is no longer than the
/// file (`old_len`), and so fits in its blocks.
fn open_in_place(
    shown: &Path,
    target: &Path,
    why: &'static str,
    len: u64,
    old_len: u64,
) -> Result<File, OutputError> {
    let no_room = |source| OutputError::NoRoom {
        path: shown.to_path_buf(),
        why,
        source,
    };
    let file = OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|source| OutputError::Open {
            path: shown.to_path_buf(),
            source,
        })?;
    if len == 0 {
        return Ok(file);
    }
    match rustix::fs::fallocate(&file, rustix::fs::FallocateFlags::KEEP_SIZE, 0, len) {
        Ok(()) => Ok(file),
        Err(e)
            if len <= old_len
                && matches!(e, rustix::io::Errno::OPNOTSUPP | rustix::io::Errno::NOSYS) =>
        {
            Ok(file)
        }
        Err(e) => Err(no_room(e.into())),
    }
}

/// Refuses a read-only target (for root too, whom `access` lets write
/// anything): replacing it would discard what its mode says to keep.
fn refuse_read_only(shown: &Path, target: &Path, old: &fs::Metadata) -> Result<(), OutputError> {
    let writable = !old.permissions().readonly()
        && rustix::fs::access(target, rustix::fs::Access::WRITE_OK).is_ok();
    if !writable {
        return Err(OutputError::ReadOnly {
            path: shown.to_path_buf(),
        });
    }
    Ok(())
}

/// Writes `target` atomically ([`stage`], then renamed over it).
fn replace<F>(shown: &Path, target: &Path, write: F) -> Result<(), OutputError>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    stage(shown, target, write)?.commit()
}

/// How one of several outputs is filled.
pub type Filler<'a> = Box<dyn FnOnce(&mut dyn Write) -> io::Result<()> + 'a>;

/// Writes several outputs so that they land together or not at all: every
/// replaced file is written in full to its temporary file (the step that
/// fails on a full disk) before the first is renamed over its target; on a
/// failure every temporary file is removed and every old file is left as
/// it was. Renaming within a directory takes no space, so once every file
/// is written the renames do not fail for want of it. Outputs written
/// straight (standard output, a device) are written after the renames.
///
/// # Errors
/// The first [`OutputError`], naming its path.
pub fn write_together(outputs: Vec<(&Output, Filler<'_>)>) -> Result<(), crate::common::CliError> {
    let mut staged = Vec::new();
    let mut straight = Vec::new();
    for (output, fill) in outputs {
        match &output.target {
            Target::Replace(target) => staged.push(stage(&output.shown, target, fill)?),
            _ => straight.push((output, fill)),
        }
    }
    for s in staged {
        s.commit()?;
    }
    for (output, fill) in straight {
        output.write(fill)?;
    }
    Ok(())
}

/// Removes every temporary file being written: the process is about to
/// end before their writers finish.
pub fn remove_temporaries() {
    for path in pending().drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// Installs a handler that, on SIGINT, SIGTERM or SIGHUP, removes every
/// temporary file being written and then ends the process as the signal
/// would have.
///
/// # Errors
/// When the handler cannot be installed.
pub fn remove_temporaries_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                remove_temporaries();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in a directory, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn write(output: &Output, text: &str) -> Result<(), crate::common::CliError> {
        output.write(|w| w.write_all(text.as_bytes()))
    }

    #[test]
    fn a_new_file_is_written_and_an_old_one_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write(&Output::resolve(&path, &[]).unwrap(), "first").unwrap();
        write(&Output::resolve(&path, &[]).unwrap(), "second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn a_symlink_stays_a_link_and_its_target_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.md");
        let link = dir.path().join("link.md");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.md", &link).unwrap();
        write(&Output::resolve(&link, &[]).unwrap(), "new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(names(dir.path()), ["link.md", "real.md"]);
    }

    #[test]
    fn a_dangling_symlink_creates_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink("made.md", &link).unwrap();
        write(&Output::resolve(&link, &[]).unwrap(), "made").unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("made.md")).unwrap(),
            "made"
        );
    }

    #[test]
    fn a_directory_and_an_input_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = Output::resolve(dir.path(), &[]).unwrap_err();
        assert!(matches!(err, OutputError::Directory { .. }), "{err}");
        // A directory not there yet is no file name either.
        let err = Output::resolve(&dir.path().join("out/"), &[]).unwrap_err();
        assert!(matches!(err, OutputError::NotAFileName { .. }), "{err}");
        let board = dir.path().join("board.json");
        fs::write(&board, "{}").unwrap();
        let link = dir.path().join("alias.json");
        std::os::unix::fs::symlink(&board, &link).unwrap();
        let err = Output::resolve(&link, &[&board]).unwrap_err();
        assert!(matches!(err, OutputError::SameAsInput { .. }), "{err}");
        assert!(err.is_misuse());
        assert!(err.to_string().contains("alias.json"), "{err}");
    }

    #[test]
    fn a_character_device_is_written_straight() {
        let output = Output::resolve(Path::new("/dev/null"), &[]).unwrap();
        assert!(
            matches!(output.target, Target::Straight { .. }),
            "{output:?}"
        );
        write(&output, "gone").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }

    #[test]
    fn a_failing_writer_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "kept").unwrap();
        let output = Output::resolve(&path, &[]).unwrap();
        let result = output.write(|w| {
            w.write_all(&[b'x'; 100_000])?;
            Err(io::Error::other("gave up"))
        });
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "kept");
        assert_eq!(names(dir.path()), ["out.txt"]);
        assert!(!pending().iter().any(|p| p.starts_with(dir.path())));
    }

    /// Several outputs land together: when the last one fails to be
    /// written (as on a full disk), no old file is replaced and no
    /// temporary file remains.
    #[test]
    fn outputs_written_together_land_all_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let chart = dir.path().join("r-length.svg");
        let doc = dir.path().join("r.md");
        fs::write(&chart, "old chart").unwrap();
        fs::write(&doc, "old report").unwrap();
        let chart_out = Output::resolve(&chart, &[]).unwrap();
        let doc_out = Output::resolve(&doc, &[]).unwrap();
        let result = write_together(vec![
            (
                &chart_out,
                Box::new(|w: &mut dyn Write| w.write_all(b"new chart")),
            ),
            (
                &doc_out,
                Box::new(|w: &mut dyn Write| {
                    w.write_all(b"new rep")?;
                    Err(io::Error::from_raw_os_error(28))
                }),
            ),
        ]);
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(&chart).unwrap(), "old chart");
        assert_eq!(fs::read_to_string(&doc).unwrap(), "old report");
        assert_eq!(names(dir.path()), ["r-length.svg", "r.md"]);
        write_together(vec![
            (
                &chart_out,
                Box::new(|w: &mut dyn Write| w.write_all(b"new chart")),
            ),
            (
                &doc_out,
                Box::new(|w: &mut dyn Write| w.write_all(b"new report")),
            ),
        ])
        .unwrap();
        assert_eq!(fs::read_to_string(&chart).unwrap(), "new chart");
        assert_eq!(fs::read_to_string(&doc).unwrap(), "new report");
    }

    /// A replaced file keeps its owner and group (tried as root, who can
    /// give a file away; elsewhere the owner is the writer's own).
    #[test]
    fn the_old_owner_is_kept() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        // The directory is the test's own: its owner is who runs it.
        if fs::metadata(dir.path()).unwrap().uid() == 0 {
            std::os::unix::fs::chown(&path, Some(4242), Some(4343)).unwrap();
        }
        let before = fs::metadata(&path).unwrap();
        write(&Output::resolve(&path, &[]).unwrap(), "new").unwrap();
        let after = fs::metadata(&path).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    }

    /// A file with another hard link is written in place, so both names
    /// keep showing one file; a read-only file is refused with the reason,
    /// and left as it was.
    #[test]
    fn a_linked_file_is_written_in_place_and_a_read_only_one_refused() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let other = dir.path().join("other.txt");
        fs::write(&path, "old").unwrap();
        fs::hard_link(&path, &other).unwrap();
        let inode = fs::metadata(&path).unwrap().ino();
        write(&Output::resolve(&path, &[]).unwrap(), "new and longer").unwrap();
        assert_eq!(fs::read_to_string(&other).unwrap(), "new and longer");
        write(&Output::resolve(&path, &[]).unwrap(), "short").unwrap();
        assert_eq!(fs::read_to_string(&other).unwrap(), "short");
        let meta = fs::metadata(&path).unwrap();
        assert_eq!((meta.ino(), meta.nlink()), (inode, 2));
        assert_eq!(names(dir.path()), ["other.txt", "out.txt"]);
        let locked = dir.path().join("locked.txt");
        fs::write(&locked, "old").unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
        let err = write(&Output::resolve(&locked, &[]).unwrap(), "new").unwrap_err();
        assert!(err.to_string().contains("is read-only"), "{err}");
        assert_eq!(fs::read_to_string(&locked).unwrap(), "old");
    }

    /// A target whose name is as long as a file system allows is written:
    /// its temporary file's name is no longer than it.
    #[test]
    fn a_long_name_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{}.md", "é".repeat(126)));
        assert_eq!(path.file_name().unwrap().len(), 255);
        write(&Output::resolve(&path, &[]).unwrap(), "first").unwrap();
        write(&Output::resolve(&path, &[]).unwrap(), "second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
    }

    #[test]
    fn the_old_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write(&Output::resolve(&path, &[]).unwrap(), "new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}
