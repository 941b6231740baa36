//! Reconciling interrupted tool calls (feature `reconcile`): on wake, close the tool calls a
//! crash left without results, never re-running a tool.
//!
//! A session that stops after persisting an assistant message with tool calls, but before their
//! results, leaves **call-orphans**: chat APIs refuse the transcript and each tool may or may
//! not have run. Before the next turn the host hands the branch (agent-core
//! [`UniversalMessage`](crate::agent_core::UniversalMessage)s) to
//! [`reconcile_interrupted_session`], appends the synthetic error results it returns and
//! announces them from the [`ReconcileReport`]. The piece is pure and sans-IO: `now` (ms) and a
//! minter for the new entry ids come from the caller.
//!
//! # Guarantees
//!
//! - **No tool runs**, and no result claims success: each says the call was interrupted,
//!   [`interrupted_never_started`](ReconciledErrorKind::InterruptedNeverStarted) when the caller
//!   observed it never started ([`ReconcileInputs::with_started_tool_call_ids`]), else
//!   [`interrupted_outcome_unknown`](ReconciledErrorKind::InterruptedOutcomeUnknown); the text
//!   follows the tool's [`ToolEffect`] (undescribed tools count as `write`).
//! - **Nothing is dropped, changed or reordered**: one result per call-orphan, after the last
//!   message, in call order. Result-orphans ([`ResultOrphan`], found by
//!   [`find_orphan_tool_calls`]) are handed back, not repaired; calls of a suspended batch
//!   ([`ReconcileInputs::with_suspended_batch`]) are never closed.
//! - **Machine-readable.** Each result's kind is in its metadata ([`reconciled_error_kind`]);
//!   the report names each closed call, its result's entry id, text and kind.
//! - **Idempotent**: once the results are appended, reconciling again closes nothing.
//! - **All or nothing, no panics.** An ambiguous transcript is a [`TranscriptError`], a bad
//!   minted id or a `now` past year 9999 a [`ReconcileError`]; on an error nothing is proposed.
//! - **Linear cost** (O(n log n) worst case against crafted hash collisions;
//!   `hosted/benches/reconcile_orphans.rs`).
//!
//! # Example
//!
//! ```
//! # use agent_interface::agent_core::*;
//! use agent_interface::runtime::reconcile::*;
//!
//! let call = ToolCall::new("call_1", ToolCallFunction::new("write_file", "{}"));
//! let assistant = AssistantMessage::new("entry-1", "2026-05-01T12:00:00.000Z", None)
//!     .with_tool_calls(vec![call]);
//! let transcript = vec![UniversalMessage::from(assistant)];
//!
//! let inputs = ReconcileInputs::new();
//! let done = reconcile_interrupted_session(&transcript, &inputs, 0, |_| "entry-2".into())?;
//! let recovered = &done.report().recovered[0];
//! assert_eq!(recovered.tool_call_id, "call_1");
//! assert_eq!(recovered.error_kind, ReconciledErrorKind::InterruptedOutcomeUnknown);
//! # Ok::<(), ReconcileError>(())
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/reconcile.md`.

mod close;
mod effect;
mod index;
mod orphan;
mod report;

pub use close::{
    ReconcileError, ReconcileInputs, Reconciliation, interrupted_text,
    reconcile_interrupted_session, reconciled_error_kind,
};
pub use effect::{ToolCallIds, ToolEffect, ToolEffects};
pub use orphan::{
    CallOrphan, OrphanToolCall, ResultOrphan, TranscriptError, find_orphan_tool_calls,
};
pub use report::{ReconcileReport, ReconciledErrorKind, RecoveredOrphan};
