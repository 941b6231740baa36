//! Closing call-orphans with synthetic interrupted results ([`reconcile_interrupted_session`]).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::agent_core::{
    BaseMessage, MessageState, ToolMessage, UniversalMessage, Value, ValueMap,
};

use super::effect::{ToolCallIds, ToolEffect, ToolEffects};
use super::orphan::{
    CallOrphan, OrphanToolCall, ResultOrphan, TranscriptError, find_orphan_tool_calls,
};
use super::report::{ReconcileReport, ReconciledErrorKind, RecoveredOrphan};
use crate::instant::{LAST_INSTANT_MS, format_instant};

/// The metadata key that marks a synthetic result as an error (`true`).
const IS_ERROR: &str = "isError";
/// The metadata key of the object that holds [`ERROR_KIND`].
const DETAILS: &str = "details";
/// The key, inside [`DETAILS`], of the [`ReconciledErrorKind`] literal.
const ERROR_KIND: &str = "errorKind";

/// What the caller knows about the interrupted run, all of it optional: built with
/// [`new`](Self::new) and the `with_` setters, read by the reconcile calls.
///
/// - `tool_effects`: the task's tools and their effects. A tool it does not name (or no table
///   at all) counts as [`ToolEffect::Write`].
/// - `suspended_batch`: the call ids of a deliberately suspended batch (a durable checkpoint
///   waiting to resume). Those calls are not orphans and are never closed.
/// - `started_tool_call_ids`: the calls whose execution start the caller observed during the
///   run being reconciled. `None` means "not known" (the wake path after a crash: the process
///   that knew is gone), and every orphan is closed as
///   [`InterruptedOutcomeUnknown`](ReconciledErrorKind::InterruptedOutcomeUnknown). `Some(set)`
///   means the caller saw every start: an orphan outside the set provably never started and is
///   closed as [`InterruptedNeverStarted`](ReconciledErrorKind::InterruptedNeverStarted). An
///   empty set is therefore a claim that nothing started, not the same as `None`.
///
/// The lookups are `Sync` (every table and id set of this crate is, over `Sync` keys), so the
/// inputs are `Send + Sync` and a future that holds them across an `await` (the session cache's
/// `acquire`) can run on a multi-threaded executor.
#[derive(Clone, Copy, Default)]
pub struct ReconcileInputs<'a> {
    /// The effect of each tool by name.
    tool_effects: Option<&'a (dyn ToolEffects + Sync)>,
    /// The call ids of a deliberately suspended batch.
    suspended_batch: Option<&'a (dyn ToolCallIds + Sync)>,
    /// The call ids whose start the caller observed, when it observed every start.
    started_tool_call_ids: Option<&'a (dyn ToolCallIds + Sync)>,
}

impl<'a> ReconcileInputs<'a> {
    /// Nothing known: every tool counts as a write, nothing is suspended, every orphan's outcome
    /// is unknown.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            tool_effects: None,
            suspended_batch: None,
            started_tool_call_ids: None,
        }
    }

    /// The same inputs with the task's tool effects.
    #[must_use]
    pub const fn with_tool_effects(mut self, tool_effects: &'a (dyn ToolEffects + Sync)) -> Self {
        self.tool_effects = Some(tool_effects);
        self
    }

    /// The same inputs with the call ids of a suspended batch, which are never closed.
    #[must_use]
    pub const fn with_suspended_batch(
        mut self,
        suspended_batch: &'a (dyn ToolCallIds + Sync),
    ) -> Self {
        self.suspended_batch = Some(suspended_batch);
        self
    }

    /// The same inputs with every call whose start the caller observed.
    #[must_use]
    pub const fn with_started_tool_call_ids(
        mut self,
        started: &'a (dyn ToolCallIds + Sync),
    ) -> Self {
        self.started_tool_call_ids = Some(started);
        self
    }

    /// The effect the text of an interrupted `tool_name` call is tuned by: the declared one, or
    /// [`ToolEffect::Write`] for a tool the table does not name.
    #[must_use]
    pub fn effect_of(&self, tool_name: &str) -> ToolEffect {
        self.tool_effects
            .and_then(|effects| effects.effect_of(tool_name))
            .unwrap_or(ToolEffect::Write)
    }

    /// The state an interrupted call `tool_call_id` is closed in: never started only when the
    /// caller observed the starts and this call is not among them.
    #[must_use]
    pub fn error_kind_of(&self, tool_call_id: &str) -> ReconciledErrorKind {
        match self.started_tool_call_ids {
            Some(started) if !started.contains_tool_call_id(tool_call_id) => {
                ReconciledErrorKind::InterruptedNeverStarted
            }
            _ => ReconciledErrorKind::InterruptedOutcomeUnknown,
        }
    }
}

