//! The file medium (feature `record-store-fs`, `std`): one directory, one file per record, and
//! the writer markers beside them. The one place this crate touches a file system.
//!
//! # Layout
//!
//! ```text
//! <dir>/<id>.json                     the record's stored bytes (whatever the store's seal wrote)
//! <dir>/<id>.writer                   the writer marker: the writer id (and its lease) and one "\n"
//! <dir>/.writers.lock                 the lock a marker's compare-and-swap holds (never removed)
//! <dir>/.<id>.<pid>-<n>.record.tmp    a whole write in flight, or left behind by a kill
//! <dir>/.<id>.<pid>-<n>.writer.tmp    a marker claim or transfer in flight, or left by a kill
//! <dir>/.<id>.<n>.record.tmp          the same two, as older versions of this crate named
//! <dir>/.<id>.<n>.writer.tmp            them (read only to be cleaned up)
//! ```
//!
//! `<pid>` is the writing process's id and `<n>` a number counted up within that process, so
//! two live processes never pick one name, and a stray of a dead process never blocks a write
//! (a name taken, by a stray of an earlier process with the same pid or by a process with the
//! same pid in another pid namespace, is skipped for the next number).
//!
//! [`FileMedium::open`] creates the directory (and its parents) when it is missing, and refuses
//! a path that exists and is not a directory. Only `<id>.json` files whose `<id>` is a valid
//! [`RecordId`] are records: [`ids`](RecordMedium::ids) skips markers, temporary files,
//! sub-directories, names that are not UTF-8 and every other file a host keeps there.
//!
//! # Ids never leave the directory
//!
//! Every call names a [`RecordId`]: non-empty, at most [`RecordId::MAX_LEN`] bytes of
//! `A-Z a-z 0-9 . _ -`, not starting with `.` and holding no `..`. It was checked once, where it
//! was made, so this medium builds a path from it as it is: no id reaching it can hold `/`, `\`,
//! a drive colon or a NUL, or name a parent or a hidden file.
//!
//! # Whole writes
//!
//! A write creates a fresh temporary file in the same directory (`create_new`, so two writers
//! never share one), writes the bytes, `sync_all`s it, renames it over `<id>.json` (atomic on
//! POSIX, and on Windows within one volume) and then syncs the directory, best effort (Windows
//! cannot open a directory as a file; the rename is still atomic there). A kill leaves the old
//! file or the new one, never a mix, plus at most one stray temporary file. A temporary file
//! that vanishes before its rename (a sweep or a claim removed it, below) is written afresh:
//! the write takes longer, it does not fail.
//!
//! # Stray temporary files
//!
//! Stray temporary files are never listed and never read. They are removed, without the host
//! having to know about them, at exactly one moment: when
//! [`mark_writer`](RecordMedium::mark_writer) creates the marker of an id (a store's claiming
//! load, save or delete that takes the claim), it removes the temporary files **of that id**
//! (both namings above) **last written at least ten minutes ago** (by their modification
//! time). Nothing else goes: no other id's temporary files, no younger ones, no record, no
//! marker, no file named otherwise. It is best effort: a file that cannot be removed stays for
//! the next claim, and the claim stands.
//!
//! That never costs a live write: a store writes an id only under its own marker, so when a
//! process creates the marker, no other process is writing that id, and the temporary files of
//! processes racing for the claim are seconds old at most. Ten minutes covers a writer outside
//! that rule (a host that recovered a writer that was alive, a process stopped mid-write); even
//! then the write whose temporary file vanished starts again with a fresh one.
//!
//! [`FileMedium::sweep_temporaries`] removes every temporary file at once, of every id and any
//! age: call it when no writer of the directory runs (at host start-up, under the host's own
//! lock). A write or claim it races starts again with a fresh temporary file (a bounded number
//! of times), never loses or mixes a record.
//!
//! # Writer markers across processes
//!
//! - **Marking** reads the marker. When there is none, it writes the writer id and a newline to
//!   a fresh temporary file, syncs it, and hard-links it to `<id>.writer`, which fails when that
//!   name exists: one atomic no-replace step across processes on local file systems (and on
//!   NFS). The temporary name is then removed. The marker therefore appears whole or not at
//!   all: a kill at any moment leaves no marker, or a whole one (and perhaps a stray temporary
//!   file, cleaned up as above). When the link finds a marker, it is read: naming the asking
//!   writer, the answer is [`WriterMark::Marked`] (also what an NFS link whose reply was lost
//!   finds); anything else is [`WriterMark::HeldBy`]. A file system without hard links (FAT,
//!   exFAT) cannot mark: marking fails with a [`FileOperation::WriteMarker`] error.
//! - **An unreadable marker** (empty, without its final newline, not UTF-8, not a valid writer
//!   id, longer than a writer id can be) is never left by this version. It is what an older
//!   version of this crate left when it was killed between creating its marker and writing it
//!   (it did the two in turn), what a foreign tool or a damaged disk leaves, or, for an
//!   instant, what an older version's live claim looks like. It is held by the reserved writer
//!   [`FileMedium::UNREADABLE_MARKER`]: marking answers `HeldBy` with that id, and
//!   [`writer`](RecordMedium::writer) (the store's `writer_of`) names it. The dead writer's own
//!   id does not recover it (the marker names no one); see *Recovering an unreadable marker*.
//!   No writer may call itself by the reserved id ([`FileMediumError::ReservedWriter`]).
//! - **Unmarking** reads the marker and removes it only when it names the writer (or is
//!   unreadable and the writer is the reserved id). **Transferring** reads the marker and, only
//!   when it names `from`, writes the new marker to a temporary file and renames it over the
//!   old one, so the record is never without a writer. Both hold the directory's advisory lock
//!   (`.writers.lock`, `File::lock`) from the read to the remove or the rename, so they are one
//!   compare-and-swap for every thread and process over the directory: writers racing to take
//!   over one lapsed lease never both win. The operating system drops the lock of a process
//!   that dies, so a crash never leaves the directory locked. A fresh mark needs no lock (the
//!   hard link appears whole or fails).
//!
//! # A dead writer's marker
//!
//! A writer that stops without releasing (a crash, a kill, a power cut) leaves its marker, and
//! every other store over the directory is refused (`has-writer`) until it is removed. This
//! crate cannot see processes and reads no clock (the age of a stray temporary file is measured
//! against the modification time of the marker just written, on the file system's clock), so
//! deciding that a writer is dead is the host's: the writer id names something the host can
//! check (a process id on this machine that no longer runs, a boot id that is not the current
//! boot, a lease of the host's own that expired). Once it knows, the host calls the store's
//! `recover_writer(id, dead)`, which removes the marker only if it still names `dead`.
//! Recovering a writer that is alive opens a second writer of the record; a host that cannot
//! tell must not recover.
//!
//! # Recovering an unreadable marker
//!
//! When the store's `writer_of(id)` answers `Other(Marked(w))` with `w` the reserved
//! [`FileMedium::UNREADABLE_MARKER`], the host recovers the marker with that very id:
//!
//! ```text
//! let unreadable = WriterId::new(FileMedium::UNREADABLE_MARKER)?;
//! store.recover_writer(id, &unreadable)   // true: the unreadable marker is gone
//! ```
//!
//! It removes the marker only while it is still unreadable (a whole marker that replaced it in
//! between stays). Do it once no process of an older version of this crate may be mid-claim
//! over the directory; when every process runs this version, an unreadable marker is never in
//! flight and may be recovered as soon as it is seen.
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
//! - The name of a temporary file is the id plus at most 44 bytes; with record ids of at most
//!   [`RecordId::MAX_LEN`](super::RecordId::MAX_LEN) bytes every name fits the usual 255-byte
//!   limit. A file system with a shorter limit fails such writes with an I/O error, never
//!   silently.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::medium::{RecordMedium, WriterId, WriterMark};
use super::seal::Unsealed;
use super::store::{RecordId, RecordStore};

