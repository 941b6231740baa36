//! The file medium (feature `record-store-fs`, `std`): one directory, one file per record, and
//! the writer markers beside them. The one place this crate touches a file system.
//!
//! # Layout
//!
//! ```text
//! <dir>/<id>.json                 the record's stored bytes (whatever the store's seal wrote)
//! <dir>/<id>.writer               the writer marker: the writer id and one "\n"
//! <dir>/.<id>.<n>.record.tmp      a whole write in flight, or left behind by a crash
//! <dir>/.<id>.<n>.writer.tmp      a marker transfer in flight, or left behind by a crash
//! ```
//!
//! [`FileMedium::open`] creates the directory (and its parents) when it is missing, and refuses
//! a path that exists and is not a directory. Only `<id>.json` files whose `<id>` is a safe id
//! are records: [`ids`](RecordMedium::ids) skips markers, temporary files, sub-directories,
//! names that are not UTF-8 and every other file a host keeps there.
//!
//! # Ids never leave the directory
//!
//! The store checks ids before they reach a medium, and this medium checks them again before it
//! builds a path from one: an id is used only when it is non-empty, made of `A-Z a-z 0-9 . _ -`,
//! does not start with `.` and holds no `..`. Any other id (one with `/`, `\`, a drive colon, a
//! NUL, …) is refused with [`FileMediumError::UnsafeId`] and no path is built from it.
//!
//! # Whole writes
//!
//! A write creates a fresh temporary file in the same directory (`create_new`, so two writers
//! never share one), writes the bytes, `sync_all`s it, renames it over `<id>.json` (atomic on
//! POSIX, and on Windows within one volume) and then syncs the directory, best effort (Windows
//! cannot open a directory as a file; the rename is still atomic there). A crash leaves the old
//! file or the new one, never a mix, plus at most one stray temporary file. Stray temporary
//! files are never listed and never read; [`FileMedium::sweep_temporaries`] removes them. Call
//! it when no writer of the directory runs (at host start-up, under the host's own lock): a
//! sweep that races a write removes the write's temporary file, and that write then fails with
//! an error, leaving the prior record in place (nothing is lost, the write is not done).
//!
//! # Writer markers across processes
//!
//! - **Marking** creates `<id>.writer` with `create_new` (`O_EXCL`), atomic across processes on
//!   local file systems (and on NFSv3 and later), then writes the writer id and a newline and
//!   syncs. When the marker exists it is read: naming the asking writer, the answer is
//!   [`WriterMark::Marked`]; anything else is [`WriterMark::HeldBy`].
//! - **An unreadable marker** (empty, without its final newline, not UTF-8, not a valid writer
//!   id, longer than a writer id can be) is what a writer leaves when it dies between creating
//!   the marker and finishing its write, or what a live writer's marker looks like for that
//!   instant. It is held, by the reserved writer [`FileMedium::UNREADABLE_MARKER`]: marking
//!   answers `HeldBy` with that id, and [`writer`](RecordMedium::writer) names it. It is
//!   recovered like any dead writer's marker, by unmarking (the store's `recover_writer`) with
//!   that very id, once the host knows no writer of the directory is mid-claim. No writer may
//!   call itself by the reserved id ([`FileMediumError::ReservedWriter`]).
//! - **Unmarking** reads the marker and removes it only when it names the writer (or is
//!   unreadable and the writer is the reserved id). **Transferring** reads the marker and, only
//!   when it names `from`, writes the new marker to a temporary file and renames it over the
//!   old one, so the record is never without a writer. Residual race, between processes: the
//!   read and the remove (or the rename) are two steps, so a marker that another actor removed
//!   and a third re-created in between would be removed (or replaced). That needs two actors to
//!   remove one marker at once, which happens only when a host recovers a writer that is in
//!   fact alive; the rule below is what prevents it.
//!
//! # A dead writer's marker
//!
//! A writer that stops without releasing (a crash, a kill, a power cut) leaves its marker, and
//! every other store over the directory is refused (`has-writer`) until it is removed. This
//! crate reads no clock and cannot see processes, so deciding that a writer is dead is the
//! host's: the writer id names something the host can check (a process id on this machine
//! that no longer runs, a boot id that is not the current boot, a lease of the host's own that
//! expired). Once it knows, the host calls the store's `recover_writer(id, dead)`, which
//! removes the marker only if it still names `dead`. Recovering a writer that is alive opens a
//! second writer of the record; a host that cannot tell must not recover.
//!
//! # What the medium never does
//!
//! It never decodes, never decides an outcome and never deletes or overwrites a record on its
//! own: a corrupt record stays byte for byte until the store writes over it (which a store
//! refuses for an unreadable record) or deletes it on an explicit request.
//!
//! # Residuals of the file system
//!
//! - On a case-insensitive file system (the default on Windows and macOS) ids that differ only
//!   in case name one file. The store then reads the other id's record under this id and
//!   reports it corrupt (its id differs), so it refuses to write over it: nothing is lost, the
//!   second id is unusable. Hosts there should mint lowercase ids.
//! - Windows reserves device names (`CON`, `NUL`, `COM1`, …) even with an extension; an id
//!   like `con` fails there with an I/O error.
//! - The name of a temporary file is the id plus at most 33 bytes; with record ids of at most
//!   [`RecordId::MAX_LEN`](super::RecordId::MAX_LEN) bytes every name fits the usual 255-byte
//!   limit. A file system with a shorter limit fails such writes with an I/O error, never
//!   silently.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::medium::{RecordMedium, WriterId, WriterMark};
use super::seal::Unsealed;
use super::store::RecordStore;