impl fmt::Debug for ReconcileInputs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let given = |set: bool| if set { "given" } else { "none" };
        f.debug_struct("ReconcileInputs")
            .field("tool_effects", &given(self.tool_effects.is_some()))
            .field("suspended_batch", &given(self.suspended_batch.is_some()))
            .field(
                "started_tool_call_ids",
                &given(self.started_tool_call_ids.is_some()),
            )
            .finish()
    }
}

/// What reconciling decided: the results to append, the report, and the result-orphans it left
/// alone.
///
/// `append()[i]` is the synthetic result that `report().recovered[i]` describes; both follow the
/// order in which the interrupted calls appear.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Reconciliation {
    append: Vec<ToolMessage>,
    report: ReconcileReport,
    result_orphans: Vec<ResultOrphan>,
}

impl Reconciliation {
    /// The synthetic results to append, in this order, after the transcript's last message.
    #[must_use]
    pub fn append(&self) -> &[ToolMessage] {
        &self.append
    }

    /// The closed call-orphans, with entry ids, texts and kinds.
    #[must_use]
    pub const fn report(&self) -> &ReconcileReport {
        &self.report
    }

    /// The result-orphans found: reported, not repaired (nothing is appended for them).
    #[must_use]
    pub fn result_orphans(&self) -> &[ResultOrphan] {
        &self.result_orphans
    }

    /// True when there is nothing to append (result-orphans may still have been found).
    #[must_use]
    pub fn is_noop(&self) -> bool {
        self.append.is_empty()
    }

    /// The results to append, the report and the result-orphans, by value.
    #[must_use]
    pub fn into_parts(self) -> (Vec<ToolMessage>, ReconcileReport, Vec<ResultOrphan>) {
        (self.append, self.report, self.result_orphans)
    }
}

/// Why reconciling appended nothing and reported nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReconcileError {
    /// The transcript pairs calls and results ambiguously.
    #[error("the transcript cannot be reconciled: {0}")]
    Transcript(#[from] TranscriptError),
    /// The entry-id minter returned an empty id for the result of this call.
    #[error("the entry id minted for the result of tool call `{tool_call_id}` is empty")]
    EmptyEntryId {
        /// The call whose result needed the id.
        tool_call_id: String,
    },
    /// The entry-id minter returned an id that a message of the transcript, or another result
    /// of this reconciliation, already has.
    #[error(
        "the entry id `{entry_id}` minted for the result of tool call `{tool_call_id}` is \
         already taken"
    )]
    EntryIdTaken {
        /// The call whose result needed the id.
        tool_call_id: String,
        /// The id that was minted.
        entry_id: String,
    },
    /// `now_ms` lies after 9999-12-31T23:59:59.999Z, beyond what the results' ISO-8601
    /// timestamps can say.
    #[error("now ({now_ms} ms since the epoch) is after {LAST_INSTANT_MS} ms (year 9999)")]
    InstantOutOfRange {
        /// The instant that was passed.
        now_ms: u64,
    },
}

