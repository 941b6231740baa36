//! The session-mobility family (feature `session-mobility`, layer 2; names `session` and what it
//! names): peer messaging between sessions, device-mesh admission, the per-connection authority
//! check, file offers, and moving a session to another machine (handoff).
//!
//! It mirrors the TypeScript session-mobility contracts and is the one family with behaviour
//! (the handoff ownership machine, the offer policy, the source and destination orchestration,
//! the connection authority), yet it does no I/O: the host supplies the carrier, the sealing,
//! the integrity check, the record decoding, the credentials and the persistence through traits.
//!
//! | module | what it holds |
//! |---|---|
//! | [`peers`] | peer messages and acknowledgements, the two admission axes (what the peer presented, where it came from) and their trust classification, the delivery predicates |
//! | [`mesh`] | device-mesh admission: trust, locality and workspace as separate fields; capabilities = certificate ∩ local policy, strictly ascending |
//! | [`authority`] | the approval table, the per-connection authority (once-per-connection questions shared by concurrent callers, per-request questions, the end of a connection), delegated peer turns |
//! | [`files`] | file offers (the summary the operator approves, the whole-file hash check) and the file channel port |
//! | [`handoff`] | the handoff contracts, the ownership machine, the offer policy, the orchestration ports, the source and the destination |
//!
//! Each item has one path, through its module: `session_mobility::handoff::HandoffSource`.
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
//! use agent_interface::session_mobility::authority::{
//!     CapabilityApproval, CapabilityApprovalScope, capability_approval,
//! };
//! use agent_interface::session_mobility::mesh::MeshCapability;
//!
//! assert_eq!(capability_approval(MeshCapability::Message), CapabilityApproval::Never);
//! let drive = capability_approval(MeshCapability::Drive);
//! assert_eq!(drive.scope(), Some(CapabilityApprovalScope::Connection)); // asked once
//! let file = capability_approval(MeshCapability::File);
//! assert_eq!(file.scope(), Some(CapabilityApprovalScope::Request)); // asked every time
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/session-mobility.md`.

pub mod authority;
pub mod files;
pub mod handoff;
pub mod mesh;
pub mod peers;