/// The file store: a [`RecordStore`] over a [`FileMedium`], unsealed unless a seal is named.
/// Two of them over one directory (in one process or two) are two writers of one set of
/// records.
pub type FileRecordStore<S = Unsealed> = RecordStore<FileMedium, S>;

/// The extension of a record file.
const RECORD_SUFFIX: &str = ".json";
/// The extension of a writer marker.
const MARKER_SUFFIX: &str = ".writer";
/// The end of a temporary record file's name.
const RECORD_TEMP_SUFFIX: &str = ".record.tmp";
/// The end of a temporary marker file's name.
const MARKER_TEMP_SUFFIX: &str = ".writer.tmp";
/// How many fresh names a temporary file or a marker claim tries before it reports the last
/// failure: only ever reached when other processes keep creating the same names.
const ATTEMPTS: u32 = 64;

/// Numbers temporary files, process-wide, so two media over one directory in one process never
/// pick the same name; `create_new` settles clashes with other processes.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// What the medium was doing on the file system when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileOperation {
    /// Creating or inspecting the directory ([`FileMedium::open`]).
    OpenDirectory,
    /// Listing the directory.
    ListDirectory,
    /// Reading a record file.
    ReadRecord,
    /// Creating, writing or syncing the temporary file of a whole write.
    WriteTemporary,
    /// Renaming the temporary file over the record.
    ReplaceRecord,
    /// Removing a record file.
    RemoveRecord,
    /// Removing a stray temporary file ([`FileMedium::sweep_temporaries`]).
    RemoveTemporary,
    /// Reading a writer marker.
    ReadMarker,
    /// Creating, writing or syncing a writer marker.
    WriteMarker,
    /// Renaming a new marker over the old one (a transfer).
    ReplaceMarker,
    /// Removing a writer marker.
    RemoveMarker,
}

impl FileOperation {
    /// What the operation does, as a phrase.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::OpenDirectory => "open the directory",
            Self::ListDirectory => "list the directory",
            Self::ReadRecord => "read the record",
            Self::WriteTemporary => "write the temporary file",
            Self::ReplaceRecord => "replace the record",
            Self::RemoveRecord => "remove the record",
            Self::RemoveTemporary => "remove the temporary file",
            Self::ReadMarker => "read the writer marker",
            Self::WriteMarker => "write the writer marker",
            Self::ReplaceMarker => "replace the writer marker",
            Self::RemoveMarker => "remove the writer marker",
        }
    }
}

