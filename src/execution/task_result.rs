//! What a finished background task produced (`TBackgroundTaskResult`), discriminated by kind.

use alloc::string::String;

use super::task_vocabulary::{BackgroundPrimitiveMap, BackgroundTaskKind, BackgroundTaskUsage};
#[cfg(feature = "serde")]
use super::wire_check::{ForeignField, present};
#[cfg(feature = "serde")]
use serde::de::IgnoredAny;

/// The fields every result carries, whatever its kind (`IBaseBackgroundTaskResult`); flattened
/// into each kind's result on the wire.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundTaskResultBase {
    /// The task that produced the result.
    pub task_id: String,
    /// The task's final output as text (an agent's last reply, a process's captured output).
    pub output: String,
    /// Free-form primitive annotations of the result.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub metadata: Option<BackgroundPrimitiveMap>,
}

impl BackgroundTaskResultBase {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(task_id: impl Into<String>, output: impl Into<String>) -> Self {
        Self {
            task_id: task_id.into(),
            output: output.into(),
            metadata: None,
        }
    }
}

optional_setters!(BackgroundTaskResultBase {
    with_metadata => metadata: BackgroundPrimitiveMap,
});

/// The result of an agent task (`IAgentBackgroundTaskResult` without `kind`; the payload of
/// [`BackgroundTaskResult::Agent`]). It is also the subagent job result
/// ([`SubagentJobResult`](super::subagents::SubagentJobResult)).
///
/// Only an agent result has `usage`; JSON that has `exitCode` or `signalCode` fails to decode
/// with an error naming the key.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "AgentResultWire")
)]
#[non_exhaustive]
pub struct AgentBackgroundTaskResult {
    /// Task id, output and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskResultBase,
    /// The tokens the agent spent in total, for attributing cost to the task.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub usage: Option<BackgroundTaskUsage>,
}

impl AgentBackgroundTaskResult {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(base: BackgroundTaskResultBase) -> Self {
        Self { base, usage: None }
    }
}

optional_setters!(AgentBackgroundTaskResult {
    with_usage => usage: BackgroundTaskUsage,
});

impl AgentBackgroundTaskResult {
    /// The kind this result is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Agent;
}

/// The result of a process task (`IProcessBackgroundTaskResult` without `kind`; the payload of
/// [`BackgroundTaskResult::Process`]).
///
/// Only a process result has `exitCode` and `signalCode`; JSON that has `usage` fails to decode
/// with an error naming the key.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ProcessResultWire")
)]
#[non_exhaustive]
pub struct ProcessBackgroundTaskResult {
    /// Task id, output and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskResultBase,
    /// The exit status, when the process exited on its own.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub exit_code: Option<i32>,
    /// The signal that ended the process (e.g. `SIGTERM`), when one did.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub signal_code: Option<String>,
}

impl ProcessBackgroundTaskResult {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(base: BackgroundTaskResultBase) -> Self {
        Self {
            base,
            exit_code: None,
            signal_code: None,
        }
    }
}

optional_setters!(ProcessBackgroundTaskResult {
    with_exit_code => exit_code: i32,
    with_signal_code => signal_code: impl Into<String>,
});

impl ProcessBackgroundTaskResult {
    /// The kind this result is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Process;
}

/// The result of a scheduled task (`IScheduledBackgroundTaskResult` without `kind`; the payload
/// of [`BackgroundTaskResult::Scheduled`]). JSON that has `usage`, `exitCode` or `signalCode`
/// fails to decode with an error naming the key.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ScheduledResultWire")
)]
#[non_exhaustive]
pub struct ScheduledBackgroundTaskResult {
    /// Task id, output and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskResultBase,
}

impl ScheduledBackgroundTaskResult {
    /// The result with task id, output and metadata `base`.
    #[must_use]
    pub fn new(base: BackgroundTaskResultBase) -> Self {
        Self { base }
    }
}

impl ScheduledBackgroundTaskResult {
    /// The kind this result is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::Scheduled;
}

