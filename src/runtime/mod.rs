//! Runtime pieces: working implementations of what the contract families only declare.
//!
//! Each piece is its own feature and names only the families it implements. None reads a clock,
//! a socket or an entropy source, and only the file medium of the record store (feature
//! `record-store-fs`, which needs `std`) touches files; no `Send` bound is forced on anyone.

#[cfg(feature = "policy")]
pub mod policy;
#[cfg(feature = "reconcile")]
pub mod reconcile;
#[cfg(feature = "record-codec")]
pub mod record_codec;
#[cfg(feature = "record-store")]
pub mod record_store;
#[cfg(feature = "session-cache")]
pub mod session_cache;
#[cfg(feature = "session-protocol")]
pub mod session_protocol;
#[cfg(feature = "shared-memory")]
pub mod shared_memory;
#[cfg(feature = "transport-runtime")]
pub mod transport;
#[cfg(feature = "turn-queue")]
pub mod turn_queue;
