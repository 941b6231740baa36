//! Background tasks, job groups, subagents and the execution workspace (layer 0; names only
//! `agent_core`).
//!
//! The vocabulary shared by whatever schedules execution (a task manager, a subagent runner)
//! and whatever shows it (a terminal list, a remote surface): what a task is asked to do, how it
//! stands, what it produced, what it reports, how tasks are grouped, what a subagent job is, and
//! the one list that shows the main thread, tasks and groups together. Declarations, two ports
//! (listeners and a group-id factory) and small pure functions over these types; no runner, no
//! I/O, nothing raised: [`BackgroundTaskError`] is a failure carried as a value.
//!
//! # Rust shape
//!
//! * Closed literal sets are enums with exact wire literals and no catch-all variant.
//!   [`ExecutionWorkspaceStatus`] is `Active`, `Idle` or a [`BackgroundTaskStatus`] (written as
//!   the bare literal), so the task statuses are declared once.
//! * Requests and results are enums tagged on `kind` whose variants hold one struct per kind
//!   *without* a `kind` field; the enum writes the tag. The fields every kind shares live once
//!   ([`BackgroundTaskRequestBase`], [`BackgroundTaskResultBase`]) and are flattened on the wire.
//! * Subagent types are derived, not declared again: [`SubagentSpawnRequest`] *is*
//!   [`AgentBackgroundTaskRequest`], [`SubagentJobResult`] *is* [`AgentBackgroundTaskResult`],
//!   [`SubagentJobMode`] *is* [`BackgroundTaskMode`], and the fields a [`SubagentJobState`]
//!   shares with a [`BackgroundTaskState`] are one [`JobStateFields`] flattened into both.
//!   [`SubagentJobStatus`] lists the task statuses but `paused`; it converts into
//!   [`BackgroundTaskStatus`] and back (`TryFrom` refuses `paused`).
//! * [`BackgroundTaskUsage`] is an alias of [`TokenUsage`](crate::agent_core::TokenUsage).
//! * Depths, pids and counts are `u32`; milliseconds, bytes, offsets, seconds and the history
//!   length are `u64`; so a negative or fractional value fails to decode. `exitCode` is `i32`.
//!   Timestamps are ISO-8601 strings carried as written.
//! * Events are enums tagged on `type`. Lifecycle task events hold the task state boxed.
//! * Ports are traits implemented for closures: [`BackgroundTaskEventListener`],
//!   [`BackgroundJobGroupEventListener`], [`BackgroundJobGroupIdFactory`].
//!
//! # What the types enforce
//!
//! * Only an agent request has a permission policy, and there it is required. A scheduled
//!   request has no field for one, and JSON carrying `permissionPolicy` on it fails to decode
//!   with an error naming the key: a schedule's instruction wakes the host session, whose own
//!   permission configuration governs that turn.
//! * A fork reaches a task as `resumeSessionId` alone: the agent request has no field that
//!   could carry a conversation.
//! * A result carries only its own kind's fields: `usage` only on an agent result, `exitCode`
//!   and `signalCode` only on a process result. JSON with a field of another kind fails to
//!   decode, naming the field.
//! * `cancel` on a workspace entry with a `loopId` stops the loop
//!   ([`ExecutionWorkspaceEntry::cancel_route`]); loop-ness is read from `loopId` only, never
//!   from the task kind or the title.
//!
//! # Pure functions
//!
//! [`BackgroundTaskStatus::is_terminal`]; [`BackgroundTaskRequest::kind`],
//! [`BackgroundTaskResult::kind`], [`BackgroundTaskEvent::task_id`] and the other accessors;
//! [`ExecutionWorkspaceStatus::normalized_state`] (total) and
//! [`ExecutionNormalizedState::derive`] (a parked prompt wins), with the task, group and
//! main-thread shortcuts; [`attach_offered`] and [`ExecutionWorkspaceEntry::cancel_route`];
//! [`SubagentJobStatus::from_task_status`]; [`ExecutionSelfPacedLoopSummary::needs_own_entry`].
//!
//! # Decisions where the catalog is silent
//!
//! Field names and literals were checked against the TypeScript sources of the family.
//!
//! * `idle` normalizes to `completed`: an idle main thread has finished its last turn. It is
//!   not `stopped` (nobody stopped it) nor `needs-input` (that would flag every quiet session).
//! * A parked prompt is what either `hasPendingPrompt` or `pendingRequest` of the main-thread
//!   input says; it wins over the status.
//! * A group normalizes to `failed` once a recorded task failed, else `completed` once the group
//!   completed, else `working`.
//! * The task state is one record for every kind (a per-kind state was not recovered), but
//!   decoding checks that a state's `result` has the state's own `kind`: a process task holding
//!   an agent result is refused.
//! * `permissionPolicy` is refused on every non-agent request (process and tool-invocation as
//!   well as scheduled): only an agent has a policy to apply.
//! * A schedule (and so a scheduled request) needs `command` or `agentInstruction`; one with
//!   neither has nothing to do and fails to decode.
//! * The scheduled request holds its cron expression, command, instruction, shell and
//!   environment as a flattened [`BackgroundTaskSchedule`], the record a task state persists.
//! * The fixed literals `provenanceOwner: 'mcp'` and the workspace event's `type` are not
//!   fields: they are written on encoding, checked on decoding and read through
//!   [`ToolInvocationBackgroundTaskRequest::provenance_owner`] and
//!   [`ExecutionWorkspaceEvent::event_type`].
//! * [`BackgroundPrimitive`] is a string, an `f64` or a boolean; a whole number is written
//!   without a fraction (`3`), and a non-finite number cannot be encoded.
//! * `cancel_route` answers `NotCancellable` when the entry offers no `cancel` control, and for
//!   a main-thread or group entry without `loopId` (the contract names no target for them).
//! * `attach` qualifies exactly on a `background_task` entry with a `resumeSessionId`
//!   ([`attach_offered`]); decoding does not police the `controls` list.
//! * A self-paced loop needs an entry of its own only while `pending` or `running`.
//! * A paused task shows as a `sleeping` subagent job
//!   ([`SubagentJobStatus::from_task_status`]).
//! * [`SerializableProviderProfile`]'s `Debug` hides the API key.
//! * The catalog counts 13 task event types; the contract lists 12, and so does
//!   [`BackgroundTaskEventType`].
//! * Listeners take the event by reference and return nothing.
//! * [`CancelRoute::CancelTask`] names the entry's `sourceId` `task_id`: on a background-task
//!   entry that is the task's id.

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
