//! What a client of the WebSocket session protocol sends (`TClientMessage`).

use alloc::string::String;

use crate::agent_core::ActionResponse;
use crate::execution::task_state::{
    BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor,
};
use crate::session::prompts::PermissionResultValue;

/// One message a client sends the host over the session protocol, tagged on `type` with the
/// reference's kebab-case literals.
///
/// The serde form is the wire form, read strictly: a member of the wrong type, a missing
/// required one or an unknown `type` fails to decode. The protocol's own frame decoder (the
/// `session-protocol` runtime piece) answers such a frame in the reference's words.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        tag = "type",
        rename_all = "kebab-case",
        rename_all_fields = "camelCase"
    )
)]
#[non_exhaustive]
pub enum ClientMessage {
    /// `submit`: run a turn with this prompt.
    Submit {
        /// The prompt (the host refuses an empty one).
        prompt: String,
    },
    /// `command`: run the named command.
    Command {
        /// The command's name.
        name: String,
        /// Its arguments, as typed.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        args: Option<String>,
    },
    /// `abort`: stop the running turn.
    Abort,
    /// `cancel-queue`: drop the turns waiting behind the running one.
    CancelQueue,
    /// `get-messages`: the session's messages (answered with `messages`).
    GetMessages,
    /// `get-context`: the context window's state (answered with `context`).
    GetContext,
    /// `get-usage-report`: declared by the reference; its handler answers it as an unknown type.
    GetUsageReport,
    /// `get-executing`: whether a turn runs (answered with `executing`).
    GetExecuting,
    /// `get-pending`: the prompt waiting to run, if any (answered with `pending`).
    GetPending,
    /// `get-execution-workspace`: the execution workspace (answered with
    /// `execution_workspace_event`).
    GetExecutionWorkspace,
    /// `get-background-tasks`: the background tasks, filtered.
    GetBackgroundTasks {
        /// Which tasks; absent lists them all.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        filter: Option<BackgroundTaskListFilter>,
    },
    /// `get-background-task`: one background task.
    GetBackgroundTask {
        /// The task.
        task_id: String,
    },
    /// `get-background-job-groups`: the job groups.
    GetBackgroundJobGroups,
    /// `get-background-job-group`: one job group.
    GetBackgroundJobGroup {
        /// The group.
        group_id: String,
    },
    /// `wait-background-job-group`: one job group, once it settles.
    WaitBackgroundJobGroup {
        /// The group.
        group_id: String,
    },
    /// `cancel-background-task`: cancel a task.
    CancelBackgroundTask {
        /// The task.
        task_id: String,
        /// Why, for the task's record.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        reason: Option<String>,
    },
    /// `close-background-task`: hide a finished task.
    CloseBackgroundTask {
        /// The task.
        task_id: String,
    },
    /// `send-background-task`: send input to a running task.
    SendBackgroundTask {
        /// The task.
        task_id: String,
        /// What to send.
        input: BackgroundTaskInput,
    },
    /// `read-background-task-log`: a page of a task's log.
    ReadBackgroundTaskLog {
        /// The task.
        task_id: String,
        /// Where to read from; absent is the start.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        cursor: Option<BackgroundTaskLogCursor>,
    },
    /// `permission-response`: the answer to a pending permission prompt (the first answer for
    /// an id wins).
    PermissionResponse {
        /// The prompt's id.
        id: String,
        /// The answer.
        result: PermissionResultValue,
    },
    /// `ask-response`: the answer to a pending question (the first answer for an id wins).
    AskResponse {
        /// The prompt's id.
        id: String,
        /// The answer.
        response: ActionResponse,
    },
    /// `resume`: replay what was sent after `last_seq` (the last seq the client applied).
    Resume {
        /// The last seq the client applied.
        last_seq: u64,
    },
    /// `ack`: the client has everything up to `seq`; the host may free it.
    Ack {
        /// The last seq the client has.
        seq: u64,
    },
}

impl ClientMessage {
    /// Every `type` literal, in the reference's order.
    pub const TYPES: [&'static str; 23] = [
        "submit",
        "command",
        "abort",
        "cancel-queue",
        "get-messages",
        "get-context",
        "get-usage-report",
        "get-executing",
        "get-pending",
        "get-execution-workspace",
        "get-background-tasks",
        "get-background-task",
        "get-background-job-groups",
        "get-background-job-group",
        "wait-background-job-group",
        "cancel-background-task",
        "close-background-task",
        "send-background-task",
        "read-background-task-log",
        "permission-response",
        "ask-response",
        "resume",
        "ack",
    ];

    /// This message's `type` literal.
    #[must_use]
    pub const fn type_literal(&self) -> &'static str {
        let at = match self {
            Self::Submit { .. } => 0,
            Self::Command { .. } => 1,
            Self::Abort => 2,
            Self::CancelQueue => 3,
            Self::GetMessages => 4,
            Self::GetContext => 5,
            Self::GetUsageReport => 6,
            Self::GetExecuting => 7,
            Self::GetPending => 8,
            Self::GetExecutionWorkspace => 9,
            Self::GetBackgroundTasks { .. } => 10,
            Self::GetBackgroundTask { .. } => 11,
            Self::GetBackgroundJobGroups => 12,
            Self::GetBackgroundJobGroup { .. } => 13,
            Self::WaitBackgroundJobGroup { .. } => 14,
            Self::CancelBackgroundTask { .. } => 15,
            Self::CloseBackgroundTask { .. } => 16,
            Self::SendBackgroundTask { .. } => 17,
            Self::ReadBackgroundTaskLog { .. } => 18,
            Self::PermissionResponse { .. } => 19,
            Self::AskResponse { .. } => 20,
            Self::Resume { .. } => 21,
            Self::Ack { .. } => 22,
        };
        Self::TYPES[at]
    }
}
