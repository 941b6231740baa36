//! The TTL session cache (feature `session-cache`): live sessions cached over any session record
//! store, with fork, ownership rows and reconcile on wake; and the bounded-tail wake.
//!
//! [`SessionCache`] sits over the session family's store port
//! ([`InteractiveSessionStore`](crate::session::records::InteractiveSessionStore)), so the memory, file
//! and sealed record stores, or a host's own, all work under it. It is sans-IO: time comes in as
//! `now_ms`, new ids from the host's [`IdSource`], and there is no timer (a host that wants a
//! background sweep calls [`SessionCache::sweep`] on its own clock). [`SessionCachePort`] is the
//! trait a runner depends on and
#![cfg_attr(feature = "testing", doc = "[`testing`]")]
#![cfg_attr(not(feature = "testing"), doc = "`testing`")]
//! (feature `testing`) its conformance suite.
//!
//! # When to call what
//!
//! - [`acquire`](SessionCache::acquire) to get a live session: cached, resumed from the store
//!   (with its interrupted tool calls reconciled and saved back) or created and saved.
//! - [`commit`](SessionCache::commit) after a turn; [`fork`](SessionCache::fork) to copy the
//!   committed history; [`register`](SessionCache::register) to claim ownership.
//! - [`forget`](SessionCache::forget) or `release` when done; [`sweep`](SessionCache::sweep) on
//!   a timer; [`list`](SessionCache::list) for summaries, newest first.
//!
//! # Guarantees
//!
//! - **Idle TTL** (default [`SESSION_DEFAULT_TTL_DAYS`] = 7): a sweep (and every acquire) evicts
//!   sessions idle strictly longer than the TTL; a **pinned** session is never evicted.
//! - **Eviction never guesses**: [`EvictPolicy`] is declared in [`SessionCacheConfig`];
//!   [`SessionCache::forget`] never deletes history.
//! - **One session per id**: concurrent acquires share one session and one store load; the load
//!   claims (purpose `resume`); `corrupt`, `unsupported` and `locked` are typed errors, never a
//!   fresh session over the damage.
//! - **A fork is never weaker than its source** ([`fork_ownership`]) and copies only committed
//!   history. Ownership rows ([`OwnerRow`]) are three-state, first-write-wins, and removed only
//!   after the store's delete succeeded.
//! - **Minted ids are checked**: a repeated id never resumes or overwrites another session.
//! - [`bounded_tail`] is pure, one scan, no allocation.
//!
//! # Threads
//!
//! The cache is generic over embassy-sync's `RawMutex`, like the record and policy stores.
//! [`SessionCache::new`] builds the single-threaded form (`NoopRawMutex`), for wasm, firmware
//! or one executor; `SessionCache::<_, _, CriticalSectionRawMutex>::with_lock` builds one a
//! multi-threaded server shares: `Send + Sync` (over a `Sync` store and a `Send` id source),
//! its futures `Send`, its [`SessionHandle`]s `Send + Sync`. Each decision (cached, loading,
//! or this acquire loads) is one step under the lock, so "one session per id" holds across
//! threads too; no lock is held across an `await`. A record is read and changed through
//! closures on its handle ([`SessionHandle::with`], [`SessionHandle::with_mut`] and their
//! `try_` forms, which never panic). On targets without pointer-sized compare-and-swap
//! (thumbv6m) the handle is an `Rc` and stays on one thread.
//!
//! On tokio, share the cache in an `Arc` and, over the file medium (whose I/O is blocking
//! `std::fs` inside the first poll), drive its calls from `spawn_blocking` with any `block_on`:
//! `tokio::task::spawn_blocking(move || block_on(cache.commit(&id, now_ms)))`. `commit`, like
//! every operation, is a method of [`SessionCachePort`], which must be in scope. Here a plain
//! thread stands in for `spawn_blocking`:
//!
//! ```
//! # #[cfg(feature = "record-store-fs")] {
//! use std::sync::Arc;
//! use agent_interface::agent_core::CriticalSectionRawMutex;
//! use agent_interface::runtime::record_store::{FileMedium, RecordStore, Unsealed, WriterId};
//! use agent_interface::runtime::session_cache::{
//!     AcquireOptions, IdKind, SessionCache, SessionCacheConfig,
//! };
//! use agent_interface::runtime::session_cache::SessionCachePort as _; // acquire, commit, …
//! use embassy_futures::block_on;
//!
//! # let dir = std::env::temp_dir().join(format!("cache-threads-{}", std::process::id()));
//! let medium = FileMedium::open(&dir).unwrap();
//! let store: RecordStore<_, _, CriticalSectionRawMutex> =
//!     RecordStore::with_lock(medium, Unsealed, WriterId::new("server-1").unwrap());
//! let ids = |_kind: IdKind| String::from("s1"); // the host's ids
//! let config = SessionCacheConfig::for_process_local_store("/w");
//! let cache = Arc::new(SessionCache::<_, _, CriticalSectionRawMutex>::with_lock(store, ids, config));
//!
//! let worker = Arc::clone(&cache);
//! let committed = std::thread::spawn(move || {
//!     block_on(async {
//!         let acquired = worker.acquire(None, AcquireOptions::new(), 1_000).await.unwrap();
//!         worker.commit(&acquired.session_id, 2_000).await
//!     })
//! });
//! assert!(committed.join().unwrap().is_ok());
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # }
//! ```
//!
//! # Example
//!
//! ```
//! # #[cfg(feature = "record-store")] { // the store under the cache is the host's; here, in memory
//! # use agent_interface::runtime::record_store::{MemoryMedium, MemoryRecordStore, Unsealed, WriterId};
//! use agent_interface::runtime::session_cache::*;
//!
//! let medium = MemoryMedium::new();
//! let store = MemoryRecordStore::new(&medium, Unsealed, WriterId::new("host").unwrap());
//! let ids = |_kind: IdKind| String::from("s1");
//! let cache = SessionCache::new(store, ids, SessionCacheConfig::for_process_local_store("/w"));
//! embassy_futures::block_on(async {
//!     let first = cache.acquire(None, AcquireOptions::new(), 1_000).await.unwrap();
//!     assert!(matches!(first.how, Acquisition::Created));
//!     let again = cache.acquire(Some("s1"), AcquireOptions::new(), 2_000).await.unwrap();
//!     assert!(matches!(again.how, Acquisition::Cached));
//! });
//! # }
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/session-cache.md`.

mod cache;
mod config;
mod error;
mod ownership;
mod port;
mod tail;

#[cfg(feature = "testing")]
pub mod testing;

pub use cache::{
    AcquireOptions, Acquired, Acquisition, Released, SessionCache, SessionHandle, SweepReport,
};
pub use config::{
    EvictPolicy, IdKind, IdSource, Retention, SESSION_CACHE_RETENTION, SESSION_DEFAULT_TTL_DAYS,
    SESSION_DEFAULT_TTL_MS, SessionCacheConfig, SessionStoreSummary, StoreDurability,
};
// The locks this piece is generic over (embassy-sync's, from `agent_core`): a host's imports
// name this one module.
#[doc(no_inline)]
pub use crate::agent_core::{CriticalSectionRawMutex, NoopRawMutex, RawMutex};
pub use error::SessionCacheError;
pub use ownership::{BlankPrincipal, ForkOwner, OwnerRow, Principal, Registration, fork_ownership};
pub use port::SessionCachePort;
pub use tail::{BoundedTail, TreeEntry, bounded_tail};
