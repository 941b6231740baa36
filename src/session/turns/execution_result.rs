//! What a turn produces (`IExecutionResult`), and the partial result of a turn that was aborted.
//!
//! Decisions where the contract was silent: `docs/decisions/session.md`.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{ContextWindowState, HistoryEntry};
use crate::analytics::usage::UsageSnapshot;

use super::turn::ToolSummary;
use crate::session::events::PromptFileReferenceRecord;

/// The result of a turn that ran to the end (`IExecutionResult`): the only result that may answer
/// an external sender.
///
/// `#[non_exhaustive]`, so the contract can add members: build it with [`new`](Self::new) and the
/// `with_*` setters.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ExecutionResult {
    /// The assistant's final reply text.
    pub response: String,
    /// The history entries the turn appended.
    pub history: Vec<HistoryEntry>,
    /// Every tool call of the turn in brief, in order.
    pub tool_summaries: Vec<ToolSummary>,
    /// How full the context window is after the turn.
    pub context_state: ContextWindowState,
    /// Tokens and cost of the turn, when measured.
    pub usage: Option<UsageSnapshot>,
    /// Files the prompt referenced and the turn loaded, when there were any.
    pub prompt_file_references: Option<Vec<PromptFileReferenceRecord>>,
}

impl ExecutionResult {
    /// A result with this final reply text and nothing else: no history, tool summaries, usage
    /// or file references, and an empty (default) context window state.
    #[must_use]
    pub fn new(response: impl Into<String>) -> Self {
        Self {
            response: response.into(),
            ..Self::default()
        }
    }

    /// The same result with the history entries the turn appended.
    #[must_use]
    pub fn with_history(mut self, history: Vec<HistoryEntry>) -> Self {
        self.history = history;
        self
    }

    /// The same result with the turn's tool calls in brief, in order.
    #[must_use]
    pub fn with_tool_summaries(mut self, tool_summaries: Vec<ToolSummary>) -> Self {
        self.tool_summaries = tool_summaries;
        self
    }

    /// The same result with the context window state after the turn.
    #[must_use]
    pub const fn with_context_state(mut self, context_state: ContextWindowState) -> Self {
        self.context_state = context_state;
        self
    }

    /// The same result with the files the prompt referenced and the turn loaded.
    #[must_use]
    pub fn with_prompt_file_references(
        mut self,
        references: Vec<PromptFileReferenceRecord>,
    ) -> Self {
        self.prompt_file_references = Some(references);
        self
    }

    /// Marks this result as the partial result of an aborted turn (for local history only).
    #[must_use]
    pub fn into_interrupted(self) -> PartialExecutionResult {
        PartialExecutionResult::new(self)
    }
}

optional_setters!(ExecutionResult {
    /// The same result with the turn's measured usage.
    with_usage => usage: UsageSnapshot,
});

/// The partial result of an aborted turn, marked interrupted: for the session's local history
/// only, never an answer to an external sender.
///
/// There is deliberately no way to turn it into an [`ExecutionResult`]: read its parts, or take
/// its history with [`into_local_history`](Self::into_local_history). See the module docs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartialExecutionResult {
    /// The fields as far as the turn got; private so the value never passes for a complete result
    /// (boxed so the value is small to pass around).
    partial: Box<ExecutionResult>,
}

impl PartialExecutionResult {
    /// Marks `partial` (what an aborted turn got to) as interrupted.
    #[must_use]
    pub fn new(partial: ExecutionResult) -> Self {
        Self {
            partial: Box::new(partial),
        }
    }

    /// The reply text as far as it got.
    #[must_use]
    pub fn response(&self) -> &str {
        &self.partial.response
    }

    /// The history entries the turn appended before it was aborted.
    #[must_use]
    pub fn history(&self) -> &[HistoryEntry] {
        &self.partial.history
    }

    /// The tool calls made before the abort, in brief.
    #[must_use]
    pub fn tool_summaries(&self) -> &[ToolSummary] {
        &self.partial.tool_summaries
    }

    /// How full the context window is after the aborted turn.
    #[must_use]
    pub fn context_state(&self) -> &ContextWindowState {
        &self.partial.context_state
    }

    /// The usage measured before the abort, when measured.
    #[must_use]
    pub fn usage(&self) -> Option<&UsageSnapshot> {
        self.partial.usage.as_ref()
    }

    /// Files the prompt referenced, when there were any.
    #[must_use]
    pub fn prompt_file_references(&self) -> Option<&[PromptFileReferenceRecord]> {
        self.partial.prompt_file_references.as_deref()
    }

    /// The history entries, for the session's own history (the one use a partial result has).
    #[must_use]
    pub fn into_local_history(self) -> Vec<HistoryEntry> {
        self.partial.history
    }
}

/// What a turn that ran produced: a complete result, or the partial result of an abort.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnOutcome {
    /// The turn ran to the end; its result may answer an external sender (boxed: it is large).
    Complete(Box<ExecutionResult>),
    /// The turn was aborted; its partial result is for local history only.
    Interrupted(PartialExecutionResult),
}

