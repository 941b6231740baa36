//! The byte medium a [`RecordStore`](super::RecordStore) keeps records on, and the writer
//! markers every process over the same medium keeps beside them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::store::RecordId;

/// Who writes a record: the host's name for one store instance (one process's view of the
/// medium), written into the writer marker it keeps beside a record it claims.
///
/// Never empty and at most [`WriterId::MAX_LEN`] bytes; the host picks something unique per
/// running process, since two processes that share a writer id would each take the other's
/// marker for their own. [`WriterId::for_boot`] is the documented form: a host id that
/// survives restarts and a boot nonce that does not, so a restarted host takes its earlier
/// boot's claims over at once (see [`RecordStore`](super::RecordStore)).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WriterId(String);

/// Why a writer id was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WriterIdError {
    /// The id is empty.
    #[error("a writer id is never empty")]
    Empty,
    /// The id is longer than [`WriterId::MAX_LEN`] bytes.
    #[error("a writer id is at most 256 bytes")]
    TooLong,
    /// The id holds a control character (a marker is one line of text).
    #[error("a writer id holds no control character")]
    ControlCharacter,
    /// A leased store's id ends like a lease (` lease-until=<digits>`), which its markers
    /// append ([`RecordStore::with_lease`](super::RecordStore::with_lease)).
    #[error("a leased store's writer id does not end in ` lease-until=<digits>`")]
    LeaseSuffix,
}

impl WriterId {
    /// The longest writer id, in bytes.
    pub const MAX_LEN: usize = 256;

    /// A writer id, checked.
    ///
    /// # Errors
    /// When `id` is empty, too long, or holds a control character.
    pub fn new(id: impl Into<String>) -> Result<Self, WriterIdError> {
        let id = id.into();
        if id.is_empty() {
            Err(WriterIdError::Empty)
        } else if id.len() > Self::MAX_LEN {
            Err(WriterIdError::TooLong)
        } else if id.chars().any(char::is_control) {
            Err(WriterIdError::ControlCharacter)
        } else {
            Ok(Self(id))
        }
    }

    /// The writer id of one boot of a host: `<host>#<boot as 16 hex digits>`.
    ///
    /// `host` names the host and survives its restarts (a machine and service name kept in its
    /// configuration); `boot` is a nonce the host draws once per start (from its entropy
    /// source). The host guarantees that **one process at a time runs under a host id**: a
    /// store whose id is another boot of the same host takes over the markers of that earlier
    /// boot at once, as the claims of a process that is gone.
    ///
    /// # Errors
    /// As [`new`](Self::new), for the whole id.
    pub fn for_boot(host: &str, boot: u64) -> Result<Self, WriterIdError> {
        Self::new(alloc::format!("{host}#{boot:016x}"))
    }

    /// The host and the boot of an id made by [`for_boot`](Self::for_boot); `None` for any
    /// other id.
    #[must_use]
    pub fn boot(&self) -> Option<(&str, u64)> {
        let (host, boot) = self.0.rsplit_once('#')?;
        let hex = boot.len() == 16 && boot.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        let boot = u64::from_str_radix(boot, 16).ok().filter(|_| hex)?;
        Some((host, boot))
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for WriterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for WriterId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What asking the medium to mark a writer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriterMark {
    /// The marker now names the asking writer (it was absent, or already named it).
    Marked,
    /// Another writer's marker is there; nothing changed.
    HeldBy(WriterId),
}

/// Where a record store keeps its bytes: one whole byte string per record id, plus one writer
/// marker per id.
///
/// The medium is storage only: it never decodes, seals or decides an outcome. What it must
/// guarantee is what the store cannot check itself:
///
/// - **A write is whole.** After [`write`](Self::write) returns, or fails, or the process dies
///   in it, a read returns either the prior bytes or the new ones, never a mix.
/// - **Marking is atomic across processes.** Two stores over the same medium (two processes
///   over one directory, two replicas over one database) that race to
///   [`mark_writer`](Self::mark_writer) one id never both get [`WriterMark::Marked`].
/// - **Ids are record ids.** Every call names a [`RecordId`], checked once where it was made,
///   so a medium may map it to a file name or a key directly and never checks it again.
///   [`ids`](Self::ids) lists record ids only: a name the storage holds that is not one (a file
///   or a row put there by something else) is left out of the listing, never an error and
///   never a panic.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design.
pub trait RecordMedium {
    /// A failure to reach the storage.
    type Error: core::error::Error;

    /// The bytes stored under `id`, or `None` when nothing is.
    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Self::Error>;

    /// Replaces whatever is stored under `id` with `bytes`, whole.
    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Self::Error>;

    /// Removes what is stored under `id`; removing nothing is not an error. The writer marker
    /// is left alone.
    async fn remove(&self, id: &RecordId) -> Result<(), Self::Error>;

    /// Every id that has bytes stored, in ascending byte order of the id. A name stored by
    /// something other than a store that is not a valid [`RecordId`] is left out.
    async fn ids(&self) -> Result<Vec<RecordId>, Self::Error>;

    /// Marks `writer` as the one writer of `id`, unless another writer's marker is there.
    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Self::Error>;

    /// The writer whose marker is beside `id`, if any.
    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Self::Error>;

    /// Removes the marker beside `id` if, and only if, it names `writer`; true when it did.
    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Self::Error>;

    /// Makes the marker beside `id` name `to` if, and only if, it names `from` now (one atomic
    /// compare-and-swap: how a lend hands a record to another process without a moment in which
    /// it has no writer); true when it did.
    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Self::Error>;
}

/// A shared reference to a medium is a medium: two stores in one test (or one process) can sit
/// over the same storage, as two processes sit over one directory.
impl<M: RecordMedium> RecordMedium for &M {
    type Error = M::Error;

    async fn read(&self, id: &RecordId) -> Result<Option<Vec<u8>>, Self::Error> {
        (**self).read(id).await
    }

    async fn write(&self, id: &RecordId, bytes: &[u8]) -> Result<(), Self::Error> {
        (**self).write(id, bytes).await
    }

    async fn remove(&self, id: &RecordId) -> Result<(), Self::Error> {
        (**self).remove(id).await
    }

    async fn ids(&self) -> Result<Vec<RecordId>, Self::Error> {
        (**self).ids().await
    }

    async fn mark_writer(
        &self,
        id: &RecordId,
        writer: &WriterId,
    ) -> Result<WriterMark, Self::Error> {
        (**self).mark_writer(id, writer).await
    }

    async fn writer(&self, id: &RecordId) -> Result<Option<WriterId>, Self::Error> {
        (**self).writer(id).await
    }

    async fn unmark_writer(&self, id: &RecordId, writer: &WriterId) -> Result<bool, Self::Error> {
        (**self).unmark_writer(id, writer).await
    }

    async fn transfer_writer(
        &self,
        id: &RecordId,
        from: &WriterId,
        to: &WriterId,
    ) -> Result<bool, Self::Error> {
        (**self).transfer_writer(id, from, to).await
    }
}
