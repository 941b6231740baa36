//! Groups of background tasks the parent waits on together (`IBackgroundJobGroupState` and the
//! records, events and ports around it).

use alloc::string::String;
use alloc::vec::Vec;

use super::task_vocabulary::{BackgroundTaskError, BackgroundTaskStatus};

string_enum! {
    /// How the parent waits on a group (`TBackgroundJobWaitPolicy`).
    pub enum BackgroundJobWaitPolicy {
        /// The parent does not wait; results arrive on their own.
        Detached = "detached",
        /// The parent waits until every task has finished.
        WaitAll = "wait_all",
        /// The parent waits until the first task finishes.
        WaitAny = "wait_any",
        /// The parent decides when to collect results.
        Manual = "manual",
    }
}

string_enum! {
    /// Whether a group is still open (`TBackgroundJobGroupStatus`).
    pub enum BackgroundJobGroupStatus {
        /// Some task the wait policy cares about has not finished.
        Running = "running",
        /// The wait policy is satisfied.
        Completed = "completed",
    }
}

/// One task's outcome as its group records it (`IBackgroundJobResultEnvelope`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundJobResultEnvelope {
    /// The task.
    pub task_id: String,
    /// The task's label.
    pub label: String,
    /// The task's status when recorded.
    pub status: BackgroundTaskStatus,
    /// A short summary of the task's output.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub summary: Option<String>,
    /// Where the full output can be read (a path or id, as the producer chose).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub output_ref: Option<String>,
    /// Why the task failed, when it did.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub error: Option<BackgroundTaskError>,
    /// When the task started (ISO-8601).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub started_at: Option<String>,
    /// When the task finished (ISO-8601).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub completed_at: Option<String>,
}

impl BackgroundJobResultEnvelope {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        task_id: impl Into<String>,
        label: impl Into<String>,
        status: BackgroundTaskStatus,
    ) -> Self {
        Self {
            task_id: task_id.into(),
            label: label.into(),
            status,
            summary: None,
            output_ref: None,
            error: None,
            started_at: None,
            completed_at: None,
        }
    }
}

optional_setters!(BackgroundJobResultEnvelope {
    with_summary => summary: impl Into<String>,
    with_output_ref => output_ref: impl Into<String>,
    with_error => error: BackgroundTaskError,
    with_started_at => started_at: impl Into<String>,
    with_completed_at => completed_at: impl Into<String>,
});

/// The state of one group of tasks (`IBackgroundJobGroupState`). Timestamps are ISO-8601
/// strings, carried as written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundJobGroupState {
    /// The group's unique id.
    pub id: String,
    /// The session that made the group.
    pub parent_session_id: String,
    /// How the parent waits on it.
    pub wait_policy: BackgroundJobWaitPolicy,
    /// The tasks in the group, in the order given.
    pub task_ids: Vec<String>,
    /// Whether the group is still open.
    pub status: BackgroundJobGroupStatus,
    /// When the group was made.
    pub created_at: String,
    /// When the group last changed.
    pub updated_at: String,
    /// A short name for the group.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub label: Option<String>,
    /// When the group completed.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub completed_at: Option<String>,
    /// The outcomes recorded so far, one per finished task.
    pub results: Vec<BackgroundJobResultEnvelope>,
}

impl BackgroundJobGroupState {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        id: impl Into<String>,
        parent_session_id: impl Into<String>,
        wait_policy: BackgroundJobWaitPolicy,
        task_ids: Vec<String>,
        status: BackgroundJobGroupStatus,
        created_at: impl Into<String>,
        updated_at: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            parent_session_id: parent_session_id.into(),
            wait_policy,
            task_ids,
            status,
            created_at: created_at.into(),
            updated_at: updated_at.into(),
            label: None,
            completed_at: None,
            results: Vec::new(),
        }
    }

    /// The same record with `results`.
    #[must_use]
    pub fn with_results(mut self, results: Vec<BackgroundJobResultEnvelope>) -> Self {
        self.results = results;
        self
    }
}

optional_setters!(BackgroundJobGroupState {
    with_label => label: impl Into<String>,
    with_completed_at => completed_at: impl Into<String>,
});

/// Counts and display lines summing up a group (`IBackgroundJobGroupSummary`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundJobGroupSummary {
    /// The group summed up.
    pub group_id: String,
    /// Whether the group is still open.
    pub status: BackgroundJobGroupStatus,
    /// Tasks in the group.
    pub total: u32,
    /// Tasks that completed.
    pub completed: u32,
    /// Tasks that failed.
    pub failed: u32,
    /// Tasks that were cancelled.
    pub cancelled: u32,
    /// Tasks not finished yet.
    pub pending: u32,
    /// One display line per task, in order.
    pub lines: Vec<String>,
}

