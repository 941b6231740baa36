//! The one record store ([`RecordStore`]) every medium and seal share: record ids, claims,
//! lends, held sessions, classification and the store's error.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;
use core::future::Future;

use embassy_sync::blocking_mutex::Mutex;
use embassy_sync::blocking_mutex::raw::{NoopRawMutex, RawMutex};

use crate::runtime::record_codec::{decode_session_record, encode_session_record};
use crate::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose,
    LockedReason, RecordDigest, RecordOwner, SaveOutcome, SavePurpose, SaveRefusal,
    SessionListEntry, SessionLoadOutcome, SessionRecordDecodeIssue, SessionRecordDecodeOutcome,
    SessionStoreListing,
};

use super::fingerprint::Fingerprint;
use super::lease::{Lease, Marker, earlier_boot};
use super::medium::{RecordMedium, WriterId, WriterIdError, WriterMark};
use super::seal::{Opened, RecordSeal, SealError, Sealed, Unsealed};

/// Why a record id was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RecordIdError {
    /// The id is empty.
    #[error("a record id is never empty")]
    Empty,
    /// The id is longer than [`RecordId::MAX_LEN`] bytes.
    #[error(
        "a record id is at most {} bytes, this one is {len}",
        RecordId::MAX_LEN
    )]
    TooLong {
        /// The id's length in bytes.
        len: usize,
    },
    /// The id starts with `.` (a hidden file, `.` or `..` on a file medium).
    #[error("a record id does not start with `.`")]
    LeadingDot,
    /// The id holds `..` (harmless in a file name without separators, but refused so that no
    /// medium has to reason about it, and every medium accepts the same ids).
    #[error("a record id holds no `..`")]
    DotDot,
    /// The byte at `index` is not one of `A-Z a-z 0-9 . _ -`.
    #[error("a record id holds only A-Z a-z 0-9 . _ -, byte {index} is 0x{byte:02x}")]
    ForbiddenByte {
        /// Where the first such byte is.
        index: usize,
        /// The byte.
        byte: u8,
    },
}

/// A record id a store accepts: 1 to [`MAX_LEN`](Self::MAX_LEN) bytes of `A-Z a-z 0-9 . _ -`,
/// not starting with `.` and holding no `..`.
///
/// The id is checked once, where text becomes a `RecordId` ([`new`](Self::new)): the store's
/// port ([`InteractiveSessionStore`]) parses the `&str` ids of the contract, and every other
/// member of the store, and every [`RecordMedium`] call, takes a `RecordId`, so nothing checks it
/// again. A medium may use it as a file name or a key as it is: it never names a directory, a
/// parent, a hidden file or anything a shell or a path joins differently.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RecordId(String);

impl RecordId {
    /// The longest record id, in bytes.
    pub const MAX_LEN: usize = 128;

    /// A checked record id.
    ///
    /// # Errors
    /// The first rule `id` breaks.
    pub fn new(id: impl Into<String>) -> Result<Self, RecordIdError> {
        let id = id.into();
        let bytes = id.as_bytes();
        if bytes.is_empty() {
            return Err(RecordIdError::Empty);
        }
        if bytes.len() > Self::MAX_LEN {
            return Err(RecordIdError::TooLong { len: bytes.len() });
        }
        if bytes.first() == Some(&b'.') {
            return Err(RecordIdError::LeadingDot);
        }
        if id.contains("..") {
            return Err(RecordIdError::DotDot);
        }
        match bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')))
        {
            Some(index) => Err(RecordIdError::ForbiddenByte {
                index,
                byte: bytes.get(index).copied().unwrap_or_default(),
            }),
            None => Ok(Self(id)),
        }
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RecordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<RecordId> for String {
    fn from(id: RecordId) -> Self {
        id.0
    }
}

impl AsRef<str> for RecordId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A map keyed by `RecordId` is looked up by `&str` (the id's text orders and hashes as the
/// `String` it holds).
impl core::borrow::Borrow<str> for RecordId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for RecordId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for RecordId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<RecordId> for str {
    fn eq(&self, other: &RecordId) -> bool {
        self == other.0
    }
}

impl PartialEq<RecordId> for &str {
    fn eq(&self, other: &RecordId) -> bool {
        *self == other.0
    }
}

impl core::str::FromStr for RecordId {
    type Err = RecordIdError;

    /// [`RecordId::new`] of the text: `"sess-1".parse::<RecordId>()`.
    fn from_str(id: &str) -> Result<Self, RecordIdError> {
        Self::new(id)
    }
}

/// A writer of a record other than this store: the reason a claim cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OtherWriter {
    /// This store lent the id (a hand-off save) and has not reclaimed it; `to` is the receiving
    /// writer once [`RecordStore::lend`] moved the marker to it.
    Lent {
        /// The writer the marker was moved to, if a lend moved it yet.
        to: Option<WriterId>,
    },
    /// Another writer's marker is beside the record (another process, or another store
    /// instance in this one).
    Marked(WriterId),
}

impl fmt::Display for OtherWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Lent { to: Some(to) } => write!(f, "it is lent to writer `{to}`"),
            Self::Lent { to: None } => f.write_str("it is lent (handed off) by this store"),
            Self::Marked(writer) => write!(f, "writer `{writer}` holds it"),
        }
    }
}

/// Who writes a record, as a store says it ([`RecordStore::writer_of`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordWriter {
    /// Nobody: no claim, no lend, no marker.
    Nobody,
    /// This store (its claim, or a marker naming its writer id).
    ThisStore,
    /// Someone else: a lend of this store or another writer's marker.
    Other(OtherWriter),
}

