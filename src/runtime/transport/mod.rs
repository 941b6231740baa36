//! The transport runtime (feature `transport-runtime`): working implementations of what the
//! [`transport`](crate::transport) family declares.
//!
//! | piece | what it does |
//! |---|---|
//! | [`LifecycleGuard`] | the attach/start/stop state machine every adapter embeds |
//! | [`TransportRegistry`] | bound adapters, start-all with rollback, the two waits, stop-all |
//! | [`InMemoryService`], [`InMemoryRunner`] | the reference adapters that pass `transport::testing` |
//! | [`PayloadChannelRegistry`] | payload channels: declared names and events, one sequence per channel, every unroutable frame a typed refusal |
//! | [`ChannelReassembler`] | restores frame order whatever the delivery order, within a const window |
//! | [`encode_channel_frame_into`], [`decode_header`], [`decode_channel_frame`] | the `RBF` byte codec of channel frames, the header read apart from the body |
//! | [`resolve_admission`], [`mint_transport_token`] | admission resolution, tokens minted from the host's RNG |
//! | [`credential_matches`], [`bearer_credential`] | constant-time credential checks, bearer headers |
//! | [`SignedAccessTokenVerifier`], [`AccessTokenRules`] | access-token verdicts over host-verified claims |
//! | [`ExternalEventGate`] | external events admitted against the one principal of their grant |
//!
//! Nothing here reads a clock, a socket or an entropy source: time is passed in, entropy comes
//! from a host-supplied `rand_core` RNG, and carriers are the host's.

mod admission;
mod channels;
mod lifecycle;
mod memory;
mod registry;

pub use admission::*;
pub use channels::*;
pub use lifecycle::*;
pub use memory::*;
pub use registry::*;
