//! Subagent jobs, derived from the background-task types: a subagent is an agent task seen
//! through a narrower seam, so its records reuse the task's declarations instead of copying them.

use alloc::string::String;

use super::task_request::AgentBackgroundTaskRequest;
use super::task_result::AgentBackgroundTaskResult;
use super::task_state::JobStateFields;
use super::task_vocabulary::{BackgroundTaskMode, BackgroundTaskStatus};

string_enum! {
    /// The status of a subagent job (`TSubagentJobStatus`): every [`BackgroundTaskStatus`] but
    /// `paused`, which only a schedule can be in, and a subagent is never a schedule.
    ///
    /// Converts losslessly into [`BackgroundTaskStatus`]; the way back refuses `paused`
    /// ([`TryFrom`]) or maps it to `sleeping` ([`from_task_status`](Self::from_task_status)).
    pub enum SubagentJobStatus {
        /// Accepted, waiting for a slot.
        Queued = "queued",
        /// Running now.
        Running = "running",
        /// Blocked on a permission question.
        WaitingPermission = "waiting_permission",
        /// Between two activations.
        Sleeping = "sleeping",
        /// Finished successfully.
        Completed = "completed",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped for good.
        Cancelled = "cancelled",
    }
}

impl SubagentJobStatus {
    /// The job status a task status shows as: the same status, except that `paused` shows as
    /// `sleeping` (the job is not running and will run again).
    #[must_use]
    pub const fn from_task_status(status: BackgroundTaskStatus) -> Self {
        match status {
            BackgroundTaskStatus::Queued => Self::Queued,
            BackgroundTaskStatus::Running => Self::Running,
            BackgroundTaskStatus::WaitingPermission => Self::WaitingPermission,
            BackgroundTaskStatus::Sleeping | BackgroundTaskStatus::Paused => Self::Sleeping,
            BackgroundTaskStatus::Completed => Self::Completed,
            BackgroundTaskStatus::Failed => Self::Failed,
            BackgroundTaskStatus::Cancelled => Self::Cancelled,
        }
    }

    /// True for `completed`, `failed` and `cancelled`, as for the task status.
    #[must_use]
    pub const fn is_terminal(self) -> bool {
        BackgroundTaskStatus::from_subagent(self).is_terminal()
    }
}

impl BackgroundTaskStatus {
    /// The task status a subagent job status stands for (the same literal).
    #[must_use]
    pub const fn from_subagent(status: SubagentJobStatus) -> Self {
        match status {
            SubagentJobStatus::Queued => Self::Queued,
            SubagentJobStatus::Running => Self::Running,
            SubagentJobStatus::WaitingPermission => Self::WaitingPermission,
            SubagentJobStatus::Sleeping => Self::Sleeping,
            SubagentJobStatus::Completed => Self::Completed,
            SubagentJobStatus::Failed => Self::Failed,
            SubagentJobStatus::Cancelled => Self::Cancelled,
        }
    }
}

impl From<SubagentJobStatus> for BackgroundTaskStatus {
    fn from(status: SubagentJobStatus) -> Self {
        Self::from_subagent(status)
    }
}

/// The refusal of `paused` as a subagent job status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[error("a subagent job is never `paused`: only a scheduled task can be")]
pub struct PausedSubagentStatus;

impl TryFrom<BackgroundTaskStatus> for SubagentJobStatus {
    type Error = PausedSubagentStatus;

    fn try_from(status: BackgroundTaskStatus) -> Result<Self, Self::Error> {
        match status {
            BackgroundTaskStatus::Paused => Err(PausedSubagentStatus),
            other => Ok(Self::from_task_status(other)),
        }
    }
}

/// The mode of a subagent job (`TSubagentJobMode`): the task mode itself.
pub type SubagentJobMode = BackgroundTaskMode;

/// A request to spawn a subagent (`ISubagentSpawnRequest`): the agent task request itself, which
/// has no `kind` field (the kind is fixed by the seam).
pub type SubagentSpawnRequest = AgentBackgroundTaskRequest;

/// What a subagent job produced (`ISubagentJobResult`): the agent task result itself, without
/// `kind`.
pub type SubagentJobResult = AgentBackgroundTaskResult;

/// The state of one subagent job (`ISubagentJobState`).
///
/// The fields it shares with a task's state are the same [`JobStateFields`] (flattened on the
/// wire); the rest are the job's own. Result and error are display strings here, where the task
/// state holds structured values.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct SubagentJobState {
    /// Id, label, parent, mode, depth, process, paths, worktree, times, timeout reason and
    /// metadata, exactly as a task's state has them.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub job: JobStateFields,
    /// The agent definition the job runs (wire `type`; the task state's `agentType`).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub agent_type: String,
    /// Where the job is in its lifecycle; never `paused`.
    pub status: SubagentJobStatus,
    /// The start of the job's prompt. Required: every job starts from a prompt.
    pub prompt_preview: String,
    /// The tool the job is running now.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub current_tool: Option<String>,
    /// The job's result, as display text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub result: Option<String>,
    /// The job's error, as display text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<String>,
}

impl SubagentJobState {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        job: JobStateFields,
        agent_type: impl Into<String>,
        status: SubagentJobStatus,
        prompt_preview: impl Into<String>,
    ) -> Self {
        Self {
            job,
            agent_type: agent_type.into(),
            status,
            prompt_preview: prompt_preview.into(),
            current_tool: None,
            result: None,
            error: None,
        }
    }
}

optional_setters!(SubagentJobState {
    with_current_tool => current_tool: impl Into<String>,
    with_result => result: impl Into<String>,
    with_error => error: impl Into<String>,
});

impl SubagentJobState {
    /// The job's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.job.id
    }
}