/// What went wrong in a record store call.
///
/// The port ([`InteractiveSessionStore`]) keeps `Err` for failures to reach the storage; this
/// store's `Err` carries those ([`Medium`](Self::Medium)) and four more that are not load
/// outcomes and not save refusals: an id the store refuses before it reaches the medium, a
/// claim that cannot be taken (the one refusal a load can meet: the port's load outcomes say
/// what is stored, and none says "someone else writes it"), a record that cannot be written as
/// JSON, and a seal that may not seal now.
///
/// The medium's error is shown in the message, not chained as a source: a medium's error type
/// need not be `'static` (a borrowed medium's is not required to be).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordStoreError<E> {
    /// The medium failed; nothing is known about what it did beyond its own guarantee (a write
    /// is whole).
    #[error("the record medium failed: {0}")]
    Medium(E),
    /// The text id a port call was given (a load's, a delete's, a saved record's `id`, or a
    /// sealing member's) is not a [`RecordId`]; the medium was not asked. The store's own
    /// members take a [`RecordId`], so only the port meets this.
    #[error("invalid record id: {0}")]
    InvalidId(#[source] RecordIdError),
    /// Another writer holds the id: a claiming load, a delete, a lend or a reclaim was refused
    /// and nothing was read, written or removed.
    #[error(
        "the record has another writer: {0}; that writer frees it with `release` (or by \
         dropping its store); a host that knows the writer is gone frees it with \
         `recover_writer`, and a leased store takes it over once the writer's lease lapses"
    )]
    HasWriter(OtherWriter),
    /// The id is neither claimed nor lent by this store, so it has nothing to lend.
    #[error("this store neither claims nor lends the record")]
    NotHeld,
    /// The record cannot be written as JSON (a number that is not finite inside an untyped
    /// payload); nothing was written.
    #[error("the record cannot be written as JSON: {0}")]
    Encode(String),
    /// The seal may not seal now; nothing was written.
    #[error("the record cannot be sealed: {0}")]
    Seal(#[source] SealError),
}

/// The exact bytes a store last read or wrote for a session it holds, kept for every seal so
/// that a commit recognises them without decoding them again.
#[derive(Clone, Debug)]
enum Held {
    /// With a seal that digests (a sealing store): the digest of the bytes and what they held,
    /// handed back when the seal cannot open those bytes now.
    Digested {
        digest: RecordDigest,
        record: Box<InteractiveSessionRecord>,
        owner: Option<RecordOwner>,
    },
    /// With a seal that does not digest ([`Unsealed`]): the fingerprint of the bytes, never the
    /// bytes (the session's holder has the record already). It only spares the commit a
    /// decode; a load never hands anything back from it.
    Fingerprint(Fingerprint),
}

/// What a load keeps of the bytes it classified, for a session it claims.
enum Keep {
    /// Nothing: the bytes are not a valid record (or a changed held file).
    Nothing,
    /// The held session as it is (its bytes are unchanged and the seal cannot open them).
    Same,
    /// The digest of the bytes (a sealing store), with the valid record they hold.
    Digested(RecordDigest),
    /// The fingerprint of the bytes (a seal that does not digest), with the valid record they
    /// hold.
    Fingerprint(Fingerprint),
}

/// What this store keeps about one id.
#[derive(Clone, Debug)]
enum Claim {
    /// This store is the id's writer (its marker is beside the record).
    Claimed { held: Option<Held> },
    /// Written for another process and lent; `to` once the marker moved to it.
    Lent { to: Option<WriterId> },
}

/// The session record store: the port [`InteractiveSessionStore`] over a byte
/// [`RecordMedium`] and a [`RecordSeal`]. The memory, file and sealed stores are this one type
/// over different media and seals; see the module docs for every rule.
///
/// One instance is one writer ([`writer_id`](Self::writer_id)); two instances over one medium
/// are two processes over one directory.
///
/// `L` is the embassy-sync raw mutex guarding the store's claims: [`NoopRawMutex`] (the
/// default, from [`new`](Self::new)) for one thread or one executor, as on wasm and firmware;
/// [`CriticalSectionRawMutex`](crate::agent_core::CriticalSectionRawMutex)
/// (from [`with_lock`](Self::with_lock)) to share one store across threads, e.g. in a
/// multi-threaded tokio server's state: the store is then `Sync` when its medium and seal are,
/// and its futures are `Send` when the medium's are. The lock is held only for short sections
/// that never span an `await` and run no caller code.
pub struct RecordStore<M: RecordMedium, S: RecordSeal = Unsealed, L: RawMutex = NoopRawMutex> {
    medium: M,
    seal: S,
    writer: WriterId,
    lease: Option<Lease>,
    claims: Mutex<L, RefCell<BTreeMap<RecordId, Claim>>>,
}

/// Dropping a store releases its claims (its lends stay): the store is the guard of every
/// record it claims. The medium is asked once per claim and not waited for: a medium that
/// answers at once (the memory and file media) has removed every marker when the drop
/// returns; one that must wait (a network database) keeps the marker until the host releases
/// it, recovers it or its lease lapses. [`release_all`](RecordStore::release_all) reports what
/// happened. A process that dies without dropping the store leaves its markers for the lease
/// (or a restart of the same host, [`WriterId::for_boot`]) to clear.
impl<M: RecordMedium, S: RecordSeal, L: RawMutex> Drop for RecordStore<M, S, L> {
    fn drop(&mut self) {
        let mut context = core::task::Context::from_waker(core::task::Waker::noop());
        for id in self.claimed_ids() {
            let release = core::pin::pin!(self.unmark(&id));
            // Pending or failed: the marker stays, as after a crash.
            let _ = release.poll(&mut context);
        }
    }
}

