//! The session-mobility family (layer 2; names `session` and what it names): peer messaging
//! between sessions, device-mesh admission, the per-connection authority check, file offers,
//! and moving a session to another machine (handoff).
//!
//! It is the one family with behaviour (the handoff ownership machine, the offer policy, the
//! source and destination orchestration, the connection authority) and still does no I/O: the
//! host supplies the carrier, the sealing, the integrity check, the record decoding, the
//! credentials and the persistence through traits.
//!
//! | file | what it holds |
//! |---|---|
//! | `peer` | peer messages and acknowledgements, the two admission axes (what the peer presented, where it came from) and their trust classification, the delivery predicates |
//! | `mesh` | device-mesh admission: trust, locality and workspace as separate fields; capabilities = certificate ∩ local policy, strictly ascending |
//! | `authority` | the approval table, the per-connection authority (once-per-connection questions shared by concurrent callers, per-request questions, the end of a connection), delegated peer turns |
//! | `file_transfer` | file offers (the summary the operator approves, the whole-file hash check) and the file channel port |
//! | `handoff` | the handoff contracts, the ownership machine, the offer policy, the orchestration ports, the source and the destination |
//!
//! Locality is the base vocabulary's [`PeerReach`](crate::agent_core::PeerReach). Where the crate
//! departs from the TypeScript reference on purpose (interop README): 6, an abort declines only
//! the call it interrupted and neither an abort nor `no-approver` is kept for the connection;
//! 7, a delegated turn carries no `reach`; 8 and 9, absence is `None` and counts and sizes are
//! unsigned; 10, a refused acknowledgement leaves the source exactly as it was; 11, a discarded
//! destination stays discarded; 12 is kept: a failing host effect propagates and the destination
//! does not pretend it discarded.
//!
//! Held by types beyond the reference: `committed` is reachable only through a commit with a
//! matching acknowledgement (a move can never name it), and a committed transaction always
//! holds that acknowledgement; an acknowledgement's `persisted` can only be `true` (decoding
//! refuses anything else); the inventory is a closed set of kinds, each with its fixed
//! disposition (provider credentials can only be `never-transferred`); and a source that has
//! handed a session off refuses a new offer. Nothing that crosses has a field for a provider
//! credential.

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
