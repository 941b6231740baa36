//! What reconciling hands back: each closed orphan with its entry id, text and kind
//! ([`ReconcileReport`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::orphan::CallOrphan;

string_enum! {
    /// The machine-readable state a reconcile-appended result closed its call in
    /// (`ReconciledErrorKind`): `details.errorKind` in the result's metadata and
    /// [`RecoveredOrphan::error_kind`] in the report, so nobody parses the text. Two-valued.
    pub enum ReconciledErrorKind {
        /// The caller observed which calls started, and this one was not among them: it never
        /// ran, and issuing it again is safe.
        InterruptedNeverStarted = "interrupted_never_started",
        /// The call may or may not have run (the caller could not tell, or saw it start).
        InterruptedOutcomeUnknown = "interrupted_outcome_unknown",
    }
}

/// One call-orphan closed by reconciling (`RecoveredOrphan`), with everything a caller needs to
/// announce the appended result (a stream frame, a committed-message event) without reading the
/// transcript again.
///
/// On the wire `{"toolCallId", "toolName", "entryId", "text", "errorKind"}`; unknown fields,
/// `kind` included (a recovered orphan is always a call-orphan), fail to decode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct RecoveredOrphan {
    /// The id of the interrupted call, which the appended result answers.
    pub tool_call_id: String,
    /// The tool the call named.
    pub tool_name: String,
    /// The entry id of the appended result: the id the caller minted for it, which is also the
    /// result message's [`id`](crate::agent_core::BaseMessage::id).
    pub entry_id: String,
    /// The model-facing text of the appended result, exactly as written into its `content`.
    pub text: String,
    /// Which of the two states the call was closed in.
    pub error_kind: ReconciledErrorKind,
}

impl RecoveredOrphan {
    /// The call-orphan this closed.
    #[must_use]
    pub fn orphan(&self) -> CallOrphan {
        CallOrphan {
            tool_call_id: self.tool_call_id.clone(),
            tool_name: self.tool_name.clone(),
        }
    }
}

/// The outcome of reconciling a resumed transcript (`ReconcileReport`): the call-orphans that
/// were closed, in the order of their calls (empty when there was nothing to do).
///
/// `recovered[i]` describes the `i`-th result of
/// [`Reconciliation::append`](super::Reconciliation::append). On the wire `{"recovered": [..]}`
/// (the key is required).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct ReconcileReport {
    /// The closed call-orphans, in first-appearance order of their calls.
    pub recovered: Vec<RecoveredOrphan>,
}

impl ReconcileReport {
    /// True when nothing was closed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.recovered.is_empty()
    }
}