/// The file store: a [`RecordStore`] over a [`FileMedium`], unsealed unless a seal is named.
/// Two of them over one directory (in one process or two) are two writers of one set of
/// records.
pub type FileRecordStore<S = Unsealed> = RecordStore<FileMedium, S>;

/// The extension of a record file.
const RECORD_SUFFIX: &str = ".json";
/// The lock file every compare-and-swap on a marker of the directory holds (an advisory lock
/// the operating system drops when its process dies). Never removed; not a record, not a
/// temporary file.
const MARKER_LOCK: &str = ".writers.lock";

/// The extension of a writer marker.
const MARKER_SUFFIX: &str = ".writer";
/// The end of a temporary record file's name.
const RECORD_TEMP_SUFFIX: &str = ".record.tmp";
/// The end of a temporary marker file's name.
const MARKER_TEMP_SUFFIX: &str = ".writer.tmp";
/// How many times a marker claim reads and links, or a write starts again with a fresh
/// temporary file, before it reports the last failure: only ever reached when other processes
/// keep creating and removing the very same files.
const ATTEMPTS: u32 = 64;
/// How many names a temporary file tries (skipping names taken by strays of an earlier process
/// with the same pid) before it reports the clash.
const NAMES: u32 = 1 << 16;
/// How old a temporary file of an id must be (since it was last written) before a claim of that
/// id removes it as a stray (see the module docs).
const STALE: Duration = Duration::from_secs(10 * 60);