impl fmt::Display for FileOperation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the file medium failed. Never used for what a record holds: the medium hands bytes to the
/// store, which decides the outcome.
///
/// An I/O failure keeps what the operating system said as values (kind, raw code, message)
/// rather than the [`io::Error`] itself, so the error is `Clone` and `Eq` like the store errors
/// it travels in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileMediumError {
    /// The id could name a path outside the directory, or no file at all; no path was built
    /// from it (see the module docs for what an id may hold).
    UnsafeId {
        /// The refused id.
        id: String,
    },
    /// A writer called itself by [`FileMedium::UNREADABLE_MARKER`], the id reserved for markers
    /// that name no one; nothing changed.
    ReservedWriter,
    /// The path given to [`FileMedium::open`] exists and is not a directory.
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// A file-system operation failed.
    Io {
        /// What the medium was doing.
        operation: FileOperation,
        /// The file or directory it was doing it to.
        path: PathBuf,
        /// The kind of failure.
        kind: io::ErrorKind,
        /// The operating system's own error code, when it gave one (`errno` on POSIX).
        code: Option<i32>,
        /// What the operating system said.
        message: String,
    },
}

impl FileMediumError {
    /// The operating system's error kind, for an I/O failure.
    #[must_use]
    pub fn kind(&self) -> Option<io::ErrorKind> {
        match self {
            Self::Io { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The operation that failed, for an I/O failure.
    #[must_use]
    pub const fn operation(&self) -> Option<FileOperation> {
        match self {
            Self::Io { operation, .. } => Some(*operation),
            _ => None,
        }
    }

    /// The operating system's own error code of an I/O failure, when it gave one.
    #[must_use]
    pub const fn code(&self) -> Option<i32> {
        match self {
            Self::Io { code, .. } => *code,
            _ => None,
        }
    }

    fn io(operation: FileOperation, path: &Path, error: io::Error) -> Self {
        Self::Io {
            operation,
            path: path.to_owned(),
            kind: error.kind(),
            code: error.raw_os_error(),
            message: error.to_string(),
        }
    }
}

impl fmt::Display for FileMediumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnsafeId { id } => write!(
                f,
                "the record id {id:?} is not safe as a file name (only A-Z a-z 0-9 . _ -, no \
                 leading '.', no '..')"
            ),
            Self::ReservedWriter => write!(
                f,
                "the writer id {:?} is reserved for unreadable writer markers",
                FileMedium::UNREADABLE_MARKER
            ),
            Self::NotADirectory { path } => {
                write!(f, "{} exists and is not a directory", path.display())
            }
            Self::Io {
                operation,
                path,
                message,
                ..
            } => write!(f, "cannot {operation} {}: {message}", path.display()),
        }
    }
}

impl core::error::Error for FileMediumError {}

/// What a writer marker on disk says.
enum Marker {
    /// No marker.
    Absent,
    /// A whole marker naming a writer.
    Names(WriterId),
    /// A marker that names no one (see the module docs).
    Unreadable,
}

/// A [`RecordMedium`] over one directory: one `<id>.json` file per record, written whole
/// through a temporary file and a rename, and `<id>.writer` markers created with `create_new`,
/// so two processes over the directory never both mark one record. See the module docs for the
/// layout, the guarantees and their residuals.
///
/// Two media over one directory (in one process or in two) see each other's records and
/// markers; that is how two processes share a store.
#[derive(Clone, Debug)]
pub struct FileMedium {
    dir: PathBuf,
    /// [`Self::UNREADABLE_MARKER`] as a writer id, built once.
    unreadable: WriterId,
}