impl<M: RecordMedium + fmt::Debug, S: RecordSeal + fmt::Debug, L: RawMutex> fmt::Debug
    for RecordStore<M, S, L>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let claims = self.with_claims(|claims| claims.len());
        f.debug_struct("RecordStore")
            .field("medium", &self.medium)
            .field("seal", &self.seal)
            .field("writer", &self.writer)
            .field("claims", &claims)
            .finish()
    }
}

type Outcome<T, M> = Result<T, RecordStoreError<<M as RecordMedium>::Error>>;

impl<M: RecordMedium, S: RecordSeal> RecordStore<M, S> {
    /// A store over `medium` that seals with `seal` and writes as `writer`; it holds no claim.
    /// Single-threaded ([`NoopRawMutex`]); see [`with_lock`](Self::with_lock) to share it.
    #[must_use]
    pub fn new(medium: M, seal: S, writer: WriterId) -> Self {
        Self::with_lock(medium, seal, writer)
    }
}

impl<M: RecordMedium, S: RecordSeal, L: RawMutex> RecordStore<M, S, L> {
    /// A store as [`new`](RecordStore::new) makes it, guarded by the raw mutex `L` (name it:
    /// `RecordStore::<_, _, CriticalSectionRawMutex>::with_lock(..)`).
    #[must_use]
    pub const fn with_lock(medium: M, seal: S, writer: WriterId) -> Self {
        Self {
            medium,
            seal,
            writer,
            lease: None,
            claims: Mutex::new(RefCell::new(BTreeMap::new())),
        }
    }

    /// This store with a [`Lease`] on every record it claims: its markers carry the lease's
    /// end, it renews them as it marks (every claiming load and save, once half the lease has
    /// run, and on [`renew`](Self::renew)), and it takes over another writer's marker whose
    /// lease has lapsed, in one compare-and-swap on the marker, so two stores racing for a
    /// lapsed record never both get it.
    ///
    /// # Errors
    /// [`WriterIdError::TooLong`] when the writer id is longer than
    /// [`Lease::MAX_WRITER_LEN`] (its markers would not fit a marker); [`WriterIdError::LeaseSuffix`]
    /// when the id itself ends like a lease (` lease-until=<digits>`).
    pub fn with_lease(mut self, lease: Lease) -> Result<Self, WriterIdError> {
        if self.writer.as_str().len() > Lease::MAX_WRITER_LEN {
            return Err(WriterIdError::TooLong);
        }
        if Marker::parse(&self.writer).until.is_some() {
            return Err(WriterIdError::LeaseSuffix);
        }
        self.lease = Some(lease);
        Ok(self)
    }

    /// The lease this store claims with, if it has one.
    #[must_use]
    pub const fn lease(&self) -> Option<&Lease> {
        self.lease.as_ref()
    }

    /// Runs `f` on the claims under the lock (never across an `await`).
    fn with_claims<T>(&self, f: impl FnOnce(&mut BTreeMap<RecordId, Claim>) -> T) -> T {
        self.claims.lock(|claims| f(&mut claims.borrow_mut()))
    }

    /// The writer id this store marks records with.
    #[must_use]
    pub const fn writer_id(&self) -> &WriterId {
        &self.writer
    }

    #[cfg_attr(not(feature = "sealing"), allow(dead_code))] // The sealing members' hook.
    /// The medium (for the sealing store's members, which read and write bytes themselves).
    pub(crate) const fn medium(&self) -> &M {
        &self.medium
    }

    #[cfg_attr(not(feature = "sealing"), allow(dead_code))] // The sealing members' hook.
    /// The seal (for the sealing store's members).
    pub(crate) const fn seal(&self) -> &S {
        &self.seal
    }

    #[cfg_attr(not(feature = "sealing"), allow(dead_code))] // The sealing members' hook.
    /// Tells the store that the sealing members rewrote `id` with `stored` bytes holding
    /// `record` attributed to `owner` (a raise): if this store holds the session, the held
    /// bytes follow, so its own later loads and saves keep treating them as the ones it holds.
    /// Does nothing for an id this store does not claim.
    pub(crate) fn note_rewritten(
        &self,
        id: &RecordId,
        stored: &[u8],
        record: &InteractiveSessionRecord,
        owner: Option<RecordOwner>,
    ) {
        if !self.is_claimed(id) {
            return;
        }
        let now_held = match self.seal.digest(stored) {
            Some(digest) => Held::Digested {
                digest,
                record: Box::new(record.clone()),
                owner,
            },
            None => Held::Fingerprint(Fingerprint::of(stored)),
        };
        self.with_claims(|claims| {
            if let Some(Claim::Claimed { held }) = claims.get_mut(id) {
                *held = Some(now_held);
            }
        });
    }

    #[cfg_attr(not(feature = "sealing"), allow(dead_code))] // The sealing members' hook.
    /// Another writer of `id` as this store sees it (a lend of its own, or another writer's
    /// marker), without claiming anything; `None` when this store or nobody writes it.
    ///
    /// # Errors
    /// The medium's failure.
    pub(crate) async fn other_writer(&self, id: &RecordId) -> Outcome<Option<OtherWriter>, M> {
        if let Some(lent) = self.lent_to(id) {
            return Ok(Some(lent));
        }
        match self
            .medium
            .writer(id)
            .await
            .map_err(RecordStoreError::Medium)?
        {
            Some(text) if !self.is_own(&text) => {
                Ok(Some(OtherWriter::Marked(Marker::parse(&text).writer)))
            }
            _ => Ok(None),
        }
    }

