//! The transport runtime (feature `transport-runtime`): working implementations of what the
//! [`transport`](crate::transport) family declares.
//!
//! A host embeds a [`LifecycleGuard`] in each adapter, registers its bound adapters in a
//! [`TransportRegistry`], routes payload frames through [`channels`] and decides who may connect
//! with [`admission`]. The root holds the lifecycle, the registry and the in-memory adapters; the
//! two larger groups are named submodules:
//!
//! | piece | what it does |
//! |---|---|
//! | [`LifecycleGuard`] | the attach/start/stop state machine every adapter embeds |
//! | [`TransportRegistry`] | bound adapters, start-all with rollback, the two waits, stop-all |
//! | [`InMemoryService`], [`InMemoryRunner`] | the reference adapters that pass `transport::testing` |
//! | [`channels`] | payload channels: the `RBF` frame codec, the [`ChannelReassembler`](channels::ChannelReassembler) that restores frame order, and the [`PayloadChannelRegistry`](channels::PayloadChannelRegistry) (declared names and events, one sequence per channel, typed refusals and gaps) |
//! | [`admission`] | [`resolve_admission`](admission::resolve_admission) and token minting, the WebSocket upgrade decision ([`admit_upgrade`](admission::admit_upgrade)), constant-time credential checks, access-token verdicts ([`SignedAccessTokenVerifier`](admission::SignedAccessTokenVerifier)), external events against their grant ([`ExternalEventGate`](admission::ExternalEventGate)) |
//!
//! # Guarantees
//!
//! - **Sans-IO**: nothing here reads a clock, a socket or an entropy source; time is passed in,
//!   entropy comes from a host-supplied `rand_core` RNG, and carriers are the host's.
//! - **Lifecycle misuse is refused, never a silent no-op**: a start before an attach is
//!   `not-attached`, a start or attach while starting or active `already-started`; a stop is
//!   idempotent and detaches.
//!
//! # Example
//!
//! ```
//! use agent_interface::runtime::transport::{LifecycleGuard, LifecyclePhase, StartSettled};
//!
//! let guard = LifecycleGuard::new("web");
//! assert!(guard.begin_start().is_err()); // not attached yet
//! guard.attach("session-1").unwrap();
//! let (permit, session) = guard.begin_start().unwrap();
//! assert_eq!(session, "session-1");
//! assert_eq!(permit.started(), StartSettled::Active);
//! assert_eq!(guard.phase(), LifecyclePhase::Active);
//! let _ = guard.stop();
//! assert_eq!(guard.phase(), LifecyclePhase::Detached);
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/transport-runtime.md`.

pub mod admission;
pub mod channels;
mod lifecycle;
mod memory;
mod registry;

pub use lifecycle::{
    BoundTransport, LifecycleGuard, LifecyclePhase, StartPermit, StartSettled, StopTransition,
};
pub use memory::{InMemoryRunner, InMemoryService};
pub use registry::{
    InMemoryTransportSettings, NoSavedSettings, TransportRegistration, TransportRegistry,
};