/// The model-facing text of the synthetic result that closes an interrupted `tool_name` call,
/// tuned by the tool's effect and the state the call is closed in.
///
/// Every text starts with `[INTERRUPTED]` and names the tool. A never-started call is safe to
/// issue again whatever its effect. Otherwise the outcome is unknown and the advice follows the
/// effect: a read changed nothing; an idempotent call may be repeated but may have partly
/// landed; a write (or a tool whose effect is not known) must be verified before it is
/// repeated.
#[must_use]
pub fn interrupted_text(tool_name: &str, effect: ToolEffect, kind: ReconciledErrorKind) -> String {
    match (kind, effect) {
        (ReconciledErrorKind::InterruptedNeverStarted, _) => format!(
            "[INTERRUPTED] The session was interrupted before this `{tool_name}` call started: \
             it never ran and changed nothing. It is safe to issue it again."
        ),
        (ReconciledErrorKind::InterruptedOutcomeUnknown, effect) => {
            let advice = match effect {
                ToolEffect::Read => {
                    "The tool only reads, so nothing changed either way; call it again if you \
                     still need its result."
                }
                ToolEffect::Idempotent => {
                    "Repeating it is safe because it converges to the same state, but it may \
                     have partly landed: check the current state before relying on it."
                }
                ToolEffect::Write => {
                    "Repeating it could apply its change twice: first check whether the change \
                     already happened (or ask the user), then decide."
                }
            };
            format!(
                "[INTERRUPTED] The session was interrupted before this `{tool_name}` call \
                 returned, so its outcome is unknown: it may not have run, or may have run in \
                 part or in full. {advice}"
            )
        }
    }
}

/// The [`ReconciledErrorKind`] of a synthetic result appended by reconciling, read from its
/// metadata (`details.errorKind`); `None` for any other tool message.
#[must_use]
pub fn reconciled_error_kind(message: &ToolMessage) -> Option<ReconciledErrorKind> {
    let details = message.base.metadata.as_ref()?.get(DETAILS)?;
    ReconciledErrorKind::from_literal(details.get(ERROR_KIND)?.as_str()?)
}

/// The metadata of a synthetic result: `{"isError": true, "details": {"errorKind": kind}}`.
fn result_metadata(kind: ReconciledErrorKind) -> ValueMap {
    let mut details = ValueMap::new();
    details.insert(
        ERROR_KIND.to_string(),
        Value::String(kind.as_str().to_string()),
    );
    let mut metadata = ValueMap::new();
    metadata.insert(IS_ERROR.to_string(), Value::Bool(true));
    metadata.insert(DETAILS.to_string(), Value::Object(details));
    metadata
}