    /// What `stored` bytes under `id` hold, by the seal and the session codec alone (no held
    /// state, no claim): the classification every load starts from.
    pub(crate) fn classify(&self, id: &RecordId, stored: &[u8]) -> SessionLoadOutcome {
        classify_opened(id, self.seal.open(id.as_str(), stored))
    }

    /// Who writes `id`: nobody, this store, a lend of this store, or another writer's marker.
    ///
    /// # Errors
    /// The medium's failure.
    pub async fn writer_of(&self, id: &RecordId) -> Outcome<RecordWriter, M> {
        let claim = self.with_claims(|claims| claims.get(id).cloned());
        match claim {
            Some(Claim::Lent { to }) => Ok(RecordWriter::Other(OtherWriter::Lent { to })),
            Some(Claim::Claimed { .. }) => Ok(RecordWriter::ThisStore),
            None => match self
                .medium
                .writer(id)
                .await
                .map_err(RecordStoreError::Medium)?
            {
                None => Ok(RecordWriter::Nobody),
                Some(text) if self.is_own(&text) => Ok(RecordWriter::ThisStore),
                Some(text) => Ok(RecordWriter::Other(OtherWriter::Marked(
                    Marker::parse(&text).writer,
                ))),
            },
        }
    }

    /// Drops this store's claim on `id` (or forgets its lend) and removes its marker if the
    /// marker names it; releasing an id it does not hold does nothing.
    ///
    /// # Errors
    /// The medium's failure (the claim is dropped all the same).
    pub async fn release(&self, id: &RecordId) -> Outcome<(), M> {
        self.with_claims(|claims| claims.remove(id));
        self.unmark(id).await?;
        Ok(())
    }

    /// Releases every record this store claims (its lends stay): what a host calls before a
    /// clean exit to learn whether every marker is gone. Dropping the store does the same as far
    /// as its medium answers at once, and reports nothing: `drop` cannot await, so it polls each
    /// release once. A medium whose calls complete inside their first poll (memory, files) is
    /// released by the drop; on an asynchronous medium (a database) it is not, and the markers
    /// stay, as after a crash, until a lease lapses or a host recovers the writer. Over such a
    /// medium, await `release_all` before dropping the store.
    ///
    /// # Errors
    /// The first of the medium's failures; every claim is released or tried all the same.
    pub async fn release_all(&self) -> Outcome<(), M> {
        let mut first = Ok(());
        for id in self.claimed_ids() {
            if let (Ok(()), Err(error)) = (&first, self.release(&id).await) {
                first = Err(error);
            }
        }
        first
    }

    /// Renews the lease of every record this store claims (see [`with_lease`](Self::with_lease));
    /// nothing to do for a store without a lease. Answers the ids whose claim was lost: another
    /// writer took the record over (this store's lease had lapsed, or a host recovered it), so
    /// this store no longer claims them and its saves of them are refused.
    ///
    /// # Errors
    /// The medium's failure (the claims not renewed yet stay as they are).
    pub async fn renew(&self) -> Outcome<Vec<RecordId>, M> {
        let mut lost = Vec::new();
        if self.lease.is_none() {
            return Ok(lost);
        }
        for id in self.claimed_ids() {
            if let WriterMark::HeldBy(_) = self.mark(&id).await? {
                self.with_claims(|claims| claims.remove(&id));
                lost.push(id);
            }
        }
        Ok(lost)
    }

    /// The ids this store claims (not its lends).
    fn claimed_ids(&self) -> Vec<RecordId> {
        self.with_claims(|claims| {
            claims
                .iter()
                .filter(|(_, claim)| matches!(claim, Claim::Claimed { .. }))
                .map(|(id, _)| id.clone())
                .collect()
        })
    }

