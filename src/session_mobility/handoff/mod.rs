//! Handoff: moving authority over a session to another machine (catalog §5.5-5.9; part of the
//! `session-mobility` family).
//!
//! A move is only ever **pushed** by the machine that holds the session, and authority moves
//! once: the source stays authoritative until it holds the destination's acknowledgement that
//! the session is **durably persisted** there. Every other ending leaves the source in charge.
//! A host drives a [`HandoffSource`] on the sending machine and a [`HandoffDestination`] on the
//! receiving one; both sequence the pure ownership machine ([`HandoffTransaction`]).
//!
//! | file | what it holds | what it guarantees |
//! |---|---|---|
//! | `contracts` | phases, dispositions, the inventory, manifest, payload, acknowledgement, refusals, outcome | an acknowledgement can only assert persistence (`persisted` is the literal `true`); provider credentials cannot be inventoried as anything but never-transferred, and no type has a member for one |
//! | `ownership` | [`HandoffTransaction`] and the transition table | refused moves change nothing; `committed` only through a commit with a matching acknowledgement, kept to answer duplicates |
//! | `offer` | readiness and the inventory | an offer is refused while a model or tool call is in flight; the inventory always lists conversation, session metadata, provider credentials and the working directory |
//! | `composition` | the host's effects: sealing, chunking, verification, reassembly, record decoding | the machines sequence and decide; they never hash, chunk or decode on their own |
//! | `source` | [`HandoffSource`] and its carrier | `transferring` before any frame; a refused acknowledgement changes nothing; the read-only switch fires once |
//! | `reference` | [`split_into_chunks`], [`OrderedChunkAssembler`], [`HandoffIntegrity::check`]: reference chunking, reassembly and integrity judging a host may plug in | the machines never call them on their own; no character is split, lost or reordered |
//! | `destination` | [`HandoffDestination`], the credential, persistence and clock ports | integrity before parsing; credential before persisting; an acknowledgement only after a durable write; a committed transfer cannot be discarded |
//!
//! Everything is sans-IO: the host supplies the carrier, the sealing, the integrity check, the
//! record decoding, the credential check, the persistence and the clock through traits, and a
//! failing host effect is returned as an error that moves no authority. Where the crate departs
//! from the reference implementation on purpose (interop departures 8-12) is recorded with the
//! decisions.
//!
//! # Example
//!
//! ```
//! use agent_interface::session_mobility::handoff::*;
//!
//! let integrity = HandoffIntegrity::new("…", 0);
//! let manifest = HandoffManifest::new("h1", "s1", "laptop", "desktop", Vec::new(), integrity, 0);
//! let mut tx = begin_handoff(&manifest);
//! for next in [HandoffAdvance::Transferring, HandoffAdvance::Staged] {
//!     assert!(advance_handoff(&mut tx, next, HandoffTransitionDetail::none()).is_accepted());
//! }
//! assert!(source_still_owns(&tx)); // staged is not committed
//! let ack = HandoffCommitAck::new("h1", "desktop", 1);
//! assert_eq!(commit_handoff(&mut tx, &ack), HandoffCommitResult::Committed);
//! assert!(!source_still_owns(&tx));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

mod composition;
mod contracts;
mod destination;
mod offer;
mod ownership;
mod reference;
mod source;

pub use composition::{
    AssembleOutcome, HandoffAssembler, HandoffChunkFrame, HandoffComposition,
    HandoffDestinationComposition, HandoffManifestRequest, HandoffRecordDecodeOutcome,
    HandoffSourceComposition, IntegrityFailure, IntegrityOutcome, InvalidChunkFrame, SealedRecord,
};
pub use contracts::{
    DurablyPersisted, HandoffCommitAck, HandoffDisposition, HandoffIntegrity, HandoffManifest,
    HandoffOutcome, HandoffPayload, HandoffPhase, HandoffRefusal, HandoffStateItem,
    HandoffStateKind, InventoryDispositionMismatch, is_handoff_committed,
    is_handoff_transition_allowed, source_retains_authority,
};
pub use destination::{
    COMMITTED_CANNOT_DISCARD_DETAIL, DestinationCommitError, DestinationReport, DestinationState,
    HandoffCredentialResolver, HandoffDestination, HandoffDestinationOptions,
    HandoffRecordPersister, MAX_REPORTED_DECODE_ISSUES, NO_CREDENTIAL_DETAIL, NOT_JSON_DETAIL,
    NOT_WRITTEN_DETAIL, NoManifestReceived,
};
pub use offer::{
    HandoffOfferResult, HandoffReadiness, HandoffRuntimeState, IN_FLIGHT_WORK_DETAIL,
    PROVIDER_CREDENTIALS_NOTE, PrepareHandoffOfferInput, SANDBOX_SNAPSHOT_NOTE, SourceRuntimeState,
    UNCOMMITTED_CHANGES_NOTE, assess_handoff_readiness, handoff_inventory, prepare_handoff_offer,
};
pub use ownership::{
    HandoffAdvance, HandoffCommitResult, HandoffTransaction, HandoffTransition,
    HandoffTransitionDetail, HandoffTransitionRefusal, InvalidHandoffTransaction, advance_handoff,
    begin_handoff, commit_handoff, handoff_outcome, source_still_owns,
};
pub use reference::{
    OrderedChunkAssembler, TOTAL_CHANGED_REJECTION, WRONG_HANDOFF_REJECTION, split_into_chunks,
};
pub use source::{
    HandoffCarrier, HandoffSource, HandoffSourceOfferError, HandoffSourceOptions,
    HandoffTransferError, NoHandoffOpen, SourceAbandonReason, SourceOfferOutcome,
};