impl BackgroundJobGroupSummary {
    /// The summary of group `group_id` in `status`, with every count zero and no lines (set the counts in place).
    #[must_use]
    pub fn new(group_id: impl Into<String>, status: BackgroundJobGroupStatus) -> Self {
        Self {
            group_id: group_id.into(),
            status,
            total: 0,
            completed: 0,
            failed: 0,
            cancelled: 0,
            pending: 0,
            lines: Vec::new(),
        }
    }

    /// The same record with `lines`.
    #[must_use]
    pub fn with_lines(mut self, lines: Vec<String>) -> Self {
        self.lines = lines;
        self
    }
}

/// A request to make a group (`IBackgroundJobGroupCreateRequest`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[non_exhaustive]
pub struct BackgroundJobGroupCreateRequest {
    /// The session making the group.
    pub parent_session_id: String,
    /// How the parent waits on it.
    pub wait_policy: BackgroundJobWaitPolicy,
    /// The tasks to group, already started.
    pub task_ids: Vec<String>,
    /// A short name for the group.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub label: Option<String>,
}

impl BackgroundJobGroupCreateRequest {
    /// The record with its required members, in the contract's order; every optional member starts absent.
    #[must_use]
    pub fn new(
        parent_session_id: impl Into<String>,
        wait_policy: BackgroundJobWaitPolicy,
        task_ids: Vec<String>,
    ) -> Self {
        Self {
            parent_session_id: parent_session_id.into(),
            wait_policy,
            task_ids,
            label: None,
        }
    }
}

optional_setters!(BackgroundJobGroupCreateRequest {
    with_label => label: impl Into<String>,
});

string_enum! {
    /// The `type` tag of a [`BackgroundJobGroupEvent`].
    pub enum BackgroundJobGroupEventType {
        /// A group was made.
        Created = "background_job_group_created",
        /// A group changed.
        Updated = "background_job_group_updated",
        /// A group completed.
        Completed = "background_job_group_completed",
    }
}

/// One report about a group (`TBackgroundJobGroupEvent`), tagged on `type`; every event carries
/// the group's state.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
// `Deserialize` is written out (`event_decode`): the derived one buffers the object.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type"))]
#[non_exhaustive]
pub enum BackgroundJobGroupEvent {
    /// `background_job_group_created`.
    #[cfg_attr(feature = "serde", serde(rename = "background_job_group_created"))]
    Created {
        /// The new group's state.
        group: BackgroundJobGroupState,
    },
    /// `background_job_group_updated`.
    #[cfg_attr(feature = "serde", serde(rename = "background_job_group_updated"))]
    Updated {
        /// The group's new state.
        group: BackgroundJobGroupState,
    },
    /// `background_job_group_completed`.
    #[cfg_attr(feature = "serde", serde(rename = "background_job_group_completed"))]
    Completed {
        /// The group's final state.
        group: BackgroundJobGroupState,
    },
}

impl BackgroundJobGroupEvent {
    /// The event's `type` tag.
    #[must_use]
    pub const fn event_type(&self) -> BackgroundJobGroupEventType {
        match self {
            Self::Created { .. } => BackgroundJobGroupEventType::Created,
            Self::Updated { .. } => BackgroundJobGroupEventType::Updated,
            Self::Completed { .. } => BackgroundJobGroupEventType::Completed,
        }
    }

    /// The group's state, which every event carries.
    #[must_use]
    pub const fn group(&self) -> &BackgroundJobGroupState {
        match self {
            Self::Created { group } | Self::Updated { group } | Self::Completed { group } => group,
        }
    }
}

/// Receives group events (`TBackgroundJobGroupEventListener`); implemented for every
/// `FnMut(&BackgroundJobGroupEvent)` closure.
pub trait BackgroundJobGroupEventListener {
    /// Handles one event.
    fn on_event(&mut self, event: &BackgroundJobGroupEvent);
}

impl<F: FnMut(&BackgroundJobGroupEvent)> BackgroundJobGroupEventListener for F {
    fn on_event(&mut self, event: &BackgroundJobGroupEvent) {
        self(event);
    }
}

/// Mints the id of a new group from its request (`TBackgroundJobGroupIdFactory`); implemented for
/// every `FnMut(&BackgroundJobGroupCreateRequest) -> String` closure. This crate reads no entropy:
/// the host decides how ids are made.
pub trait BackgroundJobGroupIdFactory {
    /// The id for the group `request` makes.
    fn group_id(&mut self, request: &BackgroundJobGroupCreateRequest) -> String;
}

impl<F: FnMut(&BackgroundJobGroupCreateRequest) -> String> BackgroundJobGroupIdFactory for F {
    fn group_id(&mut self, request: &BackgroundJobGroupCreateRequest) -> String {
        self(request)
    }
}
