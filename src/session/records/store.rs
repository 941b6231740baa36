//! The session record store port (`IInteractiveSessionStore`), what its loads answer
//! (`TSessionLoadOutcome`, `ISessionRecordDecodeIssue`, `ISessionListEntry`), the purposes and
//! provenance a load or a save declares, a listing that counts what it leaves out, and the
//! members only a sealing store has.
//!
//! # The rules, and where each one lives
//!
//! - **Five outcomes, not `record | undefined`.** A load says which of valid, missing, corrupt,
//!   unsupported or locked happened, so "no such session" and "there is one I cannot read" are
//!   never the same answer ([`SessionLoadOutcome`]).
//! - **Only `missing` permits recovery** (for example replaying a log):
//!   [`SessionLoadOutcome::permits_recovery`]. A damaged or locked record is still there; a
//!   recovery path must never run over it.
//! - **A writer never overwrites corrupt, unsupported or locked.** A read-modify-write consumer
//!   asks [`SessionLoadOutcome::permits_overwrite`] (true for `valid` and `missing` only) and
//!   refuses to write otherwise; it never treats damaged as absent. A locked record is treated
//!   like a corrupt one, except for a session the writer's own store still holds: that store
//!   hands it back as `valid`, so the exception is the store's answer, not the consumer's
//!   judgement. A store may also refuse a save itself ([`SaveOutcome::Refused`]).
//! - **No field value but the id changes the outcome.** The store decodes the envelope and checks
//!   the shape (inspection); the record's own id must equal the id it is stored under, and no
//!   other member's value may turn one outcome into another. The pure decoder
//!   (`decode_session_record`, the `record-codec` runtime piece) keeps this rule and is what a
//!   store built on bytes uses.
//! - **No record path.** The port owns CRUD only and has no member that returns where a record
//!   lives (the older optional `getFilePath` is gone on purpose): a reusable absolute path would
//!   let a caller read or write the record behind the store's back, skipping the decode, the
//!   claim, the seal and the writer markers. Transcript references belong to whoever writes the
//!   logs, not to the record store.
//! - **Listings keep what they cannot read.** A listing shows corrupt and unsupported entries with
//!   their outcome (a session that needs another build must not look like a vanished one), leaves
//!   locked ones out, and counts them in two numbers ([`SessionStoreListing`]).
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::record::InteractiveSessionRecord;

/// One place where stored bytes failed to decode as a session record
/// (`ISessionRecordDecodeIssue`).
///
/// `path` is the machine half, kept apart from the prose so a caller can classify a failure
/// without reading it: dotted members and bracketed indices from the root of the stored
/// document (`record.messages[2].timestamp`), empty at the root itself. `message` is the human
/// half.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SessionRecordDecodeIssue {
    /// Where the failure is: dotted members, bracketed indices, empty at the root. Member names
    /// are written as they are, without escaping.
    pub path: String,
    /// What is wrong there, for a person.
    pub message: String,
}

