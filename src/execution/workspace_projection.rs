//! What the workspace projection reads (the main thread, tasks, groups and self-paced loops) and
//! the normalized state it derives from them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::HistoryEntry;

use super::groups::{BackgroundJobGroupState, BackgroundJobGroupStatus};
use super::task_state::{BackgroundTaskLogCursor, BackgroundTaskState};
use super::task_vocabulary::BackgroundTaskStatus;
use super::workspace::{
    ExecutionDetailCursor, ExecutionDetailRecordKind, ExecutionNormalizedState,
    ExecutionPendingRequest, ExecutionWorkspaceFilter, ExecutionWorkspaceStatus,
};

impl ExecutionWorkspaceStatus {
    /// The one-word state of this status, for every status:
    ///
    /// | status | state |
    /// |---|---|
    /// | `active`, `queued`, `running`, `sleeping` | `working` |
    /// | `waiting_permission` | `needs-input` |
    /// | `completed`, `idle` | `completed` |
    /// | `failed` | `failed` |
    /// | `cancelled`, `paused` | `stopped` |
    ///
    /// `idle` is a main thread with no turn running: its last turn has finished, so it reads as
    /// `completed` (not `stopped`, which means someone stopped it, nor `needs-input`, which would
    /// flag every quiet session as waiting on the user). A parked prompt is not visible in the
    /// status; [`ExecutionNormalizedState::derive`] accounts for it.
    #[must_use]
    pub const fn normalized_state(self) -> ExecutionNormalizedState {
        match self {
            Self::Active
            | Self::Task(
                BackgroundTaskStatus::Queued
                | BackgroundTaskStatus::Running
                | BackgroundTaskStatus::Sleeping,
            ) => ExecutionNormalizedState::Working,
            Self::Task(BackgroundTaskStatus::WaitingPermission) => {
                ExecutionNormalizedState::NeedsInput
            }
            Self::Idle | Self::Task(BackgroundTaskStatus::Completed) => {
                ExecutionNormalizedState::Completed
            }
            Self::Task(BackgroundTaskStatus::Failed) => ExecutionNormalizedState::Failed,
            Self::Task(BackgroundTaskStatus::Cancelled | BackgroundTaskStatus::Paused) => {
                ExecutionNormalizedState::Stopped
            }
        }
    }
}

impl ExecutionNormalizedState {
    /// The state of an entry with this status, where `parked_prompt` says whether a prompt is
    /// waiting on a person: a parked prompt wins (`needs-input`), otherwise
    /// [`ExecutionWorkspaceStatus::normalized_state`].
    #[must_use]
    pub const fn derive(status: ExecutionWorkspaceStatus, parked_prompt: bool) -> Self {
        if parked_prompt {
            Self::NeedsInput
        } else {
            status.normalized_state()
        }
    }
}

impl BackgroundTaskState {
    /// The task's one-word state: its status's ([`ExecutionWorkspaceStatus::normalized_state`]).
    #[must_use]
    pub const fn normalized_state(&self) -> ExecutionNormalizedState {
        ExecutionWorkspaceStatus::Task(self.status).normalized_state()
    }
}

impl BackgroundJobGroupState {
    /// The group's one-word state: `failed` as soon as a recorded task failed, else `completed`
    /// once the group completed, else `working`.
    #[must_use]
    pub fn normalized_state(&self) -> ExecutionNormalizedState {
        if self
            .results
            .iter()
            .any(|result| result.status == BackgroundTaskStatus::Failed)
        {
            ExecutionNormalizedState::Failed
        } else if self.status == BackgroundJobGroupStatus::Completed {
            ExecutionNormalizedState::Completed
        } else {
            ExecutionNormalizedState::Working
        }
    }
}

