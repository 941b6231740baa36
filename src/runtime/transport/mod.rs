//! The transport runtime (feature `transport-runtime`): working implementations of what the
//! [`transport`](crate::transport) family declares.
//!
//! A host embeds a [`LifecycleGuard`] in each adapter, registers its bound adapters in a
//! [`TransportRegistry`], and routes payload frames through the channel pieces.
//!
//! | piece | what it does |
//! |---|---|
//! | [`LifecycleGuard`] | the attach/start/stop state machine every adapter embeds |
//! | [`TransportRegistry`] | bound adapters, start-all with rollback, the two waits, stop-all |
//! | [`InMemoryService`], [`InMemoryRunner`] | the reference adapters that pass `transport::testing` |
//! | [`PayloadChannelRegistry`] | payload channels: declared names and events, one sequence per channel, every unroutable frame a typed refusal, every missing frame a typed gap |
//! | [`ChannelReassembler`] | restores frame order whatever the delivery order, within a const window |
//! | [`encode_channel_frame_into`], [`decode_header`], [`decode_channel_frame`] | the `RBF` byte codec of channel frames, the header read apart from the body |
//! | [`resolve_admission`], [`mint_transport_token`], [`resolve_stated_admission`] | admission resolution, tokens minted from the host's RNG, or no RNG when the token is given |
//! | [`admit_upgrade`], [`query_token`], [`subprotocol_token`] | the WebSocket upgrade decision (Host, Origin, token) before the upgrade completes |
//! | [`credential_matches`], [`bearer_credential`] | constant-time credential checks, bearer headers |
//! | [`SignedAccessTokenVerifier`], [`AccessTokenRules`] | access-token verdicts over host-verified claims |
//! | [`ExternalEventGate`] | external events admitted against the one principal of their grant |
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

mod admission;
mod channels;
mod lifecycle;
mod memory;
mod registry;

pub use admission::{
    AccessTokenAudience, AccessTokenClaims, AccessTokenRules, AccessTokenSignatureRefusal,
    AccessTokenSignatures, AdmissionResolutionError, DEFAULT_SPENT_TOKEN_CAPACITY,
    ExternalEventGate, GrantedExternalEvent, MAX_ACCESS_TOKEN_BYTES, NoEntropySource,
    SignedAccessTokenVerifier, UpgradeAccepted, UpgradeAllowList, UpgradeRefusal, UpgradeRequest,
    admission_admits, admit_upgrade, bearer_credential, credential_matches, mint_transport_token,
    query_token, rand_core, resolve_admission, resolve_stated_admission, subprotocol_token,
};
pub use channels::{
    Bytes, CHANNEL_FRAME_MAGIC, CHANNEL_FRAME_VERSION, ChannelClosed, ChannelDelivery,
    ChannelFrameError, ChannelFrameHeader, ChannelGap, ChannelReassembler, ChannelRefusal,
    ChannelRegisterError, ChannelResumePoint, ChannelSendError, DeliveredBody, DeliveredFrame,
    GapPolicy, NotDelivered, PayloadChannel, PayloadChannelRegistry, Reassembled,
    ReassemblyRefused, RefusedDelivery, SequenceGap, SequenceRefusal, UndeclaredFrame, WindowFull,
    decode_channel_frame, decode_event_body, decode_header, encode_channel_frame,
    encode_channel_frame_into, is_channel_frame,
};
pub use lifecycle::{
    BoundTransport, LifecycleGuard, LifecyclePhase, StartPermit, StartSettled, StopTransition,
};
pub use memory::{InMemoryRunner, InMemoryService};
pub use registry::{
    InMemoryTransportSettings, NoSavedSettings, TransportRegistration, TransportRegistry,
};