/// Numbers temporary files within this process (the pid tells processes apart), so two media
/// over one directory in one process never pick the same name; `create_new` settles clashes.
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
    /// Removing a stray temporary file ([`FileMedium::sweep_temporaries`]; a claim's own
    /// clean-up ignores its failures).
    RemoveTemporary,
    /// Reading a writer marker.
    ReadMarker,
    /// Creating, writing or syncing a writer marker's temporary file, or linking it into place
    /// as the marker.
    WriteMarker,
    /// Renaming a new marker over the old one (a transfer).
    ReplaceMarker,
    /// Removing a writer marker.
    RemoveMarker,
    /// Opening or locking the directory's marker lock file (`.writers.lock`), which every
    /// compare-and-swap on a marker holds.
    LockMarkers,
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
            Self::LockMarkers => "lock the writer markers",
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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileMediumError {
    /// A writer called itself by [`FileMedium::UNREADABLE_MARKER`], the id reserved for markers
    /// that name no one; nothing changed.
    #[error(
        "the writer id {:?} is reserved for unreadable writer markers",
        FileMedium::UNREADABLE_MARKER
    )]
    ReservedWriter,
    /// The path given to [`FileMedium::open`] exists and is not a directory.
    #[error("{} exists and is not a directory", .path.display())]
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// A file-system operation failed.
    #[error("cannot {operation} {}: {message}", .path.display())]
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
/// through a temporary file and a rename, and `<id>.writer` markers hard-linked into place from
/// a whole temporary file, so two processes over the directory never both mark one record and a
/// kill never leaves a marker cut short. See the module docs for the layout, the clean-up of
/// stray temporary files, the guarantees and their residuals.
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
    /// host recovers it with: `store.recover_writer(id, &WriterId::new(UNREADABLE_MARKER)?)`
    /// removes a marker that is still unreadable (the dead writer's own id does not, since the
    /// marker does not name it). Reserved: no writer may use it.
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

    /// Removes every temporary file of every id, whatever its age (see the module docs), and
    /// answers how many it removed. Records, markers and every other file are untouched.
    ///
    /// Meant for a time when no writer of the directory runs (at host start-up, under the
    /// host's own lock): a write or a claim whose temporary file it removes starts again with a
    /// fresh one, which costs time but never a record.
    ///
    /// # Errors
    /// When the directory cannot be listed or a temporary file cannot be removed (the files
    /// before it are removed).
    pub fn sweep_temporaries(&self) -> Result<usize, FileMediumError> {
        self.remove_temporaries(None, None)
    }

    /// Removes the temporary files of `only` (or of every id) last written before `before`
    /// (every one when `None`), and answers how many it removed. A file whose modification time
    /// cannot be read is left alone.
    fn remove_temporaries(
        &self,
        only: Option<&str>,
        before: Option<SystemTime>,
    ) -> Result<usize, FileMediumError> {
        let mut removed = 0;
        for name in self.names()? {
            let Some(id) = temporary_of(&name) else {
                continue;
            };
            let path = self.dir.join(&name);
            let stale = |before: SystemTime| {
                fs::symlink_metadata(&path)
                    .and_then(|found| found.modified())
                    .is_ok_and(|written| written <= before)
            };
            if only.is_some_and(|only| only != id) || !before.is_none_or(stale) {
                continue;
            }
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

    /// The path of `id` with `suffix`.
    fn path(&self, id: &RecordId, suffix: &str) -> PathBuf {
        self.dir.join(format!("{id}{suffix}"))
    }

    /// Creates a fresh temporary file for `id` (`create_new`, named with this process's id and
    /// the next number, a name taken skipped), holding `bytes`, synced.
    fn temporary(&self, id: &RecordId, suffix: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        let pid = std::process::id();
        let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
        for _ in 0..NAMES {
            let number = TEMPORARY.fetch_add(1, Ordering::Relaxed);
            let path = self.dir.join(format!(".{id}.{pid}-{number}{suffix}"));
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

    /// Writes `bytes` to a fresh temporary file of `id` and `put`s it in place (renames or
    /// links it to its final name), with a fresh temporary file again when the last one vanished
    /// before it was put (a sweep, or a claim that took it for a stray, removed it). The
    /// temporary file is removed when `put` fails; on success the caller gets its path (a link
    /// leaves it there).
    fn place(
        &self,
        id: &RecordId,
        suffix: &str,
        bytes: &[u8],
        put: impl Fn(&Path) -> io::Result<()>,
    ) -> Result<PathBuf, Placing> {
        let mut vanished = io::Error::from(io::ErrorKind::NotFound);
        for _ in 0..ATTEMPTS {
            let temporary = self
                .temporary(id, suffix, bytes)
                .map_err(Placing::Temporary)?;
            match put(&temporary) {
                Ok(()) => return Ok(temporary),
                Err(error) => {
                    let _ = fs::remove_file(&temporary);
                    if error.kind() != io::ErrorKind::NotFound {
                        return Err(Placing::Put(error));
                    }
                    vanished = error;
                }
            }
        }
        Err(Placing::Put(vanished))
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

    /// Holds the directory's marker lock until the file handed back is dropped: what makes
    /// reading a marker and then removing or replacing it one step for every process and thread
    /// over the directory.
    fn lock_markers(&self) -> Result<File, FileMediumError> {
        let path = self.dir.join(MARKER_LOCK);
        let failed = |error| FileMediumError::io(FileOperation::LockMarkers, &path, error);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(failed)?;
        file.lock().map_err(failed)?;
        Ok(file)
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

/// The id a temporary file of this medium belongs to, by its name: `.<id>.<pid>-<n><suffix>`,
/// or `.<id>.<n><suffix>` as older versions named them; `None` for any other name. The tag
/// after the last `.` of the stem holds no `.`, so the id is never mistaken for another's.
fn temporary_of(name: &str) -> Option<&str> {
    let stem = name.strip_prefix('.')?;
    let stem = stem
        .strip_suffix(RECORD_TEMP_SUFFIX)
        .or_else(|| stem.strip_suffix(MARKER_TEMP_SUFFIX))?;
    let (id, tag) = stem.rsplit_once('.')?;
    let number = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let tagged = tag
        .split_once('-')
        .map_or_else(|| number(tag), |(pid, n)| number(pid) && number(n));
    (tagged && RecordId::new(id).is_ok()).then_some(id)
}

/// Why [`FileMedium::place`] failed.
enum Placing {
    /// The temporary file could not be created, written or synced.
    Temporary(io::Error),
    /// It could not be put in place.
    Put(io::Error),
}

impl Placing {
    /// The medium's error: `temporary` for a temporary file (in the directory), `put` for
    /// putting it at `path`.
    fn into_error(
        self,
        temporary: FileOperation,
        put: FileOperation,
        dir: &Path,
        path: &Path,
    ) -> FileMediumError {
        match self {
            Self::Temporary(error) => FileMediumError::io(temporary, dir, error),
            Self::Put(error) => FileMediumError::io(put, path, error),
        }
    }
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

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Self::Error> {
        let path = self.path(id, RECORD_SUFFIX);
        match fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(FileMediumError::io(FileOperation::ReadRecord, &path, error)),
        }
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Self::Error> {
        let path = self.path(id, RECORD_SUFFIX);
        self.place(id, RECORD_TEMP_SUFFIX, bytes, |temporary| {
            fs::rename(temporary, &path)
        })
        .map_err(|failed| {
            let (write, replace) = (FileOperation::WriteTemporary, FileOperation::ReplaceRecord);
            failed.into_error(write, replace, &self.dir, &path)
        })?;
        sync_directory(&self.dir);
        Ok(())
    }

    async fn remove(&self, id: &RecordId) -> Result<(), Self::Error> {
        let path = self.path(id, RECORD_SUFFIX);
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

    async fn ids(&self) -> Result<Vec<RecordId>, Self::Error> {
        let mut ids: Vec<RecordId> = self
            .names()?
            .into_iter()
            .filter_map(|mut name| {
                let stem = name.strip_suffix(RECORD_SUFFIX)?.len();
                name.truncate(stem);
                RecordId::new(name).ok()
            })
            .collect();
        ids.sort_unstable();
        Ok(ids)
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Self::Error> {
        self.claimable(writer)?;
        let path = self.path(id, MARKER_SUFFIX);
        let text = marker_text(writer);
        for _ in 0..ATTEMPTS {
            match self.read_marker(&path)? {
                Marker::Absent => {}
                Marker::Names(named) if named == *writer => return Ok(WriterMark::Marked),
                Marker::Names(named) => return Ok(WriterMark::HeldBy(named)),
                Marker::Unreadable => return Ok(WriterMark::HeldBy(self.unreadable.clone())),
            }
            // The marker appears whole or not at all: a hard link of a whole, synced file, which
            // fails when the marker exists (then it is read again).
            match self.place(id, MARKER_TEMP_SUFFIX, &text, |temporary| {
                fs::hard_link(temporary, &path)
            }) {
                Ok(temporary) => {
                    let _ = fs::remove_file(&temporary);
                    sync_directory(&self.dir);
                    // Best effort: a stray left is removed by a later claim or a sweep. The
                    // age is measured on the file system's clock (the new marker's time), so
                    // the crate reads no clock of its own.
                    let now = fs::symlink_metadata(&path).and_then(|found| found.modified());
                    if let Some(before) = now.ok().and_then(|now| now.checked_sub(STALE)) {
                        let _ = self.remove_temporaries(Some(id.as_str()), Some(before));
                    }
                    return Ok(WriterMark::Marked);
                }
                Err(Placing::Put(error)) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(failed) => {
                    let write = FileOperation::WriteMarker;
                    return Err(failed.into_error(write, write, &self.dir, &path));
                }
            }
        }
        Err(FileMediumError::io(
            FileOperation::WriteMarker,
            &path,
            io::Error::new(
                io::ErrorKind::WouldBlock,
                "the writer marker kept appearing and vanishing",
            ),
        ))
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Self::Error> {
        let path = self.path(id, MARKER_SUFFIX);
        Ok(match self.read_marker(&path)? {
            Marker::Absent => None,
            Marker::Names(named) => Some(named),
            Marker::Unreadable => Some(self.unreadable.clone()),
        })
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Self::Error> {
        let path = self.path(id, MARKER_SUFFIX);
        let _locked = self.lock_markers()?;
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
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Self::Error> {
        self.claimable(to)?;
        let path = self.path(id, MARKER_SUFFIX);
        let _locked = self.lock_markers()?;
        if !self.releasable_by(&self.read_marker(&path)?, from) {
            return Ok(false);
        }
        self.place(id, MARKER_TEMP_SUFFIX, &marker_text(to), |temporary| {
            fs::rename(temporary, &path)
        })
        .map_err(|failed| {
            let (write, replace) = (FileOperation::WriteMarker, FileOperation::ReplaceMarker);
            failed.into_error(write, replace, &self.dir, &path)
        })?;
        sync_directory(&self.dir);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a medium call (they never wait).
    fn ready<F: core::future::Future>(future: F) -> F::Output {
        let mut future = core::pin::pin!(future);
        let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            core::task::Poll::Ready(output) => output,
            core::task::Poll::Pending => panic!("a file medium call waited"),
        }
    }

    /// A fresh directory for one test, removed on drop.
    struct Dir(PathBuf);

    impl Dir {
        fn new(tag: &str) -> Self {
            let path = std::env::temp_dir().join(format!(
                "agent-interface-file-unit-{}-{tag}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&path);
            fs::create_dir_all(&path).expect("a directory");
            Self(path)
        }

        fn plant(&self, name: &str, bytes: &[u8], age: Duration) {
            let path = self.0.join(name);
            fs::write(&path, bytes).expect("plants");
            let file = OpenOptions::new().write(true).open(&path).expect("opens");
            file.set_modified(SystemTime::now() - age).expect("ages");
        }

        fn temporaries(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(&self.0)
                .expect("lists")
                .map(|entry| {
                    entry
                        .expect("an entry")
                        .file_name()
                        .into_string()
                        .expect("UTF-8")
                })
                .filter(|name| name.ends_with(".tmp"))
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn writer(id: &str) -> WriterId {
        WriterId::new(id).expect("a valid writer id")
    }

    fn s1() -> RecordId {
        RecordId::new("s1").expect("a valid record id")
    }

    #[test]
    fn temporary_names_are_told_apart_by_their_id() {
        let cases = [
            (".s1.0.record.tmp", Some("s1")),
            (".s1.63.writer.tmp", Some("s1")),
            (".s1.4242-7.record.tmp", Some("s1")),
            (".a.b.12-3.writer.tmp", Some("a.b")),
            (".s1.x.5.record.tmp", Some("s1.x")),
            (".s1.5-3.1-2.record.tmp", Some("s1.5-3")),
            (".s1.record.tmp", None),
            (".s1..record.tmp", None),
            (".s1.x.record.tmp", None),
            (".s1.-1.record.tmp", None),
            (".s1.1-.writer.tmp", None),
            (".s1.1-2-3.record.tmp", None),
            (".s1.0.tmp", None),
            ("s1.0.record.tmp", None),
            ("..0.record.tmp", None),
            (".a..b.0.record.tmp", None),
            ("s1.json", None),
            ("s1.writer", None),
        ];
        for (name, id) in cases {
            assert_eq!(temporary_of(name), id, "{name}");
        }
    }

    /// Every state a kill can leave a claim in, step by step: a temporary file created, cut
    /// short, whole but not linked (no marker: another writer claims), or linked (a whole
    /// marker). The marker is never there and cut short.
    #[test]
    fn a_claim_killed_at_any_step_leaves_no_marker_or_a_whole_one() {
        let dir = Dir::new("steps");
        let medium = FileMedium::open(&dir.0).expect("opens");
        let pid = std::process::id();
        for (step, bytes) in [(0, &b""[..]), (1, b"dead"), (2, b"dead\n")] {
            let temporary = format!(".s1.{pid}-{}.writer.tmp", u64::MAX - step);
            dir.plant(&temporary, bytes, Duration::ZERO);
            assert_eq!(ready(medium.writer(&s1())).expect("reads"), None, "{step}");
            let live = writer("live");
            assert_eq!(
                ready(medium.mark_writer(&s1(), &live)),
                Ok(WriterMark::Marked)
            );
            assert_eq!(
                fs::read(dir.0.join("s1.writer")).expect("a marker"),
                b"live\n"
            );
            assert_eq!(ready(medium.unmark_writer(&s1(), &live)), Ok(true));
            fs::remove_file(dir.0.join(&temporary)).expect("removes");
        }
        // Linked, the temporary name not yet removed: a whole marker, and a stray that is
        // another name of it (removing the stray leaves the marker).
        dir.plant(".s1.1-0.writer.tmp", b"dead\n", STALE * 2);
        fs::hard_link(dir.0.join(".s1.1-0.writer.tmp"), dir.0.join("s1.writer")).expect("links");
        assert_eq!(ready(medium.writer(&s1())), Ok(Some(writer("dead"))));
        assert_eq!(medium.sweep_temporaries(), Ok(1));
        assert_eq!(ready(medium.writer(&s1())), Ok(Some(writer("dead"))));
    }

    #[cfg(unix)]
    #[test]
    fn a_marker_is_linked_into_place_whole_and_keeps_no_other_name() {
        use std::os::unix::fs::MetadataExt;
        let dir = Dir::new("linked");
        let medium = FileMedium::open(&dir.0).expect("opens");
        assert_eq!(
            ready(medium.mark_writer(&s1(), &writer("w"))),
            Ok(WriterMark::Marked)
        );
        let marker = dir.0.join("s1.writer");
        assert_eq!(fs::read(&marker).expect("a marker"), b"w\n");
        assert_eq!(fs::metadata(&marker).expect("a marker").nlink(), 1);
        assert_eq!(dir.temporaries(), Vec::<String>::new());
    }

    /// Strays ahead of this process's counter, with its own pid (an earlier process with the
    /// same pid left them), are skipped, whatever their number.
    #[test]
    fn names_taken_by_strays_of_the_same_pid_are_skipped() {
        let dir = Dir::new("skip");
        let medium = FileMedium::open(&dir.0).expect("opens");
        let pid = std::process::id();
        let next = TEMPORARY.load(Ordering::Relaxed);
        for n in next..next + 200 {
            dir.plant(&format!(".s1.{pid}-{n}.record.tmp"), b"", Duration::ZERO);
            dir.plant(&format!(".s1.{pid}-{n}.writer.tmp"), b"", Duration::ZERO);
        }
        assert_eq!(
            ready(medium.mark_writer(&s1(), &writer("w"))),
            Ok(WriterMark::Marked)
        );
        assert_eq!(ready(medium.write(&s1(), b"{}")), Ok(()));
        assert_eq!(ready(medium.read(&s1())), Ok(Some(b"{}".to_vec())));
        assert_eq!(dir.temporaries().len(), 400);
    }

    /// A claim removes the temporary files of its id that are at least [`STALE`] old, in both
    /// namings, and nothing else; a claim already held removes nothing.
    #[test]
    fn a_claim_removes_only_its_ids_stale_temporaries() {
        let dir = Dir::new("stale");
        let medium = FileMedium::open(&dir.0).expect("opens");
        let old = STALE + Duration::from_secs(60);
        let young = STALE / 2;
        for name in [
            ".s1.3.record.tmp",
            ".s1.7.writer.tmp",
            ".s1.12-4.record.tmp",
        ] {
            dir.plant(name, b"x", old);
        }
        let kept = [
            ".s1.12-5.record.tmp",
            ".s1.x.12-6.record.tmp",
            ".s2.12-7.writer.tmp",
            ".s1.notes.tmp",
        ];
        dir.plant(kept[0], b"x", young);
        for name in &kept[1..] {
            dir.plant(name, b"x", old);
        }
        let w = writer("w");
        assert_eq!(ready(medium.mark_writer(&s1(), &w)), Ok(WriterMark::Marked));
        let mut left = Vec::from(kept.map(String::from));
        left.sort();
        assert_eq!(dir.temporaries(), left);
        // Already marked: nothing is created, nothing is removed.
        dir.plant(".s1.8.record.tmp", b"x", old);
        assert_eq!(ready(medium.mark_writer(&s1(), &w)), Ok(WriterMark::Marked));
        assert!(dir.0.join(".s1.8.record.tmp").exists());
        // The sweep takes every temporary file of every id, of any age.
        assert_eq!(medium.sweep_temporaries(), Ok(4));
        assert_eq!(dir.temporaries(), [String::from(".s1.notes.tmp")]);
    }

    #[test]
    fn the_reserved_writer_id_is_a_valid_writer_id() {
        assert!(WriterId::new(FileMedium::UNREADABLE_MARKER).is_ok());
    }
}