/// What the projection knows about the main thread (`ICreateMainThreadEntryInput`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CreateMainThreadEntryInput {
    /// The session.
    pub session_id: String,
    /// True while a turn runs.
    pub is_executing: bool,
    /// True while a prompt (permission or question) waits on the user.
    pub has_pending_prompt: bool,
    /// How many history entries the session has.
    pub history_length: u64,
    /// When the main thread last changed (ISO-8601).
    pub updated_at: String,
    /// The latest output, raw.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub preview: Option<String>,
    /// The prompt the main thread is parked on, when there is one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pending_request: Option<ExecutionPendingRequest>,
}

impl CreateMainThreadEntryInput {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        session_id: impl Into<String>,
        is_executing: bool,
        has_pending_prompt: bool,
        history_length: u64,
        updated_at: impl Into<String>,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            is_executing,
            has_pending_prompt,
            history_length,
            updated_at: updated_at.into(),
            preview: None,
            pending_request: None,
        }
    }
}

optional_setters!(CreateMainThreadEntryInput {
    with_preview => preview: impl Into<String>,
    with_pending_request => pending_request: ExecutionPendingRequest,
});

impl CreateMainThreadEntryInput {
    /// The main thread's status: `active` while a turn runs, `idle` otherwise.
    #[must_use]
    pub const fn status(&self) -> ExecutionWorkspaceStatus {
        if self.is_executing {
            ExecutionWorkspaceStatus::Active
        } else {
            ExecutionWorkspaceStatus::Idle
        }
    }

    /// True when a prompt is parked: `has_pending_prompt` is set or a `pending_request` is
    /// given (either says so).
    #[must_use]
    pub const fn has_parked_prompt(&self) -> bool {
        self.has_pending_prompt || self.pending_request.is_some()
    }

    /// The main thread's one-word state: `needs-input` while a prompt is parked, else `working`
    /// while a turn runs, else `completed`.
    #[must_use]
    pub const fn normalized_state(&self) -> ExecutionNormalizedState {
        ExecutionNormalizedState::derive(self.status(), self.has_parked_prompt())
    }
}

string_enum! {
    /// Where a self-paced `/loop` is (`IExecutionSelfPacedLoopSummary.phase`).
    pub enum ExecutionSelfPacedLoopPhase {
        /// Waiting for its wake timer (a task of its own represents it).
        Waiting = "waiting",
        /// An iteration is due and has not started.
        Pending = "pending",
        /// An iteration runs.
        Running = "running",
        /// Stopped by the user.
        Stopped = "stopped",
        /// Ran out of time.
        Expired = "expired",
    }
}

/// The part of a self-paced `/loop` the projection needs (`IExecutionSelfPacedLoopSummary`): a
/// structural subset of the session family's loop state, declared here because this family may
/// not name that one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct ExecutionSelfPacedLoopSummary {
    /// The loop's stable id (what `/loop stop` takes).
    pub loop_id: String,
    /// The instruction each iteration runs.
    pub instruction: String,
    /// Where the loop is.
    pub phase: ExecutionSelfPacedLoopPhase,
    /// When the loop was made (ISO-8601).
    pub created_at: String,
    /// The delay the loop chose before its next iteration, in seconds.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub delay_seconds: Option<u64>,
    /// Why the loop chose that delay, or why it stopped.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub reason: Option<String>,
}

impl ExecutionSelfPacedLoopSummary {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        loop_id: impl Into<String>,
        instruction: impl Into<String>,
        phase: ExecutionSelfPacedLoopPhase,
        created_at: impl Into<String>,
    ) -> Self {
        Self {
            loop_id: loop_id.into(),
            instruction: instruction.into(),
            phase,
            created_at: created_at.into(),
            delay_seconds: None,
            reason: None,
        }
    }
}

optional_setters!(ExecutionSelfPacedLoopSummary {
    with_delay_seconds => delay_seconds: u64,
    with_reason => reason: impl Into<String>,
});

impl ExecutionSelfPacedLoopSummary {
    /// True when the loop needs an entry of its own: a `pending` or `running` iteration has no
    /// task behind it. A `waiting` loop is shown by its wake-timer task, and a `stopped` or
    /// `expired` one has nothing left to show.
    #[must_use]
    pub const fn needs_own_entry(&self) -> bool {
        matches!(
            self.phase,
            ExecutionSelfPacedLoopPhase::Pending | ExecutionSelfPacedLoopPhase::Running
        )
    }
}