    /// Lends `id`, which this store claims or handed off, to the writer `to`: the marker moves
    /// from this store to `to` in one compare-and-swap, so the record never has no writer, and
    /// this store then refuses its own claiming loads and run saves of it until it
    /// [`reclaim`](Self::reclaim)s it.
    ///
    /// # Errors
    /// [`RecordStoreError::NotHeld`] when this store neither claims nor lends `id`;
    /// [`RecordStoreError::HasWriter`] when it is already lent to another writer, or another
    /// writer's marker is there; the medium's failure.
    pub async fn lend(&self, id: &RecordId, to: &WriterId) -> Outcome<(), M> {
        let claim = self.with_claims(|claims| claims.get(id).cloned());
        match claim {
            None => return Err(RecordStoreError::NotHeld),
            Some(Claim::Lent { to: Some(lent) }) if lent == *to => return Ok(()),
            Some(Claim::Lent { to: Some(lent) }) => {
                return Err(RecordStoreError::HasWriter(OtherWriter::Lent {
                    to: Some(lent),
                }));
            }
            Some(Claim::Lent { to: None } | Claim::Claimed { .. }) => {}
        }
        let moved = self.transfer(id, to).await?;
        if !moved {
            // The marker no longer names this store: someone recovered it, or took it since.
            return match self
                .medium
                .writer(id)
                .await
                .map_err(RecordStoreError::Medium)?
            {
                Some(text) if Marker::parse(&text).writer == *to => {
                    self.set(
                        id,
                        Claim::Lent {
                            to: Some(to.clone()),
                        },
                    );
                    Ok(())
                }
                Some(text) => {
                    self.with_claims(|claims| claims.remove(id));
                    let writer = Marker::parse(&text).writer;
                    Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer)))
                }
                None => {
                    // No writer at all: mark this store again, then move it.
                    match self.mark(id).await? {
                        WriterMark::Marked if self.transfer(id, to).await? => {
                            self.set(
                                id,
                                Claim::Lent {
                                    to: Some(to.clone()),
                                },
                            );
                            Ok(())
                        }
                        WriterMark::Marked => Err(RecordStoreError::NotHeld),
                        WriterMark::HeldBy(writer) => {
                            self.with_claims(|claims| claims.remove(id));
                            Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer)))
                        }
                    }
                }
            };
        }
        self.set(
            id,
            Claim::Lent {
                to: Some(to.clone()),
            },
        );
        Ok(())
    }

    /// Ends the lend of `id` once the marker no longer names another writer (the receiving
    /// process released it, or the host recovered a dead one's marker): the id is this store's
    /// claim again (its marker is beside the record), without a moment in which a third writer
    /// could step in. True when a lend ended; false when `id` was not lent (nothing changes).
    ///
    /// The held bytes are forgotten: the receiving writer may have changed the record, so the
    /// next load reads it afresh.
    ///
    /// # Errors
    /// [`RecordStoreError::HasWriter`] while another writer's marker is there (the lend goes
    /// on); the medium's failure.
    pub async fn reclaim(&self, id: &RecordId) -> Outcome<bool, M> {
        if self.lent_to(id).is_none() {
            return Ok(false);
        }
        match self.mark(id).await? {
            WriterMark::Marked => {
                self.set(id, Claim::Claimed { held: None });
                Ok(true)
            }
            WriterMark::HeldBy(writer) => {
                Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer)))
            }
        }
    }

    /// Removes the marker beside `id` if, and only if, it still names `dead`; true when it did.
    ///
    /// The crate cannot tell that a writer is dead; the host decides, from what it knows: the
    /// process named in the writer id is gone (its pid no longer runs on this host, with the
    /// boot nonce to rule out reuse), or the host's own lease for that writer expired. A marker
    /// that names a live writer must never be recovered: that would open a second writer. A
    /// lend of this store to `dead` stays until [`reclaim`](Self::reclaim)ed.
    ///
    /// # Errors
    /// The medium's failure.
    pub async fn recover_writer(&self, id: &RecordId, dead: &WriterId) -> Outcome<bool, M> {
        let named = match self.marker_text(id).await? {
            Some(text) if text == *dead || Marker::parse(&text).writer == *dead => text,
            _ => return Ok(false),
        };
        let removed = self
            .medium
            .unmark_writer(id, &named)
            .await
            .map_err(RecordStoreError::Medium)?;
        if removed && *dead == self.writer {
            self.with_claims(|claims| claims.remove(id));
        }
        Ok(removed)
    }

    fn set(&self, id: &RecordId, claim: Claim) {
        self.with_claims(|claims| claims.insert(id.clone(), claim));
    }

    fn lent_to(&self, id: &RecordId) -> Option<OtherWriter> {
        self.with_claims(|claims| match claims.get(id) {
            Some(Claim::Lent { to }) => Some(OtherWriter::Lent { to: to.clone() }),
            _ => None,
        })
    }

    fn is_claimed(&self, id: &RecordId) -> bool {
        self.with_claims(|claims| matches!(claims.get(id), Some(Claim::Claimed { .. })))
    }

    /// True when `stored` are the exact bytes this store last read or wrote for `id` (by the
    /// seal's digest, or by their fingerprint with a seal that does not digest): no decode.
    fn holds(&self, id: &RecordId, stored: &[u8]) -> bool {
        let held = self.with_claims(|claims| match claims.get(id) {
            Some(Claim::Claimed {
                held: Some(Held::Digested { digest, .. }),
            }) => Some(Ok(digest.clone())),
            Some(Claim::Claimed {
                held: Some(Held::Fingerprint(held)),
            }) => Some(Err(*held)),
            _ => None,
        });
        // Digested outside the lock: the seal is not the store's code.
        match held {
            Some(Ok(digest)) => self.seal.digest(stored) == Some(digest),
            Some(Err(held)) => held.matches(stored),
            None => false,
        }
    }

    /// True when a marker's text names this store (with or without a lease).
    fn is_own(&self, text: &WriterId) -> bool {
        *text == self.writer || Marker::parse(text).writer == self.writer
    }

    /// The marker text `writer` gets from this store now: with this store's lease, if it has
    /// one (and the id can carry it).
    fn marker_for(&self, writer: &WriterId, now_ms: u64) -> WriterId {
        let until = self
            .lease
            .as_ref()
            .map(|lease| now_ms.saturating_add(lease.duration_ms()));
        let marker = Marker {
            writer: writer.clone(),
            until,
        };
        marker.text().unwrap_or_else(|_| writer.clone())
    }

    /// The text of the marker beside `id`, as the medium holds it.
    async fn marker_text(&self, id: &RecordId) -> Outcome<Option<WriterId>, M> {
        self.medium
            .writer(id)
            .await
            .map_err(RecordStoreError::Medium)
    }

    /// Marks this store as the writer of `id`: a fresh marker, its own marker renewed (with a
    /// lease, once half of it has run), or another writer's marker taken over in one
    /// compare-and-swap when it is dead: its lease lapsed, or it names an earlier boot of this
    /// store's host. [`WriterMark::HeldBy`] names the other writer (without its lease).
    pub(crate) async fn mark(&self, id: &RecordId) -> Outcome<WriterMark, M> {
        let now_ms = self.lease.as_ref().map_or(0, Lease::now_ms);
        let mine = self.marker_for(&self.writer, now_ms);
        let mut held_by = None;
        // A marker that changes under a takeover is looked at again, a few times.
        for _ in 0..3 {
            let text = match self
                .medium
                .mark_writer(id, &mine)
                .await
                .map_err(RecordStoreError::Medium)?
            {
                WriterMark::Marked => return Ok(WriterMark::Marked),
                WriterMark::HeldBy(text) => text,
            };
            let held = Marker::parse(&text);
            let own = self.is_own(&text);
            let keep = match &self.lease {
                None => true,
                Some(lease) => held.fresh(lease, now_ms),
            };
            if own && keep {
                return Ok(WriterMark::Marked);
            }
            let dead = self.lease.is_some() && held.lapsed(now_ms)
                || earlier_boot(&held.writer, &self.writer);
            if !own && !dead {
                return Ok(WriterMark::HeldBy(held.writer));
            }
            if self
                .medium
                .transfer_writer(id, &text, &mine)
                .await
                .map_err(RecordStoreError::Medium)?
            {
                return Ok(WriterMark::Marked);
            }
            held_by = Some(held.writer);
        }
        Ok(held_by.map_or(WriterMark::Marked, WriterMark::HeldBy))
    }

    /// Moves this store's own marker beside `id` to `to` (with this store's lease, if any) in
    /// one compare-and-swap; false when the marker does not name this store.
    async fn transfer(&self, id: &RecordId, to: &WriterId) -> Outcome<bool, M> {
        let Some(text) = self.marker_text(id).await? else {
            return Ok(false);
        };
        if !self.is_own(&text) {
            return Ok(false);
        }
        let now_ms = self.lease.as_ref().map_or(0, Lease::now_ms);
        let to = self.marker_for(to, now_ms);
        self.medium
            .transfer_writer(id, &text, &to)
            .await
            .map_err(RecordStoreError::Medium)
    }

    /// Removes the marker beside `id` if it names this store (whatever its lease); true when
    /// it did.
    pub(crate) async fn unmark(&self, id: &RecordId) -> Outcome<bool, M> {
        match self.marker_text(id).await? {
            Some(text) if self.is_own(&text) => self
                .medium
                .unmark_writer(id, &text)
                .await
                .map_err(RecordStoreError::Medium),
            _ => Ok(false),
        }
    }

    async fn read(&self, id: &RecordId) -> Outcome<Option<alloc::vec::Vec<u8>>, M> {
        self.medium.read(id).await.map_err(RecordStoreError::Medium)
    }

    /// Drops a claim taken by the call that is ending (it was not held before it).
    async fn drop_fresh_claim(&self, id: &RecordId, was_claimed: bool) -> Outcome<(), M> {
        if !was_claimed {
            self.with_claims(|claims| claims.remove(id));
            self.unmark(id).await?;
        }
        Ok(())
    }

    /// Classifies `stored` under `id` with what this store holds: the held session handed back
    /// when its bytes are unchanged and the seal cannot open them now; `held-file-changed` when
    /// they changed and the seal cannot open them. Also says what a claiming load keeps.
    fn classify_held(&self, id: &RecordId, stored: &[u8]) -> (SessionLoadOutcome, Keep) {
        let digest = self.seal.digest(stored);
        match self.seal.open(id.as_str(), stored) {
            Opened::Locked(reason) => self.with_claims(|claims| match claims.get(id) {
                Some(Claim::Claimed {
                    held:
                        Some(Held::Digested {
                            digest: held,
                            record,
                            owner,
                        }),
                }) => {
                    if Some(held) == digest.as_ref() {
                        let record = record.clone();
                        (
                            SessionLoadOutcome::Valid {
                                record,
                                owner: *owner,
                            },
                            Keep::Same,
                        )
                    } else {
                        (
                            SessionLoadOutcome::Locked {
                                reason: LockedReason::HeldFileChanged,
                            },
                            Keep::Nothing,
                        )
                    }
                }
                _ => (SessionLoadOutcome::Locked { reason }, Keep::Nothing),
            }),
            opened => {
                let outcome = classify_opened(id, opened);
                let keep = match (&outcome, digest) {
                    (SessionLoadOutcome::Valid { .. }, Some(digest)) => Keep::Digested(digest),
                    (SessionLoadOutcome::Valid { .. }, None) => {
                        Keep::Fingerprint(Fingerprint::of(stored))
                    }
                    _ => Keep::Nothing,
                };
                (outcome, keep)
            }
        }
    }

    async fn load_claiming(&self, id: &RecordId) -> Outcome<SessionLoadOutcome, M> {
        if let Some(lent) = self.lent_to(id) {
            return Err(RecordStoreError::HasWriter(lent));
        }
        // Claim first, then read: no session runs from a read made before its claim.
        if let WriterMark::HeldBy(writer) = self.mark(id).await? {
            self.with_claims(|claims| claims.remove(id));
            return Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer)));
        }
        let stored = match self.read(id).await {
            Ok(stored) => stored,
            Err(error) => {
                let was_claimed = self.is_claimed(id);
                self.drop_fresh_claim(id, was_claimed).await?;
                return Err(error);
            }
        };
        let Some(stored) = stored else {
            self.set(id, Claim::Claimed { held: None });
            return Ok(SessionLoadOutcome::Missing);
        };
        let (outcome, keep) = self.classify_held(id, &stored);
        if outcome.permits_overwrite() {
            let held = match (keep, &outcome) {
                // The claim holds that session already.
                (Keep::Same, _) => return Ok(outcome),
                (Keep::Digested(digest), SessionLoadOutcome::Valid { record, owner }) => {
                    Some(Held::Digested {
                        digest,
                        record: record.clone(),
                        owner: *owner,
                    })
                }
                (Keep::Fingerprint(held), SessionLoadOutcome::Valid { .. }) => {
                    Some(Held::Fingerprint(held))
                }
                _ => None,
            };
            self.set(id, Claim::Claimed { held });
        } else {
            // Nothing runs from corrupt, unsupported or locked: the claim is dropped.
            self.with_claims(|claims| claims.remove(id));
            self.unmark(id).await?;
        }
        Ok(outcome)
    }

    async fn save_record(
        &self,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        provenance: ContentProvenance,
    ) -> Outcome<(SaveOutcome, Option<RecordDigest>), M> {
        let id = &RecordId::new(record.id.as_str()).map_err(RecordStoreError::InvalidId)?;
        let refused = |reason| Ok((SaveOutcome::Refused { reason }, None));
        let lent = self.lent_to(id).is_some();
        if lent && purpose == SavePurpose::Run {
            return refused(SaveRefusal::HasWriter);
        }
        let was_held = self.is_claimed(id) || lent;
        if let WriterMark::HeldBy(_) = self.mark(id).await? {
            if !lent {
                self.with_claims(|claims| claims.remove(id));
            }
            return refused(SaveRefusal::HasWriter);
        }
        match self.check_overwrite(id).await {
            Ok(true) => {}
            Ok(false) => {
                self.drop_fresh_claim(id, was_held).await?;
                return refused(SaveRefusal::Unreadable);
            }
            Err(error) => {
                self.drop_fresh_claim(id, was_held).await?;
                return Err(error);
            }
        }
        let written = self.write_record(id, record, provenance).await;
        let (held, digest) = match written {
            Ok(written) => written,
            Err(error) => {
                self.drop_fresh_claim(id, was_held).await?;
                return Err(error);
            }
        };
        match purpose {
            SavePurpose::Run => self.set(id, Claim::Claimed { held: Some(held) }),
            SavePurpose::HandOff => self.set(id, Claim::Lent { to: None }),
        }
        Ok((SaveOutcome::Saved, digest))
    }

    /// True when what is stored under `id` may be written over: nothing, the exact bytes of a
    /// session this store holds (recognised without a decode), or a valid record.
    async fn check_overwrite(&self, id: &RecordId) -> Outcome<bool, M> {
        let Some(stored) = self.read(id).await? else {
            return Ok(true);
        };
        if self.holds(id, &stored) {
            return Ok(true);
        }
        Ok(self.classify(id, &stored).permits_overwrite())
    }

    async fn write_record(
        &self,
        id: &RecordId,
        record: &InteractiveSessionRecord,
        provenance: ContentProvenance,
    ) -> Outcome<(Held, Option<RecordDigest>), M> {
        let plaintext =
            encode_session_record(record).map_err(|e| RecordStoreError::Encode(e.to_string()))?;
        // Whose the written content is: the owner the seal sealed for (nothing is opened).
        let Sealed { bytes, owner } = self
            .seal
            .seal_attributed(id.as_str(), &plaintext, provenance)
            .map_err(RecordStoreError::Seal)?;
        self.medium
            .write(id, &bytes)
            .await
            .map_err(RecordStoreError::Medium)?;
        let digest = self.seal.digest(&bytes);
        let held = match &digest {
            Some(digest) => Held::Digested {
                digest: digest.clone(),
                record: Box::new(record.clone()),
                owner,
            },
            None => Held::Fingerprint(Fingerprint::of(&bytes)),
        };
        Ok((held, digest))
    }

    #[cfg_attr(not(feature = "sealing"), allow(dead_code))] // The sealing members' hook.
    /// Saves like [`InteractiveSessionStore::save`] and also gives the digest of the bytes
    /// written (on a sealing store): the sealing members log what a store wrote since a token.
    ///
    /// # Errors
    /// As [`InteractiveSessionStore::save`].
    pub(crate) async fn save_digested(
        &self,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        provenance: ContentProvenance,
    ) -> Outcome<(SaveOutcome, Option<RecordDigest>), M> {
        self.save_record(record, purpose, provenance).await
    }
}