/// Reconciles a resumed transcript (`reconcileInterruptedSession`): closes every call-orphan
/// with a synthetic interrupted result, never re-running a tool, and says what it did.
///
/// `messages` is the active branch, root to leaf; the entry id of a message is its
/// [`id`](UniversalMessage::id). Nothing is changed: the returned [`Reconciliation`] holds the
/// results the caller appends, in order, after the last message.
///
/// For each call-orphan found by [`find_orphan_tool_calls`] (the suspended batch of `inputs`
/// excluded), in the order of the calls, it asks `mint_entry_id` for the new entry's id and
/// builds one [`ToolMessage`]:
///
/// - `id` = the minted entry id, `timestamp` = `now_ms` as an ISO-8601 instant
///   (`2026-05-01T12:00:00.000Z`), `state` = `complete`;
/// - `toolCallId` and `name` = the call's id and tool;
/// - `content` = [`interrupted_text`] for the tool's effect ([`ReconcileInputs::effect_of`]) and
///   the call's state ([`ReconcileInputs::error_kind_of`]);
/// - `metadata` = `{"isError": true, "details": {"errorKind": "interrupted_…"}}`, read back with
///   [`reconciled_error_kind`].
///
/// Result-orphans are handed back in [`Reconciliation::result_orphans`] and nothing is appended
/// for them. A transcript without call-orphans gives an empty reconciliation and never calls
/// the minter.
///
/// # Guarantees
///
/// - It never re-runs a tool (it has no way to), and never drops, changes or reorders a
///   message or a call: it only proposes results to append.
/// - Each call-orphan gets exactly one result, and every appended result answers a call-orphan.
/// - Appending the results and reconciling again finds nothing to do: the second reconciliation
///   is empty (the seeded property test of `tests/suites/reconcile.rs` checks this).
/// - On any error nothing is proposed (all-or-nothing).
///
/// # Errors
///
/// [`ReconcileError::Transcript`] for an ambiguous transcript (see [`find_orphan_tool_calls`]);
/// when there is something to close, [`ReconcileError::InstantOutOfRange`] for a `now_ms` after
/// year 9999, and [`ReconcileError::EmptyEntryId`] or [`ReconcileError::EntryIdTaken`] when the
/// minter returns an empty id or one already used (by a message or by another minted result).
pub fn reconcile_interrupted_session<'m, I, F>(
    messages: I,
    inputs: &ReconcileInputs<'_>,
    now_ms: u64,
    mut mint_entry_id: F,
) -> Result<Reconciliation, ReconcileError>
where
    I: IntoIterator<Item = &'m UniversalMessage>,
    I::IntoIter: Clone,
    F: FnMut(&CallOrphan) -> String,
{
    let messages = messages.into_iter();
    let mut calls = Vec::new();
    let mut result_orphans = Vec::new();
    let suspended_batch = inputs
        .suspended_batch
        .map(|batch| -> &dyn ToolCallIds { batch });
    for orphan in find_orphan_tool_calls(messages.clone(), suspended_batch)? {
        match orphan {
            OrphanToolCall::Call(call) => calls.push(call),
            OrphanToolCall::Result(result) => result_orphans.push(result),
        }
    }
    if calls.is_empty() {
        return Ok(Reconciliation {
            append: Vec::new(),
            report: ReconcileReport::default(),
            result_orphans,
        });
    }
    let timestamp = format_instant(now_ms).ok_or(ReconcileError::InstantOutOfRange { now_ms })?;
    let entry_ids: Vec<String> = calls.iter().map(&mut mint_entry_id).collect();
    check_entry_ids(messages, &calls, &entry_ids)?;

    let mut append = Vec::with_capacity(calls.len());
    let mut recovered = Vec::with_capacity(calls.len());
    for (call, entry_id) in calls.into_iter().zip(entry_ids) {
        let effect = inputs.effect_of(&call.tool_name);
        let error_kind = inputs.error_kind_of(&call.tool_call_id);
        let text = interrupted_text(&call.tool_name, effect, error_kind);
        append.push(ToolMessage {
            base: BaseMessage {
                id: entry_id.clone(),
                timestamp: timestamp.clone(),
                state: MessageState::Complete,
                metadata: Some(result_metadata(error_kind)),
            },
            content: text.clone(),
            parts: None,
            tool_call_id: call.tool_call_id.clone(),
            name: Some(call.tool_name.clone()),
        });
        recovered.push(RecoveredOrphan {
            tool_call_id: call.tool_call_id,
            tool_name: call.tool_name,
            entry_id,
            text,
            error_kind,
        });
    }
    Ok(Reconciliation {
        append,
        report: ReconcileReport { recovered },
        result_orphans,
    })
}

/// Refuses an empty minted id, one minted twice, or one a message already has.
fn check_entry_ids<'m>(
    messages: impl Iterator<Item = &'m UniversalMessage>,
    calls: &[CallOrphan],
    entry_ids: &[String],
) -> Result<(), ReconcileError> {
    let taken = |call: &CallOrphan, entry_id: &str| ReconcileError::EntryIdTaken {
        tool_call_id: call.tool_call_id.clone(),
        entry_id: entry_id.to_string(),
    };
    let mut minted: BTreeMap<&str, &CallOrphan> = BTreeMap::new();
    for (call, entry_id) in calls.iter().zip(entry_ids) {
        if entry_id.is_empty() {
            return Err(ReconcileError::EmptyEntryId {
                tool_call_id: call.tool_call_id.clone(),
            });
        }
        if minted.insert(entry_id, call).is_some() {
            return Err(taken(call, entry_id));
        }
    }
    for message in messages {
        if let Some(call) = minted.get(message.id()) {
            return Err(taken(call, message.id()));
        }
    }
    Ok(())
}
