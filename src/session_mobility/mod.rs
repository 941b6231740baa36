//! The session-mobility family (feature `session-mobility`, layer 2; names `session` and what it
//! names): peer messaging between sessions, device-mesh admission, the per-connection authority
//! check, file offers, and moving a session to another machine (handoff).
//!
//! It mirrors the TypeScript session-mobility contracts and is the one family with behaviour
//! (the handoff ownership machine, the offer policy, the source and destination orchestration,
//! the connection authority), yet it does no I/O: the host supplies the carrier, the sealing,
//! the integrity check, the record decoding, the credentials and the persistence through traits.
//!
//! | file | what it holds |
//! |---|---|
//! | `peer` | peer messages and acknowledgements, the two admission axes (what the peer presented, where it came from) and their trust classification, the delivery predicates |
//! | `mesh` | device-mesh admission: trust, locality and workspace as separate fields; capabilities = certificate ∩ local policy, strictly ascending |
//! | `authority` | the approval table, the per-connection authority (once-per-connection questions shared by concurrent callers, per-request questions, the end of a connection), delegated peer turns |
//! | `file_transfer` | file offers (the summary the operator approves, the whole-file hash check) and the file channel port |
//! | `handoff` | the handoff contracts, the ownership machine, the offer policy, the orchestration ports, the source and the destination |
//!
//! # Guarantees
//!
//! - **Authority moves once**: `committed` is reachable only through a commit with a matching
//!   acknowledgement (a move can never name it), and a committed transaction always holds it; an
//!   acknowledgement's `persisted` can only be `true`; a source that has handed a session off
//!   refuses a new offer.
//! - **Credentials never cross**: the inventory is a closed set of kinds with fixed
//!   dispositions (provider credentials only `never-transferred`), and nothing that crosses has
//!   a field for a provider credential.
//! - **Trust and locality stay apart**: locality is the base vocabulary's
//!   [`PeerReach`](crate::agent_core::PeerReach), never folded into trust.
//!
//! # Example
//!
//! ```
//! use agent_interface::session_mobility::{
//!     CapabilityApproval, CapabilityApprovalScope, MeshCapability, capability_approval,
//! };
//!
//! assert_eq!(capability_approval(MeshCapability::Message), CapabilityApproval::Never);
//! let drive = capability_approval(MeshCapability::Drive);
//! assert_eq!(drive.scope(), Some(CapabilityApprovalScope::Connection)); // asked once
//! let file = capability_approval(MeshCapability::File);
//! assert_eq!(file.scope(), Some(CapabilityApprovalScope::Request)); // asked every time
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

mod authority;
mod file_transfer;
mod handoff;
mod mesh;
mod peer;

pub use authority::{
    ApprovalRequestError, AuthorizeOptions, CapabilityApproval, CapabilityApprovalRequest,
    CapabilityApprovalScope, CapabilityDecision, CapabilityRefusal, ConnectionAuthority,
    ConnectionEnd, ConnectionPeer, DelegatedTurn, DelegatedTurnError, DelegationDecision,
    DelegationRequest, NoOperator, OperatorApprover, capability_approval,
};
pub use file_transfer::{
    FileCloseHandler, FileFrameChannel, FileFrameHandler, FileOffer, FileVerificationError,
};
pub use handoff::{
    AssembleOutcome, COMMITTED_CANNOT_DISCARD_DETAIL, DestinationCommitError, DestinationReport,
    DestinationState, DurablyPersisted, HandoffAdvance, HandoffAssembler, HandoffCarrier,
    HandoffChunkFrame, HandoffClock, HandoffCommitAck, HandoffCommitResult, HandoffComposition,
    HandoffCredentialResolver, HandoffDestination, HandoffDestinationComposition,
    HandoffDestinationOptions, HandoffDisposition, HandoffIntegrity, HandoffManifest,
    HandoffManifestRequest, HandoffOfferResult, HandoffOutcome, HandoffPayload, HandoffPhase,
    HandoffReadiness, HandoffRecordDecodeOutcome, HandoffRecordPersister, HandoffRefusal,
    HandoffRuntimeState, HandoffSource, HandoffSourceComposition, HandoffSourceOfferError,
    HandoffSourceOptions, HandoffStateItem, HandoffStateKind, HandoffTransaction,
    HandoffTransferError, HandoffTransition, HandoffTransitionDetail, HandoffTransitionRefusal,
    IN_FLIGHT_WORK_DETAIL, IntegrityFailure, IntegrityOutcome, InvalidChunkFrame,
    InvalidHandoffTransaction, InventoryDispositionMismatch, MAX_REPORTED_DECODE_ISSUES,
    NO_CREDENTIAL_DETAIL, NOT_JSON_DETAIL, NOT_WRITTEN_DETAIL, NoHandoffOpen, NoManifestReceived,
    PROVIDER_CREDENTIALS_NOTE, PrepareHandoffOfferInput, SANDBOX_SNAPSHOT_NOTE, SealedRecord,
    SourceAbandonReason, SourceOfferOutcome, SourceRuntimeState, UNCOMMITTED_CHANGES_NOTE,
    advance_handoff, assess_handoff_readiness, begin_handoff, commit_handoff, handoff_inventory,
    handoff_outcome, is_handoff_committed, is_handoff_transition_allowed, prepare_handoff_offer,
    source_retains_authority, source_still_owns,
};
pub use mesh::{
    MeshAdmission, MeshAdmissionError, MeshCapabilities, MeshCapabilitiesNotAscending,
    MeshCapability, MeshTrust,
};
pub use peer::{
    AdmittedPeerTrust, PeerAckReasonOnState, PeerAdmission, PeerAdmissionError,
    PeerAdmissionEvidence, PeerDelivery, PeerDeliveryState, PeerEnvironmentProof, PeerMessage,
    PeerMessageAck, PeerMessageIngress, PeerMessageListener, PeerOrigin, PeerPresentation,
    PeerTrust, SessionPeerMessagingPort, WorkspaceRelation, is_same_environment_peer,
    is_terminal_peer_delivery,
};