/// The outcome of what a seal opened, decoded by the session codec: the codec's outcome becomes
/// the port's in this one match (a valid record moves over with the seal's owner).
fn classify_opened(id: &RecordId, opened: Opened<'_>) -> SessionLoadOutcome {
    match opened {
        Opened::Plaintext { bytes, owner } => match decode_session_record(&bytes, id.as_str()) {
            SessionRecordDecodeOutcome::Valid { record } => {
                SessionLoadOutcome::Valid { record, owner }
            }
            other => other.into(),
        },
        Opened::Locked(reason) => SessionLoadOutcome::Locked { reason },
        Opened::Broken(message) => SessionLoadOutcome::Corrupt {
            issues: vec![SessionRecordDecodeIssue::new("", message)],
            cwd: None,
        },
    }
}

impl<M: RecordMedium, S: RecordSeal, L: RawMutex> InteractiveSessionStore for RecordStore<M, S, L> {
    type Error = RecordStoreError<M::Error>;

    async fn save(
        &self,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        provenance: ContentProvenance,
    ) -> Result<SaveOutcome, Self::Error> {
        Ok(self.save_record(record, purpose, provenance).await?.0)
    }

    async fn load(
        &self,
        id: &str,
        purpose: LoadPurpose,
    ) -> Result<SessionLoadOutcome, Self::Error> {
        let id = &RecordId::new(id).map_err(RecordStoreError::InvalidId)?;
        if purpose.claims() {
            return self.load_claiming(id).await;
        }
        match self.read(id).await? {
            None => Ok(SessionLoadOutcome::Missing),
            Some(stored) => Ok(self.classify_held(id, &stored).0),
        }
    }