impl SessionRecordDecodeIssue {
    /// An issue at `path` saying `message`.
    #[must_use]
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

string_enum! {
    /// Why a sealed, intact record cannot be opened by this process right now.
    pub enum LockedReason {
        /// The keys that open it are in this process but locked; an unlock here opens it.
        KeysLocked = "keys-locked",
        /// This process holds no keys at all (it may hold a write grant); no unlock here opens
        /// it.
        NoKeys = "no-keys",
        /// This store holds the session, and its stored bytes changed since the store read them;
        /// the store will not open bytes it did not hand out. No unlock here opens it.
        HeldFileChanged = "held-file-changed",
    }
}

impl LockedReason {
    /// True when an unlock in this process would open the record (only
    /// [`KeysLocked`](Self::KeysLocked)); a listing counts these apart from the rest.
    #[must_use]
    pub const fn opens_after_unlock(self) -> bool {
        matches!(self, Self::KeysLocked)
    }
}

string_enum! {
    /// Whose a record is, as a sealing store says on every valid outcome.
    ///
    /// A sealed record that opens says nothing about who sealed it, and a resumed record is fed
    /// back to the model as its own history, so a sealing store attributes it. Absent (on a
    /// store that never seals) means "not attributed", never "trusted".
    pub enum RecordOwner {
        /// The owner's content: written by the owner's process, or raised to the owner's by the
        /// digest of its exact bytes.
        Owner = "owner",
        /// Written by a process that held only a write grant (no keys); not the owner's until
        /// raised.
        Grantee = "grantee",
    }
}

string_enum! {
    /// The `status` tag of a [`SessionLoadOutcome`].
    pub enum SessionLoadStatus {
        /// Decoded and shape-valid.
        Valid = "valid",
        /// No record under this id.
        Missing = "missing",
        /// Present, and not a session record.
        Corrupt = "corrupt",
        /// Present, and written in a version this build does not read.
        Unsupported = "unsupported",
        /// Sealed and intact, and this process cannot open it now.
        Locked = "locked",
    }
}

/// What a store concluded about one session id (`TSessionLoadOutcome`), tagged on `status`.
///
/// A caller must say which outcome it handles; that is what stops "damaged" from being read as
/// "absent" and overwritten. Only [`Missing`](Self::Missing) permits recovery
/// ([`permits_recovery`](Self::permits_recovery)); only `Valid` and `Missing` may be written over
/// ([`permits_overwrite`](Self::permits_overwrite)).
// `Deserialize` is written by hand next to the stored-record decoder (decode.rs): a derived
// internally tagged decoder would buffer the outcome and decode its record a second way.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "status",
        rename_all = "lowercase",
        rename_all_fields = "camelCase"
    )
)]
pub enum SessionLoadOutcome {
    /// The record decoded and its shape is valid; its id is the id it was loaded under.
    Valid {
        /// The record (boxed: it is by far the largest variant).
        record: Box<InteractiveSessionRecord>,
        /// Whose the record is, on a sealing store; absent on a store that never seals (which
        /// means "not attributed", never "trusted").
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        owner: Option<RecordOwner>,
    },
    /// No record for this id: the only outcome from which a recovery path may run.
    Missing,
    /// Something is stored under this id and it is not a session record (not JSON, not an
    /// object, wrong member types, or another id). Never silently replaced or overwritten.
    Corrupt {
        /// Every located failure found.
        issues: Vec<SessionRecordDecodeIssue>,
        /// The record's workspace directory, read best-effort from the bytes that failed, so a
        /// caller can tell which workspace an unreadable record belongs to.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        cwd: Option<String>,
    },
    /// Stored by a build whose envelope version this one does not read.
    Unsupported {
        /// The version the envelope declares, when it is a whole number (negative ones
        /// included); absent when the declared version is not one.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        schema_version: Option<i64>,
        /// The record's workspace directory, read best-effort from the stored bytes.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        cwd: Option<String>,
    },
    /// Sealed and intact, and this process holds no key that opens it now. Neither missing (a
    /// recovery must not run over it) nor corrupt (a later unlock reads it). Carries only why.
    Locked {
        /// Why this process cannot open it.
        reason: LockedReason,
    },
}

impl SessionLoadOutcome {
    /// A valid outcome from a store that never seals (no owner attribution).
    #[must_use]
    pub fn valid(record: InteractiveSessionRecord) -> Self {
        Self::Valid {
            record: Box::new(record),
            owner: None,
        }
    }

    /// The `status` tag.
    #[must_use]
    pub const fn status(&self) -> SessionLoadStatus {
        match self {
            Self::Valid { .. } => SessionLoadStatus::Valid,
            Self::Missing => SessionLoadStatus::Missing,
            Self::Corrupt { .. } => SessionLoadStatus::Corrupt,
            Self::Unsupported { .. } => SessionLoadStatus::Unsupported,
            Self::Locked { .. } => SessionLoadStatus::Locked,
        }
    }

    /// True only for [`Missing`](Self::Missing): the one outcome a recovery path (log replay,
    /// a fresh session under the id) may run from. A corrupt, unsupported or locked record is
    /// still there.
    #[must_use]
    pub const fn permits_recovery(&self) -> bool {
        matches!(self, Self::Missing)
    }

    /// True for [`Valid`](Self::Valid) and [`Missing`](Self::Missing): the outcomes after which
    /// a read-modify-write consumer may save under this id (preserving, for a valid record,
    /// every member it does not own).
    ///
    /// False for corrupt, unsupported and locked: a writer never overwrites them. A locked
    /// record is treated like a corrupt one, except for a session the writer's own store still
    /// holds; that store hands such a session back as `valid`, so this check needs no exception.
    #[must_use]
    pub const fn permits_overwrite(&self) -> bool {
        matches!(self, Self::Valid { .. } | Self::Missing)
    }

    /// False only for [`Locked`](Self::Locked): a listing shows every other stored outcome and
    /// counts the locked ones instead ([`SessionStoreListing`]).
    #[must_use]
    pub const fn is_listed(&self) -> bool {
        !matches!(self, Self::Locked { .. })
    }

