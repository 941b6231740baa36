//! What a background-task manager reports while tasks run (`TBackgroundTaskEvent`) and the port
//! that receives it (`TBackgroundTaskEventListener`).

use alloc::boxed::Box;
use alloc::string::String;

use super::task_state::BackgroundTaskState;
use super::task_vocabulary::BackgroundPrimitiveMap;

string_enum! {
    /// The `type` tag of a [`BackgroundTaskEvent`], one per event.
    pub enum BackgroundTaskEventType {
        /// A task was accepted.
        Created = "background_task_created",
        /// A task started running.
        Started = "background_task_started",
        /// A task's state changed.
        Updated = "background_task_updated",
        /// An agent task streamed text.
        TextDelta = "background_task_text_delta",
        /// A task began a tool call.
        ToolStart = "background_task_tool_start",
        /// A task's tool call ended.
        ToolEnd = "background_task_tool_end",
        /// A task asks permission for a tool call.
        PermissionRequest = "background_task_permission_request",
        /// A task finished successfully.
        Completed = "background_task_completed",
        /// A task finished with an error.
        Failed = "background_task_failed",
        /// A task was cancelled.
        Cancelled = "background_task_cancelled",
        /// The user closed (dismissed) a task.
        Closed = "background_task_closed",
        /// A schedule fired or a monitored process matched.
        Waking = "background_task_waking",
    }
}

/// One report about a background task (`TBackgroundTaskEvent`), tagged on `type`.
///
/// Lifecycle events carry the task's whole state (boxed, as it is large); the others carry the
/// task's id. [`task_id`](Self::task_id) reads the id from either.
///
/// `#[non_exhaustive]`: the contract adds kinds, so match it with a wildcard arm; decoding
/// still refuses a kind not listed here.
#[derive(Clone, Debug, PartialEq)]
// `Deserialize` is written out (`event_decode`): the derived one buffers the object.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "type", rename_all_fields = "camelCase")
)]
#[non_exhaustive]
pub enum BackgroundTaskEvent {
    /// `background_task_created`: the task was accepted (usually queued).
    #[cfg_attr(feature = "serde", serde(rename = "background_task_created"))]
    Created {
        /// The task's state when accepted.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_started`: the task began to run.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_started"))]
    Started {
        /// The task's state when it started.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_updated`: something in the task's state changed.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_updated"))]
    Updated {
        /// The task's new state.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_text_delta`: an agent task streamed a piece of its reply.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_text_delta"))]
    TextDelta {
        /// The task that produced the text.
        task_id: String,
        /// The new text, to append to what came before.
        delta: String,
    },
    /// `background_task_tool_start`: the task began a tool call.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_tool_start"))]
    ToolStart {
        /// The task making the call.
        task_id: String,
        /// The tool called.
        tool_name: String,
        /// The call's first argument as text, for a one-line display.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        first_arg: Option<String>,
    },
    /// `background_task_tool_end`: a tool call of the task ended.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_tool_end"))]
    ToolEnd {
        /// The task that made the call.
        task_id: String,
        /// The tool called.
        tool_name: String,
        /// True when the call succeeded.
        success: bool,
        /// Why the call failed, when it did.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        error: Option<String>,
    },
    /// `background_task_permission_request`: the task waits for a decision on a tool call.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "background_task_permission_request")
    )]
    PermissionRequest {
        /// The task that waits.
        task_id: String,
        /// The id the answer must name.
        request_id: String,
        /// The tool the call would run.
        tool_name: String,
        /// The call's arguments, as primitives.
        tool_args: BackgroundPrimitiveMap,
    },
    /// `background_task_completed`: the task finished successfully.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_completed"))]
    Completed {
        /// The task's final state, with its result.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_failed`: the task finished with an error.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_failed"))]
    Failed {
        /// The task's final state, with its error.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_cancelled`: the task was cancelled.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_cancelled"))]
    Cancelled {
        /// The task's final state.
        task: Box<BackgroundTaskState>,
    },
    /// `background_task_closed`: the user dismissed the task from lists.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_closed"))]
    Closed {
        /// The task closed.
        task_id: String,
    },
    /// `background_task_waking`: a schedule fired or a monitored process's output matched.
    #[cfg_attr(feature = "serde", serde(rename = "background_task_waking"))]
    Waking {
        /// The task that woke.
        task_id: String,
        /// The instruction to give the host session as a turn no user typed, when there is one.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        instruction: Option<String>,
    },
}

impl BackgroundTaskEvent {
    /// The event's `type` tag.
    #[must_use]
    pub const fn event_type(&self) -> BackgroundTaskEventType {
        match self {
            Self::Created { .. } => BackgroundTaskEventType::Created,
            Self::Started { .. } => BackgroundTaskEventType::Started,
            Self::Updated { .. } => BackgroundTaskEventType::Updated,
            Self::TextDelta { .. } => BackgroundTaskEventType::TextDelta,
            Self::ToolStart { .. } => BackgroundTaskEventType::ToolStart,
            Self::ToolEnd { .. } => BackgroundTaskEventType::ToolEnd,
            Self::PermissionRequest { .. } => BackgroundTaskEventType::PermissionRequest,
            Self::Completed { .. } => BackgroundTaskEventType::Completed,
            Self::Failed { .. } => BackgroundTaskEventType::Failed,
            Self::Cancelled { .. } => BackgroundTaskEventType::Cancelled,
            Self::Closed { .. } => BackgroundTaskEventType::Closed,
            Self::Waking { .. } => BackgroundTaskEventType::Waking,
        }
    }

    /// The id of the task the event is about, for every event: the state's id for lifecycle
    /// events, the `taskId` field for the others.
    #[must_use]
    pub fn task_id(&self) -> &str {
        match self {
            Self::Created { task }
            | Self::Started { task }
            | Self::Updated { task }
            | Self::Completed { task }
            | Self::Failed { task }
            | Self::Cancelled { task } => task.id(),
            Self::TextDelta { task_id, .. }
            | Self::ToolStart { task_id, .. }
            | Self::ToolEnd { task_id, .. }
            | Self::PermissionRequest { task_id, .. }
            | Self::Closed { task_id }
            | Self::Waking { task_id, .. } => task_id,
        }
    }

    /// The task's state, for the lifecycle events that carry it; `None` for the others.
    #[must_use]
    pub fn task(&self) -> Option<&BackgroundTaskState> {
        match self {
            Self::Created { task }
            | Self::Started { task }
            | Self::Updated { task }
            | Self::Completed { task }
            | Self::Failed { task }
            | Self::Cancelled { task } => Some(task),
            _ => None,
        }
    }
}

/// Receives background-task events (`TBackgroundTaskEventListener`).
///
/// Implemented for every `FnMut(&BackgroundTaskEvent)` closure. A listener returns nothing: what
/// it does with an event is its own business, and it cannot refuse one.
pub trait BackgroundTaskEventListener {
    /// Handles one event.
    fn on_event(&mut self, event: &BackgroundTaskEvent);
}

impl<F: FnMut(&BackgroundTaskEvent)> BackgroundTaskEventListener for F {
    fn on_event(&mut self, event: &BackgroundTaskEvent) {
        self(event);
    }
}