    async fn list(&self) -> Result<SessionStoreListing, Self::Error> {
        let ids = self.medium.ids().await.map_err(RecordStoreError::Medium)?;
        let mut listing = SessionStoreListing::default();
        for id in ids {
            let outcome = match self.read(&id).await? {
                // Removed since the medium listed it.
                None => continue,
                Some(stored) => self.classify_held(&id, &stored).0,
            };
            listing.push(SessionListEntry {
                id: id.into(),
                outcome,
            });
        }
        Ok(listing)
    }

    async fn delete(&self, id: &str) -> Result<(), Self::Error> {
        let id = &RecordId::new(id).map_err(RecordStoreError::InvalidId)?;
        if let Some(lent) = self.lent_to(id) {
            return Err(RecordStoreError::HasWriter(lent));
        }
        if let WriterMark::HeldBy(writer) = self.mark(id).await? {
            self.with_claims(|claims| claims.remove(id));
            return Err(RecordStoreError::HasWriter(OtherWriter::Marked(writer)));
        }
        self.with_claims(|claims| claims.remove(id));
        let removed = self
            .medium
            .remove(id)
            .await
            .map_err(RecordStoreError::Medium);
        self.unmark(id).await?;
        removed
    }
}

#[cfg(test)]
mod tests {
    use alloc::borrow::Cow;
    use core::cell::Cell;