    /// The record of a valid outcome.
    #[must_use]
    pub fn record(&self) -> Option<&InteractiveSessionRecord> {
        match self {
            Self::Valid { record, .. } => Some(record),
            _ => None,
        }
    }

    /// The record of a valid outcome, taken out of it.
    #[must_use]
    pub fn into_record(self) -> Option<InteractiveSessionRecord> {
        match self {
            Self::Valid { record, .. } => Some(*record),
            _ => None,
        }
    }

    /// The owner attribution of a valid outcome from a sealing store.
    #[must_use]
    pub const fn owner(&self) -> Option<RecordOwner> {
        match self {
            Self::Valid { owner, .. } => *owner,
            _ => None,
        }
    }

    /// The located decode failures of a corrupt outcome (empty for every other outcome).
    #[must_use]
    pub fn issues(&self) -> &[SessionRecordDecodeIssue] {
        match self {
            Self::Corrupt { issues, .. } => issues,
            _ => &[],
        }
    }

    /// The workspace directory the outcome names: the record's for a valid one, the best-effort
    /// one for corrupt and unsupported ones (when it could be read), none for missing and
    /// locked.
    #[must_use]
    pub fn cwd(&self) -> Option<&str> {
        match self {
            Self::Valid { record, .. } => Some(&record.cwd),
            Self::Corrupt { cwd, .. } | Self::Unsupported { cwd, .. } => cwd.as_deref(),
            Self::Missing | Self::Locked { .. } => None,
        }
    }
}

string_enum! {
    /// What a load is for; a store may treat each differently.
    pub enum LoadPurpose {
        /// A session restores from this read. The read claims the id, so no session ever runs
        /// from a read made before its claim; on a sealing store this read (and every later one
        /// for the session) answers only from content the owner wrote.
        Resume = "resume",
        /// A writer's read (read-modify-write): it claims the session for this writer, so no
        /// second writer of the record opens in this process or another.
        Write = "write",
        /// A look that leaves nothing behind in the store: no claim, no writer marker.
        Probe = "probe",
    }
}

impl LoadPurpose {
    /// True for the purposes that claim the id (resume and a writer's read); false for a probe.
    #[must_use]
    pub const fn claims(self) -> bool {
        !matches!(self, Self::Probe)
    }
}

string_enum! {
    /// Whose the saved record is to run.
    pub enum SavePurpose {
        /// This process runs the session the record belongs to.
        Run = "run",
        /// The record is written for another process to run (a fork's record for a background
        /// job, for example): the store lends the id to that process instead of keeping it as
        /// this process's own writer.
        HandOff = "hand-off",
    }
}

string_enum! {
    /// Where the content of a saved record came from.
    pub enum ContentProvenance {
        /// The running session wrote it: its own turns and state.
        Session = "session",
        /// Copied from another stored record (a fork under a fresh id); the copy's ownership is
        /// never stronger than the source's.
        Fork = "fork",
        /// Rebuilt after a `missing` load (a log replay, for example).
        Recovery = "recovery",
        /// The plaintext of a cross-store token ([`CrossStoreToken`]).
        Token = "token",
        /// Supplied from outside any store (an imported file, for example); never the owner's
        /// until raised.
        External = "external",
    }
}

string_enum! {
    /// Why a store refused a save.
    pub enum SaveRefusal {
        /// The id already has a writer (a claim or a lend of this store, or another process's
        /// writer marker); a second writer of one record is never opened.
        HasWriter = "has-writer",
        /// What is stored under the id is corrupt, unsupported or locked; it is never
        /// overwritten.
        Unreadable = "unreadable",
    }
}

/// What a save did, tagged on `status`. A refusal is an outcome to act on, not an I/O error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "status", rename_all = "lowercase"))]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SaveOutcome {
    /// The record is stored (whole: a failed write leaves either the prior record or this one).
    Saved,
    /// Nothing was written.
    Refused {
        /// Why.
        reason: SaveRefusal,
    },
}

/// One entry of a store listing (`ISessionListEntry`): an id and what a load of it concluded,
/// so an entry the store cannot read stays visible with the reason.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SessionListEntry {
    /// The id the record is stored under.
    pub id: String,
    /// What loading it concluded (never `locked` in a [`SessionStoreListing`]).
    pub outcome: SessionLoadOutcome,
}