impl FileMedium {
    /// The writer id a marker that names no one is held by (see the module docs): what
    /// [`WriterMark::HeldBy`] and [`writer`](RecordMedium::writer) report for it, and what a
    /// host recovers it with. Reserved: no writer may use it.
    pub const UNREADABLE_MARKER: &'static str = "(unreadable writer marker)";

    /// A medium over the directory `dir`, which is created (with its parents) when missing.
    ///
    /// # Errors
    /// [`FileMediumError::NotADirectory`] when `dir` exists and is not a directory;
    /// [`FileMediumError::Io`] when it cannot be created or inspected.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Self, FileMediumError> {
        let dir = dir.into();
        let open = FileOperation::OpenDirectory;
        fs::create_dir_all(&dir).map_err(|error| match fs::metadata(&dir) {
            Ok(found) if !found.is_dir() => FileMediumError::NotADirectory { path: dir.clone() },
            _ => FileMediumError::io(open, &dir, error),
        })?;
        let found = fs::metadata(&dir).map_err(|error| FileMediumError::io(open, &dir, error))?;
        if !found.is_dir() {
            return Err(FileMediumError::NotADirectory { path: dir });
        }
        // The reserved id is a valid writer id (a unit test pins it); were it not, no medium
        // opens rather than one that cannot report an unreadable marker.
        let unreadable = WriterId::new(Self::UNREADABLE_MARKER).map_err(|error| {
            let source = io::Error::new(io::ErrorKind::InvalidData, error);
            FileMediumError::io(open, &dir, source)
        })?;
        Ok(Self { dir, unreadable })
    }

    /// The directory this medium keeps its records in, as it was given.
    #[must_use]
    pub fn directory(&self) -> &Path {
        &self.dir
    }

    /// Removes every temporary file a write or a transfer left behind (a crash between creating
    /// it and renaming it), and answers how many it removed. Records and markers are untouched.
    ///
    /// Call it when no writer of the directory runs (see the module docs): a sweep that races a
    /// write makes that write fail, never lose or mix a record.
    ///
    /// # Errors
    /// When the directory cannot be listed or a temporary file cannot be removed (the files
    /// before it are removed).
    pub fn sweep_temporaries(&self) -> Result<usize, FileMediumError> {
        let mut removed = 0;
        for name in self.names()? {
            if name.starts_with('.')
                && (name.ends_with(RECORD_TEMP_SUFFIX) || name.ends_with(MARKER_TEMP_SUFFIX))
            {
                let path = self.dir.join(&name);
                match fs::remove_file(&path) {
                    Ok(()) => removed += 1,
                    Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                    Err(error) => {
                        return Err(FileMediumError::io(
                            FileOperation::RemoveTemporary,
                            &path,
                            error,
                        ));
                    }
                }
            }
        }
        Ok(removed)
    }

    /// The UTF-8 names of the directory's entries that are not directories, unsorted.
    fn names(&self) -> Result<Vec<String>, FileMediumError> {
        let list = |error| FileMediumError::io(FileOperation::ListDirectory, &self.dir, error);
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(list)? {
            let entry = entry.map_err(list)?;
            let is_dir = entry.file_type().map_err(list)?.is_dir();
            if let (false, Ok(name)) = (is_dir, entry.file_name().into_string()) {
                names.push(name);
            }
        }
        Ok(names)
    }

    /// The path of `id` with `suffix`, for a safe id only.
    fn path(&self, id: &str, suffix: &str) -> Result<PathBuf, FileMediumError> {
        if is_safe_id(id) {
            Ok(self.dir.join(format!("{id}{suffix}")))
        } else {
            Err(FileMediumError::UnsafeId { id: id.to_owned() })
        }
    }

    /// Creates a fresh temporary file for `id` (`create_new`), holding `bytes`, synced.
    fn temporary(&self, id: &str, suffix: &str, bytes: &[u8]) -> Result<PathBuf, io::Error> {
        let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
        for _ in 0..ATTEMPTS {
            let number = TEMPORARY.fetch_add(1, Ordering::Relaxed);
            let path = self.dir.join(format!(".{id}.{number}{suffix}"));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    return fill(file, bytes).map(|()| path.clone()).inspect_err(|_| {
                        let _ = fs::remove_file(&path);
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = error,
                Err(error) => return Err(error),
            }
        }
        Err(last)
    }

    /// What the marker at `path` says.
    fn read_marker(&self, path: &Path) -> Result<Marker, FileMediumError> {
        let file = match File::open(path) {
            Ok(file) => file,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Marker::Absent),
            Err(error) => return Err(FileMediumError::io(FileOperation::ReadMarker, path, error)),
        };
        // One more byte than a whole marker can hold tells an over-long one apart.
        let limit = (WriterId::MAX_LEN as u64).saturating_add(2);
        let mut bytes = Vec::new();
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|error| FileMediumError::io(FileOperation::ReadMarker, path, error))?;
        let named = bytes
            .strip_suffix(b"\n")
            .and_then(|id| core::str::from_utf8(id).ok())
            .and_then(|id| WriterId::new(id).ok());
        Ok(named.map_or(Marker::Unreadable, Marker::Names))
    }

    /// True when `marker` is one `writer` may remove or hand on.
    fn releasable_by(&self, marker: &Marker, writer: &WriterId) -> bool {
        match marker {
            Marker::Absent => false,
            Marker::Names(named) => named == writer,
            Marker::Unreadable => *writer == self.unreadable,
        }
    }

    /// Refuses the reserved id as a writer that marks.
    fn claimable(&self, writer: &WriterId) -> Result<(), FileMediumError> {
        if *writer == self.unreadable {
            Err(FileMediumError::ReservedWriter)
        } else {
            Ok(())
        }
    }
}