impl TurnOutcome {
    /// True for [`Interrupted`](Self::Interrupted).
    #[must_use]
    pub const fn is_interrupted(&self) -> bool {
        matches!(self, Self::Interrupted(_))
    }

    /// The reply text, complete or partial.
    #[must_use]
    pub fn response(&self) -> &str {
        match self {
            Self::Complete(result) => &result.response,
            Self::Interrupted(partial) => partial.response(),
        }
    }

    /// The history entries the turn appended, complete or partial.
    #[must_use]
    pub fn history(&self) -> &[HistoryEntry] {
        match self {
            Self::Complete(result) => &result.history,
            Self::Interrupted(partial) => partial.history(),
        }
    }

    /// The result that may answer an external sender: `Ok` for a complete turn; an interrupted
    /// turn gives its partial result back as `Err`.
    ///
    /// # Errors
    ///
    /// The [`PartialExecutionResult`] of an interrupted turn.
    pub fn into_answer(self) -> Result<ExecutionResult, PartialExecutionResult> {
        match self {
            Self::Complete(result) => Ok(*result),
            Self::Interrupted(partial) => Err(partial),
        }
    }
}

impl From<ExecutionResult> for TurnOutcome {
    fn from(result: ExecutionResult) -> Self {
        Self::Complete(Box::new(result))
    }
}

impl From<PartialExecutionResult> for TurnOutcome {
    fn from(partial: PartialExecutionResult) -> Self {
        Self::Interrupted(partial)
    }
}

/// Only a complete outcome becomes an answer; an interrupted one is given back.
impl TryFrom<TurnOutcome> for ExecutionResult {
    type Error = PartialExecutionResult;

    fn try_from(outcome: TurnOutcome) -> Result<Self, PartialExecutionResult> {
        outcome.into_answer()
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! One wire shape for the three types: the result's fields plus the optional marker.

    use alloc::string::String;
    use alloc::vec::Vec;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{
        ContextWindowState, ExecutionResult, HistoryEntry, PartialExecutionResult,
        PromptFileReferenceRecord, ToolSummary, TurnOutcome, UsageSnapshot,
    };

    /// Writes a result by reference, with the marker when it is interrupted.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Out<'a> {
        response: &'a str,
        history: &'a [HistoryEntry],
        tool_summaries: &'a [ToolSummary],
        context_state: &'a ContextWindowState,
        #[serde(skip_serializing_if = "Option::is_none")]
        usage: Option<&'a UsageSnapshot>,
        #[serde(skip_serializing_if = "Option::is_none")]
        prompt_file_references: Option<&'a [PromptFileReferenceRecord]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        interrupted: Option<bool>,
    }

    impl<'a> Out<'a> {
        fn of(result: &'a ExecutionResult, interrupted: Option<bool>) -> Self {
            Self {
                response: &result.response,
                history: &result.history,
                tool_summaries: &result.tool_summaries,
                context_state: &result.context_state,
                usage: result.usage.as_ref(),
                prompt_file_references: result.prompt_file_references.as_deref(),
                interrupted,
            }
        }
    }

    /// Reads any of the three, marker included.
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct In {
        response: String,
        history: Vec<HistoryEntry>,
        tool_summaries: Vec<ToolSummary>,
        context_state: ContextWindowState,
        #[serde(default)]
        usage: Option<UsageSnapshot>,
        #[serde(default)]
        prompt_file_references: Option<Vec<PromptFileReferenceRecord>>,
        #[serde(default)]
        interrupted: Option<bool>,
    }

    impl In {
        fn split(self) -> (ExecutionResult, Option<bool>) {
            let result = ExecutionResult {
                response: self.response,
                history: self.history,
                tool_summaries: self.tool_summaries,
                context_state: self.context_state,
                usage: self.usage,
                prompt_file_references: self.prompt_file_references,
            };
            (result, self.interrupted)
        }
    }

    impl Serialize for ExecutionResult {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            Out::of(self, None).serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for ExecutionResult {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            match In::deserialize(deserializer)?.split() {
                (_, Some(true)) => Err(D::Error::custom(
                    "a result marked `interrupted: true` is partial, \
                     not a complete execution result",
                )),
                (result, _) => Ok(result),
            }
        }
    }

    impl Serialize for PartialExecutionResult {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            Out::of(&self.partial, Some(true)).serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for PartialExecutionResult {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            match In::deserialize(deserializer)?.split() {
                (_, Some(false)) => Err(D::Error::custom(
                    "a result marked `interrupted: false` is complete, not a partial result",
                )),
                (partial, _) => Ok(PartialExecutionResult::new(partial)),
            }
        }
    }

    impl Serialize for TurnOutcome {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match self {
                Self::Complete(result) => result.serialize(serializer),
                Self::Interrupted(partial) => partial.serialize(serializer),
            }
        }
    }

    impl<'de> Deserialize<'de> for TurnOutcome {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Ok(match In::deserialize(deserializer)?.split() {
                (partial, Some(true)) => Self::Interrupted(PartialExecutionResult::new(partial)),
                (result, _) => Self::from(result),
            })
        }
    }
}
