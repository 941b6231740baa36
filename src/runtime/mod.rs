//! Runtime pieces: working implementations of what the contract families only declare.
//!
//! Each piece is its own feature and names only the families it implements. None reads a clock,
//! a socket, a file or an entropy source; synchronisation is generic over embassy-sync's
//! `RawMutex`, and no `Send` bound is forced on anyone.

#[cfg(feature = "policy")]
pub mod policy;
#[cfg(feature = "reconcile")]
pub mod reconcile;
#[cfg(feature = "transport-runtime")]
pub mod transport;
#[cfg(feature = "turn-queue")]
pub mod turn_queue;