/// Everything a store holds, as one scan saw it.
///
/// Valid, corrupt and unsupported records are entries (with their outcome); locked records are
/// left out and counted instead, the merely locked (an unlock in this process would open them)
/// apart from those no unlock in this process would open. Build one with
/// [`push`](Self::push) or `collect()`, which apply that rule.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SessionStoreListing {
    /// The listed entries, in the store's order.
    pub entries: Vec<SessionListEntry>,
    /// Locked records an unlock in this process would open (reason `keys-locked`).
    pub locked_count: u32,
    /// Locked records no unlock in this process would open (reasons `no-keys` and
    /// `held-file-changed`).
    pub unopenable_count: u32,
}

impl SessionStoreListing {
    /// Adds one scanned entry: a locked one is counted under its reason (saturating), any other
    /// is listed.
    pub fn push(&mut self, entry: SessionListEntry) {
        match entry.outcome {
            SessionLoadOutcome::Locked { reason } if reason.opens_after_unlock() => {
                self.locked_count = self.locked_count.saturating_add(1);
            }
            SessionLoadOutcome::Locked { .. } => {
                self.unopenable_count = self.unopenable_count.saturating_add(1);
            }
            _ => self.entries.push(entry),
        }
    }

    /// The listed entry for `id`.
    #[must_use]
    pub fn entry(&self, id: &str) -> Option<&SessionListEntry> {
        self.entries.iter().find(|entry| entry.id == id)
    }

    /// How many locked records the scan left out, both counts together.
    #[must_use]
    pub const fn left_out(&self) -> u32 {
        self.locked_count.saturating_add(self.unopenable_count)
    }
}

impl FromIterator<SessionListEntry> for SessionStoreListing {
    fn from_iter<I: IntoIterator<Item = SessionListEntry>>(entries: I) -> Self {
        let mut listing = Self::default();
        entries.into_iter().for_each(|entry| listing.push(entry));
        listing
    }
}

/// The persistence port for resumable interactive sessions (`IInteractiveSessionStore`): CRUD
/// only.
///
/// There is deliberately no member that exposes where a record lives (the old optional
/// `getFilePath` is gone): a reusable record path would let a caller bypass the decode, the
/// claim, the seal and the writer markers. Members a sealing store adds are on
/// [`SealingSessionStore`].
///
/// Every member returns `Err` only for a failure to reach the storage (`Self::Error`); what a
/// load concluded and a refused save are outcomes.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait InteractiveSessionStore {
    /// A failure to reach the storage (I/O). Never used for a load outcome or a refused save.
    type Error: core::error::Error;

    /// Stores `record` whole under `record.id` (`save`). `purpose` says whether this process
    /// runs the session or hands it to another; `provenance` says where the content came from.
    ///
    /// A store refuses ([`SaveOutcome::Refused`]) rather than open a second writer of the
    /// record, and rather than overwrite a stored record that is corrupt, unsupported or locked
    /// (except a session it still holds itself).
    async fn save(
        &self,
        record: &InteractiveSessionRecord,
        purpose: SavePurpose,
        provenance: ContentProvenance,
    ) -> Result<SaveOutcome, Self::Error>;

    /// Loads the record stored under `id` (`load`), saying which of the five outcomes happened.
    /// `purpose` says whether the read claims the id (resume, a writer's read) or leaves
    /// nothing behind (probe).
    async fn load(&self, id: &str, purpose: LoadPurpose)
    -> Result<SessionLoadOutcome, Self::Error>;

    /// Every stored record with its outcome (`list`), locked ones counted rather than listed.
    /// A listing claims nothing.
    async fn list(&self) -> Result<SessionStoreListing, Self::Error>;

    /// Removes the record stored under `id` (`delete`); removing an id that holds nothing is not
    /// an error.
    async fn delete(&self, id: &str) -> Result<(), Self::Error>;
}

string_enum! {
    /// The digest function a [`RecordDigest`] was computed with.
    pub enum DigestAlgorithm {
        /// SHA-256 over the exact stored bytes.
        Sha256 = "sha-256",
    }
}

/// A digest of a record's exact stored (sealed) bytes: how a raise and a token name the bytes
/// they mean, so nothing re-encoded can stand in for them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RecordDigest {
    /// The digest function.
    pub algorithm: DigestAlgorithm,
    /// The digest.
    pub value: Sha256Digest,
}

/// A SHA-256 digest, its 32 bytes (a record's in a [`RecordDigest`], a file's in a file offer).
///
/// `Display` and the wire form are the 64 lowercase hex digits; reading refuses any other length
/// or character, uppercase included ([`InvalidSha256Digest`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String"))]
pub struct Sha256Digest(pub [u8; 32]);