/// The result of a handed-off tool call (`IToolInvocationBackgroundTaskResult` without `kind`;
/// the payload of [`BackgroundTaskResult::ToolInvocation`]). JSON that has `usage`, `exitCode`
/// or `signalCode` fails to decode with an error naming the key.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", try_from = "ToolInvocationResultWire")
)]
#[non_exhaustive]
pub struct ToolInvocationBackgroundTaskResult {
    /// Task id, output and metadata.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub base: BackgroundTaskResultBase,
}

impl ToolInvocationBackgroundTaskResult {
    /// The result with task id, output and metadata `base`.
    #[must_use]
    pub fn new(base: BackgroundTaskResultBase) -> Self {
        Self { base }
    }
}

impl ToolInvocationBackgroundTaskResult {
    /// The kind this result is sent as.
    pub const KIND: BackgroundTaskKind = BackgroundTaskKind::ToolInvocation;
}

/// The result of a finished background task (`TBackgroundTaskResult`, and
/// `IBackgroundTaskResult<K>` without an argument), tagged on `kind`.
///
/// A kind-specific field exists only on its kind's variant: match the variant to reach
/// `usage` or `exit_code`, or use [`usage`](Self::usage) and [`exit_code`](Self::exit_code),
/// which answer `None` for every other kind.
// `Deserialize` is written out (`result_decode`): the derived one buffers the result for the
// tag and again for each flattened part, and links a second decoder of every member.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind"))]
pub enum BackgroundTaskResult {
    /// `kind: 'agent'`.
    #[cfg_attr(feature = "serde", serde(rename = "agent"))]
    Agent(AgentBackgroundTaskResult),
    /// `kind: 'process'`.
    #[cfg_attr(feature = "serde", serde(rename = "process"))]
    Process(ProcessBackgroundTaskResult),
    /// `kind: 'scheduled'`.
    #[cfg_attr(feature = "serde", serde(rename = "scheduled"))]
    Scheduled(ScheduledBackgroundTaskResult),
    /// `kind: 'tool-invocation'`.
    #[cfg_attr(feature = "serde", serde(rename = "tool-invocation"))]
    ToolInvocation(ToolInvocationBackgroundTaskResult),
}

impl BackgroundTaskResult {
    /// The result's kind: the wire tag.
    #[must_use]
    pub const fn kind(&self) -> BackgroundTaskKind {
        match self {
            Self::Agent(_) => BackgroundTaskKind::Agent,
            Self::Process(_) => BackgroundTaskKind::Process,
            Self::Scheduled(_) => BackgroundTaskKind::Scheduled,
            Self::ToolInvocation(_) => BackgroundTaskKind::ToolInvocation,
        }
    }

    /// The fields every kind shares.
    #[must_use]
    pub const fn base(&self) -> &BackgroundTaskResultBase {
        match self {
            Self::Agent(result) => &result.base,
            Self::Process(result) => &result.base,
            Self::Scheduled(result) => &result.base,
            Self::ToolInvocation(result) => &result.base,
        }
    }

    /// The task that produced the result.
    #[must_use]
    pub fn task_id(&self) -> &str {
        &self.base().task_id
    }

    /// The task's final output.
    #[must_use]
    pub fn output(&self) -> &str {
        &self.base().output
    }

    /// The token usage: only an agent result can have it.
    #[must_use]
    pub const fn usage(&self) -> Option<&BackgroundTaskUsage> {
        match self {
            Self::Agent(result) => result.usage.as_ref(),
            _ => None,
        }
    }

    /// The exit status: only a process result can have it.
    #[must_use]
    pub const fn exit_code(&self) -> Option<i32> {
        match self {
            Self::Process(result) => result.exit_code,
            _ => None,
        }
    }
}

from_variants!(BackgroundTaskResult {
    Agent(AgentBackgroundTaskResult),
    Process(ProcessBackgroundTaskResult),
    Scheduled(ScheduledBackgroundTaskResult),
    ToolInvocation(ToolInvocationBackgroundTaskResult),
});

