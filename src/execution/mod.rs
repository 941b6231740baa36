//! Background tasks, job groups, subagents and the execution workspace (feature `execution`,
//! layer 0; names only `agent_core`).
//!
//! It mirrors the TypeScript execution contracts: the vocabulary shared by whatever schedules
//! execution (a task manager, a subagent runner) and whatever shows it (a terminal list, a
//! remote surface). What a task is asked to do, how it stands, what it produced and reports, how
//! tasks are grouped, what a subagent job is, and the one list that shows the main thread, tasks
//! and groups together. Declarations, two ports (listeners and a group-id factory) and small
//! pure functions; no runner, no I/O, nothing raised: [`BackgroundTaskError`] is a value.
//!
//! # Guarantees
//!
//! - **Only an agent request has a permission policy**, and there it is required; any other
//!   request carrying `permissionPolicy` fails to decode, naming the key.
//! - **A fork reaches a task as `resumeSessionId` alone**: no field can carry a conversation.
//! - **A result carries only its own kind's fields** (`usage` only on an agent result,
//!   `exitCode`/`signalCode` only on a process result), and a task state's `result` has the
//!   state's own `kind`; anything else fails to decode, naming the field.
//! - **Closed sets are enums** with the exact wire literals; negative or fractional counts,
//!   sizes and times fail to decode.
//! - **Loop-ness is read from `loopId` only**: `cancel` on an entry with one stops the loop.
//!
//! # Pure functions
//!
//! [`BackgroundTaskStatus::is_terminal`]; the accessors ([`BackgroundTaskRequest::kind`],
//! [`BackgroundTaskResult::kind`], [`BackgroundTaskEvent::task_id`], …);
//! [`ExecutionWorkspaceStatus::normalized_state`] (total) and
//! [`ExecutionNormalizedState::derive`] (a parked prompt wins), with the task, group and
//! main-thread shortcuts; [`attach_offered`] and [`ExecutionWorkspaceEntry::cancel_route`];
//! [`SubagentJobStatus::from_task_status`]; [`ExecutionSelfPacedLoopSummary::needs_own_entry`].
//!
//! # Example
//!
//! ```
//! use agent_interface::execution::{
//!     BackgroundTaskStatus, ExecutionEntryKind, ExecutionNormalizedState as State,
//!     ExecutionWorkspaceStatus as Status, attach_offered,
//! };
//!
//! assert_eq!(State::derive(Status::Idle, false), State::Completed);
//! assert_eq!(State::derive(Status::Active, true), State::NeedsInput); // a parked prompt wins
//! let paused = Status::Task(BackgroundTaskStatus::Paused);
//! assert_eq!(paused.normalized_state(), State::Stopped);
//! assert!(attach_offered(ExecutionEntryKind::BackgroundTask, Some("s-2")));
//! assert!(!attach_offered(ExecutionEntryKind::MainThread, Some("s-2")));
//! ```
//!
//! Decisions where the contract was silent: `docs/decisions/execution.md`.

/// `impl From<Payload> for Enum` for each `Variant(Payload)` of a kind-tagged union, so every
/// payload converts into its union the same way (crate-private helper of this family).
macro_rules! from_variants {
    ($union:ident { $($variant:ident($payload:ty)),+ $(,)? }) => {
        $(
            impl From<$payload> for $union {
                fn from(payload: $payload) -> Self {
                    Self::$variant(payload)
                }
            }
        )+
    };
}

mod job_group;
mod subagent;
mod task_event;
mod task_request;
mod task_result;
mod task_schedule;
mod task_state;
mod task_vocabulary;
#[cfg(feature = "serde")]
mod wire_check;
mod workspace;
mod workspace_projection;

pub use job_group::{
    BackgroundJobGroupCreateRequest, BackgroundJobGroupEvent, BackgroundJobGroupEventListener,
    BackgroundJobGroupEventType, BackgroundJobGroupIdFactory, BackgroundJobGroupState,
    BackgroundJobGroupStatus, BackgroundJobGroupSummary, BackgroundJobResultEnvelope,
    BackgroundJobWaitPolicy,
};
pub use subagent::{
    PausedSubagentStatus, SubagentJobMode, SubagentJobResult, SubagentJobState, SubagentJobStatus,
    SubagentSpawnRequest,
};
pub use task_event::{BackgroundTaskEvent, BackgroundTaskEventListener, BackgroundTaskEventType};
pub use task_request::{
    AgentBackgroundTaskRequest, BackgroundTaskRequest, BackgroundTaskRequestBase,
    ProcessBackgroundTaskRequest, ScheduledBackgroundTaskRequest, SerializableProviderProfile,
    ToolInvocationBackgroundTaskRequest, ToolProvenanceOwner,
};
pub use task_result::{
    AgentBackgroundTaskResult, BackgroundTaskResult, BackgroundTaskResultBase,
    ProcessBackgroundTaskResult, ScheduledBackgroundTaskResult, ToolInvocationBackgroundTaskResult,
};
pub use task_schedule::BackgroundTaskSchedule;
pub use task_state::{
    BackgroundTaskInput, BackgroundTaskListFilter, BackgroundTaskLogCursor, BackgroundTaskLogPage,
    BackgroundTaskState, JobStateFields,
};
pub use task_vocabulary::{
    BackgroundPrimitive, BackgroundPrimitiveMap, BackgroundTaskError, BackgroundTaskErrorCategory,
    BackgroundTaskIsolation, BackgroundTaskKind, BackgroundTaskMode, BackgroundTaskStatus,
    BackgroundTaskTimeoutReason, BackgroundTaskUsage,
};
pub use workspace::{
    CancelRoute, ExecutionAttention, ExecutionControl, ExecutionDetailCursor, ExecutionDetailPage,
    ExecutionDetailRecord, ExecutionDetailRecordKind, ExecutionEntryKind, ExecutionHeadline,
    ExecutionHeadlineKind, ExecutionNormalizedState, ExecutionOrigin, ExecutionOriginKind,
    ExecutionPendingRequest, ExecutionPendingRequestKind, ExecutionWorkspaceEntry,
    ExecutionWorkspaceEntryRef, ExecutionWorkspaceEvent, ExecutionWorkspaceEventType,
    ExecutionWorkspaceFilter, ExecutionWorkspaceSnapshot, ExecutionWorkspaceSnapshotOptions,
    ExecutionWorkspaceStatus, ExecutionWorkspaceUpdateCause, ExecutionWorkspaceVisibility,
    attach_offered,
};
pub use workspace_projection::{
    CreateExecutionWorkspaceSnapshotInput, CreateLineDetailPageInput,
    CreateMainThreadDetailPageInput, CreateMainThreadEntryInput, ExecutionSelfPacedLoopPhase,
    ExecutionSelfPacedLoopSummary,
};