    use super::*;
    use crate::runtime::record_store::MemoryMedium;

    /// [`Unsealed`], counting every open: with a store that never seals, every classification
    /// of stored bytes (a decode) opens them once.
    #[derive(Default)]
    struct CountingUnsealed {
        opened: Cell<usize>,
    }

    impl RecordSeal for CountingUnsealed {
        fn open<'a>(&self, id: &str, stored: &'a [u8]) -> Opened<'a> {
            self.opened.set(self.opened.get() + 1);
            Unsealed.open(id, stored)
        }

        fn seal<'a>(
            &self,
            id: &str,
            plaintext: &'a [u8],
            provenance: ContentProvenance,
        ) -> Result<Cow<'a, [u8]>, SealError> {
            Unsealed.seal(id, plaintext, provenance)
        }

        fn digest(&self, stored: &[u8]) -> Option<RecordDigest> {
            Unsealed.digest(stored)
        }
    }

    /// Runs a store call over the memory medium (it never waits).
    fn ready<F: core::future::Future>(future: F) -> F::Output {
        let mut future = core::pin::pin!(future);
        let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
        match future.as_mut().poll(&mut cx) {
            core::task::Poll::Ready(output) => output,
            core::task::Poll::Pending => panic!("a memory store call waited"),
        }
    }

    fn record(second: u8) -> InteractiveSessionRecord {
        InteractiveSessionRecord::new(
            "s1",
            "/work",
            "2025-01-01T00:00:00.000Z",
            alloc::format!("2025-01-01T00:00:{second:02}.000Z"),
        )
    }

    fn save<M: RecordMedium, S: RecordSeal>(
        store: &RecordStore<M, S>,
        record: &InteractiveSessionRecord,
    ) -> SaveOutcome
    where
        M::Error: fmt::Debug,
    {
        ready(store.save(record, SavePurpose::Run, ContentProvenance::Session)).expect("a save")
    }

    #[test]
    fn a_commit_never_re_decodes_what_the_store_last_wrote_or_read() {
        let medium = MemoryMedium::new();
        let a = RecordStore::new(
            &medium,
            CountingUnsealed::default(),
            WriterId::new("a").expect("id"),
        );
        assert_eq!(save(&a, &record(1)), SaveOutcome::Saved);
        assert_eq!(save(&a, &record(2)), SaveOutcome::Saved);
        assert_eq!(save(&a, &record(3)), SaveOutcome::Saved);
        assert_eq!(
            a.seal().opened.get(),
            0,
            "a commit decoded the bytes this store wrote"
        );
        let s1 = RecordId::new("s1").expect("an id");
        ready(a.release(&s1)).expect("released");

        // Bytes this store read (a claiming load decodes them once) are not decoded again.
        let b = RecordStore::new(
            &medium,
            CountingUnsealed::default(),
            WriterId::new("b").expect("id"),
        );
        assert!(matches!(
            ready(b.load("s1", LoadPurpose::Resume)),
            Ok(SessionLoadOutcome::Valid { .. })
        ));
        assert_eq!(b.seal().opened.get(), 1);
        assert_eq!(save(&b, &record(4)), SaveOutcome::Saved);
        assert_eq!(
            b.seal().opened.get(),
            1,
            "a commit decoded the bytes this store read"
        );

        // Bytes that changed underneath (written past the marker) are classified afresh.
        ready(medium.write(&s1, b"not a record")).expect("planted");
        assert_eq!(
            save(&b, &record(5)),
            SaveOutcome::Refused {
                reason: SaveRefusal::Unreadable
            }
        );
        assert_eq!(ready(medium.read(&s1)), Ok(Some(b"not a record".to_vec())));
        let other = encode_session_record(&record(6)).expect("encodes");
        ready(medium.write(&s1, &other)).expect("planted");
        assert_eq!(save(&b, &record(7)), SaveOutcome::Saved);
        assert_eq!(b.seal().opened.get(), 3);
        assert_eq!(save(&b, &record(8)), SaveOutcome::Saved);
        assert_eq!(b.seal().opened.get(), 3);
    }
}