/// Who may carry `usage`, for refusals.
#[cfg(feature = "serde")]
pub(super) const USAGE_OWNER: &str = "agent results";
/// Who may carry `exitCode` and `signalCode`, for refusals.
#[cfg(feature = "serde")]
pub(super) const EXIT_OWNER: &str = "process results";

/// The keys of other kinds' results, noticed so that they can be refused.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ForeignResultKeys {
    #[serde(default, deserialize_with = "present")]
    usage: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    exit_code: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    signal_code: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl ForeignResultKeys {
    /// Refuses every key present, for a result of a kind that has none of them.
    fn refuse_all(&self, record: &'static str) -> Result<(), ForeignField> {
        ForeignField::check(self.usage.as_ref(), "usage", record, USAGE_OWNER)?;
        ForeignField::check(self.exit_code.as_ref(), "exitCode", record, EXIT_OWNER)?;
        ForeignField::check(self.signal_code.as_ref(), "signalCode", record, EXIT_OWNER)
    }
}

/// The decoded form of [`AgentBackgroundTaskResult`]; refuses the process-only keys.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AgentResultWire {
    #[serde(flatten)]
    base: BackgroundTaskResultBase,
    #[serde(default)]
    usage: Option<BackgroundTaskUsage>,
    #[serde(default, deserialize_with = "present")]
    exit_code: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    signal_code: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl TryFrom<AgentResultWire> for AgentBackgroundTaskResult {
    type Error = ForeignField;

    fn try_from(wire: AgentResultWire) -> Result<Self, Self::Error> {
        let record = "an agent result";
        ForeignField::check(wire.exit_code.as_ref(), "exitCode", record, EXIT_OWNER)?;
        ForeignField::check(wire.signal_code.as_ref(), "signalCode", record, EXIT_OWNER)?;
        Ok(Self {
            base: wire.base,
            usage: wire.usage,
        })
    }
}

/// The decoded form of [`ProcessBackgroundTaskResult`]; refuses the agent-only key.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProcessResultWire {
    #[serde(flatten)]
    base: BackgroundTaskResultBase,
    #[serde(default)]
    exit_code: Option<i32>,
    #[serde(default)]
    signal_code: Option<String>,
    #[serde(default, deserialize_with = "present")]
    usage: Option<IgnoredAny>,
}

#[cfg(feature = "serde")]
impl TryFrom<ProcessResultWire> for ProcessBackgroundTaskResult {
    type Error = ForeignField;

    fn try_from(wire: ProcessResultWire) -> Result<Self, Self::Error> {
        ForeignField::check(
            wire.usage.as_ref(),
            "usage",
            "a process result",
            USAGE_OWNER,
        )?;
        Ok(Self {
            base: wire.base,
            exit_code: wire.exit_code,
            signal_code: wire.signal_code,
        })
    }
}

/// The decoded form of [`ScheduledBackgroundTaskResult`]; refuses every kind-specific key.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct ScheduledResultWire {
    #[serde(flatten)]
    base: BackgroundTaskResultBase,
    #[serde(flatten)]
    foreign: ForeignResultKeys,
}

#[cfg(feature = "serde")]
impl TryFrom<ScheduledResultWire> for ScheduledBackgroundTaskResult {
    type Error = ForeignField;

    fn try_from(wire: ScheduledResultWire) -> Result<Self, Self::Error> {
        wire.foreign.refuse_all("a scheduled result")?;
        Ok(Self { base: wire.base })
    }
}

/// The decoded form of [`ToolInvocationBackgroundTaskResult`]; refuses every kind-specific key.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct ToolInvocationResultWire {
    #[serde(flatten)]
    base: BackgroundTaskResultBase,
    #[serde(flatten)]
    foreign: ForeignResultKeys,
}

#[cfg(feature = "serde")]
impl TryFrom<ToolInvocationResultWire> for ToolInvocationBackgroundTaskResult {
    type Error = ForeignField;

    fn try_from(wire: ToolInvocationResultWire) -> Result<Self, Self::Error> {
        wire.foreign.refuse_all("a tool-invocation result")?;
        Ok(Self { base: wire.base })
    }
}
