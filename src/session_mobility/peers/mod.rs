//! Peer messaging between live sessions: the message and its acknowledgement, what admission
//! established about the sender, and the narrow port a session exposes for it.
//!
//! # Guarantees
//!
//! - A peer message carries no authority: what its turn may do is decided by the receiving
//!   session's ordinary permissions.
//! - What the peer presented and where it came from are two axes that never collapse
//!   ([`PeerAdmissionEvidence`]); `same-user-same-host` and `token-only` trust are never
//!   interchangeable ([`PeerTrust`]).
//! - An admission is never a bare boolean: admitted with a trust and an origin, or refused with a
//!   reason ([`PeerAdmission`]).

mod peer;

pub use peer::{
    AdmittedPeerTrust, PeerAckReasonOnState, PeerAdmission, PeerAdmissionError,
    PeerAdmissionEvidence, PeerDelivery, PeerDeliveryState, PeerEnvironmentProof, PeerMessage,
    PeerMessageAck, PeerMessageIngress, PeerMessageListener, PeerOrigin, PeerPresentation,
    PeerTrust, SessionPeerMessagingPort, WorkspaceRelation, is_same_environment_peer,
    is_terminal_peer_delivery,
};