impl core::str::FromStr for Sha256Digest {
    type Err = InvalidSha256Digest;

    fn from_str(text: &str) -> Result<Self, InvalidSha256Digest> {
        let mut bytes = [0; 32];
        if text.len() != 64 {
            return Err(InvalidSha256Digest::Length(text.len()));
        }
        base16ct::lower::decode(text, &mut bytes)
            .map_err(|_| InvalidSha256Digest::NotLowercaseHex)?;
        Ok(Self(bytes))
    }
}

impl TryFrom<String> for Sha256Digest {
    type Error = InvalidSha256Digest;

    fn try_from(text: String) -> Result<Self, InvalidSha256Digest> {
        text.parse()
    }
}

impl core::fmt::Display for Sha256Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:x}", base16ct::HexDisplay(&self.0))
    }
}

impl core::fmt::Debug for Sha256Digest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Sha256Digest({self})")
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Sha256Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Why a text is not a [`Sha256Digest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum InvalidSha256Digest {
    /// The text has this many bytes, not 64.
    #[error("a sha256 is 64 lowercase hex characters, found {0} bytes")]
    Length(usize),
    /// A character is not one of `0-9a-f`.
    #[error("a sha256 is lowercase hex (0-9, a-f) only")]
    NotLowercaseHex,
}

/// A sealed record on its way to another store (the one way a process that holds no keys, only
/// a write grant, can continue a session).
///
/// It carries the plaintext and names the sealed bytes it came from, so it goes only where the
/// record itself may go.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CrossStoreToken {
    /// The record, in plaintext.
    pub record: InteractiveSessionRecord,
    /// The digest of the sealed bytes the plaintext was opened from.
    pub sealed_digest: RecordDigest,
    /// Whether the issuing store held the record as the owner's: the only word a process
    /// without keys has for that.
    pub owner: RecordOwner,
}

/// What asking a sealing store for a token gave, tagged on `status`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "status", rename_all = "lowercase"))]
pub enum TokenIssue {
    /// The token for the record.
    Issued {
        /// The token.
        token: Box<CrossStoreToken>,
    },
    /// No token: what loading the id concluded instead (missing, corrupt, unsupported or locked;
    /// never valid).
    Unreadable {
        /// The load outcome that stood in the way.
        outcome: SessionLoadOutcome,
    },
}

string_enum! {
    /// What raising a record to the owner's did.
    pub enum RaiseOutcome {
        /// The stored bytes are exactly the bytes named, and the record is now the owner's.
        Raised = "raised",
        /// The stored bytes are the bytes named and were already the owner's; nothing changed.
        AlreadyOwner = "already-owner",
        /// The stored bytes are not the bytes named (they changed, or the digest names other
        /// bytes); nothing changed.
        DigestMismatch = "digest-mismatch",
        /// Nothing this store can open is stored under the id (missing, corrupt, unsupported or
        /// locked); nothing changed.
        NotOpenable = "not-openable",
    }
}

/// The members only a store that seals records at rest has.
///
/// A session gates on the outcome its claim read (a [`LoadPurpose::Resume`] load), never on
/// these members, so a view of a store that leaves them out loses the raise and never the gate.
#[allow(async_fn_in_trait)] // No `Send` bound is forced, by design: wasm and embedded hosts are
// single-threaded. A multi-threaded host adds the bound on its own wrapper.
pub trait SealingSessionStore: InteractiveSessionStore {
    /// Raises the record stored under `id` to the owner's, if and only if its exact stored bytes
    /// have `digest`.
    async fn raise_to_owner(
        &self,
        id: &str,
        digest: &RecordDigest,
    ) -> Result<RaiseOutcome, Self::Error>;

    /// Issues the cross-store token for the record stored under `id`.
    async fn issue_token(&self, id: &str) -> Result<TokenIssue, Self::Error>;

    /// Continues a session from a token issued by another store: stores its plaintext (sealed
    /// under this store's grant) with provenance [`ContentProvenance::Token`].
    async fn accept_token(
        &self,
        token: &CrossStoreToken,
        purpose: SavePurpose,
    ) -> Result<SaveOutcome, Self::Error>;

    /// The digests of the bytes this store wrote under `id` since it accepted the token naming
    /// `since`, oldest first: the only bytes the owner's process may then vouch for (raise).
    async fn written_since(
        &self,
        id: &str,
        since: &RecordDigest,
    ) -> Result<Vec<RecordDigest>, Self::Error>;
}
