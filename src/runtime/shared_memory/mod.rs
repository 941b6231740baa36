//! The shared-memory provider seam (feature `shared-memory`): a read-only port through which a
//! host reads memory stores shared across sessions, an in-memory provider built from a fixture,
//! and (feature `testing`) the conformance suite a third-party provider runs against itself.
//!
//! A provider ([`SharedMemoryProvider`]) answers four reads over one snapshot of shared memory:
//! the snapshot itself ([`SharedMemorySnapshot`]: its [`SharedMemoryState`] and every store's
//! [`SharedMemoryStoreInfo`]), one store's info, one entry's value, and every entry under a key
//! prefix ([`SharedMemoryEntry`], in key order). Every read takes the host's cancellation
//! signal ([`AbortSignal`](crate::agent_core::AbortSignal)). `testing` runs a provider through
//! the obligations below; `run_shared_memory_conformance(&mut InMemorySharedMemory::new, &mut
//! StopAtFirst)` is the reference run.
//!
//! # Guarantees
//!
//! - **Read-only.** The seam has no write port; a provider is loaded by its own means (the
//!   in-memory one from a [`SharedMemoryFixture`], which refuses duplicates and empty names).
//! - **Absence is a value.** An unknown store or key is `Ok(None)`; a prefix matching nothing in
//!   a known store is `Ok(Some(vec![]))`. An error ([`SharedMemoryReadError`]) means the read
//!   could not be answered, never "not there".
//! - **Cancellation, never partial data.** A provider checks the signal before it answers and
//!   between the entries (and stores) it collects; a read that sees it set returns
//!   [`SharedMemoryReadError::Cancelled`] and nothing else. A signal set after the last check may
//!   still get the whole answer.
//! - **Exact and ordered.** Values are UTF-8 text kept byte for byte; prefixes match byte-wise
//!   ([`str::starts_with`]); entries come in key order and stores in id order (byte-wise), so two
//!   conforming providers answer identically.
//! - **No `Send` bound** is forced; the port is `async fn` in a trait, single-threaded.
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
//! assert_eq!(block_on(memory.read_entry("team", "deadline", &NeverAborted)), Ok(None));
//! let cancel = Cell::new(true);
//! let cancelled = block_on(memory.read_prefix("team", "", &cancel));
//! assert_eq!(cancelled, Err(SharedMemoryReadError::Cancelled));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/shared-memory.md`.

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
