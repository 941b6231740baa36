//! Session record stores (feature `record-store`): one [`RecordStore`] that implements the
//! session family's store port ([`InteractiveSessionStore`])
//! over a byte [`RecordMedium`] and a [`RecordSeal`], with the claims, lends and writer markers
//! that keep one writer per record.
//!
//! The memory, file and sealed stores are the same code, [`RecordStore<M, S>`]: the medium `M`
//! holds bytes and writer markers and never decodes or decides an outcome; the seal `S`
//! ([`Unsealed`] never seals) opens what is stored. One store instance is one writer
//! ([`WriterId`]); two instances over one medium are two processes over one directory. The
//! in-memory medium is [`MemoryMedium`]; the file medium is feature `record-store-fs` (std), the
//! AEAD seal feature `sealing`, and
#![cfg_attr(feature = "testing", doc = "[`testing`]")]
#![cfg_attr(not(feature = "testing"), doc = "`testing`")]
//! (feature `testing`) is the conformance suite every medium and seal passes.
//!
//! # Guarantees
//!
//! - **Ids are checked once, at the edge**: the port's text ids (a load's, a delete's, a saved
//!   record's `id`) become a [`RecordId`] first (else [`RecordStoreError::InvalidId`], and the
//!   medium is not asked); the store's own members and every [`RecordMedium`] call take a
//!   `RecordId`, so nothing checks it again and a file medium uses it as a file name as it is.
//! - **Stored bytes are classified, never trusted**: through the seal, then the record codec; a
//!   record stored under another id is `corrupt`; no field but the id changes the outcome.
//! - **One writer per record.** A `resume` or `write` load marks this store as writer *before*
//!   it reads; another writer's marker or a lend gives [`RecordStoreError::HasWriter`] and
//!   nothing is read. The claim stays for `valid` and `missing` only. A run save needs the claim;
//!   a stored record that is corrupt, unsupported or locked is never written over (except bytes
//!   this store itself last read or wrote). A probe or a listing claims nothing.
//! - **Hand-offs never leave a record writerless**: [`RecordStore::lend`] moves the marker in one
//!   compare-and-swap, [`RecordStore::reclaim`] takes it back.
//! - **A refused or failed call leaves what the store held before.**
//!
//! # When to call what
//!
//! - `load(id, Resume | Write)` before running or writing a session; `load(id, Probe)` to look.
//! - `save` for the running session; a hand-off save, then [`lend`](RecordStore::lend), to
//!   give it to another process; [`reclaim`](RecordStore::reclaim) when it is back.
//! - [`writer_of`](RecordStore::writer_of) to ask who writes; `delete` when the caller decides.
//! - [`recover_writer`](RecordStore::recover_writer) only when the host *knows* a writer is dead
//!   (a pid checked with a boot nonce, or an expired lease): never guess.
//!
//! # Claims that survive crashes
//!
//! - **Dropping a store releases its claims** (as far as its medium answers at once: the memory
//!   and file media do); [`release_all`](RecordStore::release_all) does it and reports errors.
//! - **A writer id per boot**: [`WriterId::for_boot`] (`<host>#<boot nonce>`) names a host that
//!   survives restarts and a boot that does not; a restarted host takes its earlier boot's
//!   markers over at once (one process per host id at a time is the host's promise).
//! - **A lease** ([`RecordStore::with_lease`], [`Lease`]): every marker says until when it
//!   holds, on the host's clock; the store renews as it marks (and on
//!   [`renew`](RecordStore::renew)), and another store takes a lapsed marker over in one
//!   compare-and-swap. A crashed writer without a lease keeps its records until the host
//!   recovers them.
//!
//! # Threads and async
//!
//! [`RecordStore::new`] makes a single-threaded store (`NoopRawMutex`): wasm, firmware, one
//! executor. A multi-threaded server builds it with [`RecordStore::with_lock`] and embassy-sync's
//! `CriticalSectionRawMutex` (which needs a `critical-section` implementation, on std the
//! `critical-section` crate's `std` feature): it is then `Send + Sync` over the file medium, and
//! its futures are `Send`, so it lives in an `Arc` in a tokio server's state. The methods are
//! `async fn`; the file medium does blocking `std::fs` work inside them, ready on the first
//! poll: drive them with any `block_on`, or on tokio from `spawn_blocking`. The in-memory medium
//! is single-threaded.
//!
//! # Example
//!
//! ```
//! // A store host's imports name this one module (the port's vocabulary is re-exported).
//! use agent_interface::runtime::record_store::{
//!     InteractiveSessionStore, LoadPurpose, MemoryMedium, MemoryRecordStore, RecordId,
//!     RecordStoreError, RecordWriter, SessionLoadStatus, Unsealed, WriterId,
//! };
//! let medium = MemoryMedium::new();
//! let a = MemoryRecordStore::new(&medium, Unsealed, WriterId::new("a").unwrap());
//! let b = MemoryRecordStore::new(&medium, Unsealed, WriterId::new("b").unwrap());
//! embassy_futures::block_on(async {
//!     let loaded = a.load("s1", LoadPurpose::Write).await.unwrap();
//!     assert_eq!(loaded.status(), SessionLoadStatus::Missing); // and `a` now writes `s1`
//!     let refused = b.load("s1", LoadPurpose::Write).await;
//!     assert!(matches!(refused, Err(RecordStoreError::HasWriter(_))));
//!     // The store's own members take a `RecordId`, checked once where it is made.
//!     let s1 = RecordId::new("s1").unwrap();
//!     assert_eq!(a.writer_of(&s1).await.unwrap(), RecordWriter::ThisStore);
//!     assert!(RecordId::new("../s1").is_err());
//! });
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/record-store.md`.

mod fingerprint;
mod lease;
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

// The session family's store port and its vocabulary, and the locks a store is generic over: a
// store host's imports name this one module; each item is documented where it is defined.
#[doc(no_inline)]
pub use crate::agent_core::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
#[doc(no_inline)]
pub use crate::session::records::{
    ContentProvenance, InteractiveSessionRecord, InteractiveSessionStore, LoadPurpose, SaveOutcome,
    SavePurpose, SaveRefusal, SessionLoadOutcome, SessionLoadStatus,
};

pub use lease::Lease;
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