/// True for an id this medium builds a file name from: non-empty, `A-Z a-z 0-9 . _ -` only, no
/// leading `.` (hidden, and the temporary files' prefix), no `..`.
fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && !id.contains("..")
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-'))
}

/// The marker text of `writer`: its id and one newline (the newline tells a whole marker from
/// one cut short).
fn marker_text(writer: &WriterId) -> Vec<u8> {
    let mut text = Vec::with_capacity(writer.as_str().len().saturating_add(1));
    text.extend_from_slice(writer.as_str().as_bytes());
    text.push(b'\n');
    text
}

/// Writes `bytes` into a fresh file and syncs it.
fn fill(mut file: File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Syncs a directory so a rename or a removal in it is durable; best effort (Windows cannot
/// open a directory as a file, and some file systems refuse to sync one).
fn sync_directory(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

impl RecordMedium for FileMedium {
    type Error = FileMediumError;

    async fn read(&self, id: &str) -> Result<Option<Vec<u8>>, Self::Error> {
        let path = self.path(id, RECORD_SUFFIX)?;
        match fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(FileMediumError::io(FileOperation::ReadRecord, &path, error)),
        }
    }

    async fn write(&self, id: &str, bytes: &[u8]) -> Result<(), Self::Error> {
        let path = self.path(id, RECORD_SUFFIX)?;
        let temporary = self
            .temporary(id, RECORD_TEMP_SUFFIX, bytes)
            .map_err(|error| {
                FileMediumError::io(FileOperation::WriteTemporary, &self.dir, error)
            })?;
        if let Err(error) = fs::rename(&temporary, &path) {
            let _ = fs::remove_file(&temporary);
            return Err(FileMediumError::io(
                FileOperation::ReplaceRecord,
                &path,
                error,
            ));
        }
        sync_directory(&self.dir);
        Ok(())
    }

    async fn remove(&self, id: &str) -> Result<(), Self::Error> {
        let path = self.path(id, RECORD_SUFFIX)?;
        match fs::remove_file(&path) {
            Ok(()) => {
                sync_directory(&self.dir);
                Ok(())
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(FileMediumError::io(
                FileOperation::RemoveRecord,
                &path,
                error,
            )),
        }
    }

    async fn ids(&self) -> Result<Vec<String>, Self::Error> {
        let mut ids: Vec<String> = self
            .names()?
            .into_iter()
            .filter_map(|mut name| {
                let stem = name.strip_suffix(RECORD_SUFFIX)?.len();
                name.truncate(stem);
                is_safe_id(&name).then_some(name)
            })
            .collect();
        ids.sort_unstable();
        Ok(ids)
    }

    async fn mark_writer(&self, id: &str, writer: &WriterId) -> Result<WriterMark, Self::Error> {
        self.claimable(writer)?;
        let path = self.path(id, MARKER_SUFFIX)?;
        let write = |error| FileMediumError::io(FileOperation::WriteMarker, &path, error);
        for _ in 0..ATTEMPTS {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    // Ours alone since `create_new` succeeded: a marker we could not fill
                    // would name no one, so it goes.
                    if let Err(error) = fill(file, &marker_text(writer)) {
                        let _ = fs::remove_file(&path);
                        return Err(write(error));
                    }
                    sync_directory(&self.dir);
                    return Ok(WriterMark::Marked);
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(write(error)),
            }
            match self.read_marker(&path)? {
                // Removed between our create and our read: try to create it again.
                Marker::Absent => {}
                Marker::Names(named) if named == *writer => return Ok(WriterMark::Marked),
                Marker::Names(named) => return Ok(WriterMark::HeldBy(named)),
                Marker::Unreadable => return Ok(WriterMark::HeldBy(self.unreadable.clone())),
            }
        }
        Err(write(io::Error::new(
            io::ErrorKind::WouldBlock,
            "the writer marker kept appearing and vanishing",
        )))
    }

    async fn writer(&self, id: &str) -> Result<Option<WriterId>, Self::Error> {
        let path = self.path(id, MARKER_SUFFIX)?;
        Ok(match self.read_marker(&path)? {
            Marker::Absent => None,
            Marker::Names(named) => Some(named),
            Marker::Unreadable => Some(self.unreadable.clone()),
        })
    }

    async fn unmark_writer(&self, id: &str, writer: &WriterId) -> Result<bool, Self::Error> {
        let path = self.path(id, MARKER_SUFFIX)?;
        if !self.releasable_by(&self.read_marker(&path)?, writer) {
            return Ok(false);
        }
        match fs::remove_file(&path) {
            Ok(()) => {
                sync_directory(&self.dir);
                Ok(true)
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(error) => Err(FileMediumError::io(
                FileOperation::RemoveMarker,
                &path,
                error,
            )),
        }
    }

    async fn transfer_writer(
        &self,
        id: &str,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Self::Error> {
        self.claimable(to)?;
        let path = self.path(id, MARKER_SUFFIX)?;
        if !self.releasable_by(&self.read_marker(&path)?, from) {
            return Ok(false);
        }
        let temporary = self
            .temporary(id, MARKER_TEMP_SUFFIX, &marker_text(to))
            .map_err(|error| FileMediumError::io(FileOperation::WriteMarker, &self.dir, error))?;
        if let Err(error) = fs::rename(&temporary, &path) {
            let _ = fs::remove_file(&temporary);
            return Err(FileMediumError::io(
                FileOperation::ReplaceMarker,
                &path,
                error,
            ));
        }
        sync_directory(&self.dir);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserved_writer_id_is_a_valid_writer_id() {
        assert!(WriterId::new(FileMedium::UNREADABLE_MARKER).is_ok());
    }

    #[test]
    fn only_plain_ids_are_safe() {
        for id in ["s1", "a.b", "A-Z_0.9", "x-"] {
            assert!(is_safe_id(id), "{id}");
        }
        for id in [
            "", ".", "..", ".hidden", "a/b", "a\\b", "a..b", "../x", "c:x", "a\0b", "é", "a b",
        ] {
            assert!(!is_safe_id(id), "{id:?}");
        }
    }
}
