//! The shared-memory provider seam (feature `shared-memory`): a read-only port through which a
//! host reads memory stores shared across sessions, an in-memory provider built from a fixture,
//! and (feature `testing`) the conformance suite a third-party provider runs against itself.
//!
//! # The seam
//!
//! A provider ([`SharedMemoryProvider`]) answers four reads over one snapshot of shared memory:
//! the snapshot itself ([`SharedMemorySnapshot`]: its [`SharedMemoryState`] and every store's
//! [`SharedMemoryStoreInfo`]), one store's info, one entry's value, and every entry under a key
//! prefix ([`SharedMemoryEntry`], in key order). Every read takes the host's cancellation
//! signal ([`AbortSignal`](crate::agent_core::AbortSignal)).
//!
//! - **Read-only.** The seam has no write port at all. A provider is loaded by its own means
//!   (for the in-memory one, a [`SharedMemoryFixture`]); the engine only reads.
//! - **Absence is a value.** An unknown store is `Ok(None)`, an unknown key is `Ok(None)`, and a
//!   prefix that matches nothing in a known store is `Ok(Some(vec![]))`. An error
//!   ([`SharedMemoryReadError`]) means the read could not be answered, never "not there".
//! - **Cancellation, never partial data.** A provider checks the signal before it answers and
//!   between the entries (and stores) it collects. A read that sees the signal set returns
//!   [`SharedMemoryReadError::Cancelled`] and discards what it had collected: a read returns
//!   the whole answer or no answer. A read whose signal is set only after the provider checked
//!   it for the last time may still return the whole answer.
//! - **No `Send` bound** is forced; the port is `async fn` in a trait, single-threaded.
//!
//! # Decisions (the TypeScript declarations give the suite's shape but not these types)
//!
//! - **Keys and store ids are non-empty UTF-8 strings; values are UTF-8 text.** Shared memory
//!   holds notes an engine renders into prompts, so a value is a `String`, kept byte for byte:
//!   no trimming, no line-ending or Unicode normalisation (`é` and `e` + U+0301 are different
//!   values and different keys). A value is not a JSON `Value` on purpose: a parsed JSON value
//!   cannot promise the exact bytes back (number forms, key order). A host with binary content
//!   encodes it itself.
//! - **Prefixes are `&str`**, matched with [`str::starts_with`], byte-wise on UTF-8. Because a
//!   `&str` is always whole characters, a prefix that splits a multibyte character cannot be
//!   written; a prefix that shares only a leading byte with a key (`é` = C3 A9 against
//!   `ê` = C3 AA) does not match it. The empty prefix matches every entry of the store, and a
//!   prefix that is itself a key matches that key too.
//! - **Order.** Entries come in key order and stores in id order, both byte-wise (for UTF-8 that
//!   is Unicode code point order), so two conforming providers answer identically.
//! - **The snapshot state** is [`SharedMemoryState`]: the snapshot's `revision` (the provider's
//!   version of its contents, for telling a stale view) and, when the provider knows it, the
//!   host time it was taken (`takenAtMs`; the crate reads no clock).
//! - **Store info** carries the store's `id`, an optional `description` and an optional
//!   `updatedAtMs`. It has no entry count: a count could disagree with the entries, and the
//!   engine counts what a prefix read returns.
//! - **A fixture cannot hold duplicates or empty names**: [`SharedMemoryFixture`] refuses them
//!   with a [`SharedMemoryFixtureError`], so "which of two values is faithful" never arises.
//! - **No compare-and-set case in the suite.** A compare-and-set case covers a write race, and a
//!   seam with no write channel has no such race. That absence is declared, not an omission.
//!
//! # Example
//!
//! ```
//! # use agent_interface::agent_core::NeverAborted;
//! # use agent_interface::runtime::shared_memory::*;
//! # use core::cell::Cell;
//! # use embassy_futures::block_on;
//! let contents = SharedMemoryFixture::new(
//!     SharedMemoryState { revision: 3, taken_at_ms: Some(1_700_000_000_000) },
//!     [SharedMemoryStoreFixture::new(
//!         SharedMemoryStoreInfo::new("team"),
//!         [("style/indent", "4 spaces"), ("style/quotes", "double"), ("owner", "alice")],
//!     )],
//! )?;
//! let memory = InMemorySharedMemory::new(contents);
//! let style = block_on(memory.read_prefix("team", "style/", &NeverAborted))?;
//! let keys: Vec<_> = style.iter().flatten().map(|entry| entry.key.as_str()).collect();
//! assert_eq!(keys, ["style/indent", "style/quotes"]);
//! // Absence is a value; a cancelled read returns no part of its answer.
//! assert_eq!(block_on(memory.read_entry("team", "deadline", &NeverAborted)), Ok(None));
//! assert_eq!(block_on(memory.read_prefix("elsewhere", "", &NeverAborted)), Ok(None));
//! let cancel = Cell::new(true);
//! assert_eq!(
//!     block_on(memory.read_prefix("team", "", &cancel)),
//!     Err(SharedMemoryReadError::Cancelled)
//! );
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! # The conformance suite (feature `testing`)
//!
//! `testing` runs a provider through the five obligations above with contents the suite hands
//! in; see its module docs. `run_shared_memory_conformance(&mut InMemorySharedMemory::new,
//! &mut StopAtFirst)` is the reference run.
//!
//! # Wire form (feature `serde`)
//!
//! camelCase fields, absent optionals skipped: a snapshot is `{ "state": { "revision": 7,
//! "takenAtMs": 1700000000000 }, "stores": [{ "id": "notes", "description": "…" }] }`, an entry
//! `{ "key": "a/b", "value": "…" }`, a fixture `{ "state": …, "stores": [{ "info": …,
//! "entries": [ … ] }] }` (its decoder refuses duplicates and empty names).

mod memory;
mod seam;

#[cfg(feature = "testing")]
pub mod testing;

pub use memory::{
    InMemorySharedMemory, SharedMemoryFixture, SharedMemoryFixtureError, SharedMemoryStoreFixture,
};
pub use seam::{
    SharedMemoryEntry, SharedMemoryProvider, SharedMemoryReadError, SharedMemorySnapshot,
    SharedMemoryState, SharedMemoryStoreInfo,
};
