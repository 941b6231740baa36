//! Per-connection authority: what a connected device may do here, decided per connection and
//! never beyond what this session's operator allows, and the delegated peer turns it admits.
//!
//! # Guarantees
//!
//! - Some capabilities need the operator's yes ([`capability_approval`]): asked once a
//!   connection (`observe`, `drive`, the answer shared by concurrent callers) or every request
//!   (`delegate`, `file`, `handoff`); without an operator the answer is `no-approver`.
//! - A connection's authority ends when the carrier closes, replaces or revokes it
//!   ([`ConnectionAuthority::end`]).
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
//! ```

mod connection;

pub use connection::{
    ApprovalRequestError, AuthorizeOptions, CapabilityApproval, CapabilityApprovalRequest,
    CapabilityApprovalScope, CapabilityDecision, CapabilityRefusal, ConnectionAuthority,
    ConnectionEnd, ConnectionPeer, DelegatedTurn, DelegatedTurnError, DelegationDecision,
    DelegationRequest, NoOperator, OperatorApprover, capability_approval,
};
