//! What the host sends a client of the WebSocket session protocol (`TServerMessage`).

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use crate::agent_core::{ContextWindowState, UniversalMessage, ValueMap};
use crate::analytics::reports::UsageBySourceReport;
use crate::execution::groups::{BackgroundJobGroupEvent, BackgroundJobGroupState};
use crate::execution::task_event::BackgroundTaskEvent;
use crate::execution::task_state::{BackgroundTaskLogPage, BackgroundTaskState};
use crate::execution::workspace::ExecutionWorkspaceSnapshot;
use crate::session::events::{BranchEvent, PlanApprovalEvent, ToolState};
use crate::session::prompts::{
    AskRequestEvent, ContextFileRefreshedEvent, PermissionRequestEvent, PromptResolvedEvent,
};
use crate::session::turns::{
    DriverId, ExecutionResult, PartialExecutionResult, SessionRenamedEvent, UiIntentEvent,
};

string_enum! {
    /// A background task control a client asked for (`TBackgroundControlAction`).
    pub enum BackgroundControlAction {
        /// The task was cancelled.
        Cancel = "cancel",
        /// The task was hidden.
        Close = "close",
        /// Input was sent to the task.
        Send = "send",
    }
}

/// One message the host sends a client over the session protocol, tagged on `type` with the
/// reference's snake_case literals.
///
/// The eight turn-authored events (`user_message`, `text_delta`, `tool_start`, `tool_end`,
/// `thinking`, `complete`, `interrupted`, `error`) may carry the active turn's `driverId`; no
/// other message does. On the reconnectable path each message is also stamped with a `seq`,
/// added as the last member by the protocol's resume bridge, not by this type.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "snake_case",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum ServerMessage {
    /// `text_delta`: a piece of the reply's text.
    TextDelta {
        /// The text.
        delta: String,
        /// The driver of the turn that wrote it.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `user_message`: the user's prompt, as the turn took it.
    UserMessage {
        /// The prompt.
        content: String,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `tool_start`: a tool call began.
    ToolStart {
        /// The call.
        state: Box<ToolState>,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `tool_end`: a tool call ended.
    ToolEnd {
        /// The call.
        state: Box<ToolState>,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `thinking`: the model started or stopped thinking.
    Thinking {
        /// Whether it thinks now.
        is_thinking: bool,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `complete`: the turn finished.
    Complete {
        /// What it produced.
        result: Box<ExecutionResult>,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `interrupted`: the turn was aborted.
    Interrupted {
        /// What it had produced (partial: local history only, as the session event says).
        result: Box<PartialExecutionResult>,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `error`: the turn failed (the message only).
    Error {
        /// What failed.
        message: String,
        /// The driver of the turn.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        driver_id: Option<DriverId>,
    },
    /// `command_result`: a command's result (without its host actions and UI intents).
    CommandResult {
        /// The command's name.
        name: String,
        /// Its text for the user.
        message: String,
        /// Whether it did what it was asked.
        success: bool,
        /// Its structured diagnostics.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        data: Option<ValueMap>,
    },
    /// `messages`: the session's messages.
    Messages {
        /// The messages.
        messages: Vec<UniversalMessage>,
    },
    /// `context`: the context window's state.
    Context {
        /// The state.
        state: ContextWindowState,
    },
    /// `usage_report`: the run's trace and cost read model (declared; the reference's handler
    /// never sends it).
    UsageReport {
        /// The report.
        report: Box<UsageBySourceReport>,
    },
    /// `executing`: whether a turn runs.
    Executing {
        /// Whether one runs.
        executing: bool,
    },
    /// `pending`: the prompt waiting to run, or `null`.
    Pending {
        /// The prompt, or none (written as `null`).
        pending: Option<String>,
    },
    /// `execution_workspace_event`: the execution workspace as it is now.
    ExecutionWorkspaceEvent {
        /// The workspace.
        snapshot: Box<ExecutionWorkspaceSnapshot>,
    },
    /// `background_task_event`: a background task changed.
    BackgroundTaskEvent {
        /// The change.
        event: Box<BackgroundTaskEvent>,
    },
    /// `background_job_group_event`: a job group changed.
    BackgroundJobGroupEvent {
        /// The change.
        event: Box<BackgroundJobGroupEvent>,
    },
    /// `plan_event`: a plan was created, approved or reverted.
    PlanEvent {
        /// The change.
        event: Box<PlanApprovalEvent>,
    },
    /// `context_file_refreshed`: a context file was read again.
    ContextFileRefreshed {
        /// Which file.
        event: ContextFileRefreshedEvent,
    },
    /// `branch_event`: a checkpoint or branch changed.
    BranchEvent {
        /// The change.
        event: BranchEvent,
    },
    /// `background_tasks`: the background tasks.
    BackgroundTasks {
        /// The tasks.
        tasks: Vec<BackgroundTaskState>,
    },
    /// `background_task`: one background task, or `null` when there is none by that id.
    BackgroundTask {
        /// The id asked for.
        task_id: String,
        /// The task (written as `null` when none).
        task: Option<Box<BackgroundTaskState>>,
    },
    /// `background_job_groups`: the job groups.
    BackgroundJobGroups {
        /// The groups.
        groups: Vec<BackgroundJobGroupState>,
    },
    /// `background_job_group`: one job group, or `null` when there is none by that id.
    BackgroundJobGroup {
        /// The id asked for.
        group_id: String,
        /// The group (written as `null` when none).
        group: Option<Box<BackgroundJobGroupState>>,
    },
    /// `background_task_log`: a page of a task's log.
    BackgroundTaskLog {
        /// The task.
        task_id: String,
        /// The page.
        page: BackgroundTaskLogPage,
    },
    /// `permission_request`: a permission prompt waits for an answer.
    PermissionRequest {
        /// The prompt.
        event: Box<PermissionRequestEvent>,
    },
    /// `ask_request`: a question waits for an answer.
    AskRequest {
        /// The question.
        event: Box<AskRequestEvent>,
    },
    /// `prompt_resolved`: a prompt was answered (maybe from another surface).
    PromptResolved {
        /// Which prompt, and who answered.
        event: PromptResolvedEvent,
    },
    /// `ui_intent`: a screen a command asked the requesting surface to show.
    UiIntent {
        /// The intent and its requester.
        event: UiIntentEvent,
    },
    /// `session_renamed`: the session has a new name.
    SessionRenamed {
        /// The name.
        event: SessionRenamedEvent,
    },
    /// `history_cleared`: the session's history was cleared.
    HistoryCleared,
    /// `background_task_control_result`: what a task control did.
    BackgroundTaskControlResult {
        /// The control.
        action: BackgroundControlAction,
        /// The task.
        task_id: String,
        /// Whether it worked.
        success: bool,
        /// Why not, when it did not.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        message: Option<String>,
    },
    /// `protocol_error`: the client's frame was refused, or the session failed its request.
    ProtocolError {
        /// Why.
        message: String,
    },
    /// `resume_gap`: a resume asked for frames no longer retained; the client must reload (for
    /// example with `get-messages`) instead of accepting a gap.
    ResumeGap,
}

impl ServerMessage {
    /// Every `type` literal, in the reference's order.
    pub const TYPES: [&'static str; 34] = [
        "text_delta",
        "user_message",
        "tool_start",
        "tool_end",
        "thinking",
        "complete",
        "interrupted",
        "error",
        "command_result",
        "messages",
        "context",
        "usage_report",
        "executing",
        "pending",
        "execution_workspace_event",
        "background_task_event",
        "background_job_group_event",
        "plan_event",
        "context_file_refreshed",
        "branch_event",
        "background_tasks",
        "background_task",
        "background_job_groups",
        "background_job_group",
        "background_task_log",
        "permission_request",
        "ask_request",
        "prompt_resolved",
        "ui_intent",
        "session_renamed",
        "history_cleared",
        "background_task_control_result",
        "protocol_error",
        "resume_gap",
    ];

    /// This message's `type` literal.
    #[must_use]
    pub const fn type_literal(&self) -> &'static str {
        let at = match self {
            Self::TextDelta { .. } => 0,
            Self::UserMessage { .. } => 1,
            Self::ToolStart { .. } => 2,
            Self::ToolEnd { .. } => 3,
            Self::Thinking { .. } => 4,
            Self::Complete { .. } => 5,
            Self::Interrupted { .. } => 6,
            Self::Error { .. } => 7,
            Self::CommandResult { .. } => 8,
            Self::Messages { .. } => 9,
            Self::Context { .. } => 10,
            Self::UsageReport { .. } => 11,
            Self::Executing { .. } => 12,
            Self::Pending { .. } => 13,
            Self::ExecutionWorkspaceEvent { .. } => 14,
            Self::BackgroundTaskEvent { .. } => 15,
            Self::BackgroundJobGroupEvent { .. } => 16,
            Self::PlanEvent { .. } => 17,
            Self::ContextFileRefreshed { .. } => 18,
            Self::BranchEvent { .. } => 19,
            Self::BackgroundTasks { .. } => 20,
            Self::BackgroundTask { .. } => 21,
            Self::BackgroundJobGroups { .. } => 22,
            Self::BackgroundJobGroup { .. } => 23,
            Self::BackgroundTaskLog { .. } => 24,
            Self::PermissionRequest { .. } => 25,
            Self::AskRequest { .. } => 26,
            Self::PromptResolved { .. } => 27,
            Self::UiIntent { .. } => 28,
            Self::SessionRenamed { .. } => 29,
            Self::HistoryCleared => 30,
            Self::BackgroundTaskControlResult { .. } => 31,
            Self::ProtocolError { .. } => 32,
            Self::ResumeGap => 33,
        };
        Self::TYPES[at]
    }

    /// The driver stamped on a turn-authored event; `None` for every other message.
    #[must_use]
    pub fn driver_id(&self) -> Option<&str> {
        match self {
            Self::TextDelta { driver_id, .. }
            | Self::UserMessage { driver_id, .. }
            | Self::ToolStart { driver_id, .. }
            | Self::ToolEnd { driver_id, .. }
            | Self::Thinking { driver_id, .. }
            | Self::Complete { driver_id, .. }
            | Self::Interrupted { driver_id, .. }
            | Self::Error { driver_id, .. } => driver_id.as_deref(),
            _ => None,
        }
    }
}