/// Everything a workspace snapshot is made from (`ICreateExecutionWorkspaceSnapshotInput`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CreateExecutionWorkspaceSnapshotInput {
    /// The session.
    pub session_id: String,
    /// The main thread.
    pub main_thread: CreateMainThreadEntryInput,
    /// Every task to show.
    pub tasks: Vec<BackgroundTaskState>,
    /// Every group to show.
    pub groups: Vec<BackgroundJobGroupState>,
    /// The self-paced loops; absent when the caller has none (or predates them).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub self_paced_loops: Option<Vec<ExecutionSelfPacedLoopSummary>>,
    /// The entry to focus.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub selected_entry_id: Option<String>,
    /// Which entries to list.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub filter: Option<ExecutionWorkspaceFilter>,
}

impl CreateExecutionWorkspaceSnapshotInput {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        session_id: impl Into<String>,
        main_thread: CreateMainThreadEntryInput,
        tasks: Vec<BackgroundTaskState>,
        groups: Vec<BackgroundJobGroupState>,
    ) -> Self {
        Self {
            session_id: session_id.into(),
            main_thread,
            tasks,
            groups,
            self_paced_loops: None,
            selected_entry_id: None,
            filter: None,
        }
    }

    /// The same record with `self_paced_loops`.
    #[must_use]
    pub fn with_self_paced_loops(
        mut self,
        self_paced_loops: Vec<ExecutionSelfPacedLoopSummary>,
    ) -> Self {
        self.self_paced_loops = Some(self_paced_loops);
        self
    }
}

optional_setters!(CreateExecutionWorkspaceSnapshotInput {
    with_selected_entry_id => selected_entry_id: impl Into<String>,
    with_filter => filter: ExecutionWorkspaceFilter,
});

/// What a main-thread detail page is made from (`ICreateMainThreadDetailPageInput`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CreateMainThreadDetailPageInput {
    /// The entry the page is for.
    pub entry_id: String,
    /// The session's history, in order.
    pub history: Vec<HistoryEntry>,
    /// Where the page starts.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cursor: Option<ExecutionDetailCursor>,
    /// The parked prompt, shown first on the page so that the blocking question leads.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pending_request: Option<ExecutionPendingRequest>,
}

impl CreateMainThreadDetailPageInput {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(entry_id: impl Into<String>, history: Vec<HistoryEntry>) -> Self {
        Self {
            entry_id: entry_id.into(),
            history,
            cursor: None,
            pending_request: None,
        }
    }
}

optional_setters!(CreateMainThreadDetailPageInput {
    with_cursor => cursor: ExecutionDetailCursor,
    with_pending_request => pending_request: ExecutionPendingRequest,
});

/// What a detail page of plain lines is made from (`ICreateLineDetailPageInput`), e.g. a
/// task's log page.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct CreateLineDetailPageInput {
    /// The entry the page is for.
    pub entry_id: String,
    /// The lines, in order.
    pub lines: Vec<String>,
    /// Where the lines start in the task's log.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cursor: Option<BackgroundTaskLogCursor>,
    /// Where the log continues.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub next_cursor: Option<BackgroundTaskLogCursor>,
    /// The record kind every line becomes, when not the default the projection picks.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub kind: Option<ExecutionDetailRecordKind>,
}

impl CreateLineDetailPageInput {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(entry_id: impl Into<String>, lines: Vec<String>) -> Self {
        Self {
            entry_id: entry_id.into(),
            lines,
            cursor: None,
            next_cursor: None,
            kind: None,
        }
    }
}

optional_setters!(CreateLineDetailPageInput {
    with_cursor => cursor: BackgroundTaskLogCursor,
    with_next_cursor => next_cursor: BackgroundTaskLogCursor,
    with_kind => kind: ExecutionDetailRecordKind,
});
