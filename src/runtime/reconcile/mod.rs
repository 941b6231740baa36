//! Reconciling interrupted tool calls (`reconcile`): on wake, close the tool calls a crash left
//! without results, never re-running a tool.
//!
//! A session can stop (crash, kill, timeout, lost instance) after an assistant message with tool
//! calls was persisted and before the calls' results were. The transcript then holds
//! **call-orphans**: chat APIs refuse it, and each tool may or may not have run. Before the next
//! turn, the host hands the branch to [`reconcile_interrupted_session`], appends the synthetic
//! error results it returns, and announces them from the [`ReconcileReport`].
//!
//! The piece is pure and sans-IO: it reads messages of the base vocabulary
//! ([`UniversalMessage`](crate::agent_core::UniversalMessage)), takes `now` in milliseconds and
//! a minter for the new entries' ids from the caller, and returns what to append. It never
//! mutates, reorders or drops what is there.
//!
//! # The rules
//!
//! - **Both directions.** [`find_orphan_tool_calls`] reports call-orphans (a call with no result)
//!   and result-orphans (a result with no call, [`ResultOrphan`]), in first-appearance order.
//!   Only call-orphans are closed: appending a result cannot repair a result-orphan, so it is
//!   handed back for the caller to deal with.
//! - **Suspended batches.** Calls of a deliberately suspended batch (a durable checkpoint waiting
//!   to resume, [`ReconcileInputs::suspended_batch`]) are not orphans and are never closed:
//!   closing them would destroy the batch.
//! - **Started or not.** When the caller observed which calls started
//!   ([`ReconcileInputs::started_tool_call_ids`]), an orphan that never started is closed as
//!   [`interrupted_never_started`](ReconciledErrorKind::InterruptedNeverStarted) ("safe to
//!   re-issue"); any other orphan as
//!   [`interrupted_outcome_unknown`](ReconciledErrorKind::InterruptedOutcomeUnknown).
//! - **Tuned by effect.** The text follows the tool's [`ToolEffect`]: `read` (no risk),
//!   `idempotent` (safe to repeat, may have partly landed), `write` (verify before repeating).
//!   A tool the caller does not describe counts as `write`.
//! - **Machine-readable.** Each synthetic result carries its kind in its metadata
//!   (`details.errorKind`, read with [`reconciled_error_kind`]), and the report hands back each
//!   closed orphan with the entry id of its result, the text and the kind.
//! - **Idempotent.** After appending the results, reconciling again finds nothing to close.
//!
//! # Guarantees
//!
//! - **No tool runs.** The piece has no way to run one; it only writes results that say the
//!   call was interrupted, never a success.
//! - **Nothing is dropped, changed or reordered.** The transcript is borrowed; the results go
//!   after the last message, one per call-orphan, in the order of the calls.
//! - **Typed refusals, all or nothing.** An ambiguous transcript (two calls with one id, two
//!   results for one call, a result before its call) is refused with a [`TranscriptError`];
//!   a bad minted entry id or a `now` past year 9999 with a [`ReconcileError`]. On an error
//!   nothing is proposed. Nothing panics on input.
//! - **Cost.** One pass over the messages with a hash index of the call ids: linear in the
//!   number of calls and results. The hash is not keyed (the crate reads no entropy), so ids
//!   crafted to collide are met by turning the index into an ordered map at the first long
//!   probe: the worst case is O(n log n). A second pass (checking the minted ids) runs only when
//!   there is something to close. `benches/reconcile_orphans.rs` measures 1k, 10k and 100k
//!   messages.
//!
//! # Decisions where the TypeScript contract is silent
//!
//! - The transcript is a sequence of agent-core messages; a message's entry id is its `id`.
//!   The minted id of each appended result is both its entry id and its message `id`.
//! - A tool message has no `isError` or `details` field in the base vocabulary, so a synthetic
//!   result carries both in its metadata: `{"isError": true, "details": {"errorKind": "…"}}`.
//!   Its `state` is `complete` (the result itself is whole; the call was interrupted) and its
//!   `name` is the call's tool.
//! - The timestamp of the results is `now_ms` written as `YYYY-MM-DDTHH:MM:SS.sssZ`.
//! - A result-orphan's tool name is optional (a tool message's `name` is), so the orphan is an
//!   enum: [`OrphanToolCall::Call`] always names its tool, [`OrphanToolCall::Result`] may not.
//! - A result that comes before its call is refused, as are duplicates: each would make a
//!   second reconciliation disagree with the first.
//! - A [`RecoveredOrphan`] is always a call-orphan, so its wire form has no `kind` and refuses
//!   one.
//! - The ids of the new entries come from a caller's minter (the crate mints nothing); an empty
//!   id, or one a message or another new result already has, is refused. The minter and `now`
//!   are used only when there is something to close.
//! - No started set (`None`) and an empty set differ: the first says "not known", the second
//!   "nothing started".
//! - The suspended batch exempts calls only: a stray result whose id is in it is still a
//!   result-orphan.
//! - [`ReconcileReport`] stays the contract's `{"recovered"}`; result-orphans come back beside
//!   it ([`Reconciliation::result_orphans`]), not inside it.
//!
//! # Example
//!
//! ```
//! use std::collections::BTreeMap;
//!
//! use agent_interface::agent_core::{
//!     AssistantMessage, BaseMessage, MessageState, ToolCall, ToolCallFunction,
//!     UniversalMessage,
//! };
//! use agent_interface::runtime::reconcile::{
//!     ReconcileInputs, ReconciledErrorKind, ToolEffect, reconcile_interrupted_session,
//!     reconciled_error_kind,
//! };
//!
//! // The process died after persisting this assistant message, before the result of its call.
//! let call = ToolCall {
//!     id: "call_1".into(),
//!     function: ToolCallFunction { name: "write_file".into(), arguments: "{}".into() },
//! };
//! let mut transcript = vec![UniversalMessage::Assistant(AssistantMessage {
//!     base: BaseMessage {
//!         id: "entry-1".into(),
//!         timestamp: "2026-05-01T12:00:00.000Z".into(),
//!         state: MessageState::Complete,
//!         metadata: None,
//!     },
//!     content: None,
//!     parts: None,
//!     tool_calls: Some(vec![call]),
//! })];
//!
//! // On wake: the tools' effects are known, which calls had started is not.
//! let effects = BTreeMap::from([("write_file", ToolEffect::Write)]);
//! let inputs = ReconcileInputs::new().with_tool_effects(&effects);
//! let mut next = 1;
//! let reconciliation = reconcile_interrupted_session(&transcript, &inputs, 1_777_636_800_000, |_| {
//!     next += 1;
//!     format!("entry-{next}")
//! })?;
//!
//! let recovered = &reconciliation.report().recovered[0];
//! assert_eq!((recovered.entry_id.as_str(), recovered.tool_call_id.as_str()), ("entry-2", "call_1"));
//! assert_eq!(recovered.error_kind, ReconciledErrorKind::InterruptedOutcomeUnknown);
//! let result = &reconciliation.append()[0];
//! assert_eq!(reconciled_error_kind(result), Some(recovered.error_kind));
//! assert_eq!(result.content, recovered.text);
//!
//! // Append, and a second reconciliation has nothing to do.
//! let (append, _, _) = reconciliation.into_parts();
//! transcript.extend(append.into_iter().map(UniversalMessage::Tool));
//! let again = reconcile_interrupted_session(&transcript, &inputs, 1_777_636_800_000, |_| {
//!     unreachable!("nothing to close")
//! })?;
//! assert!(again.is_noop() && again.report().is_empty());
//! # Ok::<(), agent_interface::runtime::reconcile::ReconcileError>(())
//! ```

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
