//! Session record stores (feature `record-store`): one [`RecordStore`] that implements the
//! session family's store port ([`InteractiveSessionStore`](crate::session::InteractiveSessionStore))
//! over a byte [`RecordMedium`] and a [`RecordSeal`], with the claims, lends and writer markers
//! that keep one writer per record, and the in-memory medium ([`MemoryMedium`]). The file
//! medium is feature `record-store-fs` (std); the AEAD seal is feature `sealing`; the
//! conformance suite every medium and seal passes is [`testing`] (feature `testing`).
//!
//! # One store, many media
//!
//! The memory, file and sealed stores are the same code: [`RecordStore<M, S>`] over a medium
//! `M` (where bytes live, and the writer markers beside them) and a seal `S` ([`Unsealed`] for
//! a store that never seals). A medium is storage only: it never decodes or decides an outcome,
//! and it promises what the store cannot check (whole writes, atomic marking; see
//! [`RecordMedium`]). One store instance is one writer ([`WriterId`]); two instances over one
//! medium are two processes over one directory.
//!
//! # The rules
//!
//! - **Ids are checked first.** Every id (a load's, a delete's, a writer call's, a saved
//!   record's `id`) must be a [`RecordId`] (1 to 128 bytes of `A-Z a-z 0-9 . _ -`, not starting
//!   with `.`, no `..`) before it reaches the medium, so a file medium uses it as a file name as it is.
//!   Otherwise [`RecordStoreError::InvalidId`].
//! - **Classification.** Stored bytes go through the seal ([`RecordSeal::open`]): a plaintext
//!   envelope is decoded by [`decode_session_record`](crate::runtime::record_codec::decode_session_record)
//!   (whose id check makes a record stored under another id `corrupt`) and a valid record
//!   carries the seal's owner; a seal that cannot open intact bytes answers `locked` with its
//!   reason; bytes the seal cannot verify are `corrupt` (one issue at the root, no cwd). No
//!   field value but the id changes the outcome.
//! - **A claiming load claims through the very read.** A load with purpose `resume` or `write`
//!   first marks this store as the id's writer ([`RecordMedium::mark_writer`]) and only then
//!   reads, so no session runs from a read made before its claim. If another writer's marker is
//!   there, or this store lent the id, the load fails with [`RecordStoreError::HasWriter`] and
//!   nothing is read. The claim is kept for `valid` and `missing` and dropped (marker removed)
//!   for `corrupt`, `unsupported` and `locked`: nothing runs from those.
//! - **A probe leaves nothing**: no claim, no marker, no change to what the store holds.
//! - **A run save needs the claim** (and takes it if free): another writer gives
//!   `refused: has-writer`; a stored record that is corrupt, unsupported or locked gives
//!   `refused: unreadable` and its bytes stay as they were. The one exception is a session this
//!   store holds: bytes whose digest is the one it last read or wrote may be written over even
//!   when the seal cannot open them now.
//! - **A hand-off save lends the id.** The record is written for another process (a fork
//!   job's), and this store then refuses its own run saves and claiming loads of the id, so this
//!   process never opens a second writer. [`RecordStore::lend`] moves the marker to the
//!   receiving writer in one compare-and-swap ([`RecordMedium::transfer_writer`]), so the record
//!   never has no writer; [`RecordStore::reclaim`] ends the lend once the marker no longer names
//!   another writer.
//! - **Who writes is the store's to say** ([`RecordStore::writer_of`]): nobody, this store, a
//!   lend of this store, or another writer's marker.
//! - **Held sessions.** For an id it claims, a sealing store (one whose seal gives a
//!   [`digest`](RecordSeal::digest)) remembers the digest of the bytes it last read or wrote and
//!   the record they held. A later load of those exact bytes that the seal cannot open now (the
//!   keys locked since) hands the held record back as `valid`; bytes that changed and do not
//!   open are `locked: held-file-changed`.
//! - **A commit never decodes what the store last read or wrote.** For an id it claims, every
//!   store (a store that never seals included) keeps what identifies the bytes it last read or
//!   wrote: their digest with a seal that gives one, else the bytes themselves. A save reads
//!   the stored bytes and, when they are those, writes over them without opening or decoding
//!   them; bytes that changed underneath (another writer past the marker) are classified
//!   afresh, as always. The cost is one copy of the last bytes per claimed id on a store whose
//!   seal does not digest (docs/decisions/record-store-path.md).
//! - **A listing claims nothing**: every id the medium has, classified as a probe would, with
//!   locked records counted ([`SessionStoreListing`](crate::session::SessionStoreListing)).
//! - **Delete is the caller's decision**: refused ([`RecordStoreError::HasWriter`]) while
//!   another writer holds the id (a lend included); otherwise the bytes, this store's claim and
//!   its marker go. A corrupt record may be deleted; deleting nothing is fine.
//! - **Dead writers.** A marker outlives a crashed process. Only the host can tell that a writer
//!   is dead: the process its writer id names no longer runs (a pid checked with a boot nonce,
//!   so a reused pid does not count), or the host's own lease for that writer expired. It then
//!   calls [`RecordStore::recover_writer`], which removes the marker only if it still names that
//!   writer. Recovering a live writer's marker opens a second writer: never guess.
//!
//! # Decisions where the contract was silent
//!
//! - **The store's `Err` carries more than I/O.** The port keeps `Err` for storage failures
//!   and has no load outcome for "someone else writes this": the five outcomes say what is
//!   stored, not who holds it. A claim that cannot be taken is the one refusal a load can meet,
//!   so it is an error ([`RecordStoreError::HasWriter`]), with the invalid id, the record that
//!   cannot be written as JSON, the seal that may not seal now and the lend of an id the store
//!   does not hold ([`RecordStoreError::NotHeld`]). A save's refusals stay outcomes.
//! - **Markers are the medium's, claims the store's.** The marker is what other processes see;
//!   the claim table (which ids this instance claims or lent, and what it holds) is in memory
//!   and dies with the instance. A store whose writer id matches a marker it did not take (a
//!   restarted process reusing its id) treats the marker as its own: writer ids are unique per
//!   process and boot ([`WriterId`]).
//! - **A refused or failed call leaves what the store held before.** A claim taken by a call
//!   that then refuses (`unreadable`) or fails is dropped again, marker included; a claim held
//!   before the call stays.
//! - **`held-file-changed` drops the claim**, like every `locked` claiming load; a later load
//!   then reports the seal's own reason.
//! - **The owner of held content** is the owner the seal sealed for
//!   ([`RecordSeal::seal_attributed`]): a save never opens what it just sealed. (A seal that
//!   does not say so falls back to opening the bytes it sealed; bytes it sealed and cannot open
//!   were sealed under a write grant without keys, so the held record is the grantee's.)
//! - **`reclaim` makes the id this store's claim again** (its marker beside the record), not a
//!   free id: a third writer never steps in between. The held bytes are forgotten (the
//!   receiving writer may have changed them).
//! - **`lend` works on a claimed id too** (handing a running session to another process), and
//!   lending again to the same writer is a no-op.
//! - **A listing keeps ids it would refuse** (a stray file) as `corrupt` with an issue saying so,
//!   rather than dropping them from view.
//! - **Memory store**: [`MemoryRecordStore`] is the store over a borrowed [`MemoryMedium`], so
//!   two stores over one medium stand for two processes; the medium cannot fail (its error is
//!   [`Infallible`](core::convert::Infallible)).

mod medium;
mod memory;
mod seal;
mod store;

#[cfg(feature = "record-store-fs")]
mod file;
#[cfg(feature = "sealing")]
mod sealed;
#[cfg(feature = "testing")]
pub mod testing;

pub use medium::{RecordMedium, WriterId, WriterIdError, WriterMark};
pub use memory::{MemoryMedium, MemoryRecordStore};
pub use seal::{Opened, RecordSeal, SealError, Sealed, Unsealed};
pub use store::{
    OtherWriter, RecordId, RecordIdError, RecordStore, RecordStoreError, RecordWriter,
};

#[cfg(feature = "record-store-fs")]
pub use file::{FileMedium, FileMediumError, FileOperation, FileRecordStore};
#[cfg(feature = "sealing")]
pub use sealed::{
    AeadSeal, AeadSealed, KeyId, KeyIdError, KeyMaterial, KeyRole, Keyring, KeyringError,
    SealedFormatError, SealedHeader, rand_core, sha256_digest,
};
